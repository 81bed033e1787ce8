"""What a build was made from, as one hash: a rebuild with the same inputs is skipped.

The fingerprint covers every file a build reads (pnp.inputs.BuildInputs: the game's folder,
layouts/, fonts/, shops/, sheets/ and pnp's own fonts, layouts, sheets and shops it falls back
to), the print options and pnp's own code; anything that could change a byte of output
changes it."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pnp import __version__
from pnp.inputs import BuildInputs, files_under

if TYPE_CHECKING:
    from pnp.config.shop import ShopPreset
    from pnp.options import PrintOptions

SALT = "pnp-cache-2"   # 2: files counted by their digests, components keyed one by one
PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def code_digest() -> str:
    """pnp's own source: a changed or upgraded pnp must not reuse an old build. Each module
    counts by its size and time, not its bytes: reading them all cost a tenth of a rebuild
    with nothing changed, and any save or install of a module changes its time."""
    digest = hashlib.sha256(__version__.encode())
    for name in files_under(str(PACKAGE)):
        if name.endswith((".py", ".yaml")) and "__pycache__" not in name:
            stat = os.stat(PACKAGE / name)
            digest.update(f"{name}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode(errors="surrogateescape"))
    return digest.hexdigest()


def fingerprint(root: Path, game_id: str, options: PrintOptions, paper: str | None,
                shops: tuple[ShopPreset, ...]) -> str:
    """The key of one build: what BuildInputs says it reads, the options and pnp's code."""
    return inputs_read(root, game_id, options, paper, shops)[0]


def inputs_read(root: Path, game_id: str, options: PrintOptions, paper: str | None,
                shops: tuple[ShopPreset, ...]) -> tuple[str, list[tuple[str, Path, bytes]]]:
    """The key of one build and the digest of each file it reads, taken in one pass (the
    keys of its components, pnp.outputs.reuse, are made from the same reading)."""
    inputs = BuildInputs(Path(root), (game_id,), options, paper, shops)
    read = inputs.file_digests()
    return inputs.digest(salt(), read), read


def salt() -> str:
    """What every key starts from: the cache's version and pnp's own code."""
    return f"{SALT}\0{code_digest()}"
