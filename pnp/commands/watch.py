"""`pnp watch`: rebuild a game whenever one of its files, its layouts or fonts change.

Polls the files' modification times twice a second: no extra dependency, and the same on
every system. A bad edit prints its error and the watch goes on; the last good output stays
where it is (a failed build writes nothing)."""

from __future__ import annotations

import time
from pathlib import Path


def snapshot(root: Path, game_ids: list[str]) -> dict[str, tuple[int, int]]:
    """(modification time, size) of every file a build of these games reads."""
    folders = [root / "card_data" / g for g in game_ids] + [root / "layouts", root / "fonts", root / "shops"]
    state = {}
    for folder in folders:
        if folder.is_dir():
            for path in folder.rglob("*"):
                if path.is_file():
                    stat = path.stat()
                    state[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return state


def watch(root: Path, game_ids: list[str], rebuild, interval: float = 0.5, stop=lambda: False) -> None:
    """Call `rebuild()` once, then again after every change, until `stop()` is true."""
    seen = snapshot(root, game_ids)
    rebuild()
    while not stop():
        time.sleep(interval)
        now = snapshot(root, game_ids)
        if now != seen:
            time.sleep(0.1)   # let an editor finish writing the file before reading it
            seen = snapshot(root, game_ids)
            rebuild()
