"""Card logic without code: a `when:` says which cards an element is drawn for.

    when: bonus                      # the card's bonus is set (0 counts; "", [] and no do not)
    when: {type: captain}            # type is captain
    when: {type: [captain, mate]}    # type is one of these
    when: {power: {at_least: 3}}     # also at_most, above, below, is, one_of, set: true|false
    when: {not: {type: captain}}     # the opposite
    when: {any: [{type: captain}, {power: {above: 5}}]}   # one of these holds
    when: {type: crew, power: {below: 3}}                 # several keys: all of them hold

A condition is parsed once, names the fields it reads (so a misspelt one is an error at
validate time, and stamped looks know what they depend on), and is then a plain test of
values per card: nothing is evaluated.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from pnp.yaml_source import YamlList, type_name

if TYPE_CHECKING:
    from pnp.config.typed import Where

class CardValues(Protocol):
    """A card's values by field name, as a condition reads them (a dict is one)."""

    def get(self, key: str, default: Any = None, /) -> Any: ...

COMBINERS = ("not", "any", "all")
COMPARISONS = ("is", "one_of", "at_least", "at_most", "above", "below", "set")


@dataclass(frozen=True)
class Condition:
    """Holds for a card or not; `uses` names each card field it reads, with where it is
    written (for a misspelt one); `compared`, those whose value decides, not only whether
    they are set (a translation may change the words of a field only tested for being set)."""

    uses: tuple[tuple[str, Where], ...]
    test: Callable[[CardValues], bool]
    compared: frozenset[str] = frozenset()
    # what each comparison wants of its field: (field, "number" or "value", the value written,
    # where), so a comparison no value of the field's type can meet is warned about
    # (`expectation_problem`)
    expects: tuple[tuple[str, str, object, Where], ...] = ()
    # the fields it tests only for being set (`when: bonus`), where: a text of "no" counts as set
    set_tests: tuple[tuple[str, Where], ...] = ()

    @property
    def fields(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.uses)

    def holds(self, card: CardValues) -> bool:
        return self.test(card)


def _joined(parts: list[Condition]) -> tuple[tuple[str, Where], ...]:
    return tuple(use for part in parts for use in part.uses)


def _compared(parts: list[Condition]) -> frozenset[str]:
    return frozenset().union(*(part.compared for part in parts))


def _expected(parts: list[Condition]) -> tuple[tuple[str, str, object, Where], ...]:
    return tuple(expect for part in parts for expect in part.expects)


def _set_tests(parts: list[Condition]) -> tuple[tuple[str, Where], ...]:
    return tuple(test for part in parts for test in part.set_tests)


NO_WORDS = ("no", "false", "off", "none", "0")   # a text that says "not set", which still counts as set


def set_test_problem(field: str, values: list[object]) -> str | None:
    """Why testing a field for being set may not say what its cards mean: some of them hold a
    text that says no, which counts as set."""
    saying_no = sorted({value.strip() for value in values if isinstance(value, str) and value.strip().lower() in NO_WORDS})
    if not saying_no:
        return None
    count = sum(1 for value in values if isinstance(value, str) and value.strip() in saying_no)
    return (f"when: {field} holds for every card whose {field} is written, and {count} {'says' if count == 1 else 'say'} "
            f"{' or '.join(repr(word) for word in saying_no)}, which is text, so set; declare {field} "
            f"a flag (type: flag) for yes and no to count, or compare it: {{{field}: \"yes\"}}")


def is_set(value: object) -> bool:
    return value is not None and value is not False and value != "" and value != []


def same(value: object, wanted: object) -> bool:
    """A card's value against one written in a layout: 3 and "3" are the same, as a designer
    reads them; a number against a word is simply not equal."""
    if value == wanted:
        return True
    return value is not None and str(value) == str(wanted)


def parse_condition(value: object, where: Where) -> Condition:
    """A `when:` value as a Condition; every mistake is an error at `where`."""
    if isinstance(value, str):
        name = value.strip()
        if not name:
            raise where.error("when: names a field, or compares one: {field: value}")
        return Condition(((name, where),), lambda card: is_set(card.get(name)),   # set or not: compares nothing
                         set_tests=((name, where),))
    if not isinstance(value, dict) or not value:
        raise where.error(f"when: expected a field name or a map such as {{type: captain}}, "
                          f"found {type_name(value)}")
    parts = [_part(key, value[key], where.key(value, key)) for key in value]
    if len(parts) == 1:
        return parts[0]
    return Condition(_joined(parts), lambda card: all(p.holds(card) for p in parts), _compared(parts),
                     _expected(parts), _set_tests(parts))


