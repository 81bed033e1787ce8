"""Layout features a designer relies on, checked on the rendered page: images, percentages,
`extends` with an override by id, rotation, `when`, palettes and the progress reports."""

from __future__ import annotations

import io
import struct
import zlib

import pypdf
import pytest

from conftest import MM, build, pdf, placements, render_png


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def add_elements(mini, yaml_text: str) -> None:
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + yaml_text)


def card_pixel(path, page, box, x_mm, y_mm_from_top, scale=2):
    x, y, w, h = box
    image = render_png(path, page, scale=scale)
    return image.getpixel((int((x + x_mm * MM) * scale), int((842 - (y + h - y_mm_from_top * MM)) * scale)))[:3]


def test_an_image_from_the_game_folder_is_placed_in_its_box(mini, tmp_path):
    (mini / "card_data/mini/art").mkdir()
    (mini / "card_data/mini/art/green.png").write_bytes(png(20, 20, (0, 200, 0)))
    add_elements(mini, "  - {kind: image, src: art/green.png, x: 50%, y: 70%, w: 10mm, h: 10mm}\n")
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/cards-a4.pdf"
    box = placements(pdf(path).pages[0])[0]
    inside = card_pixel(path, 0, box, 44.45 / 2 + 5, 63.5 * 0.7 + 5)
    outside = card_pixel(path, 0, box, 44.45 / 2 - 3, 63.5 * 0.7 + 5)
    assert inside == (0, 200, 0)
    assert outside == (0x22, 0x44, 0x66)
    data = path.read_bytes()
    assert data.count(b"/Subtype /Image") == 1      # embedded once for all six cards


def test_extends_replaces_an_element_by_id_and_keeps_the_rest(mini, tmp_path):
    (mini / "layouts/mini/red.yaml").write_text(
        "extends: mini/card\nelements:\n  - {kind: box, id: background, fill: '#cc0000', bleed: true}\n")
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("front: mini/card", "front: mini/red"))
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/cards-a4.pdf"
    box = placements(pdf(path).pages[0])[0]
    assert card_pixel(path, 0, box, 2, 2) == (0xcc, 0, 0)
    assert "Knight" in pdf(path).pages[0].extract_text()   # the base's text elements are kept


