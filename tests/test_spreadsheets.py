"""Card data from spreadsheets (CSV, TSV, XLSX): the same cards as YAML, errors by cell."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import openpyxl
import pytest

from conftest import REPO, build, pdf, run
from pnp.config.deck import load_deck
from pnp.config.sheets import load_sheet_deck
from pnp.errors import PnpError

FIELDS = """label: name
fields:
  name: {type: text, required: true}
  power: {type: whole}
  speed: {type: number}
  brave: {type: flag}
  pips: {type: list, separator: "|"}
"""


@pytest.fixture(autouse=True)
def in_the_sheets_folder(tmp_path, monkeypatch):
    """Messages name a sheet as the user would type it, from the current folder: here, the
    folder the test writes its sheets in."""
    monkeypatch.chdir(tmp_path)


def sheet(tmp_path: Path, name: str, text: str, fields: str | None = FIELDS,
          encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    if fields is not None:
        (tmp_path / (path.stem + ".fields.yaml")).write_text(fields)
    return path


def cards(deck):
    return [(dict(c), n) for c, n in zip(deck.cards, deck.counts)]


def test_csv_gives_typed_cards_with_counts(tmp_path):
    deck = load_sheet_deck(sheet(tmp_path, "crew.csv",
                                 "name,power,speed,brave,pips,count\n"
                                 "Ada,3,1.5,yes,1|2|3,2\n"
                                 "Bo,,2,no,,\n"
                                 "Cy,1,1,no,,0\n"))   # count 0: switched off
    assert cards(deck) == [
        ({"name": "Ada", "power": 3, "speed": 1.5, "brave": True, "pips": [1, 2, 3]}, 2),
        ({"name": "Bo", "power": None, "speed": 2, "brave": False, "pips": None}, 1)]
    assert deck.total == 3
    assert str(deck.cards[1].where) and deck.cards[1].where.file == "crew.csv"
    assert deck.cards[1].where.field == "row 3"


def test_bom_semicolons_quoted_newlines_and_empty_rows(tmp_path):
    text = ('\ufeffname;power;pips\r\n'
            '"Ada; the first";3;"a|b"\r\n'
            ';;\r\n'
            '\r\n'
            '"Bo\nsecond line";4;\r\n')
    deck = load_sheet_deck(sheet(tmp_path, "crew.csv", text))
    assert [c["name"] for c in deck.cards] == ["Ada; the first", "Bo\nsecond line"]
    assert [c["power"] for c in deck.cards] == [3, 4]
    assert deck.cards[0]["pips"] == ["a", "b"]
    assert deck.cards[1].where.field == "row 5"    # rows counted as the spreadsheet shows them


def test_tsv(tmp_path):
    deck = load_sheet_deck(sheet(tmp_path, "crew.tsv", "name\tpower\nAda, Countess\t7\n"))
    assert cards(deck) == [({"name": "Ada, Countess", "power": 7, "speed": None, "brave": None,
                             "pips": None}, 1)]


def test_types_inferred_without_a_fields_file(tmp_path):
    deck = load_sheet_deck(sheet(tmp_path, "crew.csv",
                                 "name,power,speed,note\nAda,3,1.5,x\nBo,4,2,7\n", fields=None))
    assert {n: f.type for n, f in deck.fields.items()} == \
        {"name": "text", "power": "whole", "speed": "number", "note": "text"}
    assert deck.cards[1]["note"] == "7" and deck.cards[1]["speed"] == 2


def test_a_cell_that_would_print_otherwise_as_a_number_makes_its_column_text(tmp_path):
    """A column is numbers only when every cell is one as written; else each cell prints as it
    is written (a code's leading zeros, a price's cents, a sign, other digits)."""
    deck = load_sheet_deck(sheet(tmp_path, "crew.csv",
                                 "name,code,price,bonus,big,arabic,odd,hot,yes\n"
                                 "Ada,007,2.50,+2,1e3,١٢,infinity,true,Yes\n"
                                 "Bo,10,3,1,7,3,2,false,no\n", fields=None))
    assert {n: f.type for n, f in deck.fields.items()} == \
        {"name": "text", "code": "text", "price": "text", "bonus": "text", "big": "text",
         "arabic": "text", "odd": "text", "hot": "flag", "yes": "text"}
    assert [deck.cards[0][n] for n in ("code", "price", "bonus", "big", "arabic", "odd", "hot", "yes")] == \
        ["007", "2.50", "+2", "1e3", "١٢", "infinity", True, "Yes"]   # yes/no: a quiz card's words, as written
    assert (deck.cards[1]["code"], deck.cards[1]["hot"], deck.cards[1]["yes"]) == ("10", False, "no")


def mini_from_csv(mini: Path, rows: str) -> Path:
    """The mini game with its cards in a CSV of `rows` (under a header) and no fields file;
    its front layout, to add to."""
    folder = mini / "card_data/mini"
    (folder / "cards.yaml").unlink()
    (folder / "cards.csv").write_text(rows)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("data: cards.yaml", "data: cards.csv"))
    return mini / "layouts/mini/card.yaml"


def test_a_csv_flag_column_chooses_what_prints(mini, tmp_path):
    """`when: hot` on a CSV column of true and false: only the true cards print it."""
    layout = mini_from_csv(mini, "name,power,count,hot,code,colour,text\n"
                                 "Knight,3,4,true,007,#224466,Moves.\nBishop,2,2,false,010,#224466,Slides.\n")
    layout.write_text(layout.read_text() + "  - {kind: text, text: HOT, size: 8, when: hot, y: 58.5mm, h: 4.5mm}\n"
                      "  - {kind: text, text: \"No. {code}\", size: 7, y: 35.5mm, h: 4mm}\n")
    result = build(mini, "mini", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    text = "".join(page.extract_text() for page in pdf(tmp_path / "out/mini/cards-a4.pdf").pages)
    assert text.count("HOT") == 4 and text.count("No. 007") == 4 and text.count("No. 010") == 2


def xlsx(path: Path, rows: list[list], title: str = "Crew", first: str | None = "Notes") -> Path:
    book = openpyxl.Workbook()
    if first:
        book.active.title = first
        book.active.append(["not the cards"])
        ws = book.create_sheet(title)
    else:
        ws = book.active
        ws.title = title
    for row in rows:
        ws.append(row)
    book.save(path)
    return path


def test_xlsx_dates_times_and_true_false_in_text_columns_read_as_the_sheet_shows_them(tmp_path):
    """A timeline's dates and a quiz's TRUE: refused as "expected text, found datetime", even by
    the starter `pnp new --data` made from the same sheet."""
    import datetime
    path = xlsx(tmp_path / "timeline.xlsx", [
        ["name", "when", "answer", "brave"],
        ["Moon landing", datetime.datetime(1969, 7, 20), True, True],
        ["Touchdown", datetime.datetime(1969, 7, 20, 20, 17), False, False],
        ["Noon", datetime.time(12, 0, 30), "Paris", "no"]], first=None)
    (tmp_path / "timeline.fields.yaml").write_text(
        "label: name\nfields:\n  name: {type: text}\n  when: {type: text}\n  answer: {type: text}\n"
        "  brave: {type: flag}\n")
    assert [(c["when"], c["answer"], c["brave"]) for c in load_sheet_deck(path).cards] == [
        ("1969-07-20", "TRUE", True), ("1969-07-20 20:17", "FALSE", False), ("12:00:30", "Paris", False)]
    (tmp_path / "timeline.fields.yaml").write_text(
        "label: name\nfields:\n  name: {type: text}\n  when: {type: number}\n  answer: {type: text}\n"
        "  brave: {type: flag}\n")
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(path)
    assert "row 2, column B (when): expected a number, found \"1969-07-20\"" in str(caught.value), str(caught.value)


def test_pnp_new_from_a_sheet_of_dates_builds(tmp_path, mini):
    import datetime
    xlsx(tmp_path / "timeline.xlsx", [["name", "year", "when"], ["Moon landing", 1969, datetime.date(1969, 7, 20)],
                                      ["Quiz", 2001, True]], first=None)
    made = run("new", "timeline", "--data", str(tmp_path / "timeline.xlsx"), root=mini)
    assert made.exit_code == 0, made.stderr
    result = run("build", "--game", "timeline", "--out", str(tmp_path / "out"), root=mini)
    assert result.exit_code == 0, result.stderr
    assert "1969-07-20" in pdf(tmp_path / "out/timeline/cards-letter.pdf").pages[0].extract_text()


def test_xlsx_picks_a_sheet_and_reads_cached_formula_values(tmp_path, mini):
    folder = mini / "card_data/mini"
    xlsx(folder / "cards.xlsx", [["name", "power", "count", "text"],
                                 ["Knight", 3, 4, "Moves in an L."],
                                 [None, None, None, None],
                                 ["Bishop", 2.0, 2, "Moves along a diagonal."]])
    (folder / "cards.fields.yaml").write_text(
        "label: name\nfields:\n  name: {type: text, required: true}\n  power: {type: whole}\n"
        "  colour: {type: colour, default: \"#224466\"}\n  text: {type: text}\n")
    deck = load_sheet_deck(folder / "cards.xlsx", "Crew")
    yaml_deck = load_deck(folder / "cards.yaml")
    assert cards(deck) == cards(yaml_deck)
    assert deck.cards[1].where.field == "sheet Crew, row 4"
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("data: cards.yaml", "data: cards.xlsx#Crew"))
    assert run("validate", "--game", "mini", root=mini).exit_code == 0
    game.write_text(game.read_text().replace("cards.xlsx#Crew", "cards.xlsx#Crow"))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "no sheet 'Crow'" in result.stderr
    assert "did you mean 'Crew'" in result.stderr
    data_line = next(n for n, line in enumerate(game.read_text().splitlines(), 1) if "cards.xlsx#Crow" in line)
    assert f"game.yaml:{data_line}: " in result.stderr and "cards.xlsx: no sheet 'Crow'" in result.stderr, result.stderr
    (folder / "cards.csv").write_text("name,power\nKnight,3\n")
    game.write_text(game.read_text().replace("cards.xlsx#Crow", "cards.csv#Crew"))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and f"game.yaml:{data_line}: " in result.stderr, result.stderr
    assert "cards.csv: '#Crew' picks a sheet, but a .csv file has only one" in result.stderr


def test_xlsx_formulas_give_their_cached_values(tmp_path):
    path = tmp_path / "cards.xlsx"
    xlsx(path, [["name", "power"], ["Ada", "=1+2"]], first=None)
    # openpyxl writes no cached value; write one in as a spreadsheet program would on saving
    import zipfile
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    name = next(n for n in parts if n.startswith("xl/worksheets/"))
    parts[name] = parts[name].replace(b"<v></v>", b"").replace(b"<f>1+2</f>", b"<f>1+2</f><v>3</v>")
    with zipfile.ZipFile(path, "w") as zf:
        for n, data in parts.items():
            zf.writestr(n, data)
    deck = load_sheet_deck(path, None)
    assert deck.cards[0]["power"] == 3


def test_xlsx_column_types_are_inferred_from_its_cells(tmp_path):
    path = xlsx(tmp_path / "cards.xlsx", [["name", "power", "brave"], ["Ada", 3.0, True],
                                          [7, 4, False]], first=None)
    deck = load_sheet_deck(path, None)
    assert {n: f.type for n, f in deck.fields.items()} == \
        {"name": "text", "power": "whole", "brave": "flag"}
    assert cards(deck) == [({"name": "Ada", "power": 3, "brave": True}, 1),
                           ({"name": "7", "power": 4, "brave": False}, 1)]


def sheet_of(tmp_path: Path, kind: str, rows: list[list[str]]) -> tuple[Path, str | None, str]:
    """The rows written as a CSV, TSV or XLSX sheet (with FIELDS beside it): the path, the
    sheet to pick and how messages name it."""
    if kind == "xlsx":
        path = xlsx(tmp_path / "crew.xlsx", rows, first=None)
        (tmp_path / "crew.fields.yaml").write_text(FIELDS)
        return path, "Crew", "crew.xlsx, sheet Crew, "
    separator = "\t" if kind == "tsv" else ","
    text = "".join(separator.join(row) + "\n" for row in rows)
    return sheet(tmp_path, f"crew.{kind}", text), None, f"crew.{kind}, "


@pytest.mark.parametrize("kind", ["csv", "tsv", "xlsx"])
@pytest.mark.parametrize("column, value, message", [
    ("power", "3a", 'row 2, column B (power): expected a whole number, found "3a"'),
    ("power", "2.5", "row 2, column B (power): expected a whole number, found the number 2.5"),
    ("speed", "fast", 'row 2, column C (speed): expected a number, found "fast"'),
    ("brave", "maybe", 'row 2, column D (brave): expected true, false, yes or no, found "maybe"'),
    ("count", "-1", "row 2, column F (count): count -1 is out of range"),
    ("name", "", "row 2: missing required field 'name'"),
])
def test_a_bad_cell_of_each_type_is_named_by_row_and_column(tmp_path, kind, column, value, message):
    row = {"name": "Ada", "power": "3", "speed": "1", "brave": "yes", "pips": "1", "count": "1"}
    row[column] = value
    path, chosen, prefix = sheet_of(tmp_path, kind, [list(row), list(row.values())])
    with pytest.raises(PnpError) as error:
        load_sheet_deck(path, chosen)
    assert str(error.value).startswith(prefix + message)


@pytest.mark.parametrize("kind", ["csv", "tsv", "xlsx"])
def test_unknown_column_gets_did_you_mean(tmp_path, kind):
    path, chosen, prefix = sheet_of(tmp_path, kind, [["name", "powr"], ["Ada", "3"]])
    with pytest.raises(PnpError) as error:
        load_sheet_deck(path, chosen)
    assert str(error.value) == (prefix + "row 1, column B (powr): unknown column 'powr' "
                                "(did you mean 'power'?)")


def test_every_problem_is_reported_at_once_with_sheet_row_and_column(tmp_path, mini):
    path = xlsx(tmp_path / "cards.xlsx", [["name", "power", "speed", "spede"],
                                          ["Ada", 3, 1, None],
                                          [None, 4, 2, None],
                                          [None, None, None, None],
                                          ["Cy", "3a", "quick", None]])
    (tmp_path / "cards.fields.yaml").write_text(FIELDS)
    with pytest.raises(PnpError) as error:
        load_sheet_deck(path, "Crew")
    text = str(error.value)
    assert text.startswith("4 problems in the sheet:")
    for line in ["cards.xlsx, sheet Crew, row 1, column D (spede): unknown column 'spede' "
                 "(did you mean 'speed'?)",
                 "cards.xlsx, sheet Crew, row 3: missing required field 'name'",
                 'cards.xlsx, sheet Crew, row 5, column B (power): expected a whole number, '
                 'found "3a"',
                 'cards.xlsx, sheet Crew, row 5, column C (speed): expected a number, '
                 'found "quick"']:
        assert "  " + line in text.splitlines()


def test_cli_reports_a_bad_csv_with_exit_1_and_no_traceback(mini):
    folder = mini / "card_data/mini"
    (folder / "cards.csv").write_text("name,power\nKnight,x\n")
    (folder / "cards.fields.yaml").write_text(
        "fields:\n  name: {type: text}\n  power: {type: whole}\n  colour: {type: colour}\n")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("data: cards.yaml", "data: cards.csv"))
    result = run("validate", "--game", "mini", root=mini)
    output = result.output + (result.stderr or "")
    assert result.exit_code == 1 and "Traceback" not in output
    assert 'cards.csv, row 2, column B (power): expected a whole number, found "x"' in output


OFFENSE = REPO / "card_data/big-ten/offense.yaml"


def offense_rows() -> tuple[list[str], list[list]]:
    deck = load_deck(OFFENSE)
    columns = list(deck.fields) + ["count"]
    return columns, [[card[f] for f in deck.fields] + [n] for card, n in zip(deck.cards, deck.counts)]


def fields_yaml() -> str:
    """The offense file's header (label, fields), without its cards."""
    text = OFFENSE.read_text()
    return text[:text.index("\ncards:")] + "\n"


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_big_ten_offense_from_a_sheet_prints_the_same_pages(root, tmp_path, kind):
    build(root, "big-ten", tmp_path / "yaml")
    folder = root / "card_data/big-ten"
    columns, rows = offense_rows()
    if kind == "csv":
        with open(folder / "offense.csv", "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(columns)
            writer.writerows(rows)
        data = "offense.csv"
    else:
        xlsx(folder / "offense.xlsx", [columns] + rows, title="Offense")
        data = "offense.xlsx#Offense"
    (folder / f"offense.fields.yaml").write_text(fields_yaml())
    (folder / "offense.yaml").unlink()
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("data: offense.yaml", f"data: {data}"))
    build(root, "big-ten", tmp_path / kind)
    before = sorted((tmp_path / "yaml/big-ten").glob("offense*.pdf"))
    assert before
    for old in before:
        new = tmp_path / kind / "big-ten" / old.name
        old_pages, new_pages = pdf(old).pages, pdf(new).pages
        assert len(old_pages) == len(new_pages)
        for a, b in zip(old_pages, new_pages):
            assert a.get_contents().get_data() == b.get_contents().get_data()
            assert a.extract_text() == b.extract_text()


