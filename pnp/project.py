"""A root folder of games (card_data/, layouts/, fonts/) and what is loaded from it.

The schema, the checks and the kinds are imported when a game is first loaded, not with this
module: a rebuild with nothing changed opens the project and never loads a game."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.diagnostics import Diagnostics
from pnp.errors import PnpError, ValidationFailed
from pnp.paths import check_project_folders, game_ids, safe_path

if TYPE_CHECKING:
    from pnp.config.deck import Deck
    from pnp.config.game import Game
    from pnp.contents.stated import Facts
    from pnp.fonts import FontBook


@dataclass
class Checked:
    """A game loaded, its decks read and checked against its rules: what build, validate,
    proof, watch and serve all start from."""

    game: Game
    decks: dict[str, Deck]
    problems: list[str]   # where the decks disagree with the contents the rules state

    def require_valid(self) -> None:
        if self.problems:
            raise ValidationFailed(self.problems)


class Project:
    def __init__(self, root: Path, diagnostics: Diagnostics | None = None):
        self.root = Path(root)
        if not (self.root / "card_data").is_dir():
            raise PnpError(f"no card_data/ folder in {self.root.resolve()}",
                           hint="run pnp in a pnp project, pass --root, or start one here with pnp new GAME")
        check_project_folders(self.root)
        self.diagnostics = diagnostics or Diagnostics()
        self._fonts: FontBook | None = None
        self.refresh = False   # download data given by URL again (pnp build --refresh)

    @property
    def fonts(self) -> FontBook:
        if self._fonts is None:
            from pnp.fonts import FontBook
            self._fonts = FontBook(self.root)
        return self._fonts

    def game_ids(self) -> list[str]:
        return game_ids(self.root)

    def game(self, game_id: str) -> Game:
        from pnp.config.game import load_game
        from pnp.contents import facts, kinds as rule_kinds  # noqa: F401 - each rule kind registers itself on Rule
        from pnp import kinds  # noqa: F401 - each component kind registers itself on Component
        return load_game(self.root, game_id)

    def check(self, game_id: str) -> Checked:
        """Load a game and its decks and run its contents rules. Load errors raise PnpError;
        rule problems are returned, for each command to treat as it must."""
        game, decks = self.loaded(game_id)
        return Checked(game, decks, self.problems(game, decks))

    def loaded(self, game_id: str) -> tuple[Game, dict[str, Deck]]:
        """A game and its decks, read, and what they name checked (`check_references`): all
        a build needs to draw. Load errors raise PnpError."""
        game = self.game(game_id)
        decks = self.decks(game)
        self.check_references(game, decks)
        return game, decks

    def problems(self, game: Game, decks: dict[str, Deck]) -> list[str]:
        """Where the decks disagree with what the game's rules state, a card's own problems
        first: one wrong value also breaks the counts the rules state, and the line to fix
        is the card's."""
        from pnp.contents.prose import prose_problems
        from pnp.contents.validate import validate
        from pnp.errors import display_path
        problems = validate(game, decks) + prose_problems(game, decks)
        manifest = display_path(game.folder / "game.yaml") + ":"
        return sorted(problems, key=lambda problem: problem.startswith(manifest))

    def check_references(self, game: Game, decks: dict[str, Deck]) -> None:
        """What a component or rule names that the game lacks (a tuck box's decks, the fields
        a rule names): one PnpError at the naming line, before any card is looked at. `pnp
        list` calls it too, so every command refuses the same things with the same message."""
        from pnp.contents.validate import check_rule_fields
        for component in game.components:
            component.check(game, decks)
        for rule in game.contents:
            check_rule_fields(rule, decks[rule.deck])

    def fetch_data(self, game_id: str) -> None:
        """Download the data a game gives by URL where there is no local copy yet, or every
        one with `refresh`: done before a build looks at what changed, so new data counts."""
        if not self._names_an_address(game_id):   # the common case, told without loading the game
            return
        from pnp.config.remote import is_url, local_data
        game = self.game(game_id)
        for component in game.components:
            name = component.reads()
            if name and is_url(name):
                local_data(game.folder, name, component.where_is("data"), self.refresh,
                           self.diagnostics.warn)

    def _names_an_address(self, game_id: str) -> bool:
        """Whether the game's manifest could give data by URL: no web address in its text, none
        in the game. A manifest that is a link, or cannot be read, is loaded (through the read
        gate), to say why."""
        folder = self.root / "card_data" / game_id
        manifest = folder / "game.yaml"
        if folder.is_symlink() or manifest.is_symlink():
            return True
        try:
            return b"://" in manifest.read_bytes()
        except OSError:
            return True

    def decks(self, game: Game) -> dict[str, Deck]:
        """Each component with data, as the deck of cards it draws (its `where` applied)."""
        from pnp.config.deck import check_where, load_deck, select
        from pnp.config.remote import is_url, local_data
        from pnp.config.sheets import NoSuchSheet, is_sheet, load_sheet_deck, split_sheet
        from pnp.contents.stated import facts_of
        files: dict[str, Deck] = {}   # by the name the game gives, sheet included
        decks: dict[str, Deck] = {}
        for component in game.components:
            name = component.reads()
            if not name:
                continue
            where = component.where_is("data")
            if is_url(name):   # read from the local copy, downloaded when there is none
                copy = local_data(game.folder, name, where, False, self.diagnostics.warn)
                _, mark, sheet_name = name.partition("#")
                name = copy.relative_to(game.folder).as_posix() + mark + sheet_name
            file, sheet = split_sheet(name) if is_sheet(name) else (name, None)
            path = safe_path(game.folder, file, where, what="data")
            if path.suffix.lower() in (".ods", ".numbers", ".xls"):
                raise where.error(f"pnp reads CSV, TSV, XLSX and YAML, not {path.suffix} files",
                                  hint="save the sheet as XLSX or CSV from your spreadsheet program")
            if not path.is_file():
                raise where.error(f"data file '{file}' not found in {game.folder}")
            if name not in files:
                try:
                    files[name] = load_sheet_deck(path, sheet, self.diagnostics.warn) if is_sheet(name) \
                        else load_deck(path)
                except NoSuchSheet as exc:   # told where the sheet is named: game.yaml's data line
                    raise where.error(f"{exc.file}: {exc.message}", hint=exc.hint) from None
                fill_texts(files[name], facts_of(game))
            where_filter = component.selects()
            check_where(where_filter, files[name], component.where_is("where"))
            decks[component.id] = select(files[name], where_filter)
        return decks


def fill_texts(deck: Deck, facts: Facts) -> None:
    """Each card's text with the values it takes from its own fields and the facts filled in."""
    from pnp.contents.stated import fill_card_text
    for card in deck.cards:
        fill_card_text(card, deck.fields, facts)
