"""YAML loading that keeps where every key and item came from.

Maps load as `YamlMap` and lists as `YamlList`: plain dict and list subclasses that also know
their file and the line of each key or item, so any later check can name `file:line`.
Only the safe loader is used; duplicate keys, tabs and alias floods are refused.
"""

from __future__ import annotations

import gc
import re
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, overload

import yaml

from pnp.errors import PnpError
# message wording that lives on the ground floor (pnp.errors), re-exported for the modules that read YAML
from pnp.errors import display_path as display_path, type_name as type_name

# Anchors and aliases are handy for sharing a block, but a few nested aliases can stand for
# billions of values (the "billion laughs" bomb): refuse a file whose aliases expand past
# MAX_EXPANDED values before anything walks it.
MAX_EXPANDED = 2_000_000
MAX_DEPTH = 100                  # levels of nesting: a card game needs fewer than ten
MAX_FILE_BYTES = 20 * 2**20      # refused before reading: past this, parsing costs gigabytes


# Keys and values are whatever the YAML file holds: checking them is the typed loader's job.
class YamlMap(dict[Any, Any]):
    # slots: a big deck is tens of thousands of these, held while its cards are read
    __slots__ = ("file", "line", "_key_lines")
    file: str
    line: int | None
    _key_lines: dict[Any, int]

    def key_line(self, key: object) -> int | None:
        return self._key_lines.get(key, self.line)


class YamlList(list[Any]):
    __slots__ = ("file", "line", "_item_lines")
    file: str
    line: int | None
    _item_lines: list[int]

    def item_line(self, index: int) -> int | None:
        lines = self._item_lines
        return lines[index] if 0 <= index < len(lines) else self.line


# LibYAML's parser (C) when PyYAML has it: several times faster on big decks. Construction,
# where lines are kept and duplicate keys refused, is the same Python code either way.
_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_STR, _MAP, _SEQ = ("tag:yaml.org,2002:" + kind for kind in ("str", "map", "seq"))


class _Loader(_SafeLoader):   # type: ignore[misc]  # PyYAML ships without types
    """Safe loader whose maps and lists remember their lines.

    Documents are built by `build`, a direct walk of the parsed nodes: PyYAML's general
    constructor (generators, deep construction) is several times slower on a big deck. Every
    scalar that is not plain text still goes through PyYAML's own safe constructors, so
    numbers, booleans and nulls mean what they mean in any YAML tool."""

    def __init__(self, stream: str, file: str) -> None:
        super().__init__(stream)
        self.file = file
        self._built: dict[int, object] = {}

    def construct_document(self, node: yaml.Node) -> object:
        return self.build(node)

    def build(self, node: yaml.Node) -> object:
        done = self._built.get(id(node))
        if done is not None:
            return done            # an alias: the same object again
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _STR:
                return node.value
            constructor = self.yaml_constructors.get(node.tag)
            try:
                return constructor(self, node) if constructor else self.construct_object(node)
            except (ValueError, TypeError, OverflowError):
                # e.g. `!!int abc`, `!!timestamp 2024-13-45`, an integer of 5,000 digits
                kind = node.tag.rsplit(":", 1)[-1]
                raise PnpError(f"'{_short(node.value)}' is not a valid {kind}", file=self.file,
                               line=node.start_mark.line + 1) from None
        if isinstance(node, yaml.MappingNode) and node.tag == _MAP:
            return self._build_map(node)
        if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
            data = YamlList()
            data.file, data.line = self.file, node.start_mark.line + 1
            data._item_lines = [child.start_mark.line + 1 for child in node.value]
            self._built[id(node)] = data
            data.extend(self.build(child) for child in node.value)
            return data
        return self.construct_object(node)   # any other tag: PyYAML refuses it with its mark

    def _build_map(self, node: yaml.Node) -> YamlMap:
        data = YamlMap()
        data.file, data.line, data._key_lines = self.file, node.start_mark.line + 1, {}
        self._built[id(node)] = data
        own = {id(key) for key, _ in node.value}
        self.flatten_mapping(node)           # merge keys (<<): merged pairs come first
        merged: set[object] = set()
        for key_node, value_node in node.value:
            key = self.build(key_node)
            line = key_node.start_mark.line + 1
            try:
                hash(key)
            except TypeError:
                raise PnpError("a key must be a plain word, not a list or map",
                               file=self.file, line=line) from None
            if id(key_node) not in own:
                merged.add(key)              # from a `<<` merge: the map's own keys override it
            elif key in data and key not in merged:
                raise PnpError(f"the key '{key}' appears twice in the same map", file=self.file,
                               line=line, hint=f"first on line {data._key_lines[key]}")
            else:
                merged.discard(key)
            data[key] = self.build(value_node)
            data._key_lines[key] = line
        return data


