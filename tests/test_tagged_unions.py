"""The typed loader's tagged unions: a `kind` (or `rule`) key picks the class from its family's
registry, and every loaded object keeps the line of each of its keys."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pnp.config.game import Component, GameSpec
from pnp.kinds.deck import DeckComponent
from pnp.config.typed import Tagged, load_as, where_of
from pnp.contents.kinds import Rule, TotalRule
from pnp.errors import PnpError
from pnp.layout.kinds import Element
from pnp.layout.elements import TextSpec
from pnp.yaml_source import load_yaml


def loaded(tmp_path: Path, text: str):
    path = tmp_path / "thing.yaml"
    path.write_text(text)
    return load_yaml(path)


def refused(family, tmp_path: Path, text: str) -> PnpError:
    node = loaded(tmp_path, text)
    with pytest.raises(PnpError) as caught:
        family.parse(node["item"], where_of(node).key(node, "item"))
    return caught.value


def test_the_kind_key_picks_the_class_from_its_family(tmp_path):
    node = loaded(tmp_path, "item:\n  kind: text\n  text: hi\n")
    element = Element.parse(node["item"], where_of(node).key(node, "item"))
    assert type(element) is TextSpec and element.text == "hi"


def test_an_unknown_kind_is_told_at_the_kind_key_with_a_did_you_mean(tmp_path):
    error = refused(Element, tmp_path, "item:\n  x: 1mm\n  kind: txt\n")
    assert (error.line, error.field) == (3, "item.kind")
    assert error.message == "unknown element kind 'txt'" and error.hint == "did you mean 'text'?"


def test_an_unknown_kind_nothing_like_a_known_one_lists_them(tmp_path):
    error = refused(Component, tmp_path, "item: {id: a, kind: zzzzzz}\n")
    assert error.hint == "known kinds: board, deck, rules, sheet, tuckbox"


def test_a_missing_kind_names_the_map_and_the_choices(tmp_path):
    error = refused(Element, tmp_path, "item:\n  text: hi\n")
    assert error.line == 2 and error.field == "item.kind"   # the map's own line
    assert error.message.startswith("an element needs a 'kind': one of box, ellipse, field")


def test_a_kind_that_is_not_a_word_is_told_at_the_key(tmp_path):
    error = refused(Component, tmp_path, "item:\n  id: a\n  kind: [deck]\n")
    assert (error.line, error.field) == (3, "item.kind")
    assert error.message == "a component kind is a word, found a list"


def test_an_item_that_is_not_a_map_says_what_was_expected(tmp_path):
    error = refused(Rule, tmp_path, "item: total\n")
    assert error.message == "expected a rule (a map with 'rule' and 'deck'), found the text 'total'"


def test_rules_are_chosen_by_their_rule_key(tmp_path):
    node = loaded(tmp_path, "item: {rule: total, deck: cards, equals: 3}\n")
    assert type(Rule.parse(node["item"], where_of(node).key(node, "item"))) is TotalRule
    error = refused(Rule, tmp_path, "item:\n  deck: cards\n  rule: totl\n")
    assert (error.line, error.field, error.hint) == (3, "item.rule", "did you mean 'total'?")


def test_a_list_of_a_family_loads_each_item_as_its_kind_with_its_own_line(tmp_path):
    node = loaded(tmp_path, "title: T\nplayers: '2'\ncomponents:\n"
                            "  - {id: a, kind: rules, source: r.md}\n"
                            "  - id: b\n    kind: dekc\n")
    with pytest.raises(PnpError) as caught:
        load_as(GameSpec, node, where_of(node))
    assert (caught.value.line, caught.value.field) == (6, "components[2].kind")
    assert caught.value.hint == "did you mean 'deck'?"


def test_a_member_outside_the_annotated_part_of_a_family_is_refused(tmp_path):
    node = loaded(tmp_path, "item: {id: a, kind: rules, source: r.md}\n")
    with pytest.raises(PnpError, match="a rules is not allowed here"):
        DeckComponent.parse(node["item"], where_of(node).key(node, "item"))


def test_a_new_family_registers_its_kinds_by_subclassing():
    @dataclass(kw_only=True)
    class Shape(Tagged, family="shape", tag="form"):
        form: str

    @dataclass(kw_only=True)
    class Round(Shape, kind="round"):
        radius: float = 1.0

    assert Shape.kinds == {"round": Round} and "round" not in Element.kinds
    with pytest.raises(TypeError, match="two shape kinds are called 'round'"):
        class Again(Shape, kind="round"):
            pass


def test_a_loaded_object_knows_the_line_of_each_key(tmp_path):
    node = loaded(tmp_path, "item:\n  id: cards\n  kind: deck\n  data: cards.yaml\n\n  gap: 2mm\n  front: f\n")
    deck = Component.parse(node["item"], where_of(node).key(node, "item"))
    assert (deck.where_is("gap").line, deck.where_is("gap").field) == (6, "item.gap")
    assert deck.where_is("data").line == 4
    assert deck.where_is("back").line == 1   # left out: the line of the map's own key


def test_a_loaded_object_tells_where_it_came_from_beside_its_own_where_key(tmp_path):
    node = loaded(tmp_path, "item:\n  id: cards\n  kind: deck\n  data: cards.yaml\n  front: f\n"
                            "  where: {suit: red}\n")
    deck = Component.parse(node["item"], where_of(node).key(node, "item"))
    assert (deck.origin.line, deck.origin.field) == (1, "item")
    assert deck.where == {"suit": "red"}   # the deck's own `where:` key, not where it came from
    with pytest.raises(AttributeError):
        deck.origin = deck.origin   # read-only


def test_an_error_found_after_loading_points_at_its_key(tmp_path):
    from pnp.config.typed import Where
    from pnp.layout.template import load_template
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts/card.yaml").write_text("size: poker\npalette:\n  ok: '#ffffff'\n  bad: '#12'\n"
                                                "elements: []\n")
    with pytest.raises(PnpError) as caught:
        load_template(tmp_path, "card", Where("game.yaml", 1, "front"))
    assert (caught.value.line, caught.value.field) == (4, "palette.bad")


# --- no import cycles ------------------------------------------------------------------------

PACKAGE = Path(__file__).resolve().parent.parent / "pnp"


def runtime_nodes(tree: ast.AST):
    """Every node of a module but those under `if TYPE_CHECKING:`, which never run."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for other in node.orelse:
                yield other
                yield from runtime_nodes(other)
            continue
        yield node
        yield from runtime_nodes(node)


