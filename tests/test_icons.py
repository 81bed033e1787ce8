"""Inline icons: `:coin:` in card text and rule sheets draws icons/coin.svg at the text's cap
height on its baseline; a single-colour icon takes the text's colour; an unknown name is an
error with did-you-mean; `\\:` keeps a colon."""

from __future__ import annotations

import re

import pytest
from PIL import Image

from conftest import pdf, run

COIN = ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
        '<circle cx="12" cy="12" r="11" fill="#000"/></svg>')
STAR = ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
        '<rect width="24" height="24" fill="#f0c020"/><rect width="24" height="6" fill="#a02000"/></svg>')


def with_icons(mini, text: str) -> None:
    icons = mini / "card_data/mini/icons"
    icons.mkdir()
    (icons / "coin.svg").write_text(COIN)
    (icons / "star.svg").write_text(STAR)
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.", f"text: {text!r}".replace("'", '"')))


def build(mini, tmp_path, *extra):
    result = run("build", "--game", "mini", "--out", str(tmp_path), *extra, root=mini)
    assert result.exit_code == 0, result.stderr
    return result


def placed_images(page) -> list[tuple[float, float, float, float]]:
    """(x, y, width, height) of every image drawn by the page's content, in its own space."""
    found = []
    streams = [page.get_contents().get_data()]
    xobjects = page["/Resources"].get("/XObject") or {}
    streams += [xobjects[n].get_object().get_data() for n in xobjects
                if xobjects[n].get_object().get("/Subtype") == "/Form"]
    for data in streams:
        for m in re.finditer(rb"([\d.-]+) 0 0 ([\d.-]+) ([\d.-]+) ([\d.-]+) cm\s*/FormXob\.\w+ Do", data):
            w, h, x, y = (float(v) for v in m.groups())
            found.append((x, y, w, h))
    return found


def test_an_icon_sits_on_the_baseline_at_the_cap_height_of_its_text(mini, tmp_path):
    with_icons(mini, "Gain 2 :coin: now")
    build(mini, tmp_path)
    page = pdf(tmp_path / "mini/cards-a4.pdf").pages[0]
    images = placed_images(page)
    assert images, "no icon drawn"
    x, y, w, h = images[0]
    assert abs(w - h) < 0.01 and abs(h - 8 * 0.72) < 0.05   # 8 pt text: capitals 5.76 pt tall
    stream = b"".join(xo.get_object().get_data() for xo in (page["/Resources"].get("/XObject") or {}).values()
                      if xo.get_object().get("/Subtype") == "/Form") + page.get_contents().get_data()
    # the paragraph writes its lines and places its icons in one space: same baseline
    baselines = [float(v) for v in re.findall(rb"BT 1 0 0 1 [\d.]+ ([\d.]+) Tm", stream)]
    assert any(abs(y - b) < 0.6 for b in baselines), (y, baselines)


def test_a_single_colour_icon_takes_the_text_colour_and_others_keep_theirs(mini, tmp_path):
    with_icons(mini, ":coin: :star:")
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text().replace("    size: 8\n", "    size: 30\n    min_size: 30\n"))
    build(mini, tmp_path, "--shop", "tgc")
    face = Image.open(next((tmp_path / "mini/tgc/cards").glob("cards-001-front*.png"))).convert("RGB")
    colours = {face.getpixel((x, y)) for x in range(0, face.size[0], 3) for y in range(0, face.size[1], 3)}
    assert (255, 255, 255) in colours                     # the coin, in the text's white
    assert any(abs(r - 0xf0) < 12 and abs(g - 0xc0) < 12 and b < 60 for r, g, b in colours)   # the star's gold
    assert not any(r < 20 and g < 20 and b < 20 for r, g, b in colours)   # the coin's own black is gone


def test_an_unknown_icon_fails_validate_with_did_you_mean(mini):
    with_icons(mini, "Gain 2 :coins: now")
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert "cards.yaml:" in result.stderr and "card 'Knight', text" in result.stderr
    assert "no icon ':coins:' in icons/ (did you mean 'coin'?)" in result.stderr and "card.yaml:" in result.stderr