def test_the_example_game_keeps_the_offense_deck_in_a_csv_and_prints_the_same_pages(tmp_path):
    """examples/offense-sheet ships the Big Ten offense deck as a CSV beside the bundled YAML:
    validated and built, its pages draw exactly as the bundled game's offense deck."""
    example = REPO / "examples/offense-sheet"
    assert run("validate", "--game", "big-ten-offense", root=example).exit_code == 0
    build(example, "big-ten-offense", tmp_path / "sheet")
    build(REPO, "big-ten", tmp_path / "yaml")
    old_pages = pdf(tmp_path / "yaml/big-ten/offense-letter.pdf").pages
    new_pages = pdf(tmp_path / "sheet/big-ten-offense/offense-letter.pdf").pages
    assert len(old_pages) == len(new_pages) == 14
    for a, b in zip(old_pages, new_pages):
        assert a.get_contents().get_data() == b.get_contents().get_data()
        assert a.extract_text() == b.extract_text()


def test_xlsx_merged_cells_give_each_row_their_value_and_blank_cells_their_default(tmp_path):
    path = xlsx(tmp_path / "cards.xlsx", [["type", "name", "power"],
                                          ["hero", "Ada", 3],
                                          [None, "Bo", None],
                                          [None, "Cy", 5],
                                          ["foe", "Dee", 1]], first=None)
    book = openpyxl.load_workbook(path)
    book.active.merge_cells("A2:A4")      # the type written once beside its three cards
    book.active.merge_cells("B5:C5")      # merged across: the name stays in its own column
    book.save(path)
    (tmp_path / "cards.fields.yaml").write_text(
        "fields:\n  type: {type: text}\n  name: {type: text, required: true}\n"
        "  power: {type: whole, default: 2}\n")
    deck = load_sheet_deck(path, None)
    assert [(c["type"], c["name"], c["power"]) for c in deck.cards] == \
        [("hero", "Ada", 3), ("hero", "Bo", 2), ("hero", "Cy", 5), ("foe", "Dee", 2)]


