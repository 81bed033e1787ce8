"""`pnp diff`: the cards that changed between an earlier build (or git revision) and the data
now: added, removed, a different count, and for each changed card the fields that changed;
and the pages of the game's other pieces (boards, sheets, rule sheets, tuck boxes) that look
different."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.config.deck import Card, Deck
from pnp.diagnostics import Diagnostics
from pnp.playtest.earlier import Earlier, earlier_game
from pnp.playtest.record import LOOKS, Drawn, Record, card_keys, game_record, kept_decks
from pnp.project import Project


@dataclass
class GameState:
    """A game's decks and what a build record keeps of them."""

    project: Project
    game: Any
    decks: dict[str, Deck]
    record: dict[str, list[Record]]   # each deck's cards as the build record keeps them (kept_decks)


def game_state(root: Path, game_id: str, kept: Record | None = None, diagnostics: Diagnostics | None = None,
               current_looks: bool = True) -> GameState:
    """The game in `root`, with its record: `kept` when a build made one, else worked out (the
    layouts compiled, nothing drawn; `current_looks` as game_record takes it)."""
    from pnp.options import PrintOptions
    from pnp.render import BuildContext
    from pnp.kinds.deck import DeckComponent, compile_deck_layouts
    project = Project(root, diagnostics or Diagnostics())
    checked = project.check(game_id)   # rule problems do not matter here: this compares
    record = kept
    if record is None:
        ctx = BuildContext(project, checked.game, checked.decks, PrintOptions())
        compiled: dict[str, tuple[Drawn, Drawn | None]] = {
            c.id: compile_deck_layouts(ctx, c, 0.0) for c in checked.game.components if isinstance(c, DeckComponent)}
        record = game_record(project.root, checked.game, checked.decks, compiled, current_looks=current_looks)
    return GameState(project, checked.game, checked.decks, kept_decks(record))


def comparable(new: GameState, earlier: Earlier) -> GameState:
    """`new`, its looks worked out as the earlier record's were: compared with a record made
    before looks counted the facts a layout prints and the fields its `when:`s test, every card
    printing one, or testing one, would be told as changed."""
    if earlier.record is None or earlier.record.get("looks") == LOOKS:
        return new
    return game_state(new.project.root, new.game.id, diagnostics=new.project.diagnostics, current_looks=False)


@dataclass
class CardChange:
    deck: str
    key: str
    kind: str                      # added, removed, count, changed
    old_count: int = 0
    new_count: int = 0
    fields: list[tuple[str, Any, Any]] = field(default_factory=list)   # (name, old, new)
    face: bool = False             # the face looks different (a field it shows, or its layout)
    back: bool = False
    line: str = ""                 # where the card is written now (where it was, if removed)
    old_line: str = ""
    old_card: Card | None = None
    new_card: Card | None = None

    @property
    def reprinted(self) -> int:
        """Copies to print again: all of a new or redrawn card, the extra copies of the others."""
        if self.kind == "added" or (self.kind == "changed" and (self.face or self.back)):
            return self.new_count
        return max(self.new_count - self.old_count, 0)

    @property
    def pulled(self) -> int:
        """Copies to take out of the printed deck."""
        if self.kind == "removed" or (self.kind == "changed" and (self.face or self.back)):
            return self.old_count
        return max(self.old_count - self.new_count, 0)


def compare(old: GameState, new: GameState) -> list[CardChange]:
    """Every card that differs, deck by deck in the game's order, cards in data order (the
    removed ones after them)."""
    changes: list[CardChange] = []
    deck_ids = [c.id for c in new.game.components if c.is_deck and c.id in new.decks]
    deck_ids += [d for d in old.record if d not in deck_ids]
    for deck_id in deck_ids:
        before = keyed(old, deck_id)
        after = keyed(new, deck_id)
        pairs = paired(before, after)
        for key, (card, count, entry) in after.items():
            if key not in pairs:
                changes.append(CardChange(deck_id, key, "added", 0, count, line=entry.get("line", ""),
                                          new_card=card))
                continue
            old_card, old_count, old_entry = before[pairs[key]]
            fields = field_changes(old_card, card) if old_card is not None and card is not None else []
            face = old_entry.get("face") != entry.get("face")
            back = old_entry.get("back") != entry.get("back")
            if fields or face or back:
                changes.append(CardChange(deck_id, key, "changed", old_count, count, fields, face, back,
                                          entry.get("line", ""), old_entry.get("line", ""), old_card, card))
            elif count != old_count:
                changes.append(CardChange(deck_id, key, "count", old_count, count, line=entry.get("line", ""),
                                          old_line=old_entry.get("line", ""), old_card=old_card, new_card=card))
        matched = set(pairs.values())
        for key, (card, count, entry) in before.items():
            if key not in matched:
                changes.append(CardChange(deck_id, key, "removed", count, 0, old_line=entry.get("line", ""),
                                          old_card=card))
    return changes


