"""Print geometry measured from the PDFs: sheets with bleed, where each piece's ink may go, cut
marks, backs for glued sheets, print scaling, embedded fonts, file names and print options."""

from __future__ import annotations

import re

import pytest

from conftest import MM, REPO, build, embedded, pdf, placements, render_png, run

PAPERS = {"letter": (612.0, 792.0), "a4": (595.2756, 841.8898)}
POKER = (63.5 * MM, 88.9 * MM)

# A piece: origin moved to its corner, a clip to trim + bleed, then (where neighbours or the
# margin leave less) a second clip to the bleed it may really use.
_PIECE = re.compile(rb"(-?1) 0 0 (-?1) (-?[\d.]+) (-?[\d.]+) cm\nn (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re W\* n"
                    rb"(?:\nn (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re W\* n)?")


def ink_boxes(page) -> list[tuple[float, float, float, float]]:
    """(left, bottom, right, top) on the sheet where each piece can leave ink."""
    boxes = []
    for match in _PIECE.finditer(page.get_contents().get_data()):
        sx, _, x, y, *rect = match.groups()
        cx, cy, w, h = (float(v) for v in (rect[4:] if rect[4] is not None else rect[:4]))
        sign = float(sx)
        x0, x1 = float(x) + sign * cx, float(x) + sign * (cx + w)
        y0, y1 = float(y) + sign * cy, float(y) + sign * (cy + h)
        boxes.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    return boxes


def marks(page) -> list[tuple[float, float, float, float]]:
    """The straight lines of the page's last saved state, which holds the cut marks."""
    data = page.get_contents().get_data()
    data = data[data.rindex(b"q\n"):]
    return [tuple(float(v) for v in m) for m in
            re.findall(rb"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l", data)]


@pytest.fixture(scope="module")
def bleed_builds(tmp_path_factory):
    out = tmp_path_factory.mktemp("bleed")
    for paper in PAPERS:
        for game in ("12th-player", "big-ten", "jukem"):
            build(REPO, game, out / paper, "--bleed", "--paper", paper)
    return out


