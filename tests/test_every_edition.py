"""Every edition as good as the first: a game with inline icons and emphasis in card text,
rule-sheet paragraphs and table cells, two front layouts and a board (tests/fixtures/babel),
built in English, German, Hebrew and Arabic. Each translation draws as many pictures on each
page as the source, in the same styles; right-to-left text reads in order; SVG icons are
vectors at any size."""

from __future__ import annotations

import shutil
import unicodedata

import pypdf
import pypdfium2
import pytest

from conftest import REPO, pdf, run
from edition_checks import pages_drawn

LANGUAGES = ("de", "he", "ar")
FILES = ("cards-a4", "rules-a4", "board-a4", "board-whole", "babel-print-all-a4")


def babel_root(target):
    shutil.copytree(REPO / "tests/fixtures/babel", target)
    shutil.copytree(REPO / "fonts", target / "fonts")
    return target


@pytest.fixture(scope="module")
def editions(tmp_path_factory):
    root = babel_root(tmp_path_factory.mktemp("babel") / "root")
    out = root.parent / "out"
    for extra in ((), ("--lang", "all")):
        result = run("build", "--game", "babel", "--out", str(out), "--quiet", *extra, root=root)
        assert result.exit_code == 0, result.output + (result.stderr or "")
    return out / "babel"


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("code", LANGUAGES)
def test_each_translation_draws_the_pictures_and_styles_of_the_source(editions, name, code):
    source = pages_drawn(editions / f"{name}.pdf")
    translated = pages_drawn(editions / f"{name}-{code}.pdf")
    assert len(translated) == len(source)
    for number, (first, other) in enumerate(zip(source, translated), start=1):
        assert other.pictures == first.pictures, f"page {number}: {other.pictures} pictures, source {first.pictures}"
        assert other.styles == first.styles, f"page {number}: styles {sorted(other.styles)}, source {sorted(first.styles)}"
    assert sum(page.pictures for page in source) > 0


def test_the_fixture_uses_icons_and_every_emphasis(editions):
    """The comparison above means something: the source pages hold icons, bold, italic and both."""
    cards, rules = pages_drawn(editions / "cards-a4.pdf")[0], pages_drawn(editions / "rules-a4.pdf")[0]
    for page in (cards, rules):
        assert page.pictures >= 10
        assert {(False, False), (True, False), (False, True), (True, True)} <= page.styles


def page_text(path, index: int = 0) -> str:
    text = pypdfium2.PdfDocument(str(path))[index].get_textpage().get_text_range()
    return " ".join(unicodedata.normalize("NFKC", text).split())


def test_right_to_left_table_cells_and_paragraphs_read_in_order(editions):
    arabic, hebrew = page_text(editions / "rules-a4-ar.pdf"), page_text(editions / "rules-a4-he.pdf")
    for words in ("كل لاعب يخسر", "بسرعة: خذ", "ذهب للدفع", "كنز، قيمته 2", "في دورك خذ"):
        assert words in arabic, words
    for words in ("כל שחקן מאבד", "מהר: קח", "זהב לתשלום", "אוצר, שווה 2", "בתורך קח"):
        assert words in hebrew, words
    # a layout's table on the board: icons, emphasis and Arabic in its cells
    board = page_text(editions / "board-whole-ar.pdf")
    for words in ("ضوء: خطوة واحدة", "كنز، قيمته اثنان", "المعنى"):
        assert words in board, words


def test_a_right_to_left_tables_numbers_stand_under_their_heading_from_the_right(editions):
    """The count column of the Hebrew rule sheet's card list: each "4" ends where its heading
    ends, at the column's right; numbers were set from the left, under the next column's words."""
    page = pypdfium2.PdfDocument(str(editions / "rules-a4-he.pdf"))[0].get_textpage()
    text = page.get_text_range()
    heading = text.index("עותקים")
    heading_right = max(page.get_charbox(i)[2] for i in range(heading, heading + len("עותקים")))
    counts = [i for i, char in enumerate(text) if char == "4" and not text[i - 1].isalnum() and not text[i + 1].isalnum()]
    assert len(counts) >= 3, text
    for i in counts[:3]:
        assert abs(page.get_charbox(i)[2] - heading_right) < 2, (page.get_charbox(i), heading_right)
    # the Hebrew names stand from the right of theirs too, as the heading does
    card = text.index("קלף")
    card_right = max(page.get_charbox(i)[2] for i in range(card, card + len("קלף")))
    name = text.index("מדליק")   # "מדליק הפנסים", over two lines: its first word starts the first, on the right
    name_right = max(page.get_charbox(i)[2] for i in range(name, name + len("מדליק")))
    assert abs(name_right - card_right) < 2, (name_right, card_right)


def test_arabic_letters_are_joined_and_run_right_to_left(editions):
    """Drawn in visual order: the first letter of a word lies right of the next; the letters
    drawn are the joined forms (presentation forms), not the isolated ones."""
    assert "\ufedb" in pdf(editions / "rules-a4-ar.pdf").pages[0].extract_text()   # kaf, initial form
    page = pypdfium2.PdfDocument(str(editions / "rules-a4-ar.pdf"))[0].get_textpage()
    index = page.get_text_range().find("كل لاعب")
    assert index >= 0
    assert page.get_charbox(index)[0] > page.get_charbox(index + 1)[0]


