"""Card logic with no extra fields and no code: `when:` comparisons, a front layout chosen per
card, a repeat counted by a card's field. Read back from the PDFs the mini deck builds (four
Knights of power 3, two Bishops of power 2)."""

from __future__ import annotations

import pytest

from conftest import build, pdf, run

CARD = "layouts/mini/card.yaml"
GAME = "card_data/mini/game.yaml"


def add_to_card(mini, text: str) -> None:
    card = mini / CARD
    card.write_text(card.read_text() + text)


def words(path) -> list[str]:
    return " ".join(page.extract_text() for page in pdf(path).pages).split()


@pytest.mark.parametrize("when, knights, bishops", [
    ("name", True, True),
    ("{name: Knight}", True, False),
    ("{name: [Bishop, Rook]}", False, True),
    ("{not: {name: Knight}}", False, True),
    ("{power: {at_least: 3}}", True, False),
    ("{power: {at_least: 2}}", True, True),
    ("{power: {above: 2}}", True, False),
    ("{power: {below: 3}}", False, True),
    ("{power: {at_most: 2}}", False, True),
    ("{power: {is: 2}}", False, True),
    ("{power: 3}", True, False),
    ("{any: [{name: Bishop}, {power: {above: 5}}]}", False, True),
    ("{name: Knight, power: {below: 3}}", False, False),
    ("{text: {set: true}}", True, True),
    ("{colour: {set: false}}", False, False),
])
def test_when_draws_an_element_only_for_the_cards_it_holds_for(mini, tmp_path, when, knights, bishops):
    add_to_card(mini, f"  - {{kind: text, text: MARKED, when: {when}, y: 56mm, h: 5mm}}\n")
    build(mini, "mini", tmp_path)
    printed = words(tmp_path / "mini/cards-a4.pdf")
    assert printed.count("MARKED") == 4 * knights + 2 * bishops, printed


@pytest.mark.parametrize("when, message", [
    ("{powr: {at_least: 3}}", "the layout uses the field 'powr', which the cards do not have (did you mean 'power'?)"),
    ("{power: {atleast: 3}}", "'atleast' is not a comparison"),
    ("{power: {at_least: three}}", "at_least takes a number, found the text 'three'"),
    ("{not: {nmae: Knight}}", "the field 'nmae'"),
    ("\"__import__('os')\"", "the field '__import__('os')'"),   # a name, never evaluated
    ("[a, b]", "when: expected a field name or a map"),
])
def test_a_bad_when_fails_validate_at_its_line(mini, when, message):
    add_to_card(mini, f"  - kind: text\n    text: MARKED\n    when: {when}\n")
    line = len((mini / CARD).read_text().splitlines())
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1, result.output
    assert f"card.yaml:{line}:" in result.stderr and message in result.stderr, result.stderr


def test_a_repeat_takes_its_count_from_a_card_field(mini, tmp_path):
    add_to_card(mini, '  - {kind: repeat, count: "{power}", y: 56mm, dx: 5mm, w: 5mm, h: 4mm,\n'
                      '     elements: [{kind: text, text: "pip{i}", size: 5}]}\n')
    build(mini, "mini", tmp_path)
    page = pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text()
    # four Knights with three pips, two Bishops with two
    assert page.count("pip3") == 4 and page.count("pip2") == 6 and page.count("pip1") == 6
    assert "pip4" not in page


def test_a_repeat_count_that_is_no_whole_number_names_the_card(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("power: {type: whole}", "power: {type: number}")
                     .replace("power: 2", "power: 2.5"))
    add_to_card(mini, '  - {kind: repeat, count: "{power}", elements: [{kind: text, text: "x"}]}\n')
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1
    assert "cards.yaml:" in result.stderr and "card 'Bishop'" in result.stderr and "whole number" in result.stderr


@pytest.mark.parametrize("count, message", [("\"{powr}\"", "the field 'powr'"),
                                            ("\"x{power}\"", "count is a whole number or one field")])
