"""Home printing without a duplex printer, a calibration sheet for one that shifts, and a
low-ink variant."""

from __future__ import annotations

from conftest import REPO, build, pdf, placements, render_png, run


def test_fold_sheets_put_each_back_opposite_its_front_across_the_fold(tmp_path):
    build(REPO, "12th-player", tmp_path, "--duplex", "fold")
    reader = pdf(tmp_path / "12th-player/cards-letter-fold.pdf")
    page = reader.pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert (width, height) == (792, 612)                  # landscape fits 4 poker cards a sheet
    pieces = placements(page, turned=True)
    fronts, backs = pieces[0::2], pieces[1::2]             # each front is followed by its back
    assert len(fronts) == 4 and sum(p for *_, p in fronts) == 0 and all(p for *_, p in backs)
    for (fx, fy, w, h, _), (bx, by, _, _, _) in zip(fronts, backs):
        assert abs(bx - fx) < 0.01                          # same column
        assert abs((fy + h / 2) + (by + h / 2) - height) < 0.01   # mirrored about the fold
        assert fy > height / 2 > by + h                     # fronts above the fold, backs below
    # 17 cards, 4 a sheet, no separate back pages.
    assert len(reader.pages) == 5
    # The fold line is printed in the gutter.
    image = render_png(tmp_path / "12th-player/cards-letter-fold.pdf", 0, scale=2).convert("L")
    row = int(height / 2 * 2)
    assert sum(1 for x in range(0, int(width * 2)) if image.getpixel((x, row)) < 200) > 100


def test_fold_sheets_text_reads_on_each_front(tmp_path):
    build(REPO, "12th-player", tmp_path, "--duplex", "fold")
    text = pdf(tmp_path / "12th-player/cards-letter-fold.pdf").pages[0].extract_text()
    assert "Coach" in text and "Runningback" in text


def test_ink_saver_drops_dark_backgrounds_but_keeps_the_text(tmp_path):
    build(REPO, "jukem", tmp_path)
    build(REPO, "jukem", tmp_path, "--ink-saver")
    plain = tmp_path / "jukem/cards-letter.pdf"
    saver = tmp_path / "jukem/cards-letter-ink-saver.pdf"
    assert plain.exists() and saver.exists()     # a variant beside the plain file, not over it

    def ink(path) -> float:
        from PIL import ImageStat
        return 1 - ImageStat.Stat(render_png(path, 0, scale=0.5).convert("L")).mean[0] / 255

    assert ink(plain) > 0.6 and ink(saver) < 0.15
    text = pdf(saver).pages[0].extract_text()
    assert "RUN" in text and "YARDS" in text


def test_the_calibration_sheet_puts_its_rulers_where_the_front_cross_lands(tmp_path):
    import re
    for duplex in ("long-edge", "short-edge"):
        result = run("calibrate", "--duplex", duplex, "--out", str(tmp_path), root=REPO)
        assert result.exit_code == 0, result.stderr
        reader = pdf(tmp_path / f"calibration/calibration-letter-{duplex}.pdf")
        assert len(reader.pages) == 2
        data = reader.pages[0].get_contents().get_data()
        lines = [tuple(float(v) for v in m) for m in
                 re.findall(rb"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l", data)]
        upright = next(line for line in lines if line[0] == line[2])   # the cross's arms
        across = next(line for line in lines if line[1] == line[3])
        cx, cy = upright[0], across[1]
        # they cross at their middles: the point the rulers' zero is measured from
        assert abs((upright[1] + upright[3]) / 2 - cy) < 0.01 and abs((across[0] + across[2]) / 2 - cx) < 0.01
        zeros = []
        reader.pages[1].extract_text(visitor_text=lambda text, cm, tm, *_: zeros.append(
            (text, cm[4] + tm[4], cm[5] + tm[5])) if text.strip() == "0" else None)
        x_zero = min(zeros, key=lambda z: -z[2])        # the X ruler's 0 is the higher one
        expected_x = 612 - cx if duplex == "long-edge" else cx
        assert abs(x_zero[1] - expected_x) < 3          # centred label over the 0 tick
        expected_y = cy if duplex == "long-edge" else 792 - cy
        y_zero = min(zeros, key=lambda z: z[2])
        assert abs(y_zero[2] - (expected_y - 2)) < 3


