"""The pictures `pnp serve` shows: every card face and back, and every other piece's pages.

A `Preview` turns one game into a `Snapshot`: plain data the page reads (decks, cards with
their fields and source line, page pictures, warnings) naming each picture by a key. A key is
a hash of everything its picture is drawn from, so a picture is rasterised once and kept:
after an edit only the cards whose look changed are drawn again, and the browser, which
caches pictures by key, fetches only those. Pictures come from the same compiled layouts
and PDFs as a build (one drawing path); nothing here draws a second way."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.diagnostics import Diagnostics
from pnp.units import SAFE_ZONE, mm
from pnp.outputs.raster import rasterise
from pnp.project import Project
from pnp.options import PrintOptions
from pnp.render import BuildContext
from pnp.kinds.deck import DeckComponent, compile_deck_layouts
from pnp.render.distinct import distinct_backs, first_copies, pictures_of
from pnp.request import BuildRequest

if TYPE_CHECKING:
    from pnp.config.deck import Card, Deck
    from pnp.config.game import Component, Game
    from pnp.layout.template import CompiledLayout

Json = dict[str, Any]   # what the page reads, as JSON

FACE_DPI = 150          # sharp enough to read a card at twice its printed size on screen
PAGE_DPI = 60           # a whole page, to see what prints where
PREVIEW_BLEED = mm(3)   # faces are drawn with a bleed so the page can show it
MAX_PICTURES = 20_000   # kept in memory; older pictures are dropped first

# pdfium and reportlab's font state are not safe to use from two threads at once
RENDER_LOCK = threading.RLock()


@dataclass(frozen=True)
class PreviewOptions:
    paper: str | None = None     # None: the game's own
    ink_saver: bool = False
    lang: str | None = None      # a translation the game has (None: the game as written)

    @classmethod
    def from_query(cls, query: dict[str, str]) -> "PreviewOptions":
        from pnp.lang import CODE
        paper, lang = query.get("paper"), query.get("lang")
        return cls(paper=paper if paper in ("letter", "a4") else None,
                   ink_saver=query.get("ink") in ("1", "true"),
                   lang=lang if lang and CODE.match(lang) else None)


class PictureStore:
    """PNG pictures by key, with the warnings their drawing gave; bounded in size."""

    def __init__(self, limit: int = MAX_PICTURES):
        self.limit = limit
        self._pictures: dict[str, tuple[bytes, list[str]]] = {}
        self._lock = threading.Lock()

    def __contains__(self, key: str) -> bool:
        return key in self._pictures

    def get(self, key: str) -> bytes | None:
        entry = self._pictures.get(key)
        return entry[0] if entry else None

    def warnings(self, key: str) -> list[str]:
        entry = self._pictures.get(key)
        return list(entry[1]) if entry else []

    def put(self, key: str, png: bytes, warnings: list[str]) -> None:
        with self._lock:
            self._pictures.pop(key, None)
            self._pictures[key] = (png, warnings)
            while len(self._pictures) > self.limit:
                del self._pictures[next(iter(self._pictures))]


class CardDiagnostics(Diagnostics):
    """Warnings told to the piece being drawn, so the page can link each to its card. Unlike a
    build's, the same message on two cards is kept for both."""

    def __init__(self) -> None:
        super().__init__()
        self.current: list[str] | None = None

    def warn(self, message: str) -> None:
        if self.current is not None:
            if message not in self.current:
                self.current.append(message)
        else:
            super().warn(message)


@dataclass
class Snapshot:
    """What the page shows, as JSON-ready data, and the keys of every picture it names."""

    game: str
    title: str
    decks: list[Json] = field(default_factory=list)
    pages: list[Json] = field(default_factory=list)
    warnings: list[Json] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # rule problems: shown, pictures still drawn
    languages: list[str] = field(default_factory=list)  # the translations the game has

    def as_json(self) -> Json:
        return dict(game=self.game, title=self.title, decks=self.decks, pages=self.pages,
                    warnings=self.warnings, problems=self.problems, languages=self.languages)


