"""Bugs that once survived the whole suite, each put in on purpose and now caught here: a limit
off by one, a missing bleed edge, backs shifted instead of mirrored, limits and required
fields not enforced, `<` in card text, whole numbers printed as 2.0, a Copies column of 1s."""

from __future__ import annotations

import re

import pytest
from PIL import Image

from conftest import MM, build, pdf, placements, render_png, run
from pnp.impose import PAPER_SIZES, fold_sheet

GAME = "card_data/mini/game.yaml"
CARDS = "card_data/mini/cards.yaml"


def with_rule(mini, rule: str) -> None:
    game = mini / GAME
    game.write_text(game.read_text() + f"  - {rule}\n")


@pytest.mark.parametrize("rule, ok", [
    ("{rule: count, deck: cards, where: {name: Knight}, at_least: 4, source: Contents}", True),
    ("{rule: count, deck: cards, where: {name: Knight}, at_least: 5, source: Contents}", False),
    ("{rule: count, deck: cards, where: {name: Knight}, at_most: 4, source: Contents}", True),
    ("{rule: count, deck: cards, where: {name: Knight}, at_most: 3, source: Contents}", False),
    ("{rule: count, deck: cards, where: {name: Knight}, equals: 4, source: Contents}", True),
    ("{rule: count, deck: cards, where: {name: Knight}, equals: 3, source: Contents}", False),
])
def test_count_limits_hold_exactly_at_the_boundary(mini, rule, ok):
    """The deck has 4 Knights: at least 4 and at most 4 pass, 5 and 3 do not."""
    with_rule(mini, rule)
    result = run("validate", "--game", "mini", root=mini)
    assert (result.exit_code == 0) == ok, result.output + result.stderr
    if not ok:
        assert "the deck has 4 cards" in result.stderr


