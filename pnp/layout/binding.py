"""`{field}` binding: plain lookup of a card's value by name, nothing more.

No expressions, no attribute or index access: `{name}` is replaced by the card's `name` value,
`{{` and `}}` are literal braces, and anything else inside braces is an error. Two kinds of
reference are filled before a card is ever seen: `{fact:NAME}` (pnp.contents.stated), a
number or name from the game's facts.yaml, and `{title:FIELD}`, the title a field's
declaration gives it (`resolve_titles`); a Binding keeps them as written, noted in `facts` and `titles`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from pnp.config.deck import FIELD_NAME
from pnp.errors import did_you_mean

if TYPE_CHECKING:
    from re import Match

    from pnp.conditions import CardValues
    from pnp.config.typed import Where
    from pnp.layout.card import CardFields

_PART = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
REFERENCE = re.compile(r"^(fact|title):(.+)$")
TITLE = re.compile(r"\{\{|\}\}|\{title:([^{}]*)\}")   # doubled braces print: `{{title:x}}` as written


def heading_hint(name: str) -> str | None:
    """For `{Card Name}` or `{Coût}`, a spreadsheet's heading: the name of the field that reads
    it, as pnp makes one; None for an expression (`{power + 1}`)."""
    if (name.isascii() and " " not in name) or any(sign in name for sign in "+-*/()[]."):
        return None
    from pnp.config.sheets import named_after
    made = named_after([name])[name]
    if made.startswith("column_"):   # named by its column, which only the sheet knows
        return "a spreadsheet's heading is printed through the field named after it, in the sheet's .fields.yaml"
    return f"a spreadsheet's heading is printed through the field named after it: {{{made}}}"


class Binding:
    """A text with `{field}` holes, split once so filling it per card is cheap."""

    __slots__ = ("parts", "fields", "facts", "titles", "source", "where")

    def __init__(self, text: str, where: Where):
        self.source = text
        self.where = where   # of the key it was written in, for errors found later
        self.parts: list[tuple[bool, str]] = []  # (is_field, literal text or field name)
        literal = []
        position = 0
        references: dict[str, set[str]] = {"fact": set(), "title": set()}
        for match in _PART.finditer(text):
            literal.append(text[position:match.start()])
            position = match.end()
            token = match.group(0)
            if token in ("{{", "}}"):
                literal.append(token[0])
            elif token in ("{", "}"):
                raise where.error(f"unmatched '{token}' in '{text}'; write '{token * 2}' for a brace")
            else:
                name = match.group(1).strip()
                reference = REFERENCE.match(name)
                if reference:   # resolved before drawing; kept as written until then
                    references[reference.group(1)].add(reference.group(2).strip())
                    literal.append(token)
                    continue
                if not FIELD_NAME.match(name):
                    raise where.error(
                        f"'{{{match.group(1)}}}' is not a field name; binding is a plain name "
                        f"such as {{value}}: no dots, indexes or expressions", hint=heading_hint(name))
                self.parts.append((False, "".join(literal)))
                self.parts.append((True, name))
                literal = []
        literal.append(text[position:])
        self.parts.append((False, "".join(literal)))
        self.parts = [p for p in self.parts if p[0] or p[1]]
        self.fields = {name for is_field, name in self.parts if is_field}
        self.facts, self.titles = references["fact"], references["title"]

    @property
    def static(self) -> bool:
        return not self.fields

    def render(self, card: CardValues) -> str:
        if not self.fields:
            return self.parts[0][1] if self.parts else ""
        return "".join(text_of(card.get(value)) if is_field else value
                       for is_field, value in self.parts)


def text_of(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, list):
        return ", ".join(text_of(v) for v in value)
    return str(value)


def resolve_titles(text: str, fields: CardFields | None, where: Where,
                   say: Callable[[str, Where], str] | None = None) -> str:
    """`{title:FIELD}` replaced by the title the deck's declaration gives that field (in a
    translated build, `say` puts it into the translation's language)."""
    if "{title:" not in text:
        return text

    def title(match: Match[str]) -> str:
        if match.group(1) is None:
            return match.group(0)
        name = match.group(1).strip()
        spec = (fields or {}).get(name)
        if spec is None:
            raise where.error(f"'{{title:{name}}}' names no field of the deck",
                              hint=did_you_mean(name, fields or {}))
        found = getattr(spec, "title", "") if not isinstance(spec, str) else ""
        if not found:
            raise where.error(f"field '{name}' has no title to print; give it one in the deck's "
                              f"fields ({name}: {{title: ...}})")
        return say(found, where) if say is not None else found
    return TITLE.sub(title, text)
