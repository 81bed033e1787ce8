"""Text the fonts cannot draw, or that cannot fit, is built anyway and named in a warning."""

from __future__ import annotations

from conftest import pdf, run


def set_text(mini, text: str) -> None:
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.", f"text: \"{text}\""))


def build(mini, tmp_path):
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    return result


def test_a_character_the_font_lacks_is_named_with_its_card(mini, tmp_path):
    set_text(mini, "Touchdown 🏈 now")
    result = build(mini, tmp_path)
    assert "cards.yaml:8: card 'Knight', text: no font in fonts.yaml (nor the fallbacks of 'text') has " \
           "'🏈' (U+1F3C8); they print as blank space" in result.stderr
    # The rest of the text is still printed: nothing is dropped silently.
    assert "Touchdown" in pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text()


def test_hebrew_the_face_lacks_is_drawn_by_the_hebrew_fallback_without_a_warning(mini, tmp_path):
    set_text(mini, "שלום")
    result = build(mini, tmp_path)
    assert "warning" not in result.stderr


def test_accents_the_font_has_give_no_warning(mini, tmp_path):
    set_text(mini, "Déjà vu, naïve café, Ångström, Łódź")
    result = build(mini, tmp_path)
    assert "warning" not in result.stderr
    assert "Ångström" in pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text()


def test_text_that_cannot_fit_even_shrunk_is_named(mini, tmp_path):
    set_text(mini, "A very long rule. " * 40)
    result = build(mini, tmp_path)
    assert "cards.yaml:8: card 'Knight', text: text 'A very long rule. A very long rule. A...' does not fit its " \
           "box even at 5 pt; the rest is cut off at the box's edge (" in result.stderr
    assert "layouts/mini/card.yaml:" in result.stderr


def card_png(mini, tmp_path):
    """The Knight's face as The Game Crafter gets it, and the scale: pixels per mm."""
    from PIL import Image
    run("build", "--game", "mini", "--out", str(tmp_path), "--shop", "tgc", root=mini)
    face = Image.open(next((tmp_path / "mini/tgc/cards").glob("cards-001-front*.png"))).convert("RGB")
    return face, face.size[0] / (44.45 + 6.35)


def test_text_that_cannot_fit_is_cut_off_at_its_box_not_drawn_over_the_card(mini, tmp_path):
    """The text box is 4-40 mm across and 40-58 mm down a card 63.5 mm tall: below it the
    background stays clean, inside it the text is drawn."""
    set_text(mini, "Overflowing words, " * 60)
    face, per_mm = card_png(mini, tmp_path)
    bleed = 3.175

    def ink_rows(top_mm: float, bottom_mm: float) -> int:
        rows = 0
        for y_mm in [top_mm + i * 0.25 for i in range(int((bottom_mm - top_mm) / 0.25))]:
            y = int((y_mm + bleed) * per_mm)
            if any(face.getpixel((int((x_mm + bleed) * per_mm), y))[0] > 200 for x_mm in range(5, 39)):
                rows += 1
        return rows

    assert ink_rows(41, 57) > 10      # the box is full of white text
    assert ink_rows(58.6, 63) == 0     # and none below it


def test_overflow_ellipsis_shortens_the_text_to_end_in_an_ellipsis(mini, tmp_path):
    set_text(mini, "Overflowing words, " * 60)
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + "    overflow: ellipsis\n")
    result = build(mini, tmp_path)
    assert "shortened with '…'" in result.stderr
    text = " ".join(pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text().split())
    assert "Overflowing words, Overflowing words" in text and "words…" in text
    assert text.count("Overflowing") < 4 * 60


def test_a_word_too_long_for_its_box_is_shrunk_or_named(mini, tmp_path):
    set_text(mini, "Supercalifragilisticexpialidocious" * 3)
    result = build(mini, tmp_path)
    assert "does not fit its box" in result.stderr


def test_a_table_cell_too_long_for_its_column_is_cut_off_at_the_cell_and_named(mini, tmp_path):
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + """  - kind: table
    x: 4mm
    y: 58mm
    w: 36mm
    h: 4mm
    columns: [10mm, 26mm]
    colour: white
    rows: [["{text}", ""]]
""")
    set_text(mini, "Averyveryverylongwordthatcannotfit")
    result = build(mini, tmp_path)
    assert "card 'Knight': table cell 'Averyveryverylongwordthatcannotfit' does not fit its column" in result.stderr
    face, per_mm = card_png(mini, tmp_path)
    bleed, row = 3.175, 60.0
    y = int((row + bleed) * per_mm)
    inside = [face.getpixel((int((x + bleed) * per_mm), y))[0] for x in (5, 6, 7, 8, 9, 10, 11, 12)]
    beyond = [face.getpixel((int((x / 4 + bleed) * per_mm), y))[0] for x in range(4 * 14 + 2, 4 * 40)]
    assert max(inside) > 200 and max(beyond) < 120, (inside, max(beyond))


