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

CLEAR = 1 * MM          # the least gap between a mark and a trim or bleed it does not mark
HALF = 0.125            # half a 0.25 pt mark's width

# A piece: origin moved to its corner and turned by quarters (a b c d e f cm), a clip to trim +
# bleed, maybe a second clip to the bleed it really uses, maybe a third cutting notches out of
# the bleed where cut marks run between pieces.
_NUM = rb"(-?[\d.]+)"
_PIECE = re.compile(rb"q\n" + rb" ".join([_NUM] * 6) + rb" cm\nn (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re W\* n"
                    rb"(?:\nn (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re W\* n)?"
                    rb"((?:\nn(?: -?[\d.]+ -?[\d.]+ [\d.]+ [\d.]+ re)+ W\* n))?")
_MARKS = re.compile(rb"q\n\.25 w\n0 G\nn\n((?:-?[\d.]+ -?[\d.]+ m -?[\d.]+ -?[\d.]+ l\n)+)S\nQ")
_LINE = re.compile(rb"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l")
_RECT = re.compile(rb"(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re")
_QUARTERS = {(1, 0, 0, 1): 0, (0, 1, -1, 0): 1, (-1, 0, 0, -1): 2, (0, -1, 1, 0): 3}


def pieces(page) -> list[dict]:
    """Each piece's trim, the box its ink may reach, the notches cut out of that box, and how
    many quarter turns (anticlockwise) it is drawn at."""
    found = []
    for match in _PIECE.finditer(page.get_contents().get_data()):
        a, b, c, d, e, f, *rect = match.groups()
        matrix = tuple(round(float(v)) for v in (a, b, c, d))
        if matrix not in _QUARTERS:
            continue
        e, f = float(e), float(f)
        notch_text = rect.pop()
        first = [float(v) for v in rect[:4]]
        clip = [float(v) for v in rect[4:]] if rect[4] is not None else first
        bleed = -first[0]
        w, h = first[2] - 2 * bleed, first[3] - 2 * bleed

        def on_sheet(cx, cy, cw, ch, m=matrix):
            xs, ys = [], []
            for u, v in ((cx, cy), (cx + cw, cy + ch)):
                xs.append(m[0] * u + m[2] * v + e)
                ys.append(m[1] * u + m[3] * v + f)
            return (min(xs), min(ys), max(xs), max(ys))

        notches, notched = [], None
        if notch_text:
            rects = [tuple(float(v) for v in r) for r in _RECT.findall(notch_text)]
            notched = on_sheet(*rects[0])   # the box they are cut from
            notches = [on_sheet(*r) for r in rects[1:]]
        quarter = _QUARTERS[matrix]
        found.append({"trim": on_sheet(0, 0, w, h), "ink": on_sheet(*clip), "notches": notches,
                      "notched": notched, "turned": quarter == 2, "quarter": quarter})
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


def bleed_strips(piece) -> list[tuple]:
    """The bleed of a piece as four boxes round its trim (the side ones with the corners)."""
    (x0, y0, x1, y1), (i0, j0, i1, j1) = piece["trim"], piece["ink"]
    strips = [(i0, j0, x0, j1), (x1, j0, i1, j1), (x0, j0, x1, y0), (x0, y1, x1, j1)]
    return [s for s in strips if s[2] - s[0] > EPS and s[3] - s[1] > EPS]


def grown(box, by):
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def along(line, trim) -> bool:
    """Whether a mark runs on (or a line's width beside) one of the trim's edges' lines."""
    x1, y1, x2, y2 = line
    if abs(x1 - x2) < EPS:
        return any(abs(x1 - edge) <= HALF + EPS for edge in (trim[0], trim[2]))
    return any(abs(y1 - edge) <= HALF + EPS for edge in (trim[1], trim[3]))


