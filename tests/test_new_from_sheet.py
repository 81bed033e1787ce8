"""`pnp new NAME --data FILE`: a game started from the designer's own spreadsheet builds at
once, with fields typed from the columns and a front that shows every column."""

from __future__ import annotations

import pytest

from conftest import pdf, run

CREW = ("name,power,speed,role,count,text\n"
        "Ada,3,1.5,captain,2,Leads from the front.\n"
        "Bo,1,2,crew,3,\"Sees far, runs fast.\"\n"
        "Cy,2,1,crew,1,Fixes things.\n")


def started(tmp_path, game: str, file: str, sheet: str):
    """A project with `game` started from a sheet of its own (`pnp new --data`): (the project's
    folder, the sheet)."""
    source = tmp_path / file
    source.write_text(sheet)
    project = tmp_path / "project"
    project.mkdir()
    made = run("new", game, "--data", str(source), root=project)
    assert made.exit_code == 0, made.stderr
    return project, source


def printed_text(path) -> str:
    """A PDF's text, every run of spaces and line ends one space."""
    return " ".join(" ".join(page.extract_text() for page in pdf(path).pages).split())


def xlsx(path, rows) -> None:
    from openpyxl import Workbook
    book = Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_game_from_a_sheet_builds_with_every_column_on_the_cards(tmp_path, kind):
    source = tmp_path / f"crew.{kind}"
    if kind == "csv":
        source.write_text(CREW)
    else:
        xlsx(source, [line.split(",") if '"' not in line else
                      ["Bo", 1, 2, "crew", 3, "Sees far, runs fast."] for line in CREW.splitlines()])
    project = tmp_path / "project"
    project.mkdir()
    made = run("new", "crew", "--data", str(source), root=project)
    assert made.exit_code == 0, made.stderr
    assert f"the deck reads {project / 'card_data/crew' / source.name}, a copy of {source}: edit that copy" \
        in made.output, made.output
    fields = (project / f"card_data/crew/crew.fields.yaml").read_text()
    assert '"power": {type: whole}' in fields and '"speed": {type: number}' in fields
    assert (project / f"card_data/crew/crew.{kind}").read_bytes() == source.read_bytes()
    assert run("validate", "--game", "crew", root=project).exit_code == 0
    built = run("build", "--game", "crew", "--out", str(tmp_path / "out"), root=project)
    assert built.exit_code == 0, built.stderr
    text = printed_text(tmp_path / "out/crew/cards-letter.pdf")
    for value in ("Ada", "power: 3", "speed: 1.5", "role: captain", "Leads from the front.", "Sees far, runs fast."):
        assert value in text, value
    assert text.count("Ada") == 2 and text.count("Bo") >= 3   # the count column: copies


def test_headings_with_braces_or_colons_print_as_written_on_a_starter_that_builds(tmp_path):
    """A heading `{fact:x}` went into the starter's layout with its braces doubled, and was
    still read as a fact; `Go:set:go` was read as an icon: starters that did not build."""
    project, _ = started(tmp_path, "sh", "h.csv", "name,{fact:x},{title:y},Go:set:go,Power\nA,b,c,f,1\nB,d,e,g,2\n")
    built = run("build", "--game", "sh", "--out", str(tmp_path / "out"), root=project)
    assert built.exit_code == 0, built.stderr
    text = printed_text(tmp_path / "out/sh/cards-letter.pdf")
    assert "{fact:x}: b" in text and "{title:y}: c" in text and "Go:set:go: f" in text, text


@pytest.mark.parametrize("name, content, message", [
    ("crew.csv", None, "no file"),
    ("crew.txt", "a,b\n1,2\n", "is not a spreadsheet pnp reads"),
    ("crew.csv", "name,power\n", "has no cards"),
    ("a#b.csv", "name,power\nAda,3\n", "a # in a data file's name reads as picking a workbook's sheet"),
])
def test_a_sheet_pnp_cannot_start_from_is_one_clear_error(tmp_path, name, content, message):
    source = tmp_path / name
    if content is not None:
        source.write_text(content)
    result = run("new", "crew", "--data", str(source), root=tmp_path)
    assert result.exit_code == 1 and message in result.stderr, result.stderr
    assert not (tmp_path / "card_data/crew").exists()