def test_a_text_that_does_not_fit_is_quoted_as_written_icons_included(mini, tmp_path):
    """The warning quotes the card's text as the designer wrote it: an icon as :name:, not as
    the character that stands for it while the text is set (which a terminal shows as
    nothing, leaving two spaces)."""
    (mini / "card_data/mini/icons").mkdir()
    (mini / "card_data/mini/icons/coin.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="5"/></svg>')
    set_text(mini, "Take 2 :coin: from " + "the bank and more words " * 40)
    result = build(mini, tmp_path)
    assert "text 'Take 2 :coin: from the bank and more ...'" in result.stderr, result.stderr


def test_text_printed_past_the_cards_edge_is_told_with_its_card(mini, tmp_path):
    """The trial's text box at x 50 mm, 47 mm wide on a 63.5 mm card printed cut off at the
    card's edge without a word. A box past the edge whose lines print inside it says nothing
    (the review found the hex-map example's short title warned about by its box alone)."""
    layout = mini / "layouts/mini/card.yaml"
    text = layout.read_text()
    layout.write_text(text.replace("    x: 4mm\n    y: 40mm\n    w: 36mm\n", "    x: 4mm\n    y: 40mm\n    w: 60mm\n"))
    assert "past the piece's" not in build(mini, tmp_path).stderr   # the box runs past; its short lines do not
    layout.write_text(text.replace("    x: 4mm\n    y: 40mm\n    w: 36mm\n", "    x: 30mm\n    y: 40mm\n    w: 36mm\n"))
    result = build(mini, tmp_path)
    assert result.exit_code == 0
    told = [line for line in result.stderr.splitlines() if "past the piece's right edge" in line]
    assert any("card 'Knight', text: text 'Moves in an L.' prints " in line for line in told)
    assert all(line.endswith("where it is cut off (" + str(layout) + ":23)") for line in told), told


def test_turned_text_printed_past_the_edge_is_told_and_inside_it_is_not(mini, tmp_path):
    """A word turned a quarter, in a box whose turned extent runs past the card: told when its
    lines do (the review found turned text no longer checked), not when they print inside."""
    layout = mini / "layouts/mini/card.yaml"
    text = layout.read_text()
    layout.write_text(text + "  - {kind: text, text: SIDEWAYS LABEL, rotate: 90, valign: middle, align: center, "
                             "x: 36mm, y: 20mm, w: 20mm, h: 40mm}\n")
    told = build(mini, tmp_path).stderr
    assert "text 'SIDEWAYS LABEL' prints" in told and "past the piece's right edge" in told
    layout.write_text(text + "  - {kind: text, text: SIDEWAYS LABEL, rotate: 90, valign: middle, align: center, "
                             "x: 2mm, y: 20mm, w: 20mm, h: 40mm}\n")
    assert "past the piece's" not in build(mini, tmp_path).stderr


def test_a_table_heading_too_wide_is_told_once_at_its_line_not_with_each_card(mini, tmp_path):
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + "  - {kind: table, x: 4mm, y: 58mm, w: 20mm, h: 4mm, columns: [10mm, 10mm],\n"
                                           "     head: [Averyveryverylongheading, b], rows: [[x, y]], colour: white}\n")
    line = len(layout.read_text().splitlines())   # the head: line
    result = build(mini, tmp_path)
    told = [text for text in result.stderr.splitlines() if "Averyveryverylongheading" in text]
    assert len(told) == 1, told
    assert f"card.yaml:{line}: " in told[0] and "head: table heading 'Averyveryverylongheading' does not fit its " \
        "column" in told[0], told
    assert "card '" not in told[0]


def test_text_a_repeat_moves_past_the_cards_edge_is_told(mini, tmp_path):
    """A row of words from a repeat: each cell's box is inside the card where it is written,
    and the repeat puts the fourth past the right edge, which cut it off without a word."""
    layout = mini / "layouts/mini/card.yaml"
    text = layout.read_text()

    def row(step: str) -> None:
        layout.write_text(text + f"  - kind: repeat\n    items: [ONE, TWO, THREE, FOUR]\n    x: 2mm\n    y: 60mm\n"
                                 f"    dx: {step}\n    elements:\n"
                                 f"      - {{kind: text, text: \"{{item}}\", size: 6, x: 0mm, y: 0mm, w: 12mm, h: 3mm}}\n")
    row("14mm")   # cells at 2, 16, 30 and 44 mm: FOUR starts half a millimetre from the mini card's right edge
    told = [line for line in build(mini, tmp_path).stderr.splitlines() if "past the piece's right edge" in line]
    assert told and all("card '" in line and ", item: text 'FOUR' prints" in line for line in told), told
    row("10mm")   # 2, 12, 22 and 32 mm: all inside
    assert "past the piece's" not in build(mini, tmp_path).stderr


