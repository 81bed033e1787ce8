"""Game-specific checks that no generic rule kind can say.

Each takes (deck, options, cited, all decks by component id) and returns one sentence per
problem; `cited` names where in the rules the fact comes from."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:   # config.deck imports the rule kinds, which import this
    from pnp.config.deck import Card, Deck

from pnp.contents.located import at

# (deck, the rule's options, where the rules state it, every deck by component id) -> problems
NamedCheck: TypeAlias = "Callable[[Deck, dict[str, Any], str, dict[str, Deck]], list[str]]"
NAMED_CHECKS: dict[str, NamedCheck] = {}


def named_check(name: str) -> Callable[[NamedCheck], NamedCheck]:
    def register(function: NamedCheck) -> NamedCheck:
        NAMED_CHECKS[name] = function
        return function
    return register


def _cards_of(deck: Deck, type_field: str, type_value: str) -> list[tuple[Card, int]]:
    return [(card, count) for card, count in zip(deck.cards, deck.counts)
            if card.get(type_field) == type_value]


# --- Jukem -----------------------------------------------------------------------------------

@named_check("pass-catch")
def pass_catch(deck: Deck, options: dict[str, Any], cited: str, _decks: dict[str, Deck]) -> list[str]:
    """Every CATCH fits at least one PASS range and every PASS range takes at least one CATCH."""
    passes = _cards_of(deck, "type", options.get("pass", "pass"))
    catches = _cards_of(deck, "type", options.get("catch", "catch"))
    ranges = sorted({(c["low"], c["high"]) for c, _ in passes})
    shown = ", ".join(f"{low}-{high}" for low, high in ranges) or "none"
    problems = []
    for card, _ in catches:
        if not any(low <= card["yards"] <= high for low, high in ranges):
            problems.append(f"{at(card)}CATCH {card['yards']} fits no PASS range ({shown}); {cited} allow a "
                            f"CATCH only on a PASS whose range holds its yards")
    first_of: dict[tuple[Any, Any], Card] = {}
    for card, _ in passes:
        first_of.setdefault((card["low"], card["high"]), card)
    for low, high in ranges:
        place = at(first_of[(low, high)])
        if low > high:
            problems.append(f"{place}PASS {low}-{high} has its range the wrong way round")
        elif not any(low <= c["yards"] <= high for c, _ in catches):
            problems.append(f"{place}PASS {low}-{high} takes no CATCH in the deck; {cited} need a CATCH "
                            f"within the range to complete the play")
    return problems


def touchdown_drives(deck: Deck, max_plays: int) -> int:
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
def touchdown_reachable(deck: Deck, options: dict[str, Any], cited: str, _decks: dict[str, Deck]) -> list[str]:
    """A touchdown needs exactly 100 yards: the deck must offer many drives that total 100."""
    max_plays, at_least = options.get("max_plays", 6), options.get("at_least", 1)
    found = touchdown_drives(deck, max_plays)
    if found < at_least:
        return [f"only {found} drives of at most {max_plays} RUN or PASS/CATCH plays total exactly "
                f"100 yards; {cited} need exactly 100 for a touchdown, and the design asks for at "
                f"least {at_least}"]
    return []


# --- Big Ten ---------------------------------------------------------------------------------

RESULT_KINDS = {
    # result text on a defense card -> what kind of result it is
    r"Card yards": "gain",            # the offense gains its own card's yards
    r"Card yards \+\d+": "extra",     # ... and more: the defense guessed wrong
    r"No gain": "no-gain",
    r"Loss of \d+": "loss",
    r"Turnover": "turnover",
    r"Flag on O: -\d+": "flag-back",      # penalty on the offense: pushed back
    r"Flag on D: \+\d+": "flag-forward",  # penalty on the defense: offense moves on
}


def result_kind(text: object) -> str | None:
    import re
    for pattern, kind in RESULT_KINDS.items():
        if re.fullmatch(pattern, str(text or "").strip()):
            return kind
    return None


@named_check("result-table")
def result_table(deck: Deck, options: dict[str, Any], cited: str, _decks: dict[str, Deck]) -> list[str]:
    """Each card's result against every column (offense play type) is a known kind of result,
    and matches what the rules state for that card type (`must`). Types in `mixed` must both
    win the ball against some plays and help the offense against others."""
    columns = options["columns"]
    must = options.get("must", {})
    mixed = set(options.get("mixed", []))
    type_field = options.get("type_field", "type")
    problems = []
    for card in deck.cards:
        place = at(card)
        kind_of = {}
        for column in columns:
            text = card.get(column)
            kind = result_kind(text)
            if not text:
                problems.append(f"{place}card '{card.label}' has no result against {column}; every "
                                f"play type needs one")
                continue
            if kind is None:
                problems.append(f"{place}card '{card.label}' has the result '{text}' against {column}, "
                                f"which is not a result pnp knows (known: {', '.join(RESULT_KINDS)})")
                continue
            kind_of[column] = kind
        card_type = card.get(type_field)
        for column, allowed in must.get(card_type, {}).items():
            allowed = [allowed] if isinstance(allowed, str) else allowed
            if column in kind_of and kind_of[column] not in allowed:
                problems.append(f"{place}card '{card.label}' ({card_type}) gives '{card.get(column)}' "
                                f"against {column}; {cited} make that {' or '.join(allowed)}")
        if card_type in mixed and kind_of:
            kinds = set(kind_of.values())
            if "turnover" not in kinds or not kinds & {"gain", "extra"}:
                problems.append(f"{place}card '{card.label}' ({card_type}) must win the ball against some "
                                f"plays and help the offense against others, as {cited} state")
    return problems


def row_place(card: Card, lines: list[int | None], index: int) -> str:
    """`file:line: ` of a table field's row, else the card's own."""
    where = card.where
    if where is not None and index < len(lines) and lines[index]:
        return f"{where.file}:{lines[index]}: {where.field}: " if where.field else f"{where.file}:{lines[index]}: "
    return at(card)


def _die_faces(text: str) -> set[int]:
    low, _, high = str(text).partition("-")
    return set(range(int(low), int(high or low) + 1))


@named_check("field-goal-odds")
def field_goal_odds(deck: Deck, options: dict[str, Any], cited: str, _decks: dict[str, Deck]) -> list[str]:
    """The field-goal table covers distances 1..max without gaps, each row's good rolls are die
    faces, and a closer kick is never less likely than a longer one."""
    limit = options.get("max_distance", 40)
    field = options.get("field", "field_goals")
    problems = []
    for card in deck.cards:
        skip = 1 if options.get("header", True) else 0
        rows = (card.get(field) or [])[skip:]
        lines = card.item_lines.get(field, [])
        expected_start, last_good = 1, 7
        for index, row in enumerate(rows):
            place = row_place(card, lines, index + skip)
            try:
                distances, faces = _die_faces(row[0]), _die_faces(row[1])
            except (ValueError, IndexError):
                problems.append(f"{place}field-goal row {row} is not 'from-to' distances and die faces")
                continue
            if min(distances) != expected_start:
                problems.append(f"{place}field-goal rows skip or repeat distances at {min(distances)}; "
                                f"expected {expected_start}")
            expected_start = max(distances) + 1
            if not faces <= set(range(1, 7)):
                problems.append(f"{place}field-goal row {row[0]} needs die faces 1 to 6, not {row[1]}")
            if len(faces) > last_good:
                problems.append(f"{place}a kick from {row[0]} is likelier than a closer one; {cited} make "
                                f"closer kicks likelier")
            last_good = len(faces)
            chance = re.fullmatch(r"\s*(\d+)\s*in\s*6\s*", str(row[2])) if len(row) > 2 else None
            if len(row) > 2 and (chance is None or int(chance.group(1)) != len(faces)):
                problems.append(f"{place}field-goal row {row[0]} prints the chance '{row[2]}', but good on "
                                f"{row[1]} is {len(faces)} in 6 (the die faces it names)")
        if expected_start - 1 != limit:
            problems.append(f"{at(card)}the field-goal table reaches {expected_start - 1} yards; {cited} allow "
                            f"attempts within {limit} yards")
    return problems


# --- Monster Ball ----------------------------------------------------------------------------

@named_check("tokens-match-roster")
def tokens_match_roster(deck: Deck, options: dict[str, Any], cited: str, decks: dict[str, Deck]) -> list[str]:
    """Every player token names a monster of its own side's roster, or one of the extras the
    token sheet lists for both sides."""
    roster = decks[options["roster"]]
    extras = set(options.get("extras", []))
    sides = options.get("sides", ["law", "chaos"])
    problems = []
    for card in deck.cards:
        side = card.get("side")
        if side not in sides:
            continue
        team = {c["name"] for c in roster.cards if c.get("team") == side}
        if card["name"] not in team | extras:
            problems.append(f"{at(card)}token '{card['name']}' ({side}) is neither on the {side} roster nor "
                            f"one of the extras ({', '.join(sorted(extras))}) {cited} list")
    return problems