def test_a_long_text_column_gets_room_for_its_lines_at_full_size(tmp_path):
    """A sentence column is given the lines it needs at 10 pt, below the short columns, where
    a box for one line shrank it to the 5 pt floor."""
    import yaml
    sentence = ("Leads from the front. When Ada attacks, every crew card beside her gains 1 power "
                "until the end of the round, and you may draw a card.")
    project, source = started(tmp_path, "crew", "crew.csv",
                              f'name,power,speed,role,count,text\nAda,3,1.5,captain,1,"{sentence}"\n'
                              "Bo,1,2,crew,1,Sees far.\n")
    boxes = [e for e in yaml.safe_load((project / "layouts/crew/card.yaml").read_text())["elements"]
             if e.get("kind") == "text" and "**" in e["text"]]
    mm = [(float(e["y"][:-2]), float(e["h"][:-2])) for e in boxes]
    assert all(top + height <= following + 1e-6 for (top, height), (following, _) in zip(mm, mm[1:]))   # no overlap
    assert mm[-1][0] + mm[-1][1] <= 84.0 + 1e-6   # above the panel's bottom edge
    built = run("build", "--game", "crew", "--out", str(tmp_path / "out"), root=project)
    assert built.exit_code == 0 and "does not fit" not in built.stderr, built.stderr
    sizes = {}
    page = pdf(tmp_path / "out/crew/cards-letter.pdf").pages[0]
    page.extract_text(visitor_text=lambda text, cm, tm, font, size: sizes.update(
        {word: size * tm[3] for word in text.split()}))
    assert sizes.get("Leads", 0) >= 9.5, sizes.get("Leads")   # set at 10 pt, not shrunk to fit


def test_a_row_without_the_cards_name_is_an_error_at_its_row(tmp_path):
    """The label names each card in every message and heads the card: the starter makes it
    required, where a blank name built a card with no title, silently."""
    import re
    project, source = started(tmp_path, "crew", "crew.csv", "name,power,text\nAda,3,Leads.\n,2,No name here.\n")
    assert '"name": {type: text, required: true}' in (project / "card_data/crew/crew.fields.yaml").read_text()
    result = run("validate", "--game", "crew", root=project)
    assert result.exit_code == 1
    assert re.search(r"error: \S*card_data/crew/crew\.csv, row 3: missing required field 'name'", result.stderr), \
        result.stderr


def test_a_rules_table_with_a_word_wider_than_its_column_keeps_to_its_column(tmp_path):
    """A German compound in a card's text made the rule sheet's card table wider than its
    column: it ran into the next column and off the page's margin. The widest columns now
    give way and the long word is broken."""
    from conftest import render_png
    word = "Kartenstapelmischvorgangsbeschreibung"
    project, source = started(tmp_path, "crew", "crew.csv", "name,cost,kind,rules,count\n" + "".join(
        f"Deckhand {n},1,Mannschaft,Ziehe eine Karte und lies den langen {word} und {word}.,1\n" for n in range(12)))
    built = run("build", "--game", "crew", "--out", str(tmp_path / "out"), root=project)
    assert built.exit_code == 0, built.stderr
    scale = 2
    image = render_png(tmp_path / "out/crew/rules-letter.pdf", 0, scale).convert("RGB")
    mm = 72 / 25.4 * scale
    middle = image.width / 2
    gutter = range(int(middle - 2.5 * mm), int(middle + 2.5 * mm))   # the 6 mm between the columns
    below_banner = range(int(40 * mm), int(image.height - 20 * mm))
    inked = [(x, y) for y in below_banner[::3] for x in gutter if min(image.getpixel((x, y))) < 200]
    assert not inked, inked[:5]
    right_margin = range(int(image.width - 13 * mm), image.width)
    assert not [x for y in below_banner[::3] for x in right_margin if min(image.getpixel((x, y))) < 200]