def mark_problems(line, placed, label) -> list[str]:
    """A mark keeps CLEAR from every trim and bleed it does not cut along: from the trim of a
    piece whose edge it marks it keeps CLEAR along the line (it may lie beside the edge), from
    every other trim CLEAR all round, and from every bleed (less its notches) CLEAR all round."""
    x1, y1, x2, y2 = line
    # the line's width lies either side of it; its ends stop where it does (butt caps)
    wide_x, wide_y = (HALF, 0.0) if abs(x1 - x2) < EPS else (0.0, HALF)
    box = (min(x1, x2) - wide_x, min(y1, y2) - wide_y, max(x1, x2) + wide_x, max(y1, y2) + wide_y)
    near = grown(box, CLEAR - EPS)
    problems = []
    shown = tuple(round(v / MM, 2) for v in line)
    for i, piece in enumerate(placed):
        trim = piece["trim"]
        if along(line, trim):
            vertical = abs(x1 - x2) < EPS
            lo, hi = (box[1], box[3]) if vertical else (box[0], box[2])
            t_lo, t_hi = (trim[1], trim[3]) if vertical else (trim[0], trim[2])
            beside = lo >= t_lo + CLEAR - EPS and hi <= t_hi - CLEAR + EPS
            beyond = lo >= t_hi + CLEAR - EPS or hi <= t_lo - CLEAR + EPS
            if not (beside or beyond):
                problems.append(f"{label}: mark {shown} within 1 mm of the end of piece {i + 1}'s edge")
        elif overlap(near, trim):
            problems.append(f"{label}: mark {shown} within 1 mm of piece {i + 1}'s trim")
        for strip in bleed_strips(piece):
            part = (max(strip[0], near[0]), max(strip[1], near[1]), min(strip[2], near[2]), min(strip[3], near[3]))
            if part[2] - part[0] > EPS and part[3] - part[1] > EPS and ink_hits(strip, piece["notches"], part):
                problems.append(f"{label}: mark {shown} within 1 mm of piece {i + 1}'s bleed")
                break
    return problems


def check_deck_page(page, paper, label, excused=(), shifted: float = 0.0) -> list[str]:
    """The print checks of a home sheet: no ink in another piece's trim or the 5 mm margin;
    marks inside the margin, CLEAR of every trim and bleed they do not mark; every cut line a
    mark an inkjet prints (3 mm past 6.35 mm) at both ends, but the lines the build said have
    none (`excused`: ("vertical" or "horizontal", position in mm)). A back page drawn moved by
    --back-offset (`shifted`, its larger part in points) may put ink that much into the margin:
    the printer's own shift takes it back out (docs/print-guide.md)."""
    problems = []
    width, height = paper
    placed = pieces(page)
    lines = marks(page)
    for i, a in enumerate(placed):
        for j, b in enumerate(placed):
            if i != j and ink_hits(a["ink"], a["notches"], b["trim"]):
                problems.append(f"{label}: piece {i + 1}'s ink reaches into piece {j + 1}'s trim")
        ink, margin = a["ink"], MARGIN - shifted
        if ink[0] < margin - EPS or ink[1] < margin - EPS or ink[2] > width - margin + EPS or ink[3] > height - margin + EPS:
            problems.append(f"{label}: piece {i + 1}'s ink in the 5 mm margin")
    for line in lines:
        x1, y1, x2, y2 = line
        if not all(math.isfinite(v) for v in line):
            problems.append(f"{label}: mark {line} not finite")
            continue
        problems += mark_problems(line, placed, label)
        if min(x1, x2) < MARGIN - EPS or max(x1, x2) > width - MARGIN + EPS or \
                min(y1, y2) < MARGIN - EPS or max(y1, y2) > height - MARGIN + EPS:
            problems.append(f"{label}: mark {line} in the 5 mm margin")
    problems += [p for p in cut_line_problems(placed, lines, paper, label, excused)]
    problems += stub_problems(lines, paper, label)
    return problems


def stub_problems(lines, paper, label) -> list[str]:
    """A mark an inkjet prints less than 3 mm of, on a cut line that has a mark it prints in
    full: a stub at the sheet's edge that only clutters it (every mark is a cuttable one,
    docs/print-guide.md), told as a problem; a stub that is all its line has is kept."""
    width, height = paper

    def visible(line) -> float:
        x1, y1, x2, y2 = line
        if abs(x1 - x2) < EPS:
            return min(max(y1, y2), height - INKJET) - max(min(y1, y2), INKJET)
        return min(max(x1, x2), width - INKJET) - max(min(x1, x2), INKJET)

    def on_line(line) -> tuple[bool, float]:
        x1, y1, x2, y2 = line
        return (True, x1) if abs(x1 - x2) < EPS else (False, y1)

    full = [on_line(line) for line in lines if visible(line) >= MARK - EPS]

    def has_full_mark(line) -> bool:   # a mark between pieces lies a line's width beside the cut
        vertical, at = on_line(line)
        return any(kind == vertical and abs(other - at) <= 0.3 for kind, other in full)
    return [f"{label}: mark {tuple(round(v / MM, 2) for v in line)} prints {max(visible(line), 0) / MM:.2f} mm past "
            f"the inkjet's strip, beside a full mark on its line"
            for line in lines if visible(line) < MARK - EPS and has_full_mark(line)]


