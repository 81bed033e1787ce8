"""How long drawing a component took, shared out over the files it made (the file list shows
each file's time), in one process or in a drawing process of `--jobs`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.outputs.pdf import OutputFile


def timed(render: Callable[..., list[OutputFile]], *args: Any) -> list[tuple[OutputFile, float | None]]:
    """The files `render(*args)` makes, each with its share of the time it took."""
    started = time.perf_counter()
    files = render(*args)
    spent = (time.perf_counter() - started) / max(len(files), 1)
    return [(file, spent) for file in files]
