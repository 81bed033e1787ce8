"""Spans: part of a text in another colour or size, `[red|+2]`, `[80%|small]`, with the
layout's palette names, nested with bold and italic and beside icons. Each character's
colour, size and font read back from the page with pdfium."""

from __future__ import annotations

import ctypes

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest

from conftest import build, run

CARD = "layouts/mini/card.yaml"


def with_text(mini, text: str, palette: str = "") -> int:
    card = mini / CARD
    body = card.read_text()
    if palette:
        body = body.replace("size: mini\n", f"size: mini\npalette: {palette}\n")
    card.write_text(body + f"  - {{kind: text, text: \"{text}\", size: 10, min_size: 10, colour: black, "
                           f"y: 56mm, h: 7mm}}\n")
    return len(body.splitlines()) + 1


def characters(path) -> list[tuple[str, float, tuple[int, int, int], str]]:
    """(character, size in points, fill colour, font name) of each character on the first page."""
    document = pypdfium2.PdfDocument(str(path))
    text = document[0].get_textpage()
    found = []
    for index in range(text.count_chars()):
        char = chr(pdfium_c.FPDFText_GetUnicode(text.raw, index))
        size = pdfium_c.FPDFText_GetFontSize(text.raw, index)
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        pdfium_c.FPDFText_GetFillColor(text.raw, index, *(ctypes.byref(c) for c in (r, g, b, a)))
        name = ctypes.create_string_buffer(128)
        flags = ctypes.c_int()
        pdfium_c.FPDFText_GetFontInfo(text.raw, index, name, 128, ctypes.byref(flags))
        found.append((char, round(size, 2), (r.value, g.value, b.value), name.value.decode()))
    document.close()
    return found


def run_of(chars, word: str):
    """The characters of the first occurrence of `word`."""
    line = "".join(c for c, *_ in chars)
    start = line.index(word)
    return chars[start:start + len(word)]


def test_a_span_gives_part_of_a_text_its_colour_and_size(mini, tmp_path):
    with_text(mini, "Gain [red 150%|+2] or [#3060c0 8pt|less] yards")
    build(mini, "mini", tmp_path)
    chars = characters(tmp_path / "mini/cards-a4.pdf")
    assert {(size, colour) for _, size, colour, _ in run_of(chars, "+2")} == {(15.0, (255, 0, 0))}
    assert {(size, colour) for _, size, colour, _ in run_of(chars, "less")} == {(8.0, (0x30, 0x60, 0xc0))}
    assert {(size, colour) for _, size, colour, _ in run_of(chars, "Gain")} == {(10.0, (0, 0, 0))}
    assert {(size, colour) for _, size, colour, _ in run_of(chars, "yards")} == {(10.0, (0, 0, 0))}
    assert "[" not in "".join(c for c, *_ in chars)


def test_a_span_takes_the_palettes_colour_names_and_nests_with_bold(mini, tmp_path):
    with_text(mini, "Team [law|**Law**] wins *[chaos 120%|twice]*", palette="{law: '#1f4e9c', chaos: '#8b1a1a'}")
    build(mini, "mini", tmp_path)
    chars = characters(tmp_path / "mini/cards-a4.pdf")
    law = run_of(chars, "Law")
    assert {colour for _, _, colour, _ in law} == {(0x1f, 0x4e, 0x9c)} and all("Bold" in f for *_, f in law), law
    twice = run_of(chars, "twice")
    assert {(size, colour) for _, size, colour, _ in twice} == {(12.0, (0x8b, 0x1a, 0x1a))}
    assert all("Italic" in f for *_, f in twice), twice
    assert all("Bold" not in f for *_, f in run_of(chars, "Team")), run_of(chars, "Team")


def test_a_percentage_span_shrinks_with_its_text(mini, tmp_path):
    card = mini / CARD
    card.write_text(card.read_text() + "  - {kind: text, text: \"A long line [50%|of small words] that has to "
                                       "shrink to fit its narrow box\", size: 20, min_size: 4, x: 2mm, y: 56mm, "
                                       "w: 30mm, h: 6mm}\n")
    build(mini, "mini", tmp_path)
    chars = characters(tmp_path / "mini/cards-a4.pdf")
    big = run_of(chars, "long")[0][1]
    small = run_of(chars, "small")[0][1]
    assert big < 20 and small == pytest.approx(big / 2, abs=0.02)


