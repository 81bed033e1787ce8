"""The sixteen print test games (tests/print_games.py) built on Letter and A4, with and without
a bleed, in every duplex mode, and every home sheet read back: each mark's gap to every trim
and bleed, each cut line marked at both ends past an inkjet's margin (or named by the build),
the bleed on each side of each piece, backs behind their fronts and turned with them, and the
pieces a sheet against the most that fit."""

from __future__ import annotations

import pypdf
import pytest

from conftest import MM, run
from print_checks import (_TILE, bleed_problems, check_backs, check_board_tile, check_deck_page, check_fold, excused_cuts,
                          marks, most_that_fit, pieces)
from print_games import GAMES, write_games

PAPERS = {"letter": (612.0, 792.0), "a4": (595.2756, 841.8898)}
DUPLEXES = {"long-edge": "", "short-edge": "-short-edge", "none": "-no-duplex", "fold": "-fold"}
# every bundled size (the shop game's five card sizes, tokens) in every duplex mode; the
# other games in the usual one
EVERY_MODE = ["shop", "round-tokens"]


def variants(game: str):
    paper_of = GAMES[game][0]
    sheet = any(deck.get("sheet") for deck in GAMES[game][1])
    for paper in ([paper_of] if sheet else PAPERS):
        for bleed in ("", "-bleed"):
            for duplex in (DUPLEXES if game in EVERY_MODE else ["long-edge"]):
                yield paper, bleed, duplex


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """game -> (paper, bleed, duplex) -> (output folder, the build's warnings)."""
    root = write_games(tmp_path_factory.mktemp("games"))
    out = tmp_path_factory.mktemp("out")
    found: dict = {}
    for game in GAMES:
        if game == "board-600x430":
            continue
        for paper, bleed, duplex in variants(game):
            folder = out / f"{paper}{bleed}-{duplex}"
            args = ["--paper", paper, "--duplex", duplex] + (["--bleed"] if bleed else [])
            result = run("build", "--game", game, "--out", str(folder), "-q", *args, root=root)
            assert result.exit_code == 0, (game, args, result.stderr)
            found.setdefault(game, {})[(paper, bleed, duplex)] = (folder / game, result.stderr)
    return found


def deck_files(folder, paper, bleed, duplex):
    suffix = DUPLEXES[duplex] + bleed
    return [p for p in sorted(folder.glob(f"*-{paper}{suffix}.pdf")) if "print-all" not in p.name
            and not p.name.startswith(("rules-", "tuck-boxes-"))]


@pytest.mark.parametrize("game", [g for g in GAMES if g != "board-600x430"])
def test_every_home_sheet_passes_the_print_checks(built, game):
    problems = []
    for (paper, bleed, duplex), (folder, warnings) in built[game].items():
        files = deck_files(folder, paper, bleed, duplex)
        assert files, (game, paper, bleed, duplex)
        for path in files:
            deck = path.name.split(f"-{paper}")[0]
            told = "\n".join(line for line in warnings.splitlines() if line.startswith(f"warning: {deck}:"))
            excused = excused_cuts(told)
            reader = pypdf.PdfReader(str(path))
            backs = next(d for d in GAMES[game][1] if d["id"] == deck).get("back")
            step = 2 if backs and duplex != "fold" else 1
            label = f"{game} {path.name}"
            for n in range(0, len(reader.pages), step):
                page = reader.pages[n]
                size = (float(page.mediabox.width), float(page.mediabox.height))
                problems += check_deck_page(page, size, f"{label} p{n + 1}", excused)
                if bleed and n + step < len(reader.pages):   # a full sheet: each side's bleed
                    problems += bleed_problems(page, size, 3 * MM, f"{label} p{n + 1}")
                if step == 2:
                    problems += check_backs(page, reader.pages[n + 1], size, duplex, (0.0, 0.0), f"{label} p{n + 1}")
                if duplex == "fold" and backs:
                    problems += check_fold(page, size, f"{label} p{n + 1}")
    assert problems == []


@pytest.mark.parametrize("game", ["mini-41x63", "tarot-70x120", "square-70x70", "bridge-56x87", "landscape-poker",
                                  "poker", "round-tokens", "shop", "jumbo-89x140", "micro-32x44", "tile-120x120",
                                  "large-180x250"])
def test_a_sheet_holds_the_most_pieces_that_fit(built, game):
    for (paper, bleed, duplex), (folder, _) in built[game].items():
        if duplex == "fold":
            continue
        for path in deck_files(folder, paper, bleed, duplex):
            first = pieces(pypdf.PdfReader(str(path)).pages[0])
            trim = first[0]["trim"]
            size = (trim[2] - trim[0], trim[3] - trim[1])
            deck = path.name.split(f"-{paper}")[0]
            count = next(d for d in GAMES[game][1] if d["id"] == deck)["count"]
            assert len(first) == min(count, most_that_fit(PAPERS[paper], size)), (path.name, len(first))


