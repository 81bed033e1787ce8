"""The one interface every output format has, and the registry of formats by name.

A format is a subclass, registered as it is defined: `class PngExport(Exporter, format="png")`.
A build makes one exporter for each format it writes and hands it the game's components one by
one (`component`), then asks it for what covers the whole game (`finish`):

- the home PDF (`pnp.exporters.home_pdf`) draws each component with its kind's renderer and
  finishes with the print-all file made from those parts;
- a shop format is named by a shop preset (`format: png` in pnp/shops/*.yaml); its
  `component` hands `cards` or `whole` the component's `ShopPieces` (pnp.render) at the
  shop's bleed and safe zone, whatever kind made them.

Adding a shop format is one module with `cards` and/or `whole` (and `finish` for a file of the
whole game), plus its import in pnp/exporters/__init__.py."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from pnp.errors import did_you_mean, known

if TYPE_CHECKING:
    from pnp.config.game import Component
    from pnp.config.shop import ShopPreset
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext, ShopPieces


class Exporter:
    """The files of one game in one format: `component` gives a component's files as the build
    reaches it, `finish` adds what covers the whole game (a saved table, the print-all file).
    A shop format's `rows` fill manifest.csv beside its files: file, card, quantity, back."""

    formats: ClassVar[dict[str, type[Exporter]]] = {}
    for_shops: ClassVar[bool] = True   # a preset's `format:` may name it

    def __init_subclass__(cls, format: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if format:
            Exporter.formats[format] = cls

    def __init__(self, ctx: BuildContext, preset: ShopPreset | None = None):
        self.ctx = ctx
        self._preset = preset
        self.bleed = preset.bleed.points if preset is not None else ctx.options.bleed
        self.safe = preset.safe.points if preset is not None else 0.0
        self.rows: list[list[Any]] = []

    @property
    def preset(self) -> ShopPreset:
        """The shop preset a shop format writes for."""
        assert self._preset is not None, f"{type(self).__name__} is a shop format: make it with a preset"
        return self._preset

    def component(self, component: Component) -> list[OutputFile]:
        """One component's files. A shop format's: what the shop takes of it (`shop_pieces`)
        through `cards` or `whole`, each file marked with the component and the role `shop`;
        pieces of a size the shop does not print are left out with a warning (the rest of the
        game still goes to the shop)."""
        pieces = component.shop_pieces(self.ctx, self.bleed, self.safe)
        if pieces is None:   # printed at home only
            return []
        if not pieces.whole:
            refused = size_refused(self.preset, pieces.front)
            if refused:
                self.ctx.project.diagnostics.warn(str(component.origin.error(
                    f"{refused}: {component.id} is left out of the {self.preset.id}/ files")))
                return []
        made = self.whole(pieces) if pieces.whole else self.cards(pieces)
        return [replace(file, component=component.id, role="shop") for file in made]

    def cards(self, pieces: ShopPieces) -> list[OutputFile]:
        """A deck's files; a format that takes no cards of this size returns none."""
        return []

    def whole(self, pieces: ShopPieces) -> list[OutputFile]:
        """One large piece's files (a board); most formats print boards at home only."""
        return []

    def finish(self) -> list[OutputFile]:
        return []


def exporter_for(preset: ShopPreset) -> type[Exporter]:
    """The shop format a preset names, or an error at its `format:` line."""
    shop_formats = {name: cls for name, cls in Exporter.formats.items() if cls.for_shops}
    found = shop_formats.get(preset.format)
    if found is None:
        raise preset.where_is("format").error(
            f"unknown shop format '{preset.format}'",
            hint=did_you_mean(preset.format, shop_formats) or f"formats: {known(sorted(shop_formats))}")
    return found


def size_refused(preset: ShopPreset, front: Any) -> str | None:
    """Why the shop would not print pieces of this size, or None: a preset lists the sizes
    it takes (one that lists none takes any)."""
    size = front.size_name
    if not preset.sizes or size in preset.sizes or (size == "custom" and preset.custom):
        return None
    what = f"{front.width / 72 * 25.4:.1f} x {front.height / 72 * 25.4:.1f} mm" if size == "custom" else size
    return (f"{preset.name} does not print {what} pieces; it takes {', '.join(preset.sizes)}"
            + (" or a size of the layout's own" if preset.custom else ""))
