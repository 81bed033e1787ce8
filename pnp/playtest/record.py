"""What a build keeps of its decks for the playtest loop: each card's count, place and a digest of
its face and back, and the text of the files those were drawn from (data files, game.yaml and
the layouts each deck and board names, with what they extend). From that record `pnp diff`,
`build --reprint` and `proof --changes` know what was printed last time, without git.

The digests cost no drawing: a face's digest is a hash of the layout files that draw it, the
game's pictures and the values of the fields the compiled layout reads (as the preview keys
its pictures, but from contents, so the same input always gives the same record)."""

from __future__ import annotations

import base64
import hashlib
import json
import operator
import os
import re
import stat
import zlib
from functools import lru_cache
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

from pnp.config.typed import Where
from pnp.errors import PnpError, display_path, is_row
from pnp.layout.template import template_path
from pnp.paths import gate, read_folders

if TYPE_CHECKING:
    from pnp.config.deck import Card, Deck
    from pnp.config.game import Game

# A build record as JSON keeps it: values of any JSON type.
Record = dict[str, Any]


class Drawn(Protocol):
    """A deck's front or back as the build compiled it: the card fields its look reads, and
    how it draws a card."""

    @property
    def fields(self) -> Iterable[str]: ...

    def look_of(self, card: Any) -> tuple[object, ...]: ...

PICTURES = {".png", ".jpg", ".jpeg", ".svg", ".gif", ".webp", ".ttf", ".otf"}
# a picture or font pnp reads whole: past a PNG of the most pixels pnp places (12,000 x 12,000, as
# a photo compresses), and far past any font
MAX_PICTURE_BYTES = 256 * 2**20
# a record's part unpacked (the kept files, or the cards): many times a game's biggest data file
MAX_UNPACKED_BYTES = 256 * 2**20
RECORD_KEY = "playtest"
# a record's looks count the facts their layouts print and the fields their `when:`s test (a
# record without it, made before: neither)
LOOKS = "facts+when"


def card_keys(labels: list[str]) -> list[str]:
    """A name for each card that tells it from the others: its label, numbered from the
    second card of the same label on (`Run (2)`)."""
    seen: dict[str, int] = {}
    keys = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        keys.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return keys


def layout_names(spec: Any) -> list[str]:
    """The layout names a deck's front or back names: one, or those it chooses between."""
    if isinstance(spec, str):
        return [spec]
    names = getattr(spec, "names", None)   # a LayoutChoice, as loaded: {by, layouts, default}
    if callable(names):
        return list(names())
    if isinstance(spec, dict):
        names = [str(n) for n in (spec.get("layouts") or {}).values()]
        return names + ([str(spec["default"])] if spec.get("default") else [])
    return []


def looks_of(root: Path, spec: Any, side: Any, known: dict[str, Path], pictures: str,
             fact: Callable[[str], str] | None = None) -> Callable[[Any], bytes]:
    """How one side of each card looks: its layout files' and the game's pictures' digest,
    with the facts its layouts print. Where the deck chooses the layout per card (`side` picks
    it), each card's is the chosen layout's, so a change to one layout marks the cards drawn
    with it alone."""
    pick = getattr(side, "pick", None)
    if pick is None:
        whole = files_digest(layout_files(root, layout_names(spec), known), pictures, fact).encode() \
            if side is not None else b""
        return lambda card: whole
    by_name: dict[str, bytes] = {}

    def look(card: Any) -> bytes:
        name = pick(card).name
        if name not in by_name:
            by_name[name] = files_digest(layout_files(root, [name], known), pictures, fact).encode()
        return by_name[name]
    return look


EXTENDS = re.compile(r"^extends:\s*[\"']?([^\"'\s#]+)", re.MULTILINE)


def layout_files(root: Path, names: list[str], known: dict[str, Path] | None = None) -> list[Path]:
    """The files of the named layouts and every layout they extend, in a fixed order. The
    `extends` key is read with a pattern, not a YAML parse: the build has parsed and checked
    these files already. `known` keeps each name's file between calls."""
    known = {} if known is None else known
    found: dict[Path, None] = {}
    for name in names:
        chain: set[str] = set()
        while name and name not in chain:
            chain.add(name)
            if name not in known:
                known[name] = template_path(root, name, Where("layout", None, ""))
            path = known[name]
            found[path] = None
            match = EXTENDS.search(path.read_text(encoding="utf-8"))
            name = match.group(1) if match else ""
    return list(found)


