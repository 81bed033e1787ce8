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

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pnp.config.layout_ref import LayoutChoice, LayoutName
from pnp.paths import file_error, gate
from pnp.config.typed import Loaded, Name, Tagged, load_as, where_of
from pnp.contents import facts, kinds  # noqa: F401 - every rule kind registers itself on Rule
from pnp.contents.kinds import Rule
from pnp.yaml_source import display_path, load_yaml
from pnp.errors import PnpError, did_you_mean, known
from pnp.layout.size import Size

if TYPE_CHECKING:   # only for annotations: rendering is imported when a component renders
    from pnp.config.deck import Deck
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext
    from pnp.render.shop import ShopOrder


@dataclass(kw_only=True)
class Component(Tagged, family="component", noun="a map with id and kind"):
    """A part of a game that pnp prints. Each kind says what it reads, how it renders, how it
    counts and whether print shops take it, so adding a kind is adding one class."""

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

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        raise NotImplementedError

    def check(self, game: Game, decks: dict[str, Deck]) -> None:
        """Refuse what it names that the game lacks (PnpError at the key's line), once the game
        and its decks are loaded: Project.check calls it, so list, validate, build and serve
        refuse the same things at the same moment with the same message."""

    def steps(self, decks: dict[str, Deck]) -> int:
        """Progress steps its rendering counts: a deck ticks card by card as it draws."""
        return decks[self.id].total if self.is_deck else 1

    def for_shop(self, order: ShopOrder) -> None:
        """Add its files to a print shop's order; most kinds are printed at home only."""

    def printed_double(self, duplex: str) -> bool:
        """Whether its home PDF is printed on both sides of the sheet."""
        return False

    def cutting(self, duplex: str) -> str:
        """What the print-all cover tells to do with its printed pages."""
        return "no cutting"


@dataclass(kw_only=True)
class DeckComponent(Component, kind="deck"):
    """Cards (or tokens, end zones, roster cards): pieces imposed many to a sheet, with backs."""

    data: str
    front: LayoutName | LayoutChoice       # a layout name, or {by: field, layouts: {value: layout}, default: layout}
    back: LayoutName | LayoutChoice | None = None
    size: Size | None = None
    where: dict[str, Any] = field(default_factory=dict)  # only the cards whose fields match
    gap: Any = None  # a Length between pieces; None: touching, or twice the bleed
    sheet: str | None = None  # a sheet layout in sheets/ (see pnp.sheet_layouts); None: fit the paper
    radius: Any = None  # a Length: the cut cards' rounded corners, shown in proofs and shop PNGs
    orientation: Literal["any", "upright", "turned"] = "any"  # on home sheets: turned a quarter round where more fit

    is_deck = True

    def reads(self) -> str | None:
        return self.data

    def selects(self) -> dict[str, Any]:
        return self.where

    def check(self, game: Game, decks: dict[str, Deck]) -> None:
        for side in (self.front, self.back):
            if isinstance(side, LayoutChoice):
                side.check(decks[self.id].fields)

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        from pnp.render.deck import render_deck
        return render_deck(ctx, self)

    def for_shop(self, order: ShopOrder) -> None:
        order.add_deck(self)

    def printed_double(self, duplex: str) -> bool:
        return bool(self.back) and duplex in ("long-edge", "short-edge")

    def cutting(self, duplex: str) -> str:
        if duplex == "fold":
            return "fold along the dashed line, glue, then cut on the marks"
        return "cut on the marks"


@dataclass(kw_only=True)
class RulesComponent(Component, kind="rules"):
    """The rule sheet: Markdown in the game folder, with tables generated from the data."""

    source: str
    columns: int = field(default=2, metadata={"min": 1, "max": 3})
    tables: dict[str, "RulesTableSpec"] = field(default_factory=dict)

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        from pnp.render.rulesheet import render_rules
        return render_rules(ctx, self)


@dataclass
class RulesTableSpec(Loaded):
    deck: str
    columns: list[str]
    headings: list[str] | None = None
    group: bool = True   # one row per distinct card with its count, not one per copy
    summarise_by: str | None = None  # one row per value of this field, other columns listed
    where: dict[str, Any] = field(default_factory=dict)  # only the cards that match


@dataclass(kw_only=True)
class BoardComponent(Component, kind="board"):
    """A large single piece (a game board, a field): tiled over home paper, whole for a shop."""

    layout: str
    data: str | None = None
    overlap: Any = "12mm"

    def reads(self) -> str | None:
        return self.data

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        from pnp.render.board import render_board
        return render_board(ctx, self)

    def for_shop(self, order: ShopOrder) -> None:
        order.add_board(self)

    def cutting(self, duplex: str) -> str:
        return "trim and tape the tiles as the first page shows"


@dataclass(kw_only=True)
class SheetComponent(Component, kind="sheet"):
    """One page per card of its data (or one page when it has none), drawn at paper size.
    With `rows`, one page lists every card instead: the layout's table takes `rows_from: rows`,
    one row per card holding these fields."""

    layout: str
    data: str | None = None
    where: dict[str, Any] = field(default_factory=dict)
    rows: list[str] | None = None

    def reads(self) -> str | None:
        return self.data

    def selects(self) -> dict[str, Any]:
        return self.where

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        from pnp.render.sheet import render_sheet
        return render_sheet(ctx, self)


@dataclass(kw_only=True)
class TuckboxComponent(Component, kind="tuckbox"):
    """A tuck box for each deck named (every deck of the game if none), sized from it."""

    decks: list[str] = field(default_factory=list)
    thickness: Any = "0.3mm"   # of one card
    clearance: Any = "1mm"     # added to the cards' width, height and stack

    def check(self, game: Game, decks: dict[str, Deck]) -> None:
        named = [c.id for c in game.components if c.is_deck]
        for deck_id in self.decks:
            if deck_id not in named:
                raise self.where_is("decks").error(f"'{deck_id}' is not a deck of this game",
                                                   hint=did_you_mean(deck_id, named) or f"its decks: {known(named)}")

    def render(self, ctx: BuildContext) -> list[OutputFile]:
        from pnp.render.tuckbox import render_tuckboxes
        return render_tuckboxes(ctx, self)

    def cutting(self, duplex: str) -> str:
        return "cut on the solid lines, fold on the dashed ones, glue the grey flaps"


@dataclass
class GameSpec(Loaded):
    title: str
    players: str
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
    seen: set[str] = set()
    for component in spec.components:
        if component.id in seen:
            raise component._where.error(f"two components have the id '{component.id}'")
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


def game_ids(root: Path) -> list[str]:
    folder = root / "card_data"
    if not folder.is_dir():
        return []
    return sorted(p.parent.name for p in folder.glob("*/game.yaml"))
