"""A game's output folder, written all at once and only over pnp's own files.

Files are first written in full to temporary names (`.NAME.*.part`) beside their targets;
only when every one is on disk are they renamed over the old files, with Ctrl-C held back
for those few renames. A manifest records what pnp wrote (name and SHA-256), so a file
someone else put there, or edited since, is never overwritten. A lock file keeps two builds
into the same folder from interleaving.
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
from pathlib import Path

from pnp.yaml_source import display_path
from pnp.errors import PnpError

MANIFEST = ".pnp-manifest.json"
RECORD = ".pnp-build.json"   # the last build: what it was made from and what it wrote
LOCK = ".pnp.lock"
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
        return manifest[name] == digest(data)
    return PDF_MARK in data or PNG_MARK in data[:200]


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class OutputFolder:
    def __init__(self, folder: Path):
        self.folder = folder

    def up_to_date(self, fingerprint: str) -> list[dict] | None:
        """The files of the last build, if it was made from `fingerprint` and every file it
        wrote is still there unchanged; else None."""
        try:
            record = json.loads((self.folder / RECORD).read_text(encoding="utf-8"))
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

    def commit(self, files, fingerprint: str | None = None) -> list[Path]:
        """Write every file (name, data) into the folder, or none of them."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with self._locked():
                self._remove_stale_parts()
                manifest = self._read_manifest()
                self._refuse_foreign(files, manifest)
                staged = self._stage(files)
                with _holding_ctrl_c():
                    for file, temp in staged:
                        os.replace(temp, self.folder / file.name)
                        manifest[file.name] = digest(file.data)
                    self._write_json(MANIFEST, dict(sorted(manifest.items())))
                    self._write_json(RECORD, {"fingerprint": fingerprint, "files": [
                        {"name": f.name, "digest": digest(f.data), "pages": f.pages, "size": len(f.data)}
                        for f in files]})
        except OSError as exc:
            raise PnpError(f"cannot write to {display_path(self.folder)}: {exc.strerror or exc}; "
                           f"the files there are as they were") from None
        return [self.folder / file.name for file in files]

    @contextlib.contextmanager
    def _locked(self):
        with open(self.folder / LOCK, "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _remove_stale_parts(self) -> None:
        """Temporary files of a build that was killed: pnp's own, safe to clear under the lock."""
        for part in self.folder.rglob(".*.part"):
            part.unlink(missing_ok=True)

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

    def _stage(self, files) -> list[tuple[object, str]]:
        staged = []
        try:
            for file in files:
                target = self.folder / file.name
                target.parent.mkdir(parents=True, exist_ok=True)
                fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
                staged.append((file, temp))
                with os.fdopen(fd, "wb") as handle:
                    handle.write(file.data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(temp, FILE_MODE)   # mkstemp makes 0600; outputs are ordinary files
        except BaseException:
            for _, temp in staged:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temp)
            raise
        return staged

    def _write_json(self, name: str, data) -> None:
        fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=self.folder)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
        os.chmod(temp, FILE_MODE)
        os.replace(temp, self.folder / name)


@contextlib.contextmanager
def _holding_ctrl_c():
    """Let the renames finish before a Ctrl-C takes effect (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt
