"""Form fields in one of the game's own fonts, embedded whole.

reportlab's form fields only know the 14 standard fonts, which it names without embedding
them. A viewer draws what people type in the field's font, with any letter, so a subset will
not do: the whole TrueType file goes in, once per PDF, as a simple WinAnsi font."""

from __future__ import annotations

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFZCompress
from reportlab.pdfgen.canvas import Canvas

RESOURCE = "PnpForm"   # the field font's name in the form's resources


def use_for_fields(canvas: Canvas, font_name: str) -> str:
    """Make `font_name` (a registered TrueType font) usable as a form field font on this canvas;
    returns the name to pass as the field's fontName."""
    form = canvas.acroForm
    if getattr(form, "_pnp_font", None) == font_name:
        return font_name
    face = pdfmetrics.getFont(font_name).face
    doc = canvas._doc
    data = face._ttf_data
    program = PDFStream(PDFDictionary({"Length1": len(data)}), data, filters=[PDFZCompress])
    codes = range(32, 256)
    widths = [round(pdfmetrics.stringWidth(bytes([code]).decode("cp1252", "replace"), font_name, 1000))
              for code in codes]
    base = PDFName(font_name)
    descriptor = PDFDictionary({
        "Type": PDFName("FontDescriptor"), "FontName": base, "Flags": 32,
        "FontBBox": PDFArray(list(face.bbox)), "ItalicAngle": face.italicAngle,
        "Ascent": face.ascent, "Descent": face.descent, "CapHeight": face.capHeight,
        "StemV": face.stemV, "FontFile2": doc.Reference(program)})
    font = PDFDictionary({
        "Type": PDFName("Font"), "Subtype": PDFName("TrueType"), "BaseFont": base,
        "FirstChar": codes[0], "LastChar": codes[-1], "Widths": PDFArray(widths),
        "Encoding": PDFName("WinAnsiEncoding"), "FontDescriptor": doc.Reference(descriptor),
        "Name": PDFName(RESOURCE)})
    ref = form.getRefStr(font)
    form.fonts[RESOURCE] = ref
    standard = form.makeFont

    def make_font(name: str) -> tuple[str, str]:
        return (ref, RESOURCE) if name == font_name else standard(name)

    form.makeFont = make_font
    form._pnp_font = font_name
    return font_name
