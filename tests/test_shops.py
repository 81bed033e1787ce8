"""Print-shop outputs: pixel sizes per preset, the DriveThruCards PDF, safe-zone warnings,
and presets as data."""

from __future__ import annotations

import csv

import pytest
from PIL import Image

from conftest import MM, REPO, build, embedded, pdf, placements, render_png, run
from pdfx_preflight import preflight_pdfx

SIZES = {"poker": (825, 1125), "bridge": (750, 1125), "mini": (600, 825), "tarot": (900, 1500),
         "square": (1125, 1125)}


def shop_build(mini, tmp_path, *shops, size: str | None = None):
    if size:
        game = mini / "card_data/mini/game.yaml"
        game.write_text(game.read_text().replace("    front: mini/card\n", f"    front: mini/card\n    size: {size}\n"))
    args = [arg for shop in shops for arg in ("--shop", shop)]
    result = run("build", "--game", "mini", "--out", str(tmp_path), *args, root=mini)
    assert result.exit_code == 0, result.stderr
    return result


@pytest.mark.parametrize("size", SIZES)
def test_tgc_pngs_have_the_pixel_size_tgc_asks_for(mini, tmp_path, size):
    shop_build(mini, tmp_path, "tgc", size=size)
    folder = tmp_path / "mini/tgc/cards"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["cards-001-front-x4.png", "cards-002-front-x2.png", "cards-back-1.png"]
    for name in names:
        with Image.open(folder / name) as image:
            assert image.size == SIZES[size]
            assert round(image.info["dpi"][0]) == 300


