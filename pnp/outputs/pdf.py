"""A reportlab canvas set up for reproducible output, and the finished file it becomes."""

from __future__ import annotations

import io
import re
import time
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.lib import utils
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pnp.outputs.quick_objects import QuickPage, QuickStream

STARTING_FONT = "pnp-starting-font"
INVARIANT_TIME = 946684800.0   # reportlab's own date for an invariant file: 2000-01-01


class FixedTimeStamp(utils.TimeStamp):   # type: ignore[misc]  # reportlab ships without types
    """reportlab's date for an invariant file, whatever SOURCE_DATE_EPOCH says: reportlab
    dates a file by it when it is set, so the same input gave other bytes in another
    environment (and a later build counted them up to date). pnp's files carry one date."""

    t: float
    tzname: str

    def __init__(self, invariant: Any = None) -> None:
        super().__init__(invariant)
        if self.tzname == "UTC" and self.t != INVARIANT_TIME:   # dated by the environment
            self.t, self.lt = INVARIANT_TIME, time.gmtime(INVARIANT_TIME)
            self.YMDhms = tuple(self.lt)[:6]


pdfdoc.TimeStamp = FixedTimeStamp


@dataclass
class OutputFile:
    """A finished file, in memory until the build writes it out."""

    name: str          # relative to the game's output folder
    data: bytes
    pages: int = 0     # 0 for files that are not PDFs
    component: str | None = None   # the component it was made for; None: the whole game's
    note: str = ""     # what the print-all cover adds about it (which edges got less bleed)
    role: str = ""     # what it is for: "home" (the component's home PDF, what print-all joins),
                       # "whole" (a board on one page), "shop" (a print shop's files); "" otherwise


def starting_font() -> str:
    """A TrueType font to start every canvas with. reportlab otherwise starts with Helvetica and
    names it, unembedded, in every file; a TrueType font is written only if a glyph of it is
    drawn, and nothing is drawn in this one (reportlab's own Vera)."""
    if STARTING_FONT not in pdfmetrics.getRegisteredFontNames():
        import reportlab   # its own copy by full path: a bare name is looked for in the current folder first
        vera = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
        pdfmetrics.registerFont(TTFont(STARTING_FONT, str(vera)))
    return STARTING_FONT


# Set while a `--draft` build renders: every canvas then marks each page DRAFT in its margin.
DRAFT: ContextVar[bool] = ContextVar("pnp_draft", default=False)


def draft_kind(kind: type[Canvas]) -> type[Canvas]:
    """`kind`, or while DRAFT is set a subclass that writes DRAFT at the top left of each page."""
    if not DRAFT.get():
        return kind

    class DraftCanvas(kind):   # type: ignore[misc]  # reportlab ships without types
        def showPage(self) -> None:  # noqa: N802 - reportlab's name
            self.saveState()
            self.setFillColorRGB(0.8, 0.1, 0.1)
            self.setFont(starting_font(), 9)
            self.drawString(18, self._pagesize[1] - 14, "DRAFT: composition rules fail; not for print")
            self.restoreState()
            super().showPage()

    return DraftCanvas


_compact: dict[type[Canvas], type[Canvas]] = {}


def compact_kind(kind: type[Canvas]) -> type[Canvas]:
    """`kind`, keeping each finished page's content compressed instead of as text until the
    file is written (a 20,000-card deck: 4,446 pages, its peak memory 127 MB -> 118 MB). While
    `pnp validate` draws (CHECKING), no page is kept and nothing is written: a rule sheet's
    platypus saves its canvas itself."""
    if kind not in _compact:
        class CompactCanvas(kind):   # type: ignore[misc]  # reportlab ships without types
            def showPage(self) -> None:  # noqa: N802 - reportlab's name
                super().showPage()
                page = self._doc.Pages.pages[-1]
                if CHECKING.get():   # pnp validate: the page is drawn to be checked, never written
                    page.stream = None
                else:
                    compress_now(page)

            def endForm(self, **extra_attributes: Any) -> None:  # noqa: N802 - reportlab's name
                name = self._formData[0]
                super().endForm(**extra_attributes)
                if not CHECKING.get():
                    compress_form_now(self._doc.idToObject[pdfdoc.xObjectName(name)])

            def save(self) -> None:
                if not CHECKING.get():
                    super().save()
        _compact[kind] = CompactCanvas
    return _compact[kind]


