"""Layouts from data: a repeat at an arrangement (pnp's bundled playing-card pips, points in
the layout or in a card's field) and lengths, numbers and turns taken from a card's field.
Positions are read back from the PDFs with pdfium (through any forms the pieces are stamped
from), to 0.1 mm."""

from __future__ import annotations

import csv
import re
import shutil

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
import yaml

from conftest import MM, REPO, build, placements, pdf, run

EXAMPLE = REPO / "examples/playing-cards"
FRONT = "layouts/playing-cards/front.yaml"
PIP_BOX = (19.0, 17.0, 25.5, 54.9)   # the repeat's x, y, w, h in the example's front, mm
CARD_H = 88.9
TOLERANCE = 0.1 * MM


def page_bounds(obj) -> tuple[float, float, float, float]:
    """An object's bounding box on the page: its own box carried through every form it is in."""
    left, bottom, right, top = obj.get_bounds()
    corners = [(left, bottom), (left, top), (right, bottom), (right, top)]
    container = obj.container
    while container is not None and container.type == pdfium_c.FPDF_PAGEOBJ_FORM:
        corners = [container.get_matrix().on_point(x, y) for x, y in corners]
        container = container.container
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def shapes(path, page_number: int, width_mm: tuple[float, float] | None = None):
    """(centre x, centre y, width) of every path on a page, optionally only those this wide."""
    document = pypdfium2.PdfDocument(str(path))
    found = []
    for obj in document[page_number].get_objects(max_depth=10):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        left, bottom, right, top = page_bounds(obj)
        width = right - left
        if width_mm is None or width_mm[0] * MM <= width <= width_mm[1] * MM:
            found.append(((left + right) / 2, (bottom + top) / 2, width))
    document.close()
    return found


def example_copy(tmp_path, front: str | None = None):
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE, root)
    shutil.copytree(REPO / "fonts", root / "fonts")
    if front is not None:
        (root / FRONT).write_text(front)
    return root


def expected_pips(pips: int) -> list[tuple[float, float, float]]:
    """Where pnp's bundled arrangement puts each pip of a card with `pips`, from the card's
    top-left in mm, with its scale: percentages of the repeat's box."""
    data = yaml.safe_load((REPO / "pnp/bundled/arrangements/pips.yaml").read_text())["arrangements"][pips]
    x, y, w, h = PIP_BOX
    found = []
    for spot in data:
        sx, sy, scale = (spot["x"], spot["y"], spot["scale"]) if isinstance(spot, dict) else (spot[0], spot[1], 1)
        found.append((x + float(sx.rstrip("%")) / 100 * w, y + float(sy.rstrip("%")) / 100 * h, scale))
    return found


def test_every_pip_of_a_52_card_deck_sits_where_the_bundled_arrangement_puts_it(tmp_path):
    """The example deck, its pip drawn as a square turned on its corner (a shape whose middle
    is the middle of its bounding box whichever way up), read from each front sheet."""
    front = (EXAMPLE / FRONT).read_text()
    assert front.count("kind: repeat") == 1
    root = example_copy(tmp_path, front.replace('- {kind: image, src: "icons/{suit}.svg"}',
                                                "- {kind: polygon, sides: 4, fill: \"{suit}\"}"))
    build(root, "playing-cards", tmp_path / "out")
    path = tmp_path / "out/playing-cards/cards-letter.pdf"
    with open(EXAMPLE / "card_data/playing-cards/cards.csv") as rows:
        cards = list(csv.DictReader(rows))
    assert len(cards) == 52
    reader = pdf(path)
    fronts = [n for n in range(len(reader.pages)) if n % 2 == 0]   # each sheet of fronts, then its backs
    card_index, checked = 0, 0
    for number in fronts:
        drawn = shapes(path, number, width_mm=(8.5, 28))   # the pips (9 mm, the ace's 27 mm), not the corners
        for left, bottom, width, height in placements(reader.pages[number]):
            card = cards[card_index]
            card_index += 1
            mine = sorted((x, y, w) for x, y, w in drawn
                          if left <= x <= left + width and bottom <= y <= bottom + height)
            want = sorted((left + x * MM, bottom + (CARD_H - y) * MM, 9 * scale * MM)
                          for x, y, scale in (expected_pips(int(card["pips"])) if card["pips"] else []))
            assert len(mine) == len(want), (card["name"], mine, want)
            for ex, ey, ew in want:   # each wanted pip drawn there, at its size
                assert any(abs(x - ex) < TOLERANCE and abs(y - ey) < TOLERANCE and abs(w - ew) < TOLERANCE
                           for x, y, w in mine), (card["name"], (ex / MM, ey / MM), [(x / MM, y / MM) for x, y, _ in mine])
            checked += len(mine)
    assert card_index == 52
    assert checked == 4 * sum(range(1, 11))   # every pip of every number card: 220


