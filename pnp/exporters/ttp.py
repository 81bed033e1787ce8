"""Tabletop Playground decks: the same card sheets as for Tabletop Simulator (at most 10 x 7
cells, the last the hidden card, 4096 px a side) under Textures/, and a card template per sheet
under Templates/, as a Tabletop Playground package folder holds them.

The template's keys follow the card templates Tabletop Playground's editor writes (Type "Card",
FrontTexture, BackTexture, NumHorizontal, NumVertical, Indices, CardNames, Width and Height in
centimetres). Not confirmed here against the game itself: the meaning of BackIndex -1 (one back
image for every card) and -2 (a sheet of backs in the faces' layout), which pnp uses as read in
published templates."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from pnp.exporters.base import Exporter
from pnp.exporters.tts import PER_SHEET, card_pictures, is_card, paste_sheet
from pnp.outputs.pdf import OutputFile
from pnp.render import ShopPieces

if TYPE_CHECKING:
    from pnp.config.deck import Deck
    from pnp.config.game import Component
    from pnp.config.shop import ShopPreset
    from pnp.layout.template import PieceLayout
    from pnp.render import BuildContext


class TtpExport(Exporter, format="ttp"):
    def cards(self, pieces: ShopPieces) -> list[OutputFile]:
        if not is_card(pieces.front):   # other pieces: not yet (see docs/print-guide.md)
            return []
        assert pieces.deck is not None
        return ttp_deck(self.ctx, self.preset, pieces.component, pieces.front, pieces.back, pieces.deck, self.rows)


def ttp_deck(ctx: BuildContext, preset: ShopPreset, component: Component, front: PieceLayout,
             back: PieceLayout | None, deck: Deck, manifest: list[list[Any]] | None = None) -> list[OutputFile]:
    """A deck's texture sheets and card templates; each distinct card is a row of `rows`
    (the manifest): its sheet and cell, name, copies and back."""
    cards, columns, rows, faces, back_images, back_of = card_pictures(ctx, preset, component, front, back, deck)
    per_sheet = PER_SHEET
    files = []
    for sheet, start in enumerate(range(0, len(cards), per_sheet), start=1):
        chunk = cards[start:start + per_sheet]
        stem = f"{component.id}-{sheet}"
        files.append(OutputFile(f"{preset.id}/Textures/{stem}-faces.png",
                                paste_sheet(faces[start:start + per_sheet], columns, rows, back_images[0])))
        if len(back_images) > 1:   # each card its own back: a sheet of backs in the same cells
            chosen = [back_images[back_of(card)] for card in chunk]
            files.append(OutputFile(f"{preset.id}/Textures/{stem}-backs.png",
                                    paste_sheet(chosen, columns, rows, back_images[0])))
            back_texture, back_index = f"{stem}-backs.png", -2
        else:
            back_texture, back_index = f"{component.id}-back.png", -1
        indices = [cell for cell, count in enumerate(deck.counts[start:start + per_sheet]) for _ in range(count)]
        if manifest is not None:
            manifest += [[f"Textures/{stem}-faces.png cell {cell + 1}", deck.shown_name(card), count,
                      f"Textures/{back_texture}" + (f" cell {cell + 1}" if back_index == -2 else "")]
                     for cell, (card, count) in enumerate(zip(chunk, deck.counts[start:start + per_sheet]))]
        template = {
            "Type": "Card", "GUID": guid(ctx.game.id, stem), "Name": f"{ctx.game.title}: {component.title or component.id}"
            + (f" ({sheet})" if len(cards) > per_sheet else ""),
            "Metadata": "", "CollisionType": "Regular", "Friction": 0.7, "Restitution": 0, "Density": 0.5,
            "SurfaceType": "Cardboard", "Roughness": 1, "Metallic": 0, "Flippable": True, "AutoStraighten": False,
            "ShouldSnap": True, "ScriptName": "", "Blueprint": "", "Models": [], "Collision": [], "Tags": [],
            "FrontTexture": f"{stem}-faces.png", "BackTexture": back_texture, "HiddenTexture": "",
            "BackIndex": back_index, "HiddenIndex": columns * rows - 1,
            "NumHorizontal": columns, "NumVertical": rows,
            "Width": round(front.width / 72 * 2.54, 3), "Height": round(front.height / 72 * 2.54, 3), "Thickness": 0.05,
            "Indices": indices, "CardNames": {str(cell): deck.shown_name(card) for cell, card in enumerate(chunk)},
            "CardMetadata": {}, "CardTags": {},
        }
        files.append(OutputFile(f"{preset.id}/Templates/{stem}.json",
                                json.dumps(template, indent=1, ensure_ascii=False).encode()))
    if len(back_images) == 1:
        files.append(OutputFile(f"{preset.id}/Textures/{component.id}-back.png", back_images[0]))
    return files


def guid(game_id: str, stem: str) -> str:
    """A template id the same at every build: Tabletop Playground keys templates by it."""
    return hashlib.sha256(f"pnp:{game_id}:{stem}".encode()).hexdigest()[:32].upper()