# --- nothing in a sheet dropped without a word; every size bounded -----------------------------

def rewrite_xlsx(path: Path, change) -> None:
    """Edit the parts of a workbook as another program would have written them."""
    import zipfile
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    change(parts)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for n, data in parts.items():
            zf.writestr(n, data)


def sheet_part(parts: dict) -> str:
    return next(n for n in parts if n.startswith("xl/worksheets/sheet"))


@pytest.mark.parametrize("text, where", [
    ("name,power\nAda,3,a stray value\nBo,4\n", "row 2, column C"),
    ("name,power\nAda,3\nBo,4,,,,Fast\n", "row 3, column F"),
    ("name;power\nAda;3;x\n", "row 2, column C"),
])
def test_a_row_with_more_cells_than_columns_is_an_error_at_the_cell(tmp_path, text, where):
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(sheet(tmp_path, "crew.csv", text))
    assert caught.value.file == "crew.csv" and where in str(caught.value)
    assert "columns" in str(caught.value)


def test_a_quote_never_closed_is_an_error_at_its_row_not_one_card_holding_the_rest(tmp_path):
    for text, row in (('name,power\nAhab,"5\nElodie,2\nZoe,3\n', 2),
                      ('name,power\n"Ahab" the captain,5\nBo,"3\nC,4\nD,5\n', 3),   # after a quote the reader lets by
                      ('name,power\n"Ahab\nthe captain",5\nBo,"3\n', 3),              # a cell over two lines is one row
                      ('name,power\r\nAhab,5\rBo,"3\r\n', 3),                          # line ends of every kind
                      ('name,text\nAhab,"oops\nBo,x\nCy,y\nDi,"z"\n', 2)):            # closed by a later cell's quote
        with pytest.raises(PnpError) as caught:
            load_sheet_deck(sheet(tmp_path, "crew.csv", text))
        assert caught.value.file == "crew.csv" and f"row {row}: a quote" in str(caught.value), str(caught.value)
        assert "never closed" in str(caught.value) or "runs on past the row" in str(caught.value)
    deck = load_sheet_deck(sheet(tmp_path, "crew.csv", 'name,power\n"Ahab, the captain",5\n"Elodie ""E""",2\n'))
    assert [c["name"] for c in deck.cards] == ["Ahab, the captain", 'Elodie "E"']


