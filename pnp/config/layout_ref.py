"""A deck's front or back as written in game.yaml, typed at load: a layout's name, or a
layout chosen per card by a field's value (`{by, layouts, default}`, drawn by
pnp.layout.choice). Whether the field is the deck's is checked once its data is read
(DeckComponent.check), before anything is drawn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pnp.config.typed import Loaded, Where, convert_scalar


class LayoutName(str):
    """A layout's name, remembering where it is written: a layout that cannot be found or
    compiled is told at that line."""

    where: Where

    @classmethod
    def parse(cls, value: object, where: Where) -> LayoutName:
        name = cls(convert_scalar(str, value, where))
        name.where = where
        return name


@dataclass
class LayoutChoice(Loaded):
    """`{by: type, layouts: {captain: crew/captain}, default: crew/card}`."""

    by: str                              # the card field whose value picks the layout
    layouts: dict[str, LayoutName]       # value -> layout name
    default: LayoutName | None = None

    def names(self) -> list[str]:
        """Every layout it chooses between, the default last."""
        return [str(name) for name in self.layouts.values()] + ([str(self.default)] if self.default else [])

    def check(self, fields: Mapping[str, object]) -> None:
        """Refuse a `by` the deck's cards lack, and a choice of no layouts."""
        if self.by not in fields:
            raise self.where_is("by").error(f"'{self.by}' is not a field of the deck's cards",
                                            hint=f"its fields: {', '.join(sorted(fields))}")
        if not self.layouts:
            raise self.where_is("layouts").error("name at least one layout, e.g. layouts: {captain: crew/captain}")
