"""Jukem: the designed 56-card deck, read back from the PDF, and its rule checks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from conftest import MM, REPO, build, pdf, placements, render_png, run
from pnp.config.deck import load_deck
from pnp.contents.named import touchdown_drives

SHADES = {"black": (0x1C, 0x1C, 0x1C), "yellow": (0xF6, 0xC6, 0x00), "red": (0xC6, 0x28, 0x28)}


@pytest.fixture(scope="module")
def deck_pdf(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("jukem")
    build(REPO, "jukem", out)
    return out / "jukem" / "cards-letter.pdf"


def fronts(reader):
    return [page for i, page in enumerate(reader.pages) if i % 2 == 0]


def test_56_fronts_each_with_a_back(deck_pdf):
    reader = pdf(deck_pdf)
    assert len(reader.pages) == 14          # 7 sheets of 9 (the last has 2), each with backs
    assert sum(len(placements(p)) for p in fronts(reader)) == 56
    for i in range(0, 14, 2):
        assert len(placements(reader.pages[i])) == len(placements(reader.pages[i + 1]))
        assert "JUKEM" in reader.pages[i + 1].extract_text()


def test_card_names_and_yards_are_printed(deck_pdf):
    text = "\n".join(p.extract_text() for p in fronts(pdf(deck_pdf)))
    titles = Counter(line.strip() for line in text.splitlines())
    assert titles["RUN"] == 16 and titles["PASS"] == 7 and titles["CATCH"] == 11
    assert titles["KICK RETURN"] == 1 and titles["FIELD GOAL"] == 4
    assert titles["HOLDING!"] + titles["SACK!"] == 6
    assert titles["FUMBLE!"] + titles["PICKED OFF!"] == 6
    assert "5–20" in text and "35" in text and "50" in text


def test_card_colours_follow_their_type(deck_pdf):
    """Sample each card's background just inside its trim and compare with its type's colour."""
    reader = pdf(deck_pdf)
    deck = load_deck(REPO / "card_data/jukem/cards.yaml").expanded()
    index = 0
    for page_number in range(0, len(reader.pages), 2):
        image = render_png(deck_pdf, page_number)
        for x, y, w, h in placements(reader.pages[page_number]):
            probe = (int(x + 1.5 * MM), int(792 - (y + h / 2)))
            colour = image.getpixel(probe)[:3]
            wanted = SHADES[deck[index]["colour"]]
            assert all(abs(a - b) <= 3 for a, b in zip(colour, wanted)), (deck[index].label, colour)
            index += 1
    assert index == 56


def test_the_deck_makes_100_yards_in_many_ways():
    deck = load_deck(REPO / "card_data/jukem/cards.yaml")
    assert touchdown_drives(deck, max_plays=3) >= 5
    assert touchdown_drives(deck, max_plays=6) >= 100


def cards_file(root: Path) -> Path:
    return root / "card_data/jukem/cards.yaml"


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def validate(root):
    result = run("validate", "--game", "jukem", root=root)
    assert result.exit_code == 1
    return result.stderr


def test_57_cards_is_caught(root):
    replace(cards_file(root), "yards: 30, count: 1,", "yards: 30, count: 2,")
    assert 'game.yaml:30: contents[1]: deck "cards": the deck has 57 cards; the rules, "WHAT\'S IN THE BOX", state 56' \
        in validate(root)


def test_a_catch_outside_every_pass_range_is_caught(root):
    replace(cards_file(root), "side: offense, yards: 50,\n     text: \"Only on a PASS",
            "side: offense, yards: 55,\n     text: \"Only on a PASS")
    assert "CATCH 55 fits no PASS range (5-20, 15-30, 20-40, 30-50)" in validate(root)


def test_a_pass_range_no_catch_fits_is_caught(root):
    replace(cards_file(root), "low: 30, high: 50, count: 1", "low: 60, high: 70, count: 1")
    assert "PASS 60-70 takes no CATCH in the deck" in validate(root)


def test_two_kick_returns_are_caught(root):
    replace(cards_file(root), "title: KICK RETURN, colour: black, side: offense, yards: 50,",
            "title: KICK RETURN, colour: black, side: offense, yards: 50, count: 2,")
    errors = validate(root)
    assert "KICK RETURN: the deck has 2 cards; the rules, \"Kick Return\", state exactly 1" in errors


def test_no_red_card_is_caught(root):
    replace(cards_file(root), "colour: red, side: defense, bonus: TURNOVER, count: 3",
            "colour: yellow, side: defense, bonus: TURNOVER, count: 3")
    replace(cards_file(root), "colour: red, side: defense, bonus: TURNOVER, count: 3",
            "colour: yellow, side: defense, bonus: TURNOVER, count: 3")
    errors = validate(root)
    assert "red defensive cards: the deck has 0 cards; the rules, \"PRACTICE GAME removes one red card\", " \
           "need at least 2" in errors
    assert "card 'FUMBLE!' (fumble) has colour 'yellow'; the rules, \"ABOUT THE CARDS\", make every " \
           "fumble card red" in errors


def test_yards_that_cannot_make_100_are_caught(root):
    # Every run and catch worth 7 yards: no drive adds up to exactly 100 in six plays.
    text = cards_file(root).read_text()
    for yards in (5, 10, 15, 20, 25, 30, 35, 40):
        text = text.replace(f"offense, yards: {yards},", "offense, yards: 7,")
    cards_file(root).write_text(text.replace("offense, yards: 50,\n     text: \"Only on a PASS",
                                             "offense, yards: 7,\n     text: \"Only on a PASS"))
    assert "drives of at most 6 RUN or PASS/CATCH plays total exactly 100 yards" in validate(root)


def test_rule_sheet_covers_every_section_and_the_deck_table(deck_pdf):
    rules = deck_pdf.parent / "rules-letter.pdf"
    text = "\n".join(p.extract_text() for p in pdf(rules).pages)
    for heading in ("Object", "The cards", "Practice game", "Setting up", "Your turn",
                    "Offensive plays", "Run", "Pass and catch", "Kick return", "Jukem",
                    "Pancake block!", "Field goal", "Scoring a touchdown", "Defensive plays",
                    "Halftime", "How to win", "The deck"):
        assert heading in text, heading
    assert "PICKED OFF!" in text and "KICK RETURN" in text
