"""A synthetic game for the benchmark: N distinct cards made from the Jukem deck's data and
layouts (several card types, with backs), in a root folder of its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent


def make_game(root: Path, cards: int, paper: str = "a4") -> str:
    """Write a game `bench-N` with `cards` distinct cards under `root`; returns its id."""
    game_id = f"bench-{cards}"
    for folder in ("layouts", "fonts"):
        if not (root / folder).exists():
            shutil.copytree(REPO / folder, root / folder)
    source = yaml.safe_load((REPO / "card_data/jukem/cards.yaml").read_text())
    kinds = source["cards"]
    made = []
    for index in range(cards):
        card = dict(kinds[index % len(kinds)])
        card.pop("count", None)
        card["text"] = f"{card['text']} (card {index + 1})"   # every card different
        if "yards" in card:
            card["yards"] = 5 + index % 60
        made.append(card)
    folder = root / "card_data" / game_id
    folder.mkdir(parents=True, exist_ok=True)
    deck = {"label": source["label"], "fields": source["fields"], "cards": made}
    (folder / "cards.yaml").write_text(yaml.safe_dump(deck, sort_keys=False, allow_unicode=True))
    game = {"title": f"Benchmark {cards}", "players": "2", "paper": paper,
            "components": [{"id": "cards", "kind": "deck", "data": "cards.yaml",
                            "front": "jukem/card", "back": "jukem/back"}],
            "contents": [{"rule": "total", "deck": "cards", "equals": cards}]}
    (folder / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False))
    return game_id
