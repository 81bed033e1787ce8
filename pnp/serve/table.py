"""The table view's odds: GET /api/odds answers from the deck the page shows (the latest
snapshot), with `pnp odds`'s own code, so the page and the terminal give the same numbers.

    /api/odds?deck=cards&hand=5&where=type=pass&at_least=1&sum=yards&count=PASS=3&count=RUN=0

Counts given with `count` are tried, never written. Nothing here reads a path or changes a
file; a bad query is answered with its message and status 400."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.config.deck import Card, Deck, FieldSpec
from pnp.errors import PnpError

Json = dict[str, Any]   # the page's data and answers, as JSON


def snapshot_deck(snapshot: Json, deck_id: str) -> Deck:
    """A deck of the snapshot (the page's data) as pnp's Deck: its cards' fields and counts."""
    for deck in snapshot.get("decks") or []:
        if deck["id"] == deck_id:
            cards = []
            for entry in deck["cards"]:
                card = Card(entry["fields"])
                card.label = entry["label"]
                cards.append(card)
            fields = {name: FieldSpec() for name in (deck["cards"][0]["fields"] if deck["cards"] else {})}
            return Deck(Path(f"the {deck_id} deck"), fields, cards, [int(e["count"]) for e in deck["cards"]])
    known = ", ".join(d["id"] for d in snapshot.get("decks") or [])
    raise PnpError(f"no deck '{deck_id}'; decks: {known or 'none yet'}")


def odds_json(snapshot: Json | None, query: dict[str, list[str]]) -> Json:
    """The odds the query asks for, as JSON-ready data; PnpError for a query that makes no sense."""
    from pnp.playtest.odds import hand_odds, parse_count, parse_where, with_counts
    if snapshot is None:
        raise PnpError("the game is not drawn yet")
    first = {key: values[-1] for key, values in query.items() if values}
    deck_id = first.get("deck") or (snapshot["decks"][0]["id"] if snapshot.get("decks") else "")
    deck = snapshot_deck(snapshot, deck_id)
    try:
        hand = int(first.get("hand", "5"))
        at_least = int(first["at_least"]) if first.get("at_least") else None
    except ValueError:
        raise PnpError("hand and at_least are whole numbers") from None
    # the page has no command-line options to name: its messages say what was typed
    tried = dict(parse_count(text, option="") for text in query.get("count", []))
    deck = with_counts(deck, tried, option="")
    conditions = [parse_where(text, deck, option="") for text in query.get("where", []) if text.strip()]
    odds = hand_odds(deck, hand, conditions, first.get("sum") or None, option="")
    result = odds.as_json()
    result.update(deck=deck_id, where=[str(c) for c in conditions], counts=list(deck.counts),
                  chance=float(odds.at_least(at_least)) if at_least is not None else None, at_least_k=at_least)
    return result
