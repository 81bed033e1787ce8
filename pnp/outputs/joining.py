"""PDFs joined into one. The parts are reportlab's files: each object written whole, one after
another, behind one classic cross-reference table, and each page carrying all it needs. So
each page and the objects it uses are copied byte for byte, only their numbers moved, under
a new catalog and page tree: no PDF library, no second copy of the pages in memory (pdfium
held 50 MB for a 20,000-card deck), in a fraction of the time. A part's fill-in form (its
fields) goes into the new catalog too. A part in any other form (an
incremental update, a cross-reference stream, pages that inherit from their tree) is joined
by pdfium instead, which copies any PDF's pages, and one small incremental update adds what
pdfium cannot set. Either way the file's /ID is made from its content, so the same parts
always give the same bytes."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

# A reference ("12 0 R"), or a literal string, which is kept as it is (reportlab escapes the
# parentheses inside one, so none nests)
REFERENCE = re.compile(rb"\((?:\\.|[^\\()])*\)|(?<![\d.])(\d+)\s+0\s+R\b", re.S)
STREAM = re.compile(rb">>\s*stream\r?\n")
PARENT = re.compile(rb"/Parent\s+\d+\s+0\s+R")
FIELDS = re.compile(rb"/Fields\s*\[([^\]]*)\]")
INHERITED = re.compile(rb"/(?:Resources|MediaBox|CropBox|Rotate)\b")   # keys a page may take from its tree


@dataclass
class Source:
    """One part's objects (each as written between `N 0 obj` and `endobj`) and its pages in
    order."""

    objects: dict[int, bytes]
    pages: list[int]
    version: bytes
    form: int | None = None   # its fill-in form's dictionary (/AcroForm), if it has one


Blanks = Collection[int]   # after which of a source's pages (counted from 0) a blank page goes


def joined(sources: list[bytes], blanks: Sequence[Blanks], paper: tuple[float, float], title: str,
           catalog_additions: bytes) -> tuple[bytes, int]:
    """The sources' pages in order, a blank page after each page `blanks` names of its
    source; (the file, its page count)."""
    read = [read_source(data) for data in sources]
    if any(source is None for source in read):
        return joined_by_pdfium(sources, blanks, paper, title, catalog_additions)
    return written([source for source in read if source is not None], blanks, paper, title,
                   catalog_additions)


def read_source(pdf: bytes) -> Source | None:
    """A PDF's objects and pages, when it is in the one form this module copies; else None."""
    version = re.match(rb"%PDF-(\d\.\d)", pdf)
    end = re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", pdf[-64:])
    if version is None or end is None:
        return None
    table_at = int(end.group(1))
    trailer_at = pdf.find(b"trailer", table_at)
    if not pdf.startswith(b"xref", table_at) or trailer_at < 0:
        return None
    trailer = pdf[trailer_at:]
    if b"/Prev" in trailer or b"/Encrypt" in trailer:
        return None
    numbers = pdf[table_at + 4:trailer_at].split()
    if len(numbers) < 2 or numbers[0] != b"0" or not numbers[1].isdigit() \
            or len(numbers) != 2 + 3 * int(numbers[1]) or not all(n.isdigit() for n in numbers[2::3]):
        return None   # more than one subsection: not reportlab's single table
    entries = [numbers[at:at + 3] for at in range(2, len(numbers), 3)]
    offsets = {number: int(offset) for number, (offset, generation, used) in enumerate(entries) if used == b"n"}
    if any(generation != b"00000" for _, generation, used in entries if used == b"n"):
        return None
    objects = {}
    ordered = sorted(offsets.items(), key=lambda item: item[1])
    for (number, at), (_, following) in zip(ordered, ordered[1:] + [(0, table_at)]):
        text = pdf[at:following]
        head = b"%d 0 obj" % number
        close = text.rfind(b"endobj")
        if not text.startswith(head) or close < 0:
            return None
        objects[number] = text[len(head):close].strip(b"\r\n")
    root = re.search(rb"/Root\s+(\d+)\s+0\s+R", trailer)
    catalog = objects.get(int(root.group(1)), b"") if root else b""
    tree = re.search(rb"/Pages\s+(\d+)\s+0\s+R", catalog)
    pages = tree and pages_under(objects, int(tree.group(1)), set())
    form = re.search(rb"/AcroForm\s+(\d+)\s+0\s+R", catalog)
    if b"/AcroForm" in catalog and (form is None or int(form.group(1)) not in objects):
        return None   # a form written another way: pdfium's join
    return Source(objects, pages, version.group(1), int(form.group(1)) if form else None) if pages else None


