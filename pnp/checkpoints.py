"""Named points a build passes, so that a test can act at one (Ctrl-C while rendering, or while
the files are renamed) without guessing from time on a busy machine.

`PNP_TEST_POINT=NAME:FILE` makes pnp write FILE on reaching the point NAME and wait there until
the test removes FILE (at most a minute). Unset, a point costs one look at the environment."""

from __future__ import annotations

import os
import time
from pathlib import Path

WAIT = 60.0
_passed: set[str] = set()   # each point waits once per process


def reached(name: str) -> None:
    wanted = os.environ.get("PNP_TEST_POINT")
    if not wanted:
        return
    point, _, marker = wanted.partition(":")
    if point != name or not marker or name in _passed:
        return
    _passed.add(name)
    path = Path(marker)
    path.write_text(name)
    deadline = time.monotonic() + WAIT
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.01)   # a Ctrl-C here raises KeyboardInterrupt, as anywhere in the build
