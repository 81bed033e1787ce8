"""The folders a build of a game reads: one list, shared by the build cache (a rebuild is
skipped only when none of them changed), `watch` and `serve` (which rebuild when one does) and
the check that keeps `--out` from writing into them."""

from __future__ import annotations

from pathlib import Path

SHARED_FOLDERS = ("layouts", "fonts", "shops", "sheets")   # beside card_data/, used by every game


def input_folders(root: Path, game_ids: list[str]) -> list[Path]:
    """The games' own folders, then the folders every game shares (some may not exist)."""
    root = Path(root)
    return [root / "card_data" / game for game in game_ids] + [root / name for name in SHARED_FOLDERS]
