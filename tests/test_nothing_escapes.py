"""Nothing escapes: YAML cannot run code or explode, binding cannot reach Python objects,
paths stay inside the game, and rule sheets cannot inject markup or load files."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from conftest import build, pdf, run


def error_of(mini, *args) -> str:
    result = run("build", "--game", "mini", *args, root=mini)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.stderr
    return result.stderr


def test_python_tags_in_yaml_are_refused(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("power: 3", "power: !!python/object/apply:os.system ['touch pwned']"))
    errors = error_of(mini, "--out", str(tmp_path))
    assert "cards.yaml:9: YAML syntax" in errors
    assert not (mini / "pwned").exists() and not os.path.exists("pwned")


def test_an_alias_bomb_is_refused_quickly(mini, tmp_path):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, 9):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    (mini / "card_data/mini/cards.yaml").write_text("\n".join(lines) + "\n")
    started = time.perf_counter()
    errors = error_of(mini, "--out", str(tmp_path))
    assert time.perf_counter() - started < 2
    assert "cards.yaml:" in errors and "refusing a possible alias bomb" in errors


def test_a_link_that_leads_out_of_the_game_is_refused(mini, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("cards: []\n")
    (mini / "card_data/mini/link.yaml").symlink_to(secret)
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("data: cards.yaml", "data: link.yaml"))
    assert "data path 'link.yaml' leads outside the game folder" in error_of(mini, "--out", str(tmp_path / "o"))


def test_rule_sheet_markup_is_printed_as_text_not_obeyed(mini, tmp_path):
    rules = mini / "card_data/mini/rules.md"
    rules.write_text(rules.read_text() + '\n<font size="40">BIG</font> <img src="/etc/hosts"/> '
                     "![art](/etc/passwd) [link](file:///etc/passwd) &amp; <para>x</para>\n")
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    text = pdf(tmp_path / "mini/rules-a4.pdf").pages[0].extract_text()
    assert '<font size="40">BIG</font>' in text and "<para>x</para>" in text
    data = (tmp_path / "mini/rules-a4.pdf").read_bytes()
    assert b"/Subtype /Image" not in data and b"localhost" not in data


# --- the read gate: every file an SVG, an icon or a font names stays inside the game -----------
SVG_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="100" height="100">')
MAGENTA = (255, 0, 255)


def outside_files(tmp_path) -> None:
    """A picture, an SVG and a font outside the root: what a hostile game would like to read."""
    from PIL import Image
    Image.new("RGB", (20, 20), MAGENTA).save(tmp_path / "secret.png")
    (tmp_path / "outside.svg").write_text(SVG_HEAD.replace('width="100" height="100"', 'width="10" height="10"')
                                          + '<rect id="a" width="10" height="10" fill="#ff00ff"/></svg>')
    (tmp_path / "secret.txt").write_text("TOPSECRETWORDS\n")


def with_svg(mini, body: str, name: str = "art.svg") -> None:
    """The mini card with an image element drawing card_data/mini/art.svg."""
    (mini / "card_data/mini" / name).write_text(body)
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + f"  - kind: image\n    src: {name}\n    x: 12mm\n    y: 20mm\n"
                                           f"    w: 20mm\n    h: 20mm\n")


def magenta_in(path) -> bool:
    from PIL import Image
    image = Image.open(path).convert("RGB")
    return any(max(abs(a - b) for a, b in zip(pixel, MAGENTA)) < 40 for _, pixel in image.getcolors(1 << 20))


REACHING_OUT = {
    "image href climbing out": '<image href="../../../secret.png" width="50" height="50"/>',
    "xlink:href climbing out": '<image xlink:href="../../../secret.png" width="50" height="50"/>',
    "image inside that links out": '<image href="inner.png" width="50" height="50"/>',
    "use of an outside SVG": '<use href="../../../outside.svg#a"/>',
    "absolute path": '<image href="{tmp}/secret.png" width="50" height="50"/>',
    "file URL": '<image href="file://{tmp}/secret.png" width="50" height="50"/>',
    "http URL": '<image href="http://127.0.0.1:9/secret.png" width="50" height="50"/>',
    "protocol-relative URL": '<image href="//example.com/secret.png" width="50" height="50"/>',
    "CSS import": '<style>@import url("../../../secret.css");</style><rect width="9" height="9"/>',
    "CSS url()": '<rect width="9" height="9" style="fill: url(../../../outside.svg#a)"/>',
    "feImage": '<filter id="f"><feImage href="../../../secret.png"/></filter><rect width="9" height="9"/>',
    "link folder": '<image href="pics/secret.png" width="50" height="50"/>',
}


@pytest.mark.parametrize("case", sorted(REACHING_OUT))
def test_an_svg_cannot_draw_a_file_from_outside_the_game(mini, tmp_path, case):
    outside_files(tmp_path)
    (mini / "card_data/mini/inner.png").symlink_to(tmp_path / "secret.png")
    (mini / "card_data/mini/pics").symlink_to(tmp_path)
    with_svg(mini, SVG_HEAD + REACHING_OUT[case].format(tmp=tmp_path) + "</svg>")
    errors = error_of(mini, "--out", str(tmp_path / "o"), "--shop", "tgc")
    assert "card.yaml:" in errors and "image 'art.svg' refers to" in errors, errors
    assert not (tmp_path / "o/mini").exists() or not any((tmp_path / "o/mini").rglob("*.png"))


def test_an_svg_with_a_stylesheet_instruction_naming_a_file_outside_is_refused(mini, tmp_path):
    outside_files(tmp_path)
    with_svg(mini, f'<?xml-stylesheet type="text/css" href="{tmp_path}/secret.txt"?>\n'
                   + SVG_HEAD + '<rect width="9" height="9"/></svg>')
    assert "refers to" in error_of(mini, "--out", str(tmp_path / "o"))


def test_an_svg_may_use_pictures_and_drawings_inside_the_game(mini, tmp_path):
    from PIL import Image
    Image.new("RGB", (20, 20), MAGENTA).save(mini / "card_data/mini/inner.png")
    (mini / "card_data/mini/parts.svg").write_text(SVG_HEAD + '<rect id="a" width="100" height="50" fill="#00ff00"/></svg>')
    with_svg(mini, SVG_HEAD + '<image href="inner.png" width="100" height="50"/>'
                              '<use href="parts.svg#a" y="50"/></svg>')
    build(mini, "mini", tmp_path, "--shop", "tgc")
    face = next((tmp_path / "mini/tgc/cards").glob("cards-001-front*.png"))
    assert magenta_in(face)   # the picture inside the game is drawn


def test_an_svg_entity_naming_a_file_is_never_read(mini, tmp_path):
    outside_files(tmp_path)
    with_svg(mini, f'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY x SYSTEM "file://{tmp_path}/secret.txt">]>\n'
                   + SVG_HEAD + '<text x="5" y="20">start &x; end</text></svg>')
    result = run("build", "--game", "mini", "--out", str(tmp_path / "o"), root=mini)
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        assert b"TOPSECRET" not in (tmp_path / "o/mini/cards-a4.pdf").read_bytes()
        assert "TOPSECRET" not in pdf(tmp_path / "o/mini/cards-a4.pdf").pages[0].extract_text()


def pdf_fonts(path) -> list:
    """Every font dictionary a PDF's pages and forms name."""
    found = []

    def walk(resources, depth=0):
        resources = resources.get_object() if resources is not None else {}
        found.extend(font.get_object() for font in (resources.get("/Font") or {}).values())
        for xobject in (resources.get("/XObject") or {}).values():
            if depth < 5:
                walk(xobject.get_object().get("/Resources"), depth + 1)

    for page in pdf(path).pages:
        walk(page.get("/Resources"))
    return found


