"""Edits of a YAML file that leave every other byte as it was.

The preview's layout editor changes a few values of one element. Loading the file and
writing it out again, even with a round-trip library, re-indents, re-wraps and re-quotes
what it does not understand exactly; a designer's diff should show the changed values only.
So the file is parsed for positions alone (PyYAML keeps where every node starts and ends)
and the new value's text is spliced in where the old one stood: comments, blank lines, key
order, flow or block style and the quoting of every other value stay byte for byte.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import yaml

from pnp.errors import PnpError

Path_ = list[str | int]   # keys and item numbers from the top of the document to a node
_PLAIN_UNSAFE = re.compile(r"^[\s\-?:,\[\]{}#&*!|>'\"%@`]|: |\s#|[\n\r\t]|\s$")


def node_at(text: str, path: Path_, file: str) -> yaml.Node:
    """The node `path` leads to (keys of maps, numbers of list items)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise PnpError(f"the file is not valid YAML, so it was not changed ({exc.__class__.__name__})",
                       file=file) from None
    for step in path:
        if isinstance(step, int) and isinstance(node, yaml.SequenceNode) and 0 <= step < len(node.value):
            node = node.value[step]
        elif isinstance(step, str) and isinstance(node, yaml.MappingNode):
            found = [value for key, value in node.value if key.value == step]
            if not found:
                raise PnpError(f"the file no longer has '{step}' where the editor expected it", file=file)
            node = found[0]
        else:
            raise PnpError(f"the file no longer has item {step} where the editor expected it", file=file)
    return node


def scalar_text(value: Any, like: str = "", in_flow: bool = False) -> str:
    """`value` written as YAML, in the quoting of the text it replaces (`like`) when it can be."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise ValueError("a number must be finite")
        if isinstance(value, float) and abs(value) >= 1e9:   # 1e308: not 309 digits
            mantissa, exponent = f"{value:.6e}".split("e")
            mantissa = mantissa.rstrip("0")
            return f"{mantissa}0e{exponent}" if mantissa.endswith(".") else f"{mantissa}e{exponent}"   # YAML: 1.0e+308
        return str(value) if isinstance(value, int) else f"{value:.4f}".rstrip("0").rstrip(".")
    if isinstance(value, (dict, list)):
        dumped: str = yaml.safe_dump(value, default_flow_style=True, width=10**6, allow_unicode=True,
                                     sort_keys=False)
        return dumped.strip()
    text = str(value)
    if like.startswith('"'):
        return json.dumps(text, ensure_ascii=False)
    if like.startswith("'") and "\n" not in text:
        return "'" + text.replace("'", "''") + "'"
    plain = (text and not _PLAIN_UNSAFE.search(text) and not (in_flow and any(c in text for c in ",[]{}"))
             and yaml.safe_load(text) == text)
    return text if plain else json.dumps(text, ensure_ascii=False)


def set_values(text: str, path: Path_, changes: dict[str, Any], file: str) -> str:
    """`text` with the map at `path` given these keys' values (None removes the key); keys it
    lacks are added at its end, in its own style."""
    for key, value in changes.items():
        mapping = node_at(text, path, file)
        if not isinstance(mapping, yaml.MappingNode):
            raise PnpError("the editor expected a map here", file=file, line=mapping.start_mark.line + 1)
        entry = next(((k, v) for k, v in mapping.value if k.value == key), None)
        if entry is None:
            if value is not None:
                text = _added(text, mapping, key, value)
        elif value is None:
            text = _removed(text, mapping, entry)
        else:
            old_key, old = entry
            start, end = old.start_mark.index, old.end_mark.index
            if isinstance(old, yaml.ScalarNode) and old.style in ("|", ">"):
                like = '"'   # a block of text becomes one quoted line
                end = _line_end(text, end)
            elif isinstance(old, (yaml.MappingNode, yaml.SequenceNode)) and not old.flow_style:
                like = ""    # an indented block becomes one line in flow style, after the key
                start = text.index(":", old_key.end_mark.index) + 1
                end = _line_end(text, _value_end(old))
                value_text = " " + scalar_text(value, like, bool(mapping.flow_style))
                text = text[:start] + value_text + text[end:]
                continue
            else:
                like = text[start:end]
            new = scalar_text(value, like, bool(mapping.flow_style))
            text = text[:start] + new + text[end:]
    return text


def _value_end(node: yaml.Node) -> int:
    """Where a value's own text ends: a block map or list ends with its last value (PyYAML's
    end mark for one is where the next key starts)."""
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(node, yaml.MappingNode) else last
    end: int = node.end_mark.index
    return end


def _added(text: str, mapping: yaml.MappingNode, key: str, value: Any) -> str:
    if mapping.flow_style:
        if not mapping.value:   # {}: right after the opening brace
            at = mapping.start_mark.index + 1
            return text[:at] + f"{key}: {scalar_text(value, in_flow=True)}" + text[at:]
        at = mapping.value[-1][1].end_mark.index   # right after the last value, before any comment
        return text[:at] + f", {key}: {scalar_text(value, in_flow=True)}" + text[at:]
    last_key, last_value = mapping.value[-1]
    indent = " " * last_key.start_mark.column
    end = _line_end(text, _value_end(last_value))
    return text[:end] + f"\n{indent}{key}: {scalar_text(value)}" + text[end:]


def _removed(text: str, mapping: yaml.MappingNode, entry: tuple[yaml.Node, yaml.Node]) -> str:
    key, value = entry
    start, end = key.start_mark.index, _value_end(value)
    if mapping.flow_style:
        after = re.match(r"\s*,\s*", text[end:])
        if after:
            return text[:start] + text[end + after.end():]
        before = re.search(r",\s*$", text[:start])
        return text[:before.start() if before else start] + text[end:]
    line_start = text.rfind("\n", 0, start) + 1
    end = _line_end(text, end)
    if text[line_start:start].strip():   # the key shares its line with a list item's dash
        return text[:start] + text[end:]
    return text[:line_start] + text[end + 1:] if end < len(text) else text[:max(line_start - 1, 0)]


def _line_end(text: str, index: int) -> int:
    """The end of the line holding `index` (a block value's end mark is the next line's start)."""
    if index > 0 and text[index - 1] == "\n":
        index -= 1
    newline = text.find("\n", index)
    return len(text) if newline < 0 else newline


def append_item(text: str, path: Path_, item: str, file: str) -> tuple[str, int]:
    """`text` with `item` (YAML for one value, on one line) added at the end of the list at
    `path`, and the number it then has in that list."""
    sequence = node_at(text, path, file)
    if not isinstance(sequence, yaml.SequenceNode):
        raise PnpError("the editor expected a list here", file=file, line=sequence.start_mark.line + 1)
    count = len(sequence.value)
    if sequence.flow_style:
        close = sequence.end_mark.index - 1
        before = text[:close].rstrip()
        joiner = "" if before.endswith("[") else ", "
        return before + joiner + item + text[close:], count
    last = sequence.value[-1]
    line_start = text.rfind("\n", 0, last.start_mark.index) + 1
    dash = text.find("-", line_start)
    indent = " " * (dash - line_start)
    end = _line_end(text, _value_end(last))
    return text[:end] + f"\n{indent}- {item}" + text[end:], count
