"""Editing a layout from the preview (`pnp serve --edit`), saved back to the YAML.

A piece is a deck's card (front or back, in the layout a front choice picks for that card), a
board, or a page of a sheet, named by its component's id and the card's number. The page asks
what is on a piece (`elements`): each element of the layout that draws it, with its box in mm,
the file and line that define it and its settings as written. It sends back a few changed
values for one element (`change`): they are spliced into the file that defines the element
(pnp.yaml_edit keeps every other byte), or into the piece's own layout as an override of an
inherited element. Before anything is written the changed file is loaded as a draft, the game
checked and the piece drawn, exactly as a build would, so a bad value is refused with the
build's own message and the file is left alone.

Only layout files of the served game's decks, boards and sheets, inside the project's layouts/
folder, are ever written: pnp's bundled layouts and anything else are refused, and no path
comes from the request (components are named, elements numbered). An edit made in a text editor since the page
looked is never overwritten: the page sends the digest of each file it saw."""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import yaml

from pnp.errors import PnpError
from pnp.units import SAFE_ZONE, mm
from pnp.yaml_edit import append_item, node_at, scalar_text, set_values
from pnp.yaml_source import drafted

if TYPE_CHECKING:
    from pnp.config.deck import Card
    from pnp.config.game import Component
    from pnp.config.typed import Where
    from pnp.layout.template import CompiledLayout, Template
    from pnp.project import Project
    from pnp.render import BuildContext

Json = dict[str, Any]   # a request's or an answer's JSON object

EDITABLE = ("x", "y", "w", "h", "inset", "text", "font", "size", "colour", "fill", "stroke", "align",
            "valign", "when")
MAX_TEXT = 500     # characters in one edited value (a request's body is at most 4 KB)
EDIT_PIXELS = 2000  # the longest side of the picture the editor draws (a board would be huge at 150 dpi)


class EditRefused(PnpError):
    """An edit that was not saved: the page shows why (a bad value, a file changed meanwhile)."""

    status = 400


class FileChanged(EditRefused):
    status = 409


@dataclass
class Source:
    """Where one element of a merged layout is written."""

    layout: str          # the layout file's name (base/card)
    path: Path
    position: int        # its number in that file's `elements`
    id: str | None


@dataclass
class Piece:
    """One piece as the editor shows it: the layout that draws this card (a deck's choice
    already made) and the card."""

    layout: CompiledLayout   # its bleed is the preview's on a card, none on a board or sheet
    card: Card


def piece_of(ctx: BuildContext, component: Component, card_index: int, side: str) -> Piece:
    """The layout and card a build draws for this piece, compiled by the kind's own code."""
    from pnp.layout.choice import ChosenLayout
    from pnp.serve.pictures import PREVIEW_BLEED
    layout, cards = component.pieces(ctx, side, PREVIEW_BLEED)
    if layout is None:
        raise EditRefused(f"'{component.id}' has no {side}")
    if not 0 <= card_index < len(cards):
        raise EditRefused(f"'{component.id}' has no card {card_index + 1}; reload the page")
    card = cards[card_index]
    if isinstance(layout, ChosenLayout):
        layout = layout.pick(card)   # the layout this card is drawn with is the one edited
    return Piece(layout, card)


def drawn(piece: Piece) -> str:
    """The piece drawn as a build draws it and rasterised (a PNG, base64): a card as sharp as
    the preview's, a board no more than EDIT_PIXELS across."""
    import base64
    from pnp.outputs.pieces import pieces_pdf
    from pnp.outputs.raster import rasterise
    from pnp.serve.pictures import FACE_DPI
    bleed = piece.layout.bleed
    pdf = pieces_pdf([(piece.layout, piece.card)], bleed, "edit", "edit.pdf")
    longest_inches = (max(piece.layout.width, piece.layout.height) + 2 * bleed) / 72
    png = next(iter(rasterise(pdf.data, min(FACE_DPI, EDIT_PIXELS / longest_inches))))
    return base64.b64encode(png).decode()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def chain(root: Path, name: str) -> list[tuple[str, Path]]:
    """The layout and every layout it extends, the layout itself first."""
    from pnp.config.typed import where_of
    from pnp.layout.template import template_path
    from pnp.yaml_source import load_yaml
    found: list[tuple[str, Path]] = []
    where = None
    while name and name not in (n for n, _ in found) and len(found) < 20:
        path = template_path(root, name, where or _nowhere())
        node = load_yaml(path)
        found.append((name, path))
        where = where_of(node).key(node, "extends")
        name = node.get("extends") or ""
    return found


