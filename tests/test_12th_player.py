"""The 12th Player, built end to end and read back from the PDFs a person would print."""

from __future__ import annotations

import pytest

from conftest import MM, build, pdf, placements, render_png

PAPERS = {"letter": (612, 792), "a4": (595.28, 841.89)}
DECK = {"Coach": (12, 1), "Quarterback": (11, 1), "Linebacker": (10, 1), "Runningback": (9, 1),
        "12th Player": (8, 1), "Referee": (7, 2), "Secondary": (6, 2), "Receiver": (5, 2),
        "Announcer": (4, 2), "Lineman": (3, 3), "Fumble!": (2, 1)}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from conftest import REPO
    out = tmp_path_factory.mktemp("out")
    for paper in PAPERS:
        build(REPO, "12th-player", out / paper, "--paper", paper)
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_deck_pages_and_paper_size(built, paper):
    reader = pdf(built / paper / "12th-player" / f"cards-{paper}.pdf")
    # 17 cards at 9 a sheet: 2 sheets of fronts, each followed by its backs.
    assert len(reader.pages) == 4
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(width, 1), round(height, 1)) == tuple(round(v, 1) for v in PAPERS[paper])


@pytest.mark.parametrize("paper", PAPERS)
def test_fronts_are_poker_cards_in_a_centred_3x3_grid_inside_the_margin(built, paper):
    reader = pdf(built / paper / "12th-player" / f"cards-{paper}.pdf")
    width, height = PAPERS[paper]
    boxes = placements(reader.pages[0])
    assert len(boxes) == 9
    for x, y, w, h in boxes:
        assert (round(w / MM, 1), round(h / MM, 1)) == (63.5, 88.9)
        assert x >= 5 * MM and y >= 5 * MM and x + w <= width - 5 * MM and y + h <= height - 5 * MM
    left = min(b[0] for b in boxes)
    right = max(b[0] + b[2] for b in boxes)
    assert abs(left - (width - right)) < 0.01
    assert len(placements(reader.pages[2])) == 8


def test_every_card_name_and_value_is_printed_the_right_number_of_times(built):
    reader = pdf(built / "letter" / "12th-player" / "cards-letter.pdf")
    fronts = reader.pages[0].extract_text() + "\n" + reader.pages[2].extract_text()
    lines = [line.strip() for line in fronts.splitlines()]
    for name, (value, count) in DECK.items():
        assert lines.count(name) == count, name
        # each card prints its value three times: two corners and the big centre figure
        assert lines.count(str(value)) >= 3 * count, (name, value)


def test_backs_follow_their_fronts_mirrored_for_a_long_edge_flip(built):
    reader = pdf(built / "letter" / "12th-player" / "cards-letter.pdf")
    for front_page, back_page in ((0, 1), (2, 3)):
        fronts = placements(reader.pages[front_page])
        backs = placements(reader.pages[back_page])
        assert len(fronts) == len(backs)
        for (fx, fy, w, _), (bx, by, _, _) in zip(fronts, backs):
            assert abs(bx - (612 - fx - w)) < 0.01 and abs(by - fy) < 0.01
    # The back page text is the game's name, not card names.
    assert "12TH PLAYER" in reader.pages[1].extract_text()
    assert "Coach" not in reader.pages[1].extract_text()


def test_short_edge_duplex_mirrors_rows_and_back_offset_shifts_backs(tmp_path):
    from conftest import REPO
    build(REPO, "12th-player", tmp_path, "--duplex", "short-edge", "--back-offset", "1,2")
    reader = pdf(tmp_path / "12th-player" / "cards-letter-short-edge-back-offset.pdf")
    for (fx, fy, w, h), (bx, by, _, _) in zip(placements(reader.pages[0]), placements(reader.pages[1])):
        assert abs(bx - (fx + 1 * MM)) < 0.01
        assert abs(by - (792 - fy - h - 2 * MM)) < 0.01


def test_the_last_sheet_leaves_its_empty_slot_on_the_mirrored_side(built):
    """Eight cards on the second sheet: the empty ninth slot is bottom right on the fronts and,
    after a long-edge flip, bottom left on the backs. Check it on the rendered pixels."""
    path = built / "letter" / "12th-player" / "cards-letter.pdf"
    front, back = render_png(path, 2), render_png(path, 3)
    # Centres of the bottom-left and bottom-right cells (y measured from the top in images),
    # a little above the middle, clear of the back's white rule.
    cells = placements(pdf(path).pages[0])
    (lx, ly, w, h), (rx, _, _, _) = cells[6], cells[8]
    bottom_left, bottom_right = (lx + w / 2, 792 - (ly + h * 0.6)), (rx + w / 2, 792 - (ly + h * 0.6))
    white = (255, 255, 255)
    assert front.getpixel(bottom_right)[:3] == white and front.getpixel(bottom_left)[:3] != white
    assert back.getpixel(bottom_left)[:3] == white and back.getpixel(bottom_right)[:3] != white


