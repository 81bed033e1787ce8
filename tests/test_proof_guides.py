"""`pnp proof --guides`: each face in the contact sheet with its bleed, and lines for the bleed
edge, the trim and the safe zone where a print shop puts them."""

from __future__ import annotations

from PIL import Image

from conftest import run

DPI = 90


def test_guides_mark_bleed_trim_and_safe_zone_on_every_face(mini, tmp_path):
    assert run("proof", "--game", "mini", "--out", str(tmp_path), "--guides", root=mini).exit_code == 0
    sheet = Image.open(tmp_path / "mini/proof/cards-faces.png").convert("RGB")
    per_mm = DPI / 25.4
    face_w = round((44.45 + 6) * per_mm)   # the mini card and 3 mm of bleed each side
    x0 = y0 = 12                          # the first face's top-left on the sheet
    middle = y0 + round(30 * per_mm)
    assert sheet.getpixel((x0, middle)) == (220, 30, 30)                       # bleed edge
    assert sheet.getpixel((x0 + round(3 * per_mm), middle)) == (0, 0, 0)      # trim
    safe = x0 + round(6 * per_mm)
    assert any(sheet.getpixel((safe, y)) == (30, 90, 220) for y in range(middle - 8, middle + 8))   # safe zone
    assert sheet.getpixel((x0 + face_w - 1, middle)) == (220, 30, 30)          # the far bleed edge
    plain = tmp_path / "plain"
    assert run("proof", "--game", "mini", "--out", str(plain), root=mini).exit_code == 0
    assert Image.open(plain / "mini/proof/cards-faces.png").size[0] < sheet.size[0]   # no bleed without