Keyed = dict[str, tuple[Card | None, int, Record]]


def paired(before: Keyed, after: Keyed) -> dict[str, str]:
    """Which earlier card each current card is (current key -> earlier key). Cards of one label
    are paired first with the earlier card in their place when it is the same in every field
    and look, then with any that is, then in order: a RUN put in before five others is one
    card added, not five changed, and a RUN whose yards became another RUN's is that card
    changed, not the other one's count."""
    def label(key: str) -> str:
        return LABEL_NUMBER.sub("", key)

    pairs: dict[str, str] = {}
    groups_before: dict[str, list[str]] = {}
    for key in before:
        groups_before.setdefault(label(key), []).append(key)
    groups_after: dict[str, list[str]] = {}
    for key in after:
        groups_after.setdefault(label(key), []).append(key)
    for name, keys in groups_after.items():
        free = list(groups_before.get(name, []))
        if len(keys) == 1 and len(free) == 1:   # the usual case: one card of the label
            pairs[keys[0]] = free[0]
            continue
        for key in keys:   # unchanged in its place
            if key in free and looks_same(before[key], after[key]):
                pairs[key] = key
                free.remove(key)
        waiting = []
        for key in (k for k in keys if k not in pairs):
            same = next((k for k in free if looks_same(before[k], after[key])), None)
            if same is None:
                waiting.append(key)
            else:
                pairs[key] = same
                free.remove(same)
        for key, earlier in zip(waiting, free):
            pairs[key] = earlier
    return pairs


LABEL_NUMBER = re.compile(r" \(\d+\)$")


def looks_same(old: tuple[Card | None, int, Record], new: tuple[Card | None, int, Record]) -> bool:
    (old_card, _, old_entry), (new_card, _, new_entry) = old, new
    return old_card is not None and new_card is not None and not field_changes(old_card, new_card) \
        and old_entry.get("face") == new_entry.get("face") and old_entry.get("back") == new_entry.get("back")


def field_changes(old: Card, new: Card) -> list[tuple[str, Any, Any]]:
    return [(name, old.get(name), new.get(name)) for name in sorted(set(new) | set(old))
            if name != "copy" and old.get(name) != new.get(name)]


def keyed(state: GameState, deck_id: str) -> Keyed:
    """A deck's cards by key: (the card's values if its data could be read, count, record entry)."""
    entries = state.record.get(deck_id) or []
    deck = state.decks.get(deck_id)
    cards = {key: card for key, card in zip(card_keys([c.label for c in deck.cards]), deck.cards)} if deck else {}
    return {entry["key"]: (cards.get(entry["key"]), int(entry["count"]), entry) for entry in entries}


@dataclass
class GameChanges:
    cards: list[CardChange]
    pieces: list[tuple[str, str]]   # each board, sheet, rule sheet or tuck box that looks different: (id, which pages)
    since: str                      # how the earlier state is named
    # (deck, key): what tells a printed card from those of its name on paper ("yards 30")
    told_apart: dict[tuple[str, str], str] = field(default_factory=dict)


def game_changes(root: Path, game_id: str, out_folder: Path, since: str | None) -> GameChanges:
    """What changed in the game since `since` (see pnp.playtest.earlier): its cards, and the
    pages of its other pieces."""
    new = game_state(root, game_id)
    with earlier_game(root, game_id, out_folder, since) as earlier:
        old, new = earlier_state(earlier, game_id), comparable(new, earlier)
        changes = compare(old, new)
        return GameChanges(changes, pieces_changed(old, new), earlier.name, told_apart(changes, old))


def told_apart(changes: list[CardChange], old: GameState) -> dict[tuple[str, str], str]:
    """For each printed card that changed and shares its name, the values that tell it from the
    others on paper, as the reprint's cover names it: `RUN (6)` is the RUN with yards 30."""
    found = {}
    for change in changes:
        if change.old_card is None:   # added: not on paper yet
            continue
        shown = on_paper(change.key, change.old_card, old.decks.get(change.deck))
        named = f"{change.old_card.label}: "   # a label may hold ": " itself ("Act 1: Scout")
        if shown != change.key and shown.startswith(named):
            found[(change.deck, change.key)] = shown[len(named):]
    return found