@pytest.mark.parametrize("paper", PAPERS)
def test_poker_cards_with_bleed_stay_3x3_on_first_and_last_sheet(bleed_builds, paper):
    reader = pdf(bleed_builds / paper / "jukem" / f"cards-{paper}-bleed.pdf")
    first, last = placements(reader.pages[0]), placements(reader.pages[-2])
    assert len(first) == 9
    assert 1 <= len(last) <= 9
    for x, y, w, h in first + last:
        assert (round(w / MM, 1), round(h / MM, 1)) == (63.5, 88.9)
        # the trim stays inside the 5 mm margin
        assert x >= 5 * MM - 0.01 and y >= 5 * MM - 0.01
        assert x + w <= PAPERS[paper][0] - 5 * MM + 0.01 and y + h <= PAPERS[paper][1] - 5 * MM + 0.01


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game, deck", [("jukem", "cards"), ("big-ten", "end-zones"), ("big-ten", "offense")])
def test_no_piece_has_ink_inside_another_pieces_trim(bleed_builds, paper, game, deck):
    reader = pdf(bleed_builds / paper / game / f"{deck}-{paper}-bleed.pdf")
    for page in (reader.pages[0], reader.pages[1], reader.pages[-1]):
        trims = [(x, y, x + w, y + h) for x, y, w, h in placements(page)]
        inks = ink_boxes(page)
        assert len(inks) == len(trims) > 0
        # the colour reaches past the trims (round the block at least)...
        assert any(ink[0] < trim[0] - 1 or ink[2] > trim[2] + 1 for ink, trim in zip(inks, trims))
        for i, ink in enumerate(inks):
            for j, trim in enumerate(trims):
                if i != j:   # ...but never over another piece's trim
                    overlap_w = min(ink[2], trim[2]) - max(ink[0], trim[0])
                    overlap_h = min(ink[3], trim[3]) - max(ink[1], trim[1])
                    assert overlap_w < 0.01 or overlap_h < 0.01, (page, i, j)
            # and nothing inside the 5 mm the printer cannot print
            width, height = PAPERS[paper]
            assert ink[0] >= 5 * MM - 0.01 and ink[1] >= 5 * MM - 0.01
            assert ink[2] <= width - 5 * MM + 0.01 and ink[3] <= height - 5 * MM + 0.01


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game, deck", [("12th-player", "cards"), ("big-ten", "end-zones")])
def test_cut_marks_stay_outside_every_bleed_on_the_trim_lines(bleed_builds, paper, game, deck):
    reader = pdf(bleed_builds / paper / game / f"{deck}-{paper}-bleed.pdf")
    page = reader.pages[0]
    trims = [(x, y, x + w, y + h) for x, y, w, h in placements(page)]
    inks = ink_boxes(page)
    xs = {round(v, 2) for t in trims for v in (t[0], t[2])}
    ys = {round(v, 2) for t in trims for v in (t[1], t[3])}
    lines = marks(page)
    assert lines
    width, height = PAPERS[paper]
    for x1, y1, x2, y2 in lines:
        assert round(x1, 2) in xs if x1 == x2 else round(y1, 2) in ys
        for ink in inks:   # a line touching no bleed box (bleed boxes include their trims)
            inside_x = min(x1, x2) < ink[2] - 0.01 and max(x1, x2) > ink[0] + 0.01 or \
                (x1 == x2 and ink[0] - 0.01 <= x1 <= ink[2] + 0.01)
            inside_y = min(y1, y2) < ink[3] - 0.01 and max(y1, y2) > ink[1] + 0.01 or \
                (y1 == y2 and ink[1] - 0.01 <= y1 <= ink[3] + 0.01)
            assert not (inside_x and inside_y), ((x1, y1, x2, y2), ink)
        assert 5 * MM - 0.01 <= min(x1, x2) and max(x1, x2) <= width - 5 * MM + 0.01
        assert 5 * MM - 0.01 <= min(y1, y2) and max(y1, y2) <= height - 5 * MM + 0.01
    # every trim line has a mark of >= 3 mm beyond a 6.35 mm printer margin where the margin
    # leaves room for one (the sides of a poker sheet; not above a full 3x3 sheet on Letter)
    left = min(ink[0] for ink in inks)
    if left < 9.35 * MM + 0.35 * MM:
        return
    for y in ys:
        visible = [max(0.0, min(max(x1, x2), width - 6.35 * MM) - max(min(x1, x2), 6.35 * MM))
                   for x1, y1, x2, y2 in lines if y1 == y2 and round(y1, 2) == y]
        assert max(visible) >= 3 * MM - 0.01, y


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game, deck", [("12th-player", "cards"), ("big-ten", "end-zones"),
                                        ("big-ten", "offense"), ("jukem", "cards")])
def test_every_cut_mark_is_long_enough_to_cut_by_where_the_margin_has_room(bleed_builds, paper, game, deck):
    """The outer bleed gives way to marks of 3 mm; only where the margin is narrower than a
    mark even with no bleed (three poker rows on Letter leave 6.35 mm; four end zones with
    their 2 mm gaps leave 6 mm on A4) is a mark shorter."""
    reader = pdf(bleed_builds / paper / game / f"{deck}-{paper}-bleed.pdf")
    width, height = PAPERS[paper]
    for page in (reader.pages[0], reader.pages[-2]):
        trims = [(x, y, x + w, y + h) for x, y, w, h in placements(page)]
        if not trims:
            continue
        lines = marks(page)
        # the block's corner from the marks: a partial sheet keeps the full sheet's lines
        left = min(x1 for x1, y1, x2, y2 in lines if x1 == x2)
        bottom = min(y1 for x1, y1, x2, y2 in lines if y1 == y2)
        xs = {round(v, 2) for t in trims for v in (t[0], t[2])}
        ys = {round(v, 2) for t in trims for v in (t[1], t[3])}
        # every trim line has a mark at both ends (a partial sheet keeps the full sheet's marks)
        for vertical, lines_at in ((True, xs), (False, ys)):
            for at in lines_at:
                ends = [line for line in lines if (line[0] == line[2]) == vertical
                        and round(line[0] if vertical else line[1], 2) == at]
                assert len(ends) == 2, (vertical, at)
        for x1, y1, x2, y2 in lines:
            vertical = x1 == x2
            if (bottom if vertical else left) - 5 * MM - 0.35 * MM < 3 * MM:
                continue   # not even a bleed-less margin holds a 3 mm mark here
            assert abs(y2 - y1 if vertical else x2 - x1) >= 3 * MM - 0.01, (x1, y1, x2, y2)


