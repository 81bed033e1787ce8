"""A game's output folder, written all at once and only over pnp's own files.

Files are first written in full to temporary names (`.pnp-part.*`) beside their targets, and
each file they replace is kept as a hard link (`.pnp-old.*`). Then a journal names every
rename about to happen, and only then are the files renamed into place, with Ctrl-C, SIGTERM
and SIGHUP held back for those few renames. If anything fails on the way (a rename refused,
a full disk at the manifest), the renames done are undone from the kept links, so the folder
is as it was. If the process is killed in between, the journal is still there: the next
build finishes the commit when every file was already in place, and undoes it otherwise,
before it does anything else (before it even decides whether the folder is up to date). The
journal goes as soon as the commit is complete, before the kept old files are dropped, so a
kill while they are dropped leaves only pnp's own leftovers, never a journal to undo later.

Every path pnp writes, reads back or deletes there goes through one gate (`target`): a name
that is absolute, climbs out with `..` or leads out through a link (a subfolder that is a
symlink) is refused, and so is a journal that names one, or is damaged: that is one error that
says what to do, and nothing is deleted. A journal notes the device and inode of each file it
stages, and recovery moves or deletes only that very file: a journal planted in a folder from
someone else may know a file's digest (an empty file's), never its inode. The lock and pnp's
JSON files are opened without following links.

A manifest records what pnp wrote (name, SHA-256 and the component it was made for), so a file
someone else put there, or edited since, is never overwritten, and the files of a component
the game no longer has are removed by the next build. A lock file keeps two builds from interleaving. pnp
removes only temporary files it recognises as its own (the `.pnp-part.` and `.pnp-old.`
prefixes), never a user's.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.errors import display_path
from pnp.errors import PnpError
from pnp.checkpoints import reached
from pnp.paths import inside, own_folders

if TYPE_CHECKING:
    from pnp.outputs.pdf import OutputFile

Json = dict[str, Any]   # a JSON object as read or written: the manifest, a build record, the journal

MANIFEST = ".pnp-manifest.json"
RECORD = ".pnp-build.json"   # the last build: what it was made from and what it wrote
LOCK = ".pnp.lock"
JOURNAL = ".pnp-journal.json"            # present only while a commit is under way
PART, OLD = ".pnp-part.", ".pnp-old."    # pnp's own temporary files: new contents, kept old ones
PDF_MARKS = (b"/Creator (pnp)", b"/Producer (pnp)")   # in the info of every PDF pnp writes (joined ones: Producer)
PNG_MARK = b"tEXtSoftware\x00pnp"       # in every PNG pnp writes
MAX_JSON_BYTES = 64 * 2**20              # pnp's own JSON files: a manifest of a million files
RECORD_NAME = re.compile(r"\.pnp-build(-[A-Za-z0-9_-]+)?\.json")


class InterruptedAfterCommit(KeyboardInterrupt):
    """Ctrl-C came while the files were being put in place: pnp finished that first, so the
    folder holds the new build's files (not the old ones)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


FILE_MODE = 0o666 & ~_umask()


def _ours(name: str, data: bytes, manifest: Json, recorded: frozenset[str] | set[str] = frozenset()) -> bool:
    """Whether a file in the folder is one pnp wrote and nobody changed since. A file the
    manifest does not list (an older build, a lost manifest) is pnp's if it carries pnp's mark
    (PDFs and PNGs), or if a build record of the folder lists it with these very contents."""
    if name in manifest:
        return listed_digest(manifest[name]) == digest(data)
    return any(mark in data for mark in PDF_MARKS) or PNG_MARK in data[:200] or digest(data) in recorded


def listed_digest(entry: Json | str) -> str | None:
    """The SHA-256 a manifest entry records (manifests before components were kept held
    the digest alone)."""
    return entry.get("sha256") if isinstance(entry, dict) else entry


