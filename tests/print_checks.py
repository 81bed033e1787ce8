"""Print geometry read back from a PDF page: where each piece's trim and ink are, the cut marks,
and the checks every home sheet must pass (shared by the tests and tools/print_sweep.py)."""

from __future__ import annotations

import math
import re

MM = 72 / 25.4
MARGIN = 5 * MM          # pnp's own unprintable margin: nothing may be drawn there
INKJET = 6.35 * MM       # what many inkjets cannot print: marks must still show beyond it
MARK = 3 * MM
EPS = 0.02

# A piece: origin moved to its corner (or upside down to its far corner), a clip to trim +
# bleed, maybe a second clip to the bleed it really uses, maybe a third cutting notches out
# of the bleed where cut marks run between pieces.
_PIECE = re.compile(rb"q\n(-?1) 0 0 (-?1) (-?[\d.]+) (-?[\d.]+) cm\nn (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re W\* n"
                    rb"(?:\nn (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re W\* n)?"
                    rb"((?:\nn(?: -?[\d.]+ -?[\d.]+ [\d.]+ [\d.]+ re)+ W\* n))?")
_MARKS = re.compile(rb"q\n\.25 w\n0 G\nn\n((?:-?[\d.]+ -?[\d.]+ m -?[\d.]+ -?[\d.]+ l\n)+)S\nQ")
_LINE = re.compile(rb"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l")
_RECT = re.compile(rb"(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re")


def pieces(page) -> list[dict]:
    """Each piece's trim, the box its ink may reach and the notches cut out of that box."""
    found = []
    for match in _PIECE.finditer(page.get_contents().get_data()):
        sx, _, x, y, *rect = match.groups()
        notch_text = rect.pop()
        sign, x, y = float(sx), float(x), float(y)
        first = [float(v) for v in rect[:4]]
        clip = [float(v) for v in rect[4:]] if rect[4] is not None else first
        bleed = -first[0]
        w, h = first[2] - 2 * bleed, first[3] - 2 * bleed

        def on_sheet(cx, cy, cw, ch):
            x0, x1 = x + sign * cx, x + sign * (cx + cw)
            y0, y1 = y + sign * cy, y + sign * (cy + ch)
            return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

        notches, notched = [], None
        if notch_text:
            rects = [tuple(float(v) for v in r) for r in _RECT.findall(notch_text)]
            notched = on_sheet(*rects[0])   # the box they are cut from
            notches = [on_sheet(*r) for r in rects[1:]]
        found.append({"trim": on_sheet(0, 0, w, h), "ink": on_sheet(*clip), "notches": notches,
                      "notched": notched, "turned": sign < 0})
    return found


def marks(page) -> list[tuple[float, float, float, float]]:
    data = page.get_contents().get_data()
    return [tuple(float(v) for v in line) for block in _MARKS.findall(data) for line in _LINE.findall(block)]


def overlap(a, b) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > EPS and min(a[3], b[3]) - max(a[1], b[1]) > EPS


def ink_hits(ink, notches, box) -> bool:
    """Whether ink clipped to `ink` minus `notches` reaches inside `box`."""
    if not overlap(ink, box):
        return False
    part = (max(ink[0], box[0]), max(ink[1], box[1]), min(ink[2], box[2]), min(ink[3], box[3]))
    return not any(n[0] <= part[0] + EPS and n[1] <= part[1] + EPS and n[2] >= part[2] - EPS and n[3] >= part[3] - EPS
                   for n in notches)


