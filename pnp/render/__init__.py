"""One renderer per component kind (a component's `render` names its own); each turns a
component into finished files. What every renderer is given: the build's options and context."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnp.config.deck import BUILTIN_FIELDS
from pnp.contents.stated import facts_of
from pnp.layout.ink import InkSaver
from pnp.options import DUPLEX_NAMES, PrintOptions  # noqa: F401 - every renderer's options

if TYPE_CHECKING:
    from pnp.config.deck import Deck
    from pnp.config.game import Game
    from pnp.lang.file import Translation
    from pnp.project import Project


@dataclass
class BuildContext:
    project: Project
    game: Game
    decks: dict[str, Deck]
    options: PrintOptions
    tick: Callable[..., None] = lambda steps=1: None   # progress: called as pieces are done
    translation: Translation | None = None   # in a translated build
    compiled: dict = field(default_factory=dict)   # each deck's (front, back), as drawn: for the build record

    def frame_args(self, deck=None, bleed: float = 0.0, listing_rows: bool = False, safe: float | None = None) -> dict:
        """What layouts are compiled against: the fields a card of `deck` has (the built-in
        ones too, and `rows` on a sheet that lists its cards), fonts, folder, bleed."""
        fields = {**deck.fields, **BUILTIN_FIELDS} if deck is not None else {}
        if listing_rows:
            fields["rows"] = None
        return dict(fonts=self.project.fonts, game_dir=self.game.folder, fields=fields,
                    diagnostics=self.project.diagnostics, bleed=bleed, safe=safe,
                    labels=self.translation.label if self.translation is not None else None,
                    facts=facts_of(self.game),
                    right_to_left=self.translation is not None and self.translation.right_to_left,
                    ink_saver=InkSaver() if self.options.ink_saver and safe is None else None)