def pages_under(objects: dict[int, bytes], node: int, seen: set[int]) -> list[int] | None:
    """The pages of a page tree node, in order; None when a page would inherit from it."""
    body = objects.get(node)
    if body is None or node in seen:
        return None
    seen.add(node)
    if not re.search(rb"/Type\s*/Pages\b", body):
        return [node] if re.search(rb"/Type\s*/Page\b", body) and PARENT.search(body) else None
    kids = re.search(rb"/Kids\s*\[([^\]]*)\]", body)
    if kids is None or INHERITED.search(body):
        return None
    pages: list[int] = []
    for kid in re.findall(rb"(\d+)\s+0\s+R", kids.group(1)):
        below = pages_under(objects, int(kid), seen)
        if below is None:
            return None
        pages += below
    return pages


def parts_of(body: bytes) -> tuple[bytes, bytes]:
    """An object's dictionary (or whole value) and its stream, which is copied untouched."""
    stream = STREAM.search(body)
    return (body, b"") if stream is None else (body[:stream.start() + 2], body[stream.start() + 2:])


def written(sources: list[Source], blanks: Sequence[Blanks], paper: tuple[float, float], title: str,
            catalog_additions: bytes) -> tuple[bytes, int]:
    """The joined file: the catalog (1) and the page tree (2), then each source's pages with
    what they use, a blank page where asked, and the document's Info last."""
    bodies: list[bytes] = [b"", b""]   # the catalog and the page tree, written once all is known
    kids: list[int] = []
    width, height = (number_text(side) for side in paper)
    form = Form()
    streams: dict[bytes, int] = {}
    for source, after in zip(sources, blanks):
        copier = Copier(source, bodies, streams)
        for index, page in enumerate(source.pages):
            kids.append(copier.number_of(page))
            if index in after:
                bodies.append(b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 %s %s]/Resources<<>>>>" % (width, height))
                kids.append(len(bodies))
        if source.form is not None:
            form.take(source, copier)
    bodies[0] = b"<</Type/Catalog/Pages 2 0 R" + form.entry() + catalog_additions + b">>"
    bodies[1] = b"<</Type/Pages/Count %d/Kids[%s]>>" % (len(kids), b" ".join(b"%d 0 R" % kid for kid in kids))
    bodies.append(b"<</Title " + pdf_string(title) + b"/Producer (pnp)>>")
    version = max(source.version for source in sources)
    out = io.BytesIO()
    out.write(b"%%PDF-%s\n%%\xe2\xe3\xcf\xd3\n" % version)
    offsets = []
    for number, body in enumerate(bodies, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    table = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1))
    out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
    digest = hashlib.md5(out.getvalue()).hexdigest().upper().encode()
    out.write(b"trailer\n<</Size %d/Root 1 0 R/Info %d 0 R/ID[<%s><%s>]>>\nstartxref\n%d\n%%%%EOF\n"
              % (len(bodies) + 1, len(bodies), digest, digest, table))
    return out.getvalue(), len(kids)