class _Unusual(Exception):
    """A file the event walk leaves to the composer: anchors, aliases, tags, merge keys,
    keys that are lists or maps, more than one document."""


_SCALAR, _START_SEQ, _START_MAP = yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent
_END = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def walked(loader: _Loader) -> object:
    """The document built straight from the parser's events, with the lines a composed node
    graph would give (a map's, each key's, each item's): no node graph is held, which for a
    big deck was four times the size of the data. Raises _Unusual for what only the composer
    and `_Loader.build` handle."""
    loader.get_event()   # the stream's start
    if loader.check_event(yaml.StreamEndEvent):
        return None
    loader.get_event()   # the document's start
    if loader.yaml_path_resolvers:
        raise _Unusual
    file = loader.file
    # the implicit resolvers by first character, as `resolve` looks them up for a plain scalar
    implicit = loader.yaml_implicit_resolvers
    anywhere = implicit.get(None, [])
    stack: list[Any] = []     # open maps and lists: [container, key waiting for its value, its line]
    # one string object per distinct short text: a big deck says "offense" 10,000 times
    seen: dict[str, str] = {}
    tags: dict[str, str] = {}   # a plain scalar's tag by its text: keys repeat on every card
    done = None
    while True:
        event = loader.get_event()
        kind = type(event)
        if kind is _SCALAR:
            if event.tag is not None or event.anchor is not None:
                raise _Unusual
            text = event.value
            tag = _STR
            if event.implicit[0]:
                found = tags.get(text)
                if found is None:
                    found = _STR
                    for resolved, pattern in implicit.get(text[:1], _NONE) + anywhere:
                        if pattern.match(text):
                            found = resolved
                            break
                    if len(text) <= 40:
                        tags[text] = found
                tag = found
            if tag in _COMPOSER_TAGS:
                raise _Unusual
            if tag == _STR:
                value = seen.setdefault(text, text) if len(text) <= 40 else text
            else:
                value = loader.build(yaml.ScalarNode(tag, text, event.start_mark, event.end_mark, event.style))
        elif kind is _START_MAP or kind is _START_SEQ:
            if event.tag is not None or event.anchor is not None:
                raise _Unusual
            if kind is _START_MAP:
                value = YamlMap()
                value._key_lines = {}
            else:
                value = YamlList()
                value._item_lines = []
            value.file, value.line = file, event.start_mark.line + 1
        elif kind in _END:   # already in its parent, put there when it started
            value = stack.pop()[0]
            if not stack:
                done = value
                break
            continue
        else:   # an alias
            raise _Unusual
        if not stack and kind is _SCALAR:
            done = value
            break
        if stack:
            if not _put(stack[-1], value, event.start_mark.line + 1):
                continue
        if kind is not _SCALAR:
            stack.append([value, _NO_KEY, None])
    loader.get_event()   # the document's end
    if not loader.check_event(yaml.StreamEndEvent):
        raise _Unusual   # another document: the composer words that error
    return done


_NO_KEY = object()
_NONE: list[Any] = []
_COMPOSER_TAGS = ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value")   # `<<` and `=` keys


def _put(top: list[Any], value: object, line: int) -> bool:
    """Put a value (a scalar, or a map or list as it starts) into the open map or list
    `top`, noting the line it starts on; False when it was a map's key (waiting for its
    value)."""
    container = top[0]
    if type(container) is YamlList:
        container._item_lines.append(line)
        container.append(value)
        return True
    if top[1] is _NO_KEY:
        if isinstance(value, (YamlMap, YamlList)):
            raise _Unusual   # a list or map as a key: refused with the composer's line
        top[1], top[2] = value, line
        return False
    key, key_line = top[1], top[2]
    try:
        hash(key)
    except TypeError:
        raise _Unusual from None
    if key in container:
        raise PnpError(f"the key '{key}' appears twice in the same map", file=container.file,
                       line=key_line, hint=f"first on line {container._key_lines[key]}")
    container[key] = value
    container._key_lines[key] = key_line
    top[1] = _NO_KEY
    return True


