"""What a build reads, in one place: `BuildInputs`.

The folders a build of some games reads: each game's own folder, the folders beside
card_data/ every game shares (layouts/, fonts/, shops/, sheets/) and the folders in pnp itself
it falls back to (its fonts when a project has none, its base layouts, sheet layouts, repeat
arrangements and shop presets). One list, used for the build cache's key (pnp.cache: every file's bytes and the
options), the folders `watch` and `serve` follow (pnp.watching), the preview's picture keys
(pnp.serve.pictures: every file's size and time) and the check that keeps `--out` from
writing into them (pnp.cli)."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pnp.errors import PnpError

SHARED_FOLDERS = ("layouts", "fonts", "shops", "sheets")   # beside card_data/, used by every game
PACKAGE = Path(__file__).resolve().parent   # pnp's own files: read, never a link leading out


def bundled_folders(root: Path) -> list[Path]:
    """The folders in pnp that a project at `root` falls back to."""
    from pnp.resources import BUNDLED, SHOPS, fonts_folder
    fonts = fonts_folder(root)
    return ([fonts] if fonts == BUNDLED / "fonts" else []) + \
        [BUNDLED / "layouts", BUNDLED / "sheets", BUNDLED / "arrangements", BUNDLED / "words", SHOPS]


@dataclass(frozen=True)
class BuildInputs:
    """What a build of `game_ids` under `root` reads: the folders, the files in them and, for a
    build's cache key, the options and shops it was asked for."""

    root: Path
    game_ids: tuple[str, ...]
    options: Any = None                 # the PrintOptions of one build (None: not a build's key)
    paper: str | None = None            # the paper asked for (None: the game's own)
    shops: Sequence[Any] = field(default=())   # the ShopPresets a build writes files for

    def folders(self) -> list[Path]:
        """The games' own folders, the shared ones, then pnp's own; some may not exist. A
        folder reached twice (the repository's fonts/ is a link to pnp's) is listed once."""
        return [folder for folder, _ in self._folders()]

    def _folders(self) -> list[tuple[Path, bool]]:
        """Each folder, and whether it is pnp's own."""
        root = Path(self.root)
        listed = [(root / "card_data" / game, False) for game in self.game_ids] + \
            [(root / name, False) for name in SHARED_FOLDERS] + [(f, True) for f in bundled_folders(root)]
        seen: set[Path] = set()
        unique = []
        for folder, own in listed:
            real = folder.resolve()
            if real not in seen:
                seen.add(real)
                unique.append((folder, own))
        return unique

    def files(self, leave_out: Iterable[Path] = ()) -> Iterator[tuple[str, Path]]:
        """Every file read, sorted within its folder, as (a name that does not depend on where
        the project or pnp sits, its path); `leave_out` are resolved paths to pass over."""
        skip = set(leave_out)
        root = Path(self.root)
        for folder, own in self._folders():
            named = f"pnp:{folder.name}" if own else folder.relative_to(root).as_posix()
            for relative in files_under(str(folder)):
                path = folder / relative
                if skip and path.resolve() in skip:
                    continue
                yield f"{named}/{relative}", path

    def digest(self, code: str, read: list[tuple[str, Path, bytes]] | None = None) -> str:
        """The build cache's key: `code` (pnp's own source), the options and every byte read
        (`read`: the files' digests, when already taken)."""
        options = sorted(asdict(self.options).items()) if self.options is not None else None
        digest = hashlib.sha256(f"{code}\0{self.paper}\0{options}".encode())
        for shop in self.shops:
            digest.update(f"\0shop\0{shop.id}\0{shop}".encode())
        for name, _, content in (read if read is not None else self.file_digests()):
            digest.update(f"\0{name}\0".encode(errors="surrogateescape") + content)
        return digest.hexdigest()

    def file_digests(self) -> list[tuple[str, Path, bytes]]:
        """Every file read as (its name, its path, the SHA-256 of its bytes); a link that
        leads out is never read (a build refuses it): where it points counts instead."""
        folders = self.folders()
        read = []
        for name, path in self.files():
            try:
                digest = hashlib.sha256(os.readlink(path).encode(errors="surrogateescape")).digest() \
                    if leads_out(path, folders) else content_digest(path)
            except OSError as exc:   # unreadable, or gone since the folder was listed
                raise PnpError(f"cannot read {name}: {exc.strerror or exc}",
                               hint="check its permissions, or wait until the files stop changing") from None
            read.append((name, path, digest))
        return read

    def look(self, leave_out: Iterable[Path] = ()) -> str:
        """Sizes and modification times of every file read but `leave_out`: cheap to take, and
        any save changes it (the preview's key for what its pictures depend on)."""
        digest = hashlib.sha256()
        folders = self.folders()
        for name, path in self.files(leave_out):
            stat = path.lstat() if leads_out(path, folders) else path.stat()
            digest.update(f"{name}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode(errors="surrogateescape"))
        return digest.hexdigest()


def files_under(folder: str) -> list[str]:
    """The files in `folder` and the folders in it (not through a link to a folder), as
    sorted relative POSIX paths; [] when it is no folder. A link to a file counts."""
    found: list[str] = []

    def walk(path: str, prefix: str) -> None:
        try:
            entries = list(os.scandir(path))
        except OSError:   # missing, not a folder or not ours to read: nothing read there
            return
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                walk(entry.path, f"{prefix}{entry.name}/")
            elif is_file(entry):
                found.append(prefix + entry.name)
    walk(folder, "")
    return sorted(found, key=lambda name: name.split("/"))


def is_file(entry: os.DirEntry[str]) -> bool:
    """Whether the entry is a file or a link to one; a link in a loop is neither (what reads
    it says so), as pathlib has it."""
    try:
        return entry.is_file()
    except OSError:
        return False


# Each file's digest by what a change to it changes (size, times, inode): the games of one
# `build --all`, and every rebuild of `watch` and `serve`, read the shared folders once.
_DIGESTS: dict[str, tuple[tuple[int, int, int, int], bytes]] = {}
SETTLED = 2 * 10**9   # ns: a file changed more recently may change again within its clock's tick


def content_digest(path: Path) -> bytes:
    """The SHA-256 of a file's bytes, read again only when its size, times or inode changed.
    A file saved in the last two seconds is always read: a second save within the same tick
    of the file system's clock, at the same size, would keep its times."""
    stat = os.stat(path)
    seen = (stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
    known = _DIGESTS.get(str(path))
    if known is not None and known[0] == seen:
        return known[1]
    digest = hashlib.sha256(path.read_bytes()).digest()
    if not recently_changed(path, stat):
        _DIGESTS[str(path)] = (seen, digest)
    return digest


def recently_changed(path: Path, stat: os.stat_result | None = None) -> bool:
    """Whether the file was saved in the last two seconds (or cannot be looked at): what is
    read of it is not kept by its size and times, which another save within the same tick of
    the file system's clock would leave as they are."""
    try:
        stat = stat or os.stat(path)
    except OSError:
        return True
    return time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) <= SETTLED


def leads_out(path: Path, folders: list[Path]) -> bool:
    """Whether `path` is a link to somewhere outside the folders a build reads and pnp's own:
    such a file is never read (the read gate, pnp.paths, refuses it)."""
    if not path.is_symlink():
        return False
    target = path.resolve()
    for folder in folders + [PACKAGE]:
        real = folder.resolve()
        if target == real or real in target.parents:
            return False
    return True


def input_folders(root: Path, game_ids: list[str]) -> list[Path]:
    """The folders a build of these games reads (BuildInputs.folders)."""
    return BuildInputs(Path(root), tuple(game_ids)).folders()