class Form:
    """The parts' fill-in forms as one (the blank rosters' name and stat boxes): every part's
    fields, under the first form's appearance settings. Without it the fields' boxes were on
    the pages but no reader offered them to fill in."""

    def __init__(self) -> None:
        self.fields: list[int] = []
        self.settings: bytes | None = None   # the first form's entries other than its fields

    def take(self, source: Source, copier: Copier) -> None:
        assert source.form is not None
        head, _ = parts_of(source.objects[source.form])
        listed = FIELDS.search(head)
        if listed is None:
            return
        self.fields += [copier.number_of(int(old)) for old in re.findall(rb"(\d+)\s+0\s+R", listed.group(1))]
        if self.settings is None:
            inner = head.strip()
            inner = inner[2:-2] if inner.startswith(b"<<") and inner.endswith(b">>") else inner
            self.settings = copier.renumbered(FIELDS.sub(b"", inner)).strip()

    def entry(self) -> bytes:
        if not self.fields:
            return b""
        return (b"/AcroForm<<" + (self.settings or b"") + b"/Fields[" + b" ".join(b"%d 0 R" % n for n in self.fields)
                + b"]>>")


class Copier:
    """One source's pages copied into `bodies`, each with every object it uses that is not
    copied yet, under new numbers: objects pages share (fonts, forms) are copied once. A
    stream the same, byte for byte, as one already copied (a look each part of a long deck
    draws, a full sheet's page of backs) is not written again: its number is left holding
    `null`, and what uses it names the first copy."""

    def __init__(self, source: Source, bodies: list[bytes], streams: dict[bytes, int]):
        self.source = source
        self.bodies = bodies
        self.streams = streams   # each stream copied so far, shared by the parts' copiers
        self.pages = set(source.pages)
        self.numbers: dict[int, int] = {}   # the source's numbers to the new ones, in order of use
        self.open: dict[int, bool] = {}     # objects being copied: True once something they use uses them

    def number_of(self, old: int) -> int:
        """An object's new number, copying it (and what it uses) the first time."""
        new = self.numbers.get(old)
        if new is not None:
            if old in self.open:
                self.open[old] = True   # a loop: this one's number is in use before it is done
            return new
        if old not in self.source.objects:
            raise ValueError(f"object {old} is used but not in the file")   # a bug, not user input
        self.bodies.append(b"")
        new = self.numbers[old] = len(self.bodies)
        self.open[old] = False
        head, stream = parts_of(self.source.objects[old])
        parent = PARENT.search(head) if old in self.pages else None
        if parent is not None:   # a page's tree is the new one; the old is not followed
            head = self.renumbered(head[:parent.start()]) + b"/Parent 2 0 R" + self.renumbered(head[parent.end():])
        else:
            head = self.renumbered(head)
        looped = self.open.pop(old)
        body = head + stream
        first = self.streams.setdefault(body, new) if stream and not looped else new
        if first != new:
            self.numbers[old] = first
            self.bodies[new - 1] = b"null"
            return first
        self.bodies[new - 1] = body
        return new

    def renumbered(self, head: bytes) -> bytes:
        if b" R" not in head:   # no reference (most of a font's or an image's dictionary)
            return head
        return REFERENCE.sub(self._replaced, head)

    def _replaced(self, match: re.Match[bytes]) -> bytes:
        return match.group(0) if match.group(1) is None else b"%d 0 R" % self.number_of(int(match.group(1)))


def number_text(value: float) -> bytes:
    return (b"%.4f" % value).rstrip(b"0").rstrip(b".")


def pdf_string(text: str) -> bytes:
    """A text string: PDFDocEncoding's Latin-1 where it will do, else UTF-16 with its mark
    (a Hebrew or Arabic game's title)."""
    try:
        return b"(" + escape(text).encode("latin-1") + b")"
    except UnicodeEncodeError:
        return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


def joined_by_pdfium(sources: list[bytes], blanks: Sequence[Blanks], paper: tuple[float, float], title: str,
                     catalog_additions: bytes) -> tuple[bytes, int]:
    """As `joined`, for parts in any form: pdfium copies the pages."""
    import pypdfium2
    document = pypdfium2.PdfDocument.new()
    for data, after in zip(sources, blanks):
        source = pypdfium2.PdfDocument(data)
        for index in range(len(source)):
            document.import_pages(source, [index])
            if index in after:
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
