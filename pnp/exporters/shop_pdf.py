"""Shop PDFs: one PDF per deck, every copy of every card a page (with its back before or after
it, as the preset's `order` says), trim and bleed boxes set; PDF/X-1a where the shop asks."""

from __future__ import annotations

from pnp.exporters.base import Exporter
from pnp.outputs.pdf import OutputFile
from pnp.outputs.pieces import pieces_pdf
from pnp.render import ShopPieces
from pnp.render.distinct import first_copies


class PdfExport(Exporter, format="pdf"):
    def cards(self, pieces: ShopPieces) -> list[OutputFile]:
        component, front, back, deck = pieces.component, pieces.front, pieces.back, pieces.deck
        assert deck is not None
        back_first = self.preset.order == "back-front"
        pages = []
        for card in deck.expanded():
            pair = [(front, card)] if back is None else \
                ([(back, card), (front, card)] if back_first else [(front, card), (back, card)])
            pages.extend(pair)
        page = 1   # one row per distinct card: the pages of its first copy
        for card, count in zip(first_copies(deck), deck.counts):
            front_page = page + (1 if back is not None and back_first else 0)
            back_page = "" if back is None else f"page {front_page - 1 if back_first else front_page + 1}"
            self.rows.append([f"{component.id}.pdf page {front_page}", deck.shown_name(card), count, back_page])
            page += count * (2 if back is not None else 1)
        return [pieces_pdf(pages, self.bleed,
                           f"{self.ctx.game.title}: {component.title or component.id} ({self.preset.name})",
                           f"{self.preset.id}/{component.id}.pdf", pdfx=self.preset.pdfx)]
