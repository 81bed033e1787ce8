"""The `rules` kind (`RulesComponent`): the rule sheet, Markdown in the game folder with tables
generated from the data; drawn by `pnp.kinds.rule_sheet` (reportlab's platypus), imported only
when a sheet is drawn, so loading a game draws nothing."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pnp.config.deck import select
from pnp.config.game import Component
from pnp.config.typed import Loaded, Where

if TYPE_CHECKING:
    from pnp.config.deck import Deck
    from pnp.config.game import Game
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext


@dataclass(kw_only=True)
class RulesComponent(Component, kind="rules"):
    """The rule sheet: Markdown in the game folder, with tables generated from the data."""

    source: str
    columns: int = field(default=2, metadata={"min": 1, "max": 3})
    restated: bool = False   # a published game's rules retold: the footer says the words are ours
    tables: dict[str, "RulesTableSpec"] = field(default_factory=dict)

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        from pnp.kinds.rule_sheet import render_rules   # reportlab's platypus: only when a sheet is drawn
        return render_rules(ctx, self)

    def rule_sheet(self) -> str | None:
        return self.source

    def deck_view(self, game: Game, decks: dict[str, Deck]) -> str | None:
        # `{{contents}}` counts each deck's pieces; a table shows the fields its columns name
        # of the cards it selects (pnp.kinds.rule_sheet)
        totals = [(c.id, decks[c.id].total) for c in game.components if c.is_deck and c.id in decks]
        tables: list[tuple[str, object]] = []
        for name, spec in sorted(self.tables.items()):
            deck = decks.get(spec.deck)
            if deck is None:
                tables.append((name, None))
                continue
            shown = [each for column in spec.columns for each in column.split("+")] + [spec.summarise_by or ""]
            chosen = select(deck, spec.where)
            tables.append((name, (sorted(deck.fields), [([card.get(each) for each in shown], count)
                                                         for card, count in zip(chosen.cards, chosen.counts)])))
        return repr((totals, tables))

    def translated(self, say: Callable[[str, Where], str], right_to_left: bool) -> RulesComponent:
        changed = super().translated(say, right_to_left)
        assert isinstance(changed, RulesComponent)
        changed.tables = {name: translated_table(spec, say, self.where_is("tables"), right_to_left)
                          for name, spec in self.tables.items()}
        return changed


@dataclass
class RulesTableSpec(Loaded):
    deck: str
    columns: list[str]
    headings: list[str] | None = None
    group: bool = True   # one row per distinct card with its count, not one per copy
    summarise_by: str | None = None  # one row per value of this field, other columns listed
    where: dict[str, Any] = field(default_factory=dict)  # only the cards that match


def translated_table(spec: RulesTableSpec, say: Callable[[str, Where], str], where: Where,
                     right_to_left: bool) -> RulesTableSpec:
    """A rule-sheet table with its headings translated; read from the right in a right-to-left
    language, so its columns are turned around."""
    changed = copy.copy(spec)
    headings = spec.headings or [c.replace("_", " ").capitalize() for c in spec.columns]
    changed.headings = [say(heading, where) for heading in headings]
    if right_to_left:
        changed.columns, changed.headings = spec.columns[::-1], changed.headings[::-1]
    return changed
