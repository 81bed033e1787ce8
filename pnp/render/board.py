"""Boards: one large piece, tiled over home paper and whole on one page for a print shop.

The board is drawn once into a PDF form; every tile stamps that form through a clipping
window, so the tiles are one drawing and match exactly where they overlap."""

from __future__ import annotations

import io

from reportlab.lib import colors

from pnp.config.deck import Card
from pnp.config.typed import where_of
from pnp.layout.units import Length
from pnp.impose import PAPER_SIZES, UNPRINTABLE, Tile, tile_board
from pnp.layout.template import compile_layout
from pnp.layout.units import mm
from pnp.outputs.pdf import OutputFile, finish, new_canvas

GUIDE = colors.HexColor("#d0006f")   # alignment marks: a colour no board uses


def render_board(ctx, component) -> list[OutputFile]:
    deck = ctx.decks.get(component.id)
    layout = compile_layout(ctx.project.root, component.layout, component._where.key({}, "layout"),
                            ctx.frame_args(deck))
    card = deck.cards[0] if deck is not None and deck.cards else Card()
    overlap = Length.parse(component.overlap, component._where.key({}, "overlap")).points
    title = f"{ctx.game.title}: {component.title or component.id}"
    font = ctx.project.fonts.family("text", where_of(None, "font")).face()
    return [home_tiles(ctx, component, layout, card, overlap, title, font),
            whole_board(component, layout, card, title)]


def whole_board(component, layout, card, title: str) -> OutputFile:
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (layout.width, layout.height), title + " (whole, for a print shop)")
    layout.draw(canvas, card)
    canvas.showPage()
    return finish(canvas, buffer, f"{component.id}-whole.pdf")


def home_tiles(ctx, component, layout, card, overlap: float, title: str, font: str) -> OutputFile:
    paper = PAPER_SIZES[ctx.options.paper]
    tiles = tile_board((layout.width, layout.height), paper, overlap)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, paper, title + " (tiled)")
    canvas.beginForm("board", lowerx=0, lowery=0, upperx=layout.width, uppery=layout.height)
    layout.draw(canvas, card)
    canvas.endForm()
    draw_assembly(canvas, paper, layout, tiles, overlap, component.title or component.id, font)
    canvas.showPage()
    for tile in tiles:
        draw_tile(canvas, tile, overlap, len(tiles), font)
        canvas.showPage()
    return finish(canvas, buffer, f"{component.id}-{ctx.options.paper}.pdf")


def draw_tile(canvas, tile: Tile, overlap: float, count: int, font: str) -> None:
    """One sheet: the tile's window of the board at the sheet's bottom-left printable corner."""
    ox = oy = UNPRINTABLE
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(ox, oy, tile.width, tile.height)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(ox - tile.x, oy - tile.y)
    canvas.doForm("board")
    canvas.restoreState()
    draw_overlap_guides(canvas, tile, ox, oy, overlap)
    canvas.setFillColor(colors.black)
    canvas.setFont(font, 8)
    hint = "" if tile.col == 0 and tile.row == 0 else \
        " · trim the edges marked 'trim' and lay this sheet over its neighbours, crosses on crosses"
    canvas.drawString(ox, oy + tile.height + mm(1.8), f"Sheet {tile.label} of {count}{hint}")


def draw_overlap_guides(canvas, tile: Tile, ox: float, oy: float, overlap: float) -> None:
    """On a sheet that overlaps the one left of it or above it: a cut line at the trim edge
    and crosses that must sit on the neighbour's matching crosses."""
    canvas.saveState()
    canvas.setStrokeColor(GUIDE)
    canvas.setLineWidth(0.5)
    w, h = tile.width, tile.height
    size = mm(2.5)
    crosses = []
    if tile.col > 0:   # the left strip repeats the right strip of the sheet to the left
        canvas.setDash([3, 2])
        canvas.line(ox + overlap / 2, oy, ox + overlap / 2, oy + h)
        canvas.setDash()
        crosses += [(ox + overlap, oy + h * f) for f in (0.25, 0.5, 0.75)]
    if tile.row > 0:   # the top strip repeats the bottom strip of the sheet above
        canvas.setDash([3, 2])
        canvas.line(ox, oy + h - overlap / 2, ox + w, oy + h - overlap / 2)
        canvas.setDash()
        crosses += [(ox + w * f, oy + h - overlap) for f in (0.25, 0.5, 0.75)]
    for x, y in crosses:
        canvas.line(x - size, y, x + size, y)
        canvas.line(x, y - size, x, y + size)
    canvas.restoreState()


def draw_assembly(canvas, paper, layout, tiles: list[Tile], overlap: float, name: str,
                  font: str) -> None:
    """The first sheet: the whole board in miniature with every sheet's place on it."""
    width, height = paper
    margin = mm(15)
    scale = min((width - 2 * margin) / layout.width, (height - 2 * margin - mm(30)) / layout.height)
    bw, bh = layout.width * scale, layout.height * scale
    left, bottom = (width - bw) / 2, height - margin - mm(22) - bh
    canvas.setFont(font, 14)
    canvas.drawString(margin, height - margin, f"{name}: how the {len(tiles)} sheets fit together")
    canvas.setFont(font, 9)
    canvas.drawString(margin, height - margin - mm(7),
                      f"Neighbouring sheets overlap by {overlap / mm(1):.0f} mm. Start with A1; trim each "
                      f"other sheet along its dashed line and lay it over")
    canvas.drawString(margin, height - margin - mm(11.5),
                      "the sheet to its left or above so the crosses meet, then tape from behind.")
    canvas.saveState()
    canvas.translate(left, bottom)
    canvas.scale(scale, scale)
    canvas.doForm("board")
    canvas.restoreState()
    canvas.setLineWidth(0.8)
    canvas.setStrokeColor(GUIDE)
    canvas.setFillColor(GUIDE)
    canvas.setFont(font, 10)
    for tile in tiles:
        x, y = left + tile.x * scale, bottom + tile.y * scale
        canvas.rect(x, y, tile.width * scale, tile.height * scale, stroke=1, fill=0)
        canvas.drawString(x + mm(2), y + tile.height * scale - mm(5), tile.label)
