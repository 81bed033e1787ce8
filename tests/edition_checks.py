"""What a page draws, read back from its content: the pictures it places (inline icons, images)
and the styles its text is set in, so two editions of a game can be compared page by page."""

from __future__ import annotations

from dataclasses import dataclass, field

import pypdf
from pypdf.generic import ContentStream


@dataclass
class Drawn:
    pictures: int = 0                                   # icons and images placed
    vector_icons: int = 0                               # icons drawn as vector forms
    styles: set[tuple[bool, bool]] = field(default_factory=set)   # (bold, italic) of text shown
    image_objects: int = 0                              # image XObjects painted


def drawn(page) -> Drawn:
    result = Drawn()
    _walk(page.get_contents(), page["/Resources"], page.pdf, result, depth=0)
    return result


def _walk(contents, resources, reader, result: Drawn, depth: int) -> None:
    if contents is None or depth > 8:
        return
    stream = contents if isinstance(contents, ContentStream) else ContentStream(contents, reader)
    fonts = (resources or {}).get("/Font") or {}
    xobjects = (resources or {}).get("/XObject") or {}
    slant = [False]
    font = ""
    for operands, op in stream.operations:
        if op == b"q":
            slant.append(slant[-1])
        elif op == b"Q" and len(slant) > 1:
            slant.pop()
        elif op == b"cm" and abs(float(operands[2])) > 0.05 and abs(float(operands[1])) < 1e-6:
            slant[-1] = True   # a shear: text slanted for a face without an italic
        elif op == b"Tf":
            entry = fonts.get(operands[0])
            font = str(entry.get_object()["/BaseFont"]) if entry is not None else ""
        elif op in (b"Tj", b"TJ", b"'", b'"') and font and "Helvetica" not in font:
            shown = operands[-1]
            if isinstance(shown, (bytes, str)) and not str(shown).strip():
                continue
            result.styles.add(("Bold" in font, "Italic" in font or slant[-1]))
        elif op == b"Do":
            name = operands[0]
            target = xobjects.get(name)
            if target is None:
                continue
            target = target.get_object()
            if target.get("/Subtype") == "/Image":
                result.pictures += 1
                result.image_objects += 1
            elif str(name).startswith("/FormXob.pnpicon"):
                result.pictures += 1
                inner = Drawn()
                _walk(target, target.get("/Resources") or resources, reader, inner, depth + 1)
                if inner.image_objects:
                    result.image_objects += inner.image_objects
                else:
                    result.vector_icons += 1
            else:
                _walk(target, target.get("/Resources") or resources, reader, result, depth + 1)


def pages_drawn(path) -> list[Drawn]:
    return [drawn(page) for page in pypdf.PdfReader(str(path)).pages]