def test_an_arabic_paragraph_is_set_from_the_right(editions):
    """A paragraph whose first letter is Arabic reads from the right: its short last line ends
    at the right edge of the column, as its first line does, not at the left."""
    page = pypdfium2.PdfDocument(str(editions / "rules-a4-ar.pdf"))[0].get_textpage()
    text = page.get_text_range()
    first, last = text.find("في دورك"), text.find("كلاهما")   # the paragraph's first line and its last
    assert 0 <= first < last
    right_edge = page.get_charbox(first)[2]
    assert right_edge - page.get_charbox(last)[2] < 30, (right_edge, page.get_charbox(last)[2])


def test_an_svg_icon_at_100_pt_is_vector_art_and_a_png_keeps_its_pixels(tmp_path):
    root = babel_root(tmp_path / "root")
    layout = root / "layouts/babel/card.yaml"
    layout.write_text(layout.read_text().replace('text: "{text}", size: 10,', 'text: "{text}", size: 100, min_size: 100,')
                      .replace("h: 30mm}", "h: 200mm}"))
    cards = root / "card_data/babel/cards.yaml"
    cards.write_text(cards.read_text().replace('text: "Gain 1 :lantern: and **2** :gem:."', 'text: ":lantern:"')
                     .replace('text: "*Quick*: take :coin:, then ***pay*** :lantern@1.5: to move."', 'text: ":coin:"')
                     .replace('cost: ":lantern: :lantern:"', 'cost: "x"').replace('cost: ":coin:"', 'cost: "x"'))
    out = tmp_path / "out"
    result = run("build", "--game", "babel", "--out", str(out), "--quiet", root=root)
    assert result.exit_code == 0, result.stderr
    # four Lamplighters (a lantern, SVG), four Pilgrims (a coin, PNG), a Storm (gem, lantern, coin)
    fronts = pages_drawn(out / "babel/cards-a4.pdf")[0]
    assert (fronts.vector_icons, fronts.image_objects) == (4 + 2, 4 + 1)
    reader = pdf(out / "babel/cards-a4.pdf")
    images = [x for page in reader.pages for x in _all_xobjects(page) if x.get("/Subtype") == "/Image"]
    assert len({(int(x["/Width"]), int(x["/Height"])) for x in images}) == 1   # only the PNG coin
    assert all(int(x["/Width"]) == 48 for x in images)                       # at its own pixels


def _all_xobjects(page):
    seen, stack, found = set(), [page["/Resources"]], []
    while stack:
        resources = stack.pop()
        for ref in ((resources or {}).get("/XObject") or {}).values():
            if id(ref.get_object()) in seen:
                continue
            seen.add(id(ref.get_object()))
            obj = ref.get_object()
            found.append(obj)
            if obj.get("/Resources"):
                stack.append(obj["/Resources"])
    return found


def test_an_icon_can_be_sized_against_the_text(tmp_path):
    from edition_checks import drawn
    root = babel_root(tmp_path / "root")
    cards = root / "card_data/babel/cards.yaml"
    cards.write_text(cards.read_text().replace('text: "Gain 1 :lantern: and **2** :gem:."',
                                               'text: ":gem: and :gem@2.5:"'))
    out = tmp_path / "out"
    assert run("build", "--game", "babel", "--out", str(out), "--quiet", root=root).exit_code == 0
    stream = pdf(out / "babel/cards-a4.pdf").pages[0]
    heights = sorted({round(h, 2) for h in icon_heights(stream)})
    assert round(10 * 0.72, 2) in heights and round(10 * 0.72 * 2.5, 2) in heights, heights
    assert drawn(stream).pictures


def icon_heights(page):
    import re
    data = b"".join(x.get_data() for x in _all_xobjects(page) if x.get("/Subtype") == "/Form")
    return [float(h) for h in re.findall(rb"[\d.]+ 0 0 ([\d.]+) [\d.-]+ [\d.-]+ cm\s*/FormXob\.pnpicon", data)]


def test_an_icon_size_that_is_no_size_names_the_card_and_layout(tmp_path):
    root = babel_root(tmp_path / "root")
    cards = root / "card_data/babel/cards.yaml"
    cards.write_text(cards.read_text().replace("Gain 1 :lantern:", "Gain 1 :lantern@50:"))
    result = run("validate", "--game", "babel", root=root)
    assert result.exit_code == 1
    assert "cards.yaml:" in result.stderr and "card 'Lamplighter', text" in result.stderr
    assert "give a size from 0.1 to 20" in result.stderr


def right_edge_of(path, words: str) -> float:
    """Where the first drawing of `words` on the first page ends on the right, in points."""
    page = pypdfium2.PdfDocument(str(path))[0].get_textpage()
    index = page.get_text_range().find(words)
    assert index >= 0, words
    return max(page.get_charbox(i)[2] for i in range(index, index + len(words)))