def test_empty_cells_past_the_last_column_are_no_loss(tmp_path):
    deck = load_sheet_deck(sheet(tmp_path, "crew.csv", "name,power\nAda,3,,\nBo,4, \n"))
    assert [c["name"] for c in deck.cards] == ["Ada", "Bo"]


def test_an_xlsx_formula_without_a_saved_value_is_an_error_at_its_cell(tmp_path):
    """openpyxl (a script) writes formulas without their results: they would print blank."""
    path = xlsx(tmp_path / "cards.xlsx", [["name", "power"], ["Ada", "=1+2"], ["Bo", 4], ["=UPPER(\"cy\")", 5]],
                first=None)
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(path, None)
    message = str(caught.value)
    assert "cards.xlsx, sheet Crew, row 2, column B (power): the formula =1+2 has no saved value" in message, message
    assert "row 4, column A" in message and "2 problems" in message


def test_formulas_without_values_are_told_with_the_sheets_other_problems(tmp_path):
    """One run names every problem: a formula with no saved value beside a bad value, and a
    formula in a required field is that, not also a missing field."""
    path = xlsx(tmp_path / "cards.xlsx", [["name", "power"], ["=UPPER(\"ada\")", 3], ["Bo", "lots"]], first=None)
    (tmp_path / "cards.fields.yaml").write_text(FIELDS)
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(path, None)
    message = str(caught.value)
    assert "2 problems" in message, message
    assert "row 2, column A (name): the formula =UPPER(\"ada\") has no saved value" in message
    assert "row 3, column B (power)" in message and "lots" in message
    assert "missing required field" not in message


