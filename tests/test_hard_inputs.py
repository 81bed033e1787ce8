"""Hard inputs, round two: no escape, no crash, no hang, and one clear line for each.

Hangs and crashes run in a subprocess with a timeout, so a regression fails the test instead
of stalling the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import build, run


def pnp(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True, timeout=timeout)


def one_clear_line(result, *fragments: str) -> None:
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr and "internal problem" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, (fragment, result.stderr)


def set_in_game(mini: Path, old: str, new: str) -> None:
    game = mini / "card_data/mini/game.yaml"
    text = game.read_text()
    assert old in text
    game.write_text(text.replace(old, new))


def add_element(mini: Path, element: str) -> None:
    card = mini / "layouts/mini/card.yaml"
    card.write_text(card.read_text().rstrip("\n") + "\n  - " + element + "\n")


# --- writing outside --out -------------------------------------------------------------------

@pytest.mark.parametrize("bad_id", ["../../escaped", "/tmp/abs", "a/b", "..", "has space", "x" * 80])
def test_an_id_that_is_not_a_plain_name_is_refused_at_load(mini, tmp_path, bad_id):
    set_in_game(mini, "id: cards", f"id: '{bad_id}'")
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "out"))
    one_clear_line(result, "game.yaml:5:", "components[1].id", "not a plain name")
    assert not list(tmp_path.rglob("*.pdf")) and not list(mini.parent.rglob("escaped*"))
    for command in ("validate", "proof"):
        extra = [] if command == "validate" else ["--out", str(tmp_path / "out")]
        one_clear_line(pnp(command, "--game", "mini", "--root", str(mini), *extra), "not a plain name")


@pytest.mark.parametrize("inside", ["card_data", "layouts", "fonts", "card_data/mini/out"])
def test_an_output_folder_inside_the_sources_is_refused(mini, inside):
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(mini / inside))
    assert result.returncode == 2 and "which pnp reads" in result.stderr
    assert not list(mini.rglob("*.pdf"))


def test_an_output_folder_in_pnps_own_files_is_refused(mini):
    """The trial's `--out pnp/bundled/layouts` wrote PDFs among the layouts pnp reads."""
    import pnp as package
    from pnp.errors import PnpError
    from pnp.outputs.folder import OutputFolder
    bundled = Path(package.__file__).parent / "bundled/layouts"
    before = sorted(p.name for p in bundled.rglob("*"))
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(bundled))
    assert result.returncode == 2 and "is inside pnp's own files" in result.stderr
    assert sorted(p.name for p in bundled.rglob("*")) == before
    with pytest.raises(PnpError, match="leads into pnp's own files"):   # a game's folder checked alone too
        OutputFolder(bundled / "mini").check_place(mini, bundled)


# --- crashes and hangs -----------------------------------------------------------------------

def test_yaml_nested_forty_thousand_deep_is_an_error_not_a_crash(mini, tmp_path):
    (mini / "card_data/mini/cards.yaml").write_text("cards: " + "[" * 40_000 + "]" * 40_000 + "\n")
    one_clear_line(pnp("validate", "--game", "mini", "--root", str(mini)), "cards.yaml:1:", "nested more than")


def test_a_data_file_past_the_size_cap_is_refused_before_parsing(mini):
    cards = mini / "card_data/mini/cards.yaml"
    with cards.open("a") as handle:
        handle.write("# " + "x" * (21 * 2**20) + "\n")
    one_clear_line(pnp("validate", "--game", "mini", "--root", str(mini)), "cards.yaml", "MB")


@pytest.mark.parametrize("element", [
    "{kind: text, text: hi, size: .nan}",
    "{kind: text, text: hi, size: .inf}",
    "{kind: field, name: f, size: .nan}",
    "{kind: box, x: 1111111111111111111111111111111111111111111111111111111111111111111111111111111mm}",
])
def test_nan_infinite_and_absurd_numbers_are_refused(mini, element):
    add_element(mini, element)
    one_clear_line(pnp("validate", "--game", "mini", "--root", str(mini), timeout=60), "card.yaml:")


def test_a_tiny_card_is_refused_not_drawn_for_hours(mini, tmp_path):
    set_in_game(mini, "back: mini/back", "back: mini/back\n    size: [0.000001mm, 0.000001mm]")
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "out"), timeout=60)
    one_clear_line(result, "game.yaml:", "at least 5 mm")


def test_nested_repeats_are_bounded_with_a_clear_message(mini, tmp_path):
    add_element(mini, "{kind: repeat, count: 1000, elements: [{kind: repeat, count: 1000, elements: "
                      "[{kind: repeat, count: 1000, elements: [{kind: box, w: 1mm, h: 1mm}]}]}]}")
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "out"), timeout=60)
    one_clear_line(result, "card.yaml:", "more than 20,000 shapes")


def test_shrinking_a_huge_text_ends_quickly(mini, tmp_path):
    add_element(mini, "{kind: text, text: '" + "word " * 2000 + "', size: 2000, min_size: 1}")
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "out"), timeout=60)
    assert result.returncode == 0, result.stderr   # and within the timeout: bisection, not 4,000 tries


