"""Print geometry measured from the PDFs: sheets with bleed, where each piece's ink may go, cut
marks, backs for glued sheets, print scaling, embedded fonts, file names and print options."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import MM, REPO, build, embedded, pdf, placements, render_png, run
from print_checks import EPS, check_deck_page, excused_cuts, marks, pieces

PAPERS = {"letter": (612.0, 792.0), "a4": (595.2756, 841.8898)}
POKER = (63.5 * MM, 88.9 * MM)

@pytest.fixture(scope="module")
def bleed_builds(tmp_path_factory):
    out = tmp_path_factory.mktemp("bleed")
    for paper in PAPERS:
        told = ""
        for game in ("12th-player", "big-ten", "jukem"):
            told += build(REPO, game, out / paper, "--bleed", "--paper", paper).stderr
        build(REPO, "jukem", out / paper, "--paper", paper)
        told += build(REPO, "monster-ball", out / paper, "--bleed", "--paper", paper).stderr
        (out / paper / "told.txt").write_text(told)   # the cut lines the builds said have no mark
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


# (game, file stem, bleed suffix): poker cards, Big Ten's end zones (a 2 mm gap of their own),
# Monster Ball's roster cards and round tokens; with and without bleed
SHEETS = [("jukem", "cards", "-bleed"), ("jukem", "cards", ""), ("12th-player", "cards", "-bleed"),
          ("big-ten", "end-zones", "-bleed"), ("big-ten", "offense", "-bleed"),
          ("monster-ball", "roster-cards", "-bleed"), ("monster-ball", "tokens", "-bleed")]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game, deck, suffix", SHEETS)
def test_every_sheet_passes_the_print_checks(bleed_builds, paper, game, deck, suffix):
    """On the first and the last (partial) sheet: no piece's ink inside another's trim or the
    5 mm margin; every cut mark outside every bleed and trim; every cut line with a mark an
    inkjet that leaves 6.35 mm blank still prints, 3 mm long, at both ends."""
    reader = pdf(bleed_builds / paper / game / f"{deck}-{paper}{suffix}.pdf")
    step = 2 if deck != "tokens" and deck != "end-zones" else 1
    fronts = [reader.pages[0], reader.pages[len(reader.pages) - step]]
    told = (bleed_builds / paper / "told.txt").read_text()
    excused = excused_cuts("\n".join(line for line in told.splitlines() if line.startswith(f"warning: {deck}:")))
    for page in fronts:
        assert pieces(page)
        assert check_deck_page(page, PAPERS[paper], deck, excused) == []
    if suffix:   # the colour reaches past the trims somewhere
        assert any(p["ink"][k] != p["trim"][k] for p in pieces(fronts[0]) for k in range(4))


@pytest.mark.parametrize("paper", PAPERS)
def test_a_deck_one_sheet_holds_gives_up_a_column_for_marks_on_every_cut_line(bleed_builds, paper, tmp_path):
    """Monster Ball's 49 tokens: eight one-inch columns leave 6.35 mm beside them on Letter,
    too narrow for a mark an inkjet prints, and the tokens touch; seven columns still hold
    them all on one sheet and leave room. Every cut line is marked, so no build warns (the
    bundled games print without a word about their cut lines, bleed or not)."""
    told = (bleed_builds / paper / "told.txt").read_text()
    assert "has no mark" not in told and "where many inkjets print nothing" not in told
    plain = build(REPO, "monster-ball", tmp_path, "--paper", paper)
    assert "has no mark" not in plain.stderr
    page = pdf(tmp_path / "monster-ball" / f"tokens-{paper}.pdf").pages[0]
    assert len(pieces(page)) == 49
    assert check_deck_page(page, PAPERS[paper], "tokens") == []


@pytest.mark.parametrize("paper", PAPERS)
def test_a_deck_one_sheet_holds_sits_in_a_block_of_its_own_size(bleed_builds, paper):
    """Monster Ball's 49 tokens take the rows they need, centred on the sheet, so the marks of
    the columns' cut lines sit beside the last row, not far below it by the rows a sheet could
    hold."""
    page = pdf(bleed_builds / paper / "monster-ball" / f"tokens-{paper}-bleed.pdf").pages[0]
    trims = [p["trim"] for p in pieces(page)]
    columns = len({round(t[0]) for t in trims})
    rows = len({round(t[1]) for t in trims})
    assert rows == -(-49 // columns)
    lowest, highest = min(t[1] for t in trims), max(t[3] for t in trims)
    assert abs(lowest - (PAPERS[paper][1] - highest)) < 0.5   # centred up and down
    # the lowest marks of the columns' cut lines: below the block, or beside its last row
    # where the lines are marked between the pieces
    vertical = [(x0, y0, x1, y1) for x0, y0, x1, y1 in marks(page) if x0 == x1]
    lowest_mark = min(min(y0, y1) for _, y0, _, y1 in vertical)
    assert abs(lowest_mark - lowest) < 15 * MM, (lowest_mark / MM, lowest / MM)


def test_a_part_filled_sheet_has_no_marks_in_its_empty_part(bleed_builds):
    """Monster Ball's 49 tokens with a bleed on A4 are 6 across in 9 rows, the last holding
    one: the empty slots get no marks between them, nor marks in the side margins on their
    lines. (On Letter they fill 7 by 7.)"""
    page = pdf(bleed_builds / "a4" / "monster-ball" / "tokens-a4-bleed.pdf").pages[0]
    trims = [p["trim"] for p in pieces(page)]
    lowest = min(t[1] for t in trims)
    columns = len({round(t[0]) for t in trims})
    last_row = [t for t in trims if t[1] == lowest]
    assert len(trims) == 49 and len(last_row) < columns   # a short last row
    for x0, y0, x1, y1 in marks(page):
        if y0 == y1:   # a horizontal cut line: the top or bottom of a piece on the sheet
            assert any(abs(y0 - t[1]) < 0.2 or abs(y0 - t[3]) < 0.2 for t in trims), (x0, y0)
        else:          # a vertical one: beside a piece, or in the margin above or below the block
            assert (min(y0, y1) >= lowest - 0.2 or max(y0, y1) <= 15 * MM), (x0, y0, y1)


@pytest.mark.parametrize("suffix", ["", "-bleed"])
def test_three_poker_rows_on_letter_are_marked_between_the_cards(bleed_builds, suffix):
    """Three poker rows leave 6.35 mm above and below, which an inkjet does not print: the
    columns get a gutter, and each vertical cut line is marked in it beside the cards, at the
    top and the bottom of every row, on white cut out of any bleed."""
    page = pdf(bleed_builds / "letter" / "jukem" / f"cards-letter{suffix}.pdf").pages[0]
    placed = pieces(page)
    trims = [p["trim"] for p in placed]
    assert len(trims) == 9
    gutter = trims[1][0] - trims[0][2]
    assert 2 * MM - 0.01 <= gutter <= 3 * MM + 0.01
    assert all(abs(trims[3 * r][3] - trims[3 * r + 3][1]) > -0.01 for r in range(2))   # rows touch
    assert trims[0][3] == pytest.approx(PAPERS["letter"][1] - 6.35 * MM, abs=0.01)
    lines = marks(page)
    for trim in trims:
        for x in (trim[0], trim[2]):
            beside = [line for line in lines if line[0] == line[2] and abs(line[0] - x) < 0.2]
            # a 3 mm mark from 1 mm inside each end of the edge: clear of the row's cut line
            for end, inward in ((trim[1], 1), (trim[3], -1)):
                assert any(abs((line[1] if inward > 0 else line[1]) - (end + inward * MM)) < 0.01
                           and abs(line[1] - line[3]) >= 3 * MM - 0.01 for line in beside), (x, end)
    if suffix:   # the gutter holds bleed, with windows for the marks
        assert any(p["notches"] for p in placed)
        assert any(p["ink"][2] > p["trim"][2] + 1 for p in placed)


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


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("duplex", ["none", "short-edge"])
def test_each_cards_own_back_lands_behind_it_by_colour(tmp_path, paper, duplex):
    """Roster cards are blue (Team Law) or red (Team Chaos) on both faces, and a sheet mixes
    them: on the first and the last sheet, the pixel behind each front (the sheet turned as
    the guide says) has the front's colour."""
    suffix = {"none": "no-duplex", "short-edge": "short-edge"}[duplex]
    build(REPO, "monster-ball", tmp_path, "--duplex", duplex, "--paper", paper)
    path = tmp_path / "monster-ball" / f"roster-cards-{paper}-{suffix}.pdf"
    reader = pdf(path)
    width, height = PAPERS[paper]
    colours = set()
    for front_page in (0, len(reader.pages) - 2):
        front, back = render_png(path, front_page).convert("RGB"), render_png(path, front_page + 1).convert("RGB")
        for x, y, w, h in placements(reader.pages[front_page]):
            px, py = x + 1 * MM, y + h - 1 * MM          # 1 mm inside the top-left corner
            if duplex == "none":                          # turned over left to right
                bx, by = width - px, py
            else:                                         # turned over top to bottom
                bx, by = px, height - py
            colour = front.getpixel((int(px), int(height - py)))
            colours.add(colour)
            assert back.getpixel((int(bx), int(height - by))) == colour, (front_page, x, y)
    assert len(colours) == 2   # both teams were compared


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge", "none"])
def test_a_cards_back_has_its_top_behind_its_fronts_top_however_the_sheet_turns(mini, tmp_path, duplex):
    """A red bar along the top of the front and of the back: turned over as the duplex says,
    the back's bar lies behind the front's, so a card cut out and turned over like a book page
    reads upright on both faces. Short-edge backs were upright on the page, so their tops lay
    behind the fronts' bottoms."""
    for name in ("card", "back"):
        layout = mini / f"layouts/mini/{name}.yaml"
        layout.write_text(layout.read_text() + '  - {kind: box, fill: "#cc0000", y: 0mm, h: 6mm}\n')
    build(mini, "mini", tmp_path, "--duplex", duplex)
    suffix = {"long-edge": "", "short-edge": "-short-edge", "none": "-no-duplex"}[duplex]
    path = tmp_path / "mini" / f"cards-a4{suffix}.pdf"
    width, height = PAPERS["a4"]
    reader = pdf(path)
    front, back = render_png(path, 0).convert("RGB"), render_png(path, 1).convert("RGB")

    def red(image, x, y) -> bool:   # y from the page's bottom, as PDF measures it
        r, g, b = image.getpixel((int(x), int(height - y)))
        return r > 150 and g < 80 and b < 80

    placed = placements(reader.pages[0])
    assert placed
    for x, y, w, h in placed:
        for py, top in ((y + h - 3 * MM, True), (y + 3 * MM, False)):   # 3 mm inside the top, the bottom
            px = x + w / 2
            bx, by = (px, height - py) if duplex == "short-edge" else (width - px, py)
            assert red(front, px, py) is top
            assert red(back, bx, by) is top, (duplex, x, y, top)


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
        # bullets, form fields and the starting font are the game's bundled fonts, never a
        # viewer's Helvetica or ZapfDingbats
        bundled = {p.stem for p in (REPO / "fonts").glob("*.ttf")}
        assert all(any(stem in name for stem in bundled) for name in fonts), (path.name, fonts)
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


