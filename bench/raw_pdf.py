"""The floor: the same pages as plain_reportlab.py written with no PDF library at all, as
bytes by hand (the fonts embedded whole as TrueType, a form per repeated look, each content
stream compressed). It shows what any library costs over writing the file directly.

    python bench/raw_pdf.py N OUT.pdf
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

MM = 72 / 25.4
WIDTH, HEIGHT = 595.2756, 841.8898   # A4, as reportlab has it
CW, CH = 63.5 * MM, 88.9 * MM
COLOURS = ["#1c1c1c", "#f6c600", "#c62828"]
KAPPA = 0.5522847498   # bezier handles of a quarter circle
TEXT_SIZE, LEADING = 9.5, 11.9


class TrueType:
    """What a PDF needs of a TrueType file: its bytes, metrics and the advance of each of the
    characters 32-255 (WinAnsi, which is Latin-1 for these cards' text)."""

    def __init__(self, path: Path) -> None:
        self.data = data = path.read_bytes()
        count = struct.unpack(">H", data[4:6])[0]
        tables = {data[12 + 16 * i:16 + 16 * i].decode("latin-1"):
                  struct.unpack(">II", data[20 + 16 * i:28 + 16 * i]) for i in range(count)}
        head = tables["head"][0]
        self.units = struct.unpack(">H", data[head + 18:head + 20])[0]
        self.bbox = [self.scaled(v) for v in struct.unpack(">hhhh", data[head + 36:head + 44])]
        hhea = tables["hhea"][0]
        ascent, descent = struct.unpack(">hh", data[hhea + 4:hhea + 8])
        self.ascent, self.descent = self.scaled(ascent), self.scaled(descent)
        metrics = struct.unpack(">H", data[hhea + 34:hhea + 36])[0]
        hmtx = tables["hmtx"][0]
        advances = [struct.unpack(">H", data[hmtx + 4 * i:hmtx + 4 * i + 2])[0] for i in range(metrics)]
        glyphs = self.cmap(tables["cmap"][0])
        self.widths = [self.scaled(advances[min(glyphs.get(code, 0), metrics - 1)]) for code in range(32, 256)]

    def scaled(self, value: int) -> int:
        return round(value * 1000 / self.units)

    def cmap(self, offset: int) -> dict[int, int]:
        """Character code to glyph, from the Unicode BMP subtable (format 4)."""
        data = self.data
        count = struct.unpack(">H", data[offset + 2:offset + 4])[0]
        for i in range(count):
            platform, encoding, where = struct.unpack(">HHI", data[offset + 4 + 8 * i:offset + 12 + 8 * i])
            table = offset + where
            if (platform, encoding) in ((3, 1), (0, 3)) and struct.unpack(">H", data[table:table + 2])[0] == 4:
                break
        else:
            raise SystemExit("no Unicode cmap")
        segments = struct.unpack(">H", data[table + 6:table + 8])[0] // 2

        def array(start: int, fmt: str = "H") -> list[int]:
            return list(struct.unpack(f">{segments}{fmt}", data[start:start + 2 * segments]))
        ends = array(table + 14)
        starts = array(table + 16 + 2 * segments)
        deltas = array(table + 16 + 4 * segments, "h")
        range_at = table + 16 + 6 * segments
        ranges = array(range_at)
        glyphs: dict[int, int] = {}
        for s in range(segments):
            for code in range(max(starts[s], 32), min(ends[s], 255) + 1):
                if ranges[s] == 0:
                    glyphs[code] = (code + deltas[s]) & 0xFFFF
                else:
                    at = range_at + 2 * s + ranges[s] + 2 * (code - starts[s])
                    glyph = struct.unpack(">H", data[at:at + 2])[0]
                    glyphs[code] = (glyph + deltas[s]) & 0xFFFF if glyph else 0
        return glyphs

    def width(self, text: str, size: float) -> float:
        return sum(self.widths[ord(c) - 32] for c in text) * size / 1000


class Writer:
    """Objects numbered as they come; the cross-reference table written at the end."""

    def __init__(self) -> None:
        self.objects: list[bytes] = []

    def reserve(self) -> int:
        self.objects.append(b"")
        return len(self.objects)

    def put(self, body: bytes, number: int | None = None) -> int:
        if number is None:
            number = self.reserve()
        self.objects[number - 1] = body
        return number

    def stream(self, content: bytes, extra: str = "", number: int | None = None, compress: bool = True) -> int:
        data = zlib.compress(content) if compress else content
        head = f"<< /Length {len(data)}{' /Filter /FlateDecode' if compress else ''} {extra}>>\nstream\n"
        return self.put(head.encode() + data + b"\nendstream", number)

    def write(self, path: str, root: int) -> None:
        out = bytearray(b"%PDF-1.4\n%\x93\x8c\x8b\x9e\n")
        offsets = []
        for number, body in enumerate(self.objects, 1):
            offsets.append(len(out))
            out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(self.objects) + 1}\n0000000000 65535 f \n".encode()
        out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
        out += f"trailer\n<< /Size {len(self.objects) + 1} /Root {root} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
        Path(path).write_bytes(out)