def test_when_draws_an_element_only_for_cards_that_have_the_field(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    text = cards.read_text().replace("  power: {type: whole}", "  power: {type: whole}\n  crown: {type: text}")
    cards.write_text(text.replace("    power: 3\n", "    power: 3\n    crown: yes please\n"))
    add_elements(mini, "  - {kind: box, when: crown, fill: '#ffd700', x: 2mm, y: 2mm, w: 5mm, h: 5mm}\n")
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/cards-a4.pdf"
    boxes = placements(pdf(path).pages[0])
    assert card_pixel(path, 0, boxes[0], 4.5, 4.5) == (0xff, 0xd7, 0)     # a Knight
    assert card_pixel(path, 0, boxes[5], 4.5, 4.5) == (0x22, 0x44, 0x66)  # a Bishop


def test_a_three_digit_colour_is_each_digit_doubled(mini, tmp_path):
    """'#c08' is CSS's short form of '#cc0088', as a designer expects it to print."""
    add_elements(mini, "  - {kind: box, fill: '#c08', x: 2mm, y: 2mm, w: 5mm, h: 5mm}\n")
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/cards-a4.pdf"
    assert card_pixel(path, 0, placements(pdf(path).pages[0])[0], 4.5, 4.5) == (0xcc, 0, 0x88)


def test_rotated_text_reads_upside_down_in_its_box(mini, tmp_path):
    add_elements(mini, "  - {kind: text, text: 'UPSIDE', rotate: 180, font: display, size: 9, colour: white, "
                       "x: 0, y: 56mm, w: 100%, h: 6mm, align: center}\n")
    build(mini, "mini", tmp_path)
    found = []
    pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text(
        visitor_text=lambda text, cm, tm, *_: found.append(cm[0] * tm[0]) if "UPSIDE" in text else None)
    assert found and all(scale < 0 for scale in found)       # drawn turned half a circle
    found.clear()
    pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text(
        visitor_text=lambda text, cm, tm, *_: found.append(cm[0] * tm[0]) if "Knight" in text else None)
    assert found and all(scale > 0 for scale in found)       # the rest reads the right way up


def test_progress_is_reported_up_to_the_total(mini, tmp_path):
    from pnp.commands.build import build_game
    from pnp.project import Project
    from pnp.render import PrintOptions
    seen = {}

    def progress(total):
        seen["total"], seen["done"] = total, 0

        def tick(steps=1):
            seen["done"] += steps
        return tick

    build_game(Project(mini), "mini", tmp_path, None, PrintOptions(), (), progress)
    assert seen["total"] == 6 + 1 and seen["done"] == seen["total"]   # six cards and a rule sheet


def text_x_on(drawn: bytes) -> dict[str, float]:
    """Where each piece of text on the first page starts, left to right, in points."""
    found: dict[str, float] = {}
    pdf_page = pypdf.PdfReader(io.BytesIO(drawn)).pages[0]
    pdf_page.extract_text(visitor_text=lambda text, cm, tm, *_: found.setdefault(text.strip(), tm[4])
                          if text.strip() else None)
    return found


def test_a_table_moved_for_a_right_to_left_language_runs_its_columns_from_the_right(tmp_path):
    """In a layout that mirrors, a Hebrew or Arabic build reads a table's first column at the right."""
    from reportlab.pdfgen.canvas import Canvas
    from pnp.config.deck import Card
    from pnp.config.typed import Where
    from pnp.diagnostics import Diagnostics
    from pnp.fonts import FontBook
    from pnp.layout.elements import PieceContext
    from pnp.layout.kinds import Element
    from pnp.layout.template import mirrored
    from pnp.resources import BUNDLED
    spec = Element.parse({"kind": "table", "rows": [["FIRST", "SECOND"]], "w": "60%", "h": "20%"},
                         Where("card.yaml", 3, "elements[1]"))
    piece = PieceContext(width=200, height=100, fonts=FontBook(BUNDLED), game_dir=tmp_path, fields=None,
                         diagnostics=Diagnostics(), right_to_left=True)

    def drawn(element) -> bytes:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(200, 100))
        element.compiled(piece).draw(canvas, Card())
        canvas.save()
        return buffer.getvalue()

    as_written, moved = text_x_on(drawn(spec)), text_x_on(drawn(mirrored(spec, piece)))
    assert as_written["FIRST"] < as_written["SECOND"]
    assert moved["SECOND"] < moved["FIRST"]                 # the first column on the right
    assert moved["FIRST"] > 200 - 120                       # and the table at the piece's right edge


@pytest.mark.parametrize("width, told", [("", True), (" w: 20mm,", False)])
def test_a_mirroring_element_placed_in_with_no_width_is_told_in_every_language(mini, tmp_path, width, told):
    """x: 4mm and no w: the box runs on to the piece's whole width, past its right edge, so
    mirrored for Arabic or Hebrew it lands 4 mm off the left edge. Told in the English build,
    where it can be fixed; with a w it mirrors inside the piece."""
    from conftest import run
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text().replace("size: mini\n", "size: mini\nmirror: true\n")
                      + f"  - {{kind: text, text: STAR, x: 4mm,{width} y: 60mm, h: 5mm, size: 6}}\n")
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    message = "x 4 mm and no w: the box runs 4 mm past the piece's right edge"
    assert (message in result.stderr) == told, result.stderr
    if told:
        assert "card.yaml:" in result.stderr and "give it a w" in result.stderr


def test_a_span_in_a_card_tables_cell_is_drawn_not_printed_as_written(mini, tmp_path):
    """`[red|Flees]` in a card's table printed its brackets and bar, with no word said; cells
    now draw spans as text elements do, palette names included."""
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text().replace("size: mini\n", "size: mini\npalette:\n  danger: '#e00000'\n")
                      + '  - {kind: table, x: 4mm, y: 50mm, w: 36mm, h: 8mm, size: 7, colour: white,'
                        ' rows: [["[danger|Flees] fast", "[80%|small] **big**"]]}\n')
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/cards-a4.pdf"
    text = pdf(path).pages[0].extract_text()
    words = text.split()
    assert "Flees" in words and "fast" in words and "[" not in text and "|" not in text, text
    image = render_png(path, 0, 2).convert("RGB")
    assert any(r > 200 and g < 40 and b < 40 for r, g, b in image.getdata()), "no red drawn"
