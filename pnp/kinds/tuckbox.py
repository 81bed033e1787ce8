"""The `tuckbox` kind (`TuckboxComponent`, the check of the decks it names): a box to keep each printed deck in, sized from the deck.

The inside is the card's width and height plus clearance, and as deep as the cards are thick
(the deck's total times a card's thickness, 0.3 mm by default, plus clearance; a card with a
back folded or glued to it, `--duplex fold` or `none`, is twice as thick). The net is a
row of panels, back | side | front | side | glue flap, with a tuck-in lid above the back and
a tuck-in bottom below the front, and dust flaps on the sides. The deck's back art is drawn on
the front and back panels, the game's title and the deck's name on both sides. Cut lines are
solid, fold lines dashed, glue flaps marked GLUE. The net goes on one sheet (turned if that
helps); one too big for a sheet is split after the first side, with a glue tab to join it."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pnp.config.game import Component, Game
from pnp.config.typed import lengths
from pnp.errors import did_you_mean, known
from pnp.units import Length, mm
from pnp.kinds.deck import DeckComponent, compile_deck_layouts

if TYPE_CHECKING:   # drawing code is imported where a piece is drawn: loading a game draws nothing
    from collections.abc import Callable, Sequence

    from reportlab.pdfgen.canvas import Canvas

    from pnp.config.deck import Card
    from pnp.layout.template import CompiledLayout
    from pnp.outputs.pieces import Piece

    Paper = tuple[float, float]
    Say = Callable[[str], str]   # pnp's own words in the build's language
    from pnp.config.deck import Deck
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext


@dataclass(kw_only=True)
class TuckboxComponent(Component, kind="tuckbox"):
    """A tuck box for each deck named (every deck of the game if none), sized from it."""

    decks: list[str] = field(default_factory=list)
    thickness: Length = field(default=Length.mm(0.3), metadata=lengths(   # of one card
        mm(0.05), mm(5), "thickness '{value}' must be one card's thickness, from 0.05 to 5 mm (not a percentage)"))
    clearance: Length = field(default=Length.mm(1), metadata=lengths(     # added to the cards' width, height and stack
        0, mm(10), "clearance '{value}' must be a length from 0 to 10 mm (not a percentage)"))

    def check(self, game: Game, decks: dict[str, Deck]) -> None:
        named = [c.id for c in game.components if c.is_deck]
        for deck_id in self.decks:
            if deck_id not in named:
                raise self.where_is("decks").error(f"'{deck_id}' is not a deck of this game",
                                                   hint=did_you_mean(deck_id, named) or f"its decks: {known(named)}")

    def deck_view(self, game: Game, decks: dict[str, Deck]) -> str | None:
        # a box is as deep as its deck is thick, with the deck's back drawn for its first card
        boxed = self.decks or [c.id for c in game.components if c.is_deck]
        return repr([(deck_id, decks[deck_id].total, decks[deck_id].fields, first_card(decks[deck_id]))
                     for deck_id in boxed if deck_id in decks and decks[deck_id].total])

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        return render_tuckboxes(ctx, self)

    def cutting(self, duplex: str) -> str:
        return "cut on the solid lines, fold on the dashed ones, glue the grey flaps"


def first_card(deck: Deck) -> list[tuple[str, object]]:
    """The values of the deck's first card (the one whose back the box shows)."""
    return sorted(next(card for card, count in zip(deck.cards, deck.counts) if count).items())


Line = tuple[float, float, float, float]   # a cut or fold line: (x1, y1, x2, y2)
GLUE = mm(8)     # the glue flap down the side
TAB = mm(10)     # the glue tab that joins a net split over two sheets
FOLD_DASH = [3, 2]
ART_BLEED = mm(1)   # the deck art runs past its panel's cut lines and folds by this much


@dataclass(frozen=True)
class Box:
    """The inside of the box, in points: width and height of the cards, depth of the stack."""

    width: float
    height: float
    depth: float

    @property
    def tuck(self) -> float:   # the tongue that tucks the lid in
        return min(mm(15), self.height / 4)

    @property
    def net(self) -> tuple[float, float]:
        return 2 * self.width + 2 * self.depth + GLUE, self.height + 2 * (self.depth + self.tuck)


MIN_DEPTH = mm(6)   # a spine narrower than this holds no name one can read (six cards: 2.8 mm)


def box_for(front: Piece, cards: int, thickness: float, clearance: float) -> Box:
    """The box for `cards` cards of this size, at least MIN_DEPTH deep."""
    return Box(front.width + clearance, front.height + clearance, max(cards * thickness + clearance, MIN_DEPTH))


