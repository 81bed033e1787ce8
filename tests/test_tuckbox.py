"""Tuck boxes: panels sized from the deck's cards and count (read from the PDF's fold lines),
folds dashed and cuts solid, every bundled game with one."""

from __future__ import annotations

import re

import pytest

from conftest import MM, REPO, build, pdf, render_png, run


def lines_of(page) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """(cut lines, fold lines): the solid lines drawn before the dash is set, the dashed after."""
    data = page.get_contents().get_data()
    block = data[data.rindex(b".6 w"):]          # the net's lines come last on the page
    solid, _, dashed = block.partition(b"[3 2] 0 d")
    parse = lambda chunk: [tuple(float(v) for v in m) for m in
                           re.findall(rb"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l", chunk)]
    return parse(solid), parse(dashed)


def steps(values) -> list[float]:
    values = sorted({round(v, 2) for v in values})
    return [round((b - a) / MM, 1) for a, b in zip(values, values[1:])]


def test_the_panels_are_sized_from_the_cards_and_their_count(tmp_path):
    build(REPO, "jukem", tmp_path)
    page = pdf(tmp_path / "jukem/tuck-boxes-letter.pdf").pages[0]
    cuts, folds = lines_of(page)
    assert cuts and folds
    # across: back | side | front | side | glue flap; 56 cards x 0.3 mm + 1 mm = 17.8 mm deep
    vertical = [x1 for x1, y1, x2, y2 in folds if x1 == x2]
    assert steps(vertical) == [17.8, 64.5, 17.8]         # 63.5 mm cards + 1 mm clearance
    horizontal = [y1 for x1, y1, x2, y2 in folds if y1 == y2]
    assert 89.9 in steps(horizontal) or round(89.9 + 17.8, 1) in steps(horizontal)   # 88.9 mm + 1 mm


@pytest.mark.parametrize("duplex", ["fold", "none"])
def test_cards_glued_from_two_sheets_get_a_box_twice_as_deep(tmp_path, duplex):
    """A folded or glued card is two sheets thick: 56 Jukem cards x 0.6 mm + 1 mm = 34.6 mm, where
    the box for one-sheet cards (17.8 mm) would not close over them."""
    build(REPO, "jukem", tmp_path, "--duplex", duplex)
    suffix = {"fold": "fold", "none": "no-duplex"}[duplex]
    _, folds = lines_of(pdf(tmp_path / f"jukem/tuck-boxes-letter-{suffix}.pdf").pages[0])
    vertical = [x1 for x1, y1, x2, y2 in folds if x1 == x2]
    assert steps(vertical) == [34.6, 64.5, 34.6]


def test_cards_without_backs_stay_one_sheet_thick_on_a_fold_or_glued_build(mini, tmp_path):
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("    back: mini/back\n", "")
                    .replace("contents:", "  - {id: box, kind: tuckbox, thickness: 1.5mm}\ncontents:"))
    build(mini, "mini", tmp_path, "--duplex", "none")
    _, folds = lines_of(pdf(tmp_path / "mini/box-a4-no-duplex.pdf").pages[0])
    vertical = [x1 for x1, y1, x2, y2 in folds if x1 == x2]
    assert steps(vertical) == [10.0, 45.5, 10.0]        # 6 cards x 1.5 mm + 1 mm, as on a duplex build


@pytest.mark.parametrize("thickness, depth", [("1.5mm", 10.0),   # 6 cards x 1.5 mm + 1 mm
                                              ("0.3mm", 6.0)])   # 2.8 mm: a spine no name fits on, so 6 mm
def test_a_thicker_deck_makes_a_deeper_box_and_a_thin_one_keeps_a_readable_spine(mini, tmp_path, thickness, depth):
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("contents:", f"  - {{id: box, kind: tuckbox, thickness: {thickness}}}\ncontents:"))
    build(mini, "mini", tmp_path)
    _, folds = lines_of(pdf(tmp_path / "mini/box-a4.pdf").pages[0])
    vertical = [x1 for x1, y1, x2, y2 in folds if x1 == x2]
    assert steps(vertical) == [depth, 45.5, depth]        # the sides; 44.45 + 1 mm wide


def test_folds_are_dashed_and_cuts_solid_with_glue_marked(tmp_path):
    build(REPO, "12th-player", tmp_path)
    page = pdf(tmp_path / "12th-player/tuck-boxes-letter.pdf").pages[0]
    data = page.get_contents().get_data()
    cuts, folds = lines_of(page)
    assert b"[3 2] 0 d" in data and len(cuts) > 20 and len(folds) >= 8
    assert "GLUE" in page.extract_text() and "The 12th Player" in page.extract_text()
    # no fold line is also a cut line
    assert not {tuple(round(v, 2) for v in line) for line in cuts} & {tuple(round(v, 2) for v in line) for line in folds}