def test_the_seven_has_its_middle_pip_a_quarter_of_the_way_down_and_its_lower_pips_turned():
    """Known from any deck, not from pnp's file: the seven's lone middle pip is halfway between
    the top row and the middle row, and the pips below the middle stand upside down."""
    data = yaml.safe_load((REPO / "pnp/bundled/arrangements/pips.yaml").read_text())["arrangements"]
    seven = [(s[0], s[1], s[2] if len(s) == 3 else 0) for s in data[7]]
    assert ("50%", "25%", 0) in seven
    assert all(turn == 180 for _, y, turn in seven if float(y.rstrip("%")) > 50)
    assert all(turn == 0 for _, y, turn in seven if float(y.rstrip("%")) <= 50)


def rendered(path) -> list[bytes]:
    document = pypdfium2.PdfDocument(str(path))
    pictures = [document[n].render(scale=50 / 72).to_pil().convert("L").tobytes() for n in range(len(document))]
    document.close()
    return pictures


def meaningful_lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip() and not line.strip().startswith("#"))


def test_the_one_repeat_draws_what_seventeen_conditions_draw_in_a_third_of_the_lines(tmp_path):
    by_conditions = (REPO / "tests/fixtures/playing-cards-by-conditions.yaml").read_text()
    # 17 places a pip can take, the ace's large one, and the face cards' letter (as in the example)
    assert by_conditions.count("when:") == 19
    build(example_copy(tmp_path), "playing-cards", tmp_path / "repeat")
    build(example_copy(tmp_path / "b", by_conditions), "playing-cards", tmp_path / "conditions")
    ours = rendered(tmp_path / "repeat/playing-cards/cards-letter.pdf")
    theirs = rendered(tmp_path / "conditions/playing-cards/cards-letter.pdf")
    assert len(ours) == len(theirs) == 12
    for a, b in zip(ours, theirs):
        differing = sum(1 for p, q in zip(a, b) if abs(p - q) > 40)
        assert differing < len(a) / 2000, differing    # the same pictures, give or take an edge pixel
    assert meaningful_lines((EXAMPLE / FRONT).read_text()) * 3 <= meaningful_lines(by_conditions)


# --- on the mini deck: four Knights of power 3, two Bishops of power 2 -------------------------

CARD = "layouts/mini/card.yaml"
CARDS = "card_data/mini/cards.yaml"


def add_to_card(mini, text: str) -> int:
    """Append layout lines; the line number of the first."""
    card = mini / CARD
    before = card.read_text()
    card.write_text(before + text)
    return len(before.splitlines()) + 1


def with_field(mini, name: str, spec: str, knight, bishop) -> None:
    cards = mini / CARDS
    text = cards.read_text().replace("  text: {type: text}\n", f"  text: {{type: text}}\n  {name}: {spec}\n")
    text = text.replace("    power: 3\n", f"    power: 3\n    {name}: {knight}\n")
    text = text.replace("    power: 2\n", f"    power: 2\n    {name}: {bishop}\n")
    cards.write_text(text)


def test_points_in_the_layout_put_one_item_at_each(mini, tmp_path):
    add_to_card(mini, "  - {kind: repeat, at: [[10mm, 10mm], [30mm, 50mm, 180]], cell: 6mm,\n"
                      "     elements: [{kind: polygon, sides: 4, fill: gold}]}\n")
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/cards-a4.pdf"
    left, bottom, _, height = placements(pdf(path).pages[0])[0]
    drawn = shapes(path, 0, width_mm=(5.5, 6.5))
    for x, y in ((10, 10), (30, 50)):
        ex, ey = left + x * MM, bottom + height - y * MM
        assert any(abs(cx - ex) < TOLERANCE and abs(cy - ey) < TOLERANCE for cx, cy, _ in drawn), (x, y)


def test_points_in_a_cards_list_field_and_a_length_from_a_field(mini, tmp_path):
    with_field(mini, "spots", "{type: list, separator: '|'}", '["10mm 10mm", "20mm 40mm"]', '["35mm 55mm"]')
    with_field(mini, "pip", "{type: text}", "4mm", "8mm")
    add_to_card(mini, '  - {kind: repeat, at: "{spots}", cell: "{pip}",\n'
                      "     elements: [{kind: polygon, sides: 4, fill: gold}]}\n")
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/cards-a4.pdf"
    pieces = placements(pdf(path).pages[0])
    drawn = shapes(path, 0, width_mm=(3.5, 8.5))
    knight, bishop = pieces[0], pieces[4]     # four Knights first, then the Bishops
    for (left, bottom, _, height), points, size in ((knight, [(10, 10), (20, 40)], 4), (bishop, [(35, 55)], 8)):
        for x, y in points:
            ex, ey = left + x * MM, bottom + height - y * MM
            assert any(abs(cx - ex) < TOLERANCE and abs(cy - ey) < TOLERANCE and abs(w - size * MM) < TOLERANCE
                       for cx, cy, w in drawn), (x, y, size)


