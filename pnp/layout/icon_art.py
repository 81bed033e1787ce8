"""SVG icons as drawn, kept from one build to the next: an icon's shape (width over height)
and, for each colour, the PDF operators of its form. A rebuild whose icons are unchanged then
draws them without svglib and reportlab's graphics, whose import alone is 70 ms, a fifth of a
rebuild after one card changed.

What is kept is exactly what drawing the icon wrote, so a kept icon gives the same bytes. Only
an icon drawn with paths and colours alone is kept: one with text, a picture, transparency or
a file of its own beside it (an SVG it names) is drawn afresh every time. Entries are keyed by
the SHA-256 of the SVG's bytes under a salt of pnp's code and the drawing libraries, and kept
in the build record (pnp.outputs.folder), which may come from someone else: an entry is taken
only when every token of it is a number or one of the operators below, so a record cannot put
anything else into a page."""

from __future__ import annotations

import hashlib
import math
import os
import re
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from pnp.inputs import content_digest

# the operators a drawing of paths and colours writes: state, paths, painting, clipping, colours
OPERATORS = frozenset("q Q cm w J j M d m l c v y h re f F f* S s B B* b b* n W W* rg RG g G k K".split())
NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)")
MAX_FORM = 2**20    # characters of one icon's operators kept; a bigger drawing is drawn afresh
MAX_ICONS = 1024    # entries taken from a record


@dataclass
class Art:
    aspect: float
    forms: dict[str, list[str]] = field(default_factory=dict)   # colour -> the form's operators

    def as_json(self) -> dict[str, Any]:
        """As the build record keeps it (and `take` takes it)."""
        return {"aspect": self.aspect, "forms": dict(sorted(self.forms.items()))}


@dataclass
class Kept:
    salt: str
    art: dict[str, Art]                   # by the SVG's digest
    fresh: set[str] = field(default_factory=set)   # digests drawn in this process


_kept: Kept | None = None   # only while a build keeps art (pnp build, watch, serve)


def keep_from(salt: str, recorded: object) -> None:
    """Keep icon art for this build, starting from the last build's (`recorded`, the record's
    `icons`) where that was made by the same code and libraries."""
    global _kept
    salt = hashlib.sha256(f"{salt}\0{libraries()}".encode()).hexdigest()
    _kept = Kept(salt, {})
    if isinstance(recorded, dict) and recorded.get("salt") == salt:
        take(recorded.get("art"))


def stop() -> None:
    global _kept
    _kept = None


def take(entries: object) -> None:
    """Entries (as `recorded` holds them) added to what is kept; a malformed one is left out."""
    if _kept is None or not isinstance(entries, dict):
        return
    for digest, entry in list(entries.items())[:MAX_ICONS]:
        art = _checked(entry)
        if not isinstance(digest, str) or art is None:
            continue
        known = _kept.art.setdefault(digest, art)
        for colour, code in art.forms.items():
            known.forms.setdefault(colour, code)


def recorded(read: set[bytes]) -> dict[str, Any] | None:
    """What the build record keeps: the art of the SVGs among the files this build `read`
    (their digests), so an SVG since changed or gone leaves the record with its old bytes."""
    if _kept is None:
        return None
    art = {digest: entry.as_json() for digest, entry in sorted(_kept.art.items()) if bytes.fromhex(digest) in read}
    return {"salt": _kept.salt, "art": art}


def made_here() -> dict[str, Any]:
    """The art this process drew, as `take` takes it: a --jobs process hands it back."""
    if _kept is None:
        return {}
    return {digest: _kept.art[digest].as_json() for digest in sorted(_kept.fresh) if digest in _kept.art}


def aspect_of(path: Path) -> float | None:
    entry = _entry(path)[1]
    return entry.aspect if entry is not None else None


def form_of(path: Path, colour: str) -> list[str] | None:
    entry = _entry(path)[1]
    return entry.forms.get(colour) if entry is not None else None


def remember_form(path: Path, aspect: float, colour: str, code: list[str]) -> None:
    """The SVG's shape and the operators drawing it in `colour` wrote, when they are paths and
    colours alone (an SVG that names no other file)."""
    digest, entry = _entry(path)
    if _kept is None or digest is None or not _plain(code):
        return
    if entry is None:
        entry = _kept.art[digest] = Art(aspect)
    if colour not in entry.forms:
        entry.forms[colour] = list(code)
        _kept.fresh.add(digest)


def _entry(path: Path) -> tuple[str | None, Art | None]:
    """The SVG's digest and what is kept of it (None, None while no build keeps art)."""
    if _kept is None:
        return None, None
    digest = _digest(path)
    return digest, _kept.art.get(digest) if digest is not None else None


def _digest(path: Path) -> str | None:
    try:
        return content_digest(path).hex()
    except OSError:
        return None


def _checked(entry: object) -> Art | None:
    if not isinstance(entry, dict):
        return None
    aspect, forms = entry.get("aspect"), entry.get("forms")
    if not isinstance(aspect, float) or not math.isfinite(aspect) or aspect <= 0 or not isinstance(forms, dict):
        return None
    art = Art(aspect)
    for colour, code in forms.items():
        if (isinstance(colour, str) and re.fullmatch(r"[0-9a-fA-F]{6}", colour) and isinstance(code, list)
                and all(isinstance(part, str) for part in code) and _plain(code)):
            art.forms[colour] = code
    return art


def _plain(code: list[str]) -> bool:
    """Whether the operators are paths and colours alone: numbers, dash arrays and OPERATORS."""
    if sum(len(part) for part in code) > MAX_FORM:
        return False
    for part in code:
        for token in part.replace("[", " ").replace("]", " ").split():
            if token not in OPERATORS and not NUMBER.fullmatch(token):
                return False
    return True


def libraries() -> str:
    """The installed drawing libraries, by their files' sizes and times (found, not imported:
    importing them is what keeping art saves)."""
    stamps = []
    for package, module in (("reportlab", "graphics/renderPDF.py"), ("svglib", "svglib.py"), ("lxml", "__init__.py")):
        spec = find_spec(package)
        if spec is None or spec.origin is None:
            stamps.append(f"{package}: none")
            continue
        try:
            stat = os.stat(Path(spec.origin).parent / module)
            stamps.append(f"{package}: {stat.st_size} {stat.st_mtime_ns}")
        except OSError:
            stamps.append(f"{package}: none")
    return "; ".join(stamps)
