"""`pnp new NAME --data cards.xlsx`: a game whose deck reads a spreadsheet the designer already
has, with the fields typed from its columns and a front that shows every column."""

from __future__ import annotations

import json
import math
import shlex
import shutil
from collections.abc import Collection
from pathlib import Path

from pnp.config.sheets import (SHEET_SUFFIXES, fields_file, inferred_fields, load_sheet_deck, read_rows,
                               sheet_names)
from pnp.errors import PnpError
from pnp.layout.icons import no_icons
from pnp.resources import BASE_NOTE

TOP, BOTTOM = 17.0, 84.0   # mm on a poker card: below the title, above the panel's edge


def sheet_game_files(game_dir: Path, layout_dir: Path, game_id: str, title: str, given: Path,
                     game_text: str, back_text: str) -> dict[Path, str | Path]:
    """The files of the starter: the sheet copied in (its value the file to copy), its fields,
    game, rules and layouts. `given` is the sheet as the designer named it, a workbook's sheet
    picked with `#` (`crew.xlsx#Crew`); `game_text` and `back_text` are the plain starter's, to
    fill in."""
    data, sheet = picked_sheet(str(given))
    if "#" in data.name:   # game.yaml's data: reads a # as picking a workbook's sheet
        raise PnpError(f"{data.name}: a # in a data file's name reads as picking a workbook's sheet",
                       hint="rename the file without the #")
    if not data.is_file():
        raise PnpError(f"no file {data}", hint="give the path of a .csv, .tsv or .xlsx file")
    if data.suffix.lower() not in SHEET_SUFFIXES:
        raise PnpError(f"{data.name} is not a spreadsheet pnp reads; use a .csv, .tsv or .xlsx file")
    rows, place = read_rows(data, sheet)
    if len(rows) < 2:
        others = [name for name in sheet_names(data) if f"sheet {name}, " != place] if sheet is None else []
        raise PnpError(f"{data.name} has no cards" + (f" in its {place.rstrip(', ')}" if place else "")
                       + ": the first row names the columns, each row after is a card",
                       hint=f"its other sheets: {', '.join(others)}; pick one with --data "
                            f"{shlex.quote(f'{data}#{others[0]}')}" if others else "")
    columns = [str(c).strip() if c is not None else "" for c in rows[0][1]]
    spec = inferred_fields(columns, rows[1:])
    label = spec.label
    shown = [name for name in spec.fields if name != label]
    headings = {name: field.column or name for name, field in spec.fields.items()}
    total = load_sheet_deck(data, sheet).total
    sometimes = {name for name in shown if has_blanks(columns, rows[1:], headings[name])}
    table_heads = json.dumps([no_icons(headings[n]) for n in [label] + shown[:3]] + ["Copies"], ensure_ascii=False)
    # the label names each card in every message and heads it: a row without one is an error
    fields_yaml = "label: " + json.dumps(label) + "\n" \
        + (f"copies: {json.dumps(spec.copies, ensure_ascii=False)}   # the column of each card's copies\n"
           if spec.copies != "count" else "") + "fields:\n" + "".join(
        f"  {json.dumps(name)}: {{type: {field.type}" + (", required: true" if name == label else "")
        + (f", column: {json.dumps(field.column, ensure_ascii=False)}" if field.column else "") + "}\n"
        for name, field in spec.fields.items())
    return {
        game_dir / data.name: data,   # copied as it is
        fields_file(game_dir / data.name): fields_yaml,
        # the columns the rule sheet's table shows (game.yaml's card-list below)
        game_dir / "rules.md": RULES.format(columns=", ".join(in_prose(headings[name]) for name in shown[:3])
                                            or "name"),
        layout_dir / "card.yaml": front_layout(title, label, [(name, headings[name]) for name in shown],
                                                longest_values(columns, rows[1:]), sometimes),
        layout_dir / "back.yaml": back_text,
        game_dir / "game.yaml": game_text.replace(
            "data: cards.yaml", f"data: {json.dumps(data.name + (f'#{sheet}' if sheet else ''), ensure_ascii=False)}")
        .replace("columns: [name, power, count, text], headings: [Card, Power, Copies, Effect]",
                 f"columns: {json.dumps([label] + shown[:3] + ['count'])}, "
                 f"headings: {table_heads}")
        .replace("equals: 9", f"equals: {total}"),
    }


