"""What a build was made from, as one hash: a rebuild with the same inputs is skipped.

The fingerprint covers every file under the game's folder, layouts/, fonts/ and shops/, the
print options and pnp's own code; anything that could change a byte of output changes it."""

from __future__ import annotations

import hashlib
import os
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path

from pnp import __version__
from pnp.errors import PnpError
from pnp.inputs import input_folders
from pnp.paths import inside, own_folders

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
    digest = hashlib.sha256(f"{SALT}\0{code_digest()}\0{paper}\0{sorted(asdict(options).items())}".encode())
    for shop in shops:
        digest.update(f"\0shop\0{shop.id}\0{shop}".encode())
    folders = input_folders(root, [game_id])
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(f"\0{path.relative_to(root).as_posix()}\0".encode())
            try:
                if path.is_symlink() and not inside(path.resolve(), folders + list(own_folders())):
                    # a link that leads out is never read (a build refuses it): where it points counts
                    digest.update(os.readlink(path).encode(errors="surrogateescape"))
                    continue
                digest.update(path.read_bytes())
            except OSError as exc:   # unreadable, or gone since the folder was listed
                raise PnpError(f"cannot read {path.relative_to(root).as_posix()}: {exc.strerror or exc}",
                               hint="check its permissions, or wait until the files stop changing") from None
    return digest.hexdigest()
