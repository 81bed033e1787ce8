"""A synthetic game for the benchmark: N distinct cards made from the Jukem deck's data and
layouts (several card types, with backs), in a root folder of its own."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent


ICON = ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
        '<circle cx="12" cy="12" r="10" fill="#000"/></svg>')


def make_game(root: Path, cards: int, paper: str = "a4", data: str = "yaml", icons: bool = False) -> str:
    """Write a game `bench-N` with `cards` distinct cards under `root`, its data as YAML or as
    a `csv` or `xlsx` sheet (the same cards, fields declared beside it), with two inline icons
    in every card's text if `icons`; returns its id."""
    game_id = f"bench-{cards}" + ("" if data == "yaml" else f"-{data}") + ("-icons" if icons else "")
    for folder in ("layouts", "fonts"):
        if not (root / folder).exists():
            shutil.copytree(REPO / folder, root / folder)
            if folder == "layouts":   # the plain decks measure drawing without icons: leave out
                card = root / "layouts/jukem/card.yaml"   # Jukem's side icon (icons are timed apart)
                card.write_text("".join(line for line in card.read_text().splitlines(True)
                                        if "when: {side:" not in line))
    source = yaml.safe_load((REPO / "card_data/jukem/cards.yaml").read_text())
    kinds = source["cards"]
    # Jukem's card text takes some numbers from its facts ({fact:NAME}): written out here, as
    # the synthetic game has no facts of its own
    from pnp.config.typed import Where
    from pnp.contents.stated import load_facts
    facts = load_facts(REPO / "card_data/jukem/facts.yaml")
    made = []
    for index in range(cards):
        card = dict(kinds[index % len(kinds)])
        card.pop("count", None)
        text = facts.resolve(card["text"], Where("cards.yaml", None, "text"))
        card["text"] = f"{text} (card {index + 1})"   # every card different
        if icons:
            card["text"] = f"Gain :coin: and :gem: {card['text']}"
        if "yards" in card:
            card["yards"] = 5 + index % 60
        made.append(card)
    folder = root / "card_data" / game_id
    folder.mkdir(parents=True, exist_ok=True)
    if icons:
        (folder / "icons").mkdir(exist_ok=True)
        for name in ("coin", "gem"):
            (folder / "icons" / f"{name}.svg").write_text(ICON)
    deck = {"label": source["label"], "fields": source["fields"], "cards": made}
    suffix = data.split("-")[0]   # xlsx-script: an .xlsx written another way
    if data == "yaml":
        (folder / "cards.yaml").write_text(yaml.safe_dump(deck, sort_keys=False, allow_unicode=True))
    else:
        write_sheet(folder / f"cards.{suffix}", list(source["fields"]), made, script=data == "xlsx-script")
        (folder / "cards.fields.yaml").write_text(
            yaml.safe_dump({"label": source["label"], "fields": source["fields"]}, sort_keys=False))
    game = {"title": f"Benchmark {cards}", "players": "2", "paper": paper,
            "components": [{"id": "cards", "kind": "deck", "data": f"cards.{suffix}",
                            "front": "jukem/card", "back": "jukem/back"}],
            "contents": [{"rule": "total", "deck": "cards", "equals": cards}]}
    (folder / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False))
    return game_id


def translate(root: Path, game_id: str) -> str:
    """A German edition of the game, finished as a translator would finish it: `pnp translate`
    writes its lang file, and every text in it is filled in (the source with its a's and o's
    made ä and ö: as long, with letters past ASCII, as German draws). Returns its code."""
    subprocess.run([sys.executable, "-m", "pnp", "translate", "--game", game_id, "--lang", "de", "--root", str(root)],
                   check=True, capture_output=True)
    path = root / "card_data" / game_id / "lang/de.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["labels"] = {source: text or german_looking(source) for source, text in data["labels"].items()}
    for cards in data["cards"].values():
        for fields in cards.values():
            for value in fields.values():
                for entry in value if isinstance(value, list) else [value]:   # a list: one per text
                    entry["text"] = entry["text"] or german_looking(entry["source"])
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return "de"


def german_looking(text: str) -> str:
    """`text` with its a's and o's as ä and ö, its {field} holes kept."""
    umlauts = str.maketrans("aoAO", "äöÄÖ")
    return re.sub(r"\{[^{}]*\}|[^{]+", lambda m: m.group(0) if m.group(0)[0] == "{" else m.group(0).translate(umlauts), text)


def write_sheet(path: Path, columns: list[str], cards: list[dict], script: bool = False) -> None:
    """The cards as a CSV file, or as an XLSX workbook in the form spreadsheet apps save
    (Excel, LibreOffice, Google Sheets: text in a shared-strings table, the sheet's dimension
    given, no cell for an empty value); with `script`, as openpyxl's write-only mode writes
    it (every text inline, no dimension, an empty text in each empty cell), which openpyxl
    reads more slowly: it parses the whole sheet once more to find its size."""
    rows = [columns] + [["" if card.get(c) is None else card.get(c) for c in columns] for card in cards]
    if path.suffix == ".csv":
        import csv
        with path.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows(rows)
        return
    if script:
        from openpyxl import Workbook
        book = Workbook(write_only=True)
        sheet = book.create_sheet("Cards")
        for row in rows:
            sheet.append(row)
        book.save(path)
        return
    write_app_xlsx(path, rows)


def write_app_xlsx(path: Path, rows: list[list[object]]) -> None:
    import zipfile
    from xml.sax.saxutils import escape
    from openpyxl.utils import get_column_letter
    strings: dict[str, int] = {}
    lines = []
    for number, row in enumerate(rows, 1):
        cells = []
        for column, value in enumerate(row, 1):
            ref = f"{get_column_letter(column)}{number}"
            if value == "" or value is None:
                continue
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                cells.append(f'<c r="{ref}"><v>{value}</v></c>')
            else:
                index = strings.setdefault(str(value), len(strings))
                cells.append(f'<c r="{ref}" t="s"><v>{index}</v></c>')
        lines.append(f'<row r="{number}">{"".join(cells)}</row>')
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    relations = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    last = f"{get_column_letter(max(len(row) for row in rows))}{len(rows)}"
    parts = {
        "[Content_Types].xml": (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
            '</Types>'),
        "_rels/.rels": (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{relations}/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
        "xl/workbook.xml": (
            f'<workbook xmlns="{main}" xmlns:r="{relations}"><sheets>'
            '<sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Id="rId1" Type="{relations}/worksheet" Target="worksheets/sheet1.xml"/>'
            f'<Relationship Id="rId2" Type="{relations}/sharedStrings" Target="sharedStrings.xml"/>'
            '</Relationships>'),
        "xl/worksheets/sheet1.xml": (
            f'<worksheet xmlns="{main}"><dimension ref="A1:{last}"/><sheetData>{"".join(lines)}</sheetData></worksheet>'),
        "xl/sharedStrings.xml": (
            f'<sst xmlns="{main}" count="{len(strings)}" uniqueCount="{len(strings)}">'
            + "".join(f"<si><t>{escape(text)}</t></si>" for text in strings) + "</sst>"),
    }
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text)
