"""A card from a spreadsheet has no line: every message about it, and the preview's card
dialog, names its file, sheet and row (`cards.xlsx, sheet Crew, row 3`), never `cards.xlsx:None`."""

from __future__ import annotations

from conftest import run
from test_serve import Served
from test_spreadsheets import xlsx


def spreadsheet_game(mini, text: str = "Moves in an L."):
    game = mini / "card_data/mini"
    xlsx(game / "cards.xlsx", [["name", "power", "colour", "count", "text"],
                               ["Knight", 3, "#224466", 4, "Moves in an L."],
                               ["Bishop", 2, "#224466", 2, text]])
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace("data: cards.yaml", "data: cards.xlsx#Crew"))
    return game


def test_a_rule_problem_names_the_row(mini):
    game = spreadsheet_game(mini)
    manifest = game / "game.yaml"
    manifest.write_text(manifest.read_text().replace(
        "contents:\n", "contents:\n  - {rule: follows, deck: cards, key: name, field: power, expect: {Bishop: 5}, "
                       "source: Contents}\n"))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert "cards.xlsx, sheet Crew, row 3: " in result.stderr, result.stderr
    assert ":None" not in result.stderr


def test_a_warning_and_an_error_while_drawing_name_the_row(mini, tmp_path):
    spreadsheet_game(mini, "word " * 400)
    result = run("build", "--game", "mini", "--out", str(tmp_path / "out"), root=mini)
    assert result.exit_code == 0
    assert "cards.xlsx, sheet Crew, row 3: card 'Bishop', text: text 'word word" in result.stderr
    spreadsheet_game(mini, "Gain :nocoin:")
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert "cards.xlsx, sheet Crew, row 3: card 'Bishop', text: no icon ':nocoin:'" in result.stderr
    assert ":None" not in result.stderr


def test_the_preview_card_dialog_names_the_row(mini, tmp_path):
    spreadsheet_game(mini)
    served = Served(mini, "mini", tmp_path / "out")
    state = served.wait_for(lambda s: s.get("snapshot") and s["snapshot"]["decks"])
    bishop = state["snapshot"]["decks"][0]["cards"][1]
    assert bishop["source"].endswith("cards.xlsx, sheet Crew, row 3"), bishop["source"]


def test_the_preview_switches_language(tmp_path):
    from test_every_edition import babel_root
    root = babel_root(tmp_path / "root")
    served = Served(root, "babel", tmp_path / "out")
    first = served.wait_for(lambda s: s.get("snapshot") and s["snapshot"]["decks"])
    assert first["snapshot"]["languages"] == ["ar", "de", "he"]
    assert first["snapshot"]["title"] == "Lantern Road"
    import json
    arabic = json.loads(served.request("/api/state?lang=ar")[2])
    assert arabic["error"] is None, arabic["error"]
    assert arabic["snapshot"]["title"] == "طريق الفوانيس"
    faces = {card["face"] for card in arabic["snapshot"]["decks"][0]["cards"]}
    assert faces.isdisjoint(card["face"] for card in first["snapshot"]["decks"][0]["cards"])
    status, kind, png = served.request(f"/img/{next(iter(faces))}.png")
    assert status == 200 and kind == "image/png"
    missing = json.loads(served.request("/api/state?lang=fr")[2])
    assert "has no translation 'fr'" in missing["error"]["text"]