@pytest.mark.parametrize("game, paper, deck, count, turned", [
    ("landscape-poker", "letter", "cards", 9, True), ("mini-41x63", "a4", "cards", 21, True),
    ("shop", "a4", "bridge", 10, True), ("poker", "letter", "cards", 9, False), ("poker", "a4", "cards", 9, False),
    ("shop", "letter", "poker", 9, False), ("shop", "a4", "mini", 12, False)])
def test_pieces_are_turned_only_where_more_fit(built, game, paper, deck, count, turned):
    """Landscape poker 9 on Letter (8 upright), mini 41x63 21 on A4 (16), bridge 10 on A4 (9):
    turned a quarter round; poker stays upright 3x3; a deck one sheet holds either way (the
    mini fixture's 6 cards) stays upright. Backs turn the other way round, so a back's top
    lies behind its front's top once the sheet is turned over."""
    folder, _ = built[game][(paper, "", "long-edge")]
    reader = pypdf.PdfReader(str(folder / f"{deck}-{paper}.pdf"))
    front = pieces(reader.pages[0])
    assert len(front) == min(count, next(d for d in GAMES[game][1] if d["id"] == deck)["count"])
    assert {p["quarter"] for p in front} == ({1} if turned else {0})
    assert {p["quarter"] for p in pieces(reader.pages[1])} == ({3} if turned else {0})


def test_a_game_can_pin_its_pieces_upright(tmp_path):
    root = write_games(tmp_path / "games")
    game = root / "card_data/landscape-poker/game.yaml"
    game.write_text(game.read_text().replace("kind: deck,", "kind: deck, orientation: upright,"))
    result = run("build", "--game", "landscape-poker", "--out", str(tmp_path / "out"), "-q", root=root)
    assert result.exit_code == 0, result.stderr
    placed = pieces(pypdf.PdfReader(str(tmp_path / "out/landscape-poker/cards-letter.pdf")).pages[0])
    assert len(placed) == 8 and {p["quarter"] for p in placed} == {0}
    game.write_text(game.read_text().replace("orientation: upright", "orientation: sideways"))
    bad = run("build", "--game", "landscape-poker", "--out", str(tmp_path / "out2"), root=root)
    assert bad.exit_code == 1 and "orientation" in bad.stderr and "game.yaml:" in bad.stderr


def test_a_cut_line_without_a_mark_is_named_by_the_build(built):
    """Mini 41x63 on A4: 21 a sheet leave 5 mm above and below, and the columns touch, so the
    build names each cut line that has no mark and says why; the checks find exactly those."""
    folder, warnings = built["mini-41x63"][("a4", "", "long-edge")]
    assert "the horizontal cut at 5.00 mm lies 5.00 mm from the paper's edge" in warnings
    assert "the vertical cut at 73.50 mm has no mark" in warnings
    page = pypdf.PdfReader(str(folder / "cards-a4.pdf")).pages[0]
    unexcused = check_deck_page(page, PAPERS["a4"], "mini")
    assert len([p for p in unexcused if "cut line" in p]) == len(excused_cuts(warnings)) == 6
    assert check_deck_page(page, PAPERS["a4"], "mini", excused_cuts(warnings)) == []


OPTION_SETS = [[], ["--bleed"], ["--bleed", "2mm"], ["--bleed", "--full-bleed"], ["--duplex", "short-edge"],
               ["--duplex", "none"], ["--duplex", "fold"], ["--back-offset", "1,0"], ["--ink-saver"],
               ["--ink-saver", "--bleed"], ["--draft"], ["--paper", "a4"]]


def test_no_two_option_sets_share_a_file_name(tmp_path):
    """Every file of a build whose options change it has a name of its own: a name two option
    sets both write holds the same bytes (a rule sheet is the same whatever the duplex; a whole
    board the same whatever the paper), so no build overwrites another's different file."""
    games_root = write_games(tmp_path / "games")
    from conftest import REPO
    written: dict[str, tuple[bytes, list[str]]] = {}
    clashes = []
    for number, options in enumerate(OPTION_SETS):
        out = tmp_path / f"out{number}"
        for game, root in (("12th-player", REPO), ("board-600x430", games_root)):
            result = run("build", "--game", game, "--out", str(out), "-q", *options, root=root)
            assert result.exit_code == 0, result.stderr
        for path in sorted(out.glob("*/*.pdf")):
            name = f"{path.parent.name}/{path.name}"
            data = path.read_bytes()
            if name in written and written[name][0] != data:
                clashes.append(f"{name}: {written[name][1]} and {options}")
            written.setdefault(name, (data, options))
    assert clashes == []
    assert {"board-600x430/board-whole.pdf", "board-600x430/board-whole-ink-saver.pdf",
            "board-600x430/board-whole-draft.pdf"} <= set(written)


