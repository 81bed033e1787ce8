"""Which files a build of a game reads, and telling when any of them changes.

Shared by `pnp watch` and `pnp serve`. The operating system tells of changes (watchfiles:
inotify, FSEvents, ReadDirectoryChanges), so a save is seen in a few milliseconds without
polling every file. The folders are armed again whenever one of them appears or vanishes, so
a `git checkout` that removes and restores card_data/ is followed, not fatal."""

from __future__ import annotations

import errno
import threading
from collections.abc import Iterator
from pathlib import Path

import watchfiles

from pnp.inputs import input_folders

SETTLE_MS = 30        # a save is often several writes: wait this long for quiet before telling
LOOK_AGAIN_MS = 400   # how often to check that the watched folders still exist


def watched_folders(root: Path, game_ids: list[str]) -> list[Path]:
    """The folders whose files a build of these games may read."""
    return input_folders(root, game_ids)


class EditorNoise(watchfiles.DefaultFilter):
    """Leave out what editors write beside a file while saving it: swap, backup and lock files."""

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        name = Path(path).name
        if name.startswith((".~lock.", "~$", ".#")) or name.endswith((".tmp", ".part", ".kate-swp")):
            return False
        return super().__call__(change, path)


def refused(exc: BaseException) -> bool:
    """Whether the system would not watch: its inotify instances (EMFILE) or watches (ENOSPC,
    "OS file watch limit reached") used up."""
    said = str(exc).lower()
    return getattr(exc, "errno", None) in (errno.EMFILE, errno.ENOSPC) or "watch limit" in said \
        or "too many open files" in said or "no space left on device" in said


def changes(root: Path, game_ids: list[str], stop: threading.Event,
            poll_seconds: float = 0.3) -> Iterator[set[Path]]:
    """Yield the set of paths changed in each burst of edits, until `stop` is set; an empty set
    now and then when nothing changed. The first yield comes once the folders are watched, so
    a caller that builds then misses no edit made while it built.
    `poll_seconds` is how often files are looked at where the system can't tell of changes."""
    noise = EditorNoise()
    polling = False   # the system would not tell of changes (its watches used up): look at the files
    while not stop.is_set():
        folders = [folder for folder in watched_folders(root, game_ids) if folder.is_dir()]
        if not folders:
            yield set()
            stop.wait(LOOK_AGAIN_MS / 1000)
            continue
        try:
            for batch in watchfiles.watch(*folders, watch_filter=noise, stop_event=stop, debounce=1000,
                                          step=SETTLE_MS, rust_timeout=LOOK_AGAIN_MS, yield_on_timeout=True,
                                          raise_interrupt=True, poll_delay_ms=int(poll_seconds * 1000),
                                          force_polling=polling):
                yield {Path(path) for _, path in batch}
                now = [folder for folder in watched_folders(root, game_ids) if folder.is_dir()]
                if now != folders:
                    yield set(folders) ^ set(now)   # a folder came or went: that is a change too
                    break
        except (OSError, RuntimeError) as exc:
            # a folder vanished while being armed: look again shortly. The system's refusal to
            # watch (a user's inotify watches and instances are few, and editors use them too)
            # would come again: look at the files instead
            polling = polling or refused(exc)
            yield set()
            stop.wait(LOOK_AGAIN_MS / 1000)
