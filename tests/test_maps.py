"""Maps from data: a hex or square grid whose cells (fill, picture, label, icons, rivers and
roads) come from a CSV, XLSX or YAML file. Colours read from the whole board's rendered page
at each cell's middle (worked out here from the grid's geometry), labels from its text; bad
rows are one error each, at their row."""

from __future__ import annotations

import math

import openpyxl
import pypdfium2
import pytest
from PIL import ImageFilter

from conftest import MM, REPO, build, run

GAME = "card_data/mini/game.yaml"
R = 10   # mm, centre to corner (a hex) or half a side (a square)
ORIGIN = (5, 5)   # the grid's top-left on the board, mm
BOARD = (120, 100)
DPI = 100


def with_map(mini, data_name: str, data: str | None, kind: str = "hexgrid", extra: str = "") -> None:
    game = mini / GAME
    game.write_text(game.read_text().replace("contents:", "  - {id: map, kind: board, layout: mini/map}\ncontents:"))
    size = f"size: {R}mm" if kind == "hexgrid" else f"size: {2 * R}mm"
    (mini / "layouts/mini/map.yaml").write_text(
        f"size: [{BOARD[0]}mm, {BOARD[1]}mm]\npalette: {{forest: '#2e6b2e'}}\nelements:\n"
        f"  - {{kind: box, fill: white}}\n"
        f"  - {{kind: {kind}, x: {ORIGIN[0]}mm, y: {ORIGIN[1]}mm, {size}, rows: 4, columns: 5, cells: {data_name},"
        f" stroke: black, stroke_width: 0.3pt{extra}}}\n")
    if data is not None:
        (mini / "card_data/mini" / data_name).write_text(data)


def centre(kind: str, row: int, col: int) -> tuple[float, float]:
    """A cell's middle in mm from the board's top-left: flat hexes step 1.5 R across, every
    other column half a hex lower; squares step 2 R."""
    if kind == "squaregrid":
        return ORIGIN[0] + R * (2 * col + 1), ORIGIN[1] + R * (2 * row + 1)
    return ORIGIN[0] + R + 1.5 * R * col, ORIGIN[1] + math.sqrt(3) / 2 * R * (1 + 2 * row + col % 2)


def picture_of_board(out):
    document = pypdfium2.PdfDocument(str(out / "mini/map-whole.pdf"))
    page = document[0]
    image = page.render(scale=DPI / 72).to_pil().convert("RGB")
    text = page.get_textpage()
    return document, image, text


def pixel(image, x_mm: float, y_mm: float):
    return image.getpixel((round(x_mm / 25.4 * DPI), round(y_mm / 25.4 * DPI)))


def near(colour, hex_colour: str) -> bool:
    want = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= 6 for a, b in zip(colour, want))


CSV = """cell,fill,label
A1,#d04040,Fort
B2,forest,Woods
C3,#3060c0,Lake
D5,gold,Mine
"""


@pytest.mark.parametrize("kind", ["hexgrid", "squaregrid"])
def test_a_map_from_a_csv_gives_each_cell_its_fill_and_label(mini, tmp_path, kind):
    with_map(mini, "map.csv", CSV, kind)
    build(mini, "mini", tmp_path)
    document, image, text = picture_of_board(tmp_path)
    fills = {(0, 0): "#d04040", (1, 1): "#2e6b2e", (2, 2): "#3060c0", (3, 4): "#ffd700"}
    labels = {(0, 0): "Fort", (1, 1): "Woods", (2, 2): "Lake", (3, 4): "Mine"}
    for row in range(4):
        for col in range(5):
            x, y = centre(kind, row, col)
            seen = pixel(image, x - 0.5 * R, y)      # left of the middle: no label or icon there
            assert near(seen, fills.get((row, col), "#ffffff")), (row, col, seen)
            # the cell's lower half, in PDF points from the bottom-left
            left, right = (x - 0.8 * R) * MM, (x + 0.8 * R) * MM
            top, bottom = (BOARD[1] - y) * MM, (BOARD[1] - y - 0.85 * R) * MM
            written = text.get_text_bounded(left, bottom, right, top).strip()
            assert written == labels.get((row, col), ""), (row, col, written)
    document.close()


def test_a_river_runs_along_the_shared_side_and_a_road_between_middles(mini, tmp_path):
    with_map(mini, "map.csv", "cell,river,road\nB2,B3,C2\n", extra=", river: '#0000ff', road: '#ff0000'")
    build(mini, "mini", tmp_path)
    document, image, _ = picture_of_board(tmp_path)
    (x1, y1), (x2, y2) = centre("hexgrid", 1, 1), centre("hexgrid", 1, 2)
    side_middle = ((x1 + x2) / 2, (y1 + y2) / 2)    # where two hexes' shared side has its middle
    assert near(pixel(image, *side_middle), "#0000ff"), pixel(image, *side_middle)
    (rx, ry) = centre("hexgrid", 2, 1)
    road_middle = ((x1 + rx) / 2, (y1 + ry) / 2)
    # the road runs from B2's middle to C2's, straight down the column: red halfway between them
    assert near(pixel(image, *road_middle), "#ff0000"), pixel(image, *road_middle)
    document.close()