def cut_line_problems(placed, lines, paper, label, excused=()) -> list[str]:
    """Every cut line of the pieces on the page: a mark on it (or a line's width beside it) at
    each end, reaching within CLEAR of the end or past it, 3 mm of it where an inkjet prints."""
    width, height = paper
    problems = []
    for vertical in (True, False):
        ats = sorted({round(p["trim"][k], 2) for p in placed for k in ((0, 2) if vertical else (1, 3))})
        for at in ats:
            name = "vertical" if vertical else "horizontal"
            if any(kind == name and abs(where - at / MM) < 0.06 for kind, where in excused):
                continue
            along_it = [p["trim"] for p in placed if at in (round(p["trim"][0 if vertical else 1], 2),
                                                            round(p["trim"][2 if vertical else 3], 2))]
            low = min(t[1 if vertical else 0] for t in along_it)
            high = max(t[3 if vertical else 2] for t in along_it)
            across = width if vertical else height
            if min(at, across - at) < INKJET - EPS:
                problems.append(f"{label}: {name} cut line at {at / MM:.2f} mm lies inside the 6.35 mm an inkjet "
                                f"leaves blank, so no mark on it prints")
                continue
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
            if not any(hi >= high - CLEAR - EPS for lo, hi in on) or not any(lo <= low + CLEAR + EPS for lo, hi in on):
                problems.append(f"{label}: {name} cut line at {at / MM:.2f} mm has no visible 3 mm mark at both ends "
                                f"(marks on it: {[(round(a / MM, 2), round(b / MM, 2)) for a, b in on]})")
    return problems


def excused_cuts(warnings: str) -> set[tuple[str, float]]:
    """The cut lines a build said have no mark an inkjet prints, from its warnings."""
    return {(kind, float(at)) for kind, at in re.findall(r"the (vertical|horizontal) cut at ([\d.]+) mm", warnings)}


def bleed_problems(page, paper, asked, label) -> list[str]:
    """Each side of each piece gets the bleed asked where the paper has room: half the way to a
    neighbour across a gutter, up to the 5 mm margin at the block's edge, less the room of a
    mark that lies in that margin (CLEAR from it); touching pieces share a cut and get none."""
    width, height = paper
    placed = pieces(page)
    lines = marks(page)
    problems = []
    for i, piece in enumerate(placed):
        trim, ink = piece["trim"], piece["ink"]
        got = (trim[0] - ink[0], trim[1] - ink[1], ink[2] - trim[2], ink[3] - trim[3])
        for side in range(4):
            axis = side % 2
            outward = -1 if side < 2 else 1
            edge = trim[side]
            span = (trim[1 - axis], trim[3 - axis])
            room = (edge - MARGIN) if outward < 0 else ((width, height)[axis] - MARGIN - edge)
            for other in placed:   # the nearest trim across that side
                o = other["trim"]
                if other is piece or not (o[1 - axis] < span[1] - EPS and o[3 - axis] > span[0] + EPS):
                    continue
                distance = (edge - o[2 + axis]) if outward < 0 else (o[axis] - edge)
                if distance > -EPS:
                    room = min(room, distance / 2)
            for x1, y1, x2, y2 in lines:   # a mark in the margin on that side, on a line across it
                mark_axis = 0 if abs(y1 - y2) < EPS else 1   # the axis the mark runs along
                if mark_axis != axis:
                    continue
                lo, hi = sorted(((x1, x2), (y1, y2))[axis])
                pos = (y1, x1)[axis]
                if not (span[0] - EPS <= pos <= span[1] + EPS):
                    continue
                distance = (edge - hi) if outward < 0 else (lo - edge)
                if distance > EPS and not any(o["trim"][axis] - EPS <= (lo + hi) / 2 <= o["trim"][2 + axis] + EPS
                                              for o in placed):
                    room = min(room, distance - CLEAR)
            wanted = max(0.0, min(asked, room))
            if got[side] < wanted - 0.05:
                problems.append(f"{label}: piece {i + 1} has {got[side] / MM:.2f} mm bleed at its "
                                f"{('left', 'bottom', 'right', 'top')[side]}, where {wanted / MM:.2f} mm fit")
    return problems


