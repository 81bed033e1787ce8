"""The short ways pnp takes for the common case must give what the long ways give: text
lines written as operators directly, plain card text, YAML built from the parser's events,
the cheap bound of the nesting check, and decks kept between rebuilds (issue 31)."""

from __future__ import annotations

import io
import shutil

import pytest
import yaml
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from conftest import REPO, build, pdf
from pnp import yaml_source
from pnp.config import deck as deck_module
from pnp.errors import PnpError
from pnp.layout.text_ops import draw_line
from pnp.yaml_source import MAX_DEPTH, YamlList, YamlMap, load_yaml, possible_openers

FONT = "fast-paths-lato"
pdfmetrics.registerFont(TTFont(FONT, str(REPO / "pnp/bundled/fonts/Lato-Regular.ttf")))

LINES = ["Gain 15 yards. (card 7)", "Tür öffnen — “quoted” ½", "(a) \\ [b] 100%", "ASCII then Ω then ASCII",
         "~`!@#$%^&*()_+-={}|:;'<>?,./"]


def drawn(how) -> list[str]:
    canvas = Canvas(io.BytesIO(), invariant=1)
    canvas.setFont(FONT, 9.5)
    for number, line in enumerate(LINES):
        how(canvas, 10.0 + number, 700.0 - 12.5 * number, line)
    return canvas._code


@pytest.mark.parametrize("anchor, method", [(0.0, "drawString"), (0.5, "drawCentredString"),
                                            (1.0, "drawRightString")])
def test_a_line_written_directly_is_what_reportlab_writes(anchor, method):
    ours = drawn(lambda canvas, x, y, line: draw_line(canvas, x, y, line, anchor))
    theirs = drawn(lambda canvas, x, y, line: getattr(canvas, method)(x, y, line))
    assert ours == theirs
    assert any("Tj" in code for code in ours)


def test_plain_card_text_draws_as_the_general_way_does(tmp_path, monkeypatch):
    """The same deck built with every text sent the long way (no character counts as plain)
    draws the same pages, byte for byte."""
    from pnp.layout import elements
    root = tmp_path / "root"
    for folder in ("layouts", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copytree(REPO / "card_data/jukem", root / "card_data/jukem")
    build(root, "jukem", tmp_path / "short")
    monkeypatch.setattr(elements, "simple_characters", lambda font: frozenset())
    from pnp.layout import text
    text.fit_paragraph.cache_clear()
    build(root, "jukem", tmp_path / "long")
    short, long = (pdf(tmp_path / way / "jukem/cards-letter.pdf") for way in ("short", "long"))
    assert [page.get_contents().get_data() for page in short.pages] == \
        [page.get_contents().get_data() for page in long.pages]


DOCUMENTS = [
    "label: name\nfields:\n  name: {type: text}\ncards:\n  - name: A\n    count: 2\n  - {name: B}\n",
    "- x\n- {a: b, c: [1, 2.5, true, null, ~]}\n- [1, [2, [3]]]\n-\n  - deep: {er: [x]}\n",
    "a: |\n  text\n  more\nb: >\n  folded\nc: 'quoted: yes'\nd: \"x\\ty\"\ne: 2024-01-01\nf: 0x1F\n",
    "a: &x [1, 2]\nb: *x\n", "<<: {a: 1}\nb: 2\n", "a: !!str 3\n", "'<<': 1\nq: '='\n",
]


def lines_of(value):
    if isinstance(value, YamlMap):
        return ("map", value.line, dict(value._key_lines), {k: lines_of(v) for k, v in value.items()})
    if isinstance(value, YamlList):
        return ("list", value.line, list(value._item_lines), [lines_of(v) for v in value])
    return value


@pytest.mark.parametrize("text", DOCUMENTS)
def test_yaml_built_from_events_keeps_what_the_composer_keeps(tmp_path, monkeypatch, text):
    path = tmp_path / "data.yaml"
    path.write_text(text)
    walked = load_yaml(path, expect=object)

    def composer_only(loader):
        raise yaml_source._Unusual
    monkeypatch.setattr(yaml_source, "walked", composer_only)
    composed = load_yaml(path, expect=object)
    assert walked == composed
    assert lines_of(walked) == lines_of(composed)


@pytest.mark.parametrize("text, line", [("a: 1\nb: 2\na: 3\n", 3), ("x:\n  - {k: 1, k: 2}\n", 2)])
def test_a_duplicate_key_is_still_told_at_its_line(tmp_path, text, line):
    path = tmp_path / "data.yaml"
    path.write_text(text)
    with pytest.raises(PnpError) as caught:
        load_yaml(path, expect=object)
    assert caught.value.line == line and "appears twice" in str(caught.value)


def test_braces_in_card_text_do_not_count_as_nesting():
    assert possible_openers("- text: that run gains {bonus} yards [sic]\n" * 500) == 0


@pytest.mark.parametrize("before", ["a: ", "a: &x ", "a: !!seq ", "- &x !!seq ", "[\n# note\n", "'[[[' : "])
def test_nesting_behind_an_anchor_tag_or_comment_is_counted_and_refused(tmp_path, before):
    text = before + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + ("]" if before.startswith("[") else "") + "\n"
    assert max_depth(text) > MAX_DEPTH
    assert possible_openers(text) >= MAX_DEPTH + 5   # every bracket that nests is counted
    path = tmp_path / "deep.yaml"
    path.write_text(text)
    with pytest.raises(PnpError, match="nested more than"):
        load_yaml(path, expect=object)


def max_depth(text: str) -> int:
    depth = deepest = 0
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    return deepest


def test_a_kept_deck_is_read_again_only_when_its_bytes_change(tmp_path, monkeypatch):
    monkeypatch.setattr(deck_module, "_KEPT", {})
    reads = []
    real = deck_module.read_deck
    monkeypatch.setattr(deck_module, "read_deck", lambda path, node: reads.append(path) or real(path, node))
    path = tmp_path / "cards.yaml"
    path.write_text("label: name\nfields:\n  name: {type: text}\ncards:\n  - {name: Ann}\n  - {name: Bo}\n")
    first = deck_module.load_deck(path)
    first.cards[0]["name"] = "changed by a build"   # what fill_texts does to a build's cards
    again = deck_module.load_deck(path)
    assert len(reads) == 1
    assert [card["name"] for card in again.cards] == ["Ann", "Bo"]
    assert again.cards[0].where == first.cards[0].where and again.cards[0].label == "Ann"
    path.write_text("label: name\nfields:\n  name: {type: text}\ncards:\n  - {name: Cy}\n")
    assert [card["name"] for card in deck_module.load_deck(path).cards] == ["Cy"]
    assert len(reads) == 2