def _nowhere() -> Where:
    from pnp.config.typed import Where
    return Where("the page", None, "")


def component_fonts(root: Path) -> list[str]:
    """The font family names a layout may use (the page offers them)."""
    from pnp.fonts import FontBook
    return list(FontBook(root).families)


def sources(root: Path, name: str) -> list[Source]:
    """Where each element of the merged layout `name` is written, in drawing order, as
    pnp.layout.template merges them (an element with a base element's id replaces it in place)."""
    from pnp.yaml_source import load_yaml
    merged: list[Source] = []
    for layout, path in reversed(chain(root, name)):
        node = load_yaml(path)
        places = {source.id: i for i, source in enumerate(merged) if source.id}
        for position, element in enumerate(node.get("elements") or []):
            element_id = element.get("id") if isinstance(element, dict) else None
            source = Source(layout, path, position, element_id)
            if element_id and element_id in places:
                merged[places[element_id]] = source
            else:
                merged.append(source)
    return merged


class LayoutEditor:
    """The editing side of one served game."""

    def __init__(self, root: Path, game_id: str):
        self.root, self.game_id = Path(root), game_id
        self.layouts_folder = (self.root / "layouts").resolve()
        self._lock = threading.Lock()

    # --- what the page reads ---------------------------------------------------------------
    def elements(self, component_id: str, card_index: int, side: str, picture: bool = False) -> Json:
        """What is on the piece, and with `picture` the piece drawn (a PNG, base64)."""
        from pnp.serve.pictures import RENDER_LOCK
        with RENDER_LOCK:
            piece, editable = self._piece(component_id, card_index, side)
            layout = piece.layout
            name = layout.name
            template_elements = self._template(name).elements
            found = sources(self.root, name)
            width_mm, height_mm = layout.width / mm(1), layout.height / mm(1)
            elements = []
            for index, (spec, source) in enumerate(zip(template_elements, found)):
                x, bottom, w, h = spec.box(cast(Any, _Size(layout.width, layout.height)))
                settings, units = self._settings(source)
                elements.append(dict(
                    index=index, id=source.id, kind=spec.kind, layout=source.layout,
                    file=self._shown(source.path), line=spec.where_is("kind").line,
                    inherited=source.layout != name, writable=source.path.resolve() in editable,
                    box=dict(x=round(x / mm(1), 3), y=round(height_mm - (bottom + h) / mm(1), 3),
                             w=round(w / mm(1), 3), h=round(h / mm(1), 3)),
                    settings=settings, units=units))
            files = {self._shown(path): digest(path) for _, path in chain(self.root, name)}
            answer = dict(component=component_id, card=card_index, side=side, label=piece.card.label, layout=name,
                          size_mm=[round(width_mm, 3), round(height_mm, 3)],
                          bleed_mm=round(layout.bleed / mm(1), 3), safe_mm=round(SAFE_ZONE / mm(1), 3),
                          own_writable=found_path(self.root, name).resolve() in editable,
                          palette=sorted(self._template(name).palette), files=files, elements=elements,
                          fonts=sorted(component_fonts(self.root)))
            if picture:
                answer["picture"] = drawn(piece)
            return answer

    # --- what the page asks to change -------------------------------------------------------
    def change(self, request: Json, draw_only: bool = False) -> Json:
        """Check the edit as a build would and, unless `draw_only`, save it. Returns the card
        drawn with the edit (a PNG, base64) and, once saved, the new element list."""
        from pnp.serve.pictures import RENDER_LOCK
        component_id, card_index, side = _request_piece(request)
        index, target, changes = _request_change(request)
        with self._lock, RENDER_LOCK:
            piece, editable = self._piece(component_id, card_index, side)
            name = piece.layout.name
            found = sources(self.root, name)
            if not 0 <= index < len(found):
                raise EditRefused(f"the layout has no element {index + 1}; reload the page")
            source = found[index]
            seen = request.get("files") or {}
            for _, path in chain(self.root, name):
                shown = self._shown(path)
                if shown in seen and seen[shown] != digest(path):
                    raise FileChanged(f"{shown} changed on disk since the page read it (saved in your "
                                      f"editor?); the page has reloaded it and your change was not saved")
            if target == "override" and source.layout != name:
                if not source.id:
                    raise EditRefused("an inherited element needs an id in its base layout to be "
                                      "overridden; give it one there")
                path = found_path(self.root, name)
                text = with_override(path.read_text(encoding="utf-8"), source, changes, self._shown(path))
            else:
                path = source.path
                text = set_values(path.read_text(encoding="utf-8"), ["elements", source.position], changes,
                                  self._shown(path))
            if path.resolve() not in editable:
                raise EditRefused(f"{self._shown(path)} is not a layout file of this game inside "
                                  f"layouts/ (pnp's own layouts are never changed); choose 'override "
                                  f"in {name}' to change it for this game")
            picture = self._checked(path, text, component_id, card_index, side)
            if draw_only:
                return dict(picture=picture)
            write_atomically(path, text)
        result = self.elements(component_id, card_index, side)
        result["picture"] = picture
        return result

    # --- helpers ----------------------------------------------------------------------------
    def _project(self) -> Project:
        from pnp.project import Project
        from pnp.serve.pictures import CardDiagnostics
        return Project(self.root, CardDiagnostics())

    def _template(self, name: str) -> Template:
        from pnp.layout.template import load_template
        return load_template(self.root, name, _nowhere())

    def _piece(self, component_id: str, card_index: int, side: str) -> tuple[Piece, set[Path]]:
        """The piece as a build draws it, and the layout files this game may have written: its
        decks', boards' and sheets' layouts inside layouts/."""
        from pnp.options import PrintOptions
        from pnp.render import BuildContext
        project = self._project()
        checked = project.check(self.game_id)
        ctx = BuildContext(project, checked.game, checked.decks, PrintOptions(paper=checked.game.spec.paper))
        component = next((c for c in checked.game.components if c.id == component_id), None)
        if component is None or not component.layout_names():
            raise EditRefused(f"the game has no deck, board or sheet '{component_id}'; reload the page")
        piece = piece_of(ctx, component, card_index, side)
        editable = set()
        for other in checked.game.components:
            for named in other.layout_names():
                for _, path in chain(self.root, named):
                    resolved = path.resolve()
                    if self.layouts_folder in resolved.parents and not path.is_symlink():
                        editable.add(resolved)
        return piece, editable

    def _checked(self, path: Path, text: str, component_id: str, card_index: int, side: str) -> str:
        """The edit loaded in place of the file, the game checked and this piece drawn, as a
        build would; its picture (PNG, base64). Any problem is refused, file untouched."""
        with drafted(path, text):
            try:
                piece, _ = self._piece(component_id, card_index, side)
                return drawn(piece)
            except PnpError as exc:
                raise EditRefused(exc.message, file=exc.file, line=exc.line, field=exc.field,
                                  hint=exc.hint) from None

    def _settings(self, source: Source) -> tuple[Json, dict[str, str]]:
        """The element's settings as written (lengths with their units), and each length's unit."""
        text = source.path.read_text(encoding="utf-8")
        node = node_at(text, ["elements", source.position], self._shown(source.path))
        settings: dict[str, Any] = {}
        units: dict[str, str] = {}
        for key, value in node.value:
            written = text[value.start_mark.index:value.end_mark.index]
            if isinstance(value, yaml.ScalarNode):
                settings[key.value] = value.value if value.style in ("|", ">") else _typed(written, value.value)
            else:   # a condition or a list, shown as one line of YAML
                settings[key.value] = scalar_text(value_of(text, value))
            if key.value in ("x", "y", "w", "h", "inset") and isinstance(value, yaml.ScalarNode):
                units[key.value] = unit_of(value.value)
        return settings, units

    def _shown(self, path: Path) -> str:
        """A layout file as the page names it: from the project's folder, or as pnp's own (a
        bare `card.yaml:10` was taken for the game's own card.yaml)."""
        from pnp.resources import BUNDLED
        real = path.resolve()
        for folder, named in ((self.root.resolve(), ""), (BUNDLED.resolve(), "pnp's own ")):
            if real.is_relative_to(folder):
                return named + real.relative_to(folder).as_posix()
        return path.name