def test_the_cli_names_a_formula_without_a_value(mini):
    folder = mini / "card_data/mini"
    xlsx(folder / "cards.xlsx", [["name", "power", "colour", "text", "count"],
                                 ["Knight", "=1+2", "#224466", "L", 4], ["Bishop", 2, "#224466", "D", 2]],
         first=None)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("data: cards.yaml", "data: cards.xlsx"))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "cards.xlsx, sheet Crew, row 2, column B" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def far_cell(parts: dict, ref: str) -> None:
    name = sheet_part(parts)
    parts[name] = parts[name].replace(b"</sheetData>", f'<row r="{ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")}">'
                                      f'<c r="{ref}" t="inlineStr"><is><t>x</t></is></c></row></sheetData>'.encode())


@pytest.mark.parametrize("ref", ["XFD1048576", "A1048576", "XFD3", "EWV4000"])
def test_a_sheet_too_big_to_read_is_refused_at_once(tmp_path, ref):
    """16 million cells from a few bytes: refused from where the values are, before reading."""
    import time
    path = xlsx(tmp_path / "cards.xlsx", [["name", "power"], ["Ada", 3]], first=None)
    rewrite_xlsx(path, lambda parts: far_cell(parts, ref))
    started = time.monotonic()
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(path, None)
    assert time.monotonic() - started < 5
    assert f"values reach cell {ref}" in str(caught.value) and caught.value.file == "cards.xlsx"


