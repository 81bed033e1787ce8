"""`pnp proof --showcase`: pictures of a deck for the game's web page: a fanned hand of cards and
a row of cards, each with a soft shadow, on a background colour, at a chosen width. The cards
are pictures of the same drawing as the PDFs."""

from __future__ import annotations

import io
import math
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw, ImageFilter

from pnp.errors import PnpError
from pnp.outputs.pdf import OutputFile
from pnp.kinds.deck import DeckComponent, compile_deck_layouts
from pnp.render.distinct import first_copies, pictures_of

if TYPE_CHECKING:
    from pnp.config.deck import Card, Deck
    from pnp.config.game import Component
    from pnp.render import BuildContext

Colour = tuple[int, int, int, int]   # RGBA, as Pillow takes it

FAN_DEGREES = 36   # from the first card to the last
SHOWN = 5          # cards in a picture unless chosen


def showcase(ctx: BuildContext, component: DeckComponent, width: int, background: str,
             picks: tuple[str, ...]) -> list[OutputFile]:
    cards = chosen_cards(ctx.decks[component.id], picks, component)
    card_width = width / (len(cards) + 1.5)   # the row: cards and gaps across the width
    front, _ = compile_deck_layouts(ctx, component, 0.0)
    dpi = card_width / (front.width / 72)
    faces = [Image.open(io.BytesIO(data)).convert("RGBA")
             for data in pictures_of([(front, card) for card in cards], dpi, component.id)]
    colour = parse_background(background)
    return [picture(f"{component.id}-showcase-fan.png", fan(faces, width, colour)),
            picture(f"{component.id}-showcase-row.png", row(faces, width, colour))]


def chosen_cards(deck: Deck, picks: tuple[str, ...], component: Component) -> list[Card]:
    distinct = first_copies(deck)
    if not picks:
        return distinct[:SHOWN]
    by_label: dict[str, Card] = {}
    for card in distinct:   # a name several cards share picks the first of them
        by_label.setdefault(card.label, card)
    missing = [name for name in picks if name not in by_label]
    if missing:
        raise PnpError(f"{component.id}: no card named {', '.join(repr(m) for m in missing)} to show; "
                       f"its cards: {', '.join(sorted(by_label))}")
    return [by_label[name] for name in picks]


def parse_background(text: str) -> Colour:
    from PIL import ImageColor
    try:
        rgb = ImageColor.getrgb(text)
        return (rgb[0], rgb[1], rgb[2], rgb[3] if len(rgb) == 4 else 255)
    except ValueError:
        raise PnpError(f"'{text}' is not a colour; give a name or #rrggbb, e.g. --background \"#203040\"") from None


def shadowed(face: Image.Image) -> Image.Image:
    """The card on a transparent tile with a soft shadow below and to the right."""
    blur = max(2, face.width // 25)
    tile = Image.new("RGBA", (face.width + 4 * blur, face.height + 4 * blur), (0, 0, 0, 0))
    shadow = Image.new("RGBA", tile.size, (0, 0, 0, 0))
    ImageDraw.Draw(shadow).rectangle((2 * blur, 2 * blur + blur // 2, 2 * blur + face.width,
                                      2 * blur + face.height + blur // 2), fill=(0, 0, 0, 110))
    tile = Image.alpha_composite(tile, shadow.filter(ImageFilter.GaussianBlur(blur)))
    tile.alpha_composite(face, (blur, blur))
    return tile


def row(faces: list[Image.Image], width: int, colour: Colour) -> Image.Image:
    tiles = [shadowed(face) for face in faces]
    gap = (width - sum(face.width for face in faces)) / (len(faces) + 1)
    height = int(max(t.height for t in tiles) + 2 * gap)
    canvas = Image.new("RGBA", (width, height), colour)
    x = gap
    for face, tile in zip(faces, tiles):
        canvas.alpha_composite(tile, (int(x - (tile.width - face.width) / 4), int(gap)))
        x += face.width + gap
    return canvas


def fan(faces: list[Image.Image], width: int, colour: Colour) -> Image.Image:
    """The cards held in a hand: turned about a point below the middle card."""
    face_w, face_h = faces[0].size
    step = FAN_DEGREES / max(1, len(faces) - 1) if len(faces) > 1 else 0
    radius = face_h * 1.6
    height = int(face_h * 1.75)
    canvas = Image.new("RGBA", (width, height), colour)
    pivot = (width / 2, face_h * 0.25 + radius)
    for index, face in enumerate(faces):
        angle = -FAN_DEGREES / 2 + index * step if len(faces) > 1 else 0
        tile = shadowed(face).rotate(-angle, resample=Image.Resampling.BICUBIC, expand=True)
        cx = pivot[0] + radius * math.sin(math.radians(angle))
        cy = pivot[1] - radius * math.cos(math.radians(angle)) + face_h / 2
        canvas.alpha_composite(tile, (int(cx - tile.width / 2), int(cy - tile.height / 2)))
    return canvas


def picture(name: str, image: Image.Image) -> OutputFile:
    from PIL.PngImagePlugin import PngInfo
    info = PngInfo()
    info.add_text("Software", "pnp")
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG", pnginfo=info, optimize=True)
    return OutputFile(name, buffer.getvalue())