def pictures_digest(game_folder: Path, folders: Sequence[Path] = ()) -> str:
    """The game's own pictures and icons: a face may show any of them. Each is read as a build
    reads a picture, through the read gate (pnp.paths): a link that leads out of `folders` (the
    game's and those a build of it reads), a hard link, a pipe or a device is passed over, never
    read, and a file past MAX_PICTURE_BYTES is one error."""
    digest = hashlib.sha256()
    for path in sorted(game_folder.rglob("*")):
        if path.suffix.lower() not in PICTURES:
            continue
        handle = opened_picture(path, list(folders) or [game_folder])
        if handle is None:
            continue
        with handle:
            if os.fstat(handle.fileno()).st_size > MAX_PICTURE_BYTES:
                raise PnpError(f"{display_path(path)} is over {MAX_PICTURE_BYTES // 2**20} MB, more than pnp reads "
                               f"of a picture or font", hint="move it out of the game folder")
            name = path.relative_to(game_folder).as_posix()   # as the file system gives it: UTF-8 or not
            digest.update(f"{name}\0".encode(errors="surrogateescape"))
            left = MAX_PICTURE_BYTES   # a file growing as it is read is read no further
            while left and (piece := handle.read(min(left, 2**20))):
                digest.update(piece)
                left -= len(piece)
    return digest.hexdigest()


def opened_picture(path: Path, folders: list[Path]) -> BinaryIO | None:
    """`path` opened to read, if a build would read it; None for what the read gate refuses (a
    link that leads out, a hard link, a pipe, a device), a folder, or a file gone since."""
    try:
        resolved = gate(path, folders, PnpError, "picture")
        descriptor = os.open(resolved, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        handle = open(descriptor, "rb")  # noqa: SIM115 - returned open: the caller closes it
    except (PnpError, OSError):
        return None
    if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):   # a folder, or a pipe put there since
        handle.close()
        return None
    return handle


FACT_NAMED = re.compile(rb"\{fact:([^{}]*)\}")


def files_digest(paths: list[Path], extra: str, fact: Callable[[str], str] | None = None) -> str:
    """The files' bytes, `extra`, and the value of each fact they print (`fact` gives it): a
    fact changed in facts.yaml changes the pieces whose layouts print it, and no others."""
    digest = hashlib.sha256(extra.encode())
    for path in paths:
        data = path.read_bytes()
        digest.update(data)
        if fact is not None:
            for name in sorted(set(FACT_NAMED.findall(data))):
                digest.update(b"\0" + name + b"=" + fact(name.decode("utf-8", "replace")).encode())
    return digest.hexdigest()


def values_of(side: Drawn | None, deck_fields: Mapping[str, object], current_looks: bool = True
              ) -> Callable[[Any, int], Any]:
    """How a side draws a card with `count` copies, fast: the values it draws and what each of
    its `when:`s decides (`look_of`), the card's copies counted where it prints or tests
    `{count}`. With `current_looks` False, as a record made before counted it: the
    values of the fields it draws alone, which every card holds (read_card fills in the
    default; `copy` and `count` are not a card's)."""
    if side is None:
        return lambda card, count: ()
    if not current_looks:
        names = sorted(name for name in getattr(side, "drawn_fields", side.fields) if name in deck_fields)
        getter = operator.itemgetter(*names) if names else (lambda card: ())
        return lambda card, count: getter(card)
    if "count" in side.fields:   # {count} printed or tested: the look of the card with its copies
        counted = side.look_of
        return lambda card, count: counted(card.with_values(count=count))
    look_of: Callable[[Any], object] = side.look_of
    if getattr(side, "whens", None) == []:   # no `when:` to decide: the values drawn, read the fast way
        names = sorted(name for name in side.fields if name in deck_fields)
        look_of = operator.itemgetter(*names) if names else (lambda card: ())
    return lambda card, count: look_of(card)


def side_digest(look: bytes, values: Callable[[Any, int], Any], card: Mapping[str, Any], count: int) -> str:
    """A piece's look: its layouts' and pictures' digest and the values its layout reads."""
    return hashlib.blake2b(look + repr(values(card, count)).encode(), digest_size=8).hexdigest()


def relative(root: Path, path: Path | str) -> str:
    return _relative(root.resolve(), str(path))


