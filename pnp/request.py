"""What a user asks a build for, as one object: paper, print options, shops and languages.

Every way into a build makes one `BuildRequest`: the option group `pnp build` and `pnp watch`
share (pnp.commands.options), the preview page's print buttons (`from_json`), `pnp validate`
and `pnp proof`. Which options go together is checked here and nowhere else; a bad value or
combination is a `UsageProblem`, which the command line reports with exit status 2.

To add a print option: a field here (with its check in `check`), a click option in
pnp.commands.options whose parameter name is the field's name, and, if it changes what is
drawn, a field of the same name in PrintOptions (pnp.options), which `options_for` fills."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.errors import PnpError, did_you_mean, known
from pnp.units import mm

if TYPE_CHECKING:
    from pnp.config.shop import ShopPreset
    from pnp.options import PrintOptions

PAPERS = ("letter", "a4")
DUPLEX = ("long-edge", "short-edge", "none", "fold")
MAX_BLEED_MM = 10
PAGE_OPTIONS = ("paper", "duplex", "bleed", "ink_saver", "lang")   # what the preview page may send
MAX_OFFSET_MM = 20


class UsageProblem(PnpError):
    """An option's value, or options that do not go together: a usage error (exit status 2),
    not a problem in the game's files."""


@dataclass(frozen=True)
class BuildRequest:
    paper: str | None = None                          # None: each game's own paper
    duplex: str = "long-edge"
    back_offset: tuple[float, float] = (0.0, 0.0)     # points, right and down on the back page
    bleed: float = 0.0                                # points
    full_bleed: bool = False                          # the whole bleed on every side, at a cost in pieces
    ink_saver: bool = False
    draft: bool = False
    shops: tuple[str, ...] = ()                       # preset names (pnp/shops/ or the root's shops/)
    langs: tuple[str, ...] = ()                       # translation codes or 'all'; none: as written

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Every rule of which values and options go together, each a UsageProblem."""
        if self.paper is not None and self.paper not in PAPERS:
            raise UsageProblem(f"unknown paper '{self.paper}'", field="--paper", hint=" or ".join(PAPERS))
        if self.duplex not in DUPLEX:
            raise UsageProblem(f"unknown duplex '{self.duplex}'", field="--duplex", hint=", ".join(DUPLEX))
        if not (isinstance(self.bleed, (int, float)) and not isinstance(self.bleed, bool)
                and math.isfinite(self.bleed) and 0 <= self.bleed <= mm(MAX_BLEED_MM) + 1e-9):
            raise UsageProblem(f"bleed is a length from 0 to {MAX_BLEED_MM} mm", field="--bleed")
        if self.full_bleed and not self.bleed:
            raise UsageProblem("--full-bleed gives pieces the whole of a bleed: give one too, e.g. "
                               "--bleed 3mm --full-bleed", field="--full-bleed")
        if self.duplex == "fold" and self.back_offset != (0.0, 0.0):
            raise UsageProblem("--back-offset does not apply to --duplex fold: fronts and backs print on "
                               "the same side, so there is no printer shift to make up for")

    # --- what a build of one game is given -----------------------------------------------------
    def options_for(self, game_paper: str = "letter", lang: str | None = None) -> PrintOptions:
        """The drawing options of one build: this request's, on the game's paper unless another
        was asked for, in language `lang` (None: the game as written). (build_game, which
        loads the game, puts in its paper itself.)"""
        from pnp.options import PrintOptions
        shared = {f.name for f in fields(PrintOptions)} & {f.name for f in fields(self)}
        values: dict[str, Any] = {name: getattr(self, name) for name in shared}
        values.update(paper=self.paper or game_paper, lang=lang)
        return PrintOptions(**values)

    def languages(self, game_folder: Path, game_id: str) -> list[str | None]:
        """The languages to build a game in: as written (None) unless languages were asked for."""
        if not self.langs:
            return [None]
        from pnp.lang import chosen_languages
        return list(chosen_languages(game_folder, game_id, self.langs))

    def shop_presets(self, root: Path) -> list[ShopPreset]:
        """The shops asked for, loaded; an unknown name is a UsageProblem with a did-you-mean,
        a preset file with a mistake a PnpError naming its line."""
        if not self.shops:   # the schema is not even imported
            return []
        from pnp.config.shop import load_shop, shop_ids
        available = shop_ids(root)
        for shop in self.shops:
            if shop not in available:
                hint = did_you_mean(shop, available)
                raise UsageProblem(f"unknown shop '{shop}'" + (f"; {hint}" if hint else "")
                                   + f"; shops: {known(available)}", field="--shop")
        return [load_shop(root, shop) for shop in self.shops]

    # --- from the preview page -----------------------------------------------------------------
    @classmethod
    def from_json(cls, asked: dict[str, object]) -> BuildRequest:
        """The preview page's print choices (paper, duplex, bleed in mm, ink_saver, lang); a
        value that is not one of these is refused, not guessed."""
        unknown = sorted(str(key) for key in asked if key not in PAGE_OPTIONS)
        if unknown:
            raise UsageProblem(f"unknown print option '{unknown[0]}'", hint=", ".join(PAGE_OPTIONS))
        bleed = asked.get("bleed", 0)
        if isinstance(bleed, bool) or not isinstance(bleed, (int, float)) or not math.isfinite(bleed) \
                or not 0 <= bleed <= MAX_BLEED_MM:
            raise UsageProblem(f"bleed is a number of mm from 0 to {MAX_BLEED_MM}")
        paper = asked.get("paper") or None   # none chosen: the game's own, as build without --paper
        duplex = asked.get("duplex", "long-edge")
        if not isinstance(paper, (str, type(None))) or not isinstance(duplex, str):
            raise UsageProblem("paper and duplex are names", hint=f"{' or '.join(PAPERS)}; {', '.join(DUPLEX)}")
        lang = asked.get("lang")
        if lang is not None and not isinstance(lang, str):
            raise UsageProblem("lang is a language code, e.g. de")
        return cls(paper=paper, duplex=duplex, bleed=mm(bleed), ink_saver=bool(asked.get("ink_saver")),
                   langs=(lang,) if lang else ())


# --- option values as a person types them (the command line) ----------------------------------
def parse_offset(value: str | None) -> tuple[float, float]:
    """`X,Y` in mm (a printer's shift of the back side) as points."""
    if not value:
        return (0.0, 0.0)
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise UsageProblem("give two numbers in mm, e.g. 0.5,-1") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise UsageProblem("give two finite numbers in mm, e.g. 0.5,-1")
    if abs(x) > MAX_OFFSET_MM or abs(y) > MAX_OFFSET_MM:
        raise UsageProblem(f"an offset over {MAX_OFFSET_MM} mm is not a printer's shift")
    return (mm(x), mm(y))


def parse_bleed(value: str | None) -> float:
    """A bleed as shops write it (3mm, 0.125in, 1/8in) as points. A bare number other than 0 is
    refused, as in a layout: `0.125` may mean inches or millimetres."""
    if value is None:
        return 0.0
    from pnp.config.typed import Where
    from pnp.units import Length
    text = value.strip()
    fraction = re.fullmatch(r"(\d+)\s*/\s*(\d+)\s*([a-z]*)", text.lower())
    if fraction and int(fraction.group(2)):   # 1/8in, as shops write it
        text = f"{int(fraction.group(1)) / int(fraction.group(2))}{fraction.group(3)}"
    if not any(c.isalpha() for c in text):
        if re.fullmatch(r"0*\.?0*", text) and text:
            return 0.0
        raise UsageProblem(f"a bleed of '{value}' has no unit; write it with one, e.g. {text}mm or {text}in")
    try:
        length = Length.parse(text, Where("--bleed", None, ""))
    except PnpError as exc:
        raise UsageProblem(exc.message) from None
    if length.percent is not None or not 0 <= length.points <= mm(MAX_BLEED_MM):
        raise UsageProblem(f"bleed is a length from 0 to {MAX_BLEED_MM} mm")
    return length.points