def pnp_imports() -> dict[str, set[str]]:
    """Each pnp module and the pnp modules it imports, inside functions too (imports only
    made for type checking are left out)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in modules.items():
        found = set()
        for node in runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
        graph[name] = {other for other in found if other in modules and other != name}
    return graph


def test_no_pnp_module_imports_itself_round_a_circle():
    graph = pnp_imports()
    finished: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(name):] + [name]))
        if name in finished:
            return
        for other in sorted(graph[name]):
            visit(other, path + [name])
        finished.add(name)

    for name in sorted(graph):
        visit(name, [])


# --- a component kind is one class -----------------------------------------------------------

def test_a_new_component_kind_is_one_class_that_load_list_and_build_use(mini, tmp_path):
    from pnp.commands.build import build_game
    from pnp.commands.listing import describe_games
    from pnp.config.deck import Deck
    from pnp.outputs.pdf import OutputFile
    from pnp.project import Project
    from pnp.render import PrintOptions

    @dataclass(kw_only=True)
    class NoteComponent(Component, kind="note"):
        text: str
        data: str | None = None

        def reads(self) -> str | None:
            return self.data

        def render(self, ctx) -> list[OutputFile]:
            cards = ctx.decks[self.id].total if self.data else 0
            return [OutputFile(f"{self.id}.txt", f"{self.text} ({cards} cards)".encode())]

    manifest = mini / "card_data/mini/game.yaml"
    manifest.write_text(manifest.read_text().replace(
        "contents:", "  - {id: note, kind: note, text: hello, data: cards.yaml}\ncontents:"))
    try:
        project = Project(mini)
        assert "  note             note" in describe_games(project)
        written = build_game(project, "mini", tmp_path / "out", None, PrintOptions(), shops=())
        assert (tmp_path / "out/mini/note.txt").read_text() == "hello (6 cards)"
        assert any(item.path.name == "note.txt" for item in written)
        assert isinstance(project.decks(project.game("mini"))["note"], Deck)
    finally:
        del Component.kinds["note"]