def test_the_decks_back_is_on_front_and_back_and_its_name_on_the_sides(tmp_path):
    build(REPO, "jukem", tmp_path)
    path = tmp_path / "jukem/tuck-boxes-letter.pdf"
    scale = 2
    image = render_png(path, 0, scale=scale).convert("RGB")
    w, h = image.size
    green = lambda y: [(lambda r, g, b: g > r + 40 and g > b + 40)(*image.getpixel((x, y))) for x in range(w)]
    row = green(max(range(0, h, 4), key=lambda y: sum(green(y))))   # across the big panels
    runs, start = [], None
    for x, d in enumerate(row + [False]):
        if d and start is None:
            start = x
        elif not d and start is not None:
            runs.append((start, x))
            start = None
    wide = [(a, b) for a, b in runs if b - a > 40 * MM * scale]
    assert len(wide) == 2, runs               # Jukem's green back on the back and the front panel
    assert wide[1][0] - wide[0][1] > 15 * MM * scale   # with a paper-white side between them
    text = pdf(path).pages[0].extract_text()
    assert text.count("Jukem: Deck") == 2     # title and deck name on both sides

@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("game, boxes", [("12th-player", 1), ("jukem", 1), ("big-ten", 4), ("monster-ball", 3)])
def test_every_bundled_game_has_a_box_per_deck_that_a_box_can_hold(tmp_path, game, boxes, paper):
    """The same boxes on either paper: Big Ten's end zones fit a box on A4 alone, and an A4
    build gave them one (a print-all file two pages longer than Letter's)."""
    build(REPO, game, tmp_path, "--paper", paper)
    assert len(pdf(tmp_path / game / f"tuck-boxes-{paper}.pdf").pages) == boxes   # Big Ten's end zones: none


def test_a_deck_named_that_no_box_on_the_paper_can_hold_is_an_error(tmp_path):
    import shutil
    root = tmp_path / "root"
    for folder in ("card_data/big-ten", "layouts", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    game = root / "card_data/big-ten/game.yaml"
    game.write_text(game.read_text().replace("    kind: tuckbox\n", "    kind: tuckbox\n    decks: [end-zones]\n"))
    result = run("build", "--game", "big-ten", "--out", str(tmp_path / "out"), root=root)
    assert result.exit_code == 1 and "end-zones: 48 x 240 mm pieces make a tuck box too big" in result.stderr
    assert "game.yaml:" in result.stderr


def test_a_net_too_big_for_one_sheet_is_split_over_two_with_a_glue_tab(mini, tmp_path):
    """280 mini cards make a box 85 mm deep: the net fits no sheet whole, each half does."""
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("count: 4", "count: 140").replace("count: 2", "count: 140"))
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("equals: 6", "equals: 280")
                    .replace("contents:", "  - {id: box, kind: tuckbox}\ncontents:"))
    build(mini, "mini", tmp_path)
    reader = pdf(tmp_path / "mini/box-a4.pdf")
    assert len(reader.pages) == 2
    first, second = reader.pages
    assert "GLUE" in first.extract_text() and "GLUE" in second.extract_text()   # the tab; the side flap
    for number in (0, 1):   # each half whole on its sheet: ink inside, nothing in the 5 mm margin
        image = render_png(tmp_path / "mini/box-a4.pdf", number, scale=1).convert("L")
        w, h = image.size
        edge = int(5 * MM) - 1
        margin = [image.getpixel((x, y)) for x in range(0, w, 2) for y in list(range(edge)) + list(range(h - edge, h))]
        margin += [image.getpixel((x, y)) for y in range(0, h, 2) for x in list(range(edge)) + list(range(w - edge, w))]
        assert min(margin) > 240
        assert min(image.getpixel((x, y)) for x in range(0, w, 3) for y in range(0, h, 3)) < 60
    # the second half starts at the front, whose edge is glued onto the tab: cut, not folded
    cuts, folds = lines_of(second)
    verticals = lambda lines: {round(x1, 2) for x1, y1, x2, y2 in lines if x1 == x2}
    leftmost = min(verticals(cuts) | verticals(folds))
    assert leftmost in verticals(cuts) and leftmost not in verticals(folds)


def test_the_art_runs_past_the_cut_line_so_a_cut_a_hair_off_shows_no_white(tmp_path):
    """Across the middle of the 12th Player's box, from the sheet's left edge: the back
    panel's green starts 1 mm outside the solid cut line, where it used to stop 0.5 mm inside
    it (a white sliver on the box's face)."""
    build(REPO, "12th-player", tmp_path)
    scale = 8
    image = render_png(tmp_path / "12th-player/tuck-boxes-letter.pdf", 0, scale).convert("RGB")
    y = image.height // 2
    row = [image.getpixel((x, y)) for x in range(image.width)]
    first = next(x for x, pixel in enumerate(row) if min(pixel) < 200)   # the first ink from the left
    cut = next(x for x in range(first, image.width) if max(row[x]) < 60)   # the black cut line
    r, g, b = row[first]
    assert g > r + 20 and g > b + 20, row[first]   # the deck's green, not the line
    assert abs((cut - first) / scale / 72 * 25.4 - 1.0) < 0.25, (cut - first) / scale / 72 * 25.4
    inside = row[cut + int(0.6 * MM * scale)]
    assert inside[1] > inside[0] + 20, inside     # green just inside the cut line too
