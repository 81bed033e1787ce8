"""A corpus of bad inputs. Each one ends in a single clear message naming the file, the line
and (where there is one) the field; exit status 1; no traceback; earlier output untouched."""

from __future__ import annotations

import struct
import zlib

import pytest

from conftest import build, run

GAME = "card_data/mini/game.yaml"
CARDS = "card_data/mini/cards.yaml"
CARD = "layouts/mini/card.yaml"
BACK = "layouts/mini/back.yaml"
RULES = "card_data/mini/rules.md"
FONTS = "fonts/fonts.yaml"
FACTS = "card_data/mini/facts.yaml"   # mini has none: each case writes one


def swap(old: str, new: str):
    """An edit that replaces the first `old` with `new` (and fails loudly if `old` is gone)."""
    def edit(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)
    return edit


def whole(content: str):
    return lambda _text: content


def png_bytes(width: int, height: int) -> bytes:
    """A valid grey PNG of the given size, made by hand."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


IMAGE_ELEMENT = "\n  - kind: image\n    src: art.png\n    y: 20mm\n    h: 20mm\n"

# (id, file, edit, expected pieces of the message)
CASES = [
    # --- YAML ----------------------------------------------------------------------------------
    ("yaml-syntax", CARDS, swap("  - name: Knight", "  - name: [Knight"), [CARDS + ":", "YAML syntax"]),
    ("yaml-tab", CARDS, swap("    power: 3", "\tpower: 3"), [CARDS + ":", "tab"]),
    ("card-count-misspelt", CARDS, swap("    count: 4", "    cnt: 4"),
     [CARDS + ":10:", "cards[1].cnt", "unknown field 'cnt'", "did you mean 'count'?"]),
    ("yaml-tab-before-item", CARDS, swap("  - name: Bishop", "\t- name: Bishop"),
     [CARDS + ":12:", "a tab character; indent with spaces"]),
    ("yaml-unclosed-brace", CARDS, swap("  - name: Knight\n    power: 3\n    count: 4\n    text: Moves in an L.\n",
                                        "  - {name: Knight, power: 3, count: 4\n"),
     [CARDS + ":9:", "YAML syntax", "the { on line 8 is never closed with }"]),
    ("yaml-unclosed-quote", CARDS, swap("text: Moves in an L.", 'text: "Moves in an L.'),
     [CARDS + ":", "the quote on line 11 is never closed"]),
    ("yaml-quote-runs-on", CARDS, swap("  - name: Knight\n    power: 3\n    count: 4\n    text: Moves in an L.\n"
                                       "  - name: Bishop\n    power: 2\n    count: 2\n",
                                       '  - {name: Knight, power: 3, count: 4, text: "Moves in an L.}\n'
                                       '  - {name: Bishop, power: 2, count: 2, text: "**Moves** far"}\n'),
     [CARDS + ":9:", "YAML syntax", "the quote opened on line 8 runs on to this line: is its closing quote missing?"]),
    ("data-ods", GAME, swap("data: cards.yaml", "data: cards.ods"), [GAME + ":7:", "not .ods files", "save the sheet as XLSX"]),
    ("yaml-unquoted-colon", CARDS, swap("text: Moves in an L.", "text: Gain 2: draw one"),
     [CARDS + ":11:", "mapping values", "must be quoted"]),
    ("yaml-duplicate-key", CARDS, swap("    power: 3\n", "    power: 3\n    power: 4\n"),
     [CARDS + ":10:", "the key 'power' appears twice", "first on line 9"]),
    ("yaml-list-for-map", CARDS, swap("  - name: Bishop\n    power: 2\n    count: 2\n", "  - [Bishop, 2]\n#"),
     [CARDS + ":12:", "cards[2]", "expected a card (a map of field: value), found a list"]),
    ("yaml-map-for-list", GAME, swap("contents:\n  - {rule: total, deck: cards, equals: 6, source: Contents}",
                                     "contents:\n  rule: total"),
     [GAME + ":13:", "contents", "expected a list, found a map"]),
    ("yaml-text-for-number", CARDS, swap("power: 3", "power: ten"),
     [CARDS + ":9:", "cards[1].power", "expected a whole number, found the text 'ten'"]),
    ("yaml-number-for-name", GAME, swap("title: Mini", "title: 12"),
     [GAME + ":1:", "title", "expected text, found the number 12", 'write it in quotes, e.g. title: "12"']),
    ("yaml-empty-file", CARDS, whole(""), [CARDS + ":1:", "the file is empty"]),
    ("yaml-only-comment", GAME, whole("# nothing here yet\n"), [GAME + ":1:", "the file is empty (or only comments)"]),
    ("yaml-top-level-list", CARD, whole("- kind: box\n"), [CARD + ":1:", "expected a map"]),
    ("yaml-not-utf8", CARDS, lambda t: t.encode("latin-1", "replace").decode("latin-1") + "\n# caf\xe9\n",
     None),  # written as latin-1 below
    ("yaml-bool-for-text", CARDS, swap("text: Moves in an L.", "text: yes"),
     [CARDS + ":11:", "cards[1].text", "expected text, found true/false"]),
    # --- schema --------------------------------------------------------------------------------
    ("unknown-key-game", GAME, swap("paper: a4", "papr: a4"),
     [GAME + ":3:", "papr", "unknown key 'papr' (did you mean 'paper'?)"]),
    ("unknown-card-field", CARDS, swap("    power: 3", "    powr: 3"),
     [CARDS + ":9:", "cards[1].powr", "did you mean 'power'?"]),
    ("unknown-element-key", CARD, swap("    size: 14", "    siz: 14"),
     [CARD + ":", "elements[2].siz", "did you mean 'size'?"]),
    ("unknown-element-kind", CARD, swap("  - kind: box", "  - kind: bax"),
     [CARD + ":3:", "elements[1].kind", "unknown element kind 'bax' (did you mean 'box'?)"]),
    ("unknown-component-kind", GAME, swap("kind: deck", "kind: dek"),
     [GAME + ":6:", "components[1].kind", "did you mean 'deck'?"]),
    ("unknown-rule-kind", GAME, swap("rule: total", "rule: totl"),
     [GAME + ":14:", "contents[1].rule", "did you mean 'total'?"]),
    ("missing-component-key", GAME, swap("    data: cards.yaml\n", ""),
     [GAME + ":5:", "components[1]", "missing required key 'data'"]),
    ("missing-required-key", CARD, swap('    text: "{power}"\n', ""),
     [CARD + ":", "elements[3]", "missing required key 'text'"]),
    ("missing-card-name", CARDS, swap("  - name: Bishop\n    power: 2", "  - power: 2"),
     [CARDS + ":", "cards[2]", "missing required field 'name'"]),
    ("count-negative", CARDS, swap("count: 4", "count: -1"), [CARDS + ":10:", "cards[1].count", "count -1 is out of range"]),
    ("count-negative", CARDS, swap("count: 4", "count: -3"), [CARDS + ":10:", "count -3 is out of range"]),
    ("count-absurd", CARDS, swap("count: 4", "count: 1000000"), [CARDS + ":10:", "count 1000000 is out of range"]),
    ("deck-too-large", CARDS, lambda t: t + "".join(f"  - {{name: Pawn{i}, count: 1000}}\n" for i in range(21)),
     [CARDS + ":", "21006 cards is more than pnp builds in one deck (20000)"]),
    ("unknown-size", CARD, swap("size: mini", "size: mega"),
     [CARD + ":1:", "size", "unknown size 'mega'"]),
    ("unknown-paper", GAME, swap("paper: a4", "paper: a5"), [GAME + ":3:", "paper", "'a5' is not one of: letter, a4"]),
    ("bad-colour-in-data", CARDS, swap("    power: 2\n", "    power: 2\n    colour: blurple\n"),
     [CARDS + ":", "cards[2].colour", "'blurple' is not a colour"]),
    ("bad-colour-in-layout", BACK, swap('fill: "#333333"', "fill: '#33'"),
     [BACK + ":4:", "elements[1].fill", "'#33' is not a colour"]),
    ("bad-colour-names-its-key", CARD, swap("    colour: white\n    align: center\n    y: 20mm",
                                            "    colour: whit\n    align: center\n    y: 20mm"),
     [CARD + ":19:", "elements[3].colour", "'whit' is not a colour", "did you mean 'white'?"]),
    ("length-without-unit", CARD, swap("y: 5mm", "y: 5"), [CARD + ":", "elements[2].y", "'5' needs a unit"]),
    ("length-unknown-unit", CARD, swap("y: 5mm", "y: 5mn"), [CARD + ":", "elements[2].y", "unknown unit 'mn'"]),
    ("text-width-zero", CARD, swap("w: 36mm", "w: 0"),
     [CARD + ":", "elements[4].w", "a text box needs a width and a height above 0"]),
    ("text-width-negative", CARD, swap("w: 36mm", "w: -36mm"),
     [CARD + ":", "elements[4].w", "a negative length is not allowed here"]),
    ("height-negative-percent", CARD, swap("h: 18mm", "h: -18%"),
     [CARD + ":", "elements[4].h", "a negative length is not allowed here"]),
    ("deck-gap-negative", GAME, swap("    back: mini/back\n", "    back: mini/back\n    gap: -3mm\n"),
     [GAME + ":10:", "components[1].gap", "gap '-3mm' must be a length of 0 or more"]),
    ("deck-gap-percent", GAME, swap("    back: mini/back\n", "    back: mini/back\n    gap: 5%\n"),
     [GAME + ":10:", "components[1].gap", "(not a percentage)"]),
    ("font-size-absurd", CARD, swap("    size: 14", "    size: 100000"), [CARD + ":", "is too large"]),
    ("field-type-unknown", CARDS, swap("power: {type: whole}", "power: {type: integer}"),
     [CARDS + ":4:", "fields.power.type", "'integer' is not one of"]),
    # --- references ----------------------------------------------------------------------------
    ("missing-layout", GAME, swap("front: mini/card", "front: mini/crad"),
     [GAME + ":", "components[1].front", "no layout 'mini/crad'", "did you mean 'mini/card'?"]),
    ("missing-extends", CARD, lambda t: "extends: base/nothing\n" + t,
     [CARD + ":1:", "extends", "no layout 'base/nothing'"]),
    ("extends-cycle", CARD, lambda t: "extends: mini/back\n" + t, None),  # back extends card, below
    ("missing-field", CARD, swap('text: "{power}"', 'text: "{strength}"'),
     [CARD + ":", "uses the field 'strength', which the cards do not have"]),
    ("binding-attribute", CARD, swap('text: "{power}"', 'text: "{power.__class__}"'),
     [CARD + ":", "'{power.__class__}' is not a field name"]),
    ("binding-dunder", CARD, swap('text: "{power}"', 'text: "{__class__}"'),
     [CARD + ":", "'{__class__}' is not a field name"]),
    ("binding-index", CARD, swap('text: "{power}"', 'text: "{0}"'), [CARD + ":", "'{0}' is not a field name"]),
    ("binding-heading", CARD, swap('text: "{power}"', 'text: "{Card Name}"'),
     [CARD + ":", "'{Card Name}' is not a field name", "the field named after it: {card_name}"]),
    ("binding-accented-heading", CARD, swap('text: "{power}"', 'text: "{Coût}"'),
     [CARD + ":", "'{Coût}' is not a field name", "the field named after it: {cout}"]),
    ("binding-unmatched", CARD, swap('text: "{power}"', 'text: "{power"'), [CARD + ":", "unmatched '{'"]),
    ("missing-data-file", GAME, swap("data: cards.yaml", "data: cardz.yaml"),
     [GAME + ":", "data file 'cardz.yaml' not found"]),
    ("missing-rules-file", GAME, swap("source: rules.md", "source: rulez.md"),
     [GAME + ":", "rule sheet 'rulez.md' not found"]),
    ("missing-image", CARD, lambda t: t + IMAGE_ELEMENT, [CARD + ":", "image 'art.png' not found"]),
    ("corrupt-image", CARD, lambda t: t + IMAGE_ELEMENT, [CARD + ":", "image 'art.png' is not a PNG, JPEG or SVG file pnp can read"]),
    ("image-too-large", CARD, lambda t: t + IMAGE_ELEMENT, [CARD + ":", "too large to place"]),
    ("missing-font-family", CARD, swap("font: display", "font: dispaly"),
     [CARD + ":", "unknown font family 'dispaly'", "did you mean 'display'?"]),
    ("missing-font-file", FONTS, swap("regular: FjallaOne-Regular.ttf", "regular: Nope.ttf"),
     [FONTS + ":", "display.regular", "font file 'Nope.ttf' not found"]),
    ("unknown-placeholder", RULES, swap("{{contents}}", "{{contnets}}"), [RULES + ":3:", "names no generated table"]),
    ("placeholder-inside-a-paragraph", RULES, swap("\n{{contents}}", "\nYou need these.\n{{contents}}"),
     [RULES + ":4:", "'{{contents}}' is inside a paragraph, where it would print as written"]),
    ("mistyped-placeholder-inside-a-paragraph", RULES, swap("Take turns.", "Take turns. {{card-lst}}"),
     [RULES + ":7:", "'{{card-lst}}' is inside a paragraph"]),
    ("rules-unknown-icon", RULES, swap("{{contents}}", "{{contents}}\n\nGain a :coni: each turn."),
     [RULES + ":5:", "no icon ':coni:'"]),
    # --- escaping the game folder ----------------------------------------------------------------
    ("data-path-escape", GAME, swap("data: cards.yaml", "data: ../../../../etc/passwd"),
     [GAME + ":", "leads outside the game folder"]),
    ("data-path-absolute", GAME, swap("data: cards.yaml", "data: /etc/passwd"), [GAME + ":", "is absolute"]),
    ("layout-path-escape", GAME, swap("front: mini/card", "front: ../../etc/passwd"),
     [GAME + ":", "outside the layouts folder"]),
    ("image-path-escape", CARD, lambda t: t + IMAGE_ELEMENT.replace("art.png", "../../../etc/hosts"),
     [CARD + ":", "leads outside the game folder"]),
    ("rules-path-escape", GAME, swap("source: rules.md", "source: ../../../README.md"),
     [GAME + ":", "leads outside the game folder"]),
    ("font-path-escape", FONTS, swap("regular: FjallaOne-Regular.ttf", "regular: ../../x.ttf"),
     [FONTS + ":", "outside the fonts folder"]),
    # --- validation ----------------------------------------------------------------------------
    ("wrong-total", GAME, swap("equals: 6", "equals: 7"),
     ['game.yaml:14: contents[1]: deck "cards": the deck has 6 cards; the rules, "Contents", state 7']),
    ("rule-names-unknown-deck", GAME, swap("deck: cards, equals", "deck: crads, equals"),
     [GAME + ":14:", "contents[1].deck", "did you mean 'cards'?"]),
    # --- facts.yaml ----------------------------------------------------------------------------
    ("facts-unknown-key", FACTS, whole("# what the rules state\nscoring:\n  win: {value: 10, wrods: [wins?]}\n"),
     [FACTS + ":3:", "scoring.win", "unknown key 'wrods'", "did you mean 'words'?"]),
    ("facts-misspelt-value", FACTS, whole("scoring:\n  win: {vaule: 10, section: Winning}\n"),
     [FACTS + ":2:", "unknown key 'vaule'", "did you mean 'value'?"]),
    ("facts-wrong-type", FACTS, whole("scoring:\n  win:\n    value: 10\n    near: ten\n"),
     [FACTS + ":4:", "near", "expected a whole number, found the text 'ten'"]),
    ("facts-near-zero", FACTS, whole("scoring:\n  win: {value: 10, words: [win], near: 0}\n"),
     [FACTS + ":2:", "near", "the least allowed is 1"]),
    ("facts-words-in-a-language", FACTS, whole("scoring:\n  win: {value: 10, words_de: {gewinnt: 1}}\n"),
     [FACTS + ":2:", "words_de", "found a map"]),
    ("facts-bad-pattern", FACTS, whole("scoring:\n  win: {value: 10, words: ['(win']}\n"),
     [FACTS + ":2:", "'(win' is not a pattern pnp can read"]),
    ("facts-list-in-a-group", FACTS, whole("scoring:\n  win: [10, 12]\n"),
     [FACTS + ":2:", "scoring.win", "a group holds facts and groups, not a list"]),
    ("facts-table-entry-without-key", FACTS,
     whole("pieces:\n  key: name\n  entries:\n    - {name: Knight, power: 3}\n    - {power: 2}\n"),
     [FACTS + ":5:", "pieces.entries[2]", "an entry has no 'name', the table's key"]),
    ("facts-table-misspelt", FACTS, whole("pieces:\n  key: name\n  entrys:\n    - {name: Knight}\n"),
     [FACTS + ":3:", "unknown key 'entrys'", "did you mean 'entries'?"]),
]


def apply(root, case):
    name, relative, edit, _ = case
    path = root / relative
    if name == "yaml-not-utf8":
        path.write_bytes(path.read_bytes() + b"\n# caf\xe9\n")
        return
    if name == "extends-cycle":
        (root / BACK).write_text("extends: mini/card\n" + (root / BACK).read_text())
    if name == "corrupt-image":
        (root / "card_data/mini/art.png").write_bytes(png_bytes(4, 4)[:30])
    if name == "image-too-large":
        (root / "card_data/mini/art.png").write_bytes(png_bytes(13_000, 12_000))
    path.write_text(edit(path.read_text() if path.exists() else ""))


EXPECTED_EXTRA = {
    "yaml-not-utf8": [CARDS + ":17:", "not UTF-8 text", "0xe9", "save the file as UTF-8"],
    "extends-cycle": ["layouts extend each other in a circle: mini/card -> mini/back -> mini/card"],
}


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_clear_message(mini, tmp_path, case):
    out = tmp_path / "out"
    build(mini, "mini", out)
    before = {p.name: p.read_bytes() for p in (out / "mini").iterdir()}
    apply(mini, case)
    result = run("build", "--game", "mini", "--out", str(out), root=mini)
    errors = result.stderr
    assert result.exit_code == 1, (result.exit_code, result.output, errors)
    assert "Traceback" not in errors + result.output
    lines = [line for line in errors.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, errors
    for piece in case[3] or EXPECTED_EXTRA[case[0]]:
        assert piece in lines[0], (piece, lines[0])
    after = {p.name: p.read_bytes() for p in (out / "mini").iterdir()}
    assert after == before
