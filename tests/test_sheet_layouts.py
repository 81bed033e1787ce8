"""Sheet layouts written as data (sheets/NAME.yaml): pieces where the file says, backs that
line up when the sheet is turned, bleed and cut marks as on pnp's own sheets, clear errors."""

from __future__ import annotations

import pytest

from conftest import MM, build, pdf, placements, run
from print_checks import bleed_problems, check_deck_page, marks, pieces

A4 = (595.2756, 841.8898)
MINI = (44.45 * MM, 63.5 * MM)

TWO_UP = """description: two mini cards side by side, 10 mm apart, near the top
paper: a4
piece: mini
slots:
  - {x: 50mm, y: 30mm}
  - {x: 115.55mm, y: 30mm}
"""


def use_sheet(mini, text: str, name: str = "two-up"):
    (mini / "sheets").mkdir(exist_ok=True)
    (mini / "sheets" / f"{name}.yaml").write_text(text)
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("    back: mini/back\n", f"    back: mini/back\n    sheet: {name}\n"))


def test_pieces_go_where_the_sheet_layout_says_and_backs_mirror_them(mini, tmp_path):
    use_sheet(mini, TWO_UP)
    build(mini, "mini", tmp_path)
    reader = pdf(tmp_path / "mini/cards-a4.pdf")
    assert len(reader.pages) == 6   # 6 cards, two a sheet, each sheet with its backs
    fronts = placements(reader.pages[0])
    expected = [(50 * MM, A4[1] - 30 * MM - MINI[1]), (115.55 * MM, A4[1] - 30 * MM - MINI[1])]
    assert [(round(x, 1), round(y, 1)) for x, y, _, _ in fronts] == [(round(x, 1), round(y, 1)) for x, y in expected]
    backs = placements(reader.pages[1])   # turned on the long edge: columns mirror
    assert sorted(round(x, 1) for x, _, _, _ in backs) == sorted(round(A4[0] - x - MINI[0], 1) for x, _ in expected)
    # a cut mark at both ends of each of the four vertical and two horizontal trim lines
    lines = marks(reader.pages[0])
    xs = {round(x, 1) for x, _ in expected} | {round(x + MINI[0], 1) for x, _ in expected}
    assert {round(x1, 1) for x1, y1, x2, y2 in lines if x1 == x2} == xs
    assert len([1 for x1, y1, x2, y2 in lines if x1 == x2]) == 2 * len(xs)
    assert len([1 for x1, y1, x2, y2 in lines if y1 == y2]) == 4


def test_a_bundled_sheet_layout_with_bleed_keeps_every_piece_out_of_its_neighbours_trim(mini, tmp_path):
    for name in ("card", "back"):
        layout = mini / f"layouts/mini/{name}.yaml"
        layout.write_text(layout.read_text().replace("size: mini", "size: poker"))
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("    back: mini/back\n", "    back: mini/back\n    sheet: poker-3x2-gutters-a4\n"))
    build(mini, "mini", tmp_path, "--bleed")
    page = pdf(tmp_path / "mini/cards-a4-bleed.pdf").pages[0]
    trims = [(x, y, x + w, y + h) for x, y, w, h in placements(page)]
    inks = [piece["ink"] for piece in pieces(page)]
    assert len(trims) == 6 and len(inks) == 6
    gaps = sorted({round(b[0] - a[2], 1) for a in trims for b in trims if 0 < b[0] - a[2] < 20 * MM})
    assert gaps == [round(3 * MM, 1)]   # the sheet's 3 mm gutters
    for i, ink in enumerate(inks):
        # bleed into the gutters: half of each (the outer sides keep their room for cut marks)
        assert ink[0] < trims[i][0] - 1 or ink[2] > trims[i][2] + 1
        # half of each 3 mm gutter beside it; the margin's 1.75 mm (to the printable 5 mm) outside
        for side, edge in ((trims[i][0] - ink[0], trims[i][0]), (ink[2] - trims[i][2], trims[i][2])):
            beside = any(0 < abs(t[0] - edge) < 5 * MM or 0 < abs(t[2] - edge) < 5 * MM for t in trims)
            assert side == pytest.approx(1.5 * MM if beside else 1.75 * MM, abs=0.05)
        for j, trim in enumerate(trims):
            if i != j:
                assert min(ink[2], trim[2]) - max(ink[0], trim[0]) < 0.01 or \
                    min(ink[3], trim[3]) - max(ink[1], trim[1]) < 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [[], ["--bleed"]])
