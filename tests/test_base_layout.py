"""Nothing hidden in the base layouts: every element of pnp's own layouts is documented in
docs/format.md with its look, the starter layout says how to replace or remove it, and doing
what the docs say changes the printed card."""

from __future__ import annotations

import re

import pypdfium2
import pytest
import yaml

from conftest import REPO, run

FORMAT = (REPO / "docs/format.md").read_text()


def base_section() -> str:
    start = FORMAT.index("### The base layout")
    return FORMAT[start:FORMAT.index("\n### ", start + 1)]


def base_elements() -> list[tuple[str, dict]]:
    found = []
    for path in sorted((REPO / "pnp/bundled/layouts/base").glob("*.yaml")):
        for element in yaml.safe_load(path.read_text())["elements"]:
            found.append((path.stem, element))
    return found


def test_every_base_element_has_an_id_and_a_row_saying_what_it_draws():
    section = base_section()
    elements = base_elements()
    assert elements
    for layout, element in elements:
        assert element.get("id"), (layout, element)   # an id is what lets a layout replace it
        row = next((line for line in section.splitlines() if line.startswith(f"| `{element['id']}` |")), None)
        assert row is not None, f"docs/format.md does not describe {layout}'s '{element['id']}'"
        for key in ("fill", "stroke"):
            if element.get(key, "none") != "none":
                assert element[key] in row, (element["id"], key, element[key], row)
        assert "remove" in section and f"id: {element['id']}" in row


@pytest.mark.parametrize("from_sheet", [False, True])
def test_the_starter_layout_names_each_base_element_and_how_to_remove_it(tmp_path, from_sheet):
    sheet = tmp_path / "crew.csv"
    sheet.write_text("name,power\nAda,3\n")
    extra = ["--data", str(sheet)] if from_sheet else []
    result = run("new", "demo", "--title", "Demo", *extra, root=tmp_path)
    assert result.exit_code == 0, result.output
    card = (tmp_path / "layouts/demo/card.yaml").read_text()
    comments = "\n".join(line for line in card.splitlines() if line.lstrip().startswith("#"))
    for _, element in base_elements():
        assert re.search(rf"#\s+{element['id']}:", comments), element["id"]
    assert "{kind: box, id: panel}" in comments


def test_replacing_the_panel_with_an_empty_box_as_the_docs_say_removes_the_cream(tmp_path):
    assert run("new", "demo", "--title", "Demo", root=tmp_path).exit_code == 0
    assert run("build", "--game", "demo", "--out", str(tmp_path / "with"), root=tmp_path).exit_code == 0
    card = tmp_path / "layouts/demo/card.yaml"
    card.write_text(card.read_text().replace("\nelements:\n", "\nelements:\n  - {kind: box, id: panel}\n", 1))
    assert run("build", "--game", "demo", "--out", str(tmp_path / "without"), root=tmp_path).exit_code == 0
    cream = (0xfb, 0xf8, 0xef)

    def count_cream(out) -> int:
        document = pypdfium2.PdfDocument(str(out / "demo/cards-letter.pdf"))
        image = document[0].render(scale=50 / 72).to_pil().convert("RGB")
        document.close()
        return sum(1 for pixel in image.getdata() if all(abs(a - b) <= 3 for a, b in zip(pixel, cream)))

    with_panel, without_panel = count_cream(tmp_path / "with"), count_cream(tmp_path / "without")
    # what cream is left is the starter emblem's own diamond
    assert with_panel > 10_000 and without_panel < with_panel / 100, (with_panel, without_panel)


@pytest.mark.parametrize("from_sheet", [False, True])
def test_a_long_card_name_stays_on_the_starters_panel_clear_of_its_emblem(tmp_path, from_sheet):
    """The plain starter's title ran across the whole card: a long name went over the dark
    border, near the cut, and under the emblem."""
    from conftest import pdf, placements, render_png
    name = "Wanderer of the Long Forgotten Ember Road"
    sheet = tmp_path / "crew.csv"
    sheet.write_text(f"name,power,text\n{name},3,Walks.\n")
    extra = ["--data", str(sheet)] if from_sheet else []
    assert run("new", "demo", "--title", "Demo", *extra, root=tmp_path).exit_code == 0
    if not from_sheet:
        cards = tmp_path / "card_data/demo/cards.yaml"
        cards.write_text(cards.read_text().replace("name: Scout", f"name: {name}"))
    built = run("build", "--game", "demo", "--out", str(tmp_path / "out"), root=tmp_path)
    assert built.exit_code == 0 and "does not fit" not in built.stderr, built.stderr
    path = tmp_path / "out/demo/cards-letter.pdf"
    scale = 4
    image = render_png(path, 0, scale).convert("RGB")
    mm = 72 / 25.4 * scale
    left, bottom, width, height = placements(pdf(path).pages[0])[0]
    page_height = image.height / scale
    top = (page_height - (bottom + height)) * scale   # the card's top edge, in pixels

    def title_ink(x_from: float, x_to: float) -> int:
        """Pixels of the title's colour (#1b1b1b) in the band the title sits in, between two
        distances from the card's left edge (mm)."""
        found = 0
        for y in range(int(top + 8 * mm), int(top + 20 * mm)):
            for x in range(int(left * scale + x_from * mm), int(left * scale + x_to * mm)):
                r, g, b = image.getpixel((x, y))
                found += max(abs(r - 0x1b), abs(g - 0x1b), abs(b - 0x1b)) < 24
        return found
    # the title's box: beside the plain starter's emblem (5.5 to 12.5 mm), or the sheet
    # starter's panel inset by 6 mm (it has no emblem)
    start, end = (6.0, 57.5) if from_sheet else (13.5, 50.0)
    assert title_ink(start, end) > 50                                   # the title is drawn ...
    assert title_ink(0.3, start - 0.2) == 0 and title_ink(end + 0.2, 63.2) == 0   # ... only in its box
