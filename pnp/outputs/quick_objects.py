"""A card sheet's page dictionary and content stream written in one step: the bytes reportlab
writes for them (its sorted keys, its line break after every sixth entry, its numbers),
without the general machinery it formats every object with, which cost a 5,600-card deck
0.07 s of the 0.13 s its two parts spent being saved. A page with anything else on it (links,
boxes, transparency, shading) is written by reportlab, as before."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc

if TYPE_CHECKING:
    from reportlab.pdfbase.pdfdoc import PDFDocument

# A page's keys besides the ones written here: any of them set, and reportlab writes the page
OTHER_KEYS = ("CropBox", "Thumb", "B", "Dur", "Hid", "AA", "PieceInfo", "LastModified",
              "SeparationInfo", "ArtBox", "TrimBox", "BleedBox", "ID", "PZ", "Resources", "MediaBox")
ALL_PROCS = b"[ /PDF /Text /ImageB /ImageC /ImageI ]"
BASIC_PROCS = b"[ /PDF /Text ]"


@cache
def name(key: str) -> bytes:
    written: str = pdfdoc.PDFName(key)   # escaped: printable ASCII only
    return written.encode("ascii")


def dictionary(entries: list[bytes]) -> bytes:
    """A dictionary of formatted `/Key value` entries, in the order given, laid out as
    reportlab lays one out: a line break after every sixth entry."""
    for at in reversed(range(6, len(entries), 6)):
        entries.insert(at, b"\n ")
    return b"<<\n" + b" ".join(entries) + b"\n>>"


def reference(document: PDFDocument, internal_name: str) -> bytes:
    return b"%d %d R" % document.idToObjectNumberAndVersion[internal_name]


def number(value: float) -> bytes:
    written: str = fp_str(value)
    return written.encode("ascii")


class QuickStream(pdfdoc.PDFStream):   # type: ignore[misc]  # reportlab ships without types
    """A content stream already encoded (pnp.outputs.pdf.compress_now), its filters named."""

    def __init__(self, content: bytes, filters: list[str]):
        super().__init__(pdfdoc.PDFDictionary({"Filter": pdfdoc.PDFArray([pdfdoc.PDFName(f) for f in filters])}),
                         content)
        self.filter_names = filters

    def format(self, document: PDFDocument) -> bytes:
        content: bytes | str = document.encrypt.encode(self.content)
        filters = b"[ " + b" ".join(name(f) for f in self.filter_names) + b" ]"
        head = dictionary([b"/Filter " + filters, b"/Length " + number(len(content))])
        encoded: bytes = pdfdoc.pdfdocEnc(content)
        return head + b"\nstream\n" + encoded + b"endstream\n"


class QuickPage(pdfdoc.PDFPage):   # type: ignore[misc]
    """A page whose dictionary is written in one step when it is plain (see `plain`)."""

    def plain(self) -> bool:
        """Nothing on the page but its content stream, its fonts, its forms and images."""
        return (type(self.Contents) is QuickStream and not self.Override_default_compilation
                and not rl_config.pdfMultiLine and not self.ExtGState and not self._colorsUsed
                and not self._shadingUsed and isinstance(self.Trans, pdfdoc.PDFDictionary) and not self.Trans.dict
                and self.Parent is None and self.Rotate in (0, 90, 180, 270) and not self.Annots
                and all(getattr(self, key) is None for key in OTHER_KEYS)
                and all(type(side) in (int, float) for side in (self.pagewidth, self.pageheight)))

    def format(self, document: PDFDocument) -> Any:
        if not self.plain():
            return super().format(document)
        # the references made in reportlab's order (check_format's Parent, then Contents), so the
        # objects are numbered as it numbers them
        parent = document.Reference(document.Pages)
        contents = document.Reference(self.Contents)
        sides = (self.pageheight, self.pagewidth) if self.Rotate in (90, 270) else (self.pagewidth, self.pageheight)
        resources = [b"/Font " + reference(document, "BasicFonts"),
                     b"/ProcSet " + (ALL_PROCS if self.hasImages else BASIC_PROCS)]
        if self.XObjects:
            forms = self.XObjects.dict
            resources.append(b"/XObject " + dictionary([name(form) + b" " + forms[form].format(document)
                                                        for form in sorted(forms)]))
        return dictionary([b"/Contents " + contents.format(document),
                           b"/MediaBox [ 0 0 " + number(sides[0]) + b" " + number(sides[1]) + b" ]",
                           b"/Parent " + parent.format(document),
                           b"/Resources " + dictionary(resources),
                           b"/Rotate " + number(self.Rotate),
                           b"/Trans <<\n\n>>",
                           b"/Type /Page"])