def test_svg_text_is_set_in_the_games_embedded_fonts_never_a_font_by_path(mini, tmp_path):
    """`font-family` naming a path would embed that file; plain text would name Helvetica,
    unembedded. Both are set in the game's own fonts, embedded, also in the PDF/X-1a file."""
    import shutil
    from conftest import REPO, embedded
    shutil.copy(REPO / "fonts/NotoSansHebrew-Bold.ttf", tmp_path / "Stranger.ttf")   # a font outside, unused by the game
    with_svg(mini, SVG_HEAD + f'<text font-family="{tmp_path}/Stranger" x="5" y="20">By path</text>'
                              '<text x="5" y="40">Plain words</text>'
                              '<text font-family="Helvetica" font-weight="bold" x="5" y="60">Bold</text></svg>')
    build(mini, "mini", tmp_path / "o", "--shop", "drivethru")
    for path in (tmp_path / "o/mini/cards-a4.pdf", tmp_path / "o/mini/drivethru/cards.pdf"):
        fonts = pdf_fonts(path)
        names = {str(font.get("/BaseFont")) for font in fonts}
        assert fonts and all(embedded(font) for font in fonts), (path, names)
        assert not any("Helvetica" in name or "Hebrew" in name for name in names), names
    text = pdf(tmp_path / "o/mini/cards-a4.pdf").pages[0].extract_text()
    assert "Plain words" in text and "By path" in text


