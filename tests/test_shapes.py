"""Shapes: regular polygons, polygons through points, stars, hex grids, dashed strokes and
opacity; vertices read back from the PDF's content stream, opacity from its graphics states
and a render."""

from __future__ import annotations

import math
import re

import pytest
from PIL import Image

from conftest import MM, pdf, placements, render_png, run

# The mini card is 44.45 x 63.5 mm; each test adds one element in a 20 mm box at (10, 10) mm.
BOX = "x: 10mm, y: 10mm, w: 20mm, h: 20mm"
CARD_H = 63.5 * MM


def with_element(mini, element: str) -> None:
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + f"  - {{{element}}}\n")


def built(mini, tmp_path, *extra):
    result = run("build", "--game", "mini", "--out", str(tmp_path), *extra, root=mini)
    assert result.exit_code == 0, result.stderr
    return pdf(tmp_path / ("mini/cards-a4-ink-saver.pdf" if "--ink-saver" in extra else "mini/cards-a4.pdf")).pages[0]


def drawing(page) -> bytes:
    xobjects = page["/Resources"].get("/XObject") or {}
    return page.get_contents().get_data() + b"".join(
        xobjects[n].get_object().get_data() for n in xobjects if xobjects[n].get_object().get("/Subtype") == "/Form")


def closed_paths(page) -> list[list[tuple[float, float]]]:
    """Every path of straight lines that is closed (m, l..., h), as its points."""
    paths = []
    for match in re.finditer(rb"([\d.-]+) ([\d.-]+) m((?:\s[\d.-]+ [\d.-]+ l)+)\sh", drawing(page)):
        points = [(float(match.group(1)), float(match.group(2)))]
        points += [(float(x), float(y)) for x, y in re.findall(rb"([\d.-]+) ([\d.-]+) l", match.group(3))]
        paths.append(points)
    return paths


def centre_and_radii(points):
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    return cx, cy, [math.hypot(x - cx, y - cy) for x, y in points]


def test_a_hexagon_fit_to_a_circle_is_six_corners_on_the_box_circle(mini, tmp_path):
    with_element(mini, f"kind: polygon, sides: 6, fit: circle, {BOX}, fill: red")
    paths = [p for p in closed_paths(built(mini, tmp_path)) if len(p) == 6]
    assert paths
    cx, cy, radii = centre_and_radii(paths[0])
    assert all(abs(r - 10 * MM) < 0.01 for r in radii)                     # on the box's circle
    assert abs(cx - 20 * MM) < 0.01 and abs(cy - (CARD_H - 20 * MM)) < 0.01   # centred in the box
    assert max(y for _, y in paths[0]) == pytest.approx(cy + 10 * MM, abs=0.01)   # a corner at the top


@pytest.mark.parametrize("sides, turn", [(6, 0), (6, 30), (5, 0), (3, 0), (8, 22.5), (7, 10)])
def test_a_regular_polygon_touches_all_four_sides_of_its_box(mini, tmp_path, sides, turn):
    """A wide box (30 x 12 mm): whatever the sides and turn, the corners reach its every edge."""
    with_element(mini, f"kind: polygon, sides: {sides}, turn: {turn}, x: 6mm, y: 10mm, w: 30mm, h: 12mm, fill: red")
    paths = [p for p in closed_paths(built(mini, tmp_path)) if len(p) == sides]
    assert paths
    xs, ys = [x for x, _ in paths[0]], [y for _, y in paths[0]]
    assert min(xs) == pytest.approx(6 * MM, abs=0.01) and max(xs) == pytest.approx(36 * MM, abs=0.01)
    assert max(ys) == pytest.approx(CARD_H - 10 * MM, abs=0.01) and min(ys) == pytest.approx(CARD_H - 22 * MM, abs=0.01)


@pytest.mark.parametrize("orientation, turn, box", [("flat", 30, (2, math.sqrt(3))), ("pointy", 0, (math.sqrt(3), 2))])
def test_a_hexagon_in_a_hex_cells_box_is_that_cell(mini, tmp_path, orientation, turn, box):
    """A grid of 3 mm hexes from (4, 4) mm; a hexagon over the first cell's box, as wide and
    high as the cell, has the cell's six corners."""
    r = 3
    w, h = box[0] * r, box[1] * r
    with_element(mini, f"kind: hexgrid, size: {r}mm, rows: 2, columns: 2, orientation: {orientation}, "
                       f"x: 4mm, y: 4mm, w: 30mm, h: 30mm")
    with_element(mini, f"kind: polygon, sides: 6, turn: {turn}, x: 4mm, y: 4mm, w: {w:.6f}mm, h: {h:.6f}mm, fill: red")
    hexes = [p for p in closed_paths(built(mini, tmp_path)) if len(p) == 6]
    cell, polygon = hexes[0], hexes[-1]     # the grid's first hex; the polygon is drawn last

    def corners(points):
        return sorted((round(x, 2), round(y, 2)) for x, y in points)
    assert corners(cell) == corners(polygon)