def test_ink_saver_turns_a_dark_box_inside_the_card_into_an_outline(mini, tmp_path):
    """Not only full-bleed backgrounds: any dark fill (here a slate box, well short of black)
    prints as an outline in its own colour, and a light one stays filled."""
    card = mini / "layouts/mini/card.yaml"
    card.write_text(card.read_text() + '  - {kind: box, x: 4mm, y: 30mm, w: 20mm, h: 12mm, fill: "#4a5a6a"}\n'
                                       '  - {kind: box, x: 4mm, y: 44mm, w: 20mm, h: 12mm, fill: "#f0e0a0"}\n')
    build(mini, "mini", tmp_path, "--ink-saver")
    page = pdf(tmp_path / "mini/cards-a4-ink-saver.pdf").pages[0]
    x, y, _, height = placements(page)[0]   # the first card on the sheet: its trim's bottom-left
    image = render_png(tmp_path / "mini/cards-a4-ink-saver.pdf", 0, scale=4).convert("RGB")
    mm = 72 / 25.4

    def at(left_mm: float, top_mm: float) -> tuple[int, int, int]:   # a point on the card, from its top-left
        return image.getpixel((round((x + left_mm * mm) * 4), round((image.height / 4 - (y + height - top_mm * mm)) * 4)))
    assert min(at(14, 36)) > 240                      # the slate box's middle: paper, an outline round it
    assert at(4.2, 36) != (255, 255, 255) or at(4.4, 36) != (255, 255, 255)   # its edge is drawn
    assert at(14, 50) == (0xf0, 0xe0, 0xa0) or abs(at(14, 50)[2] - 0xa0) < 8   # the light box keeps its fill


def names_in_boxes(path, page_index: int, boxes) -> list[str]:
    """The text drawn inside each (x, y, width, height) box of a page, read by pdfium."""
    import pypdfium2
    text = pypdfium2.PdfDocument(str(path))[page_index].get_textpage()
    return [" ".join(text.get_text_bounded(x + 1, y + 1, x + w - 1, y + h - 1).split()) for x, y, w, h in boxes]


def test_each_back_prints_behind_its_own_front_whichever_edge_the_sheet_turns_on(mini, tmp_path):
    """Backs that differ by card (here the back shows the card's name): after the printer turns
    the sheet over, each card's back must land behind that card's front, for every duplex."""
    back = mini / "layouts/mini/back.yaml"
    back.write_text(back.read_text().replace("text: MINI", "text: '{name}'"))
    for duplex in ("long-edge", "short-edge"):
        build(mini, "mini", tmp_path / duplex, "--duplex", duplex)
        path = next((tmp_path / duplex / "mini").glob("cards-a4*.pdf"))
        reader = pdf(path)
        height = float(reader.pages[0].mediabox.height)
        fronts = placements(reader.pages[0])
        # where a front's box lands on the back page once the sheet is turned over
        width = float(reader.pages[0].mediabox.width)
        behind = [(width - x - w, y, w, h) if duplex == "long-edge" else (x, height - y - h, w, h)
                  for x, y, w, h in fronts]
        names = [text.split()[0] for text in names_in_boxes(path, 0, fronts)]   # the name comes first
        assert len(set(names)) > 1                               # different cards
        assert names_in_boxes(path, 1, behind) == names, duplex


def test_the_print_all_cover_counts_sheets_of_paper_not_pages(mini, tmp_path):
    """Six mini cards with backs: one sheet printed on both sides (two pages), which the cover
    must call one sheet, or the player loads twice the paper."""
    build(mini, "mini", tmp_path)
    cover = " ".join(pdf(tmp_path / "mini/mini-print-all-a4.pdf").pages[0].extract_text().split())
    assert "(pages 3-4)" in cover and "double-sided, 1 sheet:" in cover


def test_a_calibration_folder_that_is_a_link_is_named_itself_and_nothing_lands_where_it_leads(tmp_path, monkeypatch):
    """OUT/calibration may come with a folder from someone else: a link there is refused, and
    the message names the link the user can remove, not the folder it leads to."""
    elsewhere, out = tmp_path / "elsewhere", tmp_path / "out"
    elsewhere.mkdir()
    out.mkdir()
    (out / "calibration").symlink_to(elsewhere)
    monkeypatch.chdir(tmp_path)   # paths are told from the current folder
    result = run("calibrate", "--out", "out", root=REPO)
    assert result.exit_code == 1
    assert f"out/calibration is a link (to {elsewhere})" in result.stderr
    assert list(elsewhere.iterdir()) == []