def test_a_layout_that_mirrors_moves_its_boxes_in_right_to_left_languages(editions):
    """The card's name box (5 to 45 mm, the cost on the right) moves to 18 to 58 mm in Hebrew and
    Arabic, so the name reads from the right edge and the cost sits on the left; German stays."""
    card_left, mm = 29.76, 72 / 25.4
    assert right_edge_of(editions / "cards-a4-de.pdf", "Laternenanzünder") - card_left < 46 * mm
    for code, name in (("he", "מדליק הפנסים"), ("ar", "مشعل الفوانيس")):
        edge = right_edge_of(editions / f"cards-a4-{code}.pdf", name) - card_left
        assert 50 * mm < edge <= 58.5 * mm, (code, edge / mm)


def test_an_element_can_keep_its_place_in_a_mirrored_layout(tmp_path):
    root = babel_root(tmp_path / "root")
    layout = root / "layouts/babel/card.yaml"
    layout.write_text(layout.read_text().replace('text: "{name}", font: display,', 'text: "{name}", mirror: false, font: display,'))
    out = tmp_path / "out"
    assert run("build", "--game", "babel", "--lang", "he", "--out", str(out), "--quiet", root=root).exit_code == 0
    assert right_edge_of(out / "babel/cards-a4-he.pdf", "מדליק הפנסים") - 29.76 < 46 * 72 / 25.4


def test_a_style_the_font_has_no_face_for_is_slanted_or_told(mini, tmp_path):
    """The display family (Fjalla One) has one face: *italic* in it is slanted, **bold** prints
    regular with a warning naming the card, field and layout line; nothing is silent."""
    from edition_checks import drawn
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("name: Knight", 'name: "**Big** *Knight*"'))
    result = run("build", "--game", "mini", "--out", str(tmp_path / "out"), root=mini)
    assert result.exit_code == 0, result.stderr
    assert "card '**Big** *Knight*', name: the font family 'display' has no bold face" in result.stderr
    assert "card.yaml:" in result.stderr and "cards.yaml:" in result.stderr
    page = drawn(pdf(tmp_path / "out/mini/cards-a4.pdf").pages[0])
    assert (False, True) in page.styles   # the slanted italic


def test_an_icon_in_text_printed_in_capitals_is_still_an_icon(tmp_path):
    root = babel_root(tmp_path / "root")
    layout = root / "layouts/babel/card.yaml"
    layout.write_text(layout.read_text().replace('text: "ROAD", size: 9,', 'text: "road :lantern:", upper: true, size: 9,'))
    out = tmp_path / "out"
    result = run("build", "--game", "babel", "--out", str(out), "--quiet", root=root)
    assert result.exit_code == 0, result.stderr
    assert pages_drawn(out / "babel/cards-a4.pdf")[0].pictures == 31 + 8   # one more on each road card
    assert "ROAD" in pdf(out / "babel/cards-a4.pdf").pages[0].extract_text()


@pytest.mark.parametrize("code", ("",) + LANGUAGES)
def test_every_font_an_edition_names_is_embedded(editions, code):
    """Vector icons and styled runs name no font the PDF lacks (renderPDF would start with
    Helvetica)."""
    from conftest import embedded
    suffix = f"-{code}" if code else ""
    for name in ("cards-a4", "rules-a4", "board-whole"):
        for page in pdf(editions / f"{name}{suffix}.pdf").pages:
            stack, seen = [page["/Resources"]], set()
            while stack:
                resources = stack.pop().get_object()
                for font in (resources.get("/Font") or {}).values():
                    assert embedded(font.get_object()), (name, code, font.get_object()["/BaseFont"])
                for ref in (resources.get("/XObject") or {}).values():
                    xobject = ref.get_object()
                    if id(xobject) not in seen and "/Resources" in xobject:
                        seen.add(id(xobject))
                        stack.append(xobject["/Resources"])


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_no_bundled_rule_sheet_has_a_page_of_footer_alone(root, tmp_path, paper):
    """Every page of every bundled game's rule sheet, in every language it has, prints more
    than its footer: the German 12th Player gained a second page holding only its footer when a
    table filled its last column exactly and the space after it began a new page."""
    out = tmp_path / "out"
    for game in ("12th-player", "big-ten", "jukem", "monster-ball"):
        langs = ["--lang", "all"] if (root / "card_data" / game / "lang").is_dir() else []
        for extra in ([], langs) if langs else ([],):
            result = run("build", "--game", game, "--out", str(out), "--paper", paper, "-q", *extra, root=root)
            assert result.exit_code == 0, result.stderr
    sheets = sorted(out.glob(f"*/rules-{paper}*.pdf"))
    assert len(sheets) == 6
    for sheet in sheets:
        for number, page in enumerate(pypdf.PdfReader(str(sheet)).pages, 1):
            lines = [line for line in page.extract_text().splitlines() if line.strip()]
            assert len(lines) > 2, f"{sheet.name} page {number}: {lines}"
