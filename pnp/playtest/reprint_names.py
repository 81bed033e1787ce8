"""How a reprint file is named: after the full build's file it stands beside, so it is never
one of a full build's names and each later build can tell it from them."""

from __future__ import annotations

REPRINT = "-reprint"
OUTDATED_REPRINT = "an earlier reprint, out of date once the game is built or reprinted again"


def reprint_name(name: str) -> str:
    """`cards-letter-bleed.pdf` -> `cards-letter-bleed-reprint.pdf`: never a full build's name."""
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}{REPRINT}{dot}{suffix}"


def is_reprint(name: str) -> bool:
    """A reprint file's name: a later build of the whole game makes it out of date, and so does
    a later reprint with the same options."""
    return name.endswith(REPRINT + ".pdf")