def test_text_in_a_repeats_cells_or_a_right_to_left_edition_is_not_told_falsely(tmp_path):
    """A repeat's cell is a piece placed by the repeat, and right-to-left lines start from the
    other side: the review found 214 false warnings in the playing-cards example's pips, and
    Hebrew names told past the left edge though they printed inside."""
    import shutil

    from conftest import REPO
    from test_every_edition import babel_root
    cards = tmp_path / "cards"
    shutil.copytree(REPO / "examples/playing-cards", cards, symlinks=True)
    front = next((cards / "layouts").glob("*/front.yaml"))
    front.write_text(front.read_text().replace(
        '      - {kind: image, src: "icons/{suit}.svg"}\n',
        '      - {kind: image, src: "icons/{suit}.svg"}\n'
        '      - {kind: text, text: "{i}", size: 6, align: center, y: 9mm, h: 3mm}\n'))
    result = run("build", "--all", "--out", str(tmp_path / "out"), "-q", root=cards)
    assert result.exit_code == 0, result.stderr
    assert "past the piece's" not in result.stderr
    root = babel_root(tmp_path / "babel")
    card = root / "layouts/babel/card.yaml"
    card.write_text(card.read_text() + '  - {kind: text, text: "{name}", size: 7, x: 5mm, y: 80mm, w: 70mm, h: 4mm}\n')
    result = run("build", "--game", "babel", "--lang", "he", "--out", str(tmp_path / "he"), "-q", root=root)
    assert result.exit_code == 0 and "past the piece's" not in result.stderr


def test_each_game_of_a_run_keeps_and_tells_its_own_warnings(mini, tmp_path):
    """A game's build record keeps the warnings its own build gave, as given: the next game of
    `build --all` kept the first one's too, and a rebuild with nothing changed told them with
    the game's name twice ("mini: mini: ...")."""
    import json
    import shutil
    shutil.copytree(mini / "card_data/mini", mini / "card_data/other")
    set_text(mini, "Touchdown 🏈 now")
    first = run("build", "--all", "--out", str(tmp_path), "-j1", root=mini)
    assert first.exit_code == 0, first.stderr
    told = [line for line in first.stderr.splitlines() if "🏈" in line]
    assert len(told) == 1 and told[0].startswith("warning: mini: ") and "mini/cards.yaml:8: card 'Knight'" in told[0]
    assert json.loads((tmp_path / "other/.pnp-build.json").read_text())["warnings"] == []
    kept = json.loads((tmp_path / "mini/.pnp-build.json").read_text())["warnings"]
    assert len(kept) == 1 and not kept[0].startswith("mini: ") and "mini/cards.yaml:8: card 'Knight'" in kept[0]
    again = run("build", "--all", "--out", str(tmp_path), "-j1", root=mini)
    assert [line for line in again.stderr.splitlines() if "🏈" in line] == told
    alone = run("build", "--game", "other", "--out", str(tmp_path), root=mini)
    assert "🏈" not in alone.stderr


def test_text_past_the_edge_in_a_right_to_left_edition_is_told_on_the_side_it_prints(tmp_path):
    """A mirrored layout in Hebrew sets a name from the right of its mirrored box: a box 10 mm
    past the card's left edge prints past its right edge there, and is told so (right-to-left
    editions were not checked at all)."""
    from test_every_edition import babel_root
    root = babel_root(tmp_path / "babel")
    card = root / "layouts/babel/card.yaml"
    card.write_text(card.read_text() + '  - {kind: text, text: "{name}", size: 7, x: -10mm, y: 80mm, w: 40mm, h: 4mm}\n')
    result = run("build", "--game", "babel", "--lang", "he", "--out", str(tmp_path / "he"), "-q", root=root)
    told = [line for line in result.stderr.splitlines() if "past the piece's" in line]
    assert result.exit_code == 0 and told and all("past the piece's right edge" in line for line in told), told
    result = run("build", "--game", "babel", "--out", str(tmp_path / "en"), "-q", root=root)
    told = [line for line in result.stderr.splitlines() if "past the piece's" in line]
    assert told and all("past the piece's left edge" in line for line in told), told