SHOP_FIGURES = "<!-- shop figures: read by tests/test_print_games.py -->"


def shop_figures() -> list[dict]:
    """The table of each shop's published figures in docs/print-guide.md, row by row: shop,
    size, trim and bleed in inches, the picture's pixels or the page's inches, the source."""
    from conftest import REPO
    lines = (REPO / "docs/print-guide.md").read_text().split(SHOP_FIGURES, 1)[1].strip().splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        shop, size, trim, bleed, made, source = (cell.strip() for cell in line.strip("|").split("|"))
        numbers = [float(v) for v in made.split()[:3:2]]
        rows.append({"shop": shop, "size": size, "trim": tuple(float(v) for v in trim.split(" x ")),
                     "bleed": float(bleed), "pixels": numbers if made.endswith("px") else None,
                     "page": numbers if made.endswith("page") else None, "source": source})
    return rows


def test_each_shop_figure_names_its_source_or_says_there_is_none():
    rows = shop_figures()
    assert len(rows) >= 12
    for row in rows:
        assert "http" in row["source"] or row["source"].startswith("no published source found"), row


def test_each_shop_preset_holds_the_published_figures_for_every_bundled_size():
    """pnp/shops/*.yaml against the table: the same sizes, the same bleed, the same pixels (for
    DriveThruCards the page at 300 dpi), each trim the size pnp bundles under that name."""
    import yaml
    from conftest import REPO
    from pnp.config.size import CARD_SIZES
    rows = shop_figures()
    for shop in ("tgc", "mpc", "drivethru"):
        preset = yaml.safe_load((REPO / f"pnp/shops/{shop}.yaml").read_text())
        mine = {row["size"]: row for row in rows if row["shop"] == shop}
        assert set(preset["sizes"]) == set(mine), shop
        for size, pixels in preset["sizes"].items():
            row = mine[size]
            assert [round(v / 25.4, 3) for v in CARD_SIZES[size]] == list(row["trim"]), (shop, size)
            assert float(preset["bleed"].removesuffix("in")) == row["bleed"], shop
            expected = row["pixels"] or [round(v * preset.get("dpi", 300)) for v in row["page"]]
            assert pixels == expected, (shop, size)
            assert expected == [round((t + 2 * row["bleed"]) * 300) for t in row["trim"]], (shop, size)


def test_a_shop_build_writes_pictures_and_pages_of_the_published_sizes(tmp_path):
    """The shop game (poker, bridge, mini, tarot, square) built for The Game Crafter,
    MakePlayingCards and DriveThruCards: every PNG has the table's pixels, every DriveThruCards
    page the table's inches with the trim inset by the bleed."""
    from PIL import Image
    root = write_games(tmp_path / "games")
    result = run("build", "--game", "shop", "--out", str(tmp_path / "out"), "-q", "--shop", "tgc", "--shop", "mpc",
                 "--shop", "drivethru", root=root)
    assert result.exit_code == 0, result.stderr
    shop_folder = tmp_path / "out/shop"
    seen = set()
    for row in shop_figures():
        folder = shop_folder / row["shop"] / row["size"]
        if row["pixels"]:
            if row["size"] == "token":
                continue   # the shop game has no tokens; the preset test holds the figure
            pictures = sorted(folder.glob("*.png"))
            assert len(pictures) == 13, (row["shop"], row["size"])   # 12 faces and a back
            for picture in pictures:
                with Image.open(picture) as image:
                    assert list(image.size) == row["pixels"], picture.name
        else:
            reader = pypdf.PdfReader(str(shop_folder / row["shop"] / f"{row['size']}.pdf"))
            w, h = row["page"]
            b = row["bleed"]
            for page in reader.pages:
                assert [round(float(v) / 72, 4) for v in page.mediabox] == [0, 0, w, h], row["size"]
                assert [round(float(v) / 72, 4) for v in page.trimbox] == [b, b, w - b, h - b], row["size"]
        seen.add((row["shop"], row["size"]))
    assert len(seen) == 12


