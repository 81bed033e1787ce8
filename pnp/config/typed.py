"""Turn loaded YAML into typed dataclasses, or into one clear error.

A config class is a plain dataclass. Its annotations say what each key must hold; this module
checks that, fills defaults, refuses unknown keys with a did-you-mean, and names the file, line
and dotted field of anything wrong. Types with their own rules (lengths, colours) provide a
`parse(value, where)` classmethod.

A family of config classes told apart by a key (elements by `kind`, components by `kind`,
contents rules by `rule`) is a `Tagged` root class: each member registers itself with
`class BoxSpec(Element, kind="box")`, and a `list[Element]` annotation loads each item as the
member its key names, as MkDocs's typed config options do.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import types
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from pnp.yaml_source import YamlList, YamlMap, type_name
from pnp.errors import PnpError, did_you_mean, in_one_line, is_row, known
from pnp.units import Length

T = TypeVar("T")


@dataclass(frozen=True, slots=True)   # slots: one a card, so 20,000 of them in a big deck
class Where:
    """Where a value came from: file, line and the dotted path of the field."""

    file: str
    line: int | None
    field: str

    def key(self, node: object, key: object) -> "Where":
        """Where the value of `key` is: `node` is the YAML map, or the object loaded from it."""
        if isinstance(node, YamlMap):
            line = node.key_line(key)
        else:
            line = node._key_lines.get(key, self.line) if isinstance(node, Loaded) else self.line
        name = str(key)
        if not name.isprintable():   # a label written over several lines: the message stays one line
            name = in_one_line(name)
        return Where(self.file, line, f"{self.field}.{name}" if self.field else name)

    def item(self, node: object, index: int) -> "Where":
        line = node.item_line(index) if isinstance(node, YamlList) else self.line
        return Where(self.file, line, f"{self.field}[{index + 1}]")

    def error(self, message: str, hint: str | None = None) -> PnpError:
        return PnpError(message, file=self.file, line=self.line, field=self.field or None, hint=hint)

    @property
    def place(self) -> str:
        """Where to look, as a reader would: `cards.yaml:12`, or for a spreadsheet's row (which
        has no line) `cards.xlsx, sheet Cards, row 7`."""
        return place_of(self.file, self.line, self.field)


def place_of(file: str, line: int | None, field: str | None) -> str:
    if line is not None:
        return f"{file}:{line}"
    if field and is_row(field):
        return f"{file}, {field}"
    return file



class Name(str):
    """An id that names output files: letters, digits, `-` and `_`, so no id can lead a file
    out of the output folder or clash with the file system's own names."""

    PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")

    @classmethod
    def parse(cls, value: object, where: Where) -> "Name":
        if not isinstance(value, str) or isinstance(value, bool):
            raise where.error(f"expected a name, found {type_name(value)}")
        if not cls.PATTERN.match(value):
            raise where.error(f"'{value}' is not a plain name: use letters, digits, '-' and '_' "
                              f"(at most 64, starting with a letter or digit)")
        return cls(value)


_ONE_FIELD = re.compile(r"^\{\s*([A-Za-z][A-Za-z0-9_-]*)\s*\}$")


@dataclass(frozen=True)
class FromField:
    """A number, length or turn written as one card field, `"{size}"`, in a class that allows
    it (`values_from_fields`): whoever draws it looks the value up per card and checks it as
    it would the same value written in place."""

    name: str

    @property
    def text(self) -> str:
        return "{" + self.name + "}"


def from_field(kind: Any, value: object) -> FromField | None:
    """`value` as a FromField when it is one field in braces and `kind` (a key's annotation)
    is a number, length or choice of numbers: text keys bind fields their own way."""
    if not isinstance(value, str):
        return None
    match = _ONE_FIELD.match(value)
    if match is None:
        return None
    options = typing.get_args(kind) if typing.get_origin(kind) in (typing.Union, types.UnionType) else (kind,)
    if str in options or typing.Any in options:
        return None
    numeric = any(o in (float, Length) or (typing.get_origin(o) is Literal
                                           and all(isinstance(a, (int, float)) for a in typing.get_args(o)))
                  for o in options)
    return FromField(match.group(1)) if numeric else None