@pytest.mark.parametrize("paper", PAPERS)
def test_rule_sheets_keep_everything_inside_a_5mm_margin(tmp_path, paper):
    for game in ("12th-player", "jukem", "big-ten", "monster-ball"):
        build(REPO, game, tmp_path, "--paper", paper)
        path = tmp_path / game / f"rules-{paper}.pdf"
        for number in range(len(pdf(path).pages)):   # every page, the last one too
            image = render_png(path, number, scale=2).convert("L")
            pixels = image.load()
            edge = int(5 * MM * 2) - 1
            w, h = image.size
            band = [(x, y) for x in range(w) for y in list(range(edge)) + list(range(h - edge, h))]
            band += [(x, y) for y in range(0, h, 2) for x in list(range(edge)) + list(range(w - edge, w))]
            assert all(pixels[p] == 255 for p in band), (game, number)


def test_print_options_show_in_file_names_so_builds_do_not_overwrite_each_other(tmp_path):
    for args in ([], ["--bleed"], ["--duplex", "short-edge"], ["--duplex", "none"], ["--bleed", "2mm"],
                 ["--duplex", "fold"], ["--back-offset", "1,0"], ["--ink-saver"], ["--paper", "a4", "--bleed", "1/8in"]):
        build(REPO, "12th-player", tmp_path, *args)
    names = {p.name for p in (tmp_path / "12th-player").glob("cards-*.pdf")}
    assert names == {"cards-letter.pdf", "cards-letter-bleed.pdf", "cards-letter-short-edge.pdf",
                     "cards-letter-no-duplex.pdf", "cards-letter-bleed-2mm.pdf", "cards-letter-fold.pdf",
                     "cards-letter-back-offset.pdf", "cards-letter-ink-saver.pdf", "cards-a4-bleed-3.17mm.pdf"}


