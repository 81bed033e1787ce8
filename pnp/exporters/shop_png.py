"""Shop PNGs: one picture per distinct face and per distinct back, named by number and count
(`cards-001-front-x3.png`), and a board whole as one picture where the preset takes boards.

Every PNG is a picture of a page of a pieces PDF (pnp.render.distinct.pictures_of), so shop
files and home sheets are the same drawing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.errors import PnpError
from pnp.exporters.base import Exporter
from pnp.outputs.pdf import OutputFile
from pnp.render import ShopPieces
from pnp.render.distinct import back_key, distinct_backs, first_copies, pictures_of

if TYPE_CHECKING:
    from pnp.config.shop import ShopPreset
    from pnp.layout.template import PieceLayout
    from pnp.render import BuildContext


class PngExport(Exporter, format="png"):
    def cards(self, pieces: ShopPieces) -> list[OutputFile]:
        component, front, back, deck = pieces.component, pieces.front, pieces.back, pieces.deck
        assert deck is not None
        check_pixel_size(self.preset, component.id, front, self.bleed)
        cards = first_copies(deck)
        backs = distinct_backs(back, cards) if back is not None else []
        pages = [(front, card) for card in cards] + [(back, card) for card in backs if back is not None]
        back_numbers = {back_key(back, card): number for number, card in enumerate(backs, start=1)}
        images = pictures_of(pages, self.preset.dpi, f"{self.ctx.game.title}: {component.id}", self.bleed,
                             pieces.radius)   # the shop cuts round corners: show them
        folder = f"{self.preset.id}/{component.id}"
        files = []
        for number, (card, count, image) in enumerate(zip(cards, deck.counts, images), start=1):
            copies = f"-x{count}" if count > 1 else ""
            files.append(OutputFile(f"{folder}/{component.id}-{number:03d}-front{copies}.png", image))
            back_file = f"{component.id}/{component.id}-back-{back_numbers[back_key(back, card)]}.png" if back else ""
            self.rows.append([f"{component.id}/{component.id}-{number:03d}-front{copies}.png",
                              deck.shown_name(card), count, back_file])
        for number, image in enumerate(images[len(cards):], start=1):
            files.append(OutputFile(f"{folder}/{component.id}-back-{number}.png", image))
        return files

    def whole(self, pieces: ShopPieces) -> list[OutputFile]:
        if not self.preset.boards:
            return []
        component = pieces.component
        self.rows.append([f"{component.id}.png", component.title or component.id, 1, ""])
        return [whole_png(self.ctx, self.preset, pieces, self.preset.dpi)]


def whole_png(ctx: BuildContext, preset: ShopPreset, pieces: ShopPieces, dpi: float) -> OutputFile:
    """A whole piece (a board) as one picture, without bleed."""
    assert pieces.card is not None
    image = pictures_of([(pieces.front, pieces.card)], dpi, f"{ctx.game.title}: {pieces.component.id}")[0]
    return OutputFile(f"{preset.id}/{pieces.component.id}.png", image)


def check_pixel_size(preset: ShopPreset, component_id: str, front: PieceLayout, bleed: float) -> None:
    """A piece of a size the shop takes that comes out at other pixels would be rejected."""
    size = front.size_name
    if size not in preset.sizes:
        return
    got = [round((front.width + 2 * bleed) * preset.dpi / 72), round((front.height + 2 * bleed) * preset.dpi / 72)]
    if got != preset.sizes[size]:
        raise PnpError(f"{component_id}: {size} cards come out {got[0]}x{got[1]} px, but "
                       f"{preset.name} asks for {preset.sizes[size][0]}x{preset.sizes[size][1]} px")
