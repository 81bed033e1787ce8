"""A reportlab canvas set up for reproducible output, and the finished file it becomes."""

from __future__ import annotations

import io
from dataclasses import dataclass

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
