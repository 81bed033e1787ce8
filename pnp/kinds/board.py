"""The `board` kind (`BoardComponent`): one large piece, tiled over home paper and whole on one page for a print shop.

The board is drawn once into a PDF form; every tile stamps that form through a clipping
window, so the tiles are one drawing and match exactly where they overlap."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnp.config.game import Component
from pnp.config.deck import Card
from pnp.config.typed import lengths, where_of
from pnp.units import Length, mm

if TYPE_CHECKING:   # drawing code is imported where a piece is drawn: loading a game draws nothing
    from reportlab.pdfgen.canvas import Canvas

    from pnp.layout.template import CompiledLayout
    from pnp.impose import Tile
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext, ShopPieces


@dataclass(kw_only=True)
class BoardComponent(Component, kind="board"):
    """A large single piece (a game board, a field): tiled over home paper, whole for a shop."""

    layout: str
    data: str | None = None
    overlap: Length = field(default=Length.mm(12), metadata=lengths(
        0, mm(50), "overlap '{value}' must be a length from 0 to 50 mm (not a percentage)"))

    def reads(self) -> str | None:
        return self.data

    def layout_names(self) -> list[str]:
        return [self.layout]

    def pieces(self, ctx: BuildContext, side: str, bleed: float) -> tuple[CompiledLayout | None, list[Card]]:
        if side != "front":
            return None, []
        layout, card = compile_board(ctx, self)
        return layout, [card]

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        return render_board(ctx, self)

    def shop_pieces(self, ctx: BuildContext, bleed: float, safe: float) -> ShopPieces:
        from pnp.render import ShopPieces
        layout, card = compile_board(ctx, self)   # whole, without bleed: a board is cut by the shop as drawn
        return ShopPieces(self, layout, None, None, card=card)

    def cutting(self, duplex: str) -> str:
        return "trim and tape the tiles as the first page shows"


GUIDE = "#d0006f"   # alignment marks: a colour no board uses (reportlab reads the hex)


def compile_board(ctx: BuildContext, component: BoardComponent, bleed: float = 0.0) -> tuple[CompiledLayout, Card]:
    """The board's layout (its backgrounds run `bleed` past its edges) and the card that
    fills it (its data file's one card, if any)."""
    from pnp.layout.template import compile_layout
    deck = ctx.decks.get(component.id)
    layout = compile_layout(ctx.project.root, component.layout, component.where_is("layout"),
                            ctx.frame_args(deck, bleed))
    return layout, deck.cards[0] if deck is not None and deck.cards else Card()


def render_board(ctx: BuildContext, component: BoardComponent) -> list[OutputFile]:
    layout, card = compile_board(ctx, component)
    overlap = component.overlap.points
    title = f"{ctx.game.title}: {component.title or component.id}"
    font = ctx.project.fonts.family("text", where_of(None, "font")).face()
    bled = compile_board(ctx, component, ctx.options.bleed)[0] if ctx.options.bleed else layout
    return [home_tiles(ctx, component, bled, card, overlap, title, font),
            whole_board(component, layout, card, title, ctx.options.whole_variant)]


def whole_board(component: BoardComponent, layout: CompiledLayout, card: Card, title: str,
                variant: str = "") -> OutputFile:
    from pnp.outputs.pdf import finish, new_canvas
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (layout.width, layout.height), title + " (whole, for a print shop)")
    layout.draw(canvas, card)
    canvas.showPage()
    return finish(canvas, buffer, f"{component.id}-whole{variant}.pdf", role="whole")


def home_tiles(ctx: BuildContext, component: BoardComponent, layout: CompiledLayout, card: Card, overlap: float,
               title: str, font: str) -> OutputFile:
    """The board tiled over home paper. With a bleed the tiles cover the board and its bleed
    round it, and the marks stand on the board's own edges, the bleed's width inside."""
    from pnp.impose import PAPER_SIZES, tiled
    from pnp.outputs.pdf import finish, new_canvas
    bleed = ctx.options.bleed
    board = (layout.width + 2 * bleed, layout.height + 2 * bleed)
    paper, tiles = tiled(board, PAPER_SIZES[ctx.options.paper], overlap)   # landscape where that takes fewer
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, paper, title + " (tiled)")
    canvas.beginForm("board", lowerx=0, lowery=0, upperx=board[0], uppery=board[1])
    if bleed:
        canvas.translate(bleed, bleed)
    layout.draw(canvas, card)
    canvas.endForm()
    draw_assembly(canvas, paper, board, tiles, overlap, component.title or component.id, font)
    canvas.showPage()
    for tile in tiles:
        draw_tile(canvas, tile, tiles, board, paper, font, bleed)
        canvas.showPage()
    return finish(canvas, buffer, f"{component.id}-{ctx.options.paper}{ctx.options.variant}.pdf", role="home")


