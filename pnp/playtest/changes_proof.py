"""`pnp proof --changes`: each changed card's old face beside its new one, the region that
differs boxed in red on both, one picture per deck (DECK-changes.png in the proof folder).

The old face is drawn from the files the last build kept in its record (or a record or git
revision given with --since), by the same compiled layouts as a build: nothing is drawn a
second way and no git is needed."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from pnp.config.deck import Card
from pnp.config.game import Component
from pnp.outputs.folder import OutputFolder
from pnp.outputs.pdf import OutputFile
from pnp.playtest.diff import CardChange, GameState, comparable, compare, earlier_state, game_state, why_redrawn
from pnp.playtest.earlier import earlier_game
from pnp.project import Project
from pnp.options import PrintOptions
from pnp.render import BuildContext
from pnp.render.distinct import pictures_of
from pnp.kinds.deck import compile_deck_layouts

FACE_DPI = 100
GAP = 16
LABEL = 22            # pixels of text above each pair
MARK = (220, 20, 60)  # the box round what differs
RIM = (255, 255, 255)  # round it, outside: the box never covers what changed


def changes_proof(project: Project, game_id: str, out: Path, since: str | None) -> tuple[list[Path], list[CardChange], str]:
    """The pictures written (none when no card's look changed), the changes, and the name of
    the state compared with."""
    proof = OutputFolder(out / game_id / "proof")
    proof.check_place(project.root, out)   # as pnp proof: OUT/ID may be a link into card_data/
    new = game_state(project.root, game_id, diagnostics=project.diagnostics)
    with earlier_game(project.root, game_id, out / game_id, since) as earlier:
        old, new = earlier_state(earlier, game_id), comparable(new, earlier)
        changes = compare(old, new)
        files = []
        for component in new.game.components:
            drawn = [c for c in changes if c.deck == component.id and c.kind == "changed" and (c.face or c.back)]
            if component.is_deck and drawn:
                files.append(deck_changes(old, new, component, drawn))
        name = earlier.name
    if not files:
        return [], changes, name
    return proof.commit(files), changes, name


def as_drawn(card: Card, count: int) -> Card:
    """A card as a build draws its first copy (layouts may show `copy`, and `count`)."""
    return card.with_values(copy=card.get("copy", 1), count=count)


def faces(state: GameState, component_id: str,
          cards: list[tuple[Card, int]]) -> list[tuple[Image.Image, Image.Image | None]]:
    """Each card's face and back (None if the deck has no backs) as pictures, each card with
    its count."""
    component = next(c for c in state.game.components if c.id == component_id)
    ctx = BuildContext(state.project, state.game, state.decks, PrintOptions(paper=state.game.spec.paper))
    front, back = compile_deck_layouts(ctx, component, 0.0)
    pieces = [(front, as_drawn(card, count)) for card, count in cards]
    if back is not None:
        pieces += [(back, as_drawn(card, count)) for card, count in cards]
    pictures = [Image.open(io.BytesIO(png)).convert("RGB")
                for png in pictures_of(pieces, FACE_DPI, component_id)]
    fronts, backs = pictures[:len(cards)], pictures[len(cards):]
    return [(face, backs[i] if backs else None) for i, face in enumerate(fronts)]


def deck_changes(old: GameState, new: GameState, component: Component, changes: list[CardChange]) -> OutputFile:
    olds = faces(old, component.id, [(c.old_card, c.old_count) for c in changes if c.old_card is not None])
    news = faces(new, component.id, [(c.new_card, c.new_count) for c in changes if c.new_card is not None])
    rows = []
    for change, (old_face, old_back), (new_face, new_back) in zip(changes, olds, news):
        if change.face:
            rows.append((f"{change.key}: face" + fields_note(change), old_face, new_face))
        if change.back and old_back is not None and new_back is not None:
            rows.append((f"{change.key}: back", old_back, new_back))
    width = max(max(a.width, b.width) for _, a, b in rows)
    height = max(max(a.height, b.height) for _, a, b in rows)
    sheet = Image.new("RGB", (GAP * 3 + 2 * width, GAP + len(rows) * (LABEL + height + GAP)), (235, 235, 235))
    draw = ImageDraw.Draw(sheet)
    y = GAP
    for label, before, after in rows:
        draw.text((GAP, y + 4), one_line(draw, f"{label}   (old | new)", sheet.width - 2 * GAP), fill=(20, 20, 20))
        y += LABEL
        boxes = changed_boxes(before.resize(after.size) if before.size != after.size else before, after)
        for x, picture in ((GAP, before), (GAP * 2 + width, after)):
            sheet.paste(picture, (x, y))
            for left, top, right, bottom in boxes:   # white round the red: seen on a card of the mark's own red
                draw.rectangle((x + left - 5, y + top - 5, x + right + 4, y + bottom + 4), outline=RIM, width=2)
                draw.rectangle((x + left - 3, y + top - 3, x + right + 2, y + bottom + 2), outline=MARK, width=3)
        y += height + GAP
    buffer = io.BytesIO()
    from PIL.PngImagePlugin import PngInfo
    info = PngInfo()
    info.add_text("Software", "pnp")
    sheet.save(buffer, format="PNG", pnginfo=info, optimize=True)
    return OutputFile(f"{component.id}-changes.png", buffer.getvalue(), component=component.id)


def changed_boxes(before: Image.Image, after: Image.Image, gap: int = 6) -> list[tuple[int, int, int, int]]:
    """A box round each band of rows where the pictures differ (bands closer than `gap` rows
    are one), so two changes far apart on a card get a box each."""
    difference = ImageChops.difference(before, after).convert("L").point(lambda v: 255 if v > 24 else 0)
    width, height = difference.size
    rows = [difference.crop((0, y, width, y + 1)).getbbox() is not None for y in range(height)]
    boxes, start, last = [], None, -gap - 1
    for y, changed in enumerate(rows + [False] * (gap + 1)):
        if changed:
            start = y if start is None or y - last > gap else start
            last = y
        elif start is not None and y - last > gap:
            band = difference.crop((0, start, width, last + 1)).getbbox()
            if band is not None:
                boxes.append((band[0], start + band[1], band[2], start + band[3]))
            start = None
    return boxes


def one_line(draw: ImageDraw.ImageDraw, text: str, width: float) -> str:
    """The text on one line that fits `width` pixels, its line breaks as spaces, ending in …
    where it is cut: a changed card text, written over several lines, was drawn over the cards."""
    text = " ".join(text.split())
    if draw.textlength(text) <= width:
        return text
    while text and draw.textlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fields_note(change: CardChange) -> str:
    if not change.fields:
        return f" ({why_redrawn(change)})"
    return " (" + ", ".join(f"{name}: {old} -> {new}" for name, old, new in change.fields) + ")"
