"""`pnp new NAME --data cards.xlsx`: a game whose deck reads a spreadsheet the designer already
has, with the fields typed from its columns and a front that shows every column."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from pnp.config.sheets import SHEET_SUFFIXES, fields_file, inferred_fields, load_sheet_deck, read_rows
from pnp.errors import PnpError
from pnp.layout.binding import FIELD_NAME
from pnp.resources import BASE_NOTE

TOP, BOTTOM = 17.0, 84.0   # mm on a poker card: below the title, above the panel's edge


def sheet_game_files(game_dir: Path, layout_dir: Path, game_id: str, title: str, data: Path,
                     game_text: str, back_text: str) -> dict[Path, str | None]:
    """The files of the starter: the sheet copied in, its fields, game, rules and layouts.
    `game_text` and `back_text` are the plain starter's, to fill in."""
    if not data.is_file():
        raise PnpError(f"no file {data}", hint="give the path of a .csv, .tsv or .xlsx file")
    if data.suffix.lower() not in SHEET_SUFFIXES:
        raise PnpError(f"{data.name} is not a spreadsheet pnp reads; use a .csv, .tsv or .xlsx file")
    rows, _ = read_rows(data, None)
    if len(rows) < 2:
        raise PnpError(f"{data.name} has no cards: the first row names the columns, each row after is a card")
    columns = [str(c).strip() if c is not None else "" for c in rows[0][1]]
    spec = inferred_fields(columns, rows[1:])
    shown = [name for name in spec.fields if FIELD_NAME.match(name) and name != spec.label]
    skipped = [name for name in spec.fields if not FIELD_NAME.match(name)]
    label = spec.label if FIELD_NAME.match(spec.label) else None
    total = load_sheet_deck(data).total
    fields_yaml = "label: " + json.dumps(spec.label) + "\nfields:\n" + "".join(
        f"  {json.dumps(name)}: {{type: {field.type}}}\n" for name, field in spec.fields.items())
    return {
        game_dir / data.name: None,   # copied as it is
        fields_file(game_dir / data.name): fields_yaml,
        game_dir / "rules.md": RULES.format(columns=", ".join(shown[:4]) or "none"),
        layout_dir / "card.yaml": front_layout(title, label, shown, skipped),
        layout_dir / "back.yaml": back_text,
        game_dir / "game.yaml": game_text.replace("data: cards.yaml", f"data: {json.dumps(data.name)}")
        .replace("columns: [name, power, count, text], headings: [Card, Power, Copies, Effect]",
                 f"columns: {json.dumps(([label] if label else []) + shown[:3] + ['count'])}")
        .replace("equals: 9", f"equals: {total}"),
    }


def write_sheet_game(files: dict[Path, str | None], data: Path) -> None:
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            shutil.copyfile(data, path)
        else:
            path.write_text(text, encoding="utf-8")


def front_layout(title: str, label: str | None, shown: list[str], skipped: list[str]) -> str:
    """The label as the card's title, then one line per other column, `column: value`."""
    step = min(7.0, (BOTTOM - TOP) / max(len(shown), 1))
    lines = [f"description: {json.dumps(f'The front of a {title} card: every column of the sheet, to restyle.')}",
             "extends: base/card", BASE_NOTE, "elements:"]
    if skipped:
        lines.insert(1, f"# not shown: {', '.join(skipped)} (rename a column to letters, digits and _ to show it)")
    if label:
        lines += ["  - kind: text", f'    text: "{{{label}}}"', "    font: display", "    size: 18",
                  "    min_size: 9", "    colour: \"#1b1b1b\"", "    align: center", "    valign: middle",
                  "    x: 6mm", "    y: 5mm", "    w: 51.5mm", "    h: 11mm"]
    for index, name in enumerate(shown):
        lines += ["  - kind: text", f'    text: "**{name}:** {{{name}}}"', f"    size: {min(10, round(step * 2.2, 1))}",
                  "    min_size: 5", "    x: 7mm", f"    y: {TOP + index * step:.2f}mm", "    w: 49.5mm",
                  f"    h: {step:.2f}mm", "    valign: middle"]
    return "\n".join(lines) + "\n"


RULES = """A one-paragraph summary of your game goes here.

## What you need

{{{{contents}}}}

## The cards

Every card of the sheet, by {columns}:

{{{{card-list}}}}
"""