@pytest.mark.parametrize("svg, message", [
    ('<rect x="1e308" width="10" height="10"/>', "not finite or too large"),
    ('<rect stroke="#000" stroke-width="inf" width="10" height="10"/>', 'stroke-width="inf": give a finite number'),
    ('<rect style="stroke-width: NaN" width="10" height="10"/>', "give a finite number"),
    ('<g transform="scale(1e5)"><g transform="scale(1e5)"><rect width="10" height="10"/></g></g>', "too large"),
    ('<path d="M 0 0 L inf 5 Z"/>', "give a finite number"),
])
def test_svg_numbers_that_are_not_finite_or_too_large_are_one_clear_error(mini, tmp_path, svg, message):
    with_svg(mini, SVG_HEAD + svg + "</svg>")
    errors = error_of(mini, "--out", str(tmp_path / "o"))
    assert "image 'art.svg'" in errors and message in errors, errors


def test_an_svg_whose_size_is_nan_is_one_clear_error_not_nan_in_the_pdf(mini, tmp_path):
    with_svg(mini, '<svg xmlns="http://www.w3.org/2000/svg" width="nan" height="10"><rect width="5" height="5"/></svg>')
    errors = error_of(mini, "--out", str(tmp_path / "o"))
    assert "image 'art.svg'" in errors and "finite" in errors
    assert not (tmp_path / "o/mini/cards-a4.pdf").exists()


def test_a_data_url_picture_too_large_to_hold_is_refused(mini, tmp_path):
    import base64
    import io as bytes_io
    from PIL import Image
    buffer = bytes_io.BytesIO()
    Image.new("1", (40000, 4000)).save(buffer, "PNG")   # 160 million pixels in a few kilobytes
    data = base64.b64encode(buffer.getvalue()).decode()
    with_svg(mini, SVG_HEAD + f'<image href="data:image/png;base64,{data}" width="9" height="9"/></svg>')
    errors = error_of(mini, "--out", str(tmp_path / "o"))
    assert "image 'art.svg' places a data URL" in errors and "too large" in errors


def tiny_png() -> str:
    """A whole 2 x 2 PNG as base64: data a reference may carry and still name a path after it."""
    import base64
    import io as bytes_io
    from PIL import Image
    buffer = bytes_io.BytesIO()
    Image.new("RGB", (2, 2)).save(buffer, "PNG")
    return base64.b64encode(buffer.getvalue()).decode()


@pytest.mark.parametrize("prefix", ["data:/../", "DATA:image/png;base64,../", "data:text/plain,../",
                                    f" data:image/png;base64,{tiny_png()}/../../"])
def test_a_reference_that_only_looks_like_data_is_checked_as_the_path_svglib_opens(mini, tmp_path, prefix):
    """svglib takes `data:image/png;base64` (just so) for data and opens anything else as a
    path: `data:/../h.png` is the game's h.png, here a hard link to a picture outside."""
    from PIL import Image
    Image.new("RGB", (20, 20), MAGENTA).save(tmp_path / "secret.png")
    os.link(tmp_path / "secret.png", mini / "card_data/mini/h.png")
    with_svg(mini, SVG_HEAD + f'<image width="40" height="40" xlink:href="{prefix}h.png"/></svg>')
    errors = error_of(mini, "--out", str(tmp_path / "o"))
    assert "image 'art.svg' refers to" in errors, errors
    assert not (tmp_path / "o/mini/cards-a4.pdf").exists()


