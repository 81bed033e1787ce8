"""What every renderer is given (the build's options and context) and what a component hands a
print shop (`ShopPieces`). The renderers themselves are in pnp/kinds/, one module per kind;
the shop formats in pnp/exporters/."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pnp.config.deck import BUILTIN_FIELDS, Card, FieldSpec
from pnp.contents.stated import facts_of
from pnp.layout.ink import InkSaver
from pnp.options import DUPLEX_NAMES as DUPLEX_NAMES, PrintOptions as PrintOptions   # every renderer's options

if TYPE_CHECKING:
    from pathlib import Path

    from pnp.config.deck import Deck
    from pnp.config.game import Component, Game
    from pnp.diagnostics import Diagnostics
    from pnp.fonts import FontBook
    from pnp.lang.file import Translation
    from pnp.layout.template import PieceLayout


class Root(Protocol):
    """The root folder a build draws from, as renderers use it (pnp.project.Project is one;
    the project sits above the kinds it loads, so renderers name only what they read)."""

    root: Path
    diagnostics: Diagnostics

    @property
    def fonts(self) -> FontBook: ...


@dataclass
class BuildContext:
    project: Root
    game: Game
    decks: dict[str, Deck]
    options: PrintOptions
    tick: Callable[..., None] = lambda steps=1: None   # progress: called as pieces are done
    translation: Translation | None = None   # in a translated build
    # in a translated build, each deck's fields that keep their values in every language (they
    # choose a layout, name a picture, are compared by a when:): a rule sheet's table says them
    kept: dict[str, frozenset[str]] = field(default_factory=dict)
    # each deck's (front, back), as drawn: for the build record
    compiled: dict[str, tuple[PieceLayout, PieceLayout | None]] = field(default_factory=dict)
    # how many pieces a deck's sheets are laid out for, where not the cards drawn: a reprint
    # draws a few cards on sheets laid out as the whole deck's, so each lands where it did
    laid_out_for: dict[str, int] = field(default_factory=dict)
    jobs: int = 1   # processes a long deck's parts may be drawn in (pnp.render.parts)
    # called between pieces of work: raises to end the build early (its rules, checked
    # alongside, refuse it)
    stop: Callable[[], None] = lambda: None

    def frame_args(self, deck: Deck | None = None, bleed: float = 0.0, listing_rows: bool = False,
                   safe: float | None = None) -> dict[str, Any]:
        """What layouts are compiled against: the fields a card of `deck` has (the built-in
        ones too, and `rows` on a sheet that lists its cards), fonts, folder, bleed."""
        fields: dict[str, FieldSpec | str | None] = {**deck.fields, **BUILTIN_FIELDS} if deck is not None else {}
        if listing_rows:
            fields["rows"] = None
        return dict(fonts=self.project.fonts, game_dir=self.game.folder, fields=fields,
                    diagnostics=self.project.diagnostics, bleed=bleed, safe=safe,
                    labels=self.translation.label if self.translation is not None else None,
                    label_at=self.translation.label_at if self.translation is not None else None,
                    facts=facts_of(self.game),
                    right_to_left=self.translation is not None and self.translation.right_to_left,
                    ink_saver=InkSaver() if self.options.ink_saver and safe is None else None)


@dataclass
class ShopPieces:
    """What a component gives a print shop, compiled at the shop's bleed and safe zone: the
    cards of a deck (`deck`, with a front and maybe a back), or one whole piece (`card` drawn
    by `front`, as a board). Every exporter takes these, whatever kind made them."""

    component: Component
    front: PieceLayout
    back: PieceLayout | None
    deck: Deck | None           # None: one whole piece
    card: Card | None = None    # the whole piece's values
    radius: float = 0.0         # the cut pieces' rounded corners, points

    @property
    def whole(self) -> bool:
        return self.deck is None
