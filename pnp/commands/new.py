"""`pnp new`: a starter game that builds straight away, to edit into your own."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pnp.errors import PnpError
from pnp.paths import write_inside
from pnp.resources import BASE_NOTE

GAME = """title: {title_yaml}
players: 2-4
paper: letter
description: A new game made with pnp new.
components:
  - id: cards
    kind: deck
    title: Deck
    data: cards.yaml
    front: {id}/card
    back: {id}/back
  - id: rules
    kind: rules
    title: Rule sheet
    source: rules.md
    tables:
      card-list: {{deck: cards, columns: [name, power, count, text], headings: [Card, Power, Copies, Effect]}}
contents:                     # what your rules state; pnp validate checks the deck against it
  - {{rule: total, deck: cards, equals: 9, source: Contents}}
"""

CARDS = """label: name
fields:
  name: {type: text, required: true}
  power: {type: whole, required: true}
  text: {type: text}
  colour: {type: colour, default: "#1f3a5f"}
cards:
  - {name: Scout, power: 1, count: 4, text: "Look at the top card of the deck, then gain 1 :star:."}
  - {name: Guard, power: 3, count: 3, text: "**Block** the next attack against you."}
  - {name: Champion, power: 5, count: 2, colour: "#7a1f1f", text: "Wins every tie. *Worth* 2 :star:."}
"""

RULES = """A one-paragraph summary of your game goes here.

## What you need

{{contents}}

## Playing

1. Shuffle the deck and deal three cards to each player.
2. Take turns playing one card.

## The cards

{{card-list}}
"""

CARD = """description: {front_description}
extends: base/card
{base_note}
elements:
  - kind: box
    id: background
    fill: "{{colour}}"
    bleed: true
  - kind: text
    text: "{{name}}"
    font: display
    size: 20
    min_size: 9
    colour: "#1b1b1b"
    align: center
    valign: middle
    x: 13.5mm
    y: 8mm
    w: 36.5mm
    h: 12mm
  - kind: text
    text: "{{power}}"
    font: display
    size: 60
    colour: "{{colour}}"
    align: center
    valign: middle
    y: 24mm
    h: 30mm
  - kind: text
    text: "{{text}}"
    size: 10
    min_size: 7
    align: center
    valign: middle
    x: 8mm
    y: 58mm
    w: 47.5mm
    h: 22mm
  - kind: image
    src: emblem.svg
    x: 5.5mm
    y: 5.5mm
    w: 7mm
    h: 7mm
"""

STAR_ICON = """<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">
  <!-- one colour: an icon drawn in text takes the text's colour -->
  <polygon points="12,1.5 15,9 23,9.3 16.8,14.2 19,22 12,17.6 5,22 7.2,14.2 1,9.3 9,9" fill="#000"/>
</svg>
"""

EMBLEM = """<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40">
  <circle cx="20" cy="20" r="18" fill="#d9a21b" stroke="#6b4a05" stroke-width="2"/>
  <path d="M20 8 L30 20 L20 32 L10 20 Z" fill="#fbf8ef"/>
</svg>
"""

BACK = """description: {back_description}
extends: base/card
elements:
  - kind: box
    id: background
    fill: "#1f3a5f"
    bleed: true
  - kind: box
    id: panel
    inset: 3mm
    stroke: white
    stroke_width: 1.2pt
    radius: 2.5mm
  - kind: text
    text: {upper}
    font: display
    size: 22
    min_size: 10
    colour: white
    align: center
    valign: middle
    x: 6mm
    y: 30mm
    w: 51.5mm
    h: 28mm
"""

def yaml_text(text: str) -> str:
    """Any title as a YAML string: a JSON string is a double-quoted YAML scalar, so colons,
    `#`, quotes and words like `yes` stay text."""
    return json.dumps(text, ensure_ascii=False)


def literal_braces(text: str) -> str:
    """Text for a layout, where `{` opens a field: a title's own braces print as braces."""
    return text.replace("{", "{{").replace("}", "}}")


GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")


def new_game(root: Path, game_id: str, title: str | None, data: Path | None = None) -> list[Path]:
    """Write the starter files (card_data/ and layouts/ made where missing); refuse to touch a
    game or layouts that already exist."""
    if not GAME_ID.match(game_id):
        raise PnpError(f"'{game_id}' is not a game id: use lower-case letters, digits and dashes, "
                       f"starting with a letter or digit, at most 41 in all")
    # any folder will do: an empty one becomes a project, drawing with pnp's own fonts and
    # base layout until it has its own fonts/ and layouts/base/
    title = title or game_id.replace("-", " ").title()
    game_dir, layout_dir = root / "card_data" / game_id, root / "layouts" / game_id
    for folder in (game_dir, layout_dir):
        if folder.exists() or folder.is_symlink():   # a link, even to nothing, is something there
            raise PnpError(f"{folder} already exists; pick another id or remove it first")
        # a card_data/ or layouts/ that is a link would carry the new files out of the folder
        write_inside(folder, root, lambda message: PnpError(message), "new game", "the project folder")
    game_text = GAME.format(title_yaml=yaml_text(title), id=game_id)
    back_text = BACK.format(back_description=yaml_text(f"The back of every {title} card."),
                            upper=yaml_text(literal_braces(title.upper())))
    if data is not None:   # the deck reads the designer's own sheet
        from pnp.commands.new_from_sheet import sheet_game_files, write_sheet_game
        sheet_files = sheet_game_files(game_dir, layout_dir, game_id, title, data, game_text, back_text)
        write_sheet_game(sheet_files)
        return list(sheet_files)
    files = {
        game_dir / "game.yaml": game_text,
        game_dir / "cards.yaml": CARDS,
        game_dir / "rules.md": RULES,
        game_dir / "icons/star.svg": STAR_ICON,    # :star: in card text and the rules
        game_dir / "emblem.svg": EMBLEM,           # an SVG image on every front
        layout_dir / "card.yaml": CARD.format(front_description=yaml_text(f"The front of each {title} card."),
                                           base_note=BASE_NOTE),
        layout_dir / "back.yaml": back_text,
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)