def test_pnp_diff_names_a_sheet_cards_row(tmp_path):
    """A changed card of a spreadsheet deck is shown at its row, as every message names it;
    the diff gave the file alone."""
    project, source = started(tmp_path, "crew", "crew.csv", "name,power,count\nAda,3,1\nBo,1,2\n")
    out = tmp_path / "out"
    assert run("build", "--game", "crew", "--out", str(out), "-q", root=project).exit_code == 0
    sheet = project / "card_data/crew/crew.csv"
    sheet.write_text(sheet.read_text().replace("Bo,1,2", "Bo,4,2"))
    told = run("diff", "--game", "crew", "--out", str(out), root=project).output
    assert "Bo  (card_data/crew/crew.csv, row 3)" in told and "power: 1 -> 4" in told, told


def test_the_starters_rule_sheet_names_the_columns_its_table_shows(tmp_path):
    """It said "by role, speed, cost, rules" over a table of name, role, speed, cost and count."""
    import re
    import yaml
    project, source = started(tmp_path, "crew", "crew.csv", CREW)
    game = yaml.safe_load((project / "card_data/crew/game.yaml").read_text())
    rules = next(c for c in game["components"] if c.get("kind") == "rules")
    columns = rules["tables"]["card-list"]["columns"]
    said = re.search(r"with its (.+) and how many there are", (project / "card_data/crew/rules.md").read_text())
    assert said and said.group(1).replace(" and ", ", ").split(", ") == [c for c in columns if c not in ("name", "count")]


def test_headings_that_are_not_field_names_reach_the_cards_under_names_made_from_them(tmp_path):
    project, source = started(tmp_path, "crew", "crew.csv", "Card Name,Power Level,Coût,{x},€,count,Flavour Text\n"
                      "Ada,3,2,a,gold,1,Leads from the front.\n"
                      "Bo,1,4,b,tin,2,Sees far.\n")
    fields = (project / "card_data/crew/crew.fields.yaml").read_text()
    assert 'label: "card_name"' in fields
    assert '"power_level": {type: whole, column: "Power Level"}' in fields
    assert '"cout": {type: whole, column: "Coût"}' in fields
    assert '"x": {type: text, column: "{x}"}' in fields
    assert '"column_e": {type: text, column: "€"}' in fields   # no letter to name it by: its column's
    built = run("build", "--game", "crew", "--out", str(tmp_path / "out"), root=project)
    assert built.exit_code == 0, built.stderr
    text = printed_text(tmp_path / "out/crew/cards-letter.pdf")
    # each card's title is its name, and every other column prints under its own heading
    for value in ("Ada", "Power Level: 3", "Coût: 2", "{x}: a", "€: gold", "Flavour Text: Leads from the front.",
                  "Power Level: 1", "Flavour Text: Sees far."):
        assert value in text, value
    assert text.count("Bo") == 2
    rules = " ".join(pdf(tmp_path / "out/crew/rules-letter.pdf").pages[0].extract_text().split())
    assert "with its Power Level, Coût, x and how many" in rules or "Power Level, Coût," in rules, rules
    assert "Card Name Power Level Coût {x} Copies" in rules, rules   # the table's headings are the sheet's
    # without the fields file the same names are made from the headings, so the layout still reads them
    (project / "card_data/crew/crew.fields.yaml").unlink()
    again = run("build", "--game", "crew", "--out", str(tmp_path / "again"), root=project)
    assert again.exit_code == 0, again.stderr
    text = printed_text(tmp_path / "again/crew/cards-letter.pdf")
    assert "Ada Power Level: 3 Coût: 2" in text, text


def test_a_fields_file_column_reads_a_heading_and_a_bad_one_is_told_at_its_line(tmp_path):
    project, _ = started(tmp_path, "crew", "crew.csv", "name,power\nAda,3\n")
    folder = project / "card_data/crew"
    (folder / "crew.csv").write_text("name,Power Level\nAda,3\n")
    fields = folder / "crew.fields.yaml"
    fields.write_text(fields.read_text().replace('"power": {type: whole}',
                                                 '"power": {type: whole, column: "Power Lvl"}'))
    wrong = run("validate", "--game", "crew", root=project)
    assert wrong.exit_code == 1
    assert "crew.csv, row 1, column B (Power Level): unknown column 'Power Level'" in wrong.stderr, wrong.stderr
    assert "did you mean 'Power Lvl'" in wrong.stderr
    fields.write_text(fields.read_text().replace('"Power Lvl"', '"Power Level"'))
    assert run("validate", "--game", "crew", root=project).exit_code == 0
    fields.write_text(fields.read_text().replace('"name": {type: text', '"name": {type: text, column: "Power Level"'))
    twice = run("validate", "--game", "crew", root=project)
    assert twice.exit_code == 1 and "crew.fields.yaml:4: fields.power.column:" in twice.stderr, twice.stderr
    assert "fields 'name' and 'power' both read the column headed 'Power Level'" in twice.stderr


