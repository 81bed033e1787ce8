"""What a build was made from, as one hash: a rebuild with the same inputs is skipped.

The fingerprint covers every file under the game's folder, layouts/, fonts/ and shops/, the
print options and pnp's version; anything that could change a byte of output changes it."""

from __future__ import annotations

import hashlib
from dataclasses import asdict
from pathlib import Path

from pnp import __version__

SALT = "pnp-cache-1"


def fingerprint(root: Path, game_id: str, options, paper: str | None, shops: tuple) -> str:
    digest = hashlib.sha256(f"{SALT}\0{__version__}\0{paper}\0{sorted(asdict(options).items())}".encode())
    for shop in shops:
        digest.update(f"\0shop\0{shop.id}\0{shop}".encode())
    for folder in (root / "card_data" / game_id, root / "layouts", root / "fonts", root / "shops"):
        if not folder.is_dir():
            continue
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(f"\0{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