class Loaded:
    """What `load_as` gives every object it loads: where it came from and the line of each of
    its keys, so a problem found later points at the key, not the map."""

    _where: Where
    _key_lines: dict[Any, int | None]   # keyed as the YAML map was

    @property
    def origin(self) -> Where:
        """Where this object was loaded from: its map's file, line and dotted field. Not
        `where`: decks, sheets and rules have a `where:` key of their own, which a property of
        that name would shadow."""
        return self._where

    def where_is(self, key: str) -> Where:
        """Where the value of `key` is written (the map's own line when the key was left out)."""
        return self._where.key(self, key)


class Tagged(Loaded):
    """The root of a family of config classes, each chosen by the value of one key.

        @dataclass(kw_only=True)
        class Element(Tagged, family="element"): ...
        @dataclass(kw_only=True)
        class BoxSpec(Element, kind="box"): ...

    `tag` names the key that chooses (default `kind`); `noun` how an item is described in
    the error for one that is not a map."""

    family: ClassVar[str]
    tag: ClassVar[str]
    noun: ClassVar[str]
    kinds: ClassVar[dict[str, type]]

    def __init_subclass__(cls, *, family: str | None = None, tag: str = "kind", noun: str = "",
                          kind: str | None = None, **rest: Any) -> None:
        super().__init_subclass__(**rest)
        if family is not None:   # a new family, with its own registry
            cls.family, cls.tag, cls.kinds = family, tag, {}
            cls.noun = noun or f"a map with '{tag}'"
        if kind is not None:
            if kind in cls.kinds:
                raise TypeError(f"two {cls.family} kinds are called '{kind}'")   # a bug in pnp
            cls.kinds[kind] = cls

    @classmethod
    def parse(cls, node: object, where: Where) -> Any:
        """Load `node` as the member of the family its tag names."""
        tag, kinds, a_family = cls.tag, cls.kinds, f"{article(cls.family)} {cls.family}"
        if not isinstance(node, dict):
            raise where.error(f"expected {a_family} ({cls.noun}), found {type_name(node)}")
        kind = node.get(tag)
        if kind is None:   # told at the map's line, naming the key it lacks
            raise where.key(node, tag).error(f"{a_family} needs a '{tag}': one of {known(kinds)}")
        if not isinstance(kind, str):
            raise where.key(node, tag).error(f"{a_family} kind is a word, found {type_name(kind)}",
                                             hint=f"known kinds: {known(kinds)}")
        if kind not in kinds:
            raise where.key(node, tag).error(f"unknown {cls.family} kind '{kind}'",
                                             hint=did_you_mean(kind, kinds) or f"known kinds: {known(kinds)}")
        loaded: object = load_as(kinds[kind], node, where)
        if not isinstance(loaded, cls):   # the annotation asked for part of a family
            raise where.key(node, tag).error(f"{article(kind)} {kind} is not allowed here")
        return loaded


def article(word: str) -> str:
    return "an" if word[:1] in ("a", "e", "i", "o", "u") else "a"


def where_of(node: object, field: str = "") -> Where:
    return Where(getattr(node, "file", "?"), getattr(node, "line", None), field)


def load_as(cls: type[T], node: object, where: Where) -> T:
    """Build `cls` (a dataclass) from a YAML map, checking every key."""
    if not isinstance(node, dict):
        raise where.error(f"expected a map of settings, found {type_name(node)}")
    hints, fields = settings_of(typing.cast(type, cls))
    for key in node:
        if key not in fields:
            raise where.key(node, key).error(
                f"unknown key '{key}'",
                hint=did_you_mean(key, fields) or f"known keys: {known(fields)}")
    for key, others in getattr(cls, "instead_of", {}).items():
        given = [other for other in others if other in node]
        if key in node and given:
            raise where.key(node, key).error(
                f"'{key}' takes the place of {', '.join(others)}, and this also gives {', '.join(given)}",
                hint=f"keep '{key}' or {' and '.join(given)}, not both")
    values = {}
    fields_allowed = getattr(cls, "values_from_fields", False)
    for name, spec in fields.items():
        bound = from_field(hints[name], node[name]) if fields_allowed and name in node else None
        if bound is not None:
            values[name] = bound   # checked against the card's value when drawn
        elif name in node:
            values[name] = convert(hints[name], node[name], where.key(node, name))
            check_limits(spec, values[name], where.key(node, name), node[name])
        elif spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
            raise where.error(f"missing required key '{name}'")
    obj = cls(**values)
    # where it came from, for errors found later (`Loaded` declares these; a plain dataclass takes them too)
    setattr(obj, "_where", where)
    setattr(obj, "_key_lines", {key: node.key_line(key) for key in node} if isinstance(node, YamlMap) else {})
    return obj


