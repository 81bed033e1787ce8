"""What a build was made from, as one hash: a rebuild with the same inputs is skipped.

The fingerprint covers every file a build reads (pnp.inputs.BuildInputs: the game's folder,
layouts/, fonts/, shops/, sheets/ and pnp's own fonts, layouts, sheets and shops it falls back
to), the print options and pnp's own code; anything that could change a byte of output
changes it."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from pnp import __version__
from pnp.inputs import BuildInputs

SALT = "pnp-cache-1"
PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def code_digest() -> str:
    """pnp's own source: a changed or upgraded pnp must not reuse an old build."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".yaml") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def fingerprint(root: Path, game_id: str, options, paper: str | None, shops: tuple) -> str:
    """The key of one build: what BuildInputs says it reads, the options and pnp's code."""
    return BuildInputs(Path(root), (game_id,), options, paper, shops).digest(f"{SALT}\0{code_digest()}")