def test_the_ink_saver_pales_the_home_pdf_but_never_a_shops_files(mini, tmp_path):
    """--ink-saver is for a home printer: with --shop too, the shop still gets full colour."""
    build(mini, "mini", tmp_path, "--ink-saver", "--shop", "tgc")
    with Image.open(tmp_path / "mini/tgc/cards/cards-001-front-x4.png") as image:
        middle = image.convert("RGB").getpixel((image.width // 2, image.height * 3 // 4))
    assert middle == (0x22, 0x44, 0x66)   # the card's own colour, filled
    home = render_png(tmp_path / "mini/cards-a4-ink-saver.pdf", 0).convert("RGB")
    x, y, w, h = placements(pdf(tmp_path / "mini/cards-a4-ink-saver.pdf").pages[0])[0]
    assert home.getpixel((round(x + w / 2), round(home.height - (y + h / 4)))) == (255, 255, 255)   # an outline at home


def test_mpc_poker_pngs(mini, tmp_path):
    shop_build(mini, tmp_path, "mpc", size="poker")
    with Image.open(tmp_path / "mini/mpc/cards/cards-001-front-x4.png") as image:
        assert image.size == (822, 1122)


def test_pngs_are_pictures_of_the_same_drawing_as_the_pdf(mini, tmp_path):
    """The card's background colour fills the PNG into the bleed, as in the PDF."""
    shop_build(mini, tmp_path, "tgc")
    with Image.open(tmp_path / "mini/tgc/cards/cards-001-front-x4.png") as image:
        assert image.getpixel((2, 2)) == (0x22, 0x44, 0x66)
        assert image.getpixel((image.width // 2, image.height - 3)) == (0x22, 0x44, 0x66)


def test_a_shop_gets_one_picture_of_each_card_however_many_copies_it_has(mini, tmp_path):
    """Four Knights and two Bishops: two fronts, the Knight's marked x4, the Bishop's x2, and
    the Bishop's is a picture of the Bishop (not a second Knight)."""
    shop_build(mini, tmp_path, "tgc")
    folder = tmp_path / "mini/tgc/cards"
    assert sorted(path.name for path in folder.glob("*-front*.png")) == ["cards-001-front-x4.png",
                                                                         "cards-002-front-x2.png"]
    with Image.open(folder / "cards-001-front-x4.png") as knight, Image.open(folder / "cards-002-front-x2.png") as bishop:
        assert knight.tobytes() != bishop.tobytes(), "the second front is a picture of the first card"
    rows = list(csv.reader((tmp_path / "mini/tgc/manifest.csv").open(encoding="utf-8")))
    assert [row[1:3] for row in rows[1:]] == [["Knight", "4"], ["Bishop", "2"]]


def test_drivethru_pdf_orders_back_front_with_trim_and_bleed_boxes(mini, tmp_path):
    shop_build(mini, tmp_path, "drivethru")
    reader = pdf(tmp_path / "mini/drivethru/cards.pdf")
    assert len(reader.pages) == 12                       # 6 cards, back then front
    for index, page in enumerate(reader.pages):
        text = page.extract_text()
        assert ("MINI" in text) == (index % 2 == 0)
        bleed = 0.125 * 72
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in page.trimbox]
        assert [round(v, 2) for v in page.bleedbox] == [round(v, 2) for v in media]
        assert [round(v, 2) for v in trim] == [round(bleed, 2), round(bleed, 2),
                                               round(bleed + 44.45 * MM, 2), round(bleed + 63.5 * MM, 2)]
    assert "Knight" in reader.pages[1].extract_text() and "Bishop" in reader.pages[11].extract_text()


def test_text_outside_the_safe_zone_is_named(mini, tmp_path):
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text().replace("    align: center\n    y: 5mm", "    align: left\n    y: 1mm", 1))
    result = shop_build(mini, tmp_path, "tgc")
    assert "layouts/mini/card.yaml:7: text 'Knight' comes closer than 3.2 mm to the trim" in result.stderr


@pytest.mark.parametrize("valign, warned", [("middle", False), ("top", True)])
def test_turned_text_is_judged_by_where_its_lines_print(mini, tmp_path, valign, warned):
    """A word turned a quarter in the middle of the card is far from the trim (the trial's
    back was warned about by its box, the whole card); set at the top of its turned box, it
    prints along the card's left edge, and is warned about."""
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + f"  - {{kind: text, text: SIDEWAYS, rotate: 90, align: center, "
                                           f"valign: {valign}, size: 12}}\n")
    result = shop_build(mini, tmp_path, "tgc")
    assert ("text 'SIDEWAYS' comes closer than 3.2 mm to the trim" in result.stderr) == warned, result.stderr


def test_a_shop_preset_is_data_in_the_roots_shops_folder(mini, tmp_path):
    (mini / "shops").mkdir()
    (mini / "shops/proofer.yaml").write_text("name: Proofer\nformat: png\ndpi: 100\nbleed: 0.1in\n")
    shop_build(mini, tmp_path, "proofer")
    with Image.open(tmp_path / "mini/proofer/cards/cards-002-front-x2.png") as image:
        assert image.size == (round((1.75 + 0.2) * 100), round((2.5 + 0.2) * 100))


def test_an_unknown_shop_is_a_usage_error(mini):
    result = run("build", "--game", "mini", "--shop", "tcg", root=mini)
    assert result.exit_code == 2
    assert "unknown shop 'tcg'; did you mean 'tgc'?" in result.stderr


def test_boards_come_whole_as_png_for_tgc(tmp_path):
    from conftest import REPO
    import shutil
    root = tmp_path / "root"
    for folder in ("card_data", "layouts", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    (root / "shops").mkdir()
    (root / "shops/lowres.yaml").write_text("name: Low\nformat: png\ndpi: 20\nbleed: 0.125in\nboards: true\n")
    result = run("build", "--game", "big-ten", "--out", str(tmp_path / "out"), "--shop", "lowres", root=root)
    assert result.exit_code == 0, result.stderr
    with Image.open(tmp_path / "out/big-ten/lowres/board.png") as image:
        assert image.size == (24 * 20, 18 * 20)


@pytest.fixture(scope="module")
def tgc_built(tmp_path_factory):
    """Monster Ball and Big Ten built for The Game Crafter (every kind of piece a shop takes as
    pictures), once for the tests that read them: the bundled preset as a project's own, at
    60 DPI instead of 300 (the files and their bleed are the same, a twenty-fifth of the pixels;
    the real sizes are tested on their own)."""
    import shutil
    root = tmp_path_factory.mktemp("tgc") / "root"
    for folder in ("card_data", "layouts", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    (root / "shops").mkdir()
    preset = (REPO / "pnp/shops/tgc.yaml").read_text()
    (root / "shops/tgc.yaml").write_text(preset.replace("dpi: 300", "dpi: 60").split("sizes:")[0])
    out = root.parent / "out"
    for game in ("monster-ball", "big-ten"):
        build(root, game, out, "--shop", "tgc")
    return out


def test_each_shop_export_has_a_manifest_of_file_card_quantity_and_back(tgc_built, tmp_path):
    build(REPO, "jukem", tmp_path, "--shop", "drivethru")
    folder = tgc_built / "monster-ball" / "tgc"
    rows = list(csv.DictReader((folder / "manifest.csv").open()))
    assert rows and list(rows[0]) == ["file", "card", "quantity", "back"]
    for row in rows:
        assert (folder / row["file"]).is_file(), row
        assert not row["back"] or (folder / row["back"]).is_file(), row
    roster = [row for row in rows if row["file"].startswith("roster-cards/")]
    fronts = sorted(p.name for p in (folder / "roster-cards").glob("*-front*.png"))
    assert sorted(row["file"].split("/")[1] for row in roster) == fronts
    # roster cards have two backs, and the manifest says which front takes which
    assert {row["back"] for row in roster} == {"roster-cards/roster-cards-back-1.png",
                                               "roster-cards/roster-cards-back-2.png"}
    drivethru = list(csv.DictReader((tmp_path / "jukem" / "drivethru" / "manifest.csv").open()))
    pages = len(pdf(tmp_path / "jukem" / "drivethru" / "cards.pdf").pages)
    assert 2 * sum(int(row["quantity"]) for row in drivethru) == pages
    assert drivethru[0]["file"] == "cards.pdf page 2" and drivethru[0]["back"] == "page 1"


@pytest.mark.parametrize("shop, sizes", [("mpc", "poker, tarot"), ("drivethru", "poker, bridge, mini, tarot, square")])
def test_a_piece_the_shop_does_not_print_is_left_out_with_the_sizes_it_takes(tmp_path, shop, sizes):
    result = run("build", "--game", "monster-ball", "--out", str(tmp_path), "--shop", shop, root=REPO)
    assert result.exit_code == 0, result.stderr
    assert "game.yaml:38" in result.stderr and f"does not print token pieces; it takes {sizes}" in result.stderr
    # the game's cards still go to the shop, the tokens do not, and the manifest agrees
    shop_folder = tmp_path / "monster-ball" / shop
    rows = list(csv.DictReader((shop_folder / "manifest.csv").open()))
    assert rows and not any("tokens" in row["file"] for row in rows)
    assert not list(shop_folder.rglob("tokens*"))
    assert list(shop_folder.rglob("*.p[dn][fg]"))


@pytest.mark.parametrize("shop", ["mpc", "drivethru"])
def test_a_game_the_shop_takes_nothing_of_gets_a_warning_and_no_empty_order(tmp_path, shop):
    """Round tokens only: neither shop prints them. The build says so once and writes no
    manifest (an empty one would read as an order of nothing); the home PDF is still made."""
    from print_games import write_games
    root = write_games(tmp_path / "games")
    result = run("build", "--game", "round-tokens", "--out", str(tmp_path / "out"), "--shop", shop, root=root)
    assert result.exit_code == 0, result.stderr
    assert f"takes none of round-tokens's pieces: no {shop}/ files written" in result.stderr
    assert not (tmp_path / "out/round-tokens" / shop).exists()
    assert list((tmp_path / "out/round-tokens").glob("tokens*.pdf"))


@pytest.mark.parametrize("game", ["jukem", "12th-player", "big-ten", "monster-ball"])
def test_drivethru_pdfs_pass_a_pdfx_1a_preflight(tmp_path, game):
    import shutil
    root = tmp_path / "root"
    for folder in ("card_data", "layouts", "fonts"):
        shutil.copytree(REPO / folder, root / folder)
    (root / "shops").mkdir()   # DriveThruCards' own preset, taking Big Ten's end zones too
    preset = (REPO / "pnp/shops/drivethru.yaml").read_text() + "custom: true\n"
    (root / "shops/drivethru.yaml").write_text(preset)
    build(root, game, tmp_path, "--shop", "drivethru")
    files = sorted((tmp_path / game / "drivethru").glob("*.pdf"))
    assert files
    for path in files:
        reader = pdf(path)
        assert preflight_pdfx(reader) == [], path.name
        assert reader.pdf_header == "%PDF-1.4"


def test_the_preflight_finds_rgb_in_a_home_pdf(tmp_path):
    build(REPO, "jukem", tmp_path)
    problems = preflight_pdfx(pdf(tmp_path / "jukem" / "cards-letter.pdf"))
    assert any("RGB colour" in p for p in problems) and "0 GTS_PDFX output intents, not one" in problems
    assert "GTS_PDFXVersion is None, not 'PDF/X-1:2003'" in problems and any("TrimBox" in p for p in problems)


def test_drivethru_pdf_carries_the_pdfx_keys_as_the_standard_writes_them(tmp_path):
    """ISO 15930-4: GTS_PDFXVersion "PDF/X-1:2003", GTS_PDFXConformance "PDF/X-1a:2003",
    Trapped the name /False (not the string "(/False)"), read from the file's own bytes."""
    build(REPO, "jukem", tmp_path, "--shop", "drivethru")
    path = tmp_path / "jukem/drivethru/cards.pdf"
    info = pdf(path).trailer["/Info"].get_object()
    assert info["/GTS_PDFXVersion"] == "PDF/X-1:2003" and info["/GTS_PDFXConformance"] == "PDF/X-1a:2003"
    raw = path.read_bytes()
    assert b"/Trapped /False" in raw and b"(/False)" not in raw
    intent = pdf(path).trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "CGATS TR 001"


def test_fillable_fields_print_flat_in_a_drivethru_pdf(tmp_path):
    """Monster Ball's blank roster cards are form fields at home; in the shop's PDF/X file they
    are drawn into the page (no annotations, no AcroForm) in CMYK, so the boxes still print."""
    build(REPO, "monster-ball", tmp_path, "--shop", "drivethru")
    reader = pdf(tmp_path / "monster-ball/drivethru/blank-rosters.pdf")
    assert "/AcroForm" not in reader.trailer["/Root"]
    assert all("/Annots" not in page for page in reader.pages)
    data = reader.pages[1].get_contents().get_data()
    assert b"/Field0 Do" in data
    assert preflight_pdfx(reader) == []


def test_pdfx_black_is_black_ink_alone_and_white_is_no_ink(tmp_path):
    """What the shop's press gets for pnp's colours: black is K alone (not rich black, not
    nothing), white no ink, a grey only K; and a DriveThruCards file of Jukem, whose icons are
    black, fills them with K alone."""
    from pnp.outputs.pdfx import cmyk_colour
    inks = lambda colour: tuple(round(v, 3) for v in (colour.cyan, colour.magenta, colour.yellow, colour.black))  # noqa: E731
    assert inks(cmyk_colour("#000000")) == (0, 0, 0, 1)
    assert inks(cmyk_colour("#ffffff")) == (0, 0, 0, 0)
    assert inks(cmyk_colour("#808080")) == (0, 0, 0, 0.498)
    build(REPO, "jukem", tmp_path, "--shop", "drivethru")
    reader = pdf(tmp_path / "jukem/drivethru/cards.pdf")
    forms = reader.pages[1]["/Resources"]["/XObject"]
    drawn = b"".join(form.get_object().get_data() for form in forms.values())
    assert b"0 0 0 1 k" in drawn


def test_pdfx_images_are_flattened_onto_white_and_turned_cmyk():
    from pnp.outputs.pdfx import cmyk_image
    image = Image.new("RGBA", (2, 1))
    image.putpixel((0, 0), (255, 0, 0, 255))
    image.putpixel((1, 0), (0, 0, 255, 0))   # fully transparent: white paper
    converted = cmyk_image(image)
    assert converted.mode == "CMYK"
    assert converted.getpixel((0, 0)) == (0, 255, 255, 0) and converted.getpixel((1, 0)) == (0, 0, 0, 0)


def test_every_shop_png_has_its_bleed_filled_for_every_piece_kind(tgc_built):
    fronts = sorted(tgc_built.glob("*/tgc/*/*-front*.png"))
    kinds = {path.parent.name for path in fronts}
    assert {"tokens", "end-zones", "roster-cards", "offense"} <= kinds
    white = (255, 255, 255)
    for path in fronts:
        with Image.open(path) as image:
            image = image.convert("RGB")
            w, h = image.size
            band = [(1, 1), (w // 2, 1), (w - 2, h // 2), (1, h - 2), (w - 2, h - 2)]   # inside the bleed
            assert all(image.getpixel(p) != white for p in band), path.name


def test_drivethru_turns_pictures_svg_and_see_through_shapes_into_plain_cmyk(mini, tmp_path):
    """The bundled games have no pictures: a deck with a see-through RGB PNG, an SVG and a
    half-opaque box still passes the preflight, its picture a DeviceCMYK image with no mask."""
    import io
    folder = mini / "card_data/mini"
    picture = Image.new("RGBA", (16, 16), (0, 160, 60, 255))
    picture.putpixel((0, 0), (255, 0, 0, 0))
    data = io.BytesIO()
    picture.save(data, "PNG")
    (folder / "art.png").write_bytes(data.getvalue())
    (folder / "mark.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                     '<rect width="10" height="10" fill="#d01010"/></svg>')
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text()
                      + "  - {kind: image, src: art.png, x: 4mm, y: 20mm, w: 10mm, h: 10mm}\n"
                      + "  - {kind: image, src: mark.svg, x: 20mm, y: 20mm, w: 10mm, h: 10mm}\n"
                      + "  - {kind: box, x: 4mm, y: 4mm, w: 10mm, h: 10mm, fill: '#ff8800', opacity: 0.5}\n")
    shop_build(mini, tmp_path, "drivethru")
    reader = pdf(tmp_path / "mini/drivethru/cards.pdf")
    assert preflight_pdfx(reader) == []
    spaces = set()

    def images(resources):
        for ref in ((resources or {}).get("/XObject") or {}).values():
            xobject = ref.get_object()
            if xobject.get("/Subtype") == "/Image":
                spaces.add(xobject.get("/ColorSpace"))
            else:
                images(xobject.get("/Resources"))

    for page in reader.pages:
        images(page.get("/Resources"))
    assert spaces == {"/DeviceCMYK"}


def test_a_translated_editions_manifest_names_the_cards_as_they_print(tmp_path):
    """The German TGC files' manifest listed the cards by their English names."""
    import csv
    result = run("build", "--game", "12th-player", "--lang", "de", "--shop", "tgc", "--out", str(tmp_path), root=REPO)
    assert result.exit_code == 0, result.stderr
    names = {row["card"] for row in csv.DictReader((tmp_path / "12th-player/tgc-de/manifest.csv").open(encoding="utf-8"))}
    assert "Trainer" in names and "Coach" not in names, names
    english = run("build", "--game", "12th-player", "--shop", "tgc", "--out", str(tmp_path / "en"), root=REPO)
    assert english.exit_code == 0
    names = {row["card"] for row in csv.DictReader((tmp_path / "en/12th-player/tgc/manifest.csv").open(encoding="utf-8"))}
    assert "Coach" in names


def test_a_back_marked_on_some_cards_by_a_when_is_a_back_of_its_own(mini, tmp_path):
    """A mark a `when:` draws on some backs makes them another back, for the shop's files as on
    paper: the shop printed every card with the first card's back."""
    back = mini / "layouts/mini/back.yaml"
    back.write_text(back.read_text() + '  - {kind: box, fill: "#cc0000", x: 5mm, y: 5mm, w: 10mm, h: 10mm, '
                                       "when: {power: {at_least: 3}}}\n")
    build(mini, "mini", tmp_path, "--shop", "tgc")
    folder = tmp_path / "mini/tgc"
    rows = list(csv.DictReader((folder / "manifest.csv").open()))
    backs = {row["card"]: row["back"] for row in rows}
    assert backs["Knight"] != backs["Bishop"], backs   # power 3 and 2: the mark on one alone
    marked = Image.open(folder / backs["Knight"]).convert("RGB")
    plain = Image.open(folder / backs["Bishop"]).convert("RGB")
    assert marked.size == plain.size and marked.tobytes() != plain.tobytes()
    # marked alike, though their powers differ: one back, not two of the same picture
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("power: 2", "power: 4"))
    build(mini, "mini", tmp_path / "again", "--shop", "tgc")
    rows = list(csv.DictReader((tmp_path / "again/mini/tgc/manifest.csv").open()))
    assert len({row["back"] for row in rows}) == 1, rows