def test_an_unknown_icon_in_a_layouts_own_words_is_told_at_the_layouts_line(mini):
    """Text with no {field} is the layout's: the trial's typo on a back was told at the first
    card's data line and field, which do not hold it."""
    with_icons(mini, "Moves in an L.")
    back = mini / "layouts/mini/back.yaml"
    back.write_text(back.read_text().replace("text: MINI", "text: 'MINI :coins:'"))
    line = back.read_text().splitlines().index("    text: 'MINI :coins:'") + 1
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert f"layouts/mini/back.yaml:{line}: elements[2].text: no icon ':coins:' in icons/ (did you mean 'coin'?)" \
        in result.stderr, result.stderr
    assert "cards.yaml" not in result.stderr and "card '" not in result.stderr


def test_an_unknown_icon_in_a_tables_fixed_cell_is_told_at_the_layouts_line(mini):
    with_icons(mini, "Moves in an L.")
    card = mini / "layouts/mini/card.yaml"
    card.write_text(card.read_text() + "  - {kind: table, rows: [['{name}', 'Gold :coins:']], y: 58mm, h: 5mm}\n")
    line = len(card.read_text().splitlines())
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert f"layouts/mini/card.yaml:{line}: " in result.stderr and "rows: no icon ':coins:'" in result.stderr, \
        result.stderr
    assert "cards.yaml" not in result.stderr and "card '" not in result.stderr


def test_an_escaped_colon_starts_no_icon(mini, tmp_path):
    with_icons(mini, "Kick off at 12\\:30, not \\:coin:")
    build(mini, tmp_path)
    page = pdf(tmp_path / "mini/cards-a4.pdf").pages[0]
    assert not placed_images(page)
    assert "not :coin:" in " ".join(page.extract_text().split())


def test_an_escaped_colon_starts_no_icon_in_the_rule_sheet_either(mini, tmp_path):
    """Markdown took `\\:` for its own escape and left a bare colon, so the advice every icon
    error gives did not work in rules.md."""
    with_icons(mini, "Moves in an L.")
    rules = mini / "card_data/mini/rules.md"
    rules.write_text(rules.read_text() + "\nKick off at 12\\:30, not \\:coin: but :star:.\n\n"
                                         "In code `10\\:15` and\n\n```\nat 9\\:45 sharp\n```\n")
    build(mini, tmp_path)
    page = pdf(tmp_path / "mini/rules-a4.pdf").pages[0]
    words = " ".join(page.extract_text().split())
    assert "Kick off at 12:30, not :coin: but" in words and "10:15" in words and "9:45" in words, words
    assert "\\" not in words
    assert len(placed_images(page)) == 1   # the star alone


def test_icons_in_the_rule_sheet(mini, tmp_path):
    with_icons(mini, "Moves in an L.")
    rules = mini / "card_data/mini/rules.md"
    rules.write_text(rules.read_text() + "\nEach touchdown earns :coin: and a :star:.\n")
    build(mini, tmp_path)
    page = pdf(tmp_path / "mini/rules-a4.pdf").pages[0]
    assert "Each touchdown earns" in page.extract_text()
    assert len(placed_images(page)) == 2


@pytest.mark.parametrize("title", ["Go:set:go", "Spice :coin: Route"])
def test_the_games_title_and_credit_print_as_written_colons_and_all(mini, tmp_path, title):
    """A title or credit in game.yaml is the game's name, not text with icons: "Go:set:go" ended
    every build in a garbled error ("handle_pageBegin args=() rules.md: no icon ':set:'")."""
    with_icons(mini, "Moves in an L.")
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("title: Mini", f'title: "{title}"\ncredit: "Game by :coinz:"'))
    build(mini, tmp_path)
    page = pdf(tmp_path / "mini/rules-a4.pdf").pages[0]
    words = " ".join(page.extract_text().split())
    assert f"{title} —" in words and "Game by :coinz:" in words, words
    assert not placed_images(page)