def test_a_sheet_whose_dimension_lies_is_read_as_it_is(tmp_path):
    """The `dimension` a file claims is ignored both ways: huge, or smaller than its values."""
    path = xlsx(tmp_path / "cards.xlsx", [["name", "power", "note"], ["Ada", 3, "first"], ["Bo", 4, "second"]],
                first=None)

    def lie(parts):
        name = sheet_part(parts)
        parts[name] = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:B2"/>', parts[name])
    rewrite_xlsx(path, lie)
    deck = load_sheet_deck(path, None)
    assert [c["note"] for c in deck.cards] == ["first", "second"]

    def claim_everything(parts):
        name = sheet_part(parts)
        parts[name] = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1:XFD1048576"/>', parts[name])
    rewrite_xlsx(path, claim_everything)
    assert len(load_sheet_deck(path, None).cards) == 2


def test_a_huge_cell_is_refused_by_its_length(tmp_path):
    path = xlsx(tmp_path / "cards.xlsx", [["name", "power"], ["Ada", 3], ["Bo", 4]], first=None)

    def huge(parts):
        name = sheet_part(parts)
        parts[name] = parts[name].replace(b"</sheetData>", b'<row r="4"><c r="A4" t="inlineStr"><is><t>'
                                          + b"x" * (20 * 2**20) + b"</t></is></c></row></sheetData>")
    rewrite_xlsx(path, huge)
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(path, None)
    assert caught.value.file == "cards.xlsx"
    assert "row 4" in str(caught.value) or "not a readable" in str(caught.value) \
        or "holds one piece of 20 MB" in str(caught.value), str(caught.value)
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(sheet(tmp_path, "crew.csv", "name,power\n\"" + "y" * 100_000 + "\",3\n"))
    assert "row 2, column A" in str(caught.value) and "characters in one cell" in str(caught.value)


