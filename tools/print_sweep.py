"""Build the bundled games with every print option and check the print geometry of every page.

    .venv/bin/python tools/print_sweep.py [--out DIR] [--jobs N] [--game ID ...] [--quick]

Reads only the output (content-stream positions, font dictionaries, boxes, PNG pixels), so it
checks what a printer gets. Problems are printed one a line; the exit status is 1 if any.

Checks on every sheet of a tiled board: each edge of the board itself on it marked at both ends
past an inkjet's margin, every mark 1 mm clear of the art. Checks on every home deck page: no piece's ink inside another piece's trim; every cut mark
outside every bleed and trim and inside the 5 mm margin; every cut line of a piece on the page
with a mark of at least 3 mm visible to an inkjet that cannot print the outer 6.35 mm, at both
ends; every back where its front's card lands when the sheet is turned (with the offset). On
every PDF: fonts embedded, numbers finite, TrimBox inside BleedBox inside MediaBox, print
scaling off for home files. On shop files: PNG bleed filled, a manifest, DriveThruCards' PDF/X
keys and CMYK only.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import re
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pypdf
import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
from print_checks import (EPS, MM, bleed_problems, check_backs, check_board_tile, check_deck_page,  # noqa: E402
                          check_fold, excused_cuts, most_that_fit, pieces)
from print_games import GAMES as TEST_GAMES, write_games  # noqa: E402
GAMES = ["12th-player", "jukem", "big-ten", "monster-ball"]
PAPERS = {"letter": (612.0, 792.0), "a4": (595.2756, 841.8898)}
BLEEDS = {"none": [], "3mm": ["--bleed"], "1/8in": ["--bleed", "1/8in"]}
SHOPS = ["tgc", "mpc", "drivethru", "tts", "ttp"]

def embedded(font) -> bool:
    descriptor = font.get("/FontDescriptor")
    if font.get("/Subtype") == "/Type0":
        descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
    if font.get("/Subtype") == "/Type3":
        return True
    descriptor = descriptor.get_object() if descriptor is not None else {}
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


_STRING = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>")
_BAD_NUMBER = re.compile(rb"(?<![A-Za-z_/#.])(?:nan|-?inf)(?![A-Za-z_])", re.I)


def check_pdf(path: Path, home: bool) -> list[str]:
    problems = []
    reader = pypdf.PdfReader(str(path))
    seen = set()

    def visit(resources, where):
        if resources is None:
            return
        resources = resources.get_object()
        for ref in (resources.get("/Font") or {}).values():
            font = ref.get_object()
            if not embedded(font):
                problems.append(f"{path.name} {where}: font {font.get('/BaseFont')} not embedded")
        for name, ref in (resources.get("/XObject") or {}).items():
            xobject = ref.get_object()
            key = getattr(ref, "idnum", None) or id(xobject)
            if key in seen or xobject.get("/Subtype") != "/Form":
                continue
            seen.add(key)
            if _BAD_NUMBER.search(_STRING.sub(b"", xobject.get_data())):
                problems.append(f"{path.name} {where} form {name}: a number that is not finite")
            visit(xobject.get("/Resources"), where)

    for number, page in enumerate(reader.pages, start=1):
        where = f"page {number}"
        visit(page.get("/Resources"), where)
        contents = page.get_contents()
        if contents is not None and _BAD_NUMBER.search(_STRING.sub(b"", contents.get_data())):
            problems.append(f"{path.name} {where}: a number that is not finite")
        for annotation in page.get("/Annots") or []:
            appearance = (annotation.get_object().get("/AP") or {}).get("/N")
            if appearance is not None and hasattr(appearance.get_object(), "get"):
                visit(appearance.get_object().get("/Resources"), where + " field")
        media = [float(v) for v in page.mediabox]
        boxes = [media]
        for name in ("/BleedBox", "/TrimBox"):
            if name in page:
                boxes.append([float(v) for v in page[name]])
        if not all(math.isfinite(v) for box in boxes for v in box):
            problems.append(f"{path.name} {where}: a box that is not finite")
        for outer, inner in zip(boxes, boxes[1:]):
            if inner[0] < outer[0] - EPS or inner[1] < outer[1] - EPS or inner[2] > outer[2] + EPS or inner[3] > outer[3] + EPS:
                problems.append(f"{path.name} {where}: boxes not nested {outer} {inner}")
    form = reader.trailer["/Root"].get("/AcroForm")
    if form is not None and form.get_object().get("/DR") is not None:
        visit(form.get_object()["/DR"], "form fields")
    if home:
        preferences = reader.trailer["/Root"].get("/ViewerPreferences")
        if preferences is None or preferences.get_object().get("/PrintScaling") != "/None":
            problems.append(f"{path.name}: no PrintScaling None")
    return problems


def deck_ids(root: Path, game: str) -> dict[str, dict]:
    """Component id -> its settings, with 'kind' 'deck+back' for decks that have backs."""
    data = yaml.safe_load((root / "card_data" / game / "game.yaml").read_text())
    return {c["id"]: {**c, "kind": c["kind"] + ("+back" if c.get("back") else "")} for c in data["components"]}


def sheet_problems(page, paper, bleed, settings, label, excused, full: bool) -> list[str]:
    """The print checks of one home sheet, and on a full sheet its bleed side by side (a part
    filled sheet keeps the bleed of the full one beside its empty slots)."""
    problems = check_deck_page(page, paper, label, excused)
    asked = {"none": 0.0, "3mm": 3 * MM, "1/8in": 0.125 * 72}[bleed]
    if asked and full:
        problems += bleed_problems(page, paper, asked, label)
    return problems


def variant(paper, bleed, duplex, offset, ink) -> tuple[list[str], str]:
    args = ["--paper", paper, *BLEEDS[bleed], "--duplex", duplex]
    if offset:
        args += ["--back-offset", offset]
    if ink:
        args += ["--ink-saver"]
    return args, f"{paper}-{bleed.replace('/', '')}-{duplex}-{'off' if offset else 'on'}-{'ink' if ink else 'full'}"


def sweep_home(job) -> list[str]:
    game, paper, bleed, duplex, offset, ink, out, root = job
    root = Path(root)
    args, tag = variant(paper, bleed, duplex, offset, ink)
    folder = Path(out) / tag
    result = subprocess.run([str(REPO / ".venv/bin/pnp"), "build", "--game", game, "--out", str(folder), "-q",
                             "--root", str(root), *args], capture_output=True, text=True)
    label = f"{game} {' '.join(args)}"
    if result.returncode != 0:
        if "sheet layout" in result.stderr and "paper, not" in result.stderr:
            return []   # a sheet layout made for the other paper: refused, as it should be
        if duplex == "fold" and "does not fit on half a sheet" in result.stderr:
            return []   # a piece too big to fold: refused with the modes that print it
        return [f"{label}: build failed: {result.stderr.strip()[-400:]}"]
    excused = excused_cuts(result.stderr)
    problems = []
    components = deck_ids(root, game)
    kinds = {c: settings["kind"] for c, settings in components.items()}
    offset_xy = tuple(float(v) * MM for v in offset.split(",")) if offset else (0.0, 0.0)
    for path in sorted((folder / game).glob("*.pdf")):
        problems += [f"{label}: {p}" for p in check_pdf(path, home=True)]
        component = next((c for c in kinds if path.name.startswith(f"{c}-{paper}")), None)
        if component is not None and kinds[component] == "board":   # the tiles: the board's own edges marked
            whole = pypdf.PdfReader(str(next((folder / game).glob(f"{component}-whole*.pdf")))).pages[0].mediabox
            board = (float(whole.width), float(whole.height))
            problems += [f"{label}: {p}" for n, page in enumerate(pypdf.PdfReader(str(path)).pages[1:], start=2)
                         for p in check_board_tile(page, PAPERS[paper], board, f"{path.name} p{n}")]
            continue
        if component is None or not kinds[component].startswith("deck"):
            continue
        reader = pypdf.PdfReader(str(path))
        paper_size = PAPERS[paper]
        pages = list(reader.pages)
        if duplex == "fold":
            for n, page in enumerate(pages):
                size = (float(page.mediabox.width), float(page.mediabox.height))
                problems += [f"{label}: {path.name} p{n + 1}: {p}"
                             for p in sheet_problems(page, size, bleed, components[component], "", excused,
                                                     n < len(pages) - 1)]
                if kinds[component] == "deck+back":
                    problems += [f"{label}: {path.name} p{n + 1}: {p}" for p in check_fold(page, size, "")]
            continue
        step = 2 if kinds[component] == "deck+back" else 1
        settings = components[component]
        if not settings.get("sheet") and not settings.get("gap") and len(pages) > step:   # a full first sheet
            size = [p["trim"] for p in pieces(pages[0])][0]
            most = most_that_fit(paper_size, (size[2] - size[0], size[3] - size[1]))
            if len(pieces(pages[0])) < most:
                problems.append(f"{label}: {path.name}: {len(pieces(pages[0]))} pieces a sheet, {most} fit")
        for n in range(0, len(pages), step):
            problems += [f"{label}: {p}" for p in sheet_problems(pages[n], paper_size, bleed, settings,
                                                                 f"{path.name} p{n + 1}", excused,
                                                                 n + step < len(pages))]
            if step == 2:
                # backs carry no marks: the sheet is cut from the front
                problems += [f"{label}: {p}" for p in check_deck_page(pages[n + 1], paper_size, f"{path.name} p{n + 2}",
                                                                      shifted=max(map(abs, offset_xy)))
                             if "cut line" not in p]
                problems += [f"{label}: {p}" for p in
                             check_backs(pages[n], pages[n + 1], paper_size, duplex, offset_xy, f"{path.name} p{n + 1}")]
    return problems


def sweep_shop(job) -> list[str]:
    game, shop, out, root = job
    folder = Path(out) / f"shop-{shop}"
    result = subprocess.run([str(REPO / ".venv/bin/pnp"), "build", "--game", game, "--out", str(folder), "-q",
                             "--root", str(root), "--shop", shop], capture_output=True, text=True)
    label = f"{game} --shop {shop}"
    if result.returncode != 0:
        return [f"{label}: build failed: {result.stderr.strip()[-400:]}"]
    problems = []
    shop_folder = folder / game / shop
    if shop in ("tgc", "mpc", "drivethru"):
        manifest = shop_folder / "manifest.csv"
        if "takes none of" in result.stderr and not shop_folder.exists():
            pass   # the shop prints none of these pieces: said so, and no empty order written
        elif not manifest.is_file():
            problems.append(f"{label}: no manifest.csv")
        else:
            rows = list(csv.DictReader(manifest.open()))
            if not rows or list(rows[0]) != ["file", "card", "quantity", "back"]:
                problems.append(f"{label}: manifest columns {list(rows[0]) if rows else None}")
    if shop in ("tgc", "mpc"):
        from PIL import Image
        for png in sorted(shop_folder.rglob("*.png")):
            with Image.open(png) as image:
                rgba = image.convert("RGBA")
                w, h = rgba.size
                radius_free = [(w // 2, 1), (w - 2, h // 2), (w // 2, h - 2), (1, h // 2)]
                for p in radius_free:
                    r, g, b, a = rgba.getpixel(p)
                    if a < 255 or (r, g, b) == (255, 255, 255):
                        problems.append(f"{label}: {png.relative_to(folder)} bleed not filled at {p}")
                        break
    if shop == "drivethru":
        from pdfx_preflight import preflight_pdfx
        for path in sorted(shop_folder.glob("*.pdf")):
            problems += [f"{label}: {path.name}: {p}" for p in preflight_pdfx(pypdf.PdfReader(str(path)))]
            problems += [f"{label}: {p}" for p in check_pdf(path, home=False)]
    for path in sorted((folder / game).glob("*.pdf")):
        problems += [f"{label}: {p}" for p in check_pdf(path, home=True)]
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/pnp-print-sweep")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--game", action="append")
    parser.add_argument("--quick", action="store_true", help="long-edge, none and fold only; no shops")
    parser.add_argument("--no-test-games", action="store_true", help="the bundled games only")
    args = parser.parse_args()
    test_root = write_games(Path(args.out) / "print-games")   # tests/print_games.py: sixteen games of odd sizes
    roots = {game: str(REPO) for game in GAMES}
    if not args.no_test_games:
        roots.update({game: str(test_root) for game in TEST_GAMES})
    games = args.game or list(roots)
    duplexes = ["long-edge", "none", "fold"] if args.quick else ["long-edge", "short-edge", "none", "fold"]
    jobs = []
    for game, paper, bleed, duplex in itertools.product(games, PAPERS, BLEEDS, duplexes):
        root = roots.get(game, str(test_root))
        jobs.append((game, paper, bleed, duplex, None, False, args.out, root))
        if duplex != "fold" and not args.quick:
            jobs.append((game, paper, bleed, duplex, "1.5,-1", duplex == "none", args.out, root))
        if duplex == "fold" and not args.quick:
            jobs.append((game, paper, bleed, duplex, None, True, args.out, root))
    shop_jobs = [] if args.quick else [(game, shop, args.out, roots.get(game, str(test_root)))
                                       for game in games for shop in SHOPS]
    problems = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for found in list(pool.map(sweep_home, jobs)) + list(pool.map(sweep_shop, shop_jobs)):
            problems += found
    for problem in problems:
        print(problem)
    print(f"{len(jobs)} home builds, {len(shop_jobs)} shop builds: {len(problems)} problems", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
