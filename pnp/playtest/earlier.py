"""The game as it was: the files of the last build (kept in its record), of an earlier record,
or of a git revision, laid out as a root folder of their own, so the same loaders and
renderers read the earlier game as the current one.

The folder is made inside the game's output folder (pnp writes nowhere else), starts as a copy
of the fonts, layouts and game folder in use now, takes the earlier files over them and is
removed when done."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from pnp.errors import PnpError
from pnp.inputs import SHARED_FOLDERS
from pnp.outputs.folder import RECORD, OutputFolder, read_json
from pnp.paths import inside, own_folders
from pnp.playtest.record import MAX_PICTURE_BYTES, PICTURES, RECORD_KEY, DamagedRecord, Record, kept_decks, kept_sources
from pnp.yaml_source import MAX_FILE_BYTES, display_path

EARLIER = ".pnp-earlier-"   # the temporary root's prefix in the output folder


@dataclass
class Earlier:
    root: Path          # a root folder holding the game as it was
    record: Record | None  # what that build kept (None for a git revision: worked out afresh)
    name: str           # how to tell it: "the last build", "abc123", a record's path


def read_record(path: Path, shown: str | None = None) -> Record:
    """A build record's playtest part, or one clear error. Read as the output folder reads its
    own JSON: a link, a pipe or a file past its size counts as missing. Unpacked here once, so a
    damaged record, or one that unpacks to gigabytes, is told before anything is compared."""
    shown = display_path(path) if shown is None else shown
    try:
        record = read_json(path)
    except FileNotFoundError:
        raise PnpError(f"no build record at {shown}",
                       hint="build the game first (pnp build --game ID); each build keeps one") from None
    except (OSError, ValueError) as exc:
        raise PnpError(f"cannot read the build record {shown}: {exc}") from None
    kept = record.get(RECORD_KEY) if isinstance(record, dict) else None
    if not isinstance(kept, dict) or not isinstance(kept.get("decks"), str) or not isinstance(kept.get("sources"), str):
        raise PnpError(f"the build record {shown} keeps no cards (made by an older pnp)",
                       hint="build once more, print, and compare with that build")
    try:
        kept_decks(kept), kept_sources(kept)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:   # damaged, or edited by hand
        why = str(exc) if isinstance(exc, DamagedRecord) else "its cards are not as pnp keeps them"
        raise PnpError(f"cannot read the build record {shown}: {why}",
                       hint="build the game once more (pnp build --game ID), print, and compare with that build") \
            from None
    return kept


@contextlib.contextmanager
def earlier_game(root: Path, game_id: str, out_folder: Path, since: str | None) -> Iterator[Earlier]:
    """The game as of `since`: None for the last build in `out_folder`, a path to a build
    record, or a git revision of the root folder. An `out_folder` that is a link, or leads into
    a folder pnp reads, is refused first, as a build refuses it: the earlier game is laid out in it."""
    root = Path(root)
    OutputFolder(out_folder).check_place(root, out_folder.parent)
    if since is None:
        record: Record | None = read_record(out_folder / RECORD)
        name = "the last build"
    elif Path(since).is_file():   # a record the user names: a link to it is theirs to make
        name = display_path(Path(since))
        record = read_record(Path(since).resolve(), name)
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
    """A kept file written into the earlier game (see kept_file)."""
    descriptor = kept_file(temp, relative)
    if descriptor is not None:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)


def kept_file(temp: Path, relative: Path) -> int | None:
    """A file of the earlier game opened to be written, never through a link: the copy of
    today's game keeps its links as links, and one may lead anywhere. A link where the file
    goes is replaced by the file; under a linked folder the file is left as it is today (None)."""
    if not relative.parts or "\0" in str(relative) or ".." in relative.parts or relative.is_absolute():
        return None   # a record edited by hand, a tree made by hand: no file it could name
    try:
        folder = temp
        for part in relative.parts[:-1]:
            folder = folder / part
            if folder.is_symlink():
                return None
            folder.mkdir(exist_ok=True)
        target = folder / relative.name
        if target.is_symlink():
            target.unlink()
        return os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    except (OSError, ValueError):   # a folder where the file goes, a name no file system takes: not one a build kept
        return None


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
    """The folders a build reads, as they are now: their folders and plain files, and their
    links as links, so one that leads out of its folder is refused there as it is here
    (pnp.paths), never followed. What a build never reads is left out (never_read); a copy
    that fails (a full disk, a name too long there) is one error."""
    for relative in [Path(name) for name in SHARED_FOLDERS] + [Path("card_data") / game_id]:
        if not (root / relative).is_dir():
            continue
        try:
            shutil.copytree(root / relative, temp / relative, ignore=never_read, symlinks=True)
        except OSError as exc:   # shutil.Error too: each file's problem, listed
            raise PnpError(f"cannot copy the game to compare with into {display_path(temp.parent)}: "
                           f"{copy_problem(exc)}") from None


def never_read(folder: str, names: list[str]) -> set[str]:
    """The names copy_current leaves out of a folder: git's and Python's own, and what the read
    gate refuses (pnp.paths): a pipe, a device, and a hard link outside pnp's own files, whose
    other name may be anywhere."""
    own = inside(Path(folder).resolve(), own_folders(), resolved=True)
    left_out = {".git", "__pycache__"} & set(names)
    for name in names:
        try:
            state = os.lstat(os.path.join(folder, name))
        except OSError:   # gone since the folder was listed
            left_out.add(name)
            continue
        if stat.S_ISDIR(state.st_mode) or stat.S_ISLNK(state.st_mode):
            continue
        if not stat.S_ISREG(state.st_mode) or (state.st_nlink > 1 and not own):
            left_out.add(name)
    return left_out


def copy_problem(exc: OSError) -> str:
    """What went wrong, once: shutil.Error lists (source, target, why) for each file."""
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        source, _, why = exc.args[0][0]
        return f"{display_path(Path(source))}: {why}"
    return f"{display_path(Path(exc.filename))}: {exc.strerror}" if exc.filename else str(exc)


# A repository's own config may name commands (a filter's smudge, the fsmonitor hook, a pager):
# pnp reads a revision with commands that run none of them, and turns off those that could
# A partial clone fetches a missing blob on demand, through the transport its config names
# (core.sshCommand): no fetch (a git that knows GIT_NO_LAZY_FETCH), and for one that does not,
# no protocol allowed whatever the repository's config says (GIT_ALLOW_PROTOCOL overrides it)
# and no ssh command but `false`.
GIT_SETTINGS = ("--no-pager", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                "-c", "protocol.allow=never")
GIT_ENVIRONMENT = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": "none-at-all",
                   "GIT_SSH_COMMAND": "false", "GIT_PAGER": "cat", "PAGER": "cat", "GIT_TERMINAL_PROMPT": "0",
                   "GIT_OPTIONAL_LOCKS": "0"}


def git_command(root: Path, *args: str) -> list[str]:
    return ["git", *GIT_SETTINGS, "-C", str(root), *args]


def git_environment() -> dict[str, str]:
    return {**os.environ, **GIT_ENVIRONMENT}


def git(root: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(git_command(root, *args), capture_output=True, check=False, env=git_environment())
    except FileNotFoundError:
        raise PnpError("--since REV reads the data from git, which is not installed") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise PnpError(f"git: {message[-1] if message else 'failed'}")
    return done.stdout


def from_git(root: Path, game_id: str, revision: str, temp: Path) -> None:
    """The game's folder and the layouts as they were at `revision`, over the current copy:
    each file's blob as git keeps it. `git archive` or a checkout would run the filters the
    repository's attributes and config name; `git cat-file --batch` runs none."""
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
        files = tree_files(top, tree, folder, revision)
        shutil.rmtree(temp / folder, ignore_errors=True)
        try:
            with blobs_of(top) as blobs:
                for relative, blob, size in files:
                    descriptor = kept_file(temp, Path(relative))
                    if descriptor is not None:
                        with os.fdopen(descriptor, "wb") as handle:
                            blobs.copy(blob, size, handle)
        except OSError as exc:   # git gone mid-way, a full disk
            raise PnpError(f"cannot read {folder} at revision {revision}: {exc.strerror or exc}") from None


