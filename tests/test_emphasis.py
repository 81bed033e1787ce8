"""**bold**, *italic* and ***bold italic*** print in the family's own faces, on cards and rule
sheets; marks that cross are a data error found by validate, naming the card."""

from __future__ import annotations

from conftest import build, pdf, run


def runs_by_font(path, page: int = 0) -> dict[str, str]:
    """The text drawn on a page, joined per font (the font's base name without subset tag)."""
    found: dict[str, list[str]] = {}

    def visit(text, _cm, _tm, font, _size):
        if font is not None and text.strip():
            name = str(font["/BaseFont"]).split("+")[-1]
            found.setdefault(name, []).append(text)

    reader = pdf(path)
    page_ = reader.pages[page]
    page_.extract_text(visitor_text=visit)
    for _, xobject in (page_["/Resources"].get("/XObject") or {}).items():
        form = xobject.get_object()
        if form.get("/Subtype") == "/Form":
            import pypdf
            wrapper = pypdf.PageObject(pdf=reader)
            wrapper[pypdf.generic.NameObject("/Resources")] = form.get("/Resources", {})
            wrapper.replace_contents(pypdf.generic.ContentStream(form, reader))
            wrapper.extract_text(visitor_text=visit)
    return {font: " ".join(parts) for font, parts in found.items()}


def test_emphasis_on_cards_uses_the_bold_italic_and_bold_italic_faces(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.",
                                               'text: "Moves **far** and *fast* or ***both***."'))
    build(mini, "mini", tmp_path)
    runs = runs_by_font(tmp_path / "mini/cards-a4.pdf")
    assert "far" in runs.get("Lato-Bold", ""), runs
    assert "fast" in runs.get("Lato-Italic", ""), runs
    assert "both" in runs.get("Lato-BoldItalic", ""), runs
    assert "Moves" in runs.get("Lato-Regular", ""), runs
    assert "**" not in str(runs) and "*" not in str(runs)


def test_emphasis_on_rule_sheets_uses_the_families_faces(mini, tmp_path):
    (mini / "card_data/mini/rules.md").write_text("# Rules\n\nPlay **boldly**, *quietly* or ***both***.\n")
    build(mini, "mini", tmp_path)
    runs = runs_by_font(tmp_path / "mini/rules-a4.pdf")
    assert "boldly" in runs.get("Lato-Bold", ""), runs
    assert "quietly" in runs.get("Lato-Italic", ""), runs
    assert "both" in runs.get("Lato-BoldItalic", ""), runs


def test_marks_that_cross_are_found_by_validate_with_the_card(mini):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.", 'text: "Moves **in *an** L*."'))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert "cards.yaml:8:" in result.stderr and "Knight" in result.stderr and "cross" in result.stderr
    assert "card.yaml:" in result.stderr   # and the layout line that draws it