def test_a_star_alternates_tips_and_inner_corners(mini, tmp_path):
    with_element(mini, f"kind: star, points: 5, inner: 0.4, {BOX}, fill: gold")
    paths = [p for p in closed_paths(built(mini, tmp_path)) if len(p) == 10]
    assert paths
    _, _, radii = centre_and_radii(paths[0])
    assert all(abs(r - 10 * MM) < 0.01 for r in radii[0::2])
    assert all(abs(r - 4 * MM) < 0.01 for r in radii[1::2])


def test_a_polygon_goes_through_its_points_measured_from_the_box_top_left(mini, tmp_path):
    with_element(mini, f"kind: polygon, points: [[0, 0], [20mm, 0], [10mm, 50%]], {BOX}, fill: blue")
    paths = [p for p in closed_paths(built(mini, tmp_path)) if len(p) == 3]
    expected = [(10 * MM, CARD_H - 10 * MM), (30 * MM, CARD_H - 10 * MM), (20 * MM, CARD_H - 20 * MM)]
    assert any(all(abs(a - b) < 0.01 for p, q in zip(path, expected) for a, b in zip(p, q)) for path in paths), paths


# A dark shape in the box, its corners, a point on its outline where a circle in the box does
# not run, and one on that circle away from the shape (mm from the card's top-left).
INK_SAVED = [
    (f'kind: star, {BOX}, fill: "#8b0000"', 10, (17.06, 15.95), (10, 20)),       # an inner corner
    (f'kind: polygon, sides: 6, {BOX}, fill: "#00008b"', 6, (15, 12.5), (14.45, 11.68)),   # a slanted side
    (f"kind: polygon, points: [[0, 0], [20mm, 0], [10mm, 20mm]], {BOX}, fill: black", 3, (15, 20), (10, 20)),
]


@pytest.mark.parametrize("element, corners, edge, circle", INK_SAVED, ids=["star", "hexagon", "points"])
def test_the_ink_saver_outlines_a_dark_polygon_or_star_in_its_own_shape(mini, tmp_path, element, corners, edge,
                                                                        circle):
    """A dark fill printed with little ink becomes the shape's own outline, as a box's does:
    its corners as without the ink saver, the middle left paper, and no circle round its box."""
    (mini / "layouts/mini/card.yaml").write_text(f"size: mini\nelements:\n  - {{{element}}}\n")
    plain = [p for p in closed_paths(built(mini, tmp_path / "plain")) if len(p) == corners]
    saved = built(mini, tmp_path / "saver", "--ink-saver")
    assert plain and plain[0] in closed_paths(saved)
    image = render_png(tmp_path / "saver/mini/cards-a4-ink-saver.pdf", 0, scale=4).convert("L")
    x, y, _, height = placements(saved)[0]   # the first card's trim, bottom-left

    def darkest(left_mm: float, top_mm: float) -> int:   # within 0.2 mm of a point on the card
        px, py = (x + left_mm * MM) * 4, (image.height / 4 - (y + height - top_mm * MM)) * 4
        reach = 0.2 * MM * 4
        return min(image.crop((round(px - reach), round(py - reach), round(px + reach) + 1, round(py + reach) + 1))
                   .getdata())
    assert darkest(20, 20) > 240        # the middle: paper, not a fill
    assert darkest(*edge) < 160         # the shape's own outline
    assert darkest(*circle) > 240       # no circle where the shape is not


def test_the_ink_saver_outlines_a_dark_hex_grid_cell_by_cell(mini, tmp_path):
    """Each cell's outline in the fill's colour, under the stroke, and no ellipse round the
    grid's box; the coordinates are written once, as without the ink saver."""
    (mini / "layouts/mini/card.yaml").write_text(
        "size: mini\nelements:\n  - {kind: hexgrid, size: 3mm, rows: 2, columns: 2, labels: true, "
        'x: 4mm, y: 4mm, w: 36mm, h: 30mm, fill: "#00008b"}\n')
    plain_page = built(mini, tmp_path / "plain")
    saved_page = built(mini, tmp_path / "saver", "--ink-saver")
    plain = [p for p in closed_paths(plain_page) if len(p) == 6]
    saved = [p for p in closed_paths(saved_page) if len(p) == 6]
    assert len(saved) == 2 * len(plain) and all(p in saved for p in plain)   # outlined, then stroked
    assert b" c\n" not in drawing(saved_page)                                # no curve: no ellipse
    assert drawing(saved_page).count(b"(A1) Tj") == drawing(plain_page).count(b"(A1) Tj") == 1


@pytest.mark.parametrize("orientation, step", [("flat", (1.5, math.sqrt(3) / 2)), ("pointy", (math.sqrt(3), 0))])
def test_a_hex_grid_has_rows_times_columns_hexes_that_touch(mini, tmp_path, orientation, step):
    with_element(mini, f"kind: hexgrid, size: 2mm, rows: 3, columns: 4, orientation: {orientation}, "
                       f"x: 4mm, y: 4mm, w: 36mm, h: 30mm, labels: true")
    page = built(mini, tmp_path)
    hexes = [p for p in closed_paths(page) if len(p) == 6]
    per_card = 12
    assert len(hexes) % per_card == 0 and hexes
    centres = [centre_and_radii(h)[:2] for h in hexes[:per_card]]
    first, second = centres[0], centres[1]   # neighbours in the first row
    assert abs(second[0] - first[0] - step[0] * 2 * MM) < 0.01
    assert abs(abs(second[1] - first[1]) - step[1] * 2 * MM) < 0.01
    text = page.extract_text()
    assert "A1" in text and "C4" in text