@lru_cache(maxsize=256)
def _relative(root: Path, path: str) -> str:
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return Path(path).as_posix()


def source_text(data: bytes) -> str | dict[str, str]:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:   # a spreadsheet
        return {"base64": base64.b64encode(data).decode("ascii")}


def source_bytes(kept: str | dict[str, str]) -> bytes:
    if isinstance(kept, dict):
        return base64.b64decode(kept["base64"])
    return kept.encode("utf-8")


def game_record(root: Path, game: Game, decks: dict[str, Deck],
                compiled: Mapping[str, tuple[Drawn, Drawn | None]],
                earlier: Mapping[str, Record] | None = None, current_looks: bool = True) -> dict[str, str]:
    """The playtest part of a build record. `compiled` holds each deck's (front, back) as the
    build compiled them (pnp.kinds.deck keeps them), so nothing is compiled twice; a deck the
    build took from the last one's files instead has its part of the last record, `earlier`
    (recorded_decks), read from the same files. Both parts are kept compressed: a card costs
    about 20 bytes of the record. A look counts the facts its layouts print and the fields
    their `when:`s test (`LOOKS`), unless `current_looks` is False: to compare with a record
    made before they were counted."""
    root = Path(root)
    resolved_root = root.resolve()
    pictures = pictures_digest(game.folder, read_folders(root, game.folder))
    sources: dict[str, Path] = {}
    record_decks: dict[str, Record] = {}
    known: dict[str, Path] = {}   # layout files by name
    fact = printed_fact(game) if current_looks else None
    game_yaml = game.folder / "game.yaml"
    if game_yaml.is_file():
        sources[relative(root, game_yaml)] = game_yaml
    for component in game.components:
        data = getattr(component, "data", None)
        if component.id in decks and data:
            path = Path(decks[component.id].path)
            sources[relative(root, path)] = path
        names = layout_names(getattr(component, "front", None)) + layout_names(getattr(component, "back", None)) \
            + layout_names(getattr(component, "layout", None))
        for path in layout_files(root, names, known):
            if path.is_relative_to(resolved_root):   # pnp's own base layouts come with pnp
                sources[relative(root, path)] = path
        if component.is_deck and component.id not in compiled and earlier and component.id in earlier:
            record_decks[component.id] = earlier[component.id]
        if not component.is_deck or component.id not in compiled:
            continue
        front, back = compiled[component.id]
        deck = decks[component.id]
        front_look = looks_of(root, getattr(component, "front", None), front, known, pictures, fact)
        front_fields = values_of(front, deck.fields, current_looks)
        back_look = looks_of(root, getattr(component, "back", None), back, known, pictures, fact)
        back_fields = values_of(back, deck.fields, current_looks)
        cards = [[key, count, card_place(card),
                  side_digest(front_look(card), front_fields, card, count),
                  side_digest(back_look(card), back_fields, card, count) if back is not None else None]
                 for key, card, count in zip(card_keys([c.label for c in deck.cards]), deck.cards, deck.counts)]
        where = deck.cards[0].where if deck.cards else None
        record_decks[component.id] = {"file": relative(root, where.file) if where is not None else "", "cards": cards}
    for path in words_files(game):   # by the name the game reads it by: a link's own, not its target's
        sources[f"{relative(root, path.parent)}/{path.name}"] = path
    made = {"decks": pack(record_decks), "sources": packed_sources(sources)}
    return {**made, "looks": LOOKS} if current_looks else made


def printed_fact(game: Game) -> Callable[[str], str]:
    """A fact's value as a layout prints it, by name ("" for a name the game lacks: the build
    has told that already); the facts are read once, when a layout first names one."""
    read: list[Any] = []

    def fact(name: str) -> str:
        if not read:
            from pnp.contents.stated import facts_of
            read.append(facts_of(game))
        found = read[0].get(name)
        return found.shown if found is not None else ""
    return fact


def words_files(game: Game) -> list[Path]:
    """The files that write and fill in the game's words: its rule sheets, its facts and its
    translations; kept in the record so `pnp diff` and `--reprint` see a rule sheet or a fact
    that changed. Only those inside the game's folder, where a link leads too (one leading out
    is never read)."""
    folder = game.folder
    named = [folder / sheet for sheet in (component.rule_sheet() for component in game.components) if sheet]
    named += [folder / "facts.yaml", *sorted((folder / "lang").glob("*.yaml"))]
    kept = []
    for path in dict.fromkeys(named):
        if not path.is_file():
            continue
        try:   # through the read gate: a hard link, or a link leading out, is never read
            gate(path, [folder], PnpError, "kept file")
        except PnpError:
            continue
        kept.append(path)
    return kept


