"""Font fallback: a character the family's face lacks is drawn, character by character, by the
first fallback family that has it (Noto Sans for Greek and Cyrillic); what no font has is one
truthful warning per card and field. Fonts are read back from the PDF, run by run."""

from __future__ import annotations

import pytest

from conftest import build, pdf, placements, run

CARDS = "card_data/mini/cards.yaml"


def runs(path, page: int = 0) -> list[tuple[str, str]]:
    """(text, font) of every piece of text the page draws, in order."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip() and font is not None:
            found.append((text.strip(), str(font.get("/BaseFont", "")).split("+")[-1]))

    pdf(path).pages[page].extract_text(visitor_text=visit)
    return found


def font_of(found, needle: str) -> set[str]:
    return {font for text, font in found if needle in text}


def edit_cards(mini, old: str, new: str) -> None:
    cards = mini / CARDS
    cards.write_text(cards.read_text().replace(old, new))


def test_greek_in_the_display_font_is_drawn_by_noto_sans(mini, tmp_path):
    edit_cards(mini, "name: Knight", "name: Ιππότης")
    result = build(mini, "mini", tmp_path)
    found = runs(tmp_path / "mini/cards-a4.pdf")
    assert font_of(found, "Ιππότης") == {"NotoSans-Regular"}, found
    assert font_of(found, "Bishop") == {"FjallaOne-Regular"}   # Latin stays in the family's face
    assert "glyph" not in result.stderr and "blank" not in result.stderr


def test_a_mixed_line_switches_font_only_for_the_characters_the_face_lacks(mini, tmp_path):
    # Fjalla One (display) has no Cyrillic; Lato (text) has, but not the rarer Ԫ (U+052A)
    edit_cards(mini, "name: Knight", "name: Knight Жук")
    edit_cards(mini, "text: Moves in an L.", 'text: "Moves like Ж, then **Ԫ** wins"')
    build(mini, "mini", tmp_path)
    found = runs(tmp_path / "mini/cards-a4.pdf")
    assert font_of(found, "Knight") == {"FjallaOne-Regular"} and font_of(found, "Жук") == {"NotoSans-Regular"}
    assert font_of(found, "Moves like Ж") == {"Lato-Regular"}   # the face has it: no switch
    assert font_of(found, "Ԫ") == {"NotoSans-Bold"}   # bold text: the fallback's own bold


def test_latin_only_text_never_loads_a_fallback(mini, tmp_path):
    build(mini, "mini", tmp_path)
    fonts = {font for _, font in runs(tmp_path / "mini/cards-a4.pdf")}
    assert fonts == {"FjallaOne-Regular", "Lato-Regular"}, fonts


def test_what_no_font_has_is_one_warning_per_card_and_field(mini, tmp_path):
    edit_cards(mini, "text: Moves in an L.", 'text: "Moves 😀 in 🂡 an L 😀"')
    result = build(mini, "mini", tmp_path)
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning")]
    assert len(warnings) == 1, warnings   # four Knights share the text: told once
    assert "card 'Knight', text" in warnings[0] and "'😀' (U+1F600)" in warnings[0] and "'🂡' (U+1F0A1)" in warnings[0]
    assert "they print as blank space" in warnings[0] and "card.yaml:" in warnings[0]


def test_the_rule_sheet_draws_greek_and_cyrillic_with_the_fallback(mini, tmp_path):
    rules = mini / "card_data/mini/rules.md"
    rules.write_text(rules.read_text() + "\n## Κανόνες\n\nΟ παίκτης **κερδίζει** Ԫ.\n")
    build(mini, "mini", tmp_path)
    found = runs(tmp_path / "mini/rules-a4.pdf")
    assert font_of(found, "Κανόνες") == {"NotoSans-Regular"}   # headings: Fjalla One has no Greek
    assert font_of(found, "κερδίζει") == {"Lato-Bold"}         # body: Lato has it
    assert font_of(found, "Ԫ") == {"NotoSans-Regular"}


def test_an_unknown_fallback_family_is_an_error_at_its_line(mini):
    fonts = mini / "fonts/fonts.yaml"
    fonts.write_text(fonts.read_text().replace("fallback: [noto, noto-hebrew, noto-arabic]\ntext:",
                                               "fallback: [notto]\ntext:"))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code != 0
    assert "fonts.yaml:9:" in result.stderr and "unknown font family 'notto'" in result.stderr
    assert "did you mean 'noto'" in result.stderr


def glyph_places(path) -> tuple[str, list[float]]:
    """The page's text as pdfium reads it (in reading order) and the left edge of each
    character's glyph where it was drawn: what a reader of the printed page sees."""
    import pypdfium2
    page = pypdfium2.PdfDocument(str(path))[0].get_textpage()
    count = page.count_chars()
    return page.get_text_range(0, count), [page.get_charbox(i)[0] for i in range(count)]


