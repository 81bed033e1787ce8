"""The game manifest, card_data/<id>/game.yaml: what a game is made of and what its rules state.

    title: The 12th Player
    players: 2-4
    paper: letter
    components:
      - {id: cards, kind: deck, data: cards.yaml, front: 12th-player/card, back: 12th-player/back}
      - {id: rules, kind: rules, source: rules.md}
    contents:
      - {rule: total, deck: cards, equals: 17, source: CARDS}
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pnp.config.rules import Rule
from pnp.config.typed import Loaded, Name, Tagged, Where, load_as, where_of
from pnp.errors import PnpError, did_you_mean, known
from pnp.paths import file_error, game_ids, gate
from pnp.yaml_source import display_path, load_yaml

if TYPE_CHECKING:
    from pnp.config.deck import Deck


@dataclass(kw_only=True)
class Component(Tagged, family="component", noun="a map with id and kind"):
    """A part of a game that pnp prints: the schema every kind shares. Each kind is a subclass in
    its own module of pnp/kinds/ (`class DeckComponent(Component, kind="deck")`), registered on
    this family as it is defined: it says what it reads, how it renders, how it counts, what a
    print shop takes of it and how it is printed and cut. config/ knows no kind; loading a game
    finds the class its `kind:` names in the registry, and `render` is that class's."""

    id: Name
    kind: str
    title: str = ""
    description: str = ""

    is_deck: ClassVar[bool] = False   # pieces many to a sheet: proofed, boxed and counted card by card

    def reads(self) -> str | None:
        """The card data it draws (a file in the game folder, a sheet in one, or a URL)."""
        return None

    def selects(self) -> dict[str, Any]:
        """Only the cards of its data whose fields match these (its `where:`)."""
        return {}

    def layout_names(self) -> list[str]:
        """The layouts it is drawn with (what `pnp serve --edit` may change for it)."""
        return []

    def pieces(self, ctx: Any, side: str, bleed: float) -> tuple[Any, list[Any]]:
        """The layout its `side` (front or back) is drawn with, compiled with `bleed` where the
        kind draws one (a deck's may be a choice per card), and the card of each distinct
        piece; (None, []) when it has no such side. The layout editor draws from these."""
        return None, []

    def render(self, ctx: Any) -> list[Any]:
        """Its home files (pnp.outputs.pdf.OutputFile) drawn in a build (pnp.render.BuildContext),
        by the kind's own module; typed loosely here because drawing sits above the schema."""
        raise NotImplementedError

    def check(self, game: Game, decks: dict[str, Deck]) -> None:
        """Refuse what it names that the game lacks (PnpError at the key's line), once the game
        and its decks are loaded: Project.check calls it, so list, validate, build and serve
        refuse the same things at the same moment with the same message."""

    def deck_view(self, game: Game, decks: dict[str, Deck]) -> str | None:
        """What it draws of the game's decks beyond its own data, as text: its files from the
        last build stand while this and its own data are the same (pnp.outputs.reuse). None: a
        kind with data of its own draws only that; one without (and that does not say) is drawn
        again on any change to any deck's data, which is never wrong."""
        return None

    def steps(self, decks: dict[str, Deck]) -> int:
        """Progress steps its rendering counts: a deck ticks card by card as it draws."""
        return decks[self.id].total if self.is_deck else 1

    def shop_pieces(self, ctx: Any, bleed: float, safe: float) -> Any:
        """What a print shop takes of it (pnp.render.ShopPieces: cards, or one whole piece),
        compiled at the shop's bleed and safe zone; None: printed at home only, as most kinds."""
        return None

    def rule_sheet(self) -> str | None:
        """The Markdown rule sheet it prints (a file in the game folder), if any: translations
        and the check of printed numbers read it."""
        return None

    def translated(self, say: Callable[[str, Where], str], right_to_left: bool) -> Component:
        """A copy in a translation's language (`say(text, where)`): its title and description;
        a kind with words of its own (a rule sheet's table headings) adds them."""
        changed = copy.copy(self)
        for key in ("title", "description"):
            if getattr(self, key):
                setattr(changed, key, say(getattr(self, key), self.where_is(key)))
        if not self.title:   # its id is printed for it (the contents list, the print-all cover)
            changed.title = say(self.id, self.where_is("id"))
        return changed

    def printed_double(self, duplex: str) -> bool:
        """Whether its home PDF is printed on both sides of the sheet."""
        return False

    def cutting(self, duplex: str) -> str:
        """What the print-all cover tells to do with its printed pages."""
        return "no cutting"