def test_bleed_takes_fractions_of_an_inch(tmp_path):
    build(REPO, "12th-player", tmp_path, "--bleed", "1/8in", "--paper", "a4")
    first = pieces(pdf(tmp_path / "12th-player" / "cards-a4-bleed-3.17mm.pdf").pages[0])[0]
    assert abs((first["ink"][3] - first["trim"][3]) - 0.125 * 72) < 0.01   # above the top row


@pytest.mark.parametrize("command", ["build", "watch"])
def test_back_offset_with_fold_is_a_usage_error(tmp_path, command):
    """Options that do not go together are a usage error (exit status 2), checked once for
    every command that takes them, before anything is built or watched."""
    try:   # a process of its own: a watch that took the options would never end
        result = subprocess.run([sys.executable, "-m", "pnp", command, "--game", "12th-player", "--out", str(tmp_path),
                                 "--duplex", "fold", "--back-offset", "1,1", "--root", str(REPO)],
                                capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pnp {command} accepted --back-offset with --duplex fold")
    assert result.returncode == 2
    assert "--back-offset does not apply to --duplex fold" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "12th-player").exists()


@pytest.mark.parametrize("paper", PAPERS)
def test_one_print_all_file_per_game_with_a_cover_then_every_part(tmp_path, paper):
    """Printed double-sided in one go: each part starts on a fresh sheet, a two-sided part's
    pages follow one another, and each page of a one-sided part gets a blank back of its own
    (so no tile, sheet or tuck box lands on the back of another)."""
    build(REPO, "monster-ball", tmp_path, "--paper", paper)
    folder = tmp_path / "monster-ball"
    reader = pdf(folder / f"monster-ball-print-all-{paper}.pdf")
    cover = reader.pages[0].extract_text()
    assert "Monster Ball" in cover and "Roster cards (pages 3-6)" in cover.replace("  ", " ")
    assert "double-sided, 2 sheets: cut on the marks" in cover and "Rule sheet" in cover
    assert "on both sides of the paper, turning it on the long edge" in cover
    sides = re.findall(r"(double|single)-sided", cover)
    parts = ["roster-cards", "blank-rosters", "law-roster", "chaos-roster", "tokens", "scoreboard",
             "field", "rules", "tuck-boxes"]
    assert len(sides) == len(parts) and "single" in sides and "double" in sides
    assert reader.pages[1].extract_text() == ""   # the cover's blank back
    page = 2
    for part, side in zip(parts, sides):
        source = pdf(folder / f"{part}-{paper}.pdf")
        assert page % 2 == 0, part   # a fresh sheet: the front of one
        for number, own in enumerate(source.pages):
            assert reader.pages[page].extract_text() == own.extract_text(), (part, number)
            assert [round(float(v), 2) for v in reader.pages[page].mediabox] == \
                [round(float(v), 2) for v in own.mediabox]
            page += 1
            if side == "single":
                assert reader.pages[page].extract_text() == "" and not reader.pages[page].get_contents(), part
                page += 1
        page += page % 2
    assert page == len(reader.pages)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert all(fonts_of(reader).values())