def x_of(text: str, places: list[float], word: str) -> list[float]:
    start = text.index(word)   # the first card's
    return places[start:start + len(word)]


@pytest.mark.parametrize("logical, order", [
    ("שלום", ["שלום"]),
    ("שלום עולם 123 world", ["world", "123", "עולם", "שלום"]),   # a right-to-left line
    ("Score 9 נקודות now", ["Score", "9", "נקודות", "now"]),      # a Hebrew word in a Latin line
])
def test_right_to_left_words_and_letters_are_drawn_from_the_right(mini, tmp_path, logical, order):
    edit_cards(mini, "text: Moves in an L.", f'text: "{logical}"')
    build(mini, "mini", tmp_path)
    text, places = glyph_places(tmp_path / "mini/cards-a4.pdf")
    assert logical in text   # read back in reading order: nothing lost or scrambled
    lefts = [min(x_of(text, places, word)) for word in order]
    assert lefts == sorted(lefts), (order, lefts)   # the words, left to right on paper
    for word in order:
        xs = x_of(text, places, word)
        rtl = word[0] >= "\u0590"
        assert xs == sorted(xs, reverse=rtl), (word, xs)   # Hebrew letters run leftwards


def test_arabic_letters_are_joined_and_its_lines_read_right_to_left(mini, tmp_path):
    edit_cards(mini, "text: Moves in an L.", 'text: "مرحبا بالعالم، هذه بطاقة عربية طويلة جدا"')
    build(mini, "mini", tmp_path)
    found = runs(tmp_path / "mini/cards-a4.pdf")
    arabic = [(text, font) for text, font in found if any(0x600 <= ord(c) <= 0xFEFF for c in text)]
    assert {font for _, font in arabic} == {"NotoSansArabic-Regular"}
    letters = "".join(text for text, _ in arabic)
    # joined: presentation forms (initial, medial, final), no bare isolated letters left
    assert sum(0xFE70 <= ord(c) <= 0xFEFF for c in letters) > 20
    assert not any(0x0621 <= ord(c) <= 0x064A for c in letters)
    # two lines, the first words on the first (read back in reading order)
    assert [text.split()[0] for text, _ in arabic[:2]] == ["ﻣﺮﺣﺒﺎ", "ﻃﻮﻳﻠﺔ"], arabic
    # and on paper the first word is the rightmost of its line
    text, places = glyph_places(tmp_path / "mini/cards-a4.pdf")
    assert min(x_of(text, places, "مرحبا")) > max(x_of(text, places, "بالعالم"))   # pdfium reads base letters



def test_arabic_vowel_marks_are_drawn_not_dropped(mini, tmp_path):
    """يُهاجَم printed bare as يهاجم: the reshaper's own default deletes the marks."""
    edit_cards(mini, "text: Moves in an L.", 'text: "يُهاجَم بدلاً"')
    build(mini, "mini", tmp_path)
    letters = "".join(text for text, _ in runs(tmp_path / "mini/cards-a4.pdf"))
    marks = [c for c in letters if 0x064B <= ord(c) <= 0x0652]
    assert set(marks) == set("\u064f\u064e\u064b"), [hex(ord(c)) for c in marks]   # damma, fatha, fathatan

def test_a_right_to_left_paragraph_aligns_from_the_right(mini, tmp_path):
    edit_cards(mini, "text: Moves in an L.", 'text: "שלום"')
    edit_cards(mini, "text: Moves along a diagonal.", 'text: "Hello"')
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/cards-a4.pdf"
    text, places = glyph_places(path)
    # both in the same box (left-aligned in the layout), measured from their own card's left
    # edge: the Hebrew word sits at the box's right end, the Latin one at its left
    lefts = sorted(x for x, _, _, _ in placements(pdf(path).pages[0]))

    def from_card(x: float) -> float:
        return x - max(left for left in lefts if left <= x)
    hebrew, latin = from_card(min(x_of(text, places, "שלום"))), from_card(min(x_of(text, places, "Hello")))
    assert hebrew - latin > 20 * 72 / 25.4, (hebrew, latin)


def test_the_rule_sheet_lays_out_hebrew_right_to_left_from_the_right(mini, tmp_path):
    rules = mini / "card_data/mini/rules.md"
    rules.write_text(rules.read_text() + "\n## כללים\n\nכל שחקן מקבל שלושה קלפים, ומשחק אחד בכל תור.\n")
    build(mini, "mini", tmp_path)
    path = tmp_path / "mini/rules-a4.pdf"
    text, places = glyph_places(path)
    assert "כל שחקן מקבל" in text
    words = ["מקבל", "שחקן", "כל"]   # on paper, left to right
    lefts = [min(x_of(text, places, word)) for word in words]
    assert lefts == sorted(lefts), lefts
    heading = x_of(text, places, "כללים")
    body_start = max(x_of(text, places, "כל שחקן"))
    assert max(heading) > 150 and body_start > 150   # both from the right of the column
