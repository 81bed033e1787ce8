"""A build in another language: the game, its decks and its rule sheets seen through a
Translation. Nothing is drawn a second way: the renderers get translated copies of what they
always get (card values, titles, headings), and layouts look their fixed text up in the
translation's labels while they compile (`PieceContext.labels`)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pnp.config.deck import Card, Deck
from pnp.lang.file import Entries, Translation, by_source, data_file_name, load_translation, text_key
from pnp.config.game import Game
from pnp.config.typed import Where

if TYPE_CHECKING:
    from pnp.contents.stated import Facts


# A build's context (pnp.render.BuildContext) is typed loosely here: render/ sits above lang/.
def in_language(ctx: Any, code: str) -> Any:
    """`ctx` (a BuildContext over the source data) made to build in the language `code`."""
    return translated_context(ctx, load_translation(ctx.game, ctx.decks, code))


def translated_context(ctx: Any, translation: Translation) -> Any:
    """A copy of a BuildContext that builds in the translation's language. Validation has run
    on the source data already: rules compare names and values as the game states them."""
    from pnp.contents.stated import facts_of
    from pnp.lang.needs import kept_by_file, unprinted_by_file
    facts = facts_of(ctx.game)
    root = ctx.project.root

    def file_of(deck: Deck) -> str:
        return data_file_name(ctx.game, deck)

    kept = kept_by_file(root, ctx.game, ctx.decks, file_of)
    unprinted = unprinted_by_file(root, ctx.game, ctx.decks, file_of)
    decks = {cid: translated_deck(deck, translation.cards.get(file_of(deck), {}),
                                  kept.get(file_of(deck), frozenset()), facts,
                                  translation.shared_text, translation.label,
                                  unprinted.get(file_of(deck), frozenset()))
             for cid, deck in ctx.decks.items()}
    result = copy.copy(ctx)
    result.game = translated_game(ctx.game, translation)
    result.decks = decks
    result.translation = translation
    result.kept = {cid: kept.get(file_of(deck), frozenset()) for cid, deck in ctx.decks.items()}
    return result


def translated_deck(deck: Deck, by_card: dict[str, dict[str, Entries]],
                    kept: frozenset[str] = frozenset(), facts: Facts | None = None,
                    shared: Callable[[str], tuple[str, Where | None] | None] = lambda text: None,
                    say: Callable[[str, Where | None], str] = lambda text, where: text,
                    unprinted: frozenset[str] = frozenset()) -> Deck:
    """The deck with its card strings translated: each from its card's own entry, else from
    `shared` (a text many cards print, translated once among the labels); a table field's
    cells and a list field's items by `say`, as labels (their short phrases repeat from card
    to card), unless no component prints them (`unprinted`: a deck's tags for messages); `kept`
    fields (they choose a layout, name a picture or are compared by a when:, pnp.lang.needs)
    keep their values in every language; `{fact:NAME}` in a translated text is filled from
    `facts`."""
    texts = [name for name, spec in deck.fields.items() if spec.type == "text" and name not in kept]
    as_labels = [name for name, spec in deck.fields.items()
                 if spec.type in ("table", "list") and name not in kept | unprinted]
    tables = [name for name in as_labels if deck.fields[name].type == "table"]
    lists = [name for name in as_labels if deck.fields[name].type == "list"]
    cards: list[Card] = []
    indexed: dict[tuple[str, str], dict[str, int]] = {}   # by card name and field: by_source
    for card in deck.cards:
        entries = by_card.get(card.label, {})
        changed = Card(card)
        translated = False
        for name in texts:
            value = card.get(name)
            if not isinstance(value, str):
                continue
            own = entries.get(name, [])
            sources = indexed.get((card.label, name))
            if sources is None:
                sources = indexed[card.label, name] = by_source(own)
            text, at = own_or_shared(own, sources, value, shared)
            if text and text != value:
                changed[name] = text
                translated = True
                if at is not None:   # a problem with the text is told where the translation is written
                    changed.translated_at = {**(changed.translated_at or {}), name: at}
        for name in tables:
            rows = card.get(name)
            if isinstance(rows, list):
                said = [[say(cell, card.where) if isinstance(cell, str) else cell for cell in row]
                        if isinstance(row, list) else row for row in rows]
                if said != rows:
                    changed[name] = said
        for name in lists:   # a scoreboard's phases, a card's keywords
            items = card.get(name)
            if isinstance(items, list):
                said = [say(item, card.where) if isinstance(item, str) else item for item in items]
                if said != items:
                    changed[name] = said
        changed.label, changed.where = card.label, card.where
        if facts is not None and translated:   # the translation's own {field} and {fact:NAME} holes
            from pnp.contents.stated import fill_card_text
            fill_card_text(changed, deck.fields, facts)
        cards.append(changed)
    return Deck(deck.path, deck.fields, cards, list(deck.counts), deck.designed, deck.label)


def own_or_shared(entries: Entries, sources: dict[str, int], value: str,
                  shared: Callable[[str], tuple[str, Where | None] | None]) -> tuple[str, Where | None]:
    """A card text's translation and where it is written: its card's entry made from this very
    text (`sources`: the entries by_source, worked out once for the cards of one name), else
    the one a label gives every card that prints it; "" when there is none yet. An entry made
    from an older text is none: it would print the old rule ("draw a card" where the card now
    says two), so the card prints its source text until it is translated again, as
    validate and the build's warning say."""
    exact = sources.get(text_key(value))
    if exact is not None:
        return entries[exact][0].text.strip(), entries[exact][1]
    label = shared(value)
    if label is not None:
        return label
    return "", None


def translated_game(game: Game, translation: Translation) -> Game:
    """The game with its title, credit, component titles and descriptions and rule-sheet table
    headings in the translation's language."""
    say = translation.label
    result = copy.copy(game)
    result.spec = copy.copy(game.spec)
    result.spec.title = say(game.spec.title, game.spec.where_is("title"))
    result.spec.credit = say(game.spec.credit, game.spec.where_is("credit"))
    result.components = [component.translated(say, translation.right_to_left)   # each kind knows its words
                         for component in game.components]
    return result