_DEEP_INDENT = "\n" + " " * (MAX_DEPTH // 2)


def check_depth(text: str, file: str) -> None:
    """Refuse YAML nested deeper than MAX_DEPTH before LibYAML composes it: its composer
    recurses in C and 40,000 nested `[` overflow the stack (a crash, not an error).

    Nesting needs an opening bracket or a deeper block on some line, so a cheap bound (the
    brackets in the file, the deepest indent and block markers on a line) clears every
    ordinary file at once; only a file that might be deep is scanned token by token, which
    LibYAML does without recursion."""
    if _DEEP_INDENT not in text and possible_openers(text) <= MAX_DEPTH:
        # a block opens at a marker ("- ", "? ", ": "), two characters each: only a long line
        # can hold many, so only long lines are counted
        lines = text.split("\n")
        if max(map(len, lines)) <= MAX_DEPTH or max(
                line.count("- ") + line.count(": ") + line.count("? ")
                for line in lines if len(line) > MAX_DEPTH) <= MAX_DEPTH // 2:
            return
    try:
        refuse_deeper(text, file, _SafeLoader)
    except yaml.YAMLError:
        # LibYAML stops at limits of its own (0.2.6: 1,000 levels, while still looking ahead,
        # before the count reaches 101) as well as at syntax errors: PyYAML's Python scanner,
        # which has no such limit, decides which
        try:
            refuse_deeper(text, file, yaml.SafeLoader)
        except yaml.YAMLError:
            return   # a syntax error: composing reports it with its line


def refuse_deeper(text: str, file: str, loader: Any) -> None:
    """The tokens scanned without recursion, nesting counted: past MAX_DEPTH, a PnpError."""
    depth = 0
    opening = (yaml.BlockMappingStartToken, yaml.BlockSequenceStartToken, yaml.FlowMappingStartToken,
               yaml.FlowSequenceStartToken)
    closing = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)
    for token in yaml.scan(text, Loader=loader):
        if isinstance(token, opening):
            depth += 1
            if depth > MAX_DEPTH:
                raise PnpError(f"YAML nested more than {MAX_DEPTH} levels deep; pnp refuses it",
                               file=file, line=token.start_mark.line + 1)
        elif isinstance(token, closing):
            depth -= 1


_BLANK = " \t"
_BREAKS = "\n\r\x85\u2028\u2029\ufeff"
# what may stand right before a flow collection's opening bracket (blanks aside): another
# bracket, an entry, key or value indicator, a document marker, a line break (a comment ends
# with one) or the start of the file
_BEFORE_OPENER = "[{,:?-." + _BREAKS
_BRACKET = re.compile(r"[\[{]")


def possible_openers(text: str) -> int:
    """At least the number of brackets in `text` that open a flow collection: every '[' and
    '{' except those inside a plain scalar's words (`gains {bonus} yards`), which is where
    card text has them. A bracket right after a scalar or a closed collection is a syntax
    error, so nothing nests past it; after an anchor or a tag, what stands before those
    counts."""
    if text.count("[") + text.count("{") > 10 * MAX_DEPTH:
        return text.count("[") + text.count("{")   # many: the token scan decides
    count = 0
    for match in _BRACKET.finditer(text):
        at = match.start() - 1
        while True:
            while at >= 0 and text[at] in _BLANK:
                at -= 1
            if at < 0 or text[at] in _BEFORE_OPENER:
                count += 1
                break
            start = at   # a word: an anchor or tag (`&a [`, `!!seq [`) looks further back
            while start > 0 and text[start - 1] not in _BLANK and text[start - 1] not in _BREAKS \
                    and at - start < 1000:
                start -= 1
            if text[start] in "&!" and at - start < 1000 and (start == 0 or text[start - 1] in _BLANK + _BREAKS):
                at = start - 1
                continue
            if at - start >= 1000:
                count += 1   # too long a word to look past: counted, to be safe
            break
    return count


def _short(text: str) -> str:
    return text if len(text) <= 30 else text[:27] + "..."


def check_expansion(root: yaml.Node, file: str) -> None:
    """Refuse a node graph whose aliases expand to too many values, or that contains itself."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(node: yaml.Node) -> int:
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


_DRAFTS: dict[Path, str] = {}   # a file's edited text, read in its place while the edit is checked


@contextmanager
def drafted(path: Path, text: str) -> Iterator[None]:
    """Within the block, `load_yaml(path)` reads `text` instead of the file: the preview's
    layout editor checks an edit exactly as a build would before it writes anything. The
    caller holds the preview's render lock, so no other load sees the draft."""
    resolved = path.resolve()
    _DRAFTS[resolved] = text
    try:
        yield
    finally:
        _DRAFTS.pop(resolved, None)


def drafting() -> bool:
    """Whether some file is being read as an edit's draft just now."""
    return bool(_DRAFTS)


@overload
def load_yaml(path: Path, *, text: str | None = None) -> YamlMap: ...
@overload
def load_yaml(path: Path, *, expect: tuple[type[YamlMap], type[YamlList]], text: str | None = None
              ) -> YamlMap | YamlList: ...


