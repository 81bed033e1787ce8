"""Print-shop files for a game, by preset: PNGs per card face and back, or one PDF per deck.

Every PNG is a picture of a page of a pieces PDF (see pnp.outputs.pieces), so shop files and
home sheets are the same drawing."""

from __future__ import annotations

from pnp.config.deck import Card
from pnp.errors import PnpError
from pnp.outputs.pdf import OutputFile
from pnp.outputs.pieces import pieces_pdf
from pnp.outputs.raster import rasterise
from pnp.render.board import compile_board
from pnp.render.deck import compile_deck_layouts


def render_shop(ctx, preset) -> list[OutputFile]:
    files: list[OutputFile] = []
    bleed, safe = preset.bleed.points, preset.safe.points
    for component in ctx.game.components:
        if component.kind == "deck":
            front, back = compile_deck_layouts(ctx, component, bleed, safe)
            check_pixel_size(preset, component, front, bleed)
            deck = ctx.decks[component.id]
            if preset.format == "pdf":
                files.append(deck_pdf(ctx, preset, component, front, back, deck, bleed))
            else:
                files.extend(deck_pngs(ctx, preset, component, front, back, deck, bleed))
        elif component.kind == "board" and preset.boards and preset.format == "png":
            files.extend(board_png(ctx, preset, component))
    return files


def check_pixel_size(preset, component, front, bleed: float) -> None:
    """A preset lists the pixel sizes the shop asks for; a card that comes out otherwise means
    the preset or the card size is wrong, and the shop would reject the files."""
    size = front.size_name
    if preset.format != "png" or size not in preset.sizes:
        return
    got = [round((front.width + 2 * bleed) * preset.dpi / 72), round((front.height + 2 * bleed) * preset.dpi / 72)]
    if got != preset.sizes[size]:
        raise PnpError(f"{component.id}: {size} cards come out {got[0]}x{got[1]} px, but "
                       f"{preset.name} asks for {preset.sizes[size][0]}x{preset.sizes[size][1]} px")


def first_copies(deck) -> list[Card]:
    """One card for each distinct card, numbered as its first copy in the deck."""
    cards, seen = [], 0
    expanded = deck.expanded()
    for count in deck.counts:
        cards.append(expanded[seen])
        seen += count
    return cards


def distinct_backs(back, cards: list[Card]) -> list[Card]:
    """One card for each different back: backs differ only by the fields their layout uses."""
    found: dict[tuple, Card] = {}
    for card in cards:
        found.setdefault(tuple(str(card.get(name)) for name in sorted(back.fields)), card)
    return list(found.values())


def deck_pngs(ctx, preset, component, front, back, deck, bleed) -> list[OutputFile]:
    cards = first_copies(deck)
    pages = [(front, card) for card in cards]
    backs = distinct_backs(back, cards) if back is not None else []
    pages += [(back, card) for card in backs]
    pdf = pieces_pdf(pages, bleed, f"{ctx.game.title}: {component.id}", "pieces.pdf")
    images = rasterise(pdf.data, preset.dpi)
    folder = f"{preset.id}/{component.id}"
    files = []
    for number, (card, count, image) in enumerate(zip(cards, deck.counts, images), start=1):
        copies = f"-x{count}" if count > 1 else ""
        files.append(OutputFile(f"{folder}/{component.id}-{number:03d}-front{copies}.png", image))
    for number, image in enumerate(images[len(cards):], start=1):
        files.append(OutputFile(f"{folder}/{component.id}-back-{number}.png", image))
    return files


def deck_pdf(ctx, preset, component, front, back, deck, bleed) -> OutputFile:
    pages = []
    for card in deck.expanded():
        pair = [(front, card)] if back is None else \
            ([(back, card), (front, card)] if preset.order == "back-front" else [(front, card), (back, card)])
        pages.extend(pair)
    return pieces_pdf(pages, bleed, f"{ctx.game.title}: {component.title or component.id} ({preset.name})",
                      f"{preset.id}/{component.id}.pdf")


def board_png(ctx, preset, component) -> list[OutputFile]:
    layout, card = compile_board(ctx, component)
    pdf = pieces_pdf([(layout, card)], 0.0, f"{ctx.game.title}: {component.id}", "board.pdf")
    return [OutputFile(f"{preset.id}/{component.id}.png", rasterise(pdf.data, preset.dpi)[0])]
