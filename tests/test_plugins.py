"""pnp grows by plug-ins: a component kind, an element kind, a rule kind and an export format,
each one module plus its registration (docs/architecture.md, "Adding a kind of thing"). The toys
live in tests/toy_plugins.py, outside pnp; a game built with them shows each at work."""

from __future__ import annotations

import importlib
import sys

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from conftest import run


@pytest.fixture
def toys():
    module = importlib.import_module("toy_plugins")
    yield module
    for registry, name in module.REGISTERED:   # unregistered, so no other test sees them
        del registry[name]
    del sys.modules["toy_plugins"]


@pytest.fixture
def game(mini, toys):
    """The mini game with a sticker, a badge on every card front, a rule and a card-list shop."""
    manifest = mini / "card_data/mini/game.yaml"
    manifest.write_text(manifest.read_text()
                        .replace("contents:\n", "  - {id: hello, kind: sticker, words: Hello from a plug-in}\n"
                                                "contents:\n  - {rule: multiple-of, deck: cards, of: 3}\n"))
    card = mini / "layouts/mini/card.yaml"
    card.write_text(card.read_text() + "  - {kind: badge, x: 5mm, y: 5mm, w: 10mm, h: 10mm}\n")
    (mini / "shops").mkdir()
    (mini / "shops/card-list.yaml").write_text("name: Card list\nformat: card-list\nbleed: 0mm\n")
    return mini


def red_pixels(pdf: bytes) -> int:
    page = pdfium.PdfDocument(pdf)[0]
    image = page.render(scale=1).to_pil().convert("RGB")
    return sum(count for count, (r, g, b) in image.getcolors(1 << 20) if r > 200 and g < 60 and b < 60)


def test_a_game_builds_with_a_toy_of_each_kind(game, tmp_path):
    result = run("build", "--game", "mini", "--shop", "card-list", "--out", str(tmp_path / "out"), root=game)
    assert result.exit_code == 0, result.output
    out = tmp_path / "out/mini"
    # the component kind: its own page, joined into the print-all file as a home PDF
    assert "Hello from a plug-in" in PdfReader(out / "hello-a4.pdf").pages[0].extract_text()
    print_all = PdfReader(out / "mini-print-all-a4.pdf")
    assert any("Hello from a plug-in" in page.extract_text() for page in print_all.pages)
    assert "hello" in print_all.pages[0].extract_text().lower()   # named on the cover
    # the element kind: a red disc on the card fronts
    assert red_pixels((out / "cards-a4.pdf").read_bytes()) > 50
    # the export format: its file for the deck, and the shop's manifest
    assert (out / "card-list/cards.txt").read_text() == "Knight x4\nBishop x2\n"
    assert "cards.txt,cards,6," in (out / "card-list/manifest.csv").read_text()


def test_a_toy_rule_stops_a_build_when_the_deck_breaks_it(game, tmp_path):
    manifest = game / "card_data/mini/game.yaml"
    manifest.write_text(manifest.read_text().replace("of: 3", "of: 4"))
    result = run("validate", "--game", "mini", root=game)
    assert result.exit_code == 1
    assert "6 cards do not deal out evenly to 4" in result.output
    assert run("build", "--game", "mini", "--out", str(tmp_path / "out"), root=game).exit_code == 1


def test_a_shop_preset_naming_no_format_is_told_at_its_line(game, tmp_path):
    (game / "shops/card-list.yaml").write_text("name: Card list\nformat: card-lists\nbleed: 0mm\n")
    result = run("build", "--game", "mini", "--shop", "card-list", "--out", str(tmp_path / "out"), root=game)
    assert result.exit_code == 1
    assert "card-list.yaml:2" in result.output and "unknown shop format 'card-lists'" in result.output
    assert "did you mean 'card-list'" in result.output


def test_the_home_pdf_is_an_export_format_that_every_build_draws_through(mini, tmp_path, monkeypatch):
    """The home PDF is one module behind the same interface as the shop formats: registered by
    name, each component drawn through its `component`, the print-all file its `finish`."""
    from pnp.exporters import Exporter
    from pnp.exporters.home_pdf import HomePdf
    assert Exporter.formats["home"] is HomePdf
    asked: list[str] = []
    real = HomePdf.component
    monkeypatch.setattr(HomePdf, "component", lambda self, component: (asked.append(component.id),
                                                                       real(self, component))[1])
    finished: list[str] = []
    real_finish = HomePdf.finish
    monkeypatch.setattr(HomePdf, "finish", lambda self: (finished.extend(part.title for part in self.parts),
                                                         real_finish(self))[1])
    result = run("build", "--game", "mini", "--out", str(tmp_path / "out"), "--jobs", "1", root=mini)
    assert result.exit_code == 0, result.stderr
    assert asked == ["cards", "rules"]
    assert len(finished) == 2 and (tmp_path / "out/mini/mini-print-all-a4.pdf").is_file()


def test_a_shop_preset_cannot_name_the_home_pdf_as_its_format(mini, tmp_path):
    (mini / "shops").mkdir()
    (mini / "shops/home.yaml").write_text("name: At home\nformat: home\nbleed: 0mm\n")
    result = run("build", "--game", "mini", "--shop", "home", "--out", str(tmp_path / "out"), root=mini)
    assert result.exit_code == 1
    assert "home.yaml:2:" in result.stderr and "unknown shop format 'home'" in result.stderr, result.stderr
    hint = result.stderr.split("formats:")[1]
    assert "png" in hint and "home" not in hint
