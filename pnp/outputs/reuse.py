"""Redraw only what changed: each component keyed by what it reads, and its files taken from
the last build when that build recorded the same key.

A component's key is made from the same reading of the files as the build's fingerprint
(pnp.cache.inputs_read): pnp's code and the options, every file the build reads except the
games' card data, the card data the component draws, and what it says it shows of the other
decks (`Component.deck_view`: a rule sheet's piece counts and tables, a tuck box's depth and
back). A component with data of its own (a deck, a sheet, a board) reads that file; a kind
with none that does not say what it shows reads every deck's. A file pnp cannot tie to one
component (a layout, a font, a picture, game.yaml, a translation) is in every key: changing
it redraws everything, which is never wrong. So changing a card redraws its deck, and the
rule sheet only when a count or a table it prints changed."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnp.config.deck import Deck
    from pnp.config.game import Component, Game
    from pnp.outputs.folder import Json, OutputFolder
    from pnp.outputs.pdf import OutputFile


def data_files(game: Game, component: Component) -> set[Path]:
    """The files (resolved) a component's own card data comes from: the data file or sheet,
    its fields file, a downloaded copy and its note."""
    name = component.reads()
    if not name:
        return set()
    from pnp.config.remote import cached_copy, is_url, note_of
    from pnp.config.sheets import fields_file, split_sheet
    if is_url(name):
        copy = cached_copy(game.folder, name)
        return {copy.resolve(), note_of(copy).resolve(), fields_file(copy).resolve()}
    path = game.folder / split_sheet(name)[0]
    return {path.resolve(), fields_file(path).resolve()}


def component_keys(game: Game, decks: dict[str, Deck], salt: str,
                   read: Iterable[tuple[str, Path, bytes]]) -> dict[str, str]:
    """Each component's key, from `salt` (the build's code and options), `read` (each file
    the build reads with its digest, pnp.inputs.BuildInputs.file_digests) and what each shows
    of the loaded `decks`."""
    own = {component.id: data_files(game, component) for component in game.components}
    every_deck: set[Path] = set().union(*own.values())
    shared = hashlib.sha256(salt.encode())
    data: dict[Path, bytes] = {}
    for name, path, digest in read:
        real = path.resolve()
        if real in every_deck:
            data[real] = digest
        else:
            shared.update(f"\0{name}\0".encode(errors="surrogateescape") + digest)
    keys: dict[str, str] = {}
    for component in game.components:
        key = hashlib.sha256(shared.digest() + f"\0{component.id}".encode())
        view = component.deck_view(game, decks)
        for path in sorted(own[component.id] or (set() if view is not None else every_deck)):
            key.update(f"\0{path.name}\0".encode() + data.get(path, b"absent"))
        if view is not None:
            key.update(b"\0view\0" + view.encode())
        keys[component.id] = key.hexdigest()
    return keys


@dataclass
class Kept:
    """A component's files as the last build wrote them, and the warnings its drawing gave."""

    files: list[OutputFile]
    warnings: list[str]


class Reuse:
    """One build's components: which the last build's files can stand for, and what this build
    records of each for the next (`parts`, kept in the build record)."""

    def __init__(self, folder: OutputFolder, keys: dict[str, str], last_record: Json | None):
        self.folder = folder
        self.keys = keys
        last = (last_record or {}).get("components")
        self.last: Json = last if isinstance(last, dict) else {}   # as the last record holds it
        self.parts: dict[str, Json] = {}

    def reusable(self) -> set[str]:
        """The components the last build drew from the same keys (their files not yet checked)."""
        return {id for id, part in self.last.items()
                if isinstance(part, dict) and part.get("key") == self.keys.get(id)}

    def kept(self, component_id: str) -> Kept | None:
        """The component's files from the last build, if it was drawn from the same key and
        every file is still there as written; else None (it is drawn again)."""
        from pnp.outputs.pdf import OutputFile
        part = self.last.get(component_id)
        if not isinstance(part, dict) or part.get("key") != self.keys.get(component_id):
            return None
        files = []
        try:
            for entry in part["files"]:
                data = self.folder.kept(entry["name"], entry["digest"])
                if data is None:
                    return None
                files.append(OutputFile(entry["name"], data, int(entry["pages"]), entry["component"],
                                        str(entry["note"]), str(entry["role"])))
            warnings = [str(warning) for warning in part["warnings"]]
        except (KeyError, TypeError, ValueError):   # a record from another version, or edited
            return None
        self.parts[component_id] = part
        return Kept(files, warnings)

    def drawn(self, component_id: str, files: list[OutputFile], warnings: list[str]) -> None:
        """A component drawn by this build: what the next build needs to reuse it."""
        from pnp.outputs.folder import digest
        self.parts[component_id] = {
            "key": self.keys[component_id], "warnings": warnings,
            "files": [{"name": file.name, "digest": digest(file.data), "pages": file.pages,
                       "component": file.component, "note": file.note, "role": file.role}
                      for file in files]}