def test_the_bundled_gutter_sheets_pass_the_print_checks(mini, tmp_path, paper, bleed):
    """Three columns with 3 mm gutters (A4) or 4 mm (Letter) leave 6.75 or 8.7 mm at the sides:
    every cut line lies where an inkjet prints, but the margin is too narrow for a mark past it,
    so the row lines are marked in the gutters between rows, 1 mm clear of every trim and bleed;
    with a bleed, each side gets what its gutter or margin holds."""
    for name in ("card", "back"):
        layout = mini / f"layouts/mini/{name}.yaml"
        layout.write_text(layout.read_text().replace("size: mini", "size: poker"))
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("    back: mini/back\n", f"    back: mini/back\n    sheet: poker-3x2-gutters-{paper}\n"))
    result = build(mini, "mini", tmp_path, "--paper", paper, *bleed)
    assert "cut at" not in result.stderr   # no line without a mark
    page = pdf(tmp_path / f"mini/cards-{paper}{'-bleed' if bleed else ''}.pdf").pages[0]
    size = {"a4": A4, "letter": (612.0, 792.0)}[paper]
    assert len(pieces(page)) == 6
    assert check_deck_page(page, size, paper) == []
    assert bleed_problems(page, size, 3 * MM if bleed else 0.0, paper) == []
    trims = sorted(p["trim"][0] for p in pieces(page))
    assert trims[0] >= 6.35 * MM   # the outer cut lines print on an inkjet


@pytest.mark.parametrize("text, message, line", [
    (TWO_UP.replace("x: 115.55mm", "x: 60mm"), "pieces 1 and 2 overlap", 6),
    (TWO_UP.replace("x: 115.55mm", "x: 180mm"), "piece 2 reaches into the 5 mm margin", 6),
    (TWO_UP.replace("piece: mini", "piece: poker"), "holds 63.5 x 88.9 mm pieces, but the deck's are 44.5 x 63.5 mm", 3),
    (TWO_UP + "grid: {columns: 2, rows: 1}\n", "exactly one of 'slots' or 'grid'", None),
    (TWO_UP.replace("x: 50mm", "x: 20mm"), "the back of piece 1 would land where no piece is", None),
    (TWO_UP.replace("slots:", "slot:"), "unknown key 'slot'", 4),
])
def test_a_bad_sheet_layout_is_one_clear_error(mini, tmp_path, text, message, line):
    use_sheet(mini, text)
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 1, result.output
    assert message in result.stderr, result.stderr
    if line:
        assert f"two-up.yaml:{line}:" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_an_unknown_sheet_layout_names_the_ones_there_are(mini, tmp_path):
    use_sheet(mini, TWO_UP)
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("sheet: two-up", "sheet: two-upp"))
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 1 and "no sheet layout 'two-upp'" in result.stderr
    assert "did you mean 'two-up'?" in result.stderr and "game.yaml:" in result.stderr


def test_a_sheet_layout_for_other_paper_says_which(mini, tmp_path):
    use_sheet(mini, TWO_UP)
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--paper", "letter", root=mini)
    assert result.exit_code == 1
    assert "is for a4 paper, not letter; build with --paper a4" in result.stderr


def test_editing_a_sheet_layout_rebuilds_the_deck(mini, tmp_path):
    use_sheet(mini, TWO_UP)
    build(mini, "mini", tmp_path)
    (mini / "sheets/two-up.yaml").write_text(TWO_UP.replace("y: 30mm", "y: 40mm"))
    result = build(mini, "mini", tmp_path)
    assert "up to date" not in result.output
    fronts = placements(pdf(tmp_path / "mini/cards-a4.pdf").pages[0])
    assert round(fronts[0][1], 1) == round(A4[1] - 40 * MM - MINI[1], 1)