def test_a_dashed_rounded_box_keeps_its_dash_to_itself(mini, tmp_path):
    with_element(mini, f"kind: box, {BOX}, stroke: white, dash: [3, 2], radius: 2mm")
    data = drawing(built(mini, tmp_path))
    assert b"[3 2] 0 d" in data
    assert data.count(b"[3 2] 0 d") == data.count(b"[] 0 d") or b"Q" in data.split(b"[3 2] 0 d")[1]


def test_opacity_lets_the_card_show_through_a_fill(mini, tmp_path):
    with_element(mini, f"kind: box, {BOX}, fill: \"#ffffff\", opacity: 0.5")
    page = built(mini, tmp_path, "--shop", "tgc")
    states = page["/Resources"].get("/ExtGState") or {}
    assert any(s.get_object().get("/ca") == 0.5 for s in states.values())
    face = Image.open(next((tmp_path / "mini/tgc/cards").glob("cards-001-front*.png"))).convert("RGB")
    per_mm = face.size[0] / (44.45 + 6.35)
    r, g, b = face.getpixel((int((20 + 3.175) * per_mm), int((12 + 3.175) * per_mm)))
    background = (0x22, 0x44, 0x66)
    assert all(abs(c - (255 + bg) / 2) < 12 for c, bg in zip((r, g, b), background)), (r, g, b)


@pytest.mark.parametrize("element, message", [
    (f"kind: polygon, {BOX}", "exactly one of 'sides' (a regular polygon) or 'points'"),
    (f"kind: polygon, sides: 2, {BOX}", "too small"),
    (f"kind: polygon, points: [[0, 0], [1mm, 1mm]], {BOX}", "at least three [x, y] pairs"),
    ("kind: hexgrid, size: 1mm, rows: 100, columns: 100", "more than a board needs"),
    (f"kind: box, {BOX}, stroke: red, dash: [-1, 2]", "a dash is a list of on and off lengths"),
])
def test_a_bad_shape_is_one_clear_error(mini, element, message):
    with_element(mini, element)
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and message in result.stderr, result.stderr
    assert "card.yaml:" in result.stderr


def test_a_deck_with_rounded_corners_shows_them_in_proofs_and_shop_pngs(mini, tmp_path):
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("    back: mini/back\n", "    back: mini/back\n    radius: 3mm\n"))
    built(mini, tmp_path, "--shop", "tgc")
    face = Image.open(next((tmp_path / "mini/tgc/cards").glob("cards-001-front*.png")))
    assert face.mode == "RGBA"
    w, h = face.size
    per_mm = w / (44.45 + 6.35)
    assert face.getpixel((0, 0))[3] == 0 and face.getpixel((w - 1, h - 1))[3] == 0   # cut away
    assert face.getpixel((w // 2, 0))[3] == 255 and face.getpixel((0, h // 2))[3] == 255   # bleed kept
    inside = int((3.175 + 3) * per_mm * 0.35)   # well inside the rounding of trim + bleed
    assert face.getpixel((inside + int(per_mm), inside + int(per_mm)))[3] == 255
    assert run("proof", "--game", "mini", "--out", str(tmp_path), root=mini).exit_code == 0
    sheet = Image.open(tmp_path / "mini/proof/cards-faces.png").convert("RGB")
    assert sheet.getpixel((12, 12)) == (228, 228, 228)   # the sheet shows through the corner
    assert sheet.getpixel((12 + 40, 12 + 40)) != (228, 228, 228)


def test_a_corner_radius_must_be_a_sane_length(mini, tmp_path):
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("    back: mini/back\n", "    back: mini/back\n    radius: 50%\n"))
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 1 and "a corner radius is a length from 0 to 20mm" in result.stderr
    assert "game.yaml:" in result.stderr


@pytest.mark.parametrize("kind", ["board", "sheet"])
def test_a_hex_grid_draws_on_a_board_and_a_sheet(mini, tmp_path, kind):
    (mini / "layouts/mini/hexes.yaml").write_text(
        "size: [160mm, 120mm]\nelements:\n"
        "  - {kind: hexgrid, size: 8mm, rows: 5, columns: 7, orientation: pointy, labels: true, "
        "x: 10mm, y: 10mm, w: 140mm, h: 100mm}\n")
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("contents:", f"  - {{id: map, kind: {kind}, layout: mini/hexes}}\ncontents:"))
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    path = tmp_path / ("mini/map-whole.pdf" if kind == "board" else "mini/map-a4.pdf")
    page = pdf(path).pages[0]
    assert len([p for p in closed_paths(page) if len(p) == 6]) == 5 * 7
    assert "A1" in page.extract_text() and "E7" in page.extract_text()
