"""A game's output folder, written all at once and only over pnp's own files.

Files are first written in full to temporary names (`.pnp-part.*`) beside their targets, and
each file they replace is kept as a hard link (`.pnp-old.*`). Then a journal names every
rename about to happen, and only then are the files renamed into place, with Ctrl-C, SIGTERM
and SIGHUP held back for those few renames. If anything fails on the way (a rename refused,
a full disk at the manifest), the renames done are undone from the kept links, so the folder
is as it was. If the process is killed in between, the journal is still there: the next
build finishes the commit when every file was already in place, and undoes it otherwise,
before it does anything else.

A manifest records what pnp wrote (name, SHA-256 and the component it was made for), so a file
someone else put there, or edited since, is never overwritten, and the files of a component
the game no longer has are removed by the next build. A lock file keeps two builds from interleaving. pnp
removes only temporary files it recognises as its own (the `.pnp-part.` and `.pnp-old.`
prefixes), never a user's.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

from pnp.yaml_source import display_path
from pnp.errors import PnpError

MANIFEST = ".pnp-manifest.json"
RECORD = ".pnp-build.json"   # the last build: what it was made from and what it wrote
LOCK = ".pnp.lock"
JOURNAL = ".pnp-journal.json"            # present only while a commit is under way
PART, OLD = ".pnp-part.", ".pnp-old."    # pnp's own temporary files: new contents, kept old ones
PDF_MARK = b"/Creator (pnp)"           # in the info of every PDF pnp writes
PNG_MARK = b"tEXtSoftware\x00pnp"       # in every PNG pnp writes


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


FILE_MODE = 0o666 & ~_umask()


def _ours(name: str, data: bytes, manifest: dict) -> bool:
    """Whether a file in the folder is one pnp wrote and nobody changed since. A file the
    manifest does not list (an older build, a lost manifest) is pnp's if it carries pnp's mark."""
    if name in manifest:
        return listed_digest(manifest[name]) == digest(data)
    return PDF_MARK in data or PNG_MARK in data[:200]


def listed_digest(entry) -> str | None:
    """The SHA-256 a manifest entry records (manifests before components were kept held
    the digest alone)."""
    return entry.get("sha256") if isinstance(entry, dict) else entry


def listed_component(entry) -> str | None:
    return entry.get("component") if isinstance(entry, dict) else None


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class OutputFolder:
    def __init__(self, folder: Path, language: str | None = None):
        self.folder = folder
        # each language's build keeps its own record, so building one never makes another's stale
        self.record = RECORD if not language else RECORD.replace(".json", f"-{language}.json")
        self.removed: list[Path] = []   # by the last commit: files of components that are gone

    def last_warnings(self) -> list[str]:
        """The warnings the last build gave, to tell again when it is reused."""
        try:
            record = json.loads((self.folder / self.record).read_text(encoding="utf-8"))
            return [str(w) for w in record.get("warnings") or []]
        except (OSError, ValueError, AttributeError):
            return []

    def read_record(self) -> dict | None:
        """The last build's record, or None when there is none (or it is unreadable)."""
        try:
            record = json.loads((self.folder / self.record).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return record if isinstance(record, dict) else None

    def up_to_date(self, fingerprint: str) -> list[dict] | None:
        """The files of the last build, if it was made from `fingerprint` and every file it
        wrote is still there unchanged; else None."""
        try:
            record = json.loads((self.folder / self.record).read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError, OSError):
            return None
        if not isinstance(record, dict) or record.get("fingerprint") != fingerprint:
            return None
        files = record.get("files") or []
        for entry in files:
            try:
                if digest((self.folder / entry["name"]).read_bytes()) != entry["digest"]:
                    return None
            except (OSError, KeyError, TypeError):
                return None
        return files

    def commit(self, files, fingerprint: str | None = None, warnings: Sequence[str] = (),
               components: set[str] | None = None, playtest: dict | None = None,
               keep_record: bool = False) -> list[Path]:
        """Write every file (name, data) into the folder, or none of them. Given the game's
        `components`, files pnp wrote for one it no longer has are removed afterwards.
        `playtest` is kept in the record for `pnp diff` (pnp.playtest.record); `keep_record`
        leaves the last build's record as it is (a reprint is not a build of the whole game)."""
        for file in files:
            self.target(file.name)   # every path is checked before anything is written
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with self._locked():
                self.recover()
                self._remove_own_leftovers()
                manifest = self._read_manifest()
                self._refuse_foreign(files, manifest)
                staged = self._stage(files)
                old_manifest = dict(manifest)
                for file in files:
                    manifest[file.name] = {"sha256": digest(file.data), "component": file.component}
                record: dict | None = {"fingerprint": fingerprint, "files": [
                    {"name": f.name, "digest": digest(f.data), "pages": f.pages, "size": len(f.data)}
                    for f in files], "warnings": list(warnings)}
                if playtest is not None and record is not None:
                    record["playtest"] = playtest
                if keep_record:
                    record = self.read_record()
                journal = {"renames": staged, "manifest": dict(sorted(manifest.items())), "record": record,
                           "record_name": self.record,
                           "old_manifest": old_manifest}
                with _holding_signals():
                    try:
                        self._write_json(JOURNAL, journal)
                        self._apply(journal)
                    except OSError:
                        self._undo(journal)   # safe at any step: puts back what moved, drops the rest
                        raise
                    self._forget(journal)
                if components is not None:
                    self.removed = self._remove_gone(manifest, components)
        except OSError as exc:
            if (self.folder / JOURNAL).exists():
                raise PnpError(f"cannot write to {display_path(self.folder)}: {exc.strerror or exc}; "
                               f"the build was cut short, and the next build there will finish or "
                               f"undo it") from None
            raise PnpError(f"cannot write to {display_path(self.folder)}: {exc.strerror or exc}; "
                           f"the files there are as they were") from None
        return [self.folder / file.name for file in files]

    def _remove_gone(self, manifest: dict, components: set[str]) -> list[Path]:
        """Remove what earlier builds wrote for components the game no longer has, each only
        if it still holds what pnp wrote; a file changed since stays, and stays listed."""
        removed = []
        for name, entry in sorted(manifest.items()):
            component = listed_component(entry)
            if component is None or component in components:
                continue
            try:
                path = self.target(name)
            except PnpError:   # a manifest edited by hand: leave it
                continue
            if path.is_symlink() or path.is_dir() or (path.exists() and not self._holds(name, listed_digest(entry))):
                continue
            path.unlink(missing_ok=True)
            del manifest[name]
            removed.append(path)
            with contextlib.suppress(OSError):   # a shop's folder for that deck, now empty
                if path.parent != self.folder:
                    path.parent.rmdir()
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
        return self.folder / path

    # --- the journal --------------------------------------------------------------------------
    def recover(self) -> None:
        """Finish or undo a commit that a kill cut short: finish it when every new file is in
        place (only the manifest and record were missing), else put the old files back."""
        path = self.folder / JOURNAL
        try:
            journal = json.loads(path.read_text(encoding="utf-8"))
            renames = journal["renames"]
        except FileNotFoundError:
            return
        except (ValueError, KeyError, TypeError, OSError):
            path.unlink(missing_ok=True)   # a journal cut short itself: no rename had begun
            return
        if all(self._holds(entry["name"], entry["digest"]) for entry in renames):
            self._write_json(MANIFEST, journal["manifest"])
            if journal["record"] is not None:   # None: a reprint, which leaves the record be
                self._write_json(journal.get("record_name", RECORD), journal["record"])
            self._forget(journal)
        else:
            self._undo(journal)

    def _holds(self, name: str, expected: str | None) -> bool:
        try:
            return digest((self.folder / name).read_bytes()) == expected
        except OSError:
            return False

    def _apply(self, journal: dict) -> None:
        for entry in journal["renames"]:
            os.replace(self.folder / entry["part"], self.folder / entry["name"])
        self._write_json(MANIFEST, journal["manifest"])
        if journal["record"] is not None:
            self._write_json(journal.get("record_name", RECORD), journal["record"])

    def _undo(self, journal: dict) -> None:
        """Put back every file as it was before the commit began."""
        for entry in journal["renames"]:
            target, part = self.folder / entry["name"], self.folder / entry["part"]
            if entry["old"]:
                kept = self.folder / entry["old"]
                if target.exists() and kept.exists() and os.path.samefile(kept, target):
                    kept.unlink()   # never replaced (renaming a link onto itself does nothing)
                with contextlib.suppress(FileNotFoundError):
                    os.replace(kept, target)
            elif not part.exists():
                target.unlink(missing_ok=True)   # a new file that was renamed into place
            part.unlink(missing_ok=True)
        if self._read_manifest() != journal.get("old_manifest", {}):
            self._write_json(MANIFEST, dict(sorted(journal.get("old_manifest", {}).items())))
        (self.folder / JOURNAL).unlink(missing_ok=True)

    def _forget(self, journal: dict) -> None:
        """The commit is complete: the kept old files and the journal go."""
        for entry in journal["renames"]:
            if entry["old"]:
                (self.folder / entry["old"]).unlink(missing_ok=True)
        (self.folder / JOURNAL).unlink(missing_ok=True)

    @contextlib.contextmanager
    def _locked(self):
        with open(self.folder / LOCK, "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _remove_own_leftovers(self) -> None:
        """Temporary files of a build that was killed before its journal: pnp's own by their
        prefix, safe to clear under the lock once any journal has been dealt with."""
        for prefix in (PART, OLD):
            for leftover in self.folder.rglob(f"{prefix}*"):
                if leftover.is_file() and not leftover.is_symlink():
                    leftover.unlink(missing_ok=True)

    def _read_manifest(self) -> dict:
        path = self.folder / MANIFEST
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (FileNotFoundError, ValueError):
            return {}

    def _refuse_foreign(self, files, manifest: dict) -> None:
        for file in files:
            target = self.folder / file.name
            if not target.exists():
                continue
            if target.is_dir() or target.is_symlink():
                raise PnpError(f"{display_path(target)} is not a plain file pnp wrote; move it away")
            if not _ours(file.name, target.read_bytes(), manifest):
                raise PnpError(f"{display_path(target)} was not written by pnp, or was changed since; "
                               f"move it away or build into another --out folder")

    def _stage(self, files) -> list[dict]:
        """Write each file in full beside its target and keep a link to the file it replaces;
        the journal's list of renames."""
        staged: list[dict] = []
        try:
            for file in files:
                target = self.target(file.name)
                target.parent.mkdir(parents=True, exist_ok=True)
                fd, temp = tempfile.mkstemp(prefix=f"{PART}{target.name}.", dir=target.parent)
                entry = {"name": file.name, "part": _relative(temp, self.folder), "old": None,
                         "digest": digest(file.data)}
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
        except BaseException:
            for entry in staged:
                for key in ("part", "old"):
                    if entry[key]:
                        (self.folder / entry[key]).unlink(missing_ok=True)
            raise
        return staged

    def _write_json(self, name: str, data) -> None:
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


def _relative(path: str | Path, folder: Path) -> str:
    # mkstemp gives absolute paths while --out may be relative (../out)
    return Path(os.path.relpath(path, folder)).as_posix()


HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def _holding_signals():
    """Let the renames finish before Ctrl-C, SIGTERM or SIGHUP take effect (main thread only;
    SIGKILL can't be held, which is what the journal is for)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = {number: signal.signal(number, lambda number, _frame: caught.append(number))
                for number in HELD_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if caught:
            if caught[0] == signal.SIGINT:
                raise KeyboardInterrupt
            os.kill(os.getpid(), caught[0])
