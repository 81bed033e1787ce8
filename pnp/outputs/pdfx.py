"""PDF/X-1a for print shops that ask for it (DriveThruCards): every colour and image in CMYK
(or gray), no transparency, fonts embedded, an output intent and the PDF/X keys.

RGB becomes CMYK by the plain formula, with no ICC profile (none with a free licence ships
with pnp): K = 1 - max(R, G, B), C = (1 - R - K) / (1 - K), and likewise M from G and Y from B.
The output intent names the registered condition CGATS TR 001 (SWOP), which a shop's RIP knows
without an embedded profile. Opacity is dropped: PDF/X-1a has no transparency."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from PIL import Image
from reportlab.lib.colors import CMYKColor, toColor
from reportlab.pdfgen.canvas import Canvas

from pnp.outputs.pdf import OutputFile

if TYPE_CHECKING:   # pypdf is loaded only when a PDF/X file is made
    from pypdf import PdfWriter
    from pypdf.generic import StreamObject

# ISO 15930-4: a PDF/X-1a:2003 file names the standard's version "PDF/X-1:2003" and the
# conformance level within it "PDF/X-1a:2003" (the keys of the 2001 edition were both "PDF/X-1a:2001")
PDFX_VERSION = "PDF/X-1:2003"
PDFX_CONFORMANCE = "PDF/X-1a:2003"
CONDITION = "CGATS TR 001"


def rgb_to_cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    k = 1 - max(r, g, b)
    if k >= 1:
        return (0.0, 0.0, 0.0, 1.0)
    return ((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k)


def cmyk_colour(colour: object) -> CMYKColor:
    """reportlab calls this for every colour set on the canvas or in text (enforceColorSpace)."""
    known = toColor(colour)
    if isinstance(known, CMYKColor):
        return CMYKColor(known.cyan, known.magenta, known.yellow, known.black)
    return CMYKColor(*rgb_to_cmyk(known.red, known.green, known.blue))


def cmyk_image(image: Image.Image) -> Image.Image:
    """An image flattened onto white (no soft mask) and in CMYK by the same formula."""
    if image.mode in ("RGBA", "LA", "P", "PA") or "transparency" in image.info:
        image = image.convert("RGBA")
        flat = Image.new("RGB", image.size, "white")
        flat.paste(image, mask=image.getchannel("A"))
        image = flat
    rgb = image.convert("RGB")
    data = rgb.tobytes()
    cmyk = bytes(round(v * 255) for r, g, b in zip(data[0::3], data[1::3], data[2::3])
                 for v in rgb_to_cmyk(r / 255, g / 255, b / 255))
    return Image.frombytes("CMYK", rgb.size, cmyk)


class CmykCanvas(Canvas):   # type: ignore[misc]  # reportlab ships without types
    """A canvas that writes only CMYK or gray colours and images, and no transparency."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, enforceColorSpace=cmyk_colour, **kwargs)

    def _setFillAlpha(self, alpha: float) -> None:     # PDF/X-1a forbids transparency
        pass

    def _setStrokeAlpha(self, alpha: float) -> None:
        pass

    def drawImage(self, image: Any, x: float, y: float, width: float | None = None,  # noqa: N802
                  height: float | None = None, mask: object = None, **kwargs: Any) -> Any:
        from reportlab.lib.utils import ImageReader
        picture = image._image if isinstance(image, ImageReader) else Image.open(image)
        return super().drawImage(ImageReader(cmyk_image(picture)), x, y, width, height, mask=None, **kwargs)


def make_pdfx(file: OutputFile, title: str) -> OutputFile:
    """The finished PDF with the output intent and the PDF/X keys added."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(file.data)))
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(CONDITION),
        NameObject("/RegistryName"): TextStringObject("http://www.color.org"),
        NameObject("/Info"): TextStringObject("SWOP (Coated) 20%, GCR, Medium"),
    })
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    flatten_fields(writer)
    writer.add_metadata({"/Title": title, "/GTS_PDFXVersion": PDFX_VERSION,
                         "/GTS_PDFXConformance": PDFX_CONFORMANCE,
                         "/CreationDate": "D:20000101000000Z", "/ModDate": "D:20000101000000Z"})
    # Trapped is a name (/False), which add_metadata would write as the string "(/False)"
    info = writer._info.get_object() if writer._info is not None else None
    if not isinstance(info, DictionaryObject):
        raise RuntimeError("pypdf gave the PDF/X file no document information dictionary")
    info[NameObject("/Trapped")] = NameObject("/False")
    writer.pdf_header = b"%PDF-1.4"
    buffer = io.BytesIO()
    writer.write(buffer)
    return OutputFile(file.name, buffer.getvalue(), file.pages, file.component, file.note, file.role)


def flatten_fields(writer: PdfWriter) -> None:
    """Form fields printed as they look (PDF/X allows no annotation inside the bleed box): each
    widget's appearance drawn into its page where it lies, then the fields dropped."""
    from pypdf.generic import ContentStream, DictionaryObject, NameObject
    for page in writer.pages:
        annotations = page.get("/Annots")
        if annotations is None:
            continue
        drawn = []
        resources = page.setdefault(NameObject("/Resources"), DictionaryObject()).get_object()
        xobjects = resources.setdefault(NameObject("/XObject"), DictionaryObject()).get_object()
        for number, ref in enumerate(annotations):
            annotation = ref.get_object()
            appearance = (annotation.get("/AP") or {}).get("/N")
            if appearance is None or annotation.get("/Subtype") != "/Widget":
                continue
            name = f"/Field{number}"
            in_cmyk(appearance.get_object(), writer)
            xobjects[NameObject(name)] = appearance if hasattr(appearance, "idnum") else writer._add_object(appearance)
            left, bottom = (float(v) for v in annotation["/Rect"][:2])
            box = [float(v) for v in appearance.get_object().get("/BBox", [0, 0, 0, 0])]
            drawn.append(f"q 1 0 0 1 {left - box[0]:.4f} {bottom - box[1]:.4f} cm {name} Do Q")
        del page[NameObject("/Annots")]
        if drawn:
            content = ContentStream(page.get_contents(), writer)
            content.set_data(content.get_data() + ("\n" + "\n".join(drawn) + "\n").encode())
            page.replace_contents(content)
    if "/AcroForm" in writer._root_object:
        del writer._root_object[NameObject("/AcroForm")]


def in_cmyk(stream: StreamObject, writer: PdfWriter) -> None:
    """A content stream's RGB colours (a field's border and fill) set as CMYK instead."""
    from pypdf.generic import ContentStream, FloatObject
    content = ContentStream(stream, writer)
    changed = False
    for index, (operands, operator) in enumerate(content.operations):
        if operator in (b"rg", b"RG"):
            cmyk = rgb_to_cmyk(*(float(v) for v in operands))
            content.operations[index] = ([FloatObject(round(v, 4)) for v in cmyk],
                                         b"k" if operator == b"rg" else b"K")
            changed = True
    if changed:
        stream.set_data(content.get_data())
