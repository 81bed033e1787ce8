"""Which pages of a board, sheet, rule sheet or tuck box look different from an earlier
drawing: both drawn, rasterised at a low resolution and compared. `pnp diff` names them and
`pnp build --reprint` prints them again."""

from __future__ import annotations

import hashlib
import io
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnp.config.game import Component
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext

COMPARE_DPI = 50   # enough to see a changed number on a board; a page is compared in a few ms
PAGED_KINDS = ("board", "sheet", "rules", "tuckbox")


@dataclass
class ChangedPages:
    file: OutputFile     # the component's file as drawn now
    pages: list[int]     # its pages that changed, counted from 0
    note: str            # which, as a person names them: "sheets A1, B3 of the board", "pages 2, 3"


def changed_pages(ctx: BuildContext, old_ctx: BuildContext, component: Component) -> list[ChangedPages]:
    """The component's files with pages whose pictures differ from the earlier drawing (all of
    them for a component that is new); a board's whole-board file and assembly page are not
    pieces to print again."""
    from pnp.errors import PnpError, display_path
    from pnp.outputs.raster import rasterise
    new_files = [f for f in component.render(ctx) if f.role != "whole"]
    old_component = next((c for c in old_ctx.game.components if c.id == component.id and c.kind == component.kind),
                         None)
    try:
        old_files = {f.name: f for f in old_component.render(old_ctx)} if old_component is not None else {}
        unreadable = ""
    except PnpError as exc:   # an earlier revision's mistake (a fact misnamed then): nothing to compare with
        said = str(exc)
        earlier = Path(old_ctx.project.root)
        spelled = {str(earlier), str(earlier.resolve()), display_path(earlier)}
        for earlier_root in sorted(spelled, key=len, reverse=True):   # the longest first: no part of one left
            said = said.replace(earlier_root + "/", "")   # a file of the earlier game, named as in the game's
        old_files, unreadable = {}, f" (the earlier one could not be drawn to compare: {said})"
    first = 1 if component.kind == "board" else 0   # page 1 of a tiled board shows how to assemble it
    found = []
    for file in new_files:
        new_pages = rasterise(file.data, COMPARE_DPI)
        old_pages = rasterise(old_files[file.name].data, COMPARE_DPI) if file.name in old_files else []
        if component.kind == "sheet":   # a sheet's pages are its cards: a copy more or less must not shift the rest
            printed = Counter(hashlib.sha256(png).digest() for png in old_pages)
            changed = []
            for index, png in enumerate(new_pages):
                seen = hashlib.sha256(png).digest()
                if printed[seen]:
                    printed[seen] -= 1
                else:
                    changed.append(index)
        else:   # a board's tile is its place on the board; a rule sheet's or a box's page, its page
            changed = [index for index in range(first, len(new_pages))
                       if index >= len(old_pages) or differs(old_pages[index], new_pages[index])]
        if not changed:
            continue
        if component.kind == "board":   # as the tiles name themselves: "Sheet B3 of 8"
            labels = tile_labels(ctx, component)
            names = ", ".join(labels[index - first] for index in changed)
            note = f"sheet{'s' if len(changed) != 1 else ''} {names} of the board changed"
        else:
            note = f"page{'s' if len(changed) != 1 else ''} {', '.join(str(i + 1) for i in changed)} changed"
        found.append(ChangedPages(file, changed, note + unreadable))
    return found


def tile_labels(ctx: BuildContext, component: Component) -> list[str]:
    """The names of a board's tiles, in page order (A1, A2, ... B1)."""
    from pnp.impose import PAPER_SIZES, tiled
    from pnp.kinds.board import BoardComponent, compile_board
    assert isinstance(component, BoardComponent)   # the kind 'board'
    layout, _ = compile_board(ctx, component)
    overlap, bleed = component.overlap.points, ctx.options.bleed   # the tiles cover the board and its bleed
    _, tiles = tiled((layout.width + 2 * bleed, layout.height + 2 * bleed), PAPER_SIZES[ctx.options.paper], overlap)
    return [tile.label for tile in tiles]


def differs(old_png: bytes, new_png: bytes) -> bool:
    from PIL import Image, ImageChops
    old, new = Image.open(io.BytesIO(old_png)).convert("RGB"), Image.open(io.BytesIO(new_png)).convert("RGB")
    return old.size != new.size or ImageChops.difference(old, new).getbbox() is not None