def font_object(pdf: Writer, font: TrueType, name: str) -> int:
    file = pdf.stream(font.data, f"/Length1 {len(font.data)} ")
    descriptor = pdf.put(
        (f"<< /Type /FontDescriptor /FontName /{name} /Flags 32 /FontBBox [{' '.join(map(str, font.bbox))}] "
         f"/ItalicAngle 0 /Ascent {font.ascent} /Descent {font.descent} /CapHeight {font.ascent} "
         f"/StemV 80 /FontFile2 {file} 0 R >>").encode())
    return pdf.put(
        (f"<< /Type /Font /Subtype /TrueType /BaseFont /{name} /FirstChar 32 /LastChar 255 "
         f"/Widths [{' '.join(map(str, font.widths))}] /Encoding /WinAnsiEncoding "
         f"/FontDescriptor {descriptor} 0 R >>").encode())


def rgb(colour: str) -> str:
    return " ".join(f"{int(colour[i:i + 2], 16) / 255:.4g}" for i in (1, 3, 5))


def n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def round_rect(x: float, y: float, w: float, h: float, r: float) -> str:
    k = r * KAPPA
    return (f"{n(x + r)} {n(y)} m {n(x + w - r)} {n(y)} l "
            f"{n(x + w - r + k)} {n(y)} {n(x + w)} {n(y + r - k)} {n(x + w)} {n(y + r)} c "
            f"{n(x + w)} {n(y + h - r)} l "
            f"{n(x + w)} {n(y + h - r + k)} {n(x + w - r + k)} {n(y + h)} {n(x + w - r)} {n(y + h)} c "
            f"{n(x + r)} {n(y + h)} l "
            f"{n(x + r - k)} {n(y + h)} {n(x)} {n(y + h - r + k)} {n(x)} {n(y + h - r)} c "
            f"{n(x)} {n(y + r)} l {n(x)} {n(y + r - k)} {n(x + r - k)} {n(y)} {n(x + r)} {n(y)} c h")


def ellipse(x1: float, y1: float, x2: float, y2: float) -> str:
    cx, cy, rx, ry = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) / 2, (y2 - y1) / 2
    kx, ky = rx * KAPPA, ry * KAPPA
    return (f"{n(cx + rx)} {n(cy)} m "
            f"{n(cx + rx)} {n(cy + ky)} {n(cx + kx)} {n(cy + ry)} {n(cx)} {n(cy + ry)} c "
            f"{n(cx - kx)} {n(cy + ry)} {n(cx - rx)} {n(cy + ky)} {n(cx - rx)} {n(cy)} c "
            f"{n(cx - rx)} {n(cy - ky)} {n(cx - kx)} {n(cy - ry)} {n(cx)} {n(cy - ry)} c "
            f"{n(cx + kx)} {n(cy - ry)} {n(cx + rx)} {n(cy - ky)} {n(cx + rx)} {n(cy)} c f")


def escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def centred(font: TrueType, tag: str, size: float, cx: float, y: float, text: str) -> str:
    return f"BT /{tag} {n(size)} Tf {n(cx - font.width(text, size) / 2)} {n(y)} Td ({escaped(text)}) Tj ET"


def wrapped(sentence: str, font: TrueType, width: float) -> list[str]:
    space = font.width(" ", TEXT_SIZE)
    lines: list[str] = []
    line: list[str] = []
    used = 0.0
    for word in sentence.split():
        size = font.width(word, TEXT_SIZE)
        if line and used + space + size > width:
            lines.append(" ".join(line))
            line, used = [word], size
        else:
            used += size + (space if line else 0.0)
            line.append(word)
    if line:
        lines.append(" ".join(line))
    return lines