def test_a_print_all_file_for_one_sided_printing_has_no_blank_page(tmp_path):
    """--duplex fold (and none) are for printers without duplex: the file is printed on one
    side, so it holds no blank page, and a deck without backs is not said to be folded."""
    build(REPO, "big-ten", tmp_path, "--duplex", "fold")
    reader = pdf(tmp_path / "big-ten" / "big-ten-print-all-letter-fold.pdf")
    cover = reader.pages[0].extract_text()
    assert "on one side of the paper" in cover and "blank back" not in cover
    assert all(page.get_contents() is not None for page in reader.pages)
    sheets = [int(n) for n in re.findall(r"single-sided, (\d+) sheets?", cover)]
    assert len(sheets) == 8 and len(reader.pages) == 1 + sum(sheets)   # a page a sheet, the cover's too
    assert re.search(r"Team end zones\s+\(pages [0-9-]+\)\s*single-sided, 4 sheets: cut on the marks", cover)


def test_print_all_names_the_print_options(tmp_path):
    build(REPO, "12th-player", tmp_path, "--bleed", "--duplex", "fold")
    reader = pdf(tmp_path / "12th-player" / "12th-player-print-all-letter-fold-bleed.pdf")
    sheets = len(pdf(tmp_path / "12th-player" / "cards-letter-fold-bleed.pdf").pages)
    assert f"single-sided, {sheets} sheets: fold along the dashed line, glue, then cut on the marks" in \
        reader.pages[0].extract_text()


