"""Images: SVG drawn as vectors, fit contain / cover / fill, rotate and opacity; files pnp
can't use are one clear error naming the file, the layout line and the card."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from conftest import embedded, pdf, run

# A red square with a blue bar across its top quarter, 100 x 100 user units.
SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
  <rect x="0" y="0" width="100" height="100" fill="#d01010"/>
  <rect x="0" y="0" width="100" height="25" fill="#1030d0"/>
</svg>
"""
WIDE_SVG = SVG.replace('width="100" height="100" viewBox="0 0 100 100"', 'width="200" height="100" viewBox="0 0 200 100"') \
    .replace('width="100" height="100" fill', 'width="200" height="100" fill').replace('width="100" height="25"', 'width="200" height="25"')
RED, BLUE = (0xd0, 0x10, 0x10), (0x10, 0x30, 0xd0)


def with_image(mini, src: str, content: bytes | str, **keys) -> None:
    folder = mini / "card_data/mini"
    (folder / src).write_bytes(content.encode() if isinstance(content, str) else content)
    extra = "".join(f"    {k}: {v}\n" for k, v in keys.items())
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + f"  - kind: image\n    src: {src}\n    x: 12mm\n    y: 20mm\n"
                                           f"    w: 20mm\n    h: 20mm\n{extra}")


def face(mini, tmp_path) -> tuple[Image.Image, float]:
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--shop", "tgc", root=mini)
    assert result.exit_code == 0, result.stderr
    image = Image.open(next((tmp_path / "mini/tgc/cards").glob("cards-001-front*.png"))).convert("RGB")
    return image, image.size[0] / (44.45 + 6.35)


def at(image, per_mm: float, x_mm: float, y_mm: float):
    bleed = 3.175
    return image.getpixel((int((x_mm + bleed) * per_mm), int((y_mm + bleed) * per_mm)))


def near(colour, wanted, tolerance: int = 40) -> bool:
    return max(abs(a - b) for a, b in zip(colour, wanted)) <= tolerance


def test_an_svg_is_drawn_as_vector_paths_not_a_picture(mini, tmp_path):
    with_image(mini, "art.svg", SVG)
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    page = pdf(tmp_path / "mini/cards-a4.pdf").pages[0]
    xobjects = page["/Resources"].get("/XObject") or {}
    images = [n for n in xobjects if xobjects[n].get_object().get("/Subtype") == "/Image"]
    assert not images   # no raster anywhere: the square is paths
    stream = page.get_contents().get_data()
    forms = b"".join(xobjects[n].get_object().get_data() for n in xobjects)
    assert b" re" in stream + forms and b".815686 .062745 .062745 rg" in stream + forms   # the red fill
    # and drawing it names no font the file does not carry (svglib's renderer starts with Helvetica)
    fonts = list((page["/Resources"].get("/Font") or {}).values())
    for name in xobjects:
        fonts += list(((xobjects[name].get_object().get("/Resources") or {}).get("/Font") or {}).values())
    assert fonts and all(embedded(font.get_object()) for font in fonts)


def test_an_svg_fills_its_box_with_its_own_colours(mini, tmp_path):
    with_image(mini, "art.svg", SVG)
    image, per_mm = face(mini, tmp_path)
    assert near(at(image, per_mm, 22, 22), BLUE)      # the top quarter of the 20 mm square
    assert near(at(image, per_mm, 22, 35), RED)
    assert near(at(image, per_mm, 14, 38), RED)


@pytest.mark.parametrize("fit, inside, outside", [
    ("contain", [(22, 30)], [(22, 21), (22, 39)]),   # 2:1 in a square: a band across the middle
    ("cover", [(12.5, 21), (31.5, 39)], [(11, 30), (33, 30)]),   # fills the square, cut at the box
    ("fill", [(12.5, 39), (31.5, 39)], []),          # stretched to the box
])
def test_fit_contain_cover_and_fill(mini, tmp_path, fit, inside, outside):
    with_image(mini, "wide.svg", WIDE_SVG, fit=fit)
    image, per_mm = face(mini, tmp_path)
    background = at(image, per_mm, 3, 60)
    for x, y in inside:
        assert near(at(image, per_mm, x, y), RED) or near(at(image, per_mm, x, y), BLUE), (fit, x, y)
    for x, y in outside:
        assert near(at(image, per_mm, x, y), background, 12), (fit, x, y)


def test_rotate_turns_the_image_about_its_middle(mini, tmp_path):
    with_image(mini, "art.svg", SVG, rotate=180)
    image, per_mm = face(mini, tmp_path)
    assert near(at(image, per_mm, 22, 38), BLUE) and near(at(image, per_mm, 22, 22), RED)


def test_opacity_lets_the_background_through(mini, tmp_path):
    with_image(mini, "art.svg", SVG, opacity=0.5)
    image, per_mm = face(mini, tmp_path)
    background = at(image, per_mm, 3, 60)
    red = at(image, per_mm, 22, 35)
    assert not near(red, RED, 30) and not near(red, background, 30)
    assert all(abs(r - (a + b) / 2) < 30 for r, a, b in zip(red, RED, background))
    reader = pdf(tmp_path / "mini/cards-a4.pdf") if (tmp_path / "mini/cards-a4.pdf").exists() else None
    if reader is not None:
        states = reader.pages[0]["/Resources"].get("/ExtGState") or {}
        assert any(state.get_object().get("/ca") == 0.5 for state in states.values())


@pytest.mark.parametrize("name, content, message", [
    ("art.svg", "<svg xmlns='http://www.w3.org/2000/svg'><rect", "is not an SVG pnp can read"),
    ("art.svg", "this is not svg at all", "is not an SVG pnp can read"),
    ("art.png", b"\x89PNG\r\n\x1a\n broken", "is not a PNG, JPEG or SVG file pnp can read"),
])
def test_an_image_pnp_cannot_use_is_one_clear_error(mini, tmp_path, name, content, message):
    with_image(mini, name, content)
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and message in result.stderr, result.stderr
    assert "card.yaml:" in result.stderr and "Traceback" not in result.stderr
    assert "lxml" not in result.stderr and "svglib" not in result.stderr


def test_a_gif_names_the_formats_pnp_takes(mini, tmp_path):
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(buffer, "GIF")
    with_image(mini, "art.gif", buffer.getvalue())
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "image 'art.gif' is GIF; use PNG, JPEG or SVG" in result.stderr