def draw_tile(canvas: Canvas, tile: Tile, tiles: list[Tile], board: tuple[float, float], paper: tuple[float, float],
              font: str, bleed: float = 0.0) -> None:
    """One sheet: the tile's window of the board, with the seams it shares with its neighbours
    drawn in board coordinates, so the marks on two neighbouring sheets fall on the same spot
    of the board; cut marks at the ends of the board's own edges, as on a sheet of cards."""
    from pnp.impose import MARK_WIDTH, tile_marks
    ox, oy = tile.origin
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(ox, oy, tile.width, tile.height)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(ox - tile.x, oy - tile.y)
    canvas.doForm("board")
    draw_seams(canvas, tile, tiles)
    canvas.restoreState()
    canvas.saveState()
    canvas.setLineWidth(MARK_WIDTH)
    canvas.setStrokeGray(0)
    canvas.lines(tile_marks(tile, board, paper, bleed))
    canvas.restoreState()
    draw_label(canvas, tile, len(tiles), board, paper, font, bleed)


def draw_label(canvas: Canvas, tile: Tile, count: int, board: tuple[float, float], paper: tuple[float, float],
               font: str, bleed: float = 0.0) -> None:
    """The sheet's name above its window, between the marks that rise from the board's left
    and right edges (clear of them; they stand `bleed` inside the window), smaller or without
    the hint where the window is narrow."""
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from pnp.impose import CLEAR
    ox, oy = tile.origin
    left = ox + (bleed if tile.x < 0.01 else 0.0) + 2 * CLEAR
    at_right_edge = tile.x + tile.width > board[0] - 0.01
    right = ox + tile.width - bleed - 2 * CLEAR if at_right_edge else paper[0] - ox
    name = f"Sheet {tile.label} of {count}"
    hint = "" if tile.col == 0 and tile.row == 0 else \
        " · cut along the dashed line, then lay this sheet over its neighbour with the crosses on its edge"
    text, size = name, 8.0
    for text, size in ((name + hint, 8.0), (name + hint, 6.0), (name, 8.0), (name, 5.0)):
        if stringWidth(text, font, size) <= right - left:
            break
    canvas.setFillColor((0, 0, 0))
    canvas.setFont(font, size)
    canvas.drawString(left, oy + tile.height + mm(1.8), text)


def seams(tiles: list[Tile]) -> tuple[dict[int, float], dict[int, float]]:
    """The middle of each shared strip, in board points: x between columns c-1 and c, y
    between rows r-1 and r."""
    first = {(t.col, t.row): t for t in tiles}
    xs = {c: (first[(c, 0)].x + first[(c - 1, 0)].x + first[(c - 1, 0)].width) / 2
          for c in {t.col for t in tiles} if c > 0}
    ys = {r: (first[(0, r - 1)].y + first[(0, r)].y + first[(0, r)].height) / 2
          for r in {t.row for t in tiles} if r > 0}
    return xs, ys


def draw_seams(canvas: Canvas, tile: Tile, tiles: list[Tile]) -> None:
    """Crosses on every seam this tile touches; a dashed cut line on its left and top seams
    (the strips it lays over its neighbours)."""
    xs, ys = seams(tiles)
    size = mm(3)
    canvas.setStrokeColor(GUIDE)
    canvas.setLineWidth(0.6)
    top, right = tile.y + tile.height, tile.x + tile.width
    for col, x in xs.items():
        if col in (tile.col, tile.col + 1):
            for y in (tile.y + tile.height * f for f in (0.25, 0.5, 0.75)):
                cross(canvas, x, y, size)
            if col == tile.col:
                canvas.setDash([4, 3])
                canvas.line(x, tile.y, x, top)
                canvas.setDash()
    for row, y in ys.items():
        if row in (tile.row, tile.row + 1):
            for x in (tile.x + tile.width * f for f in (0.25, 0.5, 0.75)):
                cross(canvas, x, y, size)
            if row == tile.row:
                canvas.setDash([4, 3])
                canvas.line(tile.x, y, right, y)
                canvas.setDash()


def cross(canvas: Canvas, x: float, y: float, size: float) -> None:
    canvas.line(x - size, y, x + size, y)
    canvas.line(x, y - size, x, y + size)


def draw_assembly(canvas: Canvas, paper: tuple[float, float], board: tuple[float, float], tiles: list[Tile],
                  overlap: float, name: str, font: str) -> None:
    """The first sheet: the whole board in miniature with every sheet's place on it."""
    width, height = paper
    margin = mm(15)
    scale = min((width - 2 * margin) / board[0], (height - 2 * margin - mm(30)) / board[1])
    bw, bh = board[0] * scale, board[1] * scale
    left, bottom = (width - bw) / 2, height - margin - mm(22) - bh
    canvas.setFont(font, 14)
    if len(tiles) == 1:   # nothing to join: the sheet and how to cut it
        canvas.drawString(margin, height - margin, f"{name}: on one sheet")
        canvas.setFont(font, 9)
        canvas.drawString(margin, height - margin - mm(7),
                          "Cut the board's own edges on the short black marks at each end of them.")
    else:
        canvas.drawString(margin, height - margin, f"{name}: how the {len(tiles)} sheets fit together")
        canvas.setFont(font, 9)
        canvas.drawString(margin, height - margin - mm(7),
                          f"Neighbouring sheets overlap by {overlap / mm(1):.0f} mm. Start with A1; trim each "
                          f"other sheet along its dashed line and lay it over")
        canvas.drawString(margin, height - margin - mm(11.5),
                          "the sheet to its left or above so the crosses meet, then tape from behind.")
        canvas.drawString(margin, height - margin - mm(16),
                          "Cut the board's own edges on the short black marks at each end of them.")
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