def load_yaml(path: Path, *, expect: type[YamlMap] | tuple[type[YamlMap], type[YamlList]] = YamlMap,
              text: str | None = None) -> YamlMap | YamlList:
    """Load one YAML file (or `text`, read from it by `read_text`); every problem becomes a
    PnpError naming the file and line."""
    shown = display_path(path)
    if text is None:
        text = source_text(path, shown)
    loader = None
    collecting = gc.isenabled()
    gc.disable()   # a big deck is ~100,000 new nodes with no cycles: collecting only slows it
    try:
        check_depth(text, shown)
        loader = _Loader(text, shown)
        try:
            node = walked(loader)
        except _Unusual:
            loader.dispose()
            loader = _Loader(text, shown)
            tree = loader.get_single_node()
            node = None
            if tree is not None:
                if "&" in text:   # aliases need anchors: without an '&' there is nothing to expand
                    check_expansion(tree, shown)
                node = loader.construct_document(tree)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem, hint = syntax_words(exc, text)
        raise PnpError(f"YAML syntax: {problem}", file=shown,
                       line=mark.line + 1 if mark else None, hint=hint) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise PnpError(f"the character U+{exc.character:04X} cannot appear in YAML; remove it",
                       file=shown, line=line) from None
    except yaml.YAMLError as exc:
        raise PnpError(f"YAML syntax: {exc}", file=shown) from None
    except RecursionError:
        raise PnpError("YAML nested too deeply", file=shown) from None
    finally:
        if collecting:
            gc.enable()
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


# what a parser was inside when it stopped, and what to say of where that began
UNCLOSED = {"flow mapping": "the {{ on line {line} is never closed with }}",
            "flow sequence": "the [ on line {line} is never closed with ]",
            "quoted scalar": "the quote on line {line} is never closed"}


def syntax_words(exc: yaml.MarkedYAMLError, text: str) -> tuple[str, str | None]:
    """A YAML syntax error in words a card designer knows, and a hint: a tab for an indent, a
    colon that needs quotes, or where the bracket or quote that never closes was opened."""
    problem = exc.problem or "not valid YAML"
    at = exc.problem_mark.index if exc.problem_mark is not None else -1
    if "tab" in problem or (0 <= at < len(text) and text[at] == "\t"):
        return "a tab character; indent with spaces, not tabs", None
    if "mapping values are not allowed" in problem:
        return problem, 'a value with ": " in it must be quoted, e.g. text: "Gain 2: draw a card"'
    opened = exc.context_mark
    for inside, words in UNCLOSED.items():
        if inside in (exc.context or "") and opened is not None:
            return problem, words.format(line=opened.line + 1)
    if exc.problem_mark is not None:
        quoted = quote_run_on(text, exc.problem_mark.line)
        if quoted is not None:
            return problem, f"the quote opened on line {quoted + 1} runs on to this line: is its closing quote missing?"
    return problem, None


def quote_run_on(text: str, line: int) -> int | None:
    """The line a quoted text opened on, when it ran on over a line break to end on or just
    before `line` (0-based): a quote left open takes in the next line's text up to its first
    quote, and the parser stops on what follows."""
    found = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'") \
                    and token.start_mark.line < token.end_mark.line and line - 1 <= token.end_mark.line <= line:
                found = token.start_mark.line
    except yaml.YAMLError:
        pass   # the error itself: the tokens before it are what tell
    return found


def read_text(path: Path, shown: str) -> str:
    """A YAML file's text, refused as `load_yaml` refuses it (not a plain file, too big, not
    UTF-8)."""
    return _read(path, shown)


def source_text(path: Path, shown: str) -> str:
    """The text `load_yaml` reads for `path` (`shown` in messages): an edit's draft being
    checked, else the file's."""
    text = _DRAFTS.get(path.resolve()) if _DRAFTS else None
    return text if text is not None else _read(path, shown)


def _read(path: Path, shown: str) -> str:
    try:
        state = path.stat()
        if not stat.S_ISREG(state.st_mode):   # a pipe or a device would never end
            raise PnpError("not a plain file (a folder, a pipe or a device); pnp reads YAML files", file=shown)
        size = state.st_size
        if size > MAX_FILE_BYTES:
            raise PnpError(f"the file is {size / 2**20:.0f} MB; pnp reads YAML files of up to "
                           f"{MAX_FILE_BYTES // 2**20} MB (about 100,000 cards)", file=shown)
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PnpError("file not found", file=shown) from None
    except UnicodeDecodeError as exc:
        line = exc.object[:exc.start].count(b"\n") + 1
        raise PnpError(f"not UTF-8 text (byte {exc.start}, 0x{exc.object[exc.start]:02x})", file=shown, line=line,
                       hint="save the file as UTF-8") from None
    except OSError as exc:
        raise PnpError(f"cannot read the file: {exc.strerror}", file=shown) from None