class Preview:
    """One game seen with one set of options; `refresh()` reloads it and draws what changed."""

    def __init__(self, root: Path, game_id: str, options: PreviewOptions, store: PictureStore):
        self.root, self.game_id, self.options, self.store = Path(root), game_id, options, store
        self._page_sets: dict[str, list[str]] = {}   # a component's page pictures, by its key

    def refresh(self, on_cards: Callable[[Snapshot], None] | None = None) -> Snapshot:
        """Load the game and draw every picture not drawn before. Load errors raise PnpError.
        `on_cards(snapshot)` is called once the decks are done, before the slower pages, so a
        card edit shows without waiting for the rule sheet."""
        with RENDER_LOCK:
            project = Project(self.root, CardDiagnostics())
            checked = project.check(self.game_id)
            game, decks = checked.game, checked.decks
            options = BuildRequest(paper=self.options.paper, ink_saver=self.options.ink_saver).options_for(
                game.spec.paper, lang=self.options.lang)
            ctx = BuildContext(project, game, decks, options)
            from pnp.lang import chosen_languages, language_codes
            if self.options.lang:   # the page's language switch: drawn as `build --lang` draws
                from pnp.lang.apply import in_language
                chosen_languages(game.folder, self.game_id, (self.options.lang,))
                ctx = in_language(ctx, self.options.lang)
                game, decks = ctx.game, ctx.decks
            snapshot = Snapshot(game=self.game_id, title=game.title, problems=checked.problems,
                                languages=language_codes(game.folder))
            look = look_digest(project.root, game, decks, options)
            for component in game.components:
                if isinstance(component, DeckComponent):
                    snapshot.decks.append(self._deck(ctx, component, look))
            if on_cards is not None:
                on_cards(replace(snapshot, warnings=card_warnings(snapshot)))
            for component in game.components:
                if not component.is_deck:
                    snapshot.pages.append(self._pages(ctx, component, look))
            snapshot.warnings = card_warnings(snapshot) + [
                {"message": message, "card": None} for message in project.diagnostics.warnings]
            if ctx.translation is not None:   # what it lacks or let fall behind, as a translated build tells
                from pnp.lang.check import card_problems
                snapshot.warnings += [{"message": f"{self.options.lang}: {problem}", "card": None}
                                      for problem in card_problems(checked.game, checked.decks, ctx.translation)]
            return snapshot

    def _deck(self, ctx: BuildContext, component: DeckComponent, look: str) -> Json:
        deck = ctx.decks[component.id]
        front, back = compile_deck_layouts(ctx, component, PREVIEW_BLEED)
        cards = first_copies(deck)
        faces = [picture_key(look, component.id, "front", front, card) for card in cards]
        backs_drawn = distinct_backs(back, cards) if back is not None else []
        back_keys = {id(card): picture_key(look, component.id, "back", back, card) for card in backs_drawn}
        # a card's back is the drawn back of its look: the same picture key (`look_of` decides both)
        back_of = [picture_key(look, component.id, "back", back, card) if back is not None else None
                   for card in cards]
        todo = [(front, card, key) for card, key in zip(cards, faces)]
        todo += [(back, card, back_keys[id(card)]) for card in backs_drawn]
        self._draw(ctx, todo, f"{component.id}.pdf")
        return dict(
            id=component.id, title=component.title or component.id,
            size_mm=[round(front.width / mm(1), 2), round(front.height / mm(1), 2)],
            bleed_mm=round(PREVIEW_BLEED / mm(1), 2), safe_mm=round(SAFE_ZONE / mm(1), 3),
            cards=[dict(label=card.label, count=count, face=key, back=back_key,
                        source=self._source(card),
                        fields={name: card.get(name) for name in deck.fields},
                        warnings=self.store.warnings(key))
                   for card, count, key, back_key in zip(cards, deck.counts, faces, back_of)])

    def _source(self, card: Card) -> str:
        """Where the card is written, as file:line from the game's root folder."""
        if card.where is None:
            return ""
        path = Path(card.where.file)
        try:
            path = path.resolve().relative_to(self.root.resolve())
        except ValueError:
            pass
        return card.where.__class__(path.as_posix(), card.where.line, card.where.field).place

    def _draw(self, ctx: BuildContext, todo: list[tuple[CompiledLayout, Card, str]], name: str) -> None:
        """Rasterise the pieces whose pictures are not in the store yet, each with its warnings."""
        todo = [item for item in dict((key, (layout, card, key)) for layout, card, key in todo).values()
                if item[2] not in self.store]
        if not todo:
            return
        diagnostics = ctx.project.diagnostics
        assert isinstance(diagnostics, CardDiagnostics)   # the preview's project: warnings by card
        told: list[list[str]] = []

        def before(index: int) -> None:
            told.append([])
            diagnostics.current = told[-1]

        pngs = pictures_of([(layout, card) for layout, card, _ in todo], FACE_DPI, name, PREVIEW_BLEED,
                           before=before)
        diagnostics.current = None
        for (_, _, key), png, warnings in zip(todo, pngs, told):
            self.store.put(key, png, warnings)

    def _pages(self, ctx: BuildContext, component: Component, look: str) -> Json:
        # a rule sheet's tables and a sheet's rows read the decks' values too
        values = repr([(deck_id, deck.cards, deck.counts) for deck_id, deck in sorted(ctx.decks.items())])
        key = hashlib.sha256(f"{look}\0{component.id}\0{ctx.options}\0{values}".encode()).hexdigest()[:24]
        pictures = self._page_sets.get(key)
        if pictures is None or any(picture not in self.store for picture in pictures):
            files = component.render(ctx)
            whole = [f for f in files if f.role == "whole"]   # a board: not its tiles
            pictures = []
            for number, png in enumerate((png for f in (whole or files) for png in rasterise(f.data, PAGE_DPI)), 1):
                pictures.append(f"{key}-{number}")
                self.store.put(pictures[-1], png, [])
            self._page_sets[key] = pictures
        # a board's or sheet's layout: with --edit, each picture opens the editor on its card
        layouts = component.layout_names()
        return dict(id=component.id, title=component.title or component.id, kind=component.kind,
                    pictures=pictures, layout=layouts[0] if layouts else None)


def picture_key(look: str, deck_id: str, side: str, layout: CompiledLayout, card: Card) -> str:
    """What a piece's picture depends on: the game's look and how its layout draws the card."""
    values = repr(layout.look_of(card))
    return hashlib.sha256(f"{look}\0{deck_id}\0{side}\0{values}".encode()).hexdigest()[:24]


def look_digest(root: Path, game: Game, decks: dict[str, Deck], options: PrintOptions) -> str:
    """Every file a picture may depend on besides the cards' values (what BuildInputs says a
    build reads: the game folder, layouts, fonts, shops, sheets and pnp's own), all but the
    deck data files, whose values each card's key holds itself. Sizes and modification times
    stand in for contents: cheap, and any save changes them."""
    from pnp.inputs import BuildInputs
    data_files = {Path(deck.path).resolve() for deck in decks.values()}
    files = BuildInputs(Path(root), (game.folder.name,)).look(leave_out=data_files)
    return hashlib.sha256(f"{options.ink_saver}\0{options.lang}\0{game.folder}\0{files}".encode()).hexdigest()


def card_warnings(snapshot: Snapshot) -> list[Json]:
    return [{"message": message, "card": f"{deck['id']}/{index}"}
            for deck in snapshot.decks for index, card in enumerate(deck["cards"])
            for message in card["warnings"]]
