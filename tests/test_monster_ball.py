"""Monster Ball: roster cards and sheets, fillable blanks, tokens, scoreboard, field, checks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from conftest import REPO, build, icons_on, pdf, placements, run

LAW = {"Barbarian": (2, 2, 4, 1, 3), "Dwarf": (1, 1, 2, 1, 4), "Gnome": (2, 1, 2, 2, 4),
       "Paladin": (4, 3, 2, 2, 3), "Pixie": (1, 3, 1, 1, 3), "Valkyrie": (2, 3, 3, 3, 3),
       "Werebear": (1, 1, 3, 1, 5), "Wizard": (2, 2, 1, 4, 4)}
CHAOS = {"Anti-Paladin": (4, 3, 2, 2, 3), "Bugbear": (1, 1, 3, 1, 5), "Hobgoblin": (2, 2, 4, 1, 3),
         "Imp": (1, 3, 1, 1, 3), "Kobold": (2, 1, 2, 2, 4), "Orc": (1, 1, 2, 1, 4),
         "Succubus": (2, 3, 3, 3, 3), "Warlock": (2, 2, 1, 4, 4)}


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("monster-ball")
    build(REPO, "monster-ball", folder)
    return folder / "monster-ball"


def test_16_roster_cards_with_the_documents_stats(out):
    reader = pdf(out / "roster-cards-letter.pdf")
    fronts = [reader.pages[i] for i in range(0, len(reader.pages), 2)]
    assert sum(len(placements(p)) for p in fronts) == 16
    # Each card's text reads: team, NAME, the five stat labels, then the five numbers.
    text = "\n".join(p.extract_text() for p in fronts)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for name, stats in {**LAW, **CHAOS}.items():
        at = lines.index(name.upper())
        numbers = [line for line in lines[at + 1:at + 12] if line.isdigit()][:5]
        assert tuple(int(n) for n in numbers) == stats, name
    assert "Divine Intervention!" in text and "Bring lost player back into game" in text


def test_each_stat_has_its_icon_in_the_teams_colour(out):
    """pass, catch, tackle, kick and cheat (icons/*.svg) over the stat labels: one colour each,
    so a page with both teams' cards draws every icon in blue and in red."""
    reader = pdf(out / "roster-cards-letter.pdf")
    teams_on_first_page = 2   # eight Law cards and the first Chaos card
    assert len(icons_on(reader.pages[0])) == 5 * teams_on_first_page
    assert len(icons_on(pdf(out / "blank-rosters-letter.pdf").pages[0])) == 5


def test_roster_sheets_list_each_team(out):
    for team, roster in (("law", LAW), ("chaos", CHAOS)):
        reader = pdf(out / f"{team}-roster-letter.pdf")
        assert len(reader.pages) == 1
        text = reader.pages[0].extract_text()
        assert f"TEAM {team.upper()}" in text
        for name in roster:
            assert name in text


def test_blank_roster_cards_are_a_fillable_form(out):
    reader = pdf(out / "blank-rosters-letter.pdf")
    fields = reader.get_fields()
    assert fields is not None
    per_card = ["name", "pass", "catch", "tackle", "kick", "cheat", "move", "effect"]
    for copy in range(1, 10):
        for part in per_card:
            assert f"monster{copy}-{part}" in fields
    assert len(fields) == 9 * len(per_card)
    # Fields sit on the front pages only, inside the cards.
    front = reader.pages[0]
    boxes = placements(front)
    for annotation in front["/Annots"]:
        x1, y1, x2, y2 = (float(v) for v in annotation.get_object()["/Rect"])
        assert any(bx <= x1 and x2 <= bx + bw and by <= y1 and y2 <= by + bh for bx, by, bw, bh in boxes)



def test_the_print_all_file_keeps_the_blank_rosters_fillable(out):
    """Joined into the file to print, the roster page kept its field boxes but lost the form
    that makes them fields: no reader offered them to fill in (and pdfium drew no white box)."""
    import pypdfium2
    from PIL import ImageChops
    joined = pdf(out / "monster-ball-print-all-letter.pdf")
    fields = joined.get_fields()
    assert fields is not None and len(fields) == len(pdf(out / "blank-rosters-letter.pdf").get_fields())
    page = next(i for i, each in enumerate(joined.pages) if "/Annots" in each)

    def drawn_with_forms(path, index):
        document = pypdfium2.PdfDocument(str(path))
        document.init_forms()
        return document[index].render(scale=1, may_draw_forms=True).to_pil().convert("RGB")
    own = drawn_with_forms(out / "blank-rosters-letter.pdf", 0)
    assert ImageChops.difference(own, drawn_with_forms(out / "monster-ball-print-all-letter.pdf", page)).getbbox() is None

def test_tokens_counts_and_referees(out):
    reader = pdf(out / "tokens-letter.pdf")
    boxes = [b for page in reader.pages for b in placements(page)]
    assert len(boxes) == 19 * 2 + 5 + 6
    for _, _, w, h in boxes:
        assert round(w / 72, 2) == 1.0 and round(h / 72, 2) == 1.0
    text = "\n".join(p.extract_text() for p in reader.pages)
    names = Counter(line.strip() for line in text.splitlines())
    assert names["DWARF"] == 4 and names["ORC"] == 4 and names["BARBARIAN"] == 3
    assert names["PIXIE"] == 1 and names["GELATINOUS CUBE"] == 2 and names["MINOTAUR"] == 2
    for referee in ("FREE FRED", "BOB ZOMBIE", "CARL & CARL JR", "LEE CHIMERA", "EYE TYRANT"):
        assert names[referee] == 1
    assert names["BALL"] >= 1 and "LINE OF" in text


def test_every_letter_on_a_token_lies_inside_its_circle(out):
    """The names, numbers and labels sit inside the white ring (1.4 mm in from the trim, so a
    square cut a millimetre off leaves it whole), at least 1 mm clear of it, a long name
    shrunk to one line rather than wrapped into the numbers (LINE OF SCRIMMAGE and
    GELATINOUS CUBE touched the ring); the labels under the numbers are 5.5 pt, where they
    were 3.6 pt (0.9 mm tall, unreadable)."""
    import math
    import pypdfium2
    document = pypdfium2.PdfDocument(str(out / "tokens-letter.pdf"))
    page = document[0]
    height = page.get_height()
    textpage = page.get_textpage()
    mm = 72 / 25.4
    tokens = [(x + w / 2, y + h / 2, w / 2 - 1.4 * mm - 1 * mm)
              for x, y, w, h in placements(pdf(out / "tokens-letter.pdf").pages[0])]
    outside = []
    for index in range(textpage.count_chars()):
        char = textpage.get_text_range(index, 1)
        if not char.strip():
            continue
        left, bottom, right, top = textpage.get_charbox(index)
        cx, cy, radius = min(tokens, key=lambda t: math.hypot(t[0] - (left + right) / 2, t[1] - (bottom + top) / 2))
        if max(math.hypot(x - cx, y - cy) for x in (left, right) for y in (bottom, top)) > radius:
            outside.append(char)
    assert outside == [], "".join(outside)
    sizes = {}
    text = textpage.get_text_range()
    for word in ("HUSTLE", "BLOCK", "CALL"):
        at = text.index(word)
        sizes[word] = pypdfium2.raw.FPDFText_GetFontSize(textpage, at)
    assert all(size >= 5.5 - 0.01 for size in sizes.values()), sizes
    document.close()


def test_scoreboard_labels(out):
    text = pdf(out / "scoreboard-letter.pdf").pages[0].extract_text()
    for label in ("LAW", "CHAOS", "DOWN", "1st", "2nd", "3rd", "4th", "PHASE", "CATCH", "OFFENSE",
                  "DEFENSE", "10"):
        assert label in text, label


def test_field_is_a_designed_grid_tiled_for_home_paper(out):
    whole = pdf(out / "field-whole.pdf").pages[0]
    assert (float(whole.mediabox.width), float(whole.mediabox.height)) == (37 * 72, 16 * 72)
    text = whole.extract_text()
    assert "LAW KICKS OFF FROM ITS 70" in text and "CHAOS" in text
    tiled = pdf(out / "field-letter.pdf")
    assert len(tiled.pages) > 2 and "Sheet A1" in tiled.pages[1].extract_text()


def test_rule_sheet_sections(out):
    text = "\n".join(p.extract_text() for p in pdf(out / "rules-letter.pdf").pages)
    for heading in ("Team stats", "The game", "Scoring", "Kick-off", "Hike", "Movement", "Passing",
                    "Catching", "Tackling", "Sacks", "Fumbles", "Downs and kicks", "Punts",
                    "Field goals", "Cheating and the referee's call number", "Team Law", "Team Chaos"):
        assert heading in text, heading
    assert "Eye Tyrant" in text and "Free Fred" in text


def test_validator_catches_a_missing_stat_and_a_wrong_token_count(root):
    monsters = root / "card_data/monster-ball/monsters.yaml"
    monsters.write_text(monsters.read_text().replace("name: Gnome, pass: 2, catch: 1, tackle: 2, kick: 2,",
                                                     "name: Gnome, pass: 2, catch: 1, tackle: 2,"))
    tokens = root / "card_data/monster-ball/tokens.yaml"
    tokens.write_text(tokens.read_text().replace("name: Orc, hustle: 2, block: 5, count: 4",
                                                 "name: Orc, hustle: 2, block: 5, count: 3"))
    result = run("validate", "--game", "monster-ball", root=root)
    assert result.exit_code == 1
    assert "card 'Gnome' has no kick; the rules, \"roster sheets (Pass, Catch, Tackle, Kick, Cheat " \
           "and a special move)\", give every card one" in result.stderr
    assert 'deck "tokens": Orc has 3 cards; the rules, "token sheet, Team Chaos", state 4' in result.stderr


def test_validator_catches_a_stray_token_and_a_wrong_call_number(root):
    tokens = root / "card_data/monster-ball/tokens.yaml"
    text = tokens.read_text().replace("{side: chaos, name: Imp,", "{side: chaos, name: Pixie,")
    tokens.write_text(text.replace("{side: referee, name: Eye Tyrant, call: 4}",
                                   "{side: referee, name: Eye Tyrant, call: 5}"))
    result = run("validate", "--game", "monster-ball", root=root)
    assert result.exit_code == 1
    assert "token 'Pixie' (chaos) is neither on the chaos roster" in result.stderr
    assert "card 'Eye Tyrant' has call 5; the rules, \"CHEATING\", allow 0 to 4" in result.stderr


@pytest.mark.parametrize("name", ["law-roster", "chaos-roster", "scoreboard"])
def test_a_sheets_ink_stays_out_of_the_strip_an_inkjet_leaves_blank(out, name):
    """A sheet fills the page but the 6.35 mm many inkjets cannot print: the roster's first
    column started 6.1 mm from the edge, where a printer clips it or shrinks the page."""
    from conftest import render_png
    scale = 4
    image = render_png(out / f"{name}-letter.pdf", 0, scale).convert("L")
    inked = image.point(lambda v: 255 if v < 250 else 0).getbbox()
    assert inked is not None
    strip = 6.35 * 72 / 25.4 * scale
    left, top, right, bottom = inked
    assert left >= strip - 1 and top >= strip - 1, (left / scale / 72 * 25.4, top / scale / 72 * 25.4)
    assert image.width - right >= strip - 1 and image.height - bottom >= strip - 1


def test_each_side_kicks_off_from_its_70_in_its_own_half(out):
    """The document's yard lines count down to the goal a side attacks: it kicks off from the
    70 with its teammates behind the 50, and a good kick must land on the field. The field once
    numbered them from each side's own goal, which put the kick-off 30 yards from the other end
    zone and nearly every good kick past it."""
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(out / "field-whole.pdf"))
    text = document[0].get_textpage()

    def found(word: str) -> list[tuple[float, float]]:
        """Where each `word` on the field starts (x, y) in mm from the bottom left."""
        search, spots = text.search(word, match_case=True), []
        while (hit := search.get_next()) is not None:
            left, bottom, _, _ = text.get_charbox(hit[0])
            spots.append((left / 72 * 25.4, bottom / 72 * 25.4))
        return spots
    law_goal, chaos_goal = 88.9, 850.9   # the goal lines, in mm from the left: Law defends the left
    midfield = (law_goal + chaos_goal) / 2
    (law_label,), (chaos_label,) = found("LAW KICKS OFF FROM ITS 70"), found("CHAOS KICKS OFF FROM ITS 70")
    assert law_goal < law_label[0] < midfield < chaos_label[0] - 60 < chaos_goal
    top, bottom = 203, 203   # Law reads its numbers along the top, Chaos along the bottom (turned)
    law_70 = [x for x, y in found("70") if y > top and abs(x - law_label[0]) < 40]
    chaos_70 = [x for x, y in found("70") if y < bottom and abs(x - chaos_label[0]) < 80]
    assert law_70 and chaos_70, found("70")
    hundreds = sorted(found("100"))
    assert [y > top for _, y in hundreds] == [True, False]   # Law's 100 at its own goal (left); Chaos's at the right
    assert abs(hundreds[0][0] - law_goal) < 15 and abs(hundreds[1][0] - chaos_goal) < 15


def test_a_translation_gives_the_roster_cards_team_and_stat_words(root, tmp_path):
    """The team's value picks its colours and the stat items name their icons: the cards printed
    them as words too, so a translated roster card kept "TEAM LAW" and "PASS" in English."""
    import yaml
    assert run("translate", "--game", "monster-ball", "--lang", "de", root=root).exit_code == 0
    path = root / "card_data/monster-ball/lang/de.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    words = {"Team Law": "Team Gesetz", "Team Chaos": "Team Chaos", "Pass": "Passen", "Catch": "Fangen",
             "Tackle": "Tackling", "Kick": "Schuss", "Cheat": "Mogeln"}
    assert set(words) <= set(data["labels"])
    data["labels"].update(words)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    built = run("build", "--game", "monster-ball", "--lang", "de", "--out", str(tmp_path), "-q", root=root)
    assert built.exit_code == 0, built.stderr
    text = pdf(tmp_path / "monster-ball/roster-cards-letter-de.pdf").pages[0].extract_text()
    assert "TEAM GESETZ" in text and "PASSEN" in text and "MOGELN" in text
    assert "TEAM LAW" not in text and "PASS\n" not in text
    sheet = pdf(tmp_path / "monster-ball/law-roster-letter-de.pdf").pages[0].extract_text()
    assert "TEAM GESETZ" in sheet


def test_an_arabic_roster_sheets_header_keeps_the_team_apart_from_the_sheets_name(root, tmp_path):
    """Right to left, each header text is set from the other side of its box: boxes that
    overlapped put "فريق القانون" over "قائمة كرة الوحوش"."""
    import pypdfium2
    import yaml
    assert run("translate", "--game", "monster-ball", "--lang", "ar", root=root).exit_code == 0
    path = root / "card_data/monster-ball/lang/ar.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["labels"] = {source: text or f"ع {source}" for source, text in data["labels"].items()}
    for cards in data["cards"].values():
        for fields in cards.values():
            for value in fields.values():
                for entry in value if isinstance(value, list) else [value]:
                    entry["text"] = entry["text"] or f"ع {entry['source']}"
    for entry in data["rules"].values():
        entry["text"] = "## القواعد\n\n{{contents}}\n"
    data["labels"].update({"Team Law": "فريق القانون", "MONSTER BALL ROSTER": "قائمة كرة الوحوش"})
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    built = run("build", "--game", "monster-ball", "--lang", "ar", "--out", str(tmp_path), "-q", root=root)
    assert built.exit_code == 0, built.stderr
    page = pypdfium2.PdfDocument(str(tmp_path / "monster-ball/law-roster-letter-ar.pdf"))[0].get_textpage()
    text = page.get_text_range()

    def span(words: str) -> tuple[float, float]:
        found = [i for i in range(len(text)) if text.startswith(words.split()[0], i)]
        boxes = [page.get_charbox(i) for start in found[:1] for i in range(start, start + len(words.split()[0]))]
        return min(b[0] for b in boxes), max(b[2] for b in boxes)
    team, sheet = span("فريق"), span("قائمة")
    assert team[1] < sheet[0] or sheet[1] < team[0], (team, sheet)