def render_tuckboxes(ctx: BuildContext, component: TuckboxComponent) -> list[OutputFile]:
    from pnp.impose import HOME_PAPERS, PAPER_SIZES
    from pnp.outputs.pdf import finish, new_canvas
    options = ctx.options
    paper = PAPER_SIZES[options.paper]
    one_sheet, clearance = component.thickness.points, component.clearance.points
    decks = component.decks or [c.id for c in ctx.game.components if c.is_deck]
    font = ctx.project.fonts.family("display", component.origin).face()
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, paper, f"{ctx.game.title}: {component.title or 'tuck boxes'}")
    drawn = 0
    for deck_id in decks:
        deck_component = next((c for c in ctx.game.components
                               if c.id == deck_id and isinstance(c, DeckComponent)), None)
        if deck_component is None:
            raise component.where_is("decks").error(f"'{deck_id}' is not a deck of this game")
        # the art's background runs past the panel's cut lines and folds, so a cut or a fold a
        # hair off shows no white edge on the box (a layout's size is its trim's, whatever its bleed)
        front, back = compile_deck_layouts(ctx, deck_component, clearance / 2 + ART_BLEED)
        deck = ctx.decks[deck_id]
        # a card with a back folded or glued to it is two sheets thick
        thickness = one_sheet * (2 if back is not None and options.duplex in ("fold", "none") else 1)
        box = box_for(front, deck.total, thickness, clearance)
        if not component.decks and not all(fits(box_for(front, 1, thickness, clearance), PAPER_SIZES[name])
                                           for name in HOME_PAPERS):
            # by default a deck gets a box when its pieces fit one on either home paper, so the
            # boxes (and the print-all file) are the same on Letter and A4: Big Ten's end zones
            # fit a box on A4 alone
            continue
        if not fits(box, paper):
            if fits(box_for(front, 1, thickness, clearance), paper):
                # the pieces would fit: the stack is too deep, which the designer cannot mean
                most = most_cards(front, thickness, clearance, paper)
                raise component.where_is("thickness").error(
                    f"{deck_id}: {deck.total} cards make a tuck box {box.depth / mm(1):.0f} mm deep, too big for "
                    f"{options.paper} paper even over two sheets; at most {most} cards fit one box",
                    hint="leave this deck out of the box with `decks:`, or set a smaller `thickness`")
            message = (f"{deck_id}: {front.width / mm(1):.0f} x {front.height / mm(1):.0f} mm pieces make a tuck "
                       f"box too big for {options.paper} paper, even over two sheets")
            if component.decks:   # asked for by name: an error
                raise component.where_is("decks").error(message)
            continue   # by default: pieces no box holds (Big Ten's end zones) get none
        art = (back or front, deck.expanded()[0])
        draw_net(canvas, paper, box, art, ctx.game.title, deck_component.title or deck_id, font,
                 ctx.translation.label if ctx.translation is not None else str)
        drawn += 1
    if not drawn:   # a PDF of no pages is no file to print (and no PDF reader opens it)
        raise component.where_is("kind").error(
            f"no deck of this game has pieces a tuck box on {options.paper} paper can hold",
            hint="remove the tuckbox component")
    return [finish(canvas, buffer, f"{component.id}-{options.paper}{options.variant}.pdf", role="home")]


def most_cards(front: Piece, thickness: float, clearance: float, paper: Paper) -> int:
    """The most cards whose box still fits the paper (at least one does)."""
    low, high = 1, 1
    while fits(box_for(front, high * 2, thickness, clearance), paper) and high < 10**6:
        high *= 2
    high *= 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(box_for(front, middle, thickness, clearance), paper) else (low, middle)
    return low


def fits(box: Box, paper: Paper) -> bool:
    """Whether the net goes on a sheet, turned or not, whole or in its two parts."""
    width, height = box.net
    parts = [(width, height), (box.width + box.depth + TAB, height), (width - box.width - box.depth, height)]
    return placeable(parts[0], paper) or all(placeable(part, paper) for part in parts[1:])


def placeable(size: tuple[float, float], paper: Paper) -> bool:
    from pnp.impose import UNPRINTABLE
    room = (paper[0] - 2 * UNPRINTABLE, paper[1] - 2 * UNPRINTABLE)
    return (size[0] <= room[0] and size[1] <= room[1]) or (size[1] <= room[0] and size[0] <= room[1])


