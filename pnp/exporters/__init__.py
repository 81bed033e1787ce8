"""Exporters: one module per shop format (shop PNG, shop PDF, Tabletop Simulator, Tabletop
Playground), each a subclass of `pnp.exporters.base.Exporter` registered by name; and
`render_shop`, which hands each component's pieces to the format a preset names.

Importing this package registers the formats pnp ships; a format of one's own is a module that
subclasses `Exporter` with `format="name"`, imported before a build, and a preset naming it."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pnp.exporters import shop_pdf, shop_png, ttp, tts  # noqa: F401 - each registers its format
from pnp.exporters.base import Exporter, exporter_for
from pnp.outputs.pdf import OutputFile

if TYPE_CHECKING:
    from pnp.config.shop import ShopPreset
    from pnp.render import BuildContext

__all__ = ["Exporter", "render_shop"]


def render_shop(ctx: BuildContext, preset: ShopPreset) -> list[OutputFile]:
    """Every file of a game for one shop: each component that a shop takes (`shop_pieces`),
    through the preset's format, each file marked with its component (so the files of a
    component later removed go too) and the role `shop`; then the format's own game-wide
    files and manifest.csv."""
    exporter = exporter_for(preset)(ctx, preset)
    files: list[OutputFile] = []
    for component in ctx.game.components:
        pieces = component.shop_pieces(ctx, exporter.bleed, exporter.safe)
        if pieces is None:   # printed at home only
            continue
        if not pieces.whole:
            refused = size_refused(preset, pieces.front)
            if refused:   # the rest of the game still goes to the shop; this piece prints at home
                ctx.project.diagnostics.warn(str(component.origin.error(
                    f"{refused}: {component.id} is left out of the {preset.id}/ files")))
                continue
        made = exporter.whole(pieces) if pieces.whole else exporter.cards(pieces)
        files += [replace(file, component=component.id, role="shop") for file in made]
    if not files:   # an empty manifest would look like an order of nothing
        ctx.project.diagnostics.warn(f"{preset.name} takes none of {ctx.game.id}'s pieces: "
                                     f"no {preset.id}/ files written")
        return []
    files += [replace(file, role="shop") for file in exporter.finish()]
    return files + [manifest(preset, exporter.rows)]


def manifest(preset: ShopPreset, rows: list[list[Any]]) -> OutputFile:
    """manifest.csv beside the shop files: file (relative to it), card name, quantity, back."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["file", "card", "quantity", "back"])
    writer.writerows(rows)
    return OutputFile(f"{preset.id}/manifest.csv", text.getvalue().encode(), role="shop")


def size_refused(preset: ShopPreset, front: Any) -> str | None:
    """Why the shop would not print pieces of this size, or None: a preset lists the sizes
    it takes (one that lists none takes any)."""
    size = front.size_name
    if not preset.sizes or size in preset.sizes or (size == "custom" and preset.custom):
        return None
    what = f"{front.width / 72 * 25.4:.1f} x {front.height / 72 * 25.4:.1f} mm" if size == "custom" else size
    return (f"{preset.name} does not print {what} pieces; it takes {', '.join(preset.sizes)}"
            + (" or a size of the layout's own" if preset.custom else ""))
