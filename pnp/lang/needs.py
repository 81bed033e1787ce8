"""Which card strings need a translation. A value a build uses as a name, not as words, must
stay as it is in every language: the field a deck's front or back is chosen by, a field that
names a picture (an `image` element's `src`) or a colour (`fill: "{type}"` through the
palette), a field whose value a `when:` condition compares (`when: flavour`, which asks only
whether it is set, leaves it to translate); and text that is only icons (`:lantern: :lantern:`)
or numbers has nothing to translate."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pnp.config.deck import Deck
from pnp.config.game import Component, Game
from pnp.config.layout_ref import LayoutChoice
from pnp.config.typed import Where
from pnp.errors import PnpError


def kept_fields(root: Path, component: Component) -> frozenset[str]:
    """The fields of a deck component's cards that are names, not words (see above)."""
    kept: set[str] = set()
    layouts: list[tuple[str, Where]] = []
    for side in ("front", "back"):
        value = getattr(component, side, None)
        where = component.where_is(side)
        if isinstance(value, str):
            layouts.append((value, where))
        elif isinstance(value, LayoutChoice):   # {by, layouts, default}, typed at load
            kept.add(value.by)
            layouts += [(name, where) for name in value.layouts.values()]
            if value.default is not None:
                layouts.append((value.default, where))
    for name, where in layouts:
        kept |= names_in_layout(root, name, where)
    return frozenset(kept)


def names_in_layout(root: Path, name: str, where: Where) -> frozenset[str]:
    from pnp.layout import kinds  # noqa: F401 - every element kind known before a layout loads
    from pnp.layout.compound import condition_fields
    from pnp.layout.template import load_template
    try:
        template = load_template(root, name, where)
    except PnpError:
        return frozenset()   # the build reports a layout it cannot load
    found: set[str] = set()
    stack = list(template.elements)
    while stack:
        element = stack.pop()
        stack.extend(getattr(element, "elements", None) or [])
        found |= condition_fields(element, compared_only=True)   # `when: flavour` tests only that it is set
        found |= element.fields_as_names()   # a colour, a picture, a length
    return frozenset(found)


def kept_by_file(root: Path, game: Game, decks: dict[str, Deck],
                 file_of: Callable[[Deck], str]) -> dict[str, frozenset[str]]:
    """kept_fields for each data file the game's decks read (`file_of(deck)` names it)."""
    kept: dict[str, frozenset[str]] = {}
    for component in game.components:
        deck = decks.get(component.id)
        if deck is None or not hasattr(component, "front"):
            continue
        name = file_of(deck)
        kept[name] = kept.get(name, frozenset()) | kept_fields(root, component)
    return kept


def unprinted_by_file(root: Path, game: Game, decks: dict[str, Deck],
                      file_of: Callable[[Deck], str]) -> dict[str, frozenset[str]]:
    """For each data file, the fields no component prints: not a layout of a component that
    draws the file's cards, not a sheet's rows, not a rule sheet's table (Big Ten's "Special
    teams 1" names its cards in messages only). A translation is not asked for them. When a
    layout cannot be read, every field counts as printed (its build tells why)."""
    printed: dict[str, set[str] | None] = {}
    for component in game.components:
        deck = decks.get(component.id)
        if deck is None:
            continue
        name = file_of(deck)
        if printed.get(name, set()) is None:
            continue
        fields = printed.setdefault(name, set())
        assert fields is not None
        for layout in component.layout_names():
            found = fields_printed(root, layout, component.where_is("front"))
            if found is None:
                printed[name] = None
                break
            fields |= found
        else:
            fields |= set(getattr(component, "rows", None) or [])
    for component in game.components:   # rule sheets' tables name the deck and columns
        for spec in (getattr(component, "tables", None) or {}).values():
            deck = decks.get(getattr(spec, "deck", ""))
            target = printed.setdefault(file_of(deck), set()) if deck is not None else None
            if target is not None:
                # a summary's own field prints only as a column; `move+effect` prints both
                target.update(name for column in spec.columns for name in column.split("+"))
    unprinted: dict[str, frozenset[str]] = {}
    for deck in decks.values():
        name = file_of(deck)
        fields = printed.get(name, set())
        if fields is not None:
            unprinted[name] = frozenset(deck.fields) - fields
    return unprinted


def fields_printed(root: Path, name: str, where: Where) -> frozenset[str] | None:
    """The card fields a layout's elements draw; None when the layout cannot be read."""
    from pnp.layout import kinds  # noqa: F401 - every element kind known before a layout loads
    from pnp.layout.template import load_template
    try:
        template = load_template(root, name, where)
    except PnpError:
        return None
    return frozenset[str]().union(*(element.fields_read() for element in template.elements))


def not_asked_by_file(root: Path, game: Game, decks: dict[str, Deck],
                      file_of: Callable[[Deck], str]) -> dict[str, frozenset[str]]:
    """For each data file, the fields a translation is not asked for: those kept in every
    language (kept_by_file) and those no component prints (unprinted_by_file)."""
    kept = kept_by_file(root, game, decks, file_of)
    unprinted = unprinted_by_file(root, game, decks, file_of)
    return {name: kept.get(name, frozenset()) | unprinted.get(name, frozenset())
            for name in kept.keys() | unprinted.keys()}
