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
    assert "warning: card 'Knight', text: no font in fonts.yaml (nor the fallbacks of 'text') has " \
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
    assert "warning: card 'Knight': text 'A very long rule. A very long rule. A...' does not fit its box " \
           "even at 5 pt (" in result.stderr
    assert "layouts/mini/card.yaml:" in result.stderr


def test_a_word_too_long_for_its_box_is_shrunk_or_named(mini, tmp_path):
    set_text(mini, "Supercalifragilisticexpialidocious" * 3)
    result = build(mini, tmp_path)
    assert "does not fit its box" in result.stderr
