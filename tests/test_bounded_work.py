"""Bounded work: inputs that would make the layout run for minutes end in one clear error
within seconds, at the line to fix, and the live preview recovers as soon as it is fixed."""

from __future__ import annotations

import time

import pytest

from conftest import build, pdf, run
from pnp.kinds import rule_sheet as rulesheet
from test_serve import Served

SECONDS = 30   # each case ends well within this, even on a busy machine (today's take minutes)


def rules(mini):
    return mini / "card_data/mini/rules.md"


def timed_run(*args, root):
    started = time.monotonic()
    result = run(*args, root=root)
    return result, time.monotonic() - started


LONG_HEADING = "## " + " ".join(["word"] * 3000) + "\n\n{{contents}}\n"
CASES = {
    "a heading longer than a page": (LONG_HEADING, "rules.md:1:", "a heading of"),
    "a 50,000-line code block": ("Rules\n\n```\n" + "\n".join(f"move {i}" for i in range(50_000)) + "\n```\n",
                                 "rules.md", "lays out"),
    "a paragraph of a million characters": ("Rules\n\n" + "word " * 200_000 + "\n", "rules.md", "lays out"),
    "a table cell longer than a column": ("| a | b |\n|---|---|\n| " + "word " * 3500 + " | x |\n",
                                          "rules.md", "taller than a whole column"),
    "forty thousand short paragraphs": ("Rules\n\n" + "Go.\n\n" * 40_000, "rules.md", "lines, more than"),
    "nine thousand short paragraphs": ("Rules\n\n" + "Go.\n\n" * 9_000, "rules.md", "more than 5,000 paragraphs"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_rule_sheet_too_big_to_lay_out_is_one_error_within_seconds(mini, tmp_path, case):
    text, where, words = CASES[case]
    rules(mini).write_text(text)
    for command in (["validate"], ["build", "--out", str(tmp_path / "out")]):
        result, took = timed_run(command[0], "--game", "mini", *command[1:], root=mini)
        assert took < SECONDS, (case, command[0], took)
        assert result.exit_code == 1, (case, result.output)
        assert where in result.stderr and words in result.stderr, result.stderr
        assert "internal problem" not in result.stderr and "Traceback" not in result.stderr
        assert "0x" not in result.stderr   # no object's place in memory: the same input, the same words
    assert not (tmp_path / "out/mini").exists()


def test_the_layout_stops_at_its_page_limit(mini, tmp_path, monkeypatch):
    """The last bound, should every other let something through: pages, counted as laid out."""
    monkeypatch.setattr(rulesheet, "MAX_PAGES", 3)
    rules(mini).write_text("Rules\n\n" + "A rule that takes a line or two of the column. " * 8 + "\n\n" * 1)
    assert run("validate", "--game", "mini", root=mini).exit_code == 0
    rules(mini).write_text("Rules\n\n" + ("A rule that takes a line or two of the column. " * 8 + "\n\n") * 300)
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "rules.md: the rule sheet runs past 3 pages" in result.stderr, result.stderr


def test_a_code_block_within_the_bound_prints_every_line(mini, tmp_path):
    rules(mini).write_text("Rules\n\n```\n" + "\n".join(f"move {i}" for i in range(rulesheet.MAX_CODE_LINES))
                           + "\n```\n\nThe end.\n")
    build(mini, "mini", tmp_path)
    text = "".join(page.extract_text() for page in pdf(tmp_path / "mini/rules-a4.pdf").pages)
    assert f"move {rulesheet.MAX_CODE_LINES - 1}" in text and "move 0" in text and "The end." in text


def test_the_preview_recovers_as_soon_as_the_fix_is_saved(mini, tmp_path):
    served = Served(mini, "mini", tmp_path / "out")
    good = rules(mini).read_text()
    rules(mini).write_text(LONG_HEADING)
    state = served.wait_for(lambda s: s["error"] is not None, timeout=SECONDS)
    assert "a heading of" in state["error"]["text"]
    rules(mini).write_text(good + "\nOne more line.\n")
    started = time.monotonic()
    served.wait_for(lambda s: s["error"] is None, timeout=SECONDS)
    assert time.monotonic() - started < SECONDS


def test_a_tuck_box_for_a_deck_too_thick_is_a_clear_error(mini, tmp_path):
    """600 cards make a box 18 cm deep: said at the tuck box, with how many cards fit."""
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("count: 4", "count: 300").replace("count: 2", "count: 300"))
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("equals: 6", "equals: 600")
                    .replace("contents:", "  - {id: box, kind: tuckbox}\ncontents:"))
    for command in (["validate"], ["build", "--out", str(tmp_path / "out")]):
        result = run(command[0], "--game", "mini", *command[1:], root=mini)
        assert result.exit_code == 1, result.output
        assert "game.yaml:" in result.stderr and "600 cards make a tuck box 181 mm deep" in result.stderr
        assert "at most 317 cards fit one box" in result.stderr
        assert "internal problem" not in result.stderr
    # at the most it names, the box is built (split over two sheets)
    cards.write_text(cards.read_text().replace("count: 300", "count: 150", 1).replace("count: 300", "count: 167"))
    game.write_text(game.read_text().replace("equals: 600", "equals: 317"))
    build(mini, "mini", tmp_path / "ok")
    assert len(pdf(tmp_path / "ok/mini/box-a4.pdf").pages) == 2