def test_a_workbook_that_unpacks_to_gigabytes_is_refused_before_reading(tmp_path):
    path = xlsx(tmp_path / "cards.xlsx", [["name", "power"], ["Ada", 3]], first=None)
    rewrite_xlsx(path, lambda parts: parts.update({"xl/media/padding.bin": b"\0" * (120 * 2**20)}))
    assert path.stat().st_size < 2**20
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(path, None)
    assert "unpacks to 120 MB" in str(caught.value)


@pytest.mark.parametrize("text", ["name," + ",".join(f"c{i}" for i in range(300)) + "\nAda,1\n",
                                  "name,power\n" + "Ada,1\n" * 60_000,
                                  "name,power\nAda,1" + "," * 50_000 + "x\n"])
def test_a_text_sheet_too_wide_or_long_is_refused(tmp_path, text):
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(sheet(tmp_path, "crew.csv", text, fields=None))
    assert "more than pnp reads" in str(caught.value) and caught.value.file == "crew.csv"


def test_when_on_a_yes_no_text_column_is_warned_about_with_how_to_mean_it(mini, tmp_path):
    """A column of yes and no stays text (a quiz card prints those words), so `when: hot` holds
    for "no" too: told at the when's line, with the two ways to mean yes and no."""
    layout = mini_from_csv(mini, "name,power,count,hot,colour,text\n"
                                 "Knight,3,4,yes,#224466,Moves.\nBishop,2,2,no,#224466,Slides.\n")
    layout.write_text(layout.read_text() + "  - {kind: text, text: FIRE, when: hot, y: 56mm, h: 6mm}\n")
    line = len(layout.read_text().splitlines())
    result = build(mini, "mini", tmp_path / "out")
    assert result.exit_code == 0
    assert f"layouts/mini/card.yaml:{line}: " in result.stderr
    assert "when: hot holds for every card whose hot is written, and 2 say 'no'" in result.stderr   # the Bishops
    layout.write_text(layout.read_text().replace("when: hot,", 'when: {hot: "yes"},'))
    assert "when: hot holds" not in build(mini, "mini", tmp_path / "out").stderr   # meant as written: nothing told