def test_glued_back_sheets_put_each_cards_own_back_behind_it_when_turned_like_a_page(tmp_path):
    """Monster Ball's roster cards have two backs; the back sheet is turned over left to right."""
    build(REPO, "monster-ball", tmp_path, "--duplex", "none")
    reader = pdf(tmp_path / "monster-ball" / "roster-cards-letter-no-duplex.pdf")
    width = PAPERS["letter"][0]
    for front_page, back_page in ((0, 1), (len(reader.pages) - 2, len(reader.pages) - 1)):
        fronts = placements(reader.pages[front_page])
        backs = placements(reader.pages[back_page])
        assert len(fronts) == len(backs)
        for (fx, fy, w, h), (bx, by, _, _) in zip(fronts, backs):
            # turned over, the back page's column order is mirrored
            assert abs(bx - (width - fx - w)) < 0.01 and abs(by - fy) < 0.01


def test_every_home_pdf_asks_not_to_scale_and_embeds_every_font(tmp_path):
    build(REPO, "monster-ball", tmp_path, "--paper", "a4")
    build(REPO, "jukem", tmp_path)
    files = sorted((tmp_path / "monster-ball").glob("*.pdf")) + sorted((tmp_path / "jukem").glob("*.pdf"))
    assert len(files) > 5
    for path in files:
        reader = pdf(path)
        preferences = reader.trailer["/Root"].get("/ViewerPreferences")
        assert preferences is not None and preferences.get_object()["/PrintScaling"] == "/None", path.name
        fonts = fonts_of(reader)
        assert fonts and all(fonts.values()), (path.name, fonts)
    # the blank rosters' form fields type in the game's own text font, embedded whole
    reader = pdf(tmp_path / "monster-ball" / "blank-rosters-a4.pdf")
    form_fonts = reader.trailer["/Root"]["/AcroForm"]["/DR"]["/Font"]
    assert form_fonts and all("Lato-Regular" in str(f.get_object()["/BaseFont"]) for f in form_fonts.values())
    assert all(embedded(f.get_object()) for f in form_fonts.values())


