"""`PrintOptions`, what a build draws for (paper, duplex, bleed, ...), and the names they give
files. Apart from the renderers, so that a build can take its fingerprint (pnp.cache) and find
nothing to do without importing any drawing code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Duplex = Literal["long-edge", "short-edge", "none", "fold"]


DUPLEX_NAMES = {"long-edge": "", "short-edge": "short-edge", "none": "no-duplex", "fold": "fold"}


@dataclass
class PrintOptions:
    paper: str = "letter"
    duplex: Duplex = "long-edge"
    back_offset: tuple[float, float] = (0.0, 0.0)   # points, right and down on the back page
    bleed: float = 0.0                              # points
    full_bleed: bool = False   # the whole bleed on every side, at the cost of pieces a sheet
    ink_saver: bool = False
    draft: bool = False        # built despite rule problems: every page says DRAFT
    lang: str | None = None    # a translation's code (pnp.lang); None: the game as written

    @property
    def variant(self) -> str:
        """What sets these files apart from the plain ones, for their names, so builds with
        different options never overwrite each other."""
        parts = [DUPLEX_NAMES[self.duplex]]
        if self.bleed:
            mm = round(self.bleed / 72 * 25.4, 2)
            parts.append("bleed" if mm == 3 else f"bleed-{mm:g}mm")
        if self.full_bleed:
            parts.append("full-bleed")
        if self.back_offset != (0.0, 0.0):
            parts.append("back-offset")
        if self.ink_saver:
            parts.append("ink-saver")
        if self.draft:
            parts.append("draft")
        if self.lang:
            parts.append(self.lang)
        return "".join(f"-{part}" for part in parts if part)

    @property
    def whole_variant(self) -> str:
        """The part of `variant` in a whole board's name: paper, duplex, bleed and back offset do
        not change a board drawn on one page at its own size; the ink saver, a draft and a
        language do."""
        parts = ("ink-saver" if self.ink_saver else "", "draft" if self.draft else "", self.lang)
        return "".join(f"-{part}" for part in parts if part)

    @property
    def rules_variant(self) -> str:
        """The part of `variant` in a rule sheet's name: duplex, bleed, back offset and ink
        saver do not change a rule sheet; a draft and a language do."""
        return "".join(f"-{part}" for part in ("draft" if self.draft else "", self.lang) if part)
