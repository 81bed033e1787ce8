"""Redraw only what changed (issue 31, item 3): a component whose inputs did not change is
taken from the last build's files, which keep their bytes and times; what is drawn again
gives the same bytes as a build from scratch."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pypdfium2
import pytest

from conftest import build, pdf, run

OLD = 1_000_000_000   # a time long past, set on every file before the rebuild


def state(folder: Path) -> dict[str, tuple[str, int]]:
    """Each output file's SHA-256 and modification time."""
    return {path.name: (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
            for path in sorted(folder.glob("*.pdf"))}


def age(folder: Path) -> None:
    for path in folder.glob("*.pdf"):
        os.utime(path, (OLD, OLD))


def change_a_card(root: Path) -> None:
    data = root / "card_data/big-ten/defense.yaml"
    text = data.read_text(encoding="utf-8")
    assert 'name: "Run Blitz"' in text
    data.write_text(text.replace('name: "Run Blitz"', 'name: "Safety Blitz"'), encoding="utf-8")


def test_a_changed_card_rewrites_its_deck_alone(root, tmp_path):
    out = tmp_path / "out"
    build(root, "big-ten", out)
    folder = out / "big-ten"
    age(folder)
    before = state(folder)
    change_a_card(root)
    told = build(root, "big-ten", out).output
    after = state(folder)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"defense-letter.pdf", "big-ten-print-all-letter.pdf"}
    for name in set(before) - changed:
        assert after[name][1] == OLD * 10**9   # not written at all
    assert "offense-letter.pdf  14 pages, 54 KiB, unchanged, not drawn again" in told
    assert "defense-letter.pdf  14 pages, 89 KiB, unchanged" not in told
    # a card's name is in no count or table: the sheet and boxes that show every deck stand
    assert "rules-letter.pdf  3 pages, 75 KiB, unchanged, not drawn again" in told
    assert "tuck-boxes-letter.pdf  4 pages, 23 KiB, unchanged, not drawn again" in told

    # what was reused and what was drawn again is what a build from scratch makes
    fresh = tmp_path / "fresh"
    build(root, "big-ten", fresh)
    assert {name: sha for name, (sha, _) in state(fresh / "big-ten").items()} == \
        {name: sha for name, (sha, _) in after.items()}


@pytest.mark.parametrize("edit, redrawn", [
    # the rule sheet's defense table sums the cards by kind
    (('kind: RUN DEFENSE, name: "Run Blitz"', 'kind: PASS DEFENSE, name: "Run Blitz"'),
     {"defense", "rules"}),
    # one card more: the contents' count and the deck's box, deeper by a card
    (('  - {type: run-defense, kind: RUN DEFENSE, name: "Stunt",',
      '  - {type: run-defense, kind: RUN DEFENSE, name: "Stunt", run: "No gain", pass: "Card yards", '
      'play_action: "Card yards +5", screen: "Card yards"}\n  - {type: run-defense, kind: RUN DEFENSE, name: "Stunt",'),
     {"defense", "rules", "tuck-boxes"}),
])
def test_what_shows_every_deck_is_drawn_again_when_what_it_shows_changed(root, tmp_path, edit, redrawn):
    out = tmp_path / "out"
    build(root, "big-ten", out, "--draft")   # a draft: built although the rules state otherwise
    data = root / "card_data/big-ten/defense.yaml"
    old, new = edit
    text = data.read_text(encoding="utf-8")
    assert old in text
    data.write_text(text.replace(old, new, 1), encoding="utf-8")
    told = build(root, "big-ten", out, "--draft").output
    drawn = {line.split()[0].rsplit("/", 1)[-1] for line in told.splitlines()
             if line.strip().endswith(" s") and "big-ten/" in line}
    assert drawn == {f"{id}-letter-draft.pdf" for id in redrawn | {"big-ten-print-all"}}
    fresh = tmp_path / "fresh"
    build(root, "big-ten", fresh, "--draft")
    assert {name: sha for name, (sha, _) in state(fresh / "big-ten").items()} == \
        {name: sha for name, (sha, _) in state(out / "big-ten").items()}


