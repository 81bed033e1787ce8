"""`rule: facts`: what the game's documents state about each named thing, as data with the
section it comes from, and the check that the deck says the same, one to one.

    # card_data/monster-ball/facts.yaml
    monsters:
      key: name                       # how a fact finds its card
      source: roster sheets           # the section, unless an entry names its own
      entries:
        - {name: Barbarian, team: law, tackle: 4, section: Team Law}
        - {name: Pixie, team: law, tackle: 1, section: Team Law, reading: "our reading: ..."}

    # game.yaml
    contents:
      - {rule: facts, deck: roster-cards, file: facts.yaml, table: monsters}

Every entry must have a card with its key, every field it lists must hold the stated value
on that card, its `count` (when given) the number of copies, and every card (that `where`
selects) must be named by some entry. `section` says where in the documents a fact is;
`reading` marks a fact that is our reading rather than printed in them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.config.deck import matches
from pnp.config.rules import Rule
from pnp.contents.located import at
from pnp.paths import safe_path
from pnp.config.typed import Where, load_as
from pnp.contents.stated import FactTableSpec
from pnp.yaml_source import YamlList, YamlMap, load_yaml

if TYPE_CHECKING:   # config.deck imports the rule kinds
    from pnp.config.deck import Card, Deck

META = ("section", "reading", "count")


@dataclass(kw_only=True)
class FactsRule(Rule, kind="facts"):
    """The deck agrees with the facts table `table` in `file` (in the game folder)."""

    file: str
    table: str
    where: dict[str, Any] = field(default_factory=dict)   # only these cards must be named

    def in_game(self, folder: Path) -> None:
        self.game_folder = folder

    def check(self, deck: Deck, decks: dict[str, Deck] | None = None) -> list[str]:
        table, entries = self._load(deck)
        keys = table.key if isinstance(table.key, list) else [table.key]
        key = "/".join(keys)
        default_section = table.source or self.source
        by_key: dict[str, list[tuple[Card, int]]] = {}
        for card, count in zip(deck.cards, deck.counts):
            by_key.setdefault(name_of(card, keys), []).append((card, count))
        problems = []
        named = set()
        for index, entry in enumerate(entries):
            line = entries.item_line(index)
            name = name_of(entry, keys)
            named.add(name)
            section = entry.get("section", default_section)
            stated = f'"{section}"' + (f" ({entry['reading']})" if entry.get("reading") else "")
            found = by_key.get(name)
            if not found:
                problems.append(f"{self.facts_file}:{line}: {self.table}[{index + 1}]: the documents name "
                                f"{key} '{name}' ({stated}) but no card has it")
                continue
            card = found[0][0]
            for field_name, wanted in entry.items():
                if field_name in META or field_name in keys:
                    continue
                for each, _ in found:   # every card of that name says the same
                    value = each.get(field_name)
                    if not same(value, wanted):
                        problems.append(f"{at(each)}card '{each.label}': its {field_name} is {shown(value)}; "
                                        f"{stated} says {shown(wanted)}")
            if "count" in entry:
                copies = sum(count for _, count in found)
                if copies != entry["count"]:
                    problems.append(f"{at(card)}card '{card.label}': {copies} "
                                    f"cop{'y' if copies == 1 else 'ies'}; {stated} says {entry['count']}")
        for card in deck.cards:
            if matches(card, self.where) and name_of(card, keys) not in named:
                problems.append(f"{at(card)}card '{card.label}': {key} '{name_of(card, keys)}' is not named by the "
                                f"documents ({self.facts_file}, {self.table})")
        return problems

    def _load(self, deck: Deck) -> tuple[FactTableSpec, YamlList]:
        """The table, loaded as facts.yaml's tables are (pnp.contents.stated), and its entries
        as written (their lines)."""
        # in the game folder, beside game.yaml, wherever the deck's data comes from (a copy of
        # data given by URL lies in .pnp-data/)
        path = safe_path(self.game_folder, self.file, self.origin, what="facts")
        node = load_yaml(path)
        self.facts_file = node.file
        where = self.origin
        if not isinstance(node, YamlMap) or self.table not in node or not isinstance(node[self.table], YamlMap):
            raise where.error(f"no facts table '{self.table}' in {self.file}")
        table = load_as(FactTableSpec, node[self.table], Where(node.file, node.key_line(self.table), self.table))
        entries = node[self.table]["entries"]
        keys = table.key if isinstance(table.key, list) else [table.key]
        for index, entry in enumerate(table.entries):
            if any(k not in entry for k in keys):
                raise where.error(f"{self.file}:{entries.item_line(index)}: each fact needs its "
                                  f"{', '.join(keys)}")
        return table, entries


def name_of(item: Mapping[str, Any], keys: list[str]) -> str:
    return "/".join(str(item.get(k)) for k in keys)


def same(value: object, wanted: object) -> bool:
    if isinstance(value, float) and isinstance(wanted, int) and not isinstance(wanted, bool):
        return value == wanted
    return value == wanted or (value is None and wanted in ("", None))


def shown(value: object) -> str:
    if value is None:
        return "nothing"
    return f"'{value}'" if isinstance(value, str) else str(value)
