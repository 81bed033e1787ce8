"""PDFs joined into one, fast: pdfium copies the pages (in C, a tenth of the time pypdf took,
which was most of a small deck's build), then one small incremental update adds what pdfium
cannot set, the catalog's viewer preferences and the document's title, and the file's /ID is
made from its content, so the same parts always give the same bytes."""

from __future__ import annotations

import hashlib
import io
import re


def joined(sources: list[bytes], blank_after: list[bool], paper: tuple[float, float], title: str,
           catalog_additions: bytes) -> tuple[bytes, int]:
    """The sources' pages in order, a blank page after each source flagged in `blank_after`;
    (the file, its page count)."""
    import pypdfium2
    document = pypdfium2.PdfDocument.new()
    for data, blank in zip(sources, blank_after):
        document.import_pages(pypdfium2.PdfDocument(data))
        if blank:
            document.new_page(*paper)
    pages = len(document)
    buffer = io.BytesIO()
    document.save(buffer)
    return finished(buffer.getvalue(), title, catalog_additions), pages


def found(pattern: bytes, data: bytes, flags: int = 0) -> bytes:
    """The first group of `pattern` in a PDF pdfium wrote, which always has it."""
    match = re.search(pattern, data, flags)
    if match is None:
        raise ValueError(f"pdfium wrote a PDF without {pattern!r}")   # a bug, not user input
    return match.group(1)


def finished(pdf: bytes, title: str, catalog_additions: bytes) -> bytes:
    """`pdf` with its catalog extended and an Info dictionary, written as an incremental
    update (the original bytes stay as they are), and a content-made /ID."""
    trailer = pdf[pdf.rindex(b"trailer"):]
    root = int(found(rb"/Root (\d+) 0 R", trailer))
    size = int(found(rb"/Size (\d+)", trailer))
    previous = int(found(rb"startxref\s+(\d+)", trailer))
    body = found(rb"\n%d 0 obj\s*(.*?)\s*endobj" % root, pdf, re.S)
    catalog = body[:body.rindex(b">>")] + catalog_additions + b">>"
    info = b"<</Title (" + escape(title).encode("latin-1", "replace") + b")/Producer (pnp)>>"
    # pdfium dates its own Info (superseded below): same length, fixed, so bytes never change
    pdf = re.sub(rb"/CreationDate\(D:\d{14}[^)]*\)", lambda m: b"/CreationDate(D:" + b"0" * (len(m.group(0)) - 17) + b")", pdf)
    digest = hashlib.md5(pdf.split(b"/ID")[0]).hexdigest().upper().encode()
    pdf = re.sub(rb"/ID\s*\[\s*<[0-9A-Fa-f]+>\s*<[0-9A-Fa-f]+>\s*\]", b"/ID[<" + digest + b"><" + digest + b">]", pdf)
    update = io.BytesIO()
    update.write(b"\n")
    offsets = {}
    for number, content in ((root, catalog), (size, info)):
        offsets[number] = len(pdf) + update.tell()
        update.write(b"%d 0 obj\n%s\nendobj\n" % (number, content))
    xref = len(pdf) + update.tell()
    update.write(b"xref\n0 1\n0000000000 65535 f \n")
    for number in (root, size):
        update.write(b"%d 1\n%010d 00000 n \n" % (number, offsets[number]))
    update.write(b"trailer\n<</Size %d/Root %d 0 R/Info %d 0 R/Prev %d/ID[<%s><%s>]>>\nstartxref\n%d\n%%%%EOF\n"
                 % (size + 1, root, size, previous, digest, digest, xref))
    return pdf + update.getvalue()


def escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