def test_a_bad_repeat_count_is_an_error_at_its_line(mini, count, message):
    add_to_card(mini, f"  - kind: repeat\n    count: {count}\n    elements: [{{kind: text, text: x}}]\n")
    line = len((mini / CARD).read_text().splitlines()) - 1
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and f"card.yaml:{line}:" in result.stderr and message in result.stderr, result.stderr


def test_a_repeat_over_a_field_that_is_no_list_is_an_error_at_its_line(mini):
    """items_from: name repeated over the name's letters, "S 1  c 2  o 3", without a word."""
    add_to_card(mini, "  - kind: repeat\n    items_from: name\n    elements: [{kind: text, text: \"{item}\"}]\n")
    line = len((mini / CARD).read_text().splitlines()) - 1
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1, result.stderr
    assert f"card.yaml:{line}: elements[5].items_from: 'name' is a text field; a repeat takes its items from a list field" \
        in result.stderr, result.stderr


BISHOP = """size: mini
elements:
  - {kind: box, fill: "#7a1f1f", bleed: true}
  - {kind: text, text: "BISHOP {name}", colour: white, y: 20mm, h: 10mm, align: center}
"""


def choose_front(mini, choice: str, bishop: str = BISHOP) -> None:
    (mini / "layouts/mini/bishop.yaml").write_text(bishop)
    game = mini / GAME
    game.write_text(game.read_text().replace("    front: mini/card\n", f"    front: {choice}\n"))


def test_a_deck_picks_each_cards_front_by_a_field(mini, tmp_path):
    choose_front(mini, "{by: name, layouts: {Bishop: mini/bishop}, default: mini/card}")
    build(mini, "mini", tmp_path, "--shop", "tgc")
    printed = " ".join(words(tmp_path / "mini/cards-a4.pdf"))
    assert printed.count("BISHOP Bishop") == 2 and printed.count("Knight") == 4
    assert "Moves along a diagonal." not in printed and printed.count("Moves in an L.") == 4
    from PIL import Image
    bishop = Image.open(tmp_path / "mini/tgc/cards/cards-002-front-x2.png").convert("RGB")
    assert bishop.getpixel((10, 10)) == (0x7a, 0x1f, 0x1f)


@pytest.mark.parametrize("choice, bishop, message", [
    ("{by: name, layouts: {Bishop: mini/bishop}}", BISHOP,
     "card 'Knight': its name is 'Knight', which names no layout"),
    ("{by: nmae, layouts: {Bishop: mini/bishop}}", BISHOP, "'nmae' is not a field of the deck's cards"),
    ("{by: name, layouts: {Bishop: mini/bishp}, default: mini/card}", BISHOP, "no layout 'mini/bishp'"),
    ("{by: name, layouts: {Bishop: mini/bishop}, default: mini/card}", BISHOP.replace("size: mini", "size: poker"),
     "is not the size of"),
])
def test_a_bad_front_choice_is_one_clear_error(mini, choice, bishop, message):
    choose_front(mini, choice, bishop)
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("back, poker", [
    ("mini/back", "back"),
    ("{by: name, layouts: {Bishop: mini/bishop}, default: mini/back}", "bishop"),
])
def test_a_back_layout_of_another_size_than_the_front_is_an_error_at_its_size(mini, tmp_path, back, poker):
    """A back is drawn at its front's size: one whose layout names another size was stretched
    to the front's without a word (sheets and shop files showed mini backs for a poker back)."""
    choose_front(mini, "mini/card")   # the front as it was; mini/bishop.yaml written
    layout = mini / f"layouts/mini/{poker}.yaml"
    layout.write_text(layout.read_text().replace("size: mini", "size: poker"))
    game = mini / GAME
    game.write_text(game.read_text().replace("    back: mini/back\n", f"    back: {back}\n"))
    for result in (run("validate", "--game", "mini", root=mini),
                   run("build", "--game", "mini", "--out", str(tmp_path), root=mini)):
        assert result.exit_code == 1, result.stderr
        assert f"layouts/mini/{poker}.yaml:1: size: layout 'mini/{poker}' is not the size of 'mini/card'" \
            in result.stderr, result.stderr
        assert "Traceback" not in result.stderr


