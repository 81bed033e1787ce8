"""Print-shop files for a game, by preset: PNGs per card face and back, or one PDF per deck.

Every PNG is a picture of a page of a pieces PDF (see pnp.outputs.pieces), so shop files and
home sheets are the same drawing."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

from pnp.errors import PnpError
from pnp.outputs.pdf import OutputFile
from pnp.outputs.pieces import pieces_pdf
from pnp.outputs.raster import rasterise, rounded
from pnp.kinds.board import compile_board
from pnp.kinds.deck import compile_deck_layouts, corner_radius
from pnp.render.distinct import back_key, distinct_backs, first_copies
from pnp.exporters.tts import is_card, save_file, tile, tts_deck, tts_pieces
from pnp.exporters.ttp import ttp_deck


def render_shop(ctx, preset) -> list[OutputFile]:
    order = ShopOrder(ctx, preset)
    for component in ctx.game.components:
        order.starts.append((len(order.files), component.id))
        component.for_shop(order)   # decks and boards add their files; other kinds print at home
    files = owned(order.files, order.starts)
    if preset.format == "tts":
        files.append(save_file(preset, ctx.game.title, order.tts_objects))
    files.append(manifest(preset, order.rows))
    return files


class ShopOrder:
    """The files of one game for one shop, as its components add them."""

    def __init__(self, ctx, preset):
        self.ctx, self.preset = ctx, preset
        self.files: list[OutputFile] = []
        self.rows: list[list] = []   # the manifest: which file is which card, how many, its back
        self.tts_objects: list[dict] = []
        self.starts: list[tuple[int, str]] = []   # where each component's files begin in `files`
        self.bleed, self.safe = preset.bleed.points, preset.safe.points

    def add_deck(self, component) -> None:
        ctx, preset, files, bleed = self.ctx, self.preset, self.files, self.bleed
        front, back = compile_deck_layouts(ctx, component, bleed, self.safe)
        refused = size_refused(preset, front)
        if refused:   # the rest of the game still goes to the shop; this piece prints at home
            ctx.project.diagnostics.warn(str(component._where.error(
                f"{refused}: {component.id} is left out of the {preset.id}/ files")))
            return
        check_pixel_size(preset, component, front, bleed)
        deck = ctx.decks[component.id]
        if preset.format == "ttp":
            if is_card(front):   # other pieces: not yet (see docs/print-guide.md)
                files.extend(ttp_deck(ctx, preset, component, front, back, deck))
        elif preset.format == "tts" and not is_card(front):   # end zones, tokens: tiles
            pieces, objects = tts_pieces(ctx, preset, component, front, deck)
            files.extend(pieces)
            self.tts_objects.extend(objects)
        elif preset.format == "tts":
            sheets, obj = tts_deck(ctx, preset, component, front, back, deck,
                                   first=1 + sum(len(o.get("CustomDeck", {})) for o in self.tts_objects))
            files.extend(sheets)
            self.tts_objects.append(obj)
        elif preset.format == "pdf":
            files.append(deck_pdf(ctx, preset, component, front, back, deck, bleed, self.rows))
        else:
            files.extend(deck_pngs(ctx, preset, component, front, back, deck, bleed, self.rows))

    def add_board(self, component) -> None:
        ctx, preset = self.ctx, self.preset
        if preset.boards and preset.format == "png":
            self.files.extend(board_png(ctx, preset, component))
            self.rows.append([f"{component.id}.png", component.title or component.id, 1, ""])
        elif preset.format == "tts":   # the board as a tile
            layout, _ = compile_board(ctx, component)
            self.files.extend(board_png(ctx, preset, component, dpi=min(preset.dpi, 100)))
            self.tts_objects.append(tile(f"{component.id}.png", component.title or component.id,
                                         layout.width, layout.height))


def owned(files: list[OutputFile], starts: list[tuple[int, str]]) -> list[OutputFile]:
    """Each file marked with the component it was made for, so that the files of a component
    later removed from the game are removed from the output folder too."""
    ends = [start for start, _ in starts[1:]] + [len(files)]
    return [replace(file, component=component)
            for (start, component), end in zip(starts, ends) for file in files[start:end]]


def manifest(preset, rows: list[list]) -> OutputFile:
    """manifest.csv beside the shop files: file (relative to it), card name, quantity, back."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["file", "card", "quantity", "back"])
    writer.writerows(rows)
    return OutputFile(f"{preset.id}/manifest.csv", text.getvalue().encode())


