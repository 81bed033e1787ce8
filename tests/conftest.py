"""Shared helpers: a copy of the repository's games to edit, the CLI, and PDF inspection."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from pnp.cli import cli

REPO = Path(__file__).resolve().parent.parent
MM = 72 / 25.4


@pytest.fixture
def root(tmp_path) -> Path:
    """A writable copy of the repository's games, layouts and fonts."""
    target = tmp_path / "root"
    for folder in ("card_data", "layouts", "fonts"):
        shutil.copytree(REPO / folder, target / folder)
    return target


@pytest.fixture
def mini(tmp_path) -> Path:
    """A writable copy of the small fixture game `mini`, with the repository's fonts."""
    target = tmp_path / "mini-root"
    shutil.copytree(REPO / "tests/fixtures/mini", target)
    shutil.copytree(REPO / "fonts", target / "fonts")
    return target


def run(*args: str, root: Path | None = None):
    """Run the pnp CLI in-process; returns click's Result (exit_code, output, stderr)."""
    argv = list(args)
    if root is not None:
        argv += ["--root", str(root)]
    return CliRunner().invoke(cli, argv, catch_exceptions=False)


def build(root: Path, game: str, out: Path, *extra: str):
    result = run("build", "--game", game, "--out", str(out), *extra, root=root)
    assert result.exit_code == 0, result.output + (result.stderr or "")
    return result


def pdf(path: Path) -> pypdf.PdfReader:
    return pypdf.PdfReader(str(path))


def embedded(font) -> bool:
    """Whether a PDF font dictionary carries its font program (TrueType, Type 1 or CFF)."""
    descriptor = font.get("/FontDescriptor")
    if font.get("/Subtype") == "/Type0":
        descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
    descriptor = descriptor.get_object() if descriptor is not None else {}
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


# Each piece is drawn after moving the origin to its corner and turning it by quarters
# (upside down: to its opposite corner) and clipping to its trim plus bleed.
_PLACED = re.compile(rb"(-?[01]) (-?[01]) (-?[01]) (-?[01]) (-?[\d.]+) (-?[\d.]+) cm\nn (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re W\* n")


def placements(page, turned: bool = False) -> list[tuple]:
    """(x, y, width, height) of each piece's trim box on a page as it lies there, in drawing
    order; with `turned`, (x, y, width, height, upside_down)."""
    data = page.get_contents().get_data()
    found = []
    for a, b, c, d, x, y, cx, _cy, w, h in _PLACED.findall(data):
        a, b, c, d, x, y = (float(v) for v in (a, b, c, d, x, y))
        if abs(a * d - b * c) != 1:
            continue
        bleed = -float(cx)
        width, height = float(w) - 2 * bleed, float(h) - 2 * bleed
        corners = [(a * u + c * v + x, b * u + d * v + y) for u, v in ((0, 0), (width, height))]
        left, bottom = min(p[0] for p in corners), min(p[1] for p in corners)
        right, top = max(p[0] for p in corners), max(p[1] for p in corners)
        upside_down = a == -1 and d == -1
        box = (left, bottom, right - left, top - bottom)
        found.append(box + (upside_down,) if turned else box)
    return found


def render_png(path: Path, page_index: int, scale: float = 1.0):
    """The page as a PIL image, rasterised by pdfium (72 dpi at scale 1)."""
    import pypdfium2
    document = pypdfium2.PdfDocument(str(path))
    image = document[page_index].render(scale=scale).to_pil()
    document.close()
    return image


def icons_on(page) -> list[str]:
    """The inline icons a page draws, itself or through the forms it stamps: one form per icon
    (an SVG once per colour), named pnpicon…; each is checked to be vector art (no image)."""
    found, seen = [], set()
    stack = [page["/Resources"]]
    while stack:
        resources = stack.pop().get_object()
        for name, ref in (resources.get("/XObject") or {}).items():
            key = getattr(ref, "idnum", id(ref))
            if key in seen:
                continue
            seen.add(key)
            xobject = ref.get_object()
            if str(name).startswith("/FormXob.pnpicon"):
                found.append(str(name))
                assert not images_on_resources(xobject.get("/Resources")), f"{name} holds a picture, not vectors"
            elif "/Resources" in xobject:
                stack.append(xobject["/Resources"])
    return found


def images_on_resources(resources) -> list:
    xobjects = ((resources.get_object() if resources is not None else {}) or {}).get("/XObject") or {}
    return [x for x in xobjects.values() if x.get_object().get("/Subtype") == "/Image"]


def images_on(page) -> list[tuple[int, int]]:
    """(width, height) in pixels of each distinct picture a page draws, itself or through the
    forms it stamps (icons, raster art)."""
    found, seen = [], set()
    stack = [page["/Resources"]]
    while stack:
        resources = stack.pop().get_object()
        for ref in (resources.get("/XObject") or {}).values():
            key = getattr(ref, "idnum", id(ref))
            if key in seen:
                continue
            seen.add(key)
            xobject = ref.get_object()
            if xobject.get("/Subtype") == "/Image":
                found.append((int(xobject["/Width"]), int(xobject["/Height"])))
            elif "/Resources" in xobject:
                stack.append(xobject["/Resources"])
    return found