# --- one clear line, never an internal problem ------------------------------------------------

@pytest.mark.parametrize("value, words", [
    ("!!timestamp 2024-13-45", "not a valid timestamp"),
    ("!!int abc", "not a valid int"),
    ("1" + "0" * 5000, "not a valid int"),
])
def test_bad_tagged_values_and_huge_integers_are_errors(mini, value, words):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("power: 3", f"power: {value}"))
    one_clear_line(pnp("validate", "--game", "mini", "--root", str(mini)), "cards.yaml:9:", words)


@pytest.mark.parametrize("element, words", [
    ("{kind: [box]}", "kind"),
    ("{kind: line, dash: [0, 0]}", "dash"),
    ("{kind: line, dash: [-1, 2]}", "dash"),
])
def test_malformed_elements_are_errors(mini, tmp_path, element, words):
    add_element(mini, element)
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "out"))
    one_clear_line(result, "card.yaml:", words)


@pytest.mark.parametrize("key", ["front", "data", "source"])
def test_a_nul_in_a_path_is_an_error(mini, key):
    value = {"front": "mini/card", "data": "cards.yaml", "source": "rules.md"}[key]
    set_in_game(mini, f"{key}: {value}", f'{key}: "{value}\\0x"')
    one_clear_line(pnp("build", "--game", "mini", "--root", str(mini), "--out", str(mini.parent / "o")), "NUL")


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_a_rule_sheet_not_in_utf8_is_an_error(mini, tmp_path, encoding):
    (mini / "card_data/mini/rules.md").write_bytes("# Règles\n\nDéplacez.\n".encode(encoding))
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "out"))
    one_clear_line(result, "rules.md", "not UTF-8")


def test_an_empty_rule_sheet_is_an_error(mini, tmp_path):
    (mini / "card_data/mini/rules.md").write_text("\n  \n")
    one_clear_line(pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "o")), "empty")


def test_a_default_is_checked_like_a_value(mini):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("power: {type: whole}", "power: {type: whole, default: !!set {a}}"))
    one_clear_line(pnp("validate", "--game", "mini", "--root", str(mini)), "cards.yaml:4:", "default")


def test_a_merge_key_then_an_override_is_valid_yaml(mini, tmp_path):
    cards = mini / "card_data/mini/cards.yaml"
    text = cards.read_text().replace("  - name: Knight\n    power: 3\n",
                                     "  - &knight\n    name: Knight\n    power: 3\n")
    text += "  - <<: *knight\n    name: Rook\n    count: 1\n"
    cards.write_text(text)
    set_in_game(mini, "equals: 6", "equals: 7")
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr


def test_symlink_loops_are_errors(mini, tmp_path):
    loop = mini / "card_data/mini/loop.png"
    loop.symlink_to(loop)
    add_element(mini, "{kind: image, src: loop.png}")
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "out"))
    one_clear_line(result, "loop.png")


@pytest.mark.parametrize("args", [["watch", "--interval", "nan"], ["build", "--back-offset", "nan,0"],
                                  ["build", "--back-offset", "inf,0"]])
def test_non_finite_options_are_usage_errors(mini, args):
    result = pnp(*args, "--game", "mini", "--root", str(mini), timeout=30)
    assert result.returncode == 2, result.stderr


@pytest.mark.parametrize("title", ["Catan: Seafarers", "yes", "1", "#1 Game", 'Say "hi" {now}'])
def test_pnp_new_makes_a_game_that_builds_whatever_its_title(root, tmp_path, title):
    result = run("new", "g", "--title", title, root=root)
    assert result.exit_code == 0, result.stderr
    build(root, "g", tmp_path / "out")
    from conftest import pdf
    text = pdf(tmp_path / "out/g/rules-letter.pdf").pages[0].extract_text()
    assert title.split(":")[0].replace('"', "") in text.replace('"', "").replace("“", "").replace("”", "")


def test_a_negative_or_percentage_board_overlap_is_an_error(root, tmp_path):
    game = root / "card_data/big-ten/game.yaml"
    text = game.read_text()
    assert "layout: big-ten/board" in text
    for overlap in ("-5mm", "10%"):
        game.write_text(text.replace("layout: big-ten/board", f"layout: big-ten/board\n    overlap: '{overlap}'"))
        result = pnp("build", "--game", "big-ten", "--root", str(root), "--out", str(tmp_path / "out"))
        one_clear_line(result, "overlap")


def test_a_deeply_nested_bullet_list_just_works(mini, tmp_path):
    rules = "# Rules\n\n" + "".join("  " * depth + f"- level {depth + 1}\n" for depth in range(10))
    (mini / "card_data/mini/rules.md").write_text(rules)
    build(mini, "mini", tmp_path)
    from conftest import pdf
    assert "level 10" in pdf(tmp_path / "mini/rules-a4.pdf").pages[0].extract_text()


