"""A reportlab canvas set up for reproducible output, and atomic file writing."""

from __future__ import annotations

import io
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas


@dataclass
class OutputFile:
    """A finished file, in memory until the build writes it out."""

    name: str          # relative to the game's output folder
    data: bytes
    pages: int = 0     # 0 for files that are not PDFs


def new_canvas(buffer: io.BytesIO, pagesize, title: str) -> Canvas:
    # invariant=1: no creation date and a fixed document id, so the same input gives the same bytes
    canvas = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setCreator("pnp")
    canvas.setProducer("pnp (reportlab)")
    return canvas


def finish(canvas: Canvas, buffer: io.BytesIO, name: str) -> OutputFile:
    pages = canvas.getPageNumber() - 1
    canvas.save()
    return OutputFile(name, buffer.getvalue(), pages)


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename it over: readers and later
    failures never see half a file, and a failed write leaves the old file as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise
