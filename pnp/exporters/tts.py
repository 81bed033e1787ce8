"""Tabletop Simulator decks: face sheets, backs and a saved-object JSON (tts.json).

TTS cuts a deck image into NumWidth x NumHeight cells; the last cell is kept for the card
shown while hidden, so a sheet holds at most 69 cards. TTS refuses images over 4096 px a side,
so the cards are drawn at the best resolution at which the sheet fits."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from PIL import Image

from pnp.exporters.base import Exporter
from pnp.outputs.pdf import OutputFile
from pnp.render import ShopPieces
from pnp.render.distinct import back_key, distinct_backs, first_copies, pictures_of

if TYPE_CHECKING:
    from pnp.config.deck import Card, Deck
    from pnp.config.game import Component
    from pnp.config.shop import ShopPreset
    from pnp.layout.template import PieceLayout
    from pnp.render import BuildContext

Json = dict[str, Any]   # an object of the saved table, as TTS reads it

MAX_COLUMNS, MAX_ROWS, MAX_PIXELS = 10, 7, 4096


class TtsExport(Exporter, format="tts"):
    """Decks of cards as sheets, other pieces and boards as tiles, all in one tts.json."""

    def __init__(self, ctx: BuildContext, preset: ShopPreset) -> None:
        super().__init__(ctx, preset)
        self.objects: list[Json] = []

    def cards(self, pieces: ShopPieces) -> list[OutputFile]:
        ctx, preset, component, deck = self.ctx, self.preset, pieces.component, pieces.deck
        assert deck is not None
        if not is_card(pieces.front):   # end zones, tokens: tiles
            files, objects = tts_pieces(ctx, preset, component, pieces.front, deck, self.rows)
            self.objects.extend(objects)
            return files
        first = 1 + sum(len(o.get("CustomDeck", {})) for o in self.objects)
        sheets, obj = tts_deck(ctx, preset, component, pieces.front, pieces.back, deck, first=first, manifest=self.rows)
        self.objects.append(obj)
        return sheets

    def whole(self, pieces: ShopPieces) -> list[OutputFile]:
        from pnp.exporters.shop_png import whole_png
        component = pieces.component
        self.objects.append(tile(f"{component.id}.png", component.title or component.id,
                                 pieces.front.width, pieces.front.height))
        self.rows.append([f"{component.id}.png", component.title or component.id, 1, ""])
        return [whole_png(self.ctx, self.preset, pieces, min(self.preset.dpi, 100))]

    def finish(self) -> list[OutputFile]:
        return [save_file(self.preset, self.ctx.game.title, self.objects)]


def grid(cards: int) -> tuple[int, int]:
    """Columns and rows for a sheet of this many cards plus the hidden-card cell."""
    cells = min(cards + 1, MAX_COLUMNS * MAX_ROWS)
    columns = min(MAX_COLUMNS, max(2, cells))
    return columns, math.ceil(cells / columns)


def sheet_dpi(preset: ShopPreset, front: PieceLayout, columns: int, rows: int) -> int:
    """The preset's resolution, or less so that the sheet stays within 4096 px a side
    (pdfium rounds each card's pixels up, so the check rounds up too)."""
    def fits(dpi: int) -> bool:
        return (math.ceil(front.width * dpi / 72) * columns <= MAX_PIXELS
                and math.ceil(front.height * dpi / 72) * rows <= MAX_PIXELS)
    dpi = preset.dpi
    while dpi > 1 and not fits(dpi):
        dpi -= 1
    return dpi


def paste_sheet(images: list[bytes], columns: int, rows: int, hidden: bytes) -> bytes:
    """One PNG: the cards in reading order, the hidden card in the last cell."""
    pictures = [Image.open(io.BytesIO(data)) for data in images]
    width, height = pictures[0].size
    sheet = Image.new("RGB", (columns * width, rows * height), "white")
    for index, picture in enumerate(pictures):
        sheet.paste(picture, ((index % columns) * width, (index // columns) * height))
    sheet.paste(Image.open(io.BytesIO(hidden)), ((columns - 1) * width, (rows - 1) * height))
    out = io.BytesIO()
    sheet.save(out, format="PNG", compress_level=1)   # level 6 took most of the export time
    return out.getvalue()


PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1


class CardPictures(NamedTuple):
    """What both online tables are made from: the deck's distinct cards, the sheet's columns
    and rows, each card's face and each distinct back as PNG, and which back each card has."""

    cards: list[Card]
    columns: int
    rows: int
    faces: list[bytes]
    backs: list[bytes]
    back_of: Callable[[Card], int]


def card_pictures(ctx: BuildContext, preset: ShopPreset, component: Component, front: PieceLayout,
                  back: PieceLayout | None, deck: Deck) -> CardPictures:
    """The deck's distinct cards and their pictures (see CardPictures)."""
    cards = first_copies(deck)
    backs = distinct_backs(back, cards) if back is not None else []
    columns, rows = grid(min(len(cards), PER_SHEET))
    dpi = sheet_dpi(preset, front, columns, rows)
    pages = [(front, card) for card in cards]
    if back is not None:
        pages += [(back, card) for card in backs]
    images = pictures_of(pages, dpi, f"{ctx.game.title}: {component.id}")
    faces = images[:len(cards)]
    back_images = images[len(cards):] or faces[:1]   # a piece without a back shows its face
    index = {back_key(back, card): n for n, card in enumerate(backs)}
    return CardPictures(cards, columns, rows, faces, back_images, lambda card: index[back_key(back, card)])


def tts_deck(ctx: BuildContext, preset: ShopPreset, component: Component, front: PieceLayout,
             back: PieceLayout | None, deck: Deck, first: int,
             manifest: list[list[Any]] | None = None) -> tuple[list[OutputFile], Json]:
    """Sheets for one deck and its TTS object; CustomDeck keys start at `first`. Each distinct
    card is a row of `manifest`: its sheet and cell, name, copies and back."""
    cards, columns, rows, faces, back_images, back_of = card_pictures(ctx, preset, component, front, back, deck)
    per_sheet = PER_SHEET
    unique_back = len(back_images) > 1
    folder = f"{preset.id}/{component.id}"
    files: list[OutputFile] = []
    custom: dict[str, Json] = {}
    ids: list[int] = []
    contained: list[Json] = []
    for start in range(0, len(cards), per_sheet):
        key = first + start // per_sheet
        chunk = cards[start:start + per_sheet]
        hidden = back_images[0]
        face_name = f"{folder}/{component.id}-faces-{key}.png"
        files.append(OutputFile(face_name, paste_sheet(faces[start:start + per_sheet], columns, rows, hidden)))
        back_name = f"{folder}/{component.id}-back.png"
        if unique_back:
            back_name = f"{folder}/{component.id}-backs-{key}.png"
            chosen = [back_images[back_of(card)] for card in chunk]
            files.append(OutputFile(back_name, paste_sheet(chosen, columns, rows, hidden)))
        custom[str(key)] = {"FaceURL": face_name.split("/", 1)[1], "BackURL": back_name.split("/", 1)[1],
                            "NumWidth": columns, "NumHeight": rows, "BackIsHidden": True,
                            "UniqueBack": unique_back, "Type": 0}
        for cell, card in enumerate(chunk):
            count = deck.counts[start + cell]
            if manifest is not None:
                manifest.append([f"{face_name.split('/', 1)[1]} cell {cell + 1}", deck.shown_name(card), count,
                             back_name.split("/", 1)[1] + (f" cell {cell + 1}" if unique_back else "")])
            for _ in range(count):
                ids.append(key * 100 + cell)
                contained.append({"Name": "Card", "Nickname": deck.shown_name(card), "CardID": key * 100 + cell,
                                  "Transform": transform(0), "CustomDeck": {str(key): custom[str(key)]}})
    if not unique_back:
        files.append(OutputFile(f"{folder}/{component.id}-back.png", back_images[0]))
    obj = {"Name": "Deck", "Nickname": component.title or component.id, "Transform": transform(0),
           "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained}
    return files, obj


def transform(x: float) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def save_file(preset: ShopPreset, title: str, objects: list[Json]) -> OutputFile:
    """The saved object: decks and tiles side by side, image paths relative to it."""
    for index, obj in enumerate(objects):
        obj["Transform"] = {**obj["Transform"], "posX": index * 3.0}
    save = {"SaveName": title, "ObjectStates": objects}
    return OutputFile(f"{preset.id}/tts.json", json.dumps(save, indent=1, sort_keys=True).encode())


CARD_SIZES = ("poker", "bridge", "mini", "tarot", "square")   # TTS decks; other pieces are tiles


def is_card(front: PieceLayout) -> bool:
    return front.size_name in CARD_SIZES


def tts_pieces(ctx: BuildContext, preset: ShopPreset, component: Component, front: PieceLayout,
               deck: Deck, manifest: list[list[Any]] | None = None) -> tuple[list[OutputFile], list[Json]]:
    """Pieces that are not cards (end zones, tokens): one image each, and a TTS custom tile
    (a token, for round tokens) per copy, named after the piece."""
    cards = first_copies(deck)
    images = pictures_of([(front, card) for card in cards], min(preset.dpi, 150), f"{ctx.game.title}: {component.id}")
    folder = f"{preset.id}/{component.id}"
    files: list[OutputFile] = []
    objects: list[Json] = []
    for number, (card, count, image) in enumerate(zip(cards, deck.counts, images), start=1):
        name = f"{folder}/{component.id}-{number:03d}.png"
        files.append(OutputFile(name, image))
        if manifest is not None:
            manifest.append([name.split("/", 1)[1], deck.shown_name(card), count, ""])
        for _ in range(count):
            objects.append(tile(name.split("/", 1)[1], deck.shown_name(card), front.width, front.height,
                                token=front.size_name == "token"))
    return files, objects


def tile(image: str, nickname: str, width: float, height: float, token: bool = False) -> Json:
    """A TTS Custom_Tile (a flat piece with the image on top), or a Custom_Token for a token;
    scaled so that one TTS unit is about an inch."""
    custom: Json = {"ImageURL": image, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}
    if token:
        custom["CustomToken"] = {"Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": True}
    else:
        custom["CustomTile"] = {"Type": 0, "Thickness": 0.1, "Stackable": False, "Stretch": True}
    scale = max(width, height) / 72 / 2   # TTS's tile is about two units across at scale 1
    return {"Name": "Custom_Token" if token else "Custom_Tile", "Nickname": nickname,
            "Transform": {**transform(0), "rotY": 180.0, "rotZ": 0.0, "scaleX": scale, "scaleY": 1.0, "scaleZ": scale},
            "CustomImage": custom}
