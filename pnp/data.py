"""YAML loading that keeps where every key and item came from.

Maps load as `YamlMap` and lists as `YamlList`: plain dict and list subclasses that also know
their file and the line of each key or item, so any later check can name `file:line`.
Only the safe loader is used; duplicate keys, tabs and alias floods are refused.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from pnp.errors import PnpError

# Anchors and aliases are handy for sharing a block, but a few nested aliases can stand for
# billions of values (the "billion laughs" bomb): refuse a file whose aliases expand past
# MAX_EXPANDED values, or that uses more than MAX_ALIASES aliases, before anything walks it.
MAX_ALIASES = 200
MAX_EXPANDED = 2_000_000


class YamlMap(dict):
    file: str = "?"
    line: int | None = None

    def key_line(self, key) -> int | None:
        return self._key_lines.get(key, self.line)


class YamlList(list):
    file: str = "?"
    line: int | None = None

    def item_line(self, index: int) -> int | None:
        lines = self._item_lines
        return lines[index] if 0 <= index < len(lines) else self.line


class _Loader(yaml.SafeLoader):
    """SafeLoader whose maps and lists remember their lines."""

    def __init__(self, stream, file: str):
        super().__init__(stream)
        self.file = file
        self.alias_count = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self.alias_count += 1
            if self.alias_count > MAX_ALIASES:
                event = self.peek_event()
                raise PnpError(f"more than {MAX_ALIASES} YAML aliases; refusing a possible alias bomb",
                               file=self.file, line=event.start_mark.line + 1)
        return super().compose_node(parent, index)

    def construct_yaml_map(self, node):
        data = YamlMap()
        data.file, data.line, data._key_lines = self.file, node.start_mark.line + 1, {}
        yield data
        self.flatten_mapping(node)
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise PnpError("a key must be a plain word, not a list or map",
                               file=self.file, line=key_node.start_mark.line + 1) from None
            if key in data:
                raise PnpError(f"the key '{key}' appears twice in the same map",
                               file=self.file, line=key_node.start_mark.line + 1,
                               hint=f"first on line {data._key_lines[key]}")
            data[key] = self.construct_object(value_node, deep=True)
            data._key_lines[key] = key_node.start_mark.line + 1

    def construct_yaml_seq(self, node):
        data = YamlList()
        data.file, data.line = self.file, node.start_mark.line + 1
        data._item_lines = [child.start_mark.line + 1 for child in node.value]
        yield data
        data.extend(self.construct_object(child, deep=True) for child in node.value)


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_yaml_map)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_yaml_seq)


def check_expansion(root, file: str) -> None:
    """Refuse a node graph whose aliases expand to too many values, or that contains itself."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in open_nodes:
            raise PnpError("a YAML alias refers to the block that contains it", file=file,
                           line=node.start_mark.line + 1)
        open_nodes.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        open_nodes.discard(key)
        sizes[key] = total
        if total > MAX_EXPANDED:
            raise PnpError(f"YAML aliases here expand to more than {MAX_EXPANDED:,} values; refusing "
                           f"a possible alias bomb", file=file, line=node.start_mark.line + 1)
        return total

    size(root)


def display_path(path: Path) -> str:
    """The path as the user would type it: relative to the current folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_yaml(path: Path, *, expect=YamlMap):
    """Load one YAML file; every problem becomes a PnpError naming the file and line."""
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PnpError("file not found", file=shown) from None
    except UnicodeDecodeError as exc:
        raise PnpError(f"not UTF-8 text (byte {exc.start})", file=shown) from None
    except OSError as exc:
        raise PnpError(f"cannot read the file: {exc.strerror}", file=shown) from None
    loader = None
    try:
        loader = _Loader(text, shown)
        tree = loader.get_single_node()
        if tree is not None:
            check_expansion(tree, shown)
            node = loader.construct_document(tree)
        else:
            node = None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "not valid YAML"
        if "\\t" in problem or "\t" in problem:
            problem = "a tab character; indent with spaces, not tabs"
        raise PnpError(f"YAML syntax: {problem}", file=shown,
                       line=mark.line + 1 if mark else None) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise PnpError(f"the character U+{exc.character:04X} cannot appear in YAML; remove it",
                       file=shown, line=line) from None
    except yaml.YAMLError as exc:
        raise PnpError(f"YAML syntax: {exc}", file=shown) from None
    except RecursionError:
        raise PnpError("YAML nested too deeply", file=shown) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise PnpError("the file is empty (or only comments); expected a map of settings",
                       file=shown, line=1)
    if not isinstance(node, expect):
        wanted = "a map of key: value lines" if expect is YamlMap else "a list"
        raise PnpError(f"expected {wanted} at the top level, found {type_name(node)}",
                       file=shown, line=1)
    return node


def type_name(value) -> str:
    if isinstance(value, bool):
        return f"true/false ({value})"
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value}'"
    if value is None:
        return "nothing"
    return type(value).__name__