def test_a_full_bleed_background_fills_the_bleed_on_all_four_sides(mini, tmp_path):
    build(mini, "mini", tmp_path, "--shop", "tgc")
    face = Image.open(next((tmp_path / "mini/tgc/cards").glob("cards-001-front*.png"))).convert("RGB")
    w, h = face.size
    background = (0x22, 0x44, 0x66)
    for x, y in ((1, h // 2), (w - 2, h // 2), (w // 2, 1), (w // 2, h - 2), (1, 1), (w - 2, h - 2)):
        assert max(abs(a - b) for a, b in zip(face.getpixel((x, y)), background)) < 8, (x, y)


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", [(63.5, 88.9), (88.9, 63.5), (44.45, 63.5), (120.0, 70.0)])
def test_fold_sheet_backs_are_the_mirror_image_of_their_fronts_across_the_fold(paper, size):
    sheet = fold_sheet(PAPER_SIZES[paper], (size[0] * MM, size[1] * MM), 0.0)
    fx0, fy0, fx1, fy1 = sheet.fold_line
    pw, ph = sheet.fronts.piece
    for index in range(sheet.per_sheet):
        x, y = sheet.fronts.slot(index)
        bx, by = sheet.back_slot(index)
        if sheet.across:   # fold line y = fy0: the back's centre is the front's, reflected in it
            assert bx == pytest.approx(x) and by + ph / 2 == pytest.approx(2 * fy0 - (y + ph / 2))
        else:
            assert by == pytest.approx(y) and bx + pw / 2 == pytest.approx(2 * fx0 - (x + pw / 2))
        # and the back's slot in the backs' grid is that very place
        assert sheet.backs.slot(sheet.back_index(index)) == pytest.approx((bx, by))


def test_both_fold_directions_are_covered_above():
    directions = {fold_sheet(PAPER_SIZES[paper], (w * MM, h * MM), 0.0).across
                  for paper in ("letter", "a4") for w, h in ((63.5, 88.9), (88.9, 63.5), (44.45, 63.5), (120.0, 70.0))}
    assert directions == {True, False}


def test_a_folded_sheet_puts_each_cards_own_back_behind_it(mini, tmp_path):
    """Read from a render: each card's front and back are filled with the card's own colour,
    and the colour at every piece's centre is found again at its mirror image across the fold."""
    cards = mini / CARDS
    cards.write_text(cards.read_text().replace("    count: 2\n", "    count: 2\n    colour: \"#1f9e3a\"\n"))
    back = mini / "layouts/mini/back.yaml"
    back.write_text(back.read_text() + '  - {kind: box, fill: "{colour}", inset: 4mm}\n')
    build(mini, "mini", tmp_path, "--duplex", "fold")
    path = tmp_path / "mini/cards-a4-fold.pdf"
    page = pdf(path).pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    image = render_png(path, 0, scale=1).convert("RGB")
    pieces = placements(page)
    centres = [(x + w / 2, y + h / 2) for x, y, w, h in pieces]
    across = fold_sheet(PAPER_SIZES["a4"], (44.45 * MM, 63.5 * MM), None, count=6).across   # which way it folds
    colours = set()
    for cx, cy in centres:
        mx, my = (cx, height - cy) if across else (width - cx, cy)
        assert any(abs(mx - ox) < 1 and abs(my - oy) < 1 for ox, oy in centres), (cx, cy)
        here = image.getpixel((round(cx), round(height - cy)))
        there = image.getpixel((round(mx), round(height - my)))
        assert here == there, ((cx, cy), here, there)
        colours.add(here)
    assert len(pieces) == 12 and len(colours) == 2   # 6 cards, 6 backs; Knights and Bishops differ


@pytest.mark.parametrize("edit, message", [
    (("size: 8\n", "size: 0.5\n"), "0.5 is too small; the least allowed is 1"),
    (("size: 14\n", "size: 5000\n"), "5000 is too large; the most allowed is 2000"),
])
def test_limits_on_layout_values_are_enforced(mini, edit, message):
    card = mini / "layouts/mini/card.yaml"
    card.write_text(card.read_text().replace(*edit))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and message in result.stderr, result.stderr
    assert "card.yaml:" in result.stderr


def test_a_required_field_left_empty_is_an_error(mini):
    cards = mini / CARDS
    cards.write_text(cards.read_text().replace("name: Bishop", 'name: ""'))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1, result.stdout
    assert f"{CARDS}:" in result.stderr and "name" in result.stderr


@pytest.mark.parametrize("text", ["Power < 3 & > 1", "**Strong** when < 3 <b>", "a <br/> is text"])
def test_angle_brackets_and_ampersands_in_card_text_print_as_written(mini, tmp_path, text):
    cards = mini / CARDS
    cards.write_text(cards.read_text().replace("text: Moves in an L.", f"text: {text!r}".replace("'", '"')))
    build(mini, "mini", tmp_path)
    printed = pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text()
    assert text.replace("**", "") in " ".join(printed.split()), printed


def test_whole_numbers_print_without_a_decimal_point(mini, tmp_path):
    cards = mini / CARDS
    text = cards.read_text().replace("power: {type: whole}", "power: {type: number}")
    cards.write_text(text.replace("power: 3", "power: 3.0").replace("power: 2", "power: 2.5"))
    build(mini, "mini", tmp_path)
    printed = pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text().split()
    assert "3" in printed and "2.5" in printed and "3.0" not in printed


def test_the_rule_sheet_card_list_gives_each_cards_copies(mini, tmp_path):
    game = mini / GAME
    game.write_text(game.read_text().replace(
        "    source: rules.md\n",
        "    source: rules.md\n    tables:\n      card-list: {deck: cards, columns: [name, count], headings: [Card, Copies]}\n"))
    rules = mini / "card_data/mini/rules.md"
    rules.write_text(rules.read_text() + "\n## Cards\n\n{{card-list}}\n")
    build(mini, "mini", tmp_path)
    text = " ".join(pdf(tmp_path / "mini/rules-a4.pdf").pages[0].extract_text().split())
    assert re.search(r"Knight 4\b", text) and re.search(r"Bishop 2\b", text), text


TABLE = """  - kind: table
    x: 4mm
    y: 44mm
    w: 36mm
    h: 12mm
    header: true
    header_fill: "{colour}"
    rows: [[Power, Card], [a, b]]
"""


def test_a_table_heading_fill_bound_to_a_field_takes_each_cards_own_colour(mini, tmp_path):
    """It was drawn once, in the first card's colour, and stamped on every card."""
    cards = mini / CARDS
    cards.write_text(cards.read_text().replace("    count: 2\n", "    count: 2\n    colour: \"#1f9e3a\"\n"))
    card = mini / "layouts/mini/card.yaml"
    card.write_text(card.read_text() + TABLE)
    build(mini, "mini", tmp_path, "--shop", "tgc")
    colours = []
    for number in (1, 2):
        face = Image.open(next((tmp_path / "mini/tgc/cards").glob(f"cards-00{number}-front*.png"))).convert("RGB")
        w, h = face.size   # in the heading row, 10 mm in and 45.5 mm down (plus 1/8 in bleed)
        colours.append(face.getpixel((int(w * (3.175 + 10) / (44.45 + 6.35)), int(h * (3.175 + 45.5) / (63.5 + 6.35)))))
    knight, bishop = colours
    assert abs(knight[2] - 0x66) < 12 and abs(bishop[1] - 0x9e) < 12, colours


@pytest.mark.parametrize("key", ["header_fill", "rule", "header_colour", "stripe"])
def test_a_misspelt_field_in_any_bindable_key_fails_validate_at_that_key(mini, key):
    card = mini / "layouts/mini/card.yaml"
    card.write_text(card.read_text() + TABLE.replace('    header_fill: "{colour}"\n', "")
                    + f'    {key}: "{{nmae}}"\n')
    line = len(card.read_text().splitlines())   # the key just written, the file's last line
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert f"card.yaml:{line}:" in result.stderr and "'nmae'" in result.stderr and "did you mean 'name'" in result.stderr