def most_that_fit(paper, piece) -> int:
    """The most pieces of this size inside the 5 mm margin, upright or turned, touching."""
    room = (paper[0] - 2 * MARGIN, paper[1] - 2 * MARGIN)
    return max(int((room[0] + 0.01) // w) * int((room[1] + 0.01) // h) for w, h in (piece, piece[::-1]))


def check_backs(front, back, paper, duplex, offset, label) -> list[str]:
    """Each back where its front lands when the sheet is turned, and turned as its front is, the
    other way round (the sheet's turn mirrors it), so its top lies behind the front's top: a
    sheet turned over its short edge turns the backs a half turn more."""
    front_pieces, back_pieces = pieces(front), pieces(back)
    fronts, backs = [p["trim"] for p in front_pieces], [p["trim"] for p in back_pieces]
    if len(fronts) != len(backs):
        return [f"{label}: {len(fronts)} fronts but {len(backs)} backs"]
    problems = []
    for i, (f, b) in enumerate(zip(front_pieces, back_pieces)):
        if b["quarter"] != ((2 if duplex == "short-edge" else 0) - f["quarter"]) % 4:
            problems.append(f"{label}: back {i + 1} turned {b['quarter']} quarters, its front {f['quarter']}")
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
    across = bool(fronts) and abs(fronts[0]["trim"][0] - backs[0]["trim"][0]) < EPS and \
        abs(fronts[0]["trim"][1] - backs[0]["trim"][1]) > EPS
    width, height = page.mediabox.width, page.mediabox.height
    for i, (front, back) in enumerate(zip(fronts, backs)):
        f, b = front["trim"], back["trim"]
        expected = (2 - front["quarter"]) % 4 if across else (-front["quarter"]) % 4
        if back["quarter"] != expected:
            problems.append(f"{label}: fold back {i + 1} turned {back['quarter']} quarters, not {expected}")
        if across:
            ok = abs(f[0] - b[0]) < EPS and abs((f[1] + f[3]) / 2 + (b[1] + b[3]) / 2 - float(height)) < EPS
        else:
            ok = abs(f[1] - b[1]) < EPS and abs((f[0] + f[2]) / 2 + (b[0] + b[2]) / 2 - float(width)) < EPS
        if not ok:
            problems.append(f"{label}: fold back {i + 1} not opposite its front")
    return problems


_TILE = re.compile(rb"n (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re W\* n\n1 0 0 1 (-?[\d.]+) (-?[\d.]+) cm\n/FormXob\.board Do")


def check_board_tile(page, paper, board, label, bleed: float = 0.0) -> list[str]:
    """The print checks of one sheet of a tiled board: the board's own edges on it (where the
    window shows the board's first or last column or row) are cut lines, each with a mark an
    inkjet prints at both ends, every mark CLEAR of the art (with a `bleed`, the art runs
    that far past those edges) and inside the 5 mm margin; the window's other edges lie under
    a neighbour and are not cut there."""
    found = _TILE.search(page.get_contents().get_data())
    if found is None:
        return [f"{label}: no board window found"]
    x, y, w, h, tx, ty = (float(v) for v in found.groups())
    window = (x, y, x + w, y + h)
    tiled = (board[0] + 2 * bleed, board[1] + 2 * bleed)   # the board and its bleed
    start_x, start_y = x - tx, y - ty   # where the window starts on the tiled area
    first_col, last_col = start_x <= EPS, start_x + w >= tiled[0] - EPS
    first_row, last_row = start_y <= EPS, start_y + h >= tiled[1] - EPS
    trim = (window[0] + bleed * first_col, window[1] + bleed * first_row,
            window[2] - bleed * last_col, window[3] - bleed * last_row)
    inside = [("vertical", trim[0] / MM)] if not first_col else []
    inside += [("vertical", trim[2] / MM)] if not last_col else []
    inside += [("horizontal", trim[1] / MM)] if not first_row else []
    inside += [("horizontal", trim[3] / MM)] if not last_row else []
    art = {"trim": trim, "ink": window, "notches": []}
    lines = marks(page)
    problems = []
    for line in lines:
        problems += mark_problems(line, [art], label)
        if min(line[0], line[2]) < MARGIN - EPS or max(line[0], line[2]) > paper[0] - MARGIN + EPS or \
                min(line[1], line[3]) < MARGIN - EPS or max(line[1], line[3]) > paper[1] - MARGIN + EPS:
            problems.append(f"{label}: mark {line} in the 5 mm margin")
    return problems + cut_line_problems([art], lines, paper, label, inside)
