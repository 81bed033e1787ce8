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
import zlib
from pathlib import Path
from typing import Any

from pnp.config.typed import Where
from pnp.layout.template import template_path
from pnp.yaml_source import load_yaml

PICTURES = {".png", ".jpg", ".jpeg", ".svg", ".gif", ".webp", ".ttf", ".otf"}
RECORD_KEY = "playtest"


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
    if isinstance(spec, dict):
        names = [str(n) for n in (spec.get("layouts") or {}).values()]
        return names + ([str(spec["default"])] if spec.get("default") else [])
    return []


def layout_files(root: Path, names: list[str]) -> list[Path]:
    """The files of the named layouts and every layout they extend, in a fixed order."""
    found: dict[Path, None] = {}
    for name in names:
        chain: set[str] = set()
        while name and name not in chain:
            chain.add(name)
            path = template_path(root, name, Where("layout", None, ""))
            found[path] = None
            extends = load_yaml(path).get("extends")
            name = str(extends) if extends else ""
    return list(found)


def pictures_digest(game_folder: Path) -> str:
    """The game's own pictures and icons: a face may show any of them."""
    digest = hashlib.sha256()
    for path in sorted(game_folder.rglob("*")):
        if path.suffix.lower() in PICTURES and path.is_file():
            digest.update(f"{path.relative_to(game_folder).as_posix()}\0".encode() + path.read_bytes())
    return digest.hexdigest()


def files_digest(paths: list[Path], extra: str) -> str:
    digest = hashlib.sha256(extra.encode())
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def side_digest(look: str, layout, card) -> str:
    """A piece's look: its layouts' and pictures' digest and the values its layout reads."""
    values = repr([(name, card.get(name)) for name in sorted(layout.fields)])
    return hashlib.sha256(f"{look}\0{values}".encode()).hexdigest()[:16]


def relative(root: Path, path: Path | str) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


def source_text(data: bytes) -> str | dict:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:   # a spreadsheet
        return {"base64": base64.b64encode(data).decode("ascii")}


def source_bytes(kept: str | dict) -> bytes:
    if isinstance(kept, dict):
        return base64.b64decode(kept["base64"])
    return kept.encode("utf-8")


def game_record(root: Path, game, decks: dict, compiled: dict) -> dict:
    """The playtest part of a build record. `compiled` holds each deck's (front, back) as the
    build compiled them (pnp.render.deck keeps them), so nothing is compiled twice."""
    root = Path(root)
    pictures = pictures_digest(game.folder)
    sources: dict[str, Path] = {}
    record_decks: dict[str, dict] = {}
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
        for path in layout_files(root, names):
            if path.resolve().is_relative_to(root.resolve()):   # pnp's own base layouts come with pnp
                sources[relative(root, path)] = path
        if not component.is_deck or component.id not in compiled:
            continue
        front, back = compiled[component.id]
        deck = decks[component.id]
        front_look = files_digest(layout_files(root, layout_names(component.front)), pictures)
        back_look = files_digest(layout_files(root, layout_names(component.back)), pictures) if back else ""
        cards = []
        for key, card, count in zip(card_keys([c.label for c in deck.cards]), deck.cards, deck.counts):
            cards.append({"key": key, "count": count, "face": side_digest(front_look, front, card),
                          "back": side_digest(back_look, back, card) if back is not None else None,
                          "line": source_line(root, card)})
        record_decks[component.id] = {"cards": cards}
    texts = {name: source_text(path.read_bytes()) for name, path in sorted(sources.items())}
    return {"decks": record_decks, "sources": pack(texts)}


def pack(texts: dict) -> str:
    """The kept files, compressed (a fifth of their size; zlib gives the same bytes each time)."""
    return base64.b64encode(zlib.compress(json.dumps(texts, sort_keys=True).encode("utf-8"), 9)).decode("ascii")


def unpack(packed: str) -> dict[str, bytes]:
    texts = json.loads(zlib.decompress(base64.b64decode(packed)).decode("utf-8"))
    return {name: source_bytes(kept) for name, kept in texts.items()}


def source_line(root: Path, card) -> str:
    """Where a card is written, as file:line from the root folder."""
    where = card.where
    if where is None:
        return ""
    return f"{relative(root, where.file)}:{where.line}" if where.line else relative(root, where.file)