@dataclass
class _Size:
    width: float
    height: float


def _typed(written: str, fallback: str) -> Any:
    """A scalar as YAML reads it (22 is a number, "22" text), so an undo writes it back alike."""
    try:
        return yaml.safe_load(written)
    except yaml.YAMLError:
        return fallback


def value_of(text: str, node: yaml.Node) -> Any:
    """A value as written in `text`: a block list's first line, cut from its own, gets back the
    indent the lines after it keep (a repeat's `elements`)."""
    return yaml.safe_load(" " * node.start_mark.column + text[node.start_mark.index:node.end_mark.index])


def found_path(root: Path, name: str) -> Path:
    return chain(root, name)[0][1]


def unit_of(text: str) -> str:
    for unit in ("mm", "cm", "in", "pt", "%"):
        if text.strip().lower().endswith(unit):
            return unit
    return "mm"


def _request_piece(request: Json) -> tuple[str, int, str]:
    component, card, side = request.get("component"), request.get("card"), request.get("side", "front")
    if not isinstance(component, str) or not isinstance(card, int) or isinstance(card, bool) \
            or side not in ("front", "back"):
        raise EditRefused("an edit names a component (text), a card (a number) and a side (front or back)")
    return component, card, side


def _request_change(request: Json) -> tuple[int, str, Json]:
    index, target, changes = request.get("index"), request.get("target", "defining"), request.get("changes")
    if not isinstance(index, int) or isinstance(index, bool) or target not in ("defining", "override"):
        raise EditRefused("an edit names an element (a number) and where to save it (defining or override)")
    if not isinstance(changes, dict) or not changes:
        raise EditRefused("an edit changes at least one setting")
    for key, value in changes.items():
        if key not in EDITABLE:
            raise EditRefused(f"the editor does not change '{key}'", hint=f"it changes {', '.join(EDITABLE)}")
        if value is not None and not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise EditRefused(f"{key}: expected text or a number")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise EditRefused(f"{key}: at most {MAX_TEXT} characters")
    if "when" in changes and isinstance(changes["when"], str):
        try:   # typed in the panel as YAML (side: offense); written as a flow map
            changes["when"] = yaml.safe_load(changes["when"]) if changes["when"].strip() else None
        except yaml.YAMLError:
            raise EditRefused("when: not a condition pnp can read (e.g. side: offense)") from None
    return index, target, changes


