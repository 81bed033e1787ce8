"""`pnp watch`: rebuild a game whenever one of its files, its layouts or fonts change.

The operating system tells of each save (pnp.watching, shared with `pnp serve`); where it
can't (some network drives), the files are polled every `interval` seconds. A bad edit
prints its error and the watch goes on; the last good output stays where it is (a failed
build writes nothing)."""

from __future__ import annotations

import threading
from pathlib import Path

from pnp.watching import changes


def watch(root: Path, game_ids: list[str], rebuild, interval: float = 0.5,
          stop: threading.Event | None = None) -> None:
    """Call `rebuild()` once the files are watched, then again after every burst of changes,
    until `stop` is set."""
    stop = stop or threading.Event()
    built = False
    for changed in changes(root, game_ids, stop, poll_seconds=interval):
        if changed or not built:
            rebuild()
            built = True