def main(count: int, out: str) -> None:
    fonts = Path(__file__).resolve().parent.parent / "fonts"
    display, text = TrueType(fonts / "FjallaOne-Regular.ttf"), TrueType(fonts / "Lato-Regular.ttf")
    pdf = Writer()
    catalog, pages = pdf.reserve(), pdf.reserve()
    font_refs = f"/F1 {font_object(pdf, display, 'FjallaOne-Regular')} 0 R /F2 {font_object(pdf, text, 'Lato-Regular')} 0 R"
    resources = f"/Resources << /Font << {font_refs} >> >>"

    def form(content: str, w: float, h: float) -> int:
        return pdf.stream(content.encode("latin-1"), f"/Type /XObject /Subtype /Form /BBox [0 0 {n(w)} {n(h)}] {resources} ")

    faces = [form(f"{rgb(c)} rg 0 0 {n(CW)} {n(CH)} re f {rgb('#f2b705')} RG "
                  f"{round_rect(3 * MM, 3 * MM, CW - 6 * MM, CH - 6 * MM, 2.5 * MM)} S 1 1 1 rg "
                  f"{centred(display, 'F1', 22, CW / 2, CH - 15 * MM, 'RUN')}", CW, CH) for c in COLOURS]
    back = form(f"{rgb('#2f7d32')} rg 0 0 {n(CW)} {n(CH)} re f {rgb('#f2b705')} rg "
                f"{ellipse(9.75 * MM, 33.4 * MM, 53.75 * MM, 55.4 * MM)} {rgb('#1c1c1c')} rg "
                f"{centred(display, 'F1', 30, CW / 2, 40 * MM, 'JUKEM')}", CW, CH)
    left, bottom = (WIDTH - 3 * CW) / 2, (HEIGHT - 3 * CH) / 2
    top, right = bottom + 3 * CH, left + 3 * CW
    cuts = []
    for i in range(4):
        x, y = left + i * CW, bottom + i * CH
        cuts.append(f"{n(x)} {n(top + 1)} m {n(x)} {n(top + 5 * MM)} l {n(x)} {n(bottom - 1)} m "
                    f"{n(x)} {n(bottom - 5 * MM)} l {n(left - 1)} {n(y)} m {n(left - 5 * MM)} {n(y)} l "
                    f"{n(right + 1)} {n(y)} m {n(right + 5 * MM)} {n(y)} l")
    marks = form(f".25 w 0 0 0 RG {' '.join(cuts)} S", WIDTH, HEIGHT)
    xobjects = " ".join(f"/X{number} {number} 0 R" for number in (*faces, back, marks))
    page_resources = f"/Resources << /Font << {font_refs} >> /XObject << {xobjects} >> >>"
    kids = []

    def page(content: list[str]) -> None:
        body = pdf.stream("\n".join(content).encode("latin-1"))
        kids.append(pdf.put(f"<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 {n(WIDTH)} {n(HEIGHT)}] "
                            f"{page_resources} /Contents {body} 0 R >>".encode()))

    for start in range(0, count, 9):
        sheet = range(start, min(start + 9, count))
        front = []
        for slot, index in enumerate(sheet):
            x, y = left + (slot % 3) * CW, bottom + (2 - slot // 3) * CH
            lines = wrapped(f"Gain these yards on your drive. (card {index + 1})", text, 49.5 * MM)
            first = 12 * MM + (17 * MM + len(lines) * LEADING) / 2 - TEXT_SIZE
            said = " ".join(centred(text, "F2", TEXT_SIZE, CW / 2, first - k * LEADING, line)
                            for k, line in enumerate(lines))
            front.append(f"q 1 0 0 1 {n(x)} {n(y)} cm /X{faces[index % 3]} Do 1 1 1 rg "
                         f"{centred(display, 'F1', 64, CW / 2, CH - 48 * MM, str(5 + index % 60))} {said} Q")
        front.append(f"/X{marks} Do")
        page(front)
        page([f"q 1 0 0 1 {n(WIDTH - (left + (slot % 3) * CW) - CW)} {n(bottom + (2 - slot // 3) * CH)} cm "
              f"/X{back} Do Q" for slot, _ in enumerate(sheet)])
    pdf.put(f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode(), pages)
    pdf.put(f"<< /Type /Catalog /Pages {pages} 0 R >>".encode(), catalog)
    pdf.write(out, catalog)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