def pieces_changed(old: GameState, new: GameState) -> list[tuple[str, str]]:
    """Each board, sheet, rule sheet and tuck box whose pages look different now, drawn on the
    game's paper, with the pages that do."""
    from pnp.options import PrintOptions
    from pnp.playtest.pages_changed import PAGED_KINDS, changed_pages
    from pnp.render import BuildContext
    options = PrintOptions(paper=new.game.spec.paper)
    ctx = BuildContext(new.project, new.game, new.decks, options)
    old_ctx = BuildContext(old.project, old.game, old.decks, options)
    # a piece whose inputs are the same as before is drawn the same (pnp.outputs.reuse): only
    # the others are drawn twice and compared
    old_keys, new_keys = read_keys(old), read_keys(new)
    return [(component.id, changed.note)
            for component in new.game.components
            if component.kind in PAGED_KINDS and old_keys.get(component.id) != new_keys[component.id]
            for changed in changed_pages(ctx, old_ctx, component)]


def read_keys(state: GameState) -> dict[str, str]:
    """Each component's key from what it reads, as a build keys it to redraw only what changed."""
    from pnp.inputs import BuildInputs
    from pnp.outputs.reuse import component_keys
    read = BuildInputs(state.project.root, (state.game.id,)).file_digests()
    return component_keys(state.game, state.decks, "diff", read)


def earlier_state(earlier: Earlier, game_id: str) -> GameState:
    return game_state(earlier.root, game_id, earlier.record)


def on_paper(key: str, card: Card | None, deck: Deck | None, other: Card | None = None) -> str:
    """A card as the cover names it, so it can be found in a printed deck: where other cards of
    the deck share its label, with the values that tell it from them (`RUN: yards 30`), not
    its place in the data (`RUN (6)`); short values first, at most three. A long text is shown
    where it differs from `other` (the same card before or after), so the old and the new
    do not read alike."""
    if card is None or deck is None:
        return key
    same = [other for other in deck.cards if other.label == card.label]
    if len(same) < 2:
        return key
    differing = [name for name in deck.fields
                 if name != deck.label and len({repr(other.get(name)) for other in same}) > 1
                 and card.get(name) not in (None, "")]
    differing.sort(key=lambda name: len(str(card.get(name))) > 20)
    shown = [f"{name} {shortened(str(card.get(name)), at=first_difference(card.get(name), other.get(name)))}"
             if other is not None else f"{name} {shortened(str(card.get(name)))}" for name in differing[:3]]
    return f"{card.label}: {', '.join(shown)}" if shown else key


def first_difference(value: object, other: object) -> int:
    """Where two texts first differ (0 when they are not both text)."""
    if not isinstance(value, str) or not isinstance(other, str) or value == other:
        return 0
    return next((i for i, (a, b) in enumerate(zip(value, other)) if a != b), min(len(value), len(other)))


def shortened(value: str, most: int = 30, at: int = 0) -> str:
    """At most `most` characters of `value`, the part that holds character `at`."""
    if len(value) <= most:
        return value
    if at < most - 1:
        return value[:most - 1].rstrip() + "…"
    start = min(at - most // 2, len(value) - (most - 1))
    if start + most - 1 >= len(value):   # the end of the text: one … before it
        return "…" + value[start:].strip()
    return "…" + value[start:start + most - 2].strip() + "…"


def describe(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, str):
        return repr(value) if value != value.strip() or not value else value
    return str(value)


def why_redrawn(change: CardChange) -> str:
    """Why a card whose fields are the same looks different."""
    if change.old_count != change.new_count:   # a face that prints {count}
        return "it prints its count, or its layout, pictures or a fact it prints changed"
    return "its layout, pictures or a fact it prints changed"


def change_lines(game_id: str, found: GameChanges) -> list[str]:
    """The diff as the terminal shows it: one line per card, one more per changed field, then
    a line for each other piece whose pages changed."""
    changes, since = found.cards, found.since
    pieces = [f"  {piece}: {note}" for piece, note in found.pieces]
    if not changes:
        return [f"{game_id}: no card changed since {since}"] + pieces
    lines = [f"{game_id}: {len(changes)} card{'s' if len(changes) != 1 else ''} changed since {since}"]
    for change in changes:
        where = change.line or change.old_line
        apart = found.told_apart.get((change.deck, change.key))
        head = f"  {change.deck}: {change.key}" + (f", the one with {apart}" if apart else "")
        if change.kind == "added":
            lines.append(f"{head}: added, {change.new_count} cop{'ies' if change.new_count != 1 else 'y'}  ({where})")
        elif change.kind == "removed":
            lines.append(f"{head}: removed ({change.old_count} cop{'ies' if change.old_count != 1 else 'y'}; "
                         f"was at {where})")
        else:
            lines.append(f"{head}  ({where})")
            if change.old_count != change.new_count:
                lines.append(f"      count: {change.old_count} -> {change.new_count}")
            for name, old, new in change.fields:
                lines.append(f"      {name}: {describe(old)} -> {describe(new)}")
            if change.kind == "changed" and not change.fields:
                sides = " and ".join(s for s, on in (("face", change.face), ("back", change.back)) if on)
                lines.append(f"      {sides} drawn differently ({why_redrawn(change)})")
    return lines + pieces