def picked_sheet(given: str) -> tuple[Path, str | None]:
    """The file and the workbook's sheet `--data` names: `crew.xlsx#Crew`, where a folder's
    name may hold a # too (`my#designs/crew.xlsx#Équipe`)."""
    at = given.lower().rfind(".xlsx#")
    if at < 0 or Path(given).suffix.lower() in SHEET_SUFFIXES:
        return Path(given), None
    return Path(given[:at + len(".xlsx")]), given[at + len(".xlsx#"):] or None


def write_sheet_game(files: dict[Path, str | Path]) -> None:
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, Path):
            shutil.copyfile(text, path)
        else:
            path.write_text(text, encoding="utf-8")


def longest_values(columns: list[str], body: list[tuple[int, list[object]]]) -> dict[str, int]:
    """Each column's longest value, in characters."""
    return {name: max((len(str(cells[col])) for _, cells in body if col < len(cells) and cells[col] is not None),
                      default=0)
            for col, name in enumerate(columns)}


CHARACTERS_A_LINE = 28    # of 10 pt text across the 49.5 mm box, on average
LINE_MM = 4.25            # 10 pt text's line, leading included
PADDING_MM = 2.75         # round a box's lines: one line gets 7 mm


def box_heights(shown: list[tuple[str, str]], longest: dict[str, int]) -> list[float]:
    """Each column's box, tall enough for its longest value's lines at 10 pt (a sentence gets
    several, a number one), all of them shrunk alike to fit the card."""
    wanted = [math.ceil((len(heading) + 2 + longest.get(heading, 0)) / CHARACTERS_A_LINE) * LINE_MM + PADDING_MM
              for _, heading in shown]
    room = BOTTOM - TOP
    scale = min(1.0, room / sum(wanted)) if wanted else 1.0
    return [height * scale for height in wanted]


def has_blanks(columns: list[str], body: list[tuple[int, list[object]]], heading: str) -> bool:
    """Whether some card leaves the column blank."""
    col = columns.index(heading)
    return any(col >= len(cells) or cells[col] is None or str(cells[col]).strip() == "" for _, cells in body)


def front_layout(title: str, label: str, shown: list[tuple[str, str]], longest: dict[str, int] | None = None,
                 sometimes: Collection[str] = ()) -> str:
    """The label as the card's title, then a box for each other column (its field's name and
    its heading), `heading: value`, as tall as that column's values need; a column some cards
    leave blank (`sometimes`) is drawn only on the cards that fill it, no heading left alone."""
    heights = box_heights(shown, longest or {})
    lines = [f"description: {json.dumps(f'The front of each {title} card: every column of the sheet, to restyle.')}",
             "extends: base/card", BASE_NOTE, "elements:"]
    lines += ["  - kind: text", f'    text: "{{{label}}}"', "    font: display", "    size: 18",
              "    min_size: 9", "    colour: \"#1b1b1b\"", "    align: center", "    valign: middle",
              "    x: 6mm", "    y: 5mm", "    w: 51.5mm", "    h: 11mm"]
    top = TOP
    for (name, heading), height in zip(shown, heights):
        text = json.dumps(f"**{printed(heading)}:** {{{name}}}", ensure_ascii=False)
        lines += ["  - kind: text", f"    text: {text}",
                  f"    size: {min(10, round(height * 2.2, 1))}",
                  "    min_size: 5", "    x: 7mm", f"    y: {top:.2f}mm", "    w: 49.5mm",
                  f"    h: {height:.2f}mm", "    valign: " + ("middle" if height < 2 * LINE_MM else "top")]
        if name in sometimes:   # the name quoted: a field called no, on or null is still a name
            lines.append(f"    when: {{{json.dumps(name, ensure_ascii=False)}: {{set: true}}}}")
        top += height
    return "\n".join(lines) + "\n"


def printed(heading: str) -> str:
    """A heading as a layout's text prints it: braces doubled, so none is taken for a field,
    and colons escaped, so none starts an icon (`Go:set:go`)."""
    return no_icons(heading.replace("{", "{{").replace("}", "}}"))


def in_prose(heading: str) -> str:
    """A heading as the starter rule sheet's sentence names it: without braces, which there
    would name a fact (`{fact:x}`), and with its colons escaped, so none starts an icon."""
    return no_icons(heading.replace("{", "").replace("}", ""))


RULES = """A one-paragraph summary of your game goes here.

## What you need

{{{{contents}}}}

## The cards

Every card of the sheet, with its {columns} and how many there are:

{{{{card-list}}}}
"""