def tree_files(top: Path, tree: str, folder: str, revision: str) -> list[tuple[str, str, int]]:
    """The plain files under `folder` of `tree` (not links, nor another repository's
    commits): (path, blob, size). A file past what pnp reads of its kind (a 25 MB .psd beside
    the cards) is left out: a build refuses to read it, and reading it would cost its size."""
    files = []
    for entry in git(top, "ls-tree", "-r", "-z", "--long", tree, "--", folder).split(b"\0"):
        if not entry:
            continue
        about, name = entry.split(b"\t", 1)
        mode, kind, blob, size = about.decode("ascii").split()
        if kind != "blob" or not mode.startswith("100"):
            continue
        relative = os.fsdecode(name)
        if not size.isdigit():   # a blob this clone does not hold, which pnp does not fetch
            raise PnpError(f"{relative} at revision {revision} is not in this repository (a partial clone?); "
                           f"pnp fetches nothing", hint="compare with a build's record instead "
                           "(--since OUT/ID/.pnp-build.json)")
        if int(size) <= most_read(relative):
            files.append((relative, blob, int(size)))
    return files


def most_read(relative: str) -> int:
    """The most bytes pnp reads of such a file: a picture's or font's, a workbook's, any other's."""
    from pnp.config.sheets import MAX_UNPACKED_BYTES
    suffix = Path(relative).suffix.lower()
    return MAX_PICTURE_BYTES if suffix in PICTURES else MAX_UNPACKED_BYTES if suffix == ".xlsx" else MAX_FILE_BYTES


class Blobs:
    """Blobs read one after another from one `git cat-file --batch`, which applies no filter."""

    def __init__(self, process: subprocess.Popen[bytes]):
        self.process = process

    def copy(self, blob: str, size: int, into: IO[bytes]) -> None:
        """The blob's bytes into `into`, read a piece at a time: `size` as ls-tree gave it."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(blob.encode("ascii") + b"\n")
        stdin.flush()
        if stdout.readline(200).split() != [blob.encode("ascii"), b"blob", str(size).encode("ascii")]:
            raise PnpError(f"git: cannot read the blob {blob}")
        left = size
        while left:
            piece = stdout.read(min(left, 2**20))
            if not piece:
                raise PnpError(f"git: the blob {blob} ended early")
            into.write(piece)
            left -= len(piece)
        stdout.read(1)   # the newline after each blob


@contextlib.contextmanager
def blobs_of(top: Path) -> Iterator[Blobs]:
    process = subprocess.Popen(git_command(top, "cat-file", "--batch"), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=git_environment())
    try:
        yield Blobs(process)
    finally:
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        if process.poll() is None:
            process.kill()
            process.wait()