def test_a_yaml_deck_field_with_a_column_is_told_at_its_line(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    assert run("new", "crew", root=project).exit_code == 0
    cards = project / "card_data/crew/cards.yaml"
    lines = cards.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("power:") and "type" in line)
    lines[at] = lines[at].replace("type:", 'column: "Power Level", type:')
    cards.write_text("\n".join(lines) + "\n")
    result = run("validate", "--game", "crew", root=project)
    assert result.exit_code == 1 and f"cards.yaml:{at + 1}:" in result.stderr, result.stderr
    assert "names a spreadsheet's heading" in result.stderr and "Traceback" not in result.stderr


def test_a_qty_column_gives_the_copies_and_a_layout_may_print_them(tmp_path):
    project, source = started(tmp_path, "market", "market.csv",
                              "Card Name,Qty,Flavour Text,Note\nAda,2,Brave.,\nBo,3,Quick.,Fast\n")
    folder = project / "card_data/market"
    fields = (folder / "market.fields.yaml").read_text()
    assert 'copies: "Qty"' in fields and "Qty\", " not in fields.split("fields:")[1]   # not a field of its own
    assert "equals: 5" in (folder / "game.yaml").read_text()
    layout = project / "layouts/market/card.yaml"
    layout.write_text(layout.read_text().replace('text: "{card_name}"', 'text: "{card_name} x{count}"'))
    built = run("build", "--game", "market", "--out", str(tmp_path / "out"), root=project)
    assert built.exit_code == 0, built.stderr
    text = printed_text(tmp_path / "out/market/cards-letter.pdf")
    assert text.count("Ada x2") == 2 and text.count("Bo x3") == 3, text
    assert text.count("Note:") == 3   # a column some cards leave blank is left off theirs, heading and all
    # the same with a fields file that names no copies column, and with none: Qty is still the copies
    fields_path = folder / "market.fields.yaml"
    fields_path.write_text(fields_path.read_text().replace('copies: "Qty"', ""))
    named = run("build", "--game", "market", "--out", str(tmp_path / "named"), root=project)
    assert named.exit_code == 0, named.stderr
    text = printed_text(tmp_path / "named/market/cards-letter.pdf")
    assert text.count("Bo x3") == 3, text
    fields_path.unlink()
    again = run("build", "--game", "market", "--out", str(tmp_path / "again"), root=project)
    assert again.exit_code == 0, again.stderr
    text = printed_text(tmp_path / "again/market/cards-letter.pdf")
    assert text.count("Bo x3") == 3, text


def test_a_field_the_sheet_has_no_column_for_is_told(tmp_path):
    project, source = started(tmp_path, "crew", "crew.csv", "name,power,attack\nAda,3,1\n")
    folder = project / "card_data/crew"
    (folder / "crew.csv").write_text("name,power\nAda,3\n")   # the attack column deleted
    result = run("build", "--game", "crew", "--out", str(tmp_path / "out"), root=project)
    assert result.exit_code == 0, result.stderr
    assert ("crew.fields.yaml:5: fields.attack: the sheet has no column headed 'attack': the field is blank on "
            "every card") in result.stderr, result.stderr
    fields = folder / "crew.fields.yaml"
    fields.write_text(fields.read_text().replace('"attack": {type: whole}', '"attack": {type: whole, default: 0}'))
    quiet = run("build", "--game", "crew", "--out", str(tmp_path / "out"), root=project)
    assert quiet.exit_code == 0 and "no column" not in quiet.stderr, quiet.stderr
    fields.write_text(fields.read_text().replace('label: "name"', 'label: "name"\ncopies: "Qty"'))
    wrong = run("validate", "--game", "crew", root=project)
    assert wrong.exit_code == 1, wrong.stderr
    assert "crew.fields.yaml:2: copies: the sheet has no column headed 'Qty'" in wrong.stderr, wrong.stderr
    fields.write_text(fields.read_text().replace('copies: "Qty"', "")
                      .replace("fields:\n", "fields:\n  count: {type: whole}\n"))
    builtin = run("validate", "--game", "crew", root=project)
    assert builtin.exit_code == 1 and "'count' is built in" in builtin.stderr and "copies: Qty" in builtin.stderr