@pytest.mark.parametrize("paper", PAPERS)
def test_full_bleed_gives_every_side_the_whole_bleed_at_the_cost_of_pieces(tmp_path, paper):
    """--bleed 3mm --full-bleed: gutters of 6 mm and 3 mm round the block on every piece, fewer
    pieces a sheet (the build says how many sheets it costs), every mark still 1 mm clear and
    every cut line marked; without --bleed it is a usage error."""
    root = write_games(tmp_path / "games")
    result = run("build", "--game", "poker", "--out", str(tmp_path / "out"), "--paper", paper, "--bleed", "3mm",
                 "--full-bleed", root=root)
    assert result.exit_code == 0, result.stderr
    # 20 cards: 4 sheets of 6 on Letter instead of 3 of 9 (A4's 8 a sheet still need 3)
    assert ("cards: the 3 mm bleed costs sheets: 4 instead of 3 (6 pieces a sheet, not 9)" in result.stderr) == \
        (paper == "letter")
    page = pypdf.PdfReader(str(tmp_path / f"out/poker/cards-{paper}-bleed-full-bleed.pdf")).pages[0]
    placed = pieces(page)
    assert len(placed) < 9
    for piece in placed:
        trim, ink = piece["trim"], piece["ink"]
        assert [round(v / MM, 2) for v in (trim[0] - ink[0], trim[1] - ink[1], ink[2] - trim[2], ink[3] - trim[3])] \
            == [3.0] * 4
    assert check_deck_page(page, PAPERS[paper], paper) == []
    usage = run("build", "--game", "poker", "--out", str(tmp_path / "out2"), "--full-bleed", root=root)
    assert usage.exit_code == 2 and "--full-bleed" in usage.stderr


@pytest.mark.parametrize("bleed", [0, 3])
@pytest.mark.parametrize("paper", PAPERS)
def test_a_tiled_board_marks_its_own_edges_on_every_sheet(tmp_path, paper, bleed):
    """A 600 x 430 mm board over several sheets: on each sheet every edge of the board itself is
    a cut line with a mark at both ends that an inkjet prints (3 mm past 6.35 mm), each mark
    1 mm clear of the art; every edge of the board is marked on some sheet. With --bleed the
    art runs 3 mm past those edges (it stopped on them: a cut a hair off showed white) and the
    marks stand on the edges, clear of it."""
    root = write_games(tmp_path / "games")
    extra = ["--bleed"] if bleed else []
    result = run("build", "--game", "board-600x430", "--out", str(tmp_path / "out"), "--paper", paper, "-q",
                 *extra, root=root)
    assert result.exit_code == 0, result.stderr
    suffix = "-bleed" if bleed else ""
    reader = pypdf.PdfReader(str(tmp_path / f"out/board-600x430/board-{paper}{suffix}.pdf"))
    tiles = reader.pages[1:]
    assert len(tiles) >= 6
    problems = []
    for n, page in enumerate(tiles, start=2):
        problems += check_board_tile(page, PAPERS[paper], (600 * MM, 430 * MM), f"board-{paper} p{n}", bleed * MM)
    assert problems == []
    if bleed:   # the first sheet: its left marks stand 3 mm inside the art's left edge
        window = _TILE.search(tiles[0].get_contents().get_data())
        left_edge = float(window.group(1))
        verticals = sorted(x1 for x1, _, x2, _ in marks(tiles[0]) if x1 == x2)
        assert abs(verticals[0] - left_edge - 3 * MM) < 0.05, (verticals[0], left_edge)
    marked = [line for page in tiles for line in marks(page)]
    # the first sheet (A1) holds the board's top-left corner: its left and top edges are marked
    first = marks(tiles[0])
    assert {"vertical" if x1 == x2 else "horizontal" for x1, _, x2, _ in first} == {"vertical", "horizontal"}
    assert len(marked) >= 4 * 4   # four edges, each with a mark at both ends on every sheet it crosses


def test_a_board_on_one_sheet_says_so_on_its_first_page(tmp_path):
    """A board small enough for one sheet: its first page said "how the 1 sheets fit
    together" and asked to trim each other sheet."""
    root = write_games(tmp_path / "games")
    layout = root / "layouts/print/board.yaml"
    layout.write_text(layout.read_text().replace("size: [600mm, 430mm]", "size: [150mm, 100mm]"))
    result = run("build", "--game", "board-600x430", "--out", str(tmp_path / "out"), "-q", root=root)
    assert result.exit_code == 0, result.stderr
    reader = pypdf.PdfReader(str(tmp_path / "out/board-600x430/board-letter.pdf"))
    first = " ".join(reader.pages[0].extract_text().split())
    assert len(reader.pages) == 2 and "on one sheet" in first
    assert "sheets fit together" not in first and "each other sheet" not in first