def workbook_and_bomb(tmp_path, sheet_data: bytes):
    """A plain workbook of one card (plain.xlsx) and the same with its sheet's data opening with
    `sheet_data` (cards.xlsx), written as a spreadsheet app's zip, so only that part differs."""
    import zipfile
    from openpyxl import Workbook
    plain = tmp_path / "plain.xlsx"
    book = Workbook()
    book.active.title = "Cards"
    for row in (["name", "power"], ["Ada", 3]):
        book.active.append(row)
    book.save(plain)
    bomb = tmp_path / "cards.xlsx"
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"<sheetData>", sheet_data)
            target.writestr(info, data)
    return plain, bomb


def test_a_workbook_with_a_huge_comment_is_refused_within_seconds(tmp_path):
    """90 MB of XML comment in a 97 KB workbook took the XML reader three minutes (its time
    grows with the square of one piece's length): one piece past a megabyte is refused."""
    from pnp.config.sheets import load_sheet_deck
    from pnp.errors import PnpError
    plain, bomb = workbook_and_bomb(tmp_path, b"<sheetData><!--" + b"a" * 3 * 2**20 + b"-->")
    started = time.monotonic()
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(bomb)
    assert time.monotonic() - started < SECONDS
    assert "holds one piece of 3 MB" in str(caught.value) and "cards.xlsx" in str(caught.value)
    assert load_sheet_deck(plain).cards[0]["name"] == "Ada"   # a workbook without one reads as ever


def test_a_workbook_of_unclosed_cell_tags_is_refused_within_seconds(tmp_path):
    """`<c ` sixty thousand times in a 5 KB workbook: finding the cells scanned from each one
    to the end of the sheet, minutes of work before any error."""
    from pnp.config.sheets import load_sheet_deck
    from pnp.errors import PnpError
    _, bomb = workbook_and_bomb(tmp_path, b"<sheetData>" + b"<c " * 60_000)
    started = time.monotonic()
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(bomb)
    assert time.monotonic() - started < SECONDS
    assert "cards.xlsx" in str(caught.value) and "not a readable XLSX" in str(caught.value), str(caught.value)


def test_an_svg_of_too_many_elements_is_refused_within_seconds(mini, tmp_path):
    """170,000 rectangles in a 4.7 MB SVG (under its size limit) took a minute and 800 MB."""
    rects = "".join(f'<rect x="{i % 100}" y="{i // 100}" width="1" height="1"/>' for i in range(25_000))
    icons = mini / "card_data/mini/icons"
    icons.mkdir()
    (icons / "coin.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">{rects}</svg>')
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.", 'text: "Gain :coin:"'))
    result, took = timed_run("validate", "--game", "mini", root=mini)
    assert took < SECONDS and result.exit_code == 1
    assert "coin.svg: this icon has 25,001 elements, more than pnp draws in one picture (20,000)" in result.stderr