def fill_colours_of_paths(path) -> set[tuple[int, int, int]]:
    """The fill colours of the vector shapes on the first page, those inside forms included."""
    document = pypdfium2.PdfDocument(str(path))
    colours = set()
    for obj in document[0].get_objects(max_depth=10):
        if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH:
            r, g, b, a = (ctypes.c_uint() for _ in range(4))
            if pdfium_c.FPDFPageObj_GetFillColor(obj.raw, *(ctypes.byref(c) for c in (r, g, b, a))):
                colours.add((r.value, g.value, b.value))
    document.close()
    return colours


def test_a_span_beside_an_icon_keeps_both(mini, tmp_path):
    icons = mini / "card_data/mini/icons"
    icons.mkdir(exist_ok=True)
    (icons / "coin.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" '
                                    'height="10"><circle cx="5" cy="5" r="5" fill="#000"/></svg>')
    with_text(mini, "Pay [red 150%|2 :coin:] now")
    build(mini, "mini", tmp_path)
    chars = characters(tmp_path / "mini/cards-a4.pdf")
    assert {(size, colour) for _, size, colour, _ in run_of(chars, "2")} == {(15.0, (255, 0, 0))}
    assert {(size, colour) for _, size, colour, _ in run_of(chars, "Pay")} == {(10.0, (0, 0, 0))}
    assert {(size, colour) for _, size, colour, _ in run_of(chars, "now")} == {(10.0, (0, 0, 0))}
    # the single-colour icon is drawn as vectors in its span's colour, as its letters are
    assert (255, 0, 0) in fill_colours_of_paths(tmp_path / "mini/cards-a4.pdf")


def test_a_span_in_right_to_left_text_keeps_its_colour(mini, tmp_path):
    with_text(mini, "שלום [red 120%|עולם] טוב")
    build(mini, "mini", tmp_path)
    chars = characters(tmp_path / "mini/cards-a4.pdf")
    looks = {char: (size, colour) for char, size, colour, _ in chars if "\u05d0" <= char <= "\u05ea"}
    assert looks["ע"] == (12.0, (255, 0, 0)) and looks["ש"] == (10.0, (0, 0, 0)), looks


BAD_SPANS = [
    ("Gain [rad|+2]", "[rad|...]: 'rad' is not a colour"),
    ("Gain [5%|+2]", "a span's size is 10% to 1000%"),
]


def errors_of(mini) -> list[str]:
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1, result.output
    return [line for line in result.stderr.splitlines() if line.startswith("error")]


@pytest.mark.parametrize("text, message", BAD_SPANS)
def test_a_bad_span_in_a_cards_text_names_the_card_and_the_layout_line(mini, text, message):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.", f'text: "{text}"'))
    errors = errors_of(mini)
    assert len(errors) == 1 and message in errors[0], errors
    assert "cards.yaml:8: card 'Knight', text: " in errors[0] and "(drawn by " in errors[0], errors


@pytest.mark.parametrize("text, message", BAD_SPANS)
def test_a_bad_span_in_a_layouts_own_words_is_told_at_the_layouts_line(mini, text, message):
    """Text with no {field} is the layout's: no card holds it."""
    line = with_text(mini, text)
    errors = errors_of(mini)
    assert len(errors) == 1 and message in errors[0] and f"card.yaml:{line}: " in errors[0], errors
    assert "card '" not in errors[0] and "cards.yaml" not in errors[0], errors


def test_brackets_without_a_bar_print_as_written(mini, tmp_path):
    with_text(mini, "Roll [d6] then [again]")
    build(mini, "mini", tmp_path)
    assert "Roll [d6] then [again]" in "".join(c for c, *_ in characters(tmp_path / "mini/cards-a4.pdf"))
