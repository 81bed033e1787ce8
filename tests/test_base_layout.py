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
