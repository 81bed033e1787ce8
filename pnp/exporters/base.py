"""The one interface every shop format has, and the registry of formats by name.

A format is a subclass, registered as it is defined: `class PngExport(Exporter, format="png")`.
A shop preset names its format (`format: png` in pnp/shops/*.yaml); a build makes one exporter
for each preset and hands it every component's `ShopPieces` (pnp.render), cards or a whole
piece, whatever kind made them. Adding a format is one module plus its import in
pnp/exporters/__init__.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pnp.errors import did_you_mean, known

if TYPE_CHECKING:
    from pnp.config.shop import ShopPreset
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext, ShopPieces


class Exporter:
    """The files of one game for one shop: `cards` and `whole` take each component's pieces
    as the build reaches it, `finish` adds what covers the whole game (a saved table). `rows`
    fill manifest.csv beside the files: file, card, quantity, back."""

    formats: ClassVar[dict[str, type[Exporter]]] = {}

    def __init_subclass__(cls, format: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if format:
            Exporter.formats[format] = cls

    def __init__(self, ctx: BuildContext, preset: ShopPreset):
        self.ctx, self.preset = ctx, preset
        self.bleed, self.safe = preset.bleed.points, preset.safe.points
        self.rows: list[list[Any]] = []

    def cards(self, pieces: ShopPieces) -> list[OutputFile]:
        """A deck's files; a format that takes no cards of this size returns none."""
        return []

    def whole(self, pieces: ShopPieces) -> list[OutputFile]:
        """One large piece's files (a board); most formats print boards at home only."""
        return []

    def finish(self) -> list[OutputFile]:
        return []


def exporter_for(preset: ShopPreset) -> type[Exporter]:
    """The format a preset names, or an error at its `format:` line."""
    found = Exporter.formats.get(preset.format)
    if found is None:
        raise preset.where_is("format").error(
            f"unknown shop format '{preset.format}'",
            hint=did_you_mean(preset.format, Exporter.formats) or f"formats: {known(sorted(Exporter.formats))}")
    return found
