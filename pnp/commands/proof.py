"""`pnp proof`: pictures to check a game on screen without printing it.

For each deck, a contact sheet with every distinct card face; for every page pnp would print,
a PNG at screen resolution. Both are rasterised from the same drawing as the PDFs."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

from PIL import Image, ImageDraw

from pnp.outputs.folder import OutputFolder
from pnp.outputs.pdf import OutputFile
from pnp.outputs.raster import rasterise
from pnp.project import Project
from pnp.render import BuildContext
from pnp.request import BuildRequest
from pnp.lang import CODE
from pnp.kinds.deck import DeckComponent, compile_deck_layouts, corner_radius
from pnp.render.distinct import first_copies, pictures_of
from pnp.units import SAFE_ZONE, mm

FACE_DPI = 90
PAGE_DPI = 60
GAP = 12


def proof_game(project: Project, game_id: str, out: Path, paper: str | None, guides: bool = False,
               showcase: tuple[int, str, tuple[str, ...]] | None = None, langs: tuple[str, ...] = ()) -> list[Path]:
    """Contact sheets and page pictures; with `showcase` (width, background, picks), also the
    showcase pictures of each deck (pnp.commands.showcase); with `langs`, of the game in
    those languages (their files named with the code, as a build names them)."""
    checked = project.check(game_id)
    checked.require_valid()
    game = checked.game
    request = BuildRequest(paper=paper, langs=langs)
    files: list[OutputFile] = []
    for lang in request.languages(game.folder, game_id):
        ctx = BuildContext(project, game, checked.decks, request.options_for(game.spec.paper, lang))
        if lang is not None:
            from pnp.lang.apply import in_language
            ctx = in_language(ctx, lang)
        files += proof_files(ctx, guides, showcase)
    folder = OutputFolder(out / game_id / "proof")
    folder.check_place(project.root, out)   # OUT/ID may be a link into card_data/
    return folder.commit(files)


def proof_files(ctx: BuildContext, guides: bool, showcase: tuple[int, str, tuple[str, ...]] | None) -> list[OutputFile]:
    """The pictures of one edition of the game."""
    files: list[OutputFile] = []
    for component in ctx.game.components:
        if isinstance(component, DeckComponent):
            files.append(contact_sheet(ctx, component, guides))
            if showcase is not None:
                from pnp.commands.showcase import showcase as showcase_pictures
                files.extend(showcase_pictures(ctx, component, *showcase))
        for rendered in component.render(ctx):
            if rendered.role == "whole":
                continue   # the tiled pages show the board already
            stem = rendered.name.removesuffix(".pdf")
            for number, image in enumerate(rasterise(rendered.data, PAGE_DPI), start=1):
                files.append(OutputFile(f"{stem}-page-{number:02d}.png", image))
    return files


GUIDE_BLEED = mm(3)   # drawn round each face with --guides, as a print shop asks
SAFE = SAFE_ZONE      # inside the trim: keep text and key art within it (1/8 in)


def contact_sheet(ctx: BuildContext, component: DeckComponent, guides: bool = False) -> OutputFile:
    """Every distinct face of a deck, in rows, on one image; with `guides`, each face with its
    bleed and lines for the bleed edge, the trim and the safe zone."""
    bleed = GUIDE_BLEED if guides else 0.0
    front, _ = compile_deck_layouts(ctx, component, bleed)
    cards = first_copies(ctx.decks[component.id])
    radius = 0.0 if guides else corner_radius(component)   # guides show the square bleed
    faces = [Image.open(io.BytesIO(data)).convert("RGBA")
             for data in pictures_of([(front, card) for card in cards], FACE_DPI, component.id, bleed, radius)]
    if guides:
        faces = [with_guides(face, bleed * FACE_DPI / 72, SAFE * FACE_DPI / 72) for face in faces]
    width, height = faces[0].size
    columns = min(len(faces), max(3, math.ceil(math.sqrt(len(faces) * 1.6))))
    rows = math.ceil(len(faces) / columns)
    sheet = Image.new("RGB", (GAP + columns * (width + GAP), GAP + rows * (height + GAP)), (228, 228, 228))
    draw = ImageDraw.Draw(sheet)
    for index, face in enumerate(faces):
        x = GAP + (index % columns) * (width + GAP)
        y = GAP + (index // columns) * (height + GAP)
        sheet.paste(face, (x, y), face)
        if not radius:
            draw.rectangle((x - 1, y - 1, x + width, y + height), outline=(150, 150, 150))
    buffer = io.BytesIO()
    from PIL.PngImagePlugin import PngInfo
    info = PngInfo()
    info.add_text("Software", "pnp")
    sheet.save(buffer, format="PNG", pnginfo=info, optimize=True)
    language = f"-{ctx.options.lang}" if ctx.options.lang else ""
    return OutputFile(f"{component.id}-faces{language}.png", buffer.getvalue())


# a contact sheet's name, as `contact_sheet` gives it: cards-faces.png, cards-faces-de.png
CONTACT_SHEET = re.compile(r"-faces(-" + CODE.pattern.strip("^$") + r")?\.png$")


def is_contact_sheet(name: str) -> bool:
    """Whether one of the pictures proof_game wrote is a contact sheet (not a page's picture)."""
    return CONTACT_SHEET.search(name) is not None


def with_guides(face: Image.Image, bleed_px: float, safe_px: float) -> Image.Image:
    """The face with its bleed edge (red), trim (black beside white) and safe zone (blue,
    dashed) drawn on."""
    draw = ImageDraw.Draw(face)
    w, h = face.size
    draw.rectangle((0, 0, w - 1, h - 1), outline=(220, 30, 30, 255))
    trim = (round(bleed_px), round(bleed_px), round(w - 1 - bleed_px), round(h - 1 - bleed_px))
    draw.rectangle(trim, outline=(0, 0, 0, 255))
    draw.rectangle((trim[0] + 1, trim[1] + 1, trim[2] - 1, trim[3] - 1), outline=(255, 255, 255, 255))   # seen on dark cards
    inset = round(bleed_px + safe_px)
    left, top, right, bottom = inset, inset, w - 1 - inset, h - 1 - inset
    for start in range(left, right, 8):   # dashes of 5 px
        draw.line((start, top, min(start + 5, right), top), fill=(30, 90, 220, 255))
        draw.line((start, bottom, min(start + 5, right), bottom), fill=(30, 90, 220, 255))
    for start in range(top, bottom, 8):
        draw.line((left, start, left, min(start + 5, bottom)), fill=(30, 90, 220, 255))
        draw.line((right, start, right, min(start + 5, bottom)), fill=(30, 90, 220, 255))
    return face