def compress_now(page: Any) -> None:
    """A page's content stream encoded now, exactly as reportlab encodes it when it writes the
    file (PDFPage.check_format, then PDFStream.format): the same filters in the same order,
    named in the same order, so the bytes do not change. The page and its stream are then
    written in one step when the file is (pnp.outputs.quick_objects)."""
    if page.Contents or not page.stream or not page.compression:
        return   # reportlab's own way: nothing to gain
    filters = [pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress] if rl_config.useA85 else [pdfdoc.PDFZCompress]
    stream = QuickStream(encoded(page.stream, filters), [f.pdfname for f in filters])
    stream.__Comment__ = "page stream"
    page.Contents, page.stream = stream, None
    page.__class__ = QuickPage   # reportlab made the page; only how it is written changes


def compress_form_now(form: Any) -> None:
    """A form's stream encoded now, as reportlab encodes it when it writes the file
    (PDFFormXObject.format, then PDFStream.format): a stream whose dictionary names its
    filters is written as it is, so the bytes do not change and the form holds the
    compressed stream, not its text, until then."""
    if form.Contents or not form.stream or not form.compression:
        return
    filters = [pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress] if rl_config.useA85 else [pdfdoc.PDFZCompress]
    stream = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"Filter": pdfdoc.PDFArray([pdfdoc.PDFName(f.pdfname)
                                                                               for f in filters])}),
                              encoded(form.stream, filters))
    stream.__Comment__ = "xobject form stream"
    form.Contents, form.stream = stream, None


def encoded(content: bytes, filters: list[Any]) -> bytes:
    """`content` through `filters` (the last first, as reportlab applies them) and as bytes."""
    for each in reversed(filters):
        content = each.encode(content)
    return pdf_bytes(content) if isinstance(content, str) else content


# The characters below 128 that PDFDocEncoding lacks (reportlab's codec refuses them)
_NOT_PDFDOC = re.compile("[\x18-\x1f]")


def pdf_bytes(text: str) -> bytes:
    """`text` as reportlab's `pdfdocEnc` writes it. A stream's ASCII (ASCII85 is all ASCII)
    is the same in PDFDocEncoding, and encoded as ASCII it costs a thousandth of reportlab's
    character-by-character codec (about 1% of a big build)."""
    if text.isascii() and not _NOT_PDFDOC.search(text):
        return text.encode("ascii")
    written: bytes = pdfdoc.pdfdocEnc(text)
    return written


def new_canvas(buffer: io.BytesIO, pagesize: tuple[float, float], title: str, kind: type[Canvas] = Canvas) -> Canvas:
    # invariant=1: no creation date and a fixed document id, so the same input gives the same bytes
    canvas = draft_kind(compact_kind(kind))(buffer, pagesize=pagesize, invariant=1, pageCompression=1,
                    initialFontName=starting_font())
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setCreator("pnp")
    canvas.setProducer("pnp (reportlab)")
    # Cards must print at 100 %: a "fit to page" print shrinks them and shifts the backs.
    canvas.setViewerPreference("PrintScaling", "None")
    return canvas


# Set while `pnp validate` draws: every page is drawn as a build draws it, but no file is made
# of the pages (reportlab's writing and compressing of the objects, a sixth of the work).
CHECKING: ContextVar[bool] = ContextVar("pnp_checking", default=False)


def finish(canvas: Canvas, buffer: io.BytesIO, name: str, role: str = "") -> OutputFile:
    pages = canvas.getPageNumber() - 1
    if CHECKING.get():
        return OutputFile(name, b"", pages, role=role)
    canvas.save()
    return OutputFile(name, buffer.getvalue(), pages, role=role)