def size_refused(preset, front) -> str | None:
    """Why the shop would not print pieces of this size, or None: a preset lists the sizes
    it takes (one that lists none takes any)."""
    size = front.size_name
    if not preset.sizes or size in preset.sizes or (size == "custom" and preset.custom):
        return None
    what = f"{front.width / 72 * 25.4:.1f} x {front.height / 72 * 25.4:.1f} mm" if size == "custom" else size
    return (f"{preset.name} does not print {what} pieces; it takes {', '.join(preset.sizes)}"
            + (" or a size of the layout's own" if preset.custom else ""))


def check_pixel_size(preset, component, front, bleed: float) -> None:
    """A piece of a size the shop takes that comes out at other pixels would be rejected."""
    size = front.size_name
    if preset.format != "png" or size not in preset.sizes:
        return
    got = [round((front.width + 2 * bleed) * preset.dpi / 72), round((front.height + 2 * bleed) * preset.dpi / 72)]
    if got != preset.sizes[size]:
        raise PnpError(f"{component.id}: {size} cards come out {got[0]}x{got[1]} px, but "
                       f"{preset.name} asks for {preset.sizes[size][0]}x{preset.sizes[size][1]} px")


def deck_pngs(ctx, preset, component, front, back, deck, bleed, rows: list[list]) -> list[OutputFile]:
    cards = first_copies(deck)
    pages = [(front, card) for card in cards]
    backs = distinct_backs(back, cards) if back is not None else []
    pages += [(back, card) for card in backs]
    back_numbers = {back_key(back, card): number for number, card in enumerate(backs, start=1)}
    pdf = pieces_pdf(pages, bleed, f"{ctx.game.title}: {component.id}", "pieces.pdf")
    images = rasterise(pdf.data, preset.dpi)
    radius = corner_radius(component)
    if radius:   # the shop cuts round corners: show them, the bleed rounding with the trim
        images = [rounded(image, (radius + bleed) * preset.dpi / 72) for image in images]
    folder = f"{preset.id}/{component.id}"
    files = []
    for number, (card, count, image) in enumerate(zip(cards, deck.counts, images), start=1):
        copies = f"-x{count}" if count > 1 else ""
        files.append(OutputFile(f"{folder}/{component.id}-{number:03d}-front{copies}.png", image))
        back_file = f"{component.id}/{component.id}-back-{back_numbers[back_key(back, card)]}.png" if back else ""
        rows.append([f"{component.id}/{component.id}-{number:03d}-front{copies}.png", card.label, count, back_file])
    for number, image in enumerate(images[len(cards):], start=1):
        files.append(OutputFile(f"{folder}/{component.id}-back-{number}.png", image))
    return files


def deck_pdf(ctx, preset, component, front, back, deck, bleed, rows: list[list]) -> OutputFile:
    pages = []
    for card in deck.expanded():
        pair = [(front, card)] if back is None else \
            ([(back, card), (front, card)] if preset.order == "back-front" else [(front, card), (back, card)])
        pages.extend(pair)
    # one row per distinct card: the pages of its first copy
    page = 1
    for card, count in zip(first_copies(deck), deck.counts):
        front_page = page + (1 if back is not None and preset.order == "back-front" else 0)
        back_page = "" if back is None else f"page {front_page - 1 if preset.order == 'back-front' else front_page + 1}"
        rows.append([f"{component.id}.pdf page {front_page}", card.label, count, back_page])
        page += count * (2 if back is not None else 1)
    return pieces_pdf(pages, bleed, f"{ctx.game.title}: {component.title or component.id} ({preset.name})",
                      f"{preset.id}/{component.id}.pdf", pdfx=preset.pdfx)


def board_png(ctx, preset, component, dpi: float | None = None) -> list[OutputFile]:
    layout, card = compile_board(ctx, component)
    pdf = pieces_pdf([(layout, card)], 0.0, f"{ctx.game.title}: {component.id}", "board.pdf")
    return [OutputFile(f"{preset.id}/{component.id}.png", rasterise(pdf.data, dpi or preset.dpi)[0])]