@pytest.mark.parametrize("paper", PAPERS)
def test_cut_marks_on_every_trim_line_outside_the_cards_and_inside_the_printable_area(built, paper):
    path = built / paper / "12th-player" / f"cards-{paper}.pdf"
    scale = 4
    image = render_png(path, 0, scale=scale).convert("L")
    width, height = PAPERS[paper]
    boxes = placements(pdf(path).pages[0])
    left, bottom = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, top = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
    xs = sorted({round(b[0], 3) for b in boxes} | {round(b[0] + b[2], 3) for b in boxes})
    ys = sorted({round(b[1], 3) for b in boxes} | {round(b[1] + b[3], 3) for b in boxes})

    def dark(x_pt, y_pt) -> bool:
        px, py = int(round(x_pt * scale)), int(round((height - y_pt) * scale))
        return any(image.getpixel((px + dx, py)) < 128 for dx in (-1, 0, 1))

    margin_top = (top + height - 5 * MM) / 2      # halfway between the block and the 5 mm line
    margin_bottom = (bottom + 5 * MM) / 2
    # the margin wide enough for marks holds them: above and below on A4 (three rows leave
    # 13 mm there), beside the block on Letter (three rows leave 6.35 mm above and below, so
    # the vertical lines are marked between the cards instead; likewise A4's row lines)
    for x in xs if paper == "a4" else []:
        assert dark(x, margin_top) and dark(x, margin_bottom), f"no mark at x={x}"
    for y in ys if paper == "letter" else []:
        for x in ((right + width - 5 * MM) / 2, (left + 5 * MM) / 2):
            px, py = int(round(x * scale)), int(round((height - y) * scale))
            assert any(image.getpixel((px, py + d)) < 128 for d in (-1, 0, 1)), f"no mark at y={y}"
    # Nothing at all inside the 5 mm the printer cannot print, and only marks in the margin.
    pixels = image.load()
    edge = int(5 * MM * scale) - 1
    w_px, h_px = image.size
    for py in list(range(0, edge)) + list(range(h_px - edge, h_px)):
        assert all(pixels[px, py] == 255 for px in range(0, w_px, 3))
    mark_columns = [int(round(x * scale)) for x in xs]
    row = int(round((height - margin_top) * scale))
    dark_columns = [px for px in range(w_px) if pixels[px, row] < 128]
    assert all(min(abs(px - c) for c in mark_columns) <= 2 for px in dark_columns)


def test_6_and_9_are_underlined_in_the_corners_and_the_text_ends_above_them(built):
    """A corner value is read upside down in the bottom corner, where a 9 is a 6: the two are
    underlined (under the top one, over the bottom one as the page lies); no other value is.
    The card's text stays above the bottom corner's value."""
    import pypdfium2
    path = built / "letter" / "12th-player" / "cards-letter.pdf"
    image = render_png(path, 0, scale=4).convert("RGB")
    cards = placements(pdf(path).pages[0])   # reading order: 12, 11, 10, 9, 8, 7, 7, 6, 6
    height = image.height / 4

    def inked(card, x_mm: float, y_mm: float) -> bool:   # a mm from the card's top-left
        x, y, _, h = card
        pixel = image.getpixel((round((x + x_mm * MM) * 4), round((height - (y + h) + y_mm * MM) * 4)))
        return sum(pixel) < 3 * 160   # the card's colour, not its cream panel
    underlined = [inked(card, 9.4, 12.3) and inked(card, 54, 76.6) for card in cards]
    assert underlined == [False, False, False, True, False, False, False, True, True]
    textpage = pypdfium2.PdfDocument(str(path))[0].get_textpage()
    x, y, w, h = cards[3]   # the 9: its text runs to four lines
    lowest = min(textpage.get_charbox(i)[1] for i in range(textpage.count_chars())
                 if textpage.get_text_range(i, 1).isalpha() and x < textpage.get_charbox(i)[0] < x + w
                 and y < textpage.get_charbox(i)[1] < y + h)
    assert (y + h - lowest) / MM < 76


def test_rule_sheet_has_the_card_list_from_the_data(built):
    reader = pdf(built / "letter" / "12th-player" / "rules-letter.pdf")
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    for heading in ("Setting up", "Making plays", "Touchdown", "Good to know", "The cards"):
        assert heading in text
    for name in DECK:
        assert name in text
    assert "4 touchdowns" in text


def test_the_same_input_gives_the_same_bytes(tmp_path):
    from conftest import REPO
    build(REPO, "12th-player", tmp_path / "one")
    build(REPO, "12th-player", tmp_path / "two")
    for name in ("cards-letter.pdf", "rules-letter.pdf"):
        one = (tmp_path / "one" / "12th-player" / name).read_bytes()
        two = (tmp_path / "two" / "12th-player" / name).read_bytes()
        assert one == two, name


def test_bleed_extends_backgrounds_past_the_cut_line(tmp_path):
    from conftest import REPO
    build(REPO, "12th-player", tmp_path, "--bleed")
    path = tmp_path / "12th-player" / "cards-letter-bleed.pdf"
    boxes = placements(pdf(path).pages[0])
    x, y, w, h = boxes[0]
    assert (round(w / MM, 1), round(h / MM, 1)) == (63.5, 88.9)
    # Still 3x3: a gutter of twice the bleed would cost a row, so rows share a cut line; the
    # columns get a 2 mm gutter (marks go there, and the side margins keep room for the row
    # lines' marks), and the card's colour fills half of it, past its right trim.
    assert len(boxes) == 9
    assert abs(boxes[3][1] + h - y) < 0.01
    assert abs(boxes[1][0] - (x + w) - 2 * MM) < 0.01
    image = render_png(path, 0, scale=2)
    probe = (int((x + w + 0.5 * MM) * 2), int((792 - y - h / 2) * 2))
    assert image.getpixel(probe)[:3] != (255, 255, 255)