def test_words_a_road_runs_through_stay_readable(mini, tmp_path):
    """A road drawn down a column of hexes passes where each cell's coordinate and label
    stand: the cell's own ground rings their letters, so no road touches a letter."""
    with_map(mini, "map.csv", "cell,road,label\nB2,C2,Ford\n", extra=", road: '#ff0000', labels: true")
    build(mini, "mini", tmp_path)
    document = pypdfium2.PdfDocument(str(tmp_path / "mini/map-whole.pdf"))
    dpi = 600
    image = document[0].render(scale=dpi / 72).to_pil().convert("RGB")
    document.close()

    def red_touching_letters(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int]:
        """(letter pixels, road pixels within 0.15 mm of a letter) in the box, in mm."""
        box = image.crop(tuple(round(v / 25.4 * dpi) for v in (x0, y0, x1, y1)))
        letters = box.convert("L").point(lambda v: 255 if v < 40 else 0)   # black text (red is 76 in grey)
        near_letters = letters.filter(ImageFilter.MaxFilter(2 * round(0.15 / 25.4 * dpi) + 1))
        red = [r > 200 and g < 80 and b < 80 for r, g, b in box.getdata()]
        return (sum(1 for v in letters.getdata() if v),
                sum(1 for is_red, v in zip(red, near_letters.getdata()) if is_red and v))

    x, y = centre("hexgrid", 1, 1)
    for baseline in (y - 0.55 * R, y + 0.62 * R):   # the coordinate above the middle, the label below
        letters, touching = red_touching_letters(x - 4, baseline - 2.5, x + 4, baseline + 0.8)
        assert letters > 200 and touching == 0, (baseline, letters, touching)


def test_the_same_map_from_xlsx_and_yaml(mini, tmp_path):
    book = openpyxl.Workbook()
    book.active.title = "Island"
    for line in CSV.strip().splitlines():
        book.active.append(line.split(","))
    book.save(mini / "card_data/mini/map.xlsx")
    with_map(mini, "map.xlsx#Island", None)
    build(mini, "mini", tmp_path / "xlsx")
    yaml_map = "cells:\n" + "".join(f"  - {{cell: {c}, fill: '{f}', label: {l}}}\n"
                                    for c, f, l in (line.split(",") for line in CSV.strip().splitlines()[1:]))
    (mini / "layouts/mini/map.yaml").write_text((mini / "layouts/mini/map.yaml").read_text().replace("map.xlsx#Island", "map.yaml"))
    (mini / "card_data/mini/map.yaml").write_text(yaml_map)
    build(mini, "mini", tmp_path / "yaml")
    pictures = []
    for out in ("xlsx", "yaml"):
        document, image, _ = picture_of_board(tmp_path / out)
        pictures.append(image.tobytes())
        x, y = centre("hexgrid", 2, 2)
        assert near(pixel(image, x - 0.5 * R, y), "#3060c0")
        document.close()
    assert pictures[0] == pictures[1]


@pytest.mark.parametrize("data, message", [
    ("cell,fill\nA1,red\nZ9,blue\n", "map.csv, row 3, column A (cell): no cell 'Z9' on this grid of 4 rows (A-D) and 5 columns (1-5)"),
    ("cell,fill\nA1,red\nB6,blue\n", "map.csv, row 3, column A (cell): no cell 'B6'"),
    ("cell,fil\nA1,red\nA2,blue\n", "map.csv, row 1, column B (fil): unknown column 'fil' (did you mean 'fill'?)"),
    ("cell,color\nA1,\n", "map.csv, row 1, column B (color): unknown column 'color'"),   # told with no value in it
    ("cell,fill\nA1,red,extra\n", "map.csv, row 2, column C: 'extra' is past the last column the first row names"),
    ("cell,,fill\nA1,oops,red\n", "map.csv, row 2, column B: 'oops' is in a column the first row does not name"),
    ("cell,fill,,\nA1,red,,stray\n", "map.csv, row 2, column D: 'stray' is in a column the first row does not name"),
    ("cell,fill\nA1,rad\n", "map.csv, row 2, column B (fill): 'rad' is not a colour"),
    ("cell,river\nA1,C4\n", "map.csv, row 2: river from A1 to C4: the cells are not next to each other"),
    ("cell,icons\nA1,:castle:\n", "no icon 'castle'"),
    ("cell,fill\nA1,red\nA1,blue\n", "map.csv, row 3, column A (cell): cell A1 is listed twice"),
])
def test_a_bad_row_is_one_error_at_its_row(mini, data, message):
    with_map(mini, "map.csv", data)
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error")]
    assert len(errors) == 1 and message in errors[0], result.stderr


def test_a_bad_coordinate_in_a_yaml_map_is_an_error_at_its_line(mini):
    with_map(mini, "map.yaml", "cells:\n  - {cell: A1, fill: red}\n  - {cell: Q1, fill: red}\n")
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("error")]
    assert len(errors) == 1 and "map.yaml:3: cells[2].cell: no cell 'Q1'" in errors[0], result.stderr


def test_the_hex_map_example_builds_from_its_csv(tmp_path):
    example = REPO / "examples/hex-map"
    result = run("validate", "--game", "hex-map", root=example)
    assert result.exit_code == 0, result.output + result.stderr
    build(example, "hex-map", tmp_path)
    document = pypdfium2.PdfDocument(str(tmp_path / "hex-map/map-whole.pdf"))
    text = document[0].get_textpage().get_text_range()
    document.close()
    for name in ("Harbour Town", "Old Peak", "Greenwood", "A1", "G9"):
        assert name in text