@functools.cache
def settings_of(cls: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """A config class's annotations and its fields, worked out once per class: evaluating
    annotations is most of the cost of loading a layout."""
    return typing.get_type_hints(cls), {f.name: f for f in dataclasses.fields(cls) if f.init}


@dataclass(frozen=True)
class LengthLimits:
    """The lengths a key takes, checked as it loads: from `least` to `most` points (None: no
    bound), never a percentage. `problem` is the sentence for a value outside, `{value}`
    standing for the value as written."""

    least: float
    most: float | None
    problem: str


def lengths(least: float, most: float | None, problem: str) -> dict[str, Any]:
    """A key's metadata for a `Length` from `least` to `most` points, not a percentage:
    `gap: Length | None = field(default=None, metadata=lengths(0, None, "..."))`."""
    return {"lengths": LengthLimits(least, most, problem)}


def check_limits(spec: dataclasses.Field[Any], value: object, where: Where, written: object = None) -> None:
    """`value` (loaded from `written`) within the limits its key's metadata sets."""
    limits = spec.metadata.get("lengths")
    if isinstance(limits, LengthLimits) and isinstance(value, Length):
        if value.percent is not None or value.points < limits.least - 1e-9 \
                or (limits.most is not None and value.points > limits.most + 1e-9):
            raise where.error(limits.problem.format(value=written))
    low, high = spec.metadata.get("min"), spec.metadata.get("max")
    if low is not None and isinstance(value, Length) and min(value.points, value.percent or 0.0) < low:
        raise where.error(f"a negative length is not allowed here; the least allowed is {low:g}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if low is not None and value < low:
            raise where.error(f"{value:g} is too small; the least allowed is {low:g}")
        if high is not None and value > high:
            raise where.error(f"{value:g} is too large; the most allowed is {high:g}")


def convert(kind: Any, value: object, where: Where) -> Any:
    """Check and convert one value against the annotation `kind`."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        errors = []
        for option in options:
            try:
                return convert(option, value, where)
            except PnpError as exc:
                errors.append(exc)
        # a map that fits none: what the map-shaped option found wrong in it says most
        shaped = [exc for option, exc in zip(options, errors) if isinstance(value, dict) and dataclasses.is_dataclass(option)]
        raise (shaped or errors)[0]
    if origin is Literal:
        if value not in args:
            raise where.error(f"'{value}' is not one of: {', '.join(map(str, args))}",
                              hint=did_you_mean(str(value), args))
        return value
    if origin is list:
        if not isinstance(value, list):
            raise where.error(f"expected a list, found {type_name(value)}")
        items = [convert(args[0], item, where.item(value, i)) for i, item in enumerate(value)]
        return kept_lines(value, items)
    if origin is dict:
        if not isinstance(value, dict):
            raise where.error(f"expected a map, found {type_name(value)}")
        return {convert(args[0], k, where.key(value, k)): convert(args[1], v, where.key(value, k))
                for k, v in value.items()}
    if hasattr(kind, "parse"):
        return kind.parse(value, where)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return load_as(kind, value, where)
    return convert_scalar(kind, value, where)


def kept_lines(source: list[Any], items: list[Any]) -> list[Any]:
    """The converted items of a YAML list, still knowing each item's line, so a check made
    after loading (a table row's label, say) names the row's own line past comments."""
    if not isinstance(source, YamlList):
        return items
    kept = YamlList(items)
    kept.file, kept.line, kept._item_lines = source.file, source.line, source._item_lines
    return kept


def convert_scalar(kind: Any, value: object, where: Where) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        raise where.error(f"expected true or false, found {type_name(value)}")
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise where.error(f"expected a whole number, found {type_name(value)}")
    if kind is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value) if abs(value) < 1e300 else math.inf
            if not math.isfinite(number):
                raise where.error(f"expected a number, found {value}: a number must be finite")
            return number
        raise where.error(f"expected a number, found {type_name(value)}")
    if kind is str:
        if isinstance(value, str):
            return value
        key = (where.field or "").rpartition(".")[2]
        plain_key = key.replace("-", "_").isidentifier()
        quoted = f'write it in quotes, e.g. {key}: "{value}"' if isinstance(value, (int, float)) and plain_key else None
        raise where.error(f"expected text, found {type_name(value)}", hint=quoted)
    raise TypeError(f"config type {kind!r} is not supported")  # a bug in pnp, not user input