def test_a_repeat_with_more_items_than_points_names_the_sheets_row(mini):
    """A card of a CSV sheet whose count outgrows a repeat's points: told at its row, as
    every other problem of a sheet's card is (the trial's was told at the file alone)."""
    layout = mini_from_csv(mini, "name,power,count,speed,colour,text\n"
                                 "Knight,3,4,2,#224466,Moves.\nBishop,2,2,7,#224466,Slides.\n")
    layout.write_text(layout.read_text() + "  - kind: repeat\n    count: \"{speed}\"\n"
                      "    at: [[10%, 90%], [30%, 90%], [50%, 90%], [70%, 90%], [90%, 90%], [50%, 80%]]\n"
                      "    elements:\n      - {kind: ellipse, w: 2mm, h: 2mm, fill: white}\n")
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "cards.csv, row 3: card 'Bishop': 7 items but only 6 points to put them at" in result.stderr, result.stderr


def test_a_stray_comma_that_shifts_the_cells_is_hinted_at_the_shifted_cell(tmp_path):
    """The row's last cell was blank, so the cell pushed past the headings is blank too: the
    first shifted cell is the one told, with why it may hold what it does."""
    path = sheet(tmp_path, "crew.csv", "name,power,speed,pips\nAda, Countess,3,1.5,\nBo,4,2,1\n")
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(path)
    assert str(caught.value) == ('crew.csv, row 2, column B (power): expected a whole number, found "Countess" '
                                 "(this row has 5 cells, more than the 4 headings: a separator in unquoted text "
                                 "moves every cell after it)")


def test_a_sheet_that_ends_every_row_with_a_separator_gets_no_stray_separator_hint(tmp_path):
    path = sheet(tmp_path, "crew.csv", "name,power\nAda,x,\nBo,4,\n")
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(path)
    assert str(caught.value) == 'crew.csv, row 2, column B (power): expected a whole number, found "x"'


def test_a_one_row_sheet_with_a_stray_comma_is_hinted_too(tmp_path):
    path = sheet(tmp_path, "crew.csv", "name,power,speed\nAda, the brave,1,1.5\n")
    with pytest.raises(PnpError) as caught:
        load_sheet_deck(path)
    assert 'column B (power): expected a whole number, found "the brave" (this row has 4 cells' in str(caught.value)
