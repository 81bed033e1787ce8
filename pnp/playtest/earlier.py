"""The game as it was: the files of the last build (kept in its record), of an earlier record,
or of a git revision, laid out as a root folder of their own, so the same loaders and
renderers read the earlier game as the current one.

The folder is made inside the game's output folder (pnp writes nowhere else), starts as a copy
of the fonts, layouts and game folder in use now, takes the earlier files over them and is
removed when done."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import PnpError
from pnp.inputs import SHARED_FOLDERS
from pnp.outputs.folder import RECORD
from pnp.playtest.record import RECORD_KEY, Record, kept_sources
from pnp.yaml_source import display_path

EARLIER = ".pnp-earlier-"   # the temporary root's prefix in the output folder


@dataclass
class Earlier:
    root: Path          # a root folder holding the game as it was
    record: Record | None  # what that build kept (None for a git revision: worked out afresh)
    name: str           # how to tell it: "the last build", "abc123", a record's path


def read_record(path: Path) -> Record:
    """A build record's playtest part, or one clear error."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PnpError(f"no build record at {display_path(path)}",
                       hint="build the game first (pnp build --game ID); each build keeps one") from None
    except (OSError, ValueError) as exc:
        raise PnpError(f"cannot read the build record {display_path(path)}: {exc}") from None
    kept = record.get(RECORD_KEY) if isinstance(record, dict) else None
    if not isinstance(kept, dict) or not isinstance(kept.get("decks"), str) or not isinstance(kept.get("sources"), str):
        raise PnpError(f"the build record {display_path(path)} keeps no cards (made by an older pnp)",
                       hint="build once more, print, and compare with that build")
    return kept


@contextlib.contextmanager
def earlier_game(root: Path, game_id: str, out_folder: Path, since: str | None) -> Iterator[Earlier]:
    """The game as of `since`: None for the last build in `out_folder`, a path to a build
    record, or a git revision of the root folder."""
    root = Path(root)
    if since is None:
        record: Record | None = read_record(out_folder / RECORD)
        name = "the last build"
    elif Path(since).is_file():
        record, name = read_record(Path(since)), display_path(Path(since))
        check_same_game(record, game_id, name)
    else:
        record, name = None, f"revision {since}"
    out_folder.mkdir(parents=True, exist_ok=True)
    remove_stale(out_folder)
    temp = Path(tempfile.mkdtemp(prefix=EARLIER, dir=out_folder))
    try:
        copy_current(root, game_id, temp)
        if record is not None:
            for relative, data in kept_sources(record).items():
                if ".." in Path(relative).parts or Path(relative).is_absolute():
                    continue   # a record edited by hand: never write outside the folder
                put_kept(temp, Path(relative), data)
        else:
            from_git(root, game_id, str(since), temp)
        yield Earlier(temp, record, name)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def put_kept(temp: Path, relative: Path, data: bytes) -> None:
    """A kept file written into the earlier game, never through a link: the copy of today's
    game keeps its links as links, and one may lead anywhere. A link where the file goes is
    replaced by the file; under a linked folder the file is left as it is today."""
    if not relative.parts or "\0" in str(relative):
        return   # a record edited by hand: no file it could name
    try:
        folder = temp
        for part in relative.parts[:-1]:
            folder = folder / part
            if folder.is_symlink():
                return
            folder.mkdir(exist_ok=True)
        target = folder / relative.name
        if target.is_symlink():
            target.unlink()
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    except (OSError, ValueError):   # a folder where the file goes, a name no file system takes: not one a build kept
        return
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)


def check_same_game(record: Record, game_id: str, name: str) -> None:
    """A record another game's build kept is refused: compared with it, every card would be
    told as taken out or added."""
    games = sorted({Path(relative).parts[1] for relative in kept_sources(record)
                    if Path(relative).parts[:1] == ("card_data",) and len(Path(relative).parts) > 2})
    if games and game_id not in games:
        raise PnpError(f"the build record {name} is the game {games[0]}'s, not {game_id}'s",
                       hint=f"give the record of a build of {game_id} (output/{game_id}/{RECORD})")


def remove_stale(out_folder: Path) -> None:
    """Earlier games left by a pnp that was killed (by their prefix, and only after an hour, so
    a diff running beside this one keeps its own)."""
    for folder in out_folder.glob(f"{EARLIER}*"):
        with contextlib.suppress(OSError):
            if folder.is_dir() and not folder.is_symlink() and time.time() - folder.stat().st_mtime > 3600:
                shutil.rmtree(folder, ignore_errors=True)


def copy_current(root: Path, game_id: str, temp: Path) -> None:
    """The folders a build reads, as they are now. Links are copied as links, so one that
    leads out of its folder is refused there as it is here (pnp.paths), never followed."""
    ignore = shutil.ignore_patterns(".git", "__pycache__")
    for name in SHARED_FOLDERS:
        if (root / name).is_dir():
            shutil.copytree(root / name, temp / name, ignore=ignore, symlinks=True)
    shutil.copytree(root / "card_data" / game_id, temp / "card_data" / game_id, ignore=ignore, symlinks=True)


def git(root: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise PnpError("--since REV reads the data from git, which is not installed") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise PnpError(f"git: {message[-1] if message else 'failed'}")
    return done.stdout


def from_git(root: Path, game_id: str, revision: str, temp: Path) -> None:
    """The game's folder and the layouts as they were at `revision`, over the current copy."""
    if revision.startswith("-"):
        raise PnpError(f"'{revision}' is not a git revision or a build record")
    try:
        git(root, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except PnpError as exc:
        reason = exc.message.removeprefix("git: ")
        raise PnpError(f"--since '{revision}' is neither a build record (no such file) nor a git revision "
                       f"of {root.resolve()}" + ("" if reason == "failed" else f" ({reason})")) from None
    top = Path(git(root, "rev-parse", "--show-toplevel").decode().strip())
    tree = f"{revision}:{git(root, 'rev-parse', '--show-prefix').decode().strip()}"   # the root's own folder then
    for folder in (f"card_data/{game_id}", "layouts"):
        if not git(top, "ls-tree", "-d", "--name-only", tree, "--", folder).strip():
            if folder.startswith("card_data"):
                raise PnpError(f"the game {game_id} is not in card_data/ at revision {revision}")
            continue
        shutil.rmtree(temp / folder, ignore_errors=True)
        archive = git(top, "archive", "--format=tar", tree, "--", folder)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            members = [m for m in tar.getmembers() if (m.isfile() or m.isdir())
                       and ".." not in Path(m.name).parts and not Path(m.name).is_absolute()]
            tar.extractall(temp, members=members)   # noqa: S202 - checked above: plain files inside