def recorded_cards(folder: Path) -> dict:
    import json

    from pnp.playtest.record import RECORD_KEY, unpacked
    return unpacked(json.loads((folder / ".pnp-build.json").read_text())[RECORD_KEY]["decks"])


def test_a_reused_deck_keeps_its_cards_in_the_record_without_compiling_its_layouts(root, tmp_path, monkeypatch):
    """What `pnp diff` and `--reprint` compare with next time: a deck taken from the last
    build's files has the cards that build recorded, as a build from scratch records them."""
    from pnp.kinds import deck
    out = tmp_path / "out"
    build(root, "big-ten", out)
    change_a_card(root)
    compiled: list[str] = []
    real = deck.compile_deck_layouts
    monkeypatch.setattr(deck, "compile_deck_layouts",
                        lambda ctx, component, bleed: (compiled.append(component.id), real(ctx, component, bleed))[1])
    build(root, "big-ten", out)
    assert "offense" not in compiled and "defense" in compiled
    build(root, "big-ten", tmp_path / "fresh")
    assert recorded_cards(out / "big-ten") == recorded_cards(tmp_path / "fresh/big-ten")
    assert "Safety Blitz" in str(recorded_cards(out / "big-ten")["defense"])


def pixels(path: Path, index: int) -> bytes:
    document = pypdfium2.PdfDocument(str(path))
    try:
        return document[index].render(scale=0.5).to_pil().tobytes()
    finally:
        document.close()


def test_the_print_all_file_shows_the_parts_as_written(root, tmp_path):
    """Assembled from the parts (reused and redrawn alike), its pages are theirs."""
    out = tmp_path / "out"
    build(root, "big-ten", out)
    change_a_card(root)
    build(root, "big-ten", out)
    folder = out / "big-ten"
    whole = folder / "big-ten-print-all-letter.pdf"
    # the cover and its blank back, then offense (14 pages), then defense
    assert pixels(whole, 2) == pixels(folder / "offense-letter.pdf", 0)      # reused
    assert pixels(whole, 2 + 14) == pixels(folder / "defense-letter.pdf", 0)  # drawn again
    assert pixels(whole, 2 + 14 + 5) == pixels(folder / "defense-letter.pdf", 5)
    assert pixels(whole, 2 + 14) != pixels(folder / "offense-letter.pdf", 0)


def test_a_reused_component_tells_its_warnings_again(root, tmp_path):
    out = tmp_path / "out"
    first = run("build", "--game", "monster-ball", "--out", str(out), "--bleed", root=root)
    warned = [line for line in (first.stderr or first.output).splitlines() if line.startswith("warning: tokens:")]
    assert warned
    data = root / "card_data/monster-ball/monsters.yaml"   # the rosters' data, not the tokens'
    data.write_text(data.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    again = run("build", "--game", "monster-ball", "--out", str(out), "--bleed", root=root)
    assert again.exit_code == 0
    assert "tokens-letter-bleed.pdf" in again.output and "not drawn again" in again.output
    for line in warned:
        assert line in (again.stderr or again.output)


def test_a_missing_file_is_drawn_again(root, tmp_path):
    out = tmp_path / "out"
    build(root, "big-ten", out)
    kept = (out / "big-ten/offense-letter.pdf").read_bytes()
    (out / "big-ten/offense-letter.pdf").unlink()
    change_a_card(root)
    told = build(root, "big-ten", out).output
    assert (out / "big-ten/offense-letter.pdf").read_bytes() == kept
    assert "offense-letter.pdf  14 pages, 54 KiB, unchanged" not in told


def test_validate_draws_every_page_but_makes_no_file_of_a_decks(root, monkeypatch):
    """Issue 31, item 6: validate draws as a build does, and leaves out writing the file."""
    from reportlab.pdfgen.canvas import Canvas

    from pnp.commands.validate import validate_game
    from pnp.project import Project
    saved, shown = [], []
    real_save, real_show = Canvas.save, Canvas.showPage
    monkeypatch.setattr(Canvas, "save", lambda self: (saved.append(1), real_save(self))[1])
    monkeypatch.setattr(Canvas, "showPage", lambda self: (shown.append(1), real_show(self))[1])
    problems, _ = validate_game(Project(root), "big-ten")
    assert problems == []
    assert len(shown) > 50      # the decks' pages, the board's, the rule sheet's, the tuck boxes'
    assert saved == []          # not even the rule sheet, which reportlab's platypus saves itself


def test_icons_are_found_again_when_the_folder_changes(mini):
    from pnp.layout.icons import icons_of
    game = mini / "card_data/mini"
    (game / "icons").mkdir(exist_ok=True)
    before = icons_of(game)
    assert "star" not in before
    (game / "icons/star.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>')
    assert icons_of(game)["star"] == (game / "icons/star.svg").resolve()
    (game / "icons/star.svg").unlink()
    assert "star" not in icons_of(game)


def test_a_build_in_two_processes_writes_the_bytes_of_one(root, tmp_path, monkeypatch):
    """Issue 31, item 5: --jobs 2 draws components in processes of their own, same bytes."""
    from pnp.commands import parallel
    apart: list[set[str]] = []
    real = parallel.drawn_apart
    monkeypatch.setattr(parallel, "drawn_apart", lambda *args: (apart.append(set(found := real(*args))), found)[1])
    build(root, "big-ten", tmp_path / "one", "--jobs", "1")
    assert apart == []
    build(root, "big-ten", tmp_path / "two", "--jobs", "2")
    assert apart and {"offense", "defense", "rules", "tuck-boxes"} <= apart[0]   # drawn in the other processes
    one, two = state(tmp_path / "one/big-ten"), state(tmp_path / "two/big-ten")
    assert {name: sha for name, (sha, _) in one.items()} == {name: sha for name, (sha, _) in two.items()}
    # the icon art the other processes drew is handed back: the record keeps the same
    import json
    icons = [json.loads((tmp_path / f"{run}/big-ten/.pnp-build.json").read_text())["icons"] for run in ("one", "two")]
    assert icons[0] == icons[1] and len(icons[0]["art"]) == 4


def test_the_environment_changes_no_byte(mini, tmp_path, monkeypatch):
    """SOURCE_DATE_EPOCH dated reportlab's files by the environment: the same input gave other
    bytes (1970 for 2000), and a later build counted them up to date. The time zone and the
    language of the environment change nothing either."""
    first = tmp_path / "first"
    build(mini, "mini", first)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    second = tmp_path / "second"
    build(mini, "mini", second)
    for path in (first / "mini").glob("*.pdf"):
        assert path.read_bytes() == (second / "mini" / path.name).read_bytes(), path.name


def test_a_layout_edited_between_two_builds_in_one_process_is_read_again(mini, tmp_path):
    """Layout files are read once for each text they hold (pnp.layout.template.parsed_layout),
    as watch and serve rebuild in one process: an edit, even one that keeps the file's size and
    time, is drawn the next time."""
    out = tmp_path / "out"
    back = mini / "layouts/mini/back.yaml"
    state = back.stat()
    build(mini, "mini", out)
    text = " ".join(page.extract_text() for page in pdf(out / "mini/cards-a4.pdf").pages)
    assert "MINI" in text and "MAXI" not in text
    back.write_text(back.read_text(encoding="utf-8").replace("text: MINI", "text: MAXI"), encoding="utf-8")
    os.utime(back, ns=(state.st_atime_ns, state.st_mtime_ns))
    build(mini, "mini", out)
    text = " ".join(page.extract_text() for page in pdf(out / "mini/cards-a4.pdf").pages)
    assert "MAXI" in text and "MINI" not in text
