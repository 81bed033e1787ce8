"""Game-specific checks that no generic rule kind can say.

Each takes (deck, options, cited, all decks by component id) and returns one sentence per
problem; `cited` names where in the rules the fact comes from."""

from __future__ import annotations

from collections import defaultdict

NAMED_CHECKS: dict = {}


def named_check(name: str):
    def register(function):
        NAMED_CHECKS[name] = function
        return function
    return register


def _cards_of(deck, type_field: str, type_value: str):
    return [(card, count) for card, count in zip(deck.cards, deck.counts)
            if card.get(type_field) == type_value]


# --- Jukem -----------------------------------------------------------------------------------

@named_check("pass-catch")
def pass_catch(deck, options, cited, _decks) -> list[str]:
    """Every CATCH fits at least one PASS range and every PASS range takes at least one CATCH."""
    passes = _cards_of(deck, "type", options.get("pass", "pass"))
    catches = _cards_of(deck, "type", options.get("catch", "catch"))
    ranges = sorted({(c["low"], c["high"]) for c, _ in passes})
    shown = ", ".join(f"{low}-{high}" for low, high in ranges) or "none"
    problems = []
    for card, _ in catches:
        if not any(low <= card["yards"] <= high for low, high in ranges):
            problems.append(f"CATCH {card['yards']} fits no PASS range ({shown}); {cited} allow a "
                            f"CATCH only on a PASS whose range holds its yards")
    for low, high in ranges:
        if low > high:
            problems.append(f"PASS {low}-{high} has its range the wrong way round")
        elif not any(low <= c["yards"] <= high for c, _ in catches):
            problems.append(f"PASS {low}-{high} takes no CATCH in the deck; {cited} need a CATCH "
                            f"within the range to complete the play")
    return problems


def touchdown_drives(deck, max_plays: int) -> int:
    """How many different drives of RUN and PASS/CATCH plays total exactly 100 yards, using at
    most `max_plays` plays and no more copies of a card than the deck has (and no more
    catches than passes). Two drives differ when their multisets of play yards differ."""
    passes = sum(n for _, n in _cards_of(deck, "type", "pass"))
    groups: dict[tuple[str, int], int] = defaultdict(int)
    for kind in ("run", "catch"):
        for card, count in _cards_of(deck, "type", kind):
            groups[(kind, card["yards"])] += count
    ways = {(0, 0, 0): 1}   # (yards, plays, catches) -> number of drives
    for (kind, yards), count in sorted(groups.items()):
        grown: dict[tuple[int, int, int], int] = defaultdict(int)
        for (total, plays, catches), n in ways.items():
            for k in range(count + 1):
                state = (total + k * yards, plays + k, catches + (k if kind == "catch" else 0))
                if state[0] > 100 or state[1] > max_plays or state[2] > passes:
                    break
                grown[state] += n
        ways = grown
    return sum(n for (total, _, _), n in ways.items() if total == 100)


@named_check("touchdown-drives")
def touchdown_reachable(deck, options, cited, _decks) -> list[str]:
    """A touchdown needs exactly 100 yards: the deck must offer many drives that total 100."""
    max_plays, at_least = options.get("max_plays", 6), options.get("at_least", 1)
    found = touchdown_drives(deck, max_plays)
    if found < at_least:
        return [f"only {found} drives of at most {max_plays} RUN or PASS/CATCH plays total exactly "
                f"100 yards; {cited} need exactly 100 for a touchdown, and the design asks for at "
                f"least {at_least}"]
    return []
