"""One toy of each kind of plug-in, from outside pnp's own modules: a component kind, an
element kind, a rule kind and an export format. Importing this module registers them all
(tests/test_plugins.py imports it, builds with them and unregisters them after)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib.colors import HexColor

from pnp.config.game import Component
from pnp.config.rules import Rule
from pnp.exporters.base import Exporter
from pnp.layout.elements import Drawer, Element, PieceContext
from pnp.outputs.pdf import OutputFile, finish, new_canvas
from pnp.render import BuildContext, ShopPieces
from pnp.units import mm


@dataclass(kw_only=True)
class StickerComponent(Component, kind="sticker"):
    """A page with one line of words, printed at home and joined into the print-all file."""

    words: str

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        buffer = io.BytesIO()
        canvas = new_canvas(buffer, (mm(100), mm(50)), self.id)
        canvas.setFont(ctx.project.fonts.family("text", self.where_is("words")).face(), 12)
        canvas.drawString(mm(10), mm(25), self.words)
        canvas.showPage()
        return [finish(canvas, buffer, f"{self.id}-{ctx.options.paper}{ctx.options.variant}.pdf", role="home")]


@dataclass(kw_only=True)
class BadgeSpec(Element, kind="badge"):
    """A filled circle in the middle of its box."""

    colour: str = "#ff0000"

    def compile(self, piece: PieceContext) -> Drawer:
        return BadgeDrawer(self.box(piece), HexColor(self.colour))


class BadgeDrawer(Drawer):
    def __init__(self, box: tuple[float, float, float, float], colour):
        self.box, self.colour = box, colour

    def draw(self, canvas, card) -> None:
        x, y, w, h = self.box
        canvas.setFillColor(self.colour)
        canvas.circle(x + w / 2, y + h / 2, min(w, h) / 2, stroke=0, fill=1)


@dataclass(kw_only=True)
class MultipleOfRule(Rule, kind="multiple-of"):
    """The deck's cards can be dealt out evenly to this many players."""

    of: int

    def check(self, deck) -> list[str]:
        if deck.total % self.of:
            return [f"{deck.total} cards do not deal out evenly to {self.of}; {self.cited()} say they must"]
        return []


class CardListExport(Exporter, format="card-list"):
    """A text file per deck: each distinct card's label and how many."""

    def cards(self, pieces: ShopPieces) -> list[OutputFile]:
        assert pieces.deck is not None
        lines = [f"{card.label} x{count}" for card, count in zip(pieces.deck.cards, pieces.deck.counts)]
        self.rows.append([f"{pieces.component.id}.txt", pieces.component.id, pieces.deck.total, ""])
        return [OutputFile(f"{self.preset.id}/{pieces.component.id}.txt", ("\n".join(lines) + "\n").encode())]


REGISTERED = [(Component.kinds, "sticker"), (Element.kinds, "badge"), (Rule.kinds, "multiple-of"),
              (Exporter.formats, "card-list")]