def pack(value: object) -> str:
    """JSON compressed (zlib gives the same bytes each time; its fastest level: this runs on
    every build), as text for the record."""
    return base64.b64encode(zlib.compress(json.dumps(value, sort_keys=True).encode("utf-8"), 1)).decode("ascii")


def packed_sources(sources: Mapping[str, Path]) -> str:
    """pack() of each file's text by name, made one file at a time: a 20,000-card deck's data
    is 3 MB, and the whole JSON text of it, with its bytes, held 9 MB at the build's peak."""
    compressor = zlib.compressobj(1)
    chunks = []
    for index, name in enumerate(sorted(sources)):
        entry = json.dumps(name) + ": " + json.dumps(source_text(sources[name].read_bytes()), sort_keys=True)
        chunks.append(compressor.compress(("{" if index == 0 else ", ").encode() + entry.encode("utf-8")))
    chunks.append(compressor.compress(b"}" if sources else b"{}"))
    return base64.b64encode(b"".join(chunks) + compressor.flush()).decode("ascii")


class DamagedRecord(ValueError):
    """A record's part that pnp cannot unpack: damaged, cut short, or unpacking past
    MAX_UNPACKED_BYTES."""


def unpacked(packed: str) -> Any:   # JSON: whatever was packed
    """What pack() packed, unpacked only up to MAX_UNPACKED_BYTES: a part of a few MB, edited
    by hand, can unpack to gigabytes."""
    inflater = zlib.decompressobj()
    try:
        text = inflater.decompress(base64.b64decode(packed), MAX_UNPACKED_BYTES)
    except (TypeError, ValueError, zlib.error):   # not base64, not zlib
        raise DamagedRecord("it is damaged") from None
    if inflater.unconsumed_tail or (len(text) == MAX_UNPACKED_BYTES and not inflater.eof):
        raise DamagedRecord(f"it unpacks to more than {MAX_UNPACKED_BYTES // 2**20} MB")
    if not inflater.eof or inflater.unused_data:
        raise DamagedRecord("it is damaged (cut short, or more after its end)")
    try:
        return json.loads(text.decode("utf-8"))
    except (ValueError, RecursionError):   # not JSON, or nested past any record pnp writes
        raise DamagedRecord("it is damaged") from None


def recorded_decks(record: Record | None) -> dict[str, Record]:
    """Each deck's part of a build record as game_record wrote it, when that build recorded
    its own cards (not the earlier build a watch keeps standing in); {} when there is none."""
    playtest = (record or {}).get(RECORD_KEY)
    if not isinstance(playtest, dict) or playtest.get("kept"):
        return {}
    try:
        decks = unpacked(playtest["decks"])
    except (KeyError, TypeError, ValueError, zlib.error):   # another version's, or edited
        return {}
    return decks if isinstance(decks, dict) else {}


def kept_sources(record: Record) -> dict[str, bytes]:
    """The files a record kept, by their path from the root folder."""
    return {name: source_bytes(kept) for name, kept in unpacked(record["sources"]).items()}


def kept_decks(record: Record) -> dict[str, list[Record]]:
    """Each deck's cards as a record keeps them: key, count, line (file:line), face, back."""
    decks: dict[str, list[Record]] = {}
    for deck_id, deck in unpacked(record["decks"]).items():
        decks[deck_id] = [{"key": key, "count": count, "line": placed(deck["file"], line),
                           "face": face, "back": back} for key, count, line, face, back in deck["cards"]]
    return decks


def card_place(card: Card) -> int | str | None:
    """Where a card is written, as the record keeps it: its line, or a sheet's row ("row 3"),
    which has none."""
    if card.where is None:
        return None
    if card.where.line is not None:
        return card.where.line
    return card.where.field if is_row(card.where.field or "") else None


def placed(file: str, line: object) -> str:
    """A kept place as messages write it: file:line, or file, row 3."""
    if isinstance(line, str) and line:
        return f"{file}, {line}"
    return f"{file}:{line}" if line else file