def _part(key: object, value: object, where: Where) -> Condition:
    if key == "not":
        inner = parse_condition(value, where)
        return Condition(inner.uses, lambda card: not inner.holds(card), inner.compared, inner.expects,
                         inner.set_tests)
    if key in ("any", "all"):
        if not isinstance(value, list) or not value:
            raise where.error(f"'{key}' takes a list of conditions, e.g. {key}: [{{type: a}}, {{power: {{above: 2}}}}]")
        items = [parse_condition(item, where.item(value, i) if isinstance(value, YamlList) else where)
                 for i, item in enumerate(value)]
        combine = any if key == "any" else all
        return Condition(_joined(items), lambda card: combine(c.holds(card) for c in items), _compared(items),
                         _expected(items), _set_tests(items))
    name = str(key)
    only_set = isinstance(value, dict) and set(value) == {"set"}   # {set: true}: compares nothing
    expects = tuple((name, kind, operand, at) for kind, operand, at in _wants(value, where))
    return Condition(((name, where),), _comparison(name, value, where),
                     frozenset() if only_set else frozenset({name}), expects)


def _wants(wanted: object, where: Where) -> list[tuple[str, object, Where]]:
    """What a comparison asks of its field's values: ("number", operand) for at_least and the
    like, ("value", operand) for each value it may equal."""
    if isinstance(wanted, list):
        return [("value", item, where) for item in wanted]
    if not isinstance(wanted, dict):
        return [("value", wanted, where)]
    found: list[tuple[str, object, Where]] = []
    for op, operand in wanted.items():
        if op in ("is", "one_of"):
            items = operand if isinstance(operand, list) else [operand]
            found += [("value", item, where.key(wanted, op)) for item in items]
        elif op in ("at_least", "at_most", "above", "below"):
            found.append(("number", operand, where.key(wanted, op)))
    return found


def expectation_problem(field: str, field_type: str | None, kind: str, operand: object) -> str | None:
    """Why a comparison can never hold for a field of `field_type` (in the deck being drawn: a
    layout several decks share may mean it for one of them), or None: a number compared with
    text, a flag with a word, a number field with a word, a text field with YAML's reading of an
    unquoted yes or no."""
    if kind == "number" and field_type in ("text", "flag", "list", "table", "colour"):
        return (f"'{field}' is a {field_type} field in these cards, and comparing it as a number never holds; "
                f"declare it whole or number")
    if kind != "value" or operand is None:   # None: the cards where it is blank
        return None
    if field_type == "flag" and not (same(True, operand) or same(False, operand)):
        return (f"'{field}' is a flag (true or false) in these cards, so '{operand}' never matches it; "
                f"compare it with true or false")
    if field_type in ("whole", "number") and isinstance(operand, str) and not _number_text(operand):
        return f"'{field}' is a {field_type} field in these cards, so the word '{operand}' never matches it"
    if field_type == "text" and isinstance(operand, bool):
        return (f"'{field}' is text in these cards, and YAML reads this value as {str(operand).lower()} (an "
                f"unquoted yes, no, on, off, true or false); quote it to compare with the words, e.g. \"Yes\"")
    return None


def _number_text(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _comparison(name: str, wanted: object, where: Where) -> Callable[[CardValues], bool]:
    if isinstance(wanted, list):
        return lambda card: any(same(card.get(name), w) for w in wanted)
    if not isinstance(wanted, dict):
        return lambda card: same(card.get(name), wanted)
    tests: list[Callable[[CardValues], bool]] = []
    for op, operand in wanted.items():
        op_where = where.key(wanted, op)
        if op not in COMPARISONS:
            from pnp.errors import did_you_mean
            raise op_where.error(f"'{op}' is not a comparison; use {', '.join(COMPARISONS)}",
                                 hint=did_you_mean(str(op), COMPARISONS))
        tests.append(_operator(name, op, operand, op_where))
    if not tests:
        raise where.error("an empty comparison; write e.g. {at_least: 3}")
    return lambda card: all(test(card) for test in tests)


def _operator(name: str, op: str, operand: object, where: Where) -> Callable[[CardValues], bool]:
    if op == "is":
        return lambda card: same(card.get(name), operand)
    if op == "one_of":
        if not isinstance(operand, list):
            raise where.error("one_of takes a list, e.g. one_of: [a, b]")
        return lambda card: any(same(card.get(name), w) for w in operand)
    if op == "set":
        if not isinstance(operand, bool):
            raise where.error("set takes true or false")
        return lambda card: is_set(card.get(name)) == operand
    if isinstance(operand, bool) or not isinstance(operand, (int, float)):
        raise where.error(f"{op} takes a number, found {type_name(operand)}")
    compare: Callable[[float], bool] = {"at_least": lambda v: v >= operand, "at_most": lambda v: v <= operand,
               "above": lambda v: v > operand, "below": lambda v: v < operand}[op]

    def test(card: CardValues) -> bool:
        value = card.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False   # no number, no comparison: a blank power is not "at least 3"
        return compare(value)
    return test