def with_override(text: str, source: Source, changes: Json, shown: str) -> str:
    """The child layout's text with the inherited element copied in (same id, so it replaces
    the base's in place) and changed: the base's settings as they are written there."""
    base_text = source.path.read_text(encoding="utf-8")
    node = node_at(base_text, ["elements", source.position], str(source.path))
    parts = []
    for key, value in node.value:
        written = base_text[value.start_mark.index:value.end_mark.index]
        if not isinstance(value, yaml.ScalarNode) or value.style in ("|", ">") or "\n" in written:
            written = scalar_text(value_of(base_text, value), '"', in_flow=True)
        parts.append(f"{key.value}: {written}")
    item = "{" + ", ".join(parts) + "}"
    document = node_at(text, [], shown)
    has_elements = isinstance(document, yaml.MappingNode) and any(k.value == "elements" for k, _ in document.value)
    if has_elements and isinstance(node_at(text, ["elements"], shown), yaml.SequenceNode):
        text, position = append_item(text, ["elements"], item, shown)
    else:
        text = text.rstrip("\n") + f"\nelements:\n  - {item}\n"
        position = 0
    return set_values(text, ["elements", position], changes, shown)


def write_atomically(path: Path, text: str) -> None:
    """The whole new text or none of it: written beside the file (a name watchers and editors
    leave alone) and renamed over it."""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    part.unlink(missing_ok=True)   # a link planted under this name is removed, never followed
    try:
        descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