def listed_component(entry: Json | str) -> str | None:
    return entry.get("component") if isinstance(entry, dict) else None


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_json(path: Path) -> Any:
    """One of pnp's JSON files, read without following a link; FileNotFoundError for a link
    or anything but a plain file of a sensible size (a pipe, /dev/zero), as if it were not there."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileNotFoundError(errno.ENOENT, "a link, not pnp's file") from None
        raise
    with os.fdopen(fd, "rb") as handle:
        state = os.fstat(handle.fileno())
        if not stat.S_ISREG(state.st_mode) or state.st_size > MAX_JSON_BYTES:
            raise FileNotFoundError(errno.ENOENT, "not a plain file of pnp's")
        try:
            return json.loads(handle.read(MAX_JSON_BYTES + 1).decode("utf-8"))   # grown since: no JSON
        except RecursionError:   # `[[[[...` two hundred thousand deep: no file pnp writes
            raise ValueError("nested deeper than any file pnp writes") from None


class OutputFolder:
    def __init__(self, folder: Path, language: str | None = None):
        self.folder = folder
        # each language's build keeps its own record, so building one never makes another's stale
        self.record = RECORD if not language else RECORD.replace(".json", f"-{language}.json")
        self.removed: list[Path] = []   # by the last commit: files of components that are gone, stale reprints

    def last_warnings(self) -> list[str]:
        """The warnings the last build gave, to tell again when it is reused."""
        try:
            record = self._read_json(self.record)
            return [str(w) for w in record.get("warnings") or []]
        except (OSError, ValueError, AttributeError, TypeError):
            return []

    def read_record(self) -> Json | None:
        """The last build's record, or None when there is none (or it is unreadable)."""
        try:
            record = self._read_json(self.record)
        except (OSError, ValueError):
            return None
        return record if isinstance(record, dict) else None

    def up_to_date(self, fingerprint: str) -> list[Json] | None:
        """The files of the last build, if it was made from `fingerprint` and every file it
        wrote is still there unchanged; else None."""
        try:
            record = self._read_json(self.record)
        except (ValueError, OSError):
            return None
        if not isinstance(record, dict) or record.get("fingerprint") != fingerprint:
            return None
        files = record.get("files") or []
        for entry in files:
            try:
                if not self._holds(entry["name"], entry["digest"]):
                    return None
            except (KeyError, TypeError, PnpError):
                return None
        return files

    def commit(self, files: Sequence[OutputFile], fingerprint: str | None = None, warnings: Sequence[str] = (),
               components: set[str] | None = None, playtest: Json | None = None,
               keep_record: bool = False, parts: Json | None = None, icons: Json | None = None,
               superseded: Callable[[str], bool] | None = None) -> list[Path]:
        """Write every file (name, data) into the folder, or none of them. Given the game's
        `components`, files pnp wrote for one it no longer has are removed afterwards.
        `playtest` is kept in the record for `pnp diff` (pnp.playtest.record); `keep_record`
        leaves the last build's record as it is (a reprint is not a build of the whole game).
        `parts` (pnp.outputs.reuse) is what the next build needs to reuse each component's
        files; `icons` the icon art it may draw without svglib (pnp.layout.icon_art). A file
        that already holds the new bytes is left alone (its time too). Files pnp wrote that
        `superseded` names and this commit does not write (an earlier reprint's) are removed
        afterwards, each only while it holds what pnp wrote."""
        names: set[str] = set()
        for file in files:
            self.target(file.name)   # every path is checked before anything is written
            if file.name in names:   # a bug: the build checks names before it renders twice
                raise PnpError(f"two files of one build are named {file.name}")
            names.add(file.name)
        self._refuse_a_link()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with self._locked():
                self._recover()
                self._remove_own_leftovers()
                manifest = self._read_manifest()
                self._refuse_foreign(files, manifest)
                staged = self._stage(files)
                old_manifest = dict(manifest)
                for file in files:
                    manifest[file.name] = {"sha256": digest(file.data), "component": file.component}
                record: Json | None = {"fingerprint": fingerprint, "files": [
                    {"name": f.name, "digest": digest(f.data), "pages": f.pages, "size": len(f.data)}
                    for f in files], "warnings": list(warnings)}
                if playtest is not None and record is not None:
                    record["playtest"] = playtest
                if parts is not None and record is not None:
                    record["components"] = parts
                if icons is not None and record is not None:
                    record["icons"] = icons
                if keep_record:
                    record = self.read_record()
                journal = {"renames": staged, "manifest": dict(sorted(manifest.items())), "record": record,
                           "record_name": self.record,
                           "old_manifest": old_manifest}
                with _holding_signals() as caught:
                    try:
                        self._write_json(JOURNAL, journal)
                        self._apply(journal)
                    except OSError:
                        self._undo(journal)   # safe at any step: puts back what moved, drops the rest
                        raise
                    self._forget(journal)
                    if components is not None:
                        self.removed = self._remove_gone(manifest, components)
                    if superseded is not None:
                        self.removed += self._remove_superseded(manifest, names, superseded)
                if signal.SIGINT in caught:   # told only now: the folder holds the new files
                    raise InterruptedAfterCommit()
        except OSError as exc:
            if (self.folder / JOURNAL).exists():
                raise PnpError(f"cannot write to {display_path(self.folder)}: {exc.strerror or exc}; "
                               f"the build was cut short, and the next build there will finish or "
                               f"undo it") from None
            raise PnpError(f"cannot write to {display_path(self.folder)}: {exc.strerror or exc}; "
                           f"the files there are as they were") from None
        return [self.folder / file.name for file in files]

    def _remove_gone(self, manifest: Json, components: set[str]) -> list[Path]:
        """Remove what earlier builds wrote for components the game no longer has, each only
        if it still holds what pnp wrote; a file changed since stays, and stays listed."""
        removed = []
        for name, entry in sorted(manifest.items()):
            component = listed_component(entry)
            if component is None or component in components:
                continue
            path = self._still_ours(name, entry)
            if path is None:
                continue
            if not could_have_written(name, component):
                continue   # a manifest from someone else cannot have pnp delete a file it never makes
            path.unlink(missing_ok=True)
            del manifest[name]
            removed.append(path)
            with contextlib.suppress(OSError):   # a shop's folder for that deck, now empty
                if path.parent != self.folder and path.parent.name == component.partition("@")[0]:
                    path.parent.rmdir()
        if removed:
            self._write_json(MANIFEST, dict(sorted(manifest.items())))
        return removed

    def _still_ours(self, name: str, entry: Json) -> Path | None:
        """The path of a file the manifest lists, if pnp may remove it: inside the folder, a
        plain file (or already gone), still holding what pnp wrote; None otherwise."""
        try:
            path = self.target(name)
        except PnpError:   # a manifest edited by hand: leave it
            return None
        if path.is_symlink() or path.is_dir() or (path.exists() and not self._holds(name, listed_digest(entry))):
            return None
        return path

    def _remove_superseded(self, manifest: Json, written: set[str], superseded: Callable[[str], bool]) -> list[Path]:
        """Remove the files pnp wrote that `superseded` names, other than those just `written`,
        each only if it still holds what pnp wrote."""
        removed = []
        for name, entry in sorted(manifest.items()):
            if name in written or not superseded(name):
                continue
            path = self._still_ours(name, entry)
            if path is None:
                continue
            path.unlink(missing_ok=True)
            del manifest[name]
            removed.append(path)
        if removed:
            self._write_json(MANIFEST, dict(sorted(manifest.items())))
        return removed

    def target(self, name: str) -> Path:
        """The path of an output file, which must lie inside the folder: a name that is
        absolute or climbs out with `..` is a bug or a hostile id, refused before any write."""
        path = Path(name)
        if not name or path.is_absolute() or ".." in path.parts or "\0" in name:
            raise PnpError(f"refusing to write '{name}': an output path must stay inside "
                           f"{display_path(self.folder)}")
        full = self.folder / path
        if full.parent != self.folder:   # a subfolder (a shop's) that is a link leads elsewhere
            try:
                parent = full.parent.resolve()
            except (OSError, RuntimeError):
                parent = None
            if parent is None or not inside(parent, [self.folder]):
                raise PnpError(f"refusing to write '{name}': {display_path(full.parent)} is a link "
                               f"that leads outside {display_path(self.folder)}; remove it")
        return full

    def check_place(self, root: Path, out: Path) -> None:
        """Before anything is built for it: no folder between --out (`out`, which may be a
        link: the user chose it) and this one is a link, and this one (resolved) lies in no
        folder a build reads (--out is checked alone, but OUT/ID can name one of root's)."""
        from pnp.inputs import SHARED_FOLDERS
        folder = self.folder
        while folder != out and folder != folder.parent:
            OutputFolder(folder)._refuse_a_link()
            folder = folder.parent
        try:
            resolved = self.folder.resolve()
        except (OSError, RuntimeError):
            raise PnpError(f"{display_path(self.folder)} is a link that never ends (a symlink loop); "
                           f"remove it") from None
        for name in ("card_data",) + SHARED_FOLDERS:
            if inside(resolved, [Path(root) / name]):
                raise PnpError(f"{display_path(self.folder)} leads into {name}/, which pnp reads; pnp "
                               f"will not write there: remove the link, or choose another --out")
        if inside(resolved, own_folders(), resolved=True):
            raise PnpError(f"{display_path(self.folder)} leads into pnp's own files, which pnp reads; pnp "
                           f"will not write there: choose another --out")

    def _refuse_a_link(self) -> None:
        """The game's folder under --out must be a real folder: a link would send every file,
        and every deletion, wherever it points (into card_data/, say)."""
        if self.folder.is_symlink():
            raise PnpError(f"{display_path(self.folder)} is a link (to {os.readlink(self.folder)}); pnp "
                           f"writes only into real folders: remove the link, or give --out the "
                           f"folder you meant")

    # --- the journal --------------------------------------------------------------------------
    def recover(self) -> None:
        """Before a build looks at the folder: finish or undo a commit that a kill cut short,
        and clear pnp's own leftovers, under the lock."""
        if not self.folder.is_dir() and not self.folder.is_symlink():
            return
        self._refuse_a_link()
        try:
            with self._locked():
                self._recover()
                self._remove_own_leftovers()
        except OSError as exc:
            raise PnpError(f"cannot finish or undo the last build in {display_path(self.folder)}: "
                           f"{exc.strerror or exc}; the next build there will try again") from None

    def _recover(self) -> None:
        """Finish or undo a commit that a kill cut short: finish it when every new file is in
        place (only the manifest and record were missing), else put the old files back."""
        path = self.folder / JOURNAL
        if not os.path.lexists(path):
            return
        journal = self._checked_journal()
        with _holding_signals() as caught:
            if all(self._holds(entry["name"], entry["digest"]) and self._is_staged(entry)
                   for entry in journal["renames"]):
                self._write_json(MANIFEST, journal["manifest"])
                if journal["record"] is not None:   # None: a reprint, which leaves the record be
                    self._write_json(journal["record_name"], journal["record"])
                self._forget(journal)
            else:
                self._undo(journal)
        if signal.SIGINT in caught:
            raise KeyboardInterrupt

    def _checked_journal(self) -> Json:
        """The journal, if it is one pnp could have written here: every name it gives inside
        the folder, every file it would delete one of pnp's own temporary files. Anything else
        is one error that deletes nothing."""
        shown = display_path(self.folder / JOURNAL)
        advice = (f"pnp cannot tell what a cut-short build there changed, so it changed nothing. "
                  f"Check the files in {display_path(self.folder)}, then delete {JOURNAL} (and any "
                  f".pnp-part.* and .pnp-old.* files) and build again")
        try:
            journal = self._read_json(JOURNAL)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not JSON"
            raise PnpError(f"{shown} is damaged ({reason}): {advice}") from None
        try:
            if not isinstance(journal, dict) or not isinstance(journal.get("renames"), list):
                raise ValueError("no list of renames")
            for key in ("manifest", "record", "old_manifest"):
                if key == "record" and journal.get(key, {}) is None:
                    continue   # a reprint's commit: the record stays as it is
                if not isinstance(journal.get(key, {}), dict):
                    raise ValueError(f"its {key} is not a map")
            journal.setdefault("record_name", RECORD)
            journal.setdefault("old_manifest", {})
            if not isinstance(journal["record_name"], str) or not RECORD_NAME.fullmatch(journal["record_name"]):
                raise ValueError(f"it names {journal['record_name']!r} as the build record")
            for entry in journal["renames"]:
                if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("name", "part", "digest")):
                    raise ValueError("a rename without a name, a part or a digest")
                if entry.get("old") is not None and not isinstance(entry["old"], str):
                    raise ValueError("a rename whose old file is not a name")
                for key in ("file", "old_file"):   # absent from an older pnp's journal: then nothing matches
                    if entry.get(key) is not None and not (isinstance(entry[key], list) and len(entry[key]) == 2
                                                           and all(type(n) is int for n in entry[key])):
                        raise ValueError(f"a rename whose {key} is not a device and inode")
                for key, prefix in (("name", None), ("part", PART), ("old", OLD)):
                    if entry.get(key) is None:
                        continue
                    try:
                        self.target(entry[key])
                    except PnpError:
                        raise ValueError(f"it names '{entry[key]}', outside {display_path(self.folder)}") from None
                    if prefix and not Path(entry[key]).name.startswith(prefix):
                        raise ValueError(f"it would delete '{entry[key]}', which is not one of pnp's "
                                         f"temporary files")
        except ValueError as exc:
            raise PnpError(f"{shown} is not a journal pnp wrote here ({exc}): {advice}") from None
        return journal

    def kept(self, name: str, expected: str) -> bytes | None:
        """The bytes of the folder's file `name` if it is a plain file holding what the last
        build wrote (SHA-256 `expected`); else None."""
        path = self.target(name)
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):
                return None
            data = path.read_bytes()
        except OSError:
            return None
        return data if digest(data) == expected else None

    def _is_staged(self, entry: Json, name_key: str = "name", file_key: str = "file") -> bool:
        """Whether the folder's file `entry[name_key]` is the very file this commit staged
        (its device and inode, as the journal noted them): a planted journal cannot know a
        file's inode, where it could know its digest (an empty file's)."""
        try:
            return identity(os.lstat(self.target(entry[name_key]))) == entry.get(file_key)
        except OSError:
            return False

    def _holds(self, name: str, expected: str | None) -> bool:
        """Whether the folder's file `name` is a plain file with these contents."""
        path = self.target(name)
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):
                return False
            return digest(path.read_bytes()) == expected
        except OSError:
            return False

    def _read_json(self, name: str) -> Any:
        return read_json(self.folder / name)

    def _apply(self, journal: Json) -> None:
        for number, entry in enumerate(journal["renames"]):
            os.replace(self.folder / entry["part"], self.folder / entry["name"])
            if number == 0:
                reached("renaming")   # for tests: one file is the new build's, the rest to come
        self._write_json(MANIFEST, journal["manifest"])
        if journal["record"] is not None:   # None: a reprint, which leaves the record be
            self._write_json(journal.get("record_name", RECORD), journal["record"])

    def _undo(self, journal: Json) -> None:
        """Put back every file as it was before the commit began."""
        for entry in journal["renames"]:
            target, part = self.target(entry["name"]), self.target(entry["part"])
            is_new = self._holds(entry["name"], entry["digest"]) and self._is_staged(entry)
            if entry["old"]:
                kept = self.target(entry["old"])
                if target.exists() and kept.exists() and os.path.samefile(kept, target):
                    kept.unlink()   # never replaced (renaming a link onto itself does nothing)
                elif (is_new or not os.path.lexists(target)) and self._is_staged(entry, "old", "old_file"):
                    with contextlib.suppress(FileNotFoundError):   # never over a file changed since
                        os.replace(kept, target)
            elif not os.path.lexists(part) and is_new:
                target.unlink(missing_ok=True)   # a new file that was renamed into place
            part.unlink(missing_ok=True)
        if self._read_manifest() != journal.get("old_manifest", {}):
            self._write_json(MANIFEST, dict(sorted(journal.get("old_manifest", {}).items())))
        (self.folder / JOURNAL).unlink(missing_ok=True)

    def _forget(self, journal: Json) -> None:
        """The commit is complete: the journal goes first (from here a kill leaves only pnp's
        own leftovers, cleared by the next build), then the kept old files."""
        (self.folder / JOURNAL).unlink(missing_ok=True)
        for entry in journal["renames"]:
            if entry["old"]:
                self.target(entry["old"]).unlink(missing_ok=True)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The folder's lock, a plain file opened without following a link: a `.pnp.lock`
        that is a link (or a pipe) is refused, and never creates a file where it points. A lock
        this build created in a folder where pnp keeps nothing else (a build refused there) is
        removed as it lets go."""
        path = self.folder / LOCK
        while True:
            fd, created = self._lock_opened(path)
            with os.fdopen(fd, "rb") as handle:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise PnpError(f"{display_path(path)} is not a plain file; remove it and build again")
                fcntl.flock(handle, fcntl.LOCK_EX)
                if not self._still_the_lock(path, fd):
                    continue   # removed by the build that held it: lock the file there now
                try:
                    yield
                finally:
                    if created and not self._holds_pnp_files():
                        path.unlink(missing_ok=True)   # a refused build leaves a user's folder as it was
                    fcntl.flock(handle, fcntl.LOCK_UN)
                return

    @staticmethod
    def _lock_opened(path: Path) -> tuple[int, bool]:
        """The lock file opened without following a link, and whether this call created it."""
        flags = os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        while True:
            try:
                return os.open(path, flags | os.O_CREAT | os.O_EXCL, FILE_MODE), True
            except FileExistsError:
                pass
            try:
                return os.open(path, flags), False
            except FileNotFoundError:
                continue   # removed between the two opens: create it
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    raise PnpError(f"{display_path(path)} is a link; pnp's lock must be a plain file: "
                                   f"remove it and build again") from None
                raise

    @staticmethod
    def _still_the_lock(path: Path, fd: int) -> bool:
        """Whether the file locked is still the one at `path`: a build that created the lock
        and had nothing to keep removes it as it lets go."""
        try:
            named, held = os.lstat(path), os.fstat(fd)
        except FileNotFoundError:
            return False
        return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)

    def _holds_pnp_files(self) -> bool:
        """Whether pnp keeps anything in the folder besides its lock: a manifest, a journal or
        a build record."""
        return any(os.path.lexists(self.folder / name) for name in (MANIFEST, JOURNAL)) or \
            any(self.folder.glob(".pnp-build*.json"))

    def _remove_own_leftovers(self) -> None:
        """Temporary files of a build that was killed before its journal: pnp's own by their
        prefix, safe to clear under the lock once any journal has been dealt with."""
        for prefix in (PART, OLD):
            for leftover in self.folder.rglob(f"{prefix}*"):
                if leftover.is_file() and not leftover.is_symlink():
                    leftover.unlink(missing_ok=True)

    def _read_manifest(self) -> Json:
        try:
            data = self._read_json(MANIFEST)
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def _recorded(self) -> set[str]:
        """The digests the folder's build records list: with the manifest lost, the files
        they name with those contents are still known to be pnp's."""
        found: set[str] = set()
        for path in self.folder.glob(".pnp-build*.json"):
            try:
                record = self._read_json(path.name)
                found |= {entry["digest"] for entry in record.get("files") or [] if isinstance(entry.get("digest"), str)}
            except (OSError, ValueError, AttributeError, TypeError):
                continue
        return found

    def _refuse_foreign(self, files: Sequence[OutputFile], manifest: Json) -> None:
        recorded = self._recorded()
        for file in files:
            target = self.target(file.name)
            if not os.path.lexists(target):
                continue
            if not stat.S_ISREG(os.lstat(target).st_mode):   # a folder, a link, a pipe
                raise PnpError(f"{display_path(target)} is not a plain file pnp wrote; move it away")
            if not _ours(file.name, target.read_bytes(), manifest, recorded):
                raise PnpError(f"{display_path(target)} was not written by pnp, or was changed since; "
                               f"move it away or build into another --out folder")

    def _stage(self, files: Sequence[OutputFile]) -> list[Json]:
        """Write each file in full beside its target and keep a link to the file it replaces;
        the journal's list of renames."""
        staged: list[Json] = []
        try:
            for file in files:
                if self._holds(file.name, digest(file.data)):
                    continue   # the same bytes: nothing to write, and its time says when it last changed
                target = self.target(file.name)
                target.parent.mkdir(parents=True, exist_ok=True)
                fd, temp = tempfile.mkstemp(prefix=f"{PART}{target.name}.", dir=target.parent)
                entry: Json = {"name": file.name, "part": _relative(temp, self.folder), "old": None,
                               "digest": digest(file.data), "file": identity(os.fstat(fd))}
                staged.append(entry)
                with os.fdopen(fd, "wb") as handle:
                    handle.write(file.data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(temp, FILE_MODE)   # mkstemp makes 0600; outputs are ordinary files
                if target.exists():
                    kept = target.parent / f"{OLD}{target.name}.{Path(temp).name.rsplit('.', 1)[-1]}"
                    os.link(target, kept)
                    entry["old"] = _relative(kept, self.folder)
                    entry["old_file"] = identity(os.lstat(kept))
        except BaseException:
            for entry in staged:
                for key in ("part", "old"):
                    if entry[key]:
                        (self.folder / entry[key]).unlink(missing_ok=True)
            raise
        return staged

    def _write_json(self, name: str, data: object) -> None:
        fd, temp = tempfile.mkstemp(prefix=f"{PART}{name}.", dir=self.folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=1)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp, FILE_MODE)
            os.replace(temp, self.folder / name)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
            raise