def test_a_truncated_font_file_is_an_error(mini, tmp_path):
    fonts = sorted((mini / "fonts").glob("*.ttf"))
    for font in fonts:
        font.write_bytes(font.read_bytes()[:2000])
    result = pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "out"))
    one_clear_line(result, ".ttf")


def test_a_file_that_vanishes_or_cannot_be_read_is_an_error(mini, tmp_path, monkeypatch):
    notes = mini / "card_data/mini/notes.txt"
    notes.write_text("x")
    real = Path.read_bytes

    def read_bytes(self):
        if self.name == "notes.txt":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    result = run("build", "--game", "mini", "--out", str(tmp_path / "out"), root=mini)
    assert result.exit_code == 1 and "notes.txt" in result.stderr and "Permission denied" in result.stderr


def test_a_list_past_the_nesting_limit_is_an_error_not_dropped_text(mini, tmp_path):
    rules = "# Rules\n\n" + "".join("  " * depth + f"- level {depth + 1}\n" for depth in range(30))
    (mini / "card_data/mini/rules.md").write_text(rules)
    one_clear_line(pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "o")),
                   "rules.md:", "nests lists")


def test_a_nul_in_a_font_file_name_is_an_error(mini, tmp_path):
    fonts = mini / "fonts/fonts.yaml"
    fonts.write_text(fonts.read_text().replace("regular: FjallaOne-Regular.ttf", 'regular: "FjallaOne\\0.ttf"'))
    one_clear_line(pnp("build", "--game", "mini", "--root", str(mini), "--out", str(tmp_path / "o")),
                   "fonts.yaml:", "NUL")


def damaged_glyphs(font: Path) -> None:
    """Random bytes in the glyph table, every table's checksum made right again: a file that
    passes reportlab's checks and fails only as its glyphs are embedded."""
    import random
    import struct
    data = bytearray(font.read_bytes())
    tables = {}
    for index in range(struct.unpack(">H", data[4:6])[0]):
        entry = 12 + 16 * index
        tag = bytes(data[entry:entry + 4]).decode()
        _, offset, length = struct.unpack(">III", data[entry + 4:entry + 16])
        tables[tag] = (entry, offset, length)
    _, offset, length = tables["loca"]
    spoil = random.Random(1)
    for _ in range(max(1, length // 20)):
        data[offset + spoil.randrange(length)] = spoil.randrange(256)

    def checksum(part: bytes) -> int:
        part += b"\0" * ((4 - len(part) % 4) % 4)
        return sum(struct.unpack(f">{len(part) // 4}I", part)) & 0xFFFFFFFF
    for tag, (entry, offset, length) in tables.items():
        part = bytes(data[offset:offset + length])
        if tag == "head":
            part = part[:8] + b"\0\0\0\0" + part[12:]
        struct.pack_into(">I", data, entry + 4, checksum(part))
    head = tables["head"][1]
    struct.pack_into(">I", data, head + 8, 0)
    struct.pack_into(">I", data, head + 8, (0xB1B0AFBA - checksum(bytes(data))) & 0xFFFFFFFF)
    font.write_bytes(bytes(data))


def test_a_font_with_damaged_glyphs_is_an_error_at_its_line_in_validate_and_build(mini, tmp_path):
    """Its tables pass their checksums, so only writing the file failed: an internal error in
    a build, and validate (which writes no file) said the game was fine."""
    damaged_glyphs(mini / "fonts/FjallaOne-Regular.ttf")
    for command in (["validate"], ["build", "--out", str(tmp_path / "out")]):
        result = run(command[0], "--game", "mini", *command[1:], root=mini)
        assert result.exit_code == 1 and "internal problem" not in result.stderr, result.stderr
        assert "fonts/fonts.yaml:" in result.stderr and "FjallaOne-Regular.ttf' as a TrueType font: the file is damaged" \
            in result.stderr, result.stderr


def test_a_family_with_an_empty_regular_face_is_an_error_at_its_line(mini):
    fonts = mini / "fonts/fonts.yaml"
    fonts.write_text(fonts.read_text().replace("regular: FjallaOne-Regular.ttf", 'regular: ""'))
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 1 and "internal problem" not in result.stderr
    assert "fonts/fonts.yaml:" in result.stderr and "regular: a family needs its regular face" in result.stderr, \
        result.stderr


def test_a_file_whose_name_is_not_utf8_is_no_internal_problem(mini, tmp_path):
    """Unzipping an archive made on another system can leave such a name in the game folder:
    every file's name goes into the build's keys."""
    import os
    folder = os.fsencode(mini / "card_data/mini")
    os.makedirs(folder + b"/images", exist_ok=True)
    for name in (b"/\xff.txt", b"/images/p\xe9.png"):   # a picture's name goes into the record's looks too
        os.close(os.open(folder + name, os.O_CREAT | os.O_WRONLY, 0o644))
    build(mini, "mini", tmp_path)
    assert run("validate", "--game", "mini", root=mini).exit_code == 0
    result = run("diff", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0 and "no card changed" in result.output, result.output