def check_deck_page(page, paper, label) -> list[str]:
    problems = []
    width, height = paper
    placed = pieces(page)
    lines = marks(page)
    for i, a in enumerate(placed):
        for j, b in enumerate(placed):
            if i != j and ink_hits(a["ink"], a["notches"], b["trim"]):
                problems.append(f"{label}: piece {i + 1}'s ink reaches into piece {j + 1}'s trim")
        ink = a["ink"]
        if ink[0] < MARGIN - EPS or ink[1] < MARGIN - EPS or ink[2] > width - MARGIN + EPS or ink[3] > height - MARGIN + EPS:
            problems.append(f"{label}: piece {i + 1}'s ink in the 5 mm margin")
    for line in lines:
        x1, y1, x2, y2 = line
        if not all(math.isfinite(v) for v in line):
            problems.append(f"{label}: mark {line} not finite")
            continue
        # a 0.25 pt line is 0.125 pt either side of its path
        box = (min(x1, x2) - 0.125, min(y1, y2) - 0.125, max(x1, x2) + 0.125, max(y1, y2) + 0.125)
        box = (box[0] + 0.1, box[1] + 0.1, box[2] - 0.1, box[3] - 0.1) if x1 != x2 and y1 != y2 else box
        for i, a in enumerate(placed):
            inner = (box[0] + 0.1, box[1] + 0.1, box[2] - 0.1, box[3] - 0.1)   # touching is allowed
            if ink_hits(a["ink"], a["notches"], inner) or overlap(a["trim"], inner):
                problems.append(f"{label}: mark {tuple(round(v, 2) for v in line)} over piece {i + 1} or its bleed")
        if min(x1, x2) < MARGIN - EPS or max(x1, x2) > width - MARGIN + EPS or \
                min(y1, y2) < MARGIN - EPS or max(y1, y2) > height - MARGIN + EPS:
            problems.append(f"{label}: mark {line} in the 5 mm margin")
    # every cut line of the pieces on the page: a visible mark at both ends
    for vertical in (True, False):
        ats = sorted({round(p["trim"][k], 2) for p in placed for k in ((0, 2) if vertical else (1, 3))})
        for at in ats:
            along = [p["trim"] for p in placed if at in (round(p["trim"][0 if vertical else 1], 2),
                                                        round(p["trim"][2 if vertical else 3], 2))]
            low = min(t[1 if vertical else 0] for t in along)
            high = max(t[3 if vertical else 2] for t in along)
            on = []
            for x1, y1, x2, y2 in lines:
                if vertical and abs(x1 - x2) < EPS and abs(x1 - at) <= 0.3:
                    lo, hi, limit = min(y1, y2), max(y1, y2), height
                elif not vertical and abs(y1 - y2) < EPS and abs(y1 - at) <= 0.3:
                    lo, hi, limit = min(x1, x2), max(x1, x2), width
                else:
                    continue
                visible = min(hi, limit - INKJET) - max(lo, INKJET)
                if visible >= MARK - EPS:
                    on.append((lo, hi))
            if not any(hi >= high - EPS for lo, hi in on) or not any(lo <= low + EPS for lo, hi in on):
                problems.append(f"{label}: {'vertical' if vertical else 'horizontal'} cut line at "
                                f"{at / MM:.2f} mm has no visible 3 mm mark at both ends "
                                f"(marks on it: {[(round(a / MM, 2), round(b / MM, 2)) for a, b in on]})")
    return problems


def check_backs(front, back, paper, duplex, offset, label) -> list[str]:
    fronts, backs = [p["trim"] for p in pieces(front)], [p["trim"] for p in pieces(back)]
    if len(fronts) != len(backs):
        return [f"{label}: {len(fronts)} fronts but {len(backs)} backs"]
    problems = []
    width, height = paper
    for i, (f, b) in enumerate(zip(fronts, backs)):
        x, y = f[0], f[1]
        w, h = f[2] - f[0], f[3] - f[1]
        if duplex in ("long-edge", "none"):
            x = width - x - w
        else:
            y = height - y - h
        x, y = x + offset[0], y - offset[1]
        if abs(b[0] - x) > EPS or abs(b[1] - y) > EPS:
            problems.append(f"{label}: back {i + 1} at {b[:2]}, not behind its front (expected {(x, y)})")
    return problems


def check_fold(page, paper, label) -> list[str]:
    placed = pieces(page)
    fronts, backs = placed[0::2], placed[1::2]
    problems = []
    across = any(p["turned"] for p in backs)
    width, height = page.mediabox.width, page.mediabox.height
    for i, (f, b) in enumerate(zip(fronts, backs)):
        f, b = f["trim"], b["trim"]
        if across:
            ok = abs(f[0] - b[0]) < EPS and abs((f[1] + f[3]) / 2 + (b[1] + b[3]) / 2 - float(height)) < EPS
        else:
            ok = abs(f[1] - b[1]) < EPS and abs((f[0] + f[2]) / 2 + (b[0] + b[2]) / 2 - float(width)) < EPS
        if not ok:
            problems.append(f"{label}: fold back {i + 1} not opposite its front")
    return problems