def identity(state: os.stat_result) -> list[int]:
    """A file's device and inode, as the journal keeps them (JSON: a list)."""
    return [state.st_dev, state.st_ino]


def _relative(path: str | Path, folder: Path) -> str:
    # mkstemp gives absolute paths while --out may be relative (../out)
    return Path(os.path.relpath(path, folder)).as_posix()


HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def _holding_signals() -> Iterator[list[int]]:
    """Let the renames finish before Ctrl-C, SIGTERM or SIGHUP take effect (main thread only;
    SIGKILL can't be held, which is what the journal is for). Yields the signals caught: SIGTERM
    and SIGHUP act as soon as the block ends, a Ctrl-C is for the caller to raise."""
    caught: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    previous = {number: signal.signal(number, lambda number, _frame: caught.append(number))
                for number in HELD_SIGNALS}
    try:
        yield caught   # the caller tells of a held Ctrl-C, knowing what was done
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for held in caught:
            if held != signal.SIGINT:
                os.kill(os.getpid(), held)


WRITTEN_SUFFIXES = (".pdf", ".png", ".json", ".csv")   # what a build writes for a component


def could_have_written(name: str, component: str) -> bool:
    """Whether pnp could have written `name` for `component`: a file of a kind it writes,
    named after the component (cards-letter.pdf; tgc/cards/cards-001-front.png; a translated
    edition's component is cards@de)."""
    component = component.partition("@")[0]
    file = Path(name)
    return file.suffix.lower() in WRITTEN_SUFFIXES and (file.name.startswith(f"{component}-")
                                                        or file.name.startswith(f"{component}.")
                                                        or component in file.parts[:-1])
