"""Tabletop Simulator export (--shop tts): face sheets, back image and the saved-object JSON."""

from __future__ import annotations

import json

import pytest

from PIL import Image

from conftest import REPO, run

KNIGHT, BISHOP = (0x22, 0x44, 0x66), (0xaa, 0x00, 0x00)


def tts_build(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("    power: 2\n", "    power: 2\n    colour: '#aa0000'\n"))
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--shop", "tts", root=mini)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "mini/tts"
    return folder, json.loads((folder / "tts.json").read_text())


def test_every_deck_id_points_at_a_sheet_cell_with_the_right_card(mini, tmp_path):
    folder, save = tts_build(mini, tmp_path)
    [deck] = save["ObjectStates"]
    assert deck["Name"] == "Deck"
    assert len(deck["DeckIDs"]) == 6                        # 4 Knights and 2 Bishops
    assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
    for card in deck["ContainedObjects"]:
        key, cell = divmod(card["CardID"], 100)
        custom = deck["CustomDeck"][str(key)]
        assert custom["BackIsHidden"] is True and custom["UniqueBack"] is False
        columns, rows = custom["NumWidth"], custom["NumHeight"]
        assert cell < columns * rows - 1                    # never the hidden-card cell
        with Image.open(folder / custom["FaceURL"]) as sheet:
            width, height = sheet.width // columns, sheet.height // rows
            x, y = (cell % columns) * width, (cell // columns) * height
            colour = sheet.convert("RGB").getpixel((x + 5, y + 5))
        assert colour == {"Knight": KNIGHT, "Bishop": BISHOP}[card["Nickname"]]


def test_a_deck_arrives_face_down_on_the_table(mini, tmp_path):
    """Tabletop Simulator lays a deck as its Transform says: turned 180 degrees about Z it lies
    face down, as a deck to draw from should (0 would show the top card)."""
    _, save = tts_build(mini, tmp_path)
    [deck] = save["ObjectStates"]
    for placed in [deck] + deck["ContainedObjects"]:
        assert (placed["Transform"]["rotY"], placed["Transform"]["rotZ"]) == (180.0, 180.0)


def test_sheet_holds_the_cards_and_the_hidden_card_within_4096_px(mini, tmp_path):
    folder, save = tts_build(mini, tmp_path)
    custom = save["ObjectStates"][0]["CustomDeck"]["1"]
    assert (custom["NumWidth"], custom["NumHeight"]) == (3, 1)   # 2 distinct cards + hidden cell
    with Image.open(folder / custom["FaceURL"]) as sheet, Image.open(folder / custom["BackURL"]) as back:
        assert max(sheet.size) <= 4096
        assert sheet.width == 3 * back.width and sheet.height == back.height
        hidden = sheet.convert("RGB").crop((2 * back.width, 0, 3 * back.width, back.height))
        assert hidden.tobytes() == back.convert("RGB").tobytes()   # the back, in the last cell


def test_a_big_deck_is_drawn_smaller_to_fit_4096_px(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    extra = "".join(f"  - name: Pawn {n}\n    power: 1\n" for n in range(80))
    cards.write_text(cards.read_text() + extra)
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("equals: 6", "equals: 86"))
    folder, save = tts_build(mini, tmp_path)
    custom = save["ObjectStates"][0]["CustomDeck"]
    assert sorted(custom) == ["1", "2"]                      # 82 cards: 69 on the first sheet
    assert (custom["1"]["NumWidth"], custom["1"]["NumHeight"]) == (10, 7)
    assert len(save["ObjectStates"][0]["DeckIDs"]) == 4 + 2 + 80
    assert max(save["ObjectStates"][0]["DeckIDs"]) == 2 * 100 + 12
    with Image.open(folder / custom["1"]["FaceURL"]) as sheet:
        assert max(sheet.size) <= 4096 and max(sheet.size) > 3800


def test_boards_end_zones_and_tokens_come_as_tiles_and_tokens_in_the_same_save(tmp_path):
    from conftest import REPO
    for game in ("big-ten", "monster-ball"):
        result = run("build", "--game", game, "--out", str(tmp_path), "--shop", "tts", root=REPO)
        assert result.exit_code == 0, result.stderr
    big_ten = json.loads((tmp_path / "big-ten/tts/tts.json").read_text())["ObjectStates"]
    kinds = [(o["Name"], o["Nickname"]) for o in big_ten]
    assert sum(name == "Deck" for name, _ in kinds) == 4
    zones = [o for o in big_ten if o["Name"] == "Custom_Tile" and o["Nickname"] != "Game board"]
    assert len(zones) == 14 and {"Illinois", "Iowa"} <= {o["Nickname"] for o in zones}
    board = [o for o in big_ten if o["Name"] == "Custom_Tile" and o["CustomImage"]["ImageURL"] == "board.png"]
    assert len(board) == 1
    monster = json.loads((tmp_path / "monster-ball/tts/tts.json").read_text())["ObjectStates"]
    tokens = [o for o in monster if o["Name"] == "Custom_Token"]
    assert tokens and all(o["CustomImage"]["CustomToken"]["Thickness"] > 0 for o in tokens)
    for game, objects in (("big-ten", big_ten), ("monster-ball", monster)):
        for obj in objects:   # every picture a tile names is there, and is a picture of that piece
            if "CustomImage" in obj:
                image = Image.open(tmp_path / game / "tts" / obj["CustomImage"]["ImageURL"])
                assert image.size[0] > 20 and image.size[1] > 20
    zone = Image.open(tmp_path / "big-ten/tts" / zones[0]["CustomImage"]["ImageURL"])
    assert zone.size[1] / zone.size[0] == round(240 / 48, 0) or abs(zone.size[1] / zone.size[0] - 5) < 0.05


def test_tabletop_playground_templates_name_every_card_at_its_sheet_cell(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("    power: 2\n", "    power: 2\n    colour: '#aa0000'\n"))
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--shop", "ttp", root=mini)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "mini/ttp"
    template = json.loads((folder / "Templates/cards-1.json").read_text())
    assert template["Type"] == "Card" and len(template["GUID"]) == 32
    assert (template["Width"], template["Height"]) == (4.445, 6.35)   # mini cards, in cm
    assert sorted(template["Indices"]) == [0, 0, 0, 0, 1, 1]          # 4 Knights, 2 Bishops
    assert template["BackIndex"] == -1 and (folder / "Textures" / template["BackTexture"]).is_file()
    columns, rows = template["NumHorizontal"], template["NumVertical"]
    assert template["HiddenIndex"] == columns * rows - 1
    with Image.open(folder / "Textures" / template["FrontTexture"]) as sheet:
        width, height = sheet.width // columns, sheet.height // rows
        for cell, name in template["CardNames"].items():
            x, y = (int(cell) % columns) * width, (int(cell) // columns) * height
            assert sheet.convert("RGB").getpixel((x + 5, y + 5)) == {"Knight": KNIGHT, "Bishop": BISHOP}[name]
    again = run("build", "--game", "mini", "--out", str(tmp_path / "again"), "--shop", "ttp", root=mini)
    assert json.loads((tmp_path / "again/mini/ttp/Templates/cards-1.json").read_text())["GUID"] == template["GUID"]


def test_a_playground_deck_with_two_backs_gets_a_sheet_of_backs_cell_for_cell(tmp_path):
    """Monster Ball's roster cards have a back for each team: each card's cell on the backs
    sheet holds its own team's back, not one back for all."""
    result = run("build", "--game", "monster-ball", "--out", str(tmp_path), "--shop", "ttp", root=REPO)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "monster-ball/ttp"
    template = json.loads((folder / "Templates/roster-cards-1.json").read_text())
    assert template["BackIndex"] == -2 and template["BackTexture"] == "roster-cards-1-backs.png"
    columns, rows = template["NumHorizontal"], template["NumVertical"]
    with Image.open(folder / "Textures" / template["BackTexture"]) as sheet:
        sheet = sheet.convert("RGB")
        width, height = sheet.width // columns, sheet.height // rows
        corners = {sheet.getpixel(((int(cell) % columns) * width + width // 2, (int(cell) // columns) * height + 8))
                   for cell in template["CardNames"]}
    assert len(corners) == 2, corners   # two teams, two backs


@pytest.mark.parametrize("shop", ["tts", "ttp"])
def test_the_online_exports_manifest_names_each_card_at_its_sheet_cell(tmp_path, shop):
    """Every export's manifest.csv has a row per distinct piece (the print guide says so);
    the TTS and Tabletop Playground ones held the header alone."""
    import csv
    result = run("build", "--game", "big-ten", "--out", str(tmp_path), "--shop", shop, root=REPO)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "big-ten" / shop
    rows = list(csv.DictReader((folder / "manifest.csv").open(encoding="utf-8")))
    offense = [row for row in rows if "offense" in row["file"]]
    assert sum(int(row["quantity"]) for row in offense) == 60   # the offense deck, every copy
    for row in offense:
        sheet, _, cell = row["file"].partition(" cell ")
        assert (folder / sheet).is_file() and int(cell) >= 1, row
        assert (folder / row["back"].partition(" cell ")[0]).is_file(), row
    assert {row["card"] for row in offense} >= {"Dive", "QB Sneak"}