@pytest.mark.parametrize("options, title", [(["--draft", "--bleed"], "Rule sheet"),
                                            (["--lang", "de", "--duplex", "short-edge"], "Spielregel")])
def test_print_all_holds_the_rule_sheet_whatever_the_options(tmp_path, options, title):
    """A rule sheet's name has only the options that change it (a draft, a language): the
    print-all file finds it beside decks named with every option (and names it in the
    build's language)."""
    build(REPO, "12th-player", tmp_path, *options)
    reader = pdf(next((tmp_path / "12th-player").glob("12th-player-print-all-*.pdf")))
    assert title in reader.pages[0].extract_text()


def test_notches_are_cut_from_the_whole_bleed_of_a_turned_back(tmp_path):
    """On an A4 fold sheet with a 3 mm bleed the backs are upside down and their bleed is
    wider on one side than the other: the box the notches are cut from is that bleed, turned
    with the piece, so no sliver of it is clipped away."""
    build(REPO, "12th-player", tmp_path, "--paper", "a4", "--duplex", "fold", "--bleed")
    page = pdf(tmp_path / "12th-player" / "cards-a4-fold-bleed.pdf").pages[0]
    turned = [p for p in pieces(page) if p["turned"] and p["notches"]]
    assert turned and any(p["ink"][2] - p["trim"][2] != pytest.approx(p["trim"][0] - p["ink"][0], abs=0.1)
                          for p in turned)
    for piece in turned:
        assert all(abs(a - b) < EPS for a, b in zip(piece["notched"], piece["ink"])), piece


def test_a_back_offset_off_the_sheet_warns_and_into_the_margin_does_not(tmp_path):
    """3x3 poker on Letter leaves 6.35 mm above and below: 2 mm down reaches the 5 mm margin,
    which the printer's own shift undoes on paper (what the offset is for); 7 mm is off the
    sheet, farther than any printer shifts."""
    warned = run("build", "--game", "12th-player", "--out", str(tmp_path / "a"), "--back-offset", "0,7", root=REPO)
    assert warned.exit_code == 0 and "--back-offset moves backs off the sheet" in warned.stderr, warned.stderr
    quiet = run("build", "--game", "12th-player", "--out", str(tmp_path / "b"), "--back-offset", "0,2", root=REPO)
    assert quiet.exit_code == 0 and "--back-offset" not in quiet.stderr


def test_the_build_says_which_edges_get_less_bleed_and_a_bleed_costs_no_sheets(tmp_path):
    """A fold sheet holds four poker cards with or without a bleed (2 mm gutters when 6 mm
    would cost one): the summary says which edges get how much. A bleed on ordinary sheets
    costs nothing either."""
    folded = run("build", "--game", "12th-player", "--out", str(tmp_path / "a"), "--bleed", "--duplex", "fold",
                 root=REPO)
    assert folded.exit_code == 0 and "costs sheets" not in folded.stderr
    # only the edges that get less than asked (the sides of the block get all 3 mm)
    assert "cards: 3 mm bleed asked, the paper leaves 0.70 mm above and below the block, 1.00 mm between " \
        "the columns" in folded.stderr
    assert len(pdf(tmp_path / "a/12th-player/cards-letter-fold-bleed.pdf").pages) == 5
    cover = pdf(tmp_path / "a/12th-player/12th-player-print-all-letter-fold-bleed.pdf").pages[0].extract_text()
    assert "3 mm bleed asked, the paper leaves 0.70 mm above and below" in cover.replace("\n", " ")
    plain = run("build", "--game", "12th-player", "--out", str(tmp_path / "b"), "--bleed", root=REPO)
    assert plain.exit_code == 0 and "costs sheets" not in plain.stderr