@dataclass
class GameSpec(Loaded):
    title: str
    players: str | int = field(metadata={"min": 1, "max": 100})   # "2-4", or a number as YAML reads `players: 2`
    paper: Literal["letter", "a4"] = "letter"
    description: str = ""
    source: str = ""        # the document the game's facts come from
    credit: str = ""        # who made the original game
    components: list[Component] = field(default_factory=list)
    contents: list[Rule] = field(default_factory=list)


@dataclass
class Game:
    id: str
    folder: Path
    spec: GameSpec
    components: list[Component]
    contents: list[Rule]     # validator rules, see pnp.contents
    manifest: Path

    @property
    def title(self) -> str:
        return self.spec.title


PLAYERS = re.compile(r"([0-9]+)(?:\s*[-–]\s*([0-9]+)|\s*\+)?")   # 2, 2-4 (or 2–4), 2+


def check_players(spec: GameSpec) -> None:
    """`players:` is a number or a range of them (`2-4`, `2+`): `lots` or `4-2` printed in
    `pnp list` and on the print-all cover as written."""
    if isinstance(spec.players, int):
        return   # its bounds are checked as loaded
    written = spec.players.strip()
    found = PLAYERS.fullmatch(written)
    low, high = (int(found.group(1)), int(found.group(2) or found.group(1))) if found else (0, 0)
    if not found or not 1 <= low <= high <= 100:
        raise spec.where_is("players").error(
            f"'{spec.players}' is not a number of players or a range of them",
            hint="write a number from 1 to 100 or a range, e.g. 2, 2-4 or 2+")
    spec.players = written   # as `pnp list` and the cover print it


def load_game(root: Path, game_id: str) -> Game:
    folder = root / "card_data" / game_id
    manifest = folder / "game.yaml"
    if not manifest.is_file():
        games = game_ids(root)
        raise PnpError(f"unknown game '{game_id}'",
                       hint=did_you_mean(game_id, games) or
                       (f"known games: {known(games)}" if games else
                        f"no games in {display_path(root / 'card_data')}"))
    # the game folder itself a real folder of card_data/: a shared game unzipped as a link to
    # elsewhere (a home folder) would make everything there "inside the game folder"
    gate(folder, [root / "card_data"], file_error(folder), "the game folder", shown=game_id,
         where_to="card_data/ (a game folder that is a link to elsewhere is refused; "
                  "use --root for games kept elsewhere)")
    gate(manifest, [folder], file_error(manifest), "game.yaml")
    node = load_yaml(manifest)
    where = where_of(node)
    spec = load_as(GameSpec, node, where)
    check_players(spec)
    seen: set[str] = set()
    for component in spec.components:
        if component.id in seen:
            raise component.origin.error(f"two components have the id '{component.id}'")
        seen.add(component.id)
    if not spec.components:
        raise where.error("the game has no components; list at least one under 'components'")
    with_data = [c.id for c in spec.components if c.reads()]
    for rule in spec.contents:
        if rule.deck not in with_data:
            raise rule.where_is("deck").error(f"no component with data called '{rule.deck}'",
                                              hint=did_you_mean(rule.deck, with_data)
                                              or f"components with data: {known(with_data)}")
    return Game(game_id, folder, spec, spec.components, spec.contents, manifest)


