"""Sixteen small games that stress home printing, written into a folder on demand: card sizes
the bundled games lack (mini 41x63, tarot 70x120, square 70x70, bridge 56x87, landscape poker
88x63, jumbo 89x140, micro 32x44, a 120 mm tile, a 180x250 card), poker, round tokens, the
bundled 3x2 sheet layouts on A4 and Letter, tall end zones with a gap of their own, a 600x430 mm board and a game for the print shops. Used by
tests/test_print_games.py and tools/print_sweep.py.

    python tests/print_games.py DIR      # writes DIR/card_data, DIR/layouts, DIR/fonts
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

FRONT = """elements:
  - {kind: box, fill: "{colour}", bleed: true}
  - {kind: box, inset: 2mm, stroke: "#ffffff", stroke_width: 0.3mm}
  - {kind: text, text: "TOP {name}", font: display, size: 9, colour: white, align: center, y: 3mm, h: 6mm}
"""
BACK = """elements:
  - {kind: box, fill: "#202a44", bleed: true}
  - {kind: text, text: "BACK TOP", font: display, size: 9, colour: white, align: center, y: 3mm, h: 6mm}
"""
TOKEN = """elements:
  - {kind: box, fill: "#efe6d2", bleed: true}
  - {kind: ellipse, inset: 0.5mm, fill: "{colour}"}
  - {kind: text, text: "{name}", font: display, size: 8, colour: white, align: center, valign: middle}
"""
BOARD = """size: [600mm, 430mm]
elements:
  - {kind: box, fill: "#2f6b3a"}
  - {kind: box, inset: 10mm, stroke: "#ffffff", stroke_width: 1mm}
  - {kind: text, text: "{name}", font: display, size: 40, colour: white, align: center, valign: middle}
"""
RULES = "## Contents\n\n{{contents}}\n"

# game id -> (paper, [deck settings]); each deck: id, size, count, extra keys
DECK = "  - {{id: {id}, kind: deck, data: {data}.yaml, front: {front}, {extra}size: {size}}}\n"
GAMES: dict[str, tuple[str, list[dict]]] = {
    "mini-41x63": ("a4", [dict(id="cards", size="[41mm, 63mm]", count=30, back=True)]),
    "tarot-70x120": ("letter", [dict(id="cards", size="[70mm, 120mm]", count=10, back=True)]),
    "square-70x70": ("a4", [dict(id="cards", size="[70mm, 70mm]", count=14, back=True)]),
    "bridge-56x87": ("a4", [dict(id="cards", size="[56mm, 87mm]", count=22, back=True)]),
    "landscape-poker": ("letter", [dict(id="cards", size="[88mm, 63mm]", count=20, back=True)]),
    "poker": ("letter", [dict(id="cards", size="poker", count=20, back=True)]),
    "round-tokens": ("letter", [dict(id="tokens", size="[25mm, 25mm]", count=40, token=True)]),
    "sheet-3x2-a4": ("a4", [dict(id="cards", size="poker", count=8, back=True, sheet="poker-3x2-gutters-a4")]),
    "sheet-3x2-letter": ("letter", [dict(id="cards", size="poker", count=8, back=True,
                                         sheet="poker-3x2-gutters-letter")]),
    "end-zones": ("letter", [dict(id="zones", size="[48mm, 240mm]", count=6, gap="1.5mm")]),
    "board-600x430": ("letter", [dict(id="board", board=True)]),
    "shop": ("letter", [dict(id=name, size=name, count=12, back=True)
                        for name in ("poker", "bridge", "mini", "tarot", "square")]),
    # sizes no earlier check covered: jumbo, micro, a tile, and a card that only fits one a sheet
    "jumbo-89x140": ("letter", [dict(id="cards", size="[89mm, 140mm]", count=9, back=True)]),
    "micro-32x44": ("a4", [dict(id="cards", size="[32mm, 44mm]", count=60, back=True)]),
    "tile-120x120": ("letter", [dict(id="tiles", size="[120mm, 120mm]", count=5, back=True)]),
    "large-180x250": ("a4", [dict(id="cards", size="[180mm, 250mm]", count=3, back=True)]),
}
COLOURS = ["#b03a2e", "#1f618d", "#7d3c98", "#117a65", "#b9770e"]


def write_games(root: Path) -> Path:
    """Write the games, their layouts and the repository's fonts into `root`; returns it."""
    layouts = root / "layouts" / "print"
    layouts.mkdir(parents=True, exist_ok=True)
    for name, text in (("front", FRONT), ("back", BACK), ("token", TOKEN), ("board", BOARD)):
        (layouts / f"{name}.yaml").write_text(text)
    if not (root / "fonts").exists():
        shutil.copytree(REPO / "fonts", root / "fonts")
    for game, (paper, decks) in GAMES.items():
        folder = root / "card_data" / game
        folder.mkdir(parents=True, exist_ok=True)
        lines = [f"title: Print test {game}", "players: 1-2", f"paper: {paper}",
                 "description: a designed test game for print geometry", "components:"]
        components = ""
        for deck in decks:
            if deck.get("board"):
                components += f"  - {{id: {deck['id']}, kind: board, layout: print/board, data: {deck['id']}.yaml}}\n"
                (folder / f"{deck['id']}.yaml").write_text(
                    "fields:\n  name: {type: text}\ncards:\n  - {name: 600 x 430 mm board}\n")
                continue
            extra = ""
            if deck.get("back"):
                extra += "back: print/back, "
            if deck.get("sheet"):
                extra += f"sheet: {deck['sheet']}, "
            if deck.get("gap"):
                extra += f"gap: {deck['gap']}, "
            front = "print/token" if deck.get("token") else "print/front"
            components += DECK.format(id=deck["id"], data=deck["id"], front=front, extra=extra, size=deck["size"])
            cards = "".join(f"  - {{name: '{deck['id'][:6]} {n + 1}', colour: '{COLOURS[n % len(COLOURS)]}'}}\n"
                            for n in range(deck["count"]))
            (folder / f"{deck['id']}.yaml").write_text(
                "label: name\nfields:\n  name: {type: text, required: true}\n  colour: {type: colour}\ncards:\n" + cards)
        (folder / "game.yaml").write_text("\n".join(lines) + "\n" + components)
    return root


if __name__ == "__main__":
    print(write_games(Path(sys.argv[1])))