def inked_rows(image, x: int) -> tuple[int, int]:
    """How far from the top and from the bottom of the page the first ink is, down column `x`."""
    column = [image.getpixel((x, y)) for y in range(image.height)]
    inked = [y for y, colour in enumerate(column) if colour != (255, 255, 255)]
    return inked[0], image.height - 1 - inked[-1]


def test_a_short_edge_back_takes_the_bleed_of_the_place_it_prints_behind(mini, tmp_path):
    """Turned over top to bottom, a piece on the top row has its back on the bottom row: the
    back must bleed as far into the margin below as its front does above, though a tight gap
    leaves pieces only 1 mm of bleed between the rows."""
    manifest = mini / "card_data/mini/game.yaml"
    manifest.write_text(manifest.read_text().replace("    back: mini/back\n", "    back: mini/back\n    gap: 2mm\n", 1))
    build(mini, "mini", tmp_path, "--bleed", "3mm", "--duplex", "short-edge")
    path = tmp_path / "mini/cards-a4-short-edge-bleed.pdf"
    front, back = (render_png(path, index, scale=300 / 72).convert("RGB") for index in (0, 1))
    x = front.width // 2
    above_front, _ = inked_rows(front, x)
    _, below_back = inked_rows(back, x)
    assert 0 < above_front < front.height / 4
    assert abs(above_front - below_back) <= 2, (above_front, below_back)   # 2 mm short were 24 px


def test_a_cover_line_too_long_for_the_page_wraps_inside_it(root, tmp_path):
    """The print-all cover's note of which edges got less bleed is longer than a Letter page is
    wide: it wraps, every letter inside the page's 20 mm margins, and the next part's heading
    comes below its last line."""
    import pypdfium2
    build(root, "jukem", tmp_path / "a", "--duplex", "short-edge", "--bleed")
    document = pypdfium2.PdfDocument(tmp_path / "a/jukem/jukem-print-all-letter-short-edge-bleed.pdf")
    page = document[0]
    width, _ = page.get_size()
    text = page.get_textpage()
    boxes = [text.get_charbox(i) for i in range(text.count_chars())]
    assert max(right for _, _, right, _ in boxes) <= width - 20 * MM + 0.5
    words = text.get_text_range()
    note_end = words.index("above and below the block.") + len("above and below the block") - 1
    heading = words.index("Rule sheet")
    assert boxes[heading][3] < boxes[note_end][1]   # the heading's top below the note's last line


def test_a_board_one_turned_sheet_holds_is_tiled_on_one_landscape_sheet(tmp_path):
    """The hex map (190 x 180 mm) fits an A4 sheet turned a quarter: it took two upright sheets,
    the second adding 0.7 mm of board. The Big Ten board keeps its upright sheets (8, where
    turned ones take 9)."""
    result = run("build", "--all", "--paper", "a4", "--out", str(tmp_path), "-q", root=REPO / "examples/hex-map")
    assert result.exit_code == 0, result.stderr
    reader = pdf(tmp_path / "hex-map/map-a4.pdf")
    assert len(reader.pages) == 2   # the assembly page and the one sheet
    assert all(float(page.mediabox.width) > float(page.mediabox.height) for page in reader.pages)
    assert "A1 of 1" in reader.pages[1].extract_text()
    build(REPO, "big-ten", tmp_path, "--paper", "a4")
    board = pdf(tmp_path / "big-ten/board-a4.pdf")
    assert len(board.pages) == 9 and float(board.pages[1].mediabox.width) < float(board.pages[1].mediabox.height)