def test_a_box_takes_its_width_and_a_text_its_size_from_the_card(mini, tmp_path):
    with_field(mini, "wide", "{type: text}", "30mm", "12mm")
    add_to_card(mini, '  - {kind: polygon, sides: 4, x: 5mm, y: 5mm, w: "{wide}", h: 6mm, fill: gold}\n'
                      '  - {kind: text, text: "SIZED", size: "{power}", y: 58mm, h: 5mm}\n')
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/cards-a4.pdf"
    widths = sorted({round(w / MM, 1) for _, _, w in shapes(path, 0, width_mm=(11, 31))})
    assert widths == [12.0, 30.0]
    page = pdf(path).pages[0]
    forms = page["/Resources"].get("/XObject") or {}
    content = page.get_contents().get_data() + b"".join(forms[n].get_object().get_data() for n in forms)
    sizes = {float(size) for size in re.findall(rb" ([\d.]+) Tf", content)}
    assert {2.0, 3.0} <= sizes    # the Bishops' text at 2 pt, the Knights' at 3 pt


def test_a_see_through_box_sized_by_a_field_keeps_its_transparency(mini, tmp_path):
    """reportlab leaves a form's transparency out of its resources: a see-through element must
    be drawn on the page even when a field sizes it."""
    with_field(mini, "wide", "{type: text}", "30mm", "12mm")
    add_to_card(mini, '  - {kind: box, w: "{wide}", h: 10mm, fill: white, opacity: 0.5}\n')
    build(mini, "mini", tmp_path)
    states = pdf(tmp_path / "mini/cards-a4.pdf").pages[0]["/Resources"].get("/ExtGState") or {}
    assert any(state.get_object().get("/ca") == 0.5 for state in states.values())


@pytest.mark.parametrize("value, message", [
    ("ten", "w comes from wide, which holds 'ten': 'ten' is not a length"),
    ("-4mm", "a negative length is not allowed here"),
])
def test_a_cards_bad_length_is_an_error_at_the_card_naming_the_layout_line(mini, value, message):
    with_field(mini, "wide", "{type: text}", "30mm", value)
    line = add_to_card(mini, '  - {kind: box, w: "{wide}", fill: gold}\n')
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1, result.output
    errors = [l for l in result.stderr.splitlines() if l.startswith("error")]
    assert len(errors) == 1, result.stderr
    assert "cards.yaml:" in errors[0] and "card 'Bishop'" in errors[0] and message in errors[0], errors[0]
    assert f"card.yaml:{line})" in errors[0], errors[0]


@pytest.mark.parametrize("element, message", [
    ('{kind: box, w: "{wdth}", fill: gold}', "the field 'wdth', which the cards do not have"),
    ('{kind: box, w: "{colour}", fill: gold}', "w comes from the field 'colour', a colour field"),
    ('{kind: repeat, count: "{powr}", at: pips, elements: [{kind: box}]}', "the field 'powr'"),
    ('{kind: repeat, count: "{power}", at: pip, elements: [{kind: box}]}', "no arrangement called 'pip' (did you mean 'pips'?)"),
    ("{kind: repeat, at: pips, elements: [{kind: box}]}", "give 'count'"),
    ("{kind: repeat, count: 11, at: pips, elements: [{kind: box}]}", "layouts for 1 to 10 items, not 11"),
    ("{kind: repeat, at: [[1mm, 2mm, 3mm]], elements: [{kind: box}]}", "a point's turn is degrees"),
    ("{kind: repeat, count: 2, cell: 5mm, elements: [{kind: box}]}", "give 'at' too"),
])
def test_a_bad_arrangement_or_field_is_one_error_at_its_line(mini, element, message):
    line = add_to_card(mini, f"  - {element}\n")
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1, result.output
    errors = [l for l in result.stderr.splitlines() if l.startswith("error")]
    assert len(errors) == 1 and f"card.yaml:{line}:" in errors[0] and message in errors[0], result.stderr


def test_a_count_past_the_arrangement_names_the_card(mini):
    cards = mini / CARDS
    cards.write_text(cards.read_text().replace("power: 3", "power: 12"))
    add_to_card(mini, '  - {kind: repeat, count: "{power}", at: pips, elements: [{kind: box}]}\n')
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert "card 'Knight'" in result.stderr and "not 12" in result.stderr and "cards.yaml:" in result.stderr