def fonts_of(reader) -> dict[str, bool]:
    """BaseFont -> embedded, for every font a page, form or annotation of the file names."""
    found: dict[str, bool] = {}

    def visit(resources):
        if resources is None:
            return
        resources = resources.get_object()
        for ref in (resources.get("/Font") or {}).values():
            font = ref.get_object()
            found[str(font.get("/BaseFont"))] = embedded(font)
        for ref in (resources.get("/XObject") or {}).values():
            visit(ref.get_object().get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
        for annotation in page.get("/Annots") or []:   # form fields' appearance streams
            appearance = (annotation.get_object().get("/AP") or {}).get("/N")
            if appearance is not None and hasattr(appearance.get_object(), "get"):
                visit(appearance.get_object().get("/Resources"))
    form = reader.trailer["/Root"].get("/AcroForm")
    if form is not None and form.get_object().get("/DR") is not None:
        visit(form.get_object()["/DR"])
    return found


def test_rule_sheets_keep_everything_inside_a_5mm_margin(tmp_path):
    build(REPO, "jukem", tmp_path, "--paper", "a4")
    image = render_png(tmp_path / "jukem" / "rules-a4.pdf", 0, scale=2).convert("L")
    pixels = image.load()
    edge = int(5 * MM * 2) - 1
    w, h = image.size
    band = [(x, y) for x in range(w) for y in list(range(edge)) + list(range(h - edge, h))]
    band += [(x, y) for y in range(0, h, 2) for x in list(range(edge)) + list(range(w - edge, w))]
    assert all(pixels[p] == 255 for p in band)


def test_print_options_show_in_file_names_so_builds_do_not_overwrite_each_other(tmp_path):
    for args in ([], ["--bleed"], ["--duplex", "short-edge"], ["--duplex", "none"], ["--bleed", "2mm"]):
        build(REPO, "12th-player", tmp_path, *args)
    names = {p.name for p in (tmp_path / "12th-player").glob("cards-*.pdf")}
    assert names == {"cards-letter.pdf", "cards-letter-bleed.pdf", "cards-letter-short-edge.pdf",
                     "cards-letter-no-duplex.pdf", "cards-letter-bleed-2mm.pdf"}


def test_bleed_takes_fractions_of_an_inch(tmp_path):
    build(REPO, "12th-player", tmp_path, "--bleed", "1/8in")
    boxes = ink_boxes(pdf(tmp_path / "12th-player" / "cards-letter-bleed-3.17mm.pdf").pages[0])
    trims = placements(pdf(tmp_path / "12th-player" / "cards-letter-bleed-3.17mm.pdf").pages[0])
    assert abs((trims[0][0] - boxes[0][0]) - 0.125 * 72) < 0.01


def test_back_offset_with_fold_is_an_error(tmp_path):
    result = run("build", "--game", "12th-player", "--out", str(tmp_path), "--duplex", "fold",
                 "--back-offset", "1,1", root=REPO)
    assert result.exit_code == 1
    assert "--back-offset" in result.output + (result.stderr or "") and "fold" in result.output + (result.stderr or "")
    assert not (tmp_path / "12th-player").exists()


@pytest.mark.parametrize("paper", PAPERS)
def test_one_print_all_file_per_game_with_a_cover_then_every_part(tmp_path, paper):
    build(REPO, "monster-ball", tmp_path, "--paper", paper)
    folder = tmp_path / "monster-ball"
    reader = pdf(folder / f"monster-ball-print-all-{paper}.pdf")
    cover = reader.pages[0].extract_text()
    assert "Monster Ball" in cover and "Roster cards (pages 3-6)" in cover.replace("  ", " ")
    assert "double-sided, 2 sheets: cut on the marks" in cover and "Rule sheet" in cover
    parts = ["roster-cards", "blank-rosters", "law-roster", "chaos-roster", "tokens", "scoreboard",
             "field", "rules", "tuck-boxes"]
    page = 2
    for part in parts:
        source = pdf(folder / f"{part}-{paper}.pdf")
        # each part starts on a fresh sheet, its pages as in its own file
        assert reader.pages[page].extract_text() == source.pages[0].extract_text(), part
        assert [round(float(v), 2) for v in reader.pages[page].mediabox] == \
            [round(float(v), 2) for v in source.pages[0].mediabox]
        page += len(source.pages) + len(source.pages) % 2
    assert page == len(reader.pages)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert all(fonts_of(reader).values())


def test_print_all_names_the_print_options(tmp_path):
    build(REPO, "12th-player", tmp_path, "--bleed", "--duplex", "fold")
    reader = pdf(tmp_path / "12th-player" / "12th-player-print-all-letter-fold-bleed.pdf")
    sheets = len(pdf(tmp_path / "12th-player" / "cards-letter-fold-bleed.pdf").pages)
    assert f"single-sided, {sheets} sheets: fold along the dashed line, glue, then cut on the marks" in \
        reader.pages[0].extract_text()


def test_a_back_offset_into_the_margin_warns(tmp_path):
    # 3x3 poker on Letter leaves 6.35 mm above and below: 2 mm down reaches the 5 mm margin, 1 mm not
    warned = run("build", "--game", "12th-player", "--out", str(tmp_path / "a"), "--back-offset", "0,2", root=REPO)
    assert warned.exit_code == 0 and "--back-offset pushes backs into the 5 mm margin" in warned.stderr
    quiet = run("build", "--game", "12th-player", "--out", str(tmp_path / "b"), "--back-offset", "0,1", root=REPO)
    assert quiet.exit_code == 0 and "--back-offset" not in quiet.stderr
