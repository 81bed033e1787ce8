"""PDF pages to PNG images with pdfium: PNGs are pictures of the PDF pnp drew, never a
second drawing. Large jobs are split over the machine's cores."""

from __future__ import annotations

import io
import os

PARALLEL_FROM = 24   # pages; below this, starting worker processes costs more than it saves


def _render(pdf_bytes: bytes, indexes: list[int], dpi: float) -> list[bytes]:
    import pypdfium2
    from PIL.PngImagePlugin import PngInfo
    info = PngInfo()
    info.add_text("Software", "pnp")
    document = pypdfium2.PdfDocument(pdf_bytes)
    images = []
    try:
        for index in indexes:
            page = document[index]
            # pdfium rounds the bitmap size up; float noise in 825.0000001 must not add a pixel
            bitmap = page.render(scale=dpi / 72 * (1 - 1e-9), may_draw_forms=True)
            image = bitmap.to_pil().convert("RGB")
            out = io.BytesIO()
            image.save(out, format="PNG", pnginfo=info, dpi=(dpi, dpi), compress_level=6)
            images.append(out.getvalue())
            page.close()
    finally:
        document.close()
    return images


def page_count(pdf_bytes: bytes) -> int:
    import pypdfium2
    document = pypdfium2.PdfDocument(pdf_bytes)
    try:
        return len(document)
    finally:
        document.close()


def rasterise(pdf_bytes: bytes, dpi: float, workers: int | None = None) -> list[bytes]:
    """Every page of the PDF as PNG bytes, in page order."""
    count = page_count(pdf_bytes)
    workers = workers or min(os.cpu_count() or 1, 8)
    if count < PARALLEL_FROM or workers < 2:
        return _render(pdf_bytes, list(range(count)), dpi)
    from concurrent.futures import ProcessPoolExecutor
    chunks = [list(range(start, count, workers)) for start in range(workers)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(_render, [pdf_bytes] * workers, chunks, [dpi] * workers))
    images: list[bytes] = [b""] * count
    for chunk, rendered in zip(chunks, parts):
        for index, data in zip(chunk, rendered):
            images[index] = data
    return images


def rounded(png: bytes, radius_px: float) -> bytes:
    """The picture with its corners outside a rounded rectangle of `radius_px` made
    transparent: how a deck with rounded corners looks once cut."""
    from PIL import Image, ImageDraw
    from PIL.PngImagePlugin import PngInfo
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    scale = 4   # drawn large and shrunk: smooth corners
    mask = Image.new("L", (image.width * scale, image.height * scale), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, mask.width - 1, mask.height - 1), radius=radius_px * scale, fill=255)
    image.putalpha(mask.resize(image.size, Image.Resampling.LANCZOS))
    info = PngInfo()
    info.add_text("Software", "pnp")
    out = io.BytesIO()
    image.save(out, format="PNG", pnginfo=info, compress_level=6)
    return out.getvalue()
