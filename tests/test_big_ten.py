"""The Big Ten football game: four decks with their backs, end zones, the board and rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import MM, REPO, build, icons_on, pdf, placements, render_png, run
from pnp.impose import PAPER_SIZES, tile_board
from print_checks import check_board_tile

TEAMS = ["Illinois", "Indiana", "Iowa", "Maryland", "Michigan", "Michigan State", "Minnesota",
         "Nebraska", "Northwestern", "Ohio State", "Penn State", "Purdue", "Rutgers", "Wisconsin"]


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("big-ten")
    build(REPO, "big-ten", folder)
    return folder / "big-ten"


@pytest.mark.parametrize("deck, cards, back_label", [
    ("offense", 60, "OFFENSE"), ("defense", 60, "DEFENSE"),
    ("special-teams", 20, "SPECIAL TEAMS"), ("time-outs", 6, "TIME OUT")])
def test_each_deck_has_its_cards_and_its_own_backs(out, deck, cards, back_label):
    reader = pdf(out / f"{deck}-letter.pdf")
    fronts = [reader.pages[i] for i in range(0, len(reader.pages), 2)]
    backs = [reader.pages[i] for i in range(1, len(reader.pages), 2)]
    assert sum(len(placements(p)) for p in fronts) == cards
    assert [len(placements(p)) for p in backs] == [len(placements(p)) for p in fronts]
    for page in backs:
        assert back_label in page.extract_text()


def test_backs_are_clearly_different_colours(out):
    colours = set()
    for deck in ("offense", "defense", "special-teams", "time-outs"):
        path = out / f"{deck}-letter.pdf"
        x, y, w, h = placements(pdf(path).pages[1])[0]
        colours.add(render_png(path, 1).getpixel((int(x + 2 * MM), int(792 - y - 20 * MM)))[:3])
    assert len(colours) == 4


def test_defense_cards_show_a_result_for_every_play_type(out):
    text = pdf(out / "defense-letter.pdf").pages[0].extract_text()
    for label in ("Run", "Pass", "Play-action", "Screen", "PLAY", "RESULT"):
        assert label in text
    assert "No gain" in text and "Card yards +5" in text


def test_play_types_carry_their_icons_on_offense_and_defense_cards(out):
    """Offense cards show their play type's icon (icons/run.svg ...) in the heading; the
    defense table shows the same four beside its rows, so the two are matched at a glance."""
    offense = pdf(out / "offense-letter.pdf")
    fronts = [offense.pages[i] for i in range(0, len(offense.pages), 2)]
    assert sum(len(icons_on(p)) for p in fronts) >= 4          # run, pass, play-action, screen
    assert len(icons_on(pdf(out / "defense-letter.pdf").pages[0])) == 4


def test_all_14_team_end_zones(out):
    reader = pdf(out / "end-zones-letter.pdf")
    boxes = [box for page in reader.pages for box in placements(page)]
    assert len(boxes) == 14
    for _, _, w, h in boxes:   # the size of the board's end-zone slots
        assert (round(w / MM, 1), round(h / MM, 1)) == (48.0, 240.0)
    text = " ".join(p.extract_text() for p in reader.pages).upper()
    for team in TEAMS:
        assert team.upper() in text


def test_the_whole_board_is_one_24_by_18_inch_page(out):
    reader = pdf(out / "board-whole.pdf")
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == (24 * 72, 18 * 72)
    text = page.extract_text()
    for label in ("DOWN", "1ST", "4TH", "SCORE", "HOME", "AWAY", "TENS", "ONES", "FIELD GOAL",
                  "36-40", "Extra point", "Two-point try"):
        assert label in text, label


def test_home_board_is_tiled_with_an_assembly_page_and_labelled_sheets(out):
    reader = pdf(out / "board-letter.pdf")
    tiles = tile_board((24 * 72, 18 * 72), PAPER_SIZES["letter"], 12 * MM)
    assert len(reader.pages) == 1 + len(tiles)
    assert "how the 8 sheets fit together" in reader.pages[0].extract_text()
    for page, tile in zip(reader.pages[1:], tiles):
        assert f"Sheet {tile.label} of {len(tiles)}" in page.extract_text()
        # the board's own edges on each sheet are cut lines, marked at both ends
        assert check_board_tile(page, PAPER_SIZES["letter"], (24 * 72, 18 * 72), tile.label) == []


def test_neighbouring_tiles_show_the_same_overlap_strip(out):
    """The right-hand strip of A1 and the left-hand strip of A2 are the same piece of board,
    marks included; so are the bottom strip of A1 and the top strip of B1. Sample the strips
    point by point (in board coordinates) on both rendered sheets and compare the pixels."""
    path = out / "board-letter.pdf"
    scale = 3
    tiles = {t.label: t for t in tile_board((24 * 72, 18 * 72), PAPER_SIZES["letter"], 12 * MM)}
    pages = {label: render_png(path, 1 + list(tiles).index(label), scale).convert("RGB")
             for label in ("A1", "A2", "B1")}

    def pixel(label, bx, by):
        tile = tiles[label]
        ox, oy = tile.origin
        px = (ox + bx - tile.x) * scale
        py = (792 - (oy + by - tile.y)) * scale
        return pages[label].getpixel((int(round(px)), int(round(py))))

    def mismatch_share(first, second, points, shift: float = 0.0) -> float:
        bad = sum(1 for bx, by in points
                  if max(abs(a - b) for a, b in zip(pixel(first, bx, by),
                                                    pixel(second, bx + shift, by))) > 60)
        return bad / len(points)

    a1, a2, b1 = tiles["A1"], tiles["A2"], tiles["B1"]
    # Vertical seam: the strip from A2's left edge to 1 mm short of its dashed cut line.
    strip_x = [a2.x + 0.5 + i * 0.7 for i in range(int((5 * MM) / 0.7))]
    points = [(x, a1.y + j * 3.1) for x in strip_x for j in range(int(a1.height / 3.1))]
    assert mismatch_share("A1", "A2", points) < 0.01
    # The comparison can fail: sheets misaligned by 2 mm would not match.
    assert mismatch_share("A1", "A2", points, shift=2 * MM) > 0.02
    # Horizontal seam: the strip from B1's top edge down to 1 mm short of its cut line.
    strip_y = [b1.y + b1.height - 0.5 - i * 0.7 for i in range(int((5 * MM) / 0.7))]
    points = [(a1.x + j * 3.1, y) for y in strip_y for j in range(int(a1.width / 3.1))]
    assert mismatch_share("A1", "B1", points) < 0.01


def replace(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))


def problems(root) -> str:
    result = run("validate", "--game", "big-ten", root=root)
    assert result.exit_code == 1
    return result.stderr


def test_validate_passes_on_the_bundled_game():
    result = run("validate", "--game", "big-ten", root=REPO)
    assert result.exit_code == 0, result.stderr


def test_a_broken_interaction_table_is_caught(root):
    defense = root / "card_data/big-ten/defense.yaml"
    replace(defense, 'name: "Cover 2", run: "Card yards", pass: "No gain"',
            'name: "Cover 2", run: "Card yards", pass: "Card yards"')
    replace(defense, 'name: "Fire Zone", run: "Card yards +5", pass: "Loss of 4"',
            'name: "Fire Zone", run: "Card yards +5", pass: "Sort of"')
    errors = problems(root)
    assert "card 'Cover 2' (pass-defense) gives 'Card yards' against pass; the rules, \"The Turn; " \
           "Blitz Cards; Penalty Cards; Interceptions and Fumbles\", make that no-gain" in errors
    assert "card 'Fire Zone' has the result 'Sort of' against pass, which is not a result pnp knows" in errors


def test_a_penalty_that_helps_the_defense_on_a_screen_is_caught(root):
    replace(root / "card_data/big-ten/defense.yaml", 'name: "Holding", run: "Flag on O: -10", '
            'pass: "Flag on O: -10", play_action: "Flag on D: +10", screen: "Flag on D: +10"',
            'name: "Holding", run: "Flag on O: -10", pass: "Flag on O: -10", '
            'play_action: "Flag on D: +10", screen: "Flag on O: -10"')
    assert "card 'Holding' (penalty) gives 'Flag on O: -10' against screen" in problems(root)


def test_an_interception_that_never_wins_the_ball_is_caught(root):
    replace(root / "card_data/big-ten/defense.yaml",
            'name: "Ballhawk", run: "Card yards", pass: "Turnover", play_action: "Turnover"',
            'name: "Ballhawk", run: "Card yards", pass: "Card yards", play_action: "Card yards"')
    assert "card 'Ballhawk' (interception) must win the ball against some plays" in problems(root)


def test_wrong_counts_are_caught(root):
    replace(root / "card_data/big-ten/offense.yaml", '  - {type: run, kind: RUN, play: "Dive", yards: 1}\n', "")
    replace(root / "card_data/big-ten/time-outs.yaml", "{team: Home, count: 3}", "{team: Home, count: 4}")
    errors = problems(root)
    assert 'game.yaml:76: contents[1]: deck "offense": the deck has 59 cards; the rules, "GAME CONTENTS", state 60' in errors
    assert 'deck "time-outs": Home has 4 cards; the rules, "Time outs, 3 per player per half", state 3' in errors


def test_teams_special_teams_and_field_goal_odds_are_checked(root):
    replace(root / "card_data/big-ten/teams.yaml", "{name: Rutgers, short: RUTGERS",
            "{name: Purdue, short: RUTGERS")
    replace(root / "card_data/big-ten/special-teams.yaml", "kickoff: 15, punt: 30", "kickoff: 0, punt: 30")
    replace(root / "card_data/big-ten/board.yaml", '["36-40", "1-2", "2 in 6"]', '["36-45", "1-4", "4 in 6"]')
    errors = problems(root)
    assert "name 'Purdue' appears on 2 different cards" in errors
    assert "card 'Special teams 1' has kickoff 0; the rules, \"Kick Offs, start on the yard line " \
           "indicated\", allow 1 to 99" in errors
    assert "a kick from 36-45 is likelier than a closer one" in errors
    assert "the field-goal table reaches 45 yards" in errors