def test_pnp_new_shows_bold_an_icon_and_an_svg_at_work(tmp_path):
    assert run("new", "demo", root=tmp_path).exit_code == 0
    out = tmp_path / "out"
    assert run("build", "--game", "demo", "--out", str(out), root=tmp_path).exit_code == 0
    page = pdf(out / "demo/cards-letter.pdf").pages[0]
    fonts = {str(f.get_object()["/BaseFont"]).split("+")[-1] for f in page["/Resources"]["/Font"].values()}
    assert "Lato-Bold" in fonts or any("Lato-Bold" in str(x.get_object().get("/Resources", {}).get("/Font", {}))
                                       for x in page["/Resources"]["/XObject"].values())
    assert placed_images(page)   # the :star: icons
    forms = b"".join(x.get_object().get_data() for x in page["/Resources"]["/XObject"].values())
    assert b".85098 .635294 .105882 rg" in forms + page.get_contents().get_data()   # the SVG emblem's gold, as paths


def test_icons_wrap_and_shrink_with_the_text(mini, tmp_path):
    with_icons(mini, ":coin: Gain two coins at once, then gain one more every time the round ends "
                     "and each player has scored :coin:")
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text().replace("    size: 8\n", "    size: 14\n    min_size: 5\n"))
    build(mini, tmp_path)
    first, last = placed_images(pdf(tmp_path / "mini/cards-a4.pdf").pages[0])[:2]
    used = first[3] / 0.72                       # the size the text was drawn at
    assert 5 <= used < 14                        # shrunk from 14 pt to fit, as the words were
    assert abs(last[3] - first[3]) < 0.01        # both icons at the one size
    assert last[1] < first[1] - used             # the second sits on a later line: the text wrapped
    assert last[0] + last[2] <= first[0] + 36 / 25.4 * 72 + 0.5   # within the box's width


def test_svg_icons_keep_no_pictures_in_a_temporary_folder(mini, tmp_path, monkeypatch):
    """SVG icons are drawn as vectors from the SVG itself: no picture is made or kept in the
    system's temporary folder, so there is no cache there for anyone to plant a picture in."""
    import tempfile
    from conftest import icons_on
    with_icons(mini, "Gain :coin: now")
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    build(mini, tmp_path / "out")
    assert not any(path.name.startswith("pnp-icons") for path in temp.iterdir())
    assert icons_on(pdf(tmp_path / "out/mini/cards-a4.pdf").pages[0])   # drawn, as vectors


@pytest.mark.parametrize("damaged, line", [
    ('<svg xmlns="http://www.w3.org/2000/svg">\n<circle r="3', 2),                        # cut off in a tag
    ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">\n<circle r="9"/>\n', 3),   # no </svg>
    ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">\n<circle cx="12" <bad r="9"/></svg>', 2),
])
def test_a_damaged_icon_is_told_at_its_own_file_with_the_xml_line_then_where_it_is_used(mini, tmp_path, damaged, line):
    """Read as far as it goes, a damaged file drew part of its art (a coin without its
    circle) and the build said nothing."""
    with_icons(mini, "Gain 2 :coin: now")
    (mini / "card_data/mini/icons/coin.svg").write_text(damaged)
    built = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    checked = run("validate", "--game", "mini", root=mini)
    for result in (built, checked):
        assert result.exit_code == 1 and "Traceback" not in result.stderr
        told = result.stderr.strip().splitlines()[0]
        assert re.fullmatch(r"error: \S*card_data/mini/icons/coin\.svg: this icon is not an SVG pnp can read: "
                            rf"damaged, or not SVG \(line {line}: .+\); it is used at \S*layouts/mini/card\.yaml:\d+",
                            told), told
    assert not (tmp_path / "mini").exists()   # nothing built


def test_a_file_that_is_no_xml_at_all_is_told_as_an_icon_pnp_cannot_read(mini):
    with_icons(mini, "Gain 2 :coin: now")
    (mini / "card_data/mini/icons/coin.svg").write_text("no svg here at all")
    told = run("validate", "--game", "mini", root=mini).stderr.strip().splitlines()[0]
    assert "coin.svg: this icon is not an SVG pnp can read: damaged, or not SVG (line 1: " in told, told


def test_an_icon_whose_path_data_is_broken_is_refused_at_its_line(mini):
    """svglib drew the path up to `Hxx` and dropped the rest: a run icon missing a stroke."""
    with_icons(mini, "Gain 2 :coin: now")
    (mini / "card_data/mini/icons/coin.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">\n<path d="M2 19 H9 L13 8 Hxx" stroke="#000"/></svg>')
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1, result.stderr
    assert "coin.svg: this icon has a path (line 2) whose data pnp cannot read at 'H9 L13 8 Hxx'" in result.stderr