@pytest.mark.parametrize("sheet, fields, told", [
    ("name,power,name\nAda,3,Bo\n", None, "crew.csv, row 1, column C (name): columns A and C are both headed 'name'"),
    ("name,power,Type\nAda,3,hero\n", '  "kind": {type: text, column: " Type "}\n', None),   # read as the heading is
    ("name,power,Qty\nAda,3,2\n", '  "Qty": {type: whole}\n', None),   # a field of its own, as a fields file says
    ("name,power\nAda,3\n", "copies: count\n", None),   # the copies column said outright, though the sheet has none
    ("name,power,count\nAda,3,2\n", '  "copies": {type: whole, column: "count"}\n',
     "crew.fields.yaml:5: fields.copies.column: the column headed 'count' gives each card's copies"),
])
def test_a_sheets_headings_and_the_columns_fields_read(tmp_path, sheet, fields, told):
    project, _ = started(tmp_path, "crew", "crew.csv", "name,power\nAda,3\n")
    folder = project / "card_data/crew"
    (folder / "crew.csv").write_text(sheet)
    if fields:
        path = folder / "crew.fields.yaml"
        path.write_text(path.read_text() + fields)
    result = run("validate", "--game", "crew", root=project)
    if told is None:
        assert result.exit_code == 0, result.stderr
    else:
        assert result.exit_code == 1 and told in result.stderr, result.stderr


def test_a_workbooks_sheet_is_picked_with_a_hash_and_an_empty_first_sheet_names_the_others(tmp_path):
    from openpyxl import Workbook
    book = Workbook()
    book.active.title = "Notes"
    book.active.append(["Balance ideas"])
    crew = book.create_sheet("Crew")
    for row in (["name", "power", "count"], ["Ada", 3, 2], ["Bo", 1, 1]):
        crew.append(row)
    source = tmp_path / "my#designs/crew.xlsx"   # a # in a folder's name is the folder's
    source.parent.mkdir()
    book.save(source)
    project = tmp_path / "project"
    project.mkdir()
    first = run("new", "crew", "--data", str(source), root=project)
    assert first.exit_code == 1 and "crew.xlsx has no cards in its sheet Notes" in first.stderr, first.stderr
    assert f"its other sheets: Crew; pick one with --data '{source}#Crew'" in first.stderr
    assert not (project / "card_data/crew").exists()
    picked = run("new", "crew", "--data", f"{source}#Crew", root=project)
    assert picked.exit_code == 0, picked.stderr
    assert 'data: "crew.xlsx#Crew"' in (project / "card_data/crew/game.yaml").read_text()
    assert (project / "card_data/crew/crew.xlsx").read_bytes() == source.read_bytes()
    built = run("build", "--game", "crew", "--out", str(tmp_path / "out"), root=project)
    assert built.exit_code == 0, built.stderr
    assert len(pdf(tmp_path / "out/crew/cards-letter.pdf").pages) == 2   # 3 cards and their backs: one sheet


def test_columns_some_cards_leave_blank_whatever_they_are_called(tmp_path):
    """`when:` names each field quoted: a "No." column is the field no, which YAML unquoted
    reads as false; a notes column holding "none" tests for being set, with no warning."""
    project, source = started(tmp_path, "odd", "odd.csv", "name,No.,null,On,notes\nAda,1,a,b,none\nBo,,,,\n")
    built = run("build", "--game", "odd", "--out", str(tmp_path / "out"), root=project)
    assert built.exit_code == 0 and "warning" not in built.stderr, built.stderr
    text = printed_text(tmp_path / "out/odd/cards-letter.pdf")
    assert "No.: 1" in text and "notes: none" in text and text.count("No.:") == 1 and text.count("null:") == 1, text