def draw_net(canvas: Canvas, paper: Paper, box: Box, art: tuple[CompiledLayout, Card], title: str, name: str, font: str,
             say: Say = str) -> None:
    """The net on one sheet (turned a quarter if that fits), or split over two."""
    from pnp.impose import UNPRINTABLE
    room = (paper[0] - 2 * UNPRINTABLE, paper[1] - 2 * UNPRINTABLE)
    width, height = box.net
    for turned in (False, True):
        w, h = (height, width) if turned else (width, height)
        if w <= room[0] and h <= room[1]:
            canvas.saveState()
            if turned:   # the net's left edge runs up the sheet
                canvas.translate((paper[0] + w) / 2, (paper[1] - h) / 2)
                canvas.rotate(90)
            else:
                canvas.translate((paper[0] - w) / 2, (paper[1] - h) / 2)
            panels(canvas, box, art, title, name, range(5), font, say=say)
            canvas.restoreState()
            canvas.showPage()
            return
    first = box.width + box.depth + TAB    # back and a side, then the tab
    for part, (keep, shift) in enumerate(((range(2), 0.0), (range(2, 5), box.width + box.depth))):
        canvas.saveState()
        part_width = first if part == 0 else width - box.width - box.depth
        if part_width <= room[0] and height <= room[1]:
            canvas.translate((paper[0] - part_width) / 2 - shift, (paper[1] - height) / 2)
        else:   # turned on the sheet
            canvas.translate((paper[0] + height) / 2, (paper[1] - part_width) / 2 - shift)
            canvas.rotate(90)
        panels(canvas, box, art, title, name, keep, font, tab=part == 0, say=say)
        canvas.restoreState()
        canvas.showPage()


def panels(canvas: Canvas, box: Box, art: tuple[CompiledLayout, Card], title: str, name: str, keep: Sequence[int],
           font: str, tab: bool = False, say: Say = str) -> None:
    """Draw the panels numbered in `keep` (0 back, 1 side, 2 front, 3 side, 4 glue flap),
    the net's bottom-left at the origin."""
    W, H, D, T = box.width, box.height, box.depth, box.tuck
    y0 = D + T                        # the body's bottom edge
    xs = [0.0, W, W + D, 2 * W + D, 2 * W + 2 * D, 2 * W + 2 * D + GLUE]
    cut: list[Line] = []              # lines: (x1, y1, x2, y2)
    fold: list[Line] = []
    layout, card = art
    for index in keep:
        left, right = xs[index], xs[index + 1]
        if index in (0, 2):           # the back and front: the deck's back art, a lid or bottom
            draw_art(canvas, layout, card, left, y0, W, H)
            if index == 0:            # the lid and its tongue above the back
                fold += [(left, y0 + H, right, y0 + H), (left, y0 + H + D, right, y0 + H + D)]
                cut += outline([(left, y0 + H), (left, y0 + H + D + T * 0.6), (left + T * 0.4, y0 + H + D + T),
                                (right - T * 0.4, y0 + H + D + T), (right, y0 + H + D + T * 0.6), (right, y0 + H)])
                cut += [(left, y0, left, y0 + H), (left, y0, right, y0)]
            else:                     # the bottom and its tongue below the front
                fold += [(left, y0, right, y0), (left, y0 - D, right, y0 - D)]
                cut += outline([(left, y0), (left, y0 - D - T * 0.6), (left + T * 0.4, y0 - D - T),
                                (right - T * 0.4, y0 - D - T), (right, y0 - D - T * 0.6), (right, y0)])
                cut += [(left, y0 + H, right, y0 + H)]
                thumb(canvas, left + W / 2, y0 + H, min(mm(10), W / 4))
            if index == 2:            # a fold from the side before it; on a split net's second sheet, its edge
                (fold if 1 in keep else cut).append((left, y0, left, y0 + H))
        elif index in (1, 3):         # the sides: dust flaps, the title and deck name
            spine(canvas, left, y0, D, H, title, name, font)
            fold += [(left, y0, left, y0 + H), (left, y0 + H, right, y0 + H), (left, y0, right, y0)]
            flap = D * 0.85
            cut += outline([(left, y0 + H), (left + D * 0.15, y0 + H + flap), (right, y0 + H + flap), (right, y0 + H)])
            cut += outline([(left, y0), (left + D * 0.15, y0 - flap), (right, y0 - flap), (right, y0)])
        else:                         # the glue flap, glued inside the back
            fold.append((left, y0, left, y0 + H))
            cut += outline([(left, y0), (right, y0 + mm(4)), (right, y0 + H - mm(4)), (left, y0 + H)])
            glue_label(canvas, left, y0, GLUE, H, font, say)
    if tab:                           # a split net: the tab the second sheet's front is glued on
        left = xs[2]
        fold.append((left, y0, left, y0 + H))
        cut += outline([(left, y0), (left + TAB, y0 + mm(4)), (left + TAB, y0 + H - mm(4)), (left, y0 + H)])
        glue_label(canvas, left, y0, TAB, H, font, say)
    canvas.saveState()
    canvas.setLineWidth(0.6)
    canvas.setStrokeGray(0)
    canvas.lines(cut)
    canvas.setStrokeGray(0.45)
    canvas.setDash(FOLD_DASH)
    canvas.lines(fold)
    canvas.restoreState()


