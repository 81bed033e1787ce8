"""Paths a game names, kept inside the folder they belong to."""

from __future__ import annotations

from pathlib import Path


def safe_path(base: Path, name: str, where, what: str) -> Path:
    """`name` resolved inside `base`; absolute paths, `..` and links that lead out are refused."""
    if "\0" in name:
        raise where.error(f"{what} path contains a NUL character; remove it")
    candidate = Path(name)
    if candidate.is_absolute():
        raise where.error(f"{what} path '{name}' is absolute; give it relative to the game folder")
    try:
        resolved = (base / candidate).resolve()
    except (OSError, RuntimeError):   # a link that leads to itself
        raise where.error(f"{what} path '{name}' is a link that never ends (a symlink loop)") from None
    if resolved != base.resolve() and base.resolve() not in resolved.parents:
        raise where.error(f"{what} path '{name}' leads outside the game folder")
    return resolved
