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
    safe = x0 + round((3 + 3.175) * per_mm)   # the bleed, then the shops' 1/8 in, as the preview draws it
    assert any(sheet.getpixel((safe, y)) == (30, 90, 220) for y in range(middle - 8, middle + 8))   # safe zone
    assert sheet.getpixel((x0 + face_w - 1, middle)) == (220, 30, 30)          # the far bleed edge
    plain = tmp_path / "plain"
    assert run("proof", "--game", "mini", "--out", str(plain), root=mini).exit_code == 0
    assert Image.open(plain / "mini/proof/cards-faces.png").size[0] < sheet.size[0]   # no bleed without


def test_showcase_pictures_have_the_width_background_and_cards_asked_for(mini, tmp_path):
    result = run("proof", "--game", "mini", "--out", str(tmp_path), "--showcase", "--width", "900",
                 "--background", "#102030", "--pick", "Bishop", "--pick", "Knight", root=mini)
    assert result.exit_code == 0, result.stderr
    row = Image.open(tmp_path / "mini/proof/cards-showcase-row.png").convert("RGB")
    fan = Image.open(tmp_path / "mini/proof/cards-showcase-fan.png").convert("RGB")
    assert row.size[0] == fan.size[0] == 900
    # the summary counts and lists the showcase pictures apart from the page pictures
    assert ", 2 showcase picture(s) and 3 page picture(s) in" in result.output, result.output
    assert "mini/proof/cards-showcase-fan.png" in result.output
    assert row.getpixel((2, 2)) == (0x10, 0x20, 0x30) and fan.getpixel((2, 2)) == (0x10, 0x20, 0x30)
    # two cards across the row: the card colour (#224466) in two separate runs along the middle
    line = [row.getpixel((x, row.size[1] // 2)) for x in range(row.size[0])]
    card = [abs(r - 0x22) < 8 and abs(g - 0x44) < 8 and abs(b - 0x66) < 8 for r, g, b in line]
    runs = sum(1 for a, b in zip([False] + card, card) if b and not a)
    assert runs == 2, runs
    # a soft shadow: just below the first card, darker than the background, fading out below
    x = card.index(True) + 10
    bottom = max(y for y in range(row.size[1]) if row.getpixel((x, y)) != (0x10, 0x20, 0x30)
                 and sum(row.getpixel((x, y))) > sum((0x10, 0x20, 0x30)))
    below = [sum(row.getpixel((x, y))) for y in range(bottom + 1, min(bottom + 40, row.size[1]))]
    assert below and min(below) < sum((0x10, 0x20, 0x30)) - 10, below[:10]
    assert below[-1] > min(below)   # soft: it fades back towards the background


def test_showcase_names_a_card_the_deck_does_not_have(mini, tmp_path):
    result = run("proof", "--game", "mini", "--out", str(tmp_path), "--showcase", "--pick", "Rook", root=mini)
    assert result.exit_code == 1 and "no card named 'Rook' to show; its cards: Bishop, Knight" in result.stderr


def test_a_board_is_proofed_as_its_tiled_pages_not_again_whole(mini, tmp_path):
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("contents:", "  - {id: board, kind: board, layout: mini/board}\ncontents:"))
    (mini / "layouts/mini/board.yaml").write_text("size: [300mm, 200mm]\nelements:\n  - {kind: box, fill: '#2e6b2e'}\n")
    assert run("proof", "--game", "mini", "--out", str(tmp_path), root=mini).exit_code == 0
    pages = sorted(p.name for p in (tmp_path / "mini/proof").glob("board-*.png"))
    assert pages and all(name.startswith("board-a4-page-") for name in pages), pages


def test_proof_in_a_language_pictures_that_edition(tmp_path):
    """`pnp proof --lang de`: the German edition's faces and pages, named as a build names its
    files; each page picture is the German PDF's page, as proof pictures the game's own."""
    from test_every_edition import babel_root
    from pnp.outputs.raster import rasterise
    root = babel_root(tmp_path / "root")
    result = run("proof", "--game", "babel", "--lang", "de", "--out", str(tmp_path / "out"), root=root)
    assert result.exit_code == 0, result.stderr
    assert "1 contact sheet(s)" in result.output and "cards-faces-de.png" in result.output, result.output
    proof = tmp_path / "out/babel/proof"
    assert not (proof / "cards-faces.png").exists()
    assert run("build", "--game", "babel", "--lang", "de", "--out", str(tmp_path / "built"), "-q",
               root=root).exit_code == 0
    pages = rasterise((tmp_path / "built/babel/cards-a4-de.pdf").read_bytes(), 60)
    assert (proof / "cards-a4-de-page-01.png").read_bytes() == pages[0]
    assert run("proof", "--game", "babel", "--out", str(tmp_path / "out"), root=root).exit_code == 0
    assert (proof / "cards-a4-page-01.png").read_bytes() != pages[0]   # the source edition's page differs
    refused = run("proof", "--game", "babel", "--lang", "de", "--changes", root=root)
    assert refused.exit_code == 2 and "--lang goes with" in refused.stderr


def test_proof_counts_contact_sheets_by_their_names_end(mini, tmp_path):
    """A deck whose id holds -faces: its page pictures are no contact sheets."""
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("id: cards", "id: dice-faces").replace("deck: cards", "deck: dice-faces"))
    result = run("proof", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    assert "mini: 1 contact sheet(s) and" in result.output, result.output