def outline(points: Sequence[tuple[float, float]]) -> list[Line]:
    return [(x1, y1, x2, y2) for (x1, y1), (x2, y2) in zip(points, points[1:])]


def draw_art(canvas: Canvas, layout: CompiledLayout, card: Card, x: float, y: float, w: float, h: float) -> None:
    """The deck's back, centred on the panel (the panel has the clearance to spare), its
    background filling the panel and ART_BLEED past each edge."""
    canvas.saveState()
    edge = canvas.beginPath()
    edge.rect(x - ART_BLEED, y - ART_BLEED, w + 2 * ART_BLEED, h + 2 * ART_BLEED)
    canvas.clipPath(edge, stroke=0, fill=0)
    canvas.translate(x + (w - layout.width) / 2, y + (h - layout.height) / 2)
    layout.draw(canvas, card)
    canvas.restoreState()


def thumb(canvas: Canvas, cx: float, top: float, radius: float) -> None:
    """The half-circle cut at the front's top edge, to pull the cards out by."""
    canvas.saveState()
    canvas.setLineWidth(0.6)
    canvas.setStrokeGray(0)
    path = canvas.beginPath()
    path.arc(cx - radius, top - radius, cx + radius, top + radius, startAng=180, extent=180)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def spine(canvas: Canvas, x: float, y: float, depth: float, height: float, title: str, name: str, font: str) -> None:
    from pnp.layout.text import has_rtl
    canvas.saveState()
    canvas.translate(x + depth / 2, y + height / 2)
    canvas.rotate(90)
    from reportlab.pdfbase.pdfmetrics import stringWidth
    text = f"{title}: {name}"
    if has_rtl(text):
        spine_rtl(canvas, text, depth, height, font)
        canvas.restoreState()
        return
    # as large as the spine allows: a third of its width, and the whole text within its length
    size = min(11.0, depth * 0.35, height * 0.9 / max(stringWidth(text, font, 1), 1))
    canvas.setFillGray(0.15)
    canvas.setFont(font, size)
    canvas.drawCentredString(0, -size * 0.35, text)
    canvas.restoreState()


def spine_rtl(canvas: Canvas, text: str, depth: float, height: float, font: str) -> None:
    """The spine's words in a right-to-left script: shaped, in visual order, with the fallback
    fonts that have its letters (a translated build, pnp.lang)."""
    from pnp.fonts import fallbacks_for
    from pnp.layout.runs import lay_out
    from pnp.layout.text import to_markup
    fallbacks = fallbacks_for(font, text)
    markup = to_markup(text)
    unbounded = lay_out(markup, font, fallbacks, (), 1.0, 1.2, "262626", "center", 1e9, 1e9)
    assert unbounded is not None   # None only when the lines overflow a height: 1e9 never is
    natural = unbounded.widths[0]
    size = min(11.0, depth * 0.35, height * 0.9 / max(natural, 1))
    lines = lay_out(markup, font, fallbacks, (), size, 1.2, "262626", "center", natural * size + 1, 1e9)
    assert lines is not None
    lines.drawOn(canvas, -lines.width / 2, -size * 0.35 - size * 0.2)


def glue_label(canvas: Canvas, x: float, y: float, width: float, height: float, font: str, say: Say = str) -> None:
    from pnp.layout.text import has_rtl
    canvas.saveState()
    canvas.setFillGray(0.85)
    canvas.rect(x, y + mm(4), width, height - mm(8), stroke=0, fill=1)
    canvas.setFillGray(0.35)
    canvas.translate(x + width / 2, y + height / 2)
    canvas.rotate(90)
    word = say("GLUE")
    if has_rtl(word):
        from pnp.fonts import fallbacks_for
        from pnp.layout.runs import lay_out
        from pnp.layout.text import escape_text
        lines = lay_out(escape_text(word), font, fallbacks_for(font, word), (), 7, 1.2, "595959", "center",
                        height, 1e9, force=True)
        if lines is not None:
            lines.drawOn(canvas, -height / 2, -2.5 - 7 * 0.2)
    else:
        canvas.setFont(font, 7)
        canvas.drawCentredString(0, -2.5, word)
    canvas.restoreState()