def test_a_data_url_is_checked_as_svglib_decodes_it(mini, tmp_path):
    """svglib decodes from one character past `base64`, whatever it is: a small picture after a
    comma further on must not stand in for the big one it draws."""
    import base64
    import io as bytes_io
    from PIL import Image

    def png(size) -> str:
        buffer = bytes_io.BytesIO()
        Image.new("1", size).save(buffer, "PNG")
        return base64.b64encode(buffer.getvalue()).decode()
    with_svg(mini, SVG_HEAD + f'<image href="data:image/png;base64;{png((40000, 4000))},{png((2, 2))}" '
                              f'width="9" height="9"/></svg>')
    errors = error_of(mini, "--out", str(tmp_path / "o"))
    assert "too large" in errors, errors


def test_an_image_that_is_a_hard_link_is_refused(mini, tmp_path):
    from PIL import Image
    Image.new("RGB", (20, 20), MAGENTA).save(tmp_path / "secret.png")
    os.link(tmp_path / "secret.png", mini / "card_data/mini/art.png")
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + "  - kind: image\n    src: art.png\n    x: 1mm\n    y: 1mm\n"
                                           "    w: 20mm\n    h: 20mm\n")
    errors = error_of(mini, "--out", str(tmp_path / "o"))
    assert "image 'art.png' is a hard link" in errors


def icon_game(mini, tmp_path) -> Path:
    outside_files(tmp_path)
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.", 'text: "Gain :coin: now"'))
    return mini / "card_data/mini/icons"


def test_an_icon_that_links_outside_is_refused(mini, tmp_path):
    icons = icon_game(mini, tmp_path)
    icons.mkdir()
    (icons / "coin.png").symlink_to(tmp_path / "secret.png")
    errors = error_of(mini, "--out", str(tmp_path / "o"))
    assert "icons/coin.png" in errors and "leads outside the game folder" in errors


def test_an_icons_folder_that_links_outside_is_refused(mini, tmp_path):
    icons = icon_game(mini, tmp_path)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "secret.png").rename(tmp_path / "elsewhere/coin.png")
    icons.symlink_to(tmp_path / "elsewhere")
    errors = error_of(mini, "--out", str(tmp_path / "o"))
    assert "icons" in errors and "leads outside the game folder" in errors


def test_the_preview_never_shows_a_picture_from_outside(mini, tmp_path):
    from test_serve import Served
    outside_files(tmp_path)
    served = Served(mini, "mini", tmp_path / "out")
    with_svg(mini, SVG_HEAD + '<image href="../../../secret.png" width="50" height="50"/></svg>')
    state = served.wait_for(lambda s: s["error"] is not None)
    assert "refers to '../../../secret.png'" in state["error"]["text"]


@pytest.mark.parametrize("name", ["card_data/mini/rules.md", "fonts/fonts.yaml", "layouts/mini/card.yaml",
                                  "card_data/mini/cards.yaml", "card_data/mini/lang/de.yaml"])
def test_a_pipe_where_a_file_belongs_is_an_error_not_a_hang(mini, tmp_path, name):
    import subprocess
    import sys
    path = mini / name
    path.parent.mkdir(exist_ok=True)
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    result = subprocess.run([sys.executable, "-m", "pnp", "validate", "--game", "mini", "--root", str(mini)],
                            capture_output=True, text=True, timeout=60)   # validate reads translations too
    assert "Traceback" not in result.stderr, result.stderr
    if name != "fonts/fonts.yaml":   # without a fonts.yaml file, the root draws with pnp's own fonts
        assert result.returncode == 1 and result.stderr.count("\n") <= 2, result.stderr


def test_a_game_folder_that_is_a_link_to_elsewhere_is_refused(mini, tmp_path):
    """A shared game unzipped as a link (to a home folder, say) would make everything there
    'inside the game folder'."""
    import shutil
    shutil.move(str(mini / "card_data/mini"), str(tmp_path / "elsewhere"))
    (mini / "card_data/mini").symlink_to(tmp_path / "elsewhere")
    errors = error_of(mini, "--out", str(tmp_path / "o"))
    assert "the game folder path 'mini' leads outside card_data/" in errors, errors
