"""Exporters: one module per output format, each a subclass of `pnp.exporters.base.Exporter`
registered by name: the home PDF (`home_pdf`), shop PNG, shop PDF, Tabletop Simulator and
Tabletop Playground. `render_shop` writes one shop preset's files through the format it names.

Importing this package registers the formats pnp ships; a format of one's own is a module that
subclasses `Exporter` with `format="name"`, imported before a build, and a preset naming it."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pnp.exporters import home_pdf, shop_pdf, shop_png, ttp, tts  # noqa: F401 - each registers its format
from pnp.exporters.base import Exporter, exporter_for
from pnp.outputs.pdf import OutputFile

if TYPE_CHECKING:
    from pnp.config.shop import ShopPreset
    from pnp.render import BuildContext

__all__ = ["Exporter", "render_shop"]


def render_shop(ctx: BuildContext, preset: ShopPreset) -> list[OutputFile]:
    """Every file of a game for one shop: each component through the preset's format
    (`Exporter.component`), then the format's own game-wide files and manifest.csv; no file at
    all, and one warning, when the shop takes none of the game's pieces."""
    exporter = exporter_for(preset)(ctx, preset)
    files = [file for component in ctx.game.components for file in exporter.component(component)]
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