def test_a_back_that_extends_a_layout_of_another_size_is_an_error_at_that_size(mini):
    """Not base/card, but the project's own layout of poker size: the back names that size."""
    (mini / "layouts/mini/poker-base.yaml").write_text("size: poker\nelements:\n  - {kind: box, fill: red}\n")
    back = mini / "layouts/mini/back.yaml"
    back.write_text(back.read_text().replace("size: mini\n", "extends: mini/poker-base\n"))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "layouts/mini/poker-base.yaml:1: size: layout 'mini/back' is not the size of " \
        "'mini/card'" in result.stderr, result.stderr


@pytest.mark.parametrize("own_base", [False, True])
def test_a_back_layout_that_names_no_size_of_its_own_is_drawn_at_the_fronts(mini, tmp_path, own_base):
    """Not an error: a back on base/card (poker) behind a mini front, as `pnp new` writes it and a
    designer keeps when the front's size changes; pnp's own base or the project's copy of it."""
    if own_base:
        import shutil
        from conftest import REPO
        (mini / "layouts/base").mkdir(exist_ok=True)
        shutil.copy(REPO / "pnp/bundled/layouts/base/card.yaml", mini / "layouts/base/card.yaml")
    back = mini / "layouts/mini/back.yaml"
    back.write_text(back.read_text().replace("size: mini\n", "extends: base/card\n"))
    build(mini, "mini", tmp_path)
    from conftest import placements
    fronts, backs = (placements(page) for page in pdf(tmp_path / "mini/cards-a4.pdf").pages[:2])
    assert backs and {(round(w, 2), round(h, 2)) for *_, w, h in backs} == \
        {(round(w, 2), round(h, 2)) for *_, w, h in fronts}


@pytest.mark.parametrize("when, told", [
    ("{power: high}", "'power' is a whole field in these cards, so the word 'high' never matches it"),
    ("{text: {at_least: 3}}", "'text' is a text field in these cards, and comparing it as a number never holds"),
    ("{brave: \"Yes\"}", "'brave' is a flag (true or false) in these cards, so 'Yes' never matches it"),
    ("{any: [{power: 3}, {brave: {is: maybe}}]}", "'brave' is a flag (true or false) in these cards, so 'maybe'"),
    ("{text: Yes}", "'text' is text in these cards, and YAML reads this value as true"),
])
def test_a_comparison_no_value_of_its_fields_type_can_meet_is_warned_about_at_its_line(mini, when, told):
    """The review's trap: a CSV column read as flags, or a price read as text, left a `when:`
    that never held, and the element vanished from every card without a word. A warning, as a
    layout several decks share may mean a comparison for one of them."""
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("  text: {type: text}\n", "  text: {type: text}\n  brave: {type: flag}\n"))
    add_to_card(mini, f"  - {{kind: text, text: SEEN, when: {when}, y: 60mm, h: 5mm}}\n")
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 0 and "Traceback" not in result.stderr
    assert "warning: " in result.stderr and "layouts/mini/card.yaml:" in result.stderr and told in result.stderr


def test_comparisons_a_value_of_the_fields_type_can_meet_are_taken(mini):
    """Including a blank flag (null), and 1, 0 and "True" against a flag, which match as before."""
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("  text: {type: text}\n", "  text: {type: text}\n  brave: {type: flag}\n"))
    add_to_card(mini, "  - {kind: text, text: SEEN, when: {power: \"3\", brave: true, text: {one_of: [x]}, "
                      "all: [{power: {at_least: 2}}]}, y: 60mm, h: 5mm}\n"
                      "  - {kind: text, text: SEEN, when: {any: [{brave: null}, {brave: 1}, {brave: 0}, {brave: \"True\"}]}, "
                      "y: 60mm, h: 5mm}\n")
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 0 and "never" not in result.stderr and "YAML reads" not in result.stderr
