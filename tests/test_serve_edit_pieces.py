"""The layout editor of `pnp serve --edit` on pieces other than a deck's one front layout: a
board, a sheet's page, a token, and a deck whose front is chosen per card. Each is listed,
drawn and saved as a card is, and the build then prints the element where the editor put it."""

from __future__ import annotations

import base64
import difflib
import io
import json

import pypdfium2
import pytest
from PIL import Image

from test_card_logic import choose_front
from test_serve import Served
from test_serve_edit import elements

MM = 72 / 25.4


def edit(served: Served, listing: dict, index: int, changes: dict, path="/api/edit") -> tuple[int, dict]:
    body = json.dumps(dict(component=listing["component"], card=listing["card"], side=listing["side"],
                           index=index, changes=changes, files=listing["files"])).encode()
    status, _, data = served.request(path, method="POST", body=body)
    return status, json.loads(data)


def with_text(listing: dict, text: str) -> dict:
    return next(e for e in listing["elements"] if e["settings"].get("text") == text)


def changed_lines(before: str, after: str) -> list[str]:
    return sorted(line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="")
                  if line[:1] in "+-" and not line.startswith(("+++", "---")))


def built(served: Served, name: str) -> bytes:
    """A build started from the page (its Build button), and the file `name*.pdf` downloaded."""
    status, _, data = served.request("/api/build", method="POST", body=b'{"duplex": "none"}')
    answer = json.loads(data)
    assert status == 200 and answer["error"] is None, answer
    url = next(f["url"] for f in answer["files"] if f["name"].startswith(name))
    status, _, pdf = served.request(url)
    assert status == 200
    return pdf


def text_box(pdf_bytes: bytes, words: str) -> tuple[float, float, float, float]:
    """left, top, right, bottom (mm from the page's top-left) of the first `words` on page 1.
    Read under the server's render lock: an edit has the server in this process redraw its
    pictures with pdfium, which must never run in two threads at once."""
    from pnp.serve.pictures import RENDER_LOCK
    with RENDER_LOCK:
        pdf = pypdfium2.PdfDocument(pdf_bytes)
        try:
            page = pdf[0]
            text = page.get_textpage()
            found = text.search(words, match_case=True).get_next()
            assert found is not None, words
            start, count = found
            boxes = [text.get_charbox(i) for i in range(start, start + count)]
            height = page.get_height()
        finally:
            pdf.close()
    return (min(b[0] for b in boxes) / MM, (height - max(b[3] for b in boxes)) / MM,
            max(b[2] for b in boxes) / MM, (height - min(b[1] for b in boxes)) / MM)


def picture(answer: dict) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(answer["picture"]))).convert("RGB")


@pytest.fixture
def big_ten(root, tmp_path):
    return Served(root, "big-ten", tmp_path / "out", edit=True)


def test_a_board_is_listed_drawn_and_edited_and_the_build_prints_it_moved(big_ten, root):
    pages = {page["id"]: page for page in big_ten.state()["snapshot"]["pages"]}
    assert pages["board"]["layout"] == "big-ten/board" and pages["rules"]["layout"] is None

    listing = elements(big_ten, "board", picture=True)
    assert listing["layout"] == "big-ten/board" and listing["size_mm"] == [609.6, 457.2]
    assert listing["bleed_mm"] == 0 and listing["safe_mm"] == 3.175
    title = with_text(listing, "BIG TEN FOOTBALL")
    assert (title["file"], title["line"]) == ("layouts/big-ten/board.yaml", 51)
    assert title["box"] == {"x": 259.8, "y": 124.0, "w": 90.0, "h": 20.0}
    drawn = picture(listing)   # the whole board, small enough to drag about
    assert max(drawn.size) <= 2000 and abs(drawn.size[0] / drawn.size[1] - 24 / 18) < 0.01
    assert drawn.getpixel((drawn.size[0] // 2, 5)) == (0x14, 0x45, 0x2f)   # the board's own green

    layout = root / "layouts/big-ten/board.yaml"
    original = layout.read_text()
    before = text_box(built(big_ten, "board-whole"), "BIG TEN FOOTBALL")
    status, answer = edit(big_ten, listing, title["index"], {"x": "264.8mm", "y": "130mm"})
    assert status == 200, answer
    line = original.splitlines()[50]
    assert changed_lines(original, layout.read_text()) == sorted(
        ["-" + line, "+" + line.replace("x: 259.8mm, y: 124mm", "x: 264.8mm, y: 130mm")])
    assert with_text(answer, "BIG TEN FOOTBALL")["box"]["x"] == 264.8
    after = text_box(built(big_ten, "board-whole"), "BIG TEN FOOTBALL")
    assert abs(after[0] - before[0] - 5) < 0.1 and abs(after[1] - before[1] - 6) < 0.1, (before, after)


def test_a_board_has_one_side_and_one_card(big_ten):
    for query in ("component=board&card=0&side=back", "component=board&card=1&side=front",
                  "component=rules&card=0&side=front", "component=tuck-boxes&card=0&side=front"):
        status, _, data = big_ten.request(f"/api/edit/elements?{query}")
        assert status == 400, query
        assert b"has no back" in data or b"no card 2" in data or b"no deck, board or sheet" in data, data


@pytest.fixture
def monster_ball(root, tmp_path):
    return Served(root, "monster-ball", tmp_path / "out", edit=True)


def test_a_sheets_page_is_edited_and_the_build_prints_it_moved(monster_ball, root):
    pages = {page["id"]: page for page in monster_ball.state()["snapshot"]["pages"]}
    assert pages["scoreboard"]["layout"] == "monster-ball/scoreboard"
    listing = elements(monster_ball, "scoreboard", picture=True)
    # Letter less the strip many inkjets leave blank on every side: 215.9 x 279.4 mm less 2 x 6.35 mm
    assert listing["bleed_mm"] == 0 and listing["size_mm"] == [203.2, 266.7]
    heading = with_text(listing, "MONSTER BALL SCOREBOARD")
    assert (heading["file"], heading["line"]) == ("layouts/monster-ball/scoreboard.yaml", 8)

    layout = root / "layouts/monster-ball/scoreboard.yaml"
    original = layout.read_text()
    before = text_box(built(monster_ball, "scoreboard-"), "MONSTER BALL SCOREBOARD")
    status, answer = edit(monster_ball, listing, heading["index"], {"y": "4mm"})
    assert status == 200, answer
    line = original.splitlines()[7]
    assert changed_lines(original, layout.read_text()) == sorted(["-" + line, "+" + line.replace("y: 0,", "y: 4mm,")])
    after = text_box(built(monster_ball, "scoreboard-"), "MONSTER BALL SCOREBOARD")
    assert abs(after[1] - before[1] - 4) < 0.1 and abs(after[0] - before[0]) < 0.1, (before, after)


def test_a_bad_value_on_a_sheet_is_refused_with_the_builds_message(monster_ball, root):
    layout = root / "layouts/monster-ball/scoreboard.yaml"
    original = layout.read_text()
    listing = elements(monster_ball, "scoreboard")
    status, answer = edit(monster_ball, listing, with_text(listing, "LAW")["index"], {"colour": "lawful"})
    assert status == 400 and "'lawful' is not a colour" in answer["error"]["text"]
    assert answer["error"]["file"].endswith("layouts/monster-ball/scoreboard.yaml")
    assert layout.read_text() == original


def test_a_token_is_edited_like_a_card(monster_ball, root):
    layout = root / "layouts/monster-ball/token.yaml"
    original = layout.read_text()
    listing = elements(monster_ball, "tokens", picture=True)
    assert listing["layout"] == "monster-ball/token" and listing["size_mm"] == [25.4, 25.4]
    name = with_text(listing, "{name}")
    status, answer = edit(monster_ball, listing, name["index"], {"size": 8})
    assert status == 200, answer
    line = original.splitlines()[name["line"] - 1]
    assert changed_lines(original, layout.read_text()) == sorted(
        ["-" + line, "+" + line.replace("size: 7,", "size: 8,")])


def test_each_page_of_a_sheet_is_its_own_cards(mini, tmp_path):
    """A sheet without `rows` prints a page per card, copies included: the page's picture N
    opens the editor on card N."""
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("  - id: rules\n", "  - {id: sheet, kind: sheet, data: cards.yaml, "
                                                                 "layout: mini/card}\n  - id: rules\n"))
    served = Served(mini, "mini", tmp_path / "out", edit=True)
    sheet = next(page for page in served.state()["snapshot"]["pages"] if page["id"] == "sheet")
    assert len(sheet["pictures"]) == 6 and sheet["layout"] == "mini/card"   # 4 Knights, 2 Bishops
    assert [elements(served, "sheet", n)["label"] for n in (0, 3, 4, 5)] == ["Knight", "Knight", "Bishop", "Bishop"]
    status, _, data = served.request("/api/edit/elements?component=sheet&card=6&side=front")
    assert status == 400 and b"'sheet' has no card 7" in data


@pytest.fixture
def chosen(mini, tmp_path):
    """The mini game with its front chosen by name: the Bishop has a layout of its own."""
    choose_front(mini, "{by: name, layouts: {Bishop: mini/bishop}, default: mini/card}")
    return Served(mini, "mini", tmp_path / "out", edit=True)


def test_a_chosen_front_is_edited_in_the_layout_the_shown_card_uses(chosen, mini):
    knight, bishop = elements(chosen, "cards", 0), elements(chosen, "cards", 1, picture=True)
    assert knight["layout"] == "mini/card" and bishop["layout"] == "mini/bishop"
    label = with_text(bishop, "BISHOP {name}")
    assert (label["file"], label["line"]) == ("layouts/mini/bishop.yaml", 4)
    assert picture(bishop).getpixel((40, 40)) == (0x7a, 0x1f, 0x1f)   # the Bishop's own red, not the Knight's blue
    card, own = mini / "layouts/mini/card.yaml", mini / "layouts/mini/bishop.yaml"
    card_before, own_before = card.read_text(), own.read_text()
    status, answer = edit(chosen, bishop, label["index"], {"y": "30mm"})
    assert status == 200, answer
    assert answer["layout"] == "mini/bishop" and with_text(answer, "BISHOP {name}")["box"]["y"] == 30
    assert own.read_text() == own_before.replace("y: 20mm", "y: 30mm") and card.read_text() == card_before
    status, answer = edit(chosen, bishop, label["index"], {"colour": "mauvish"})
    assert status == 409   # the page must reload after the file it saw changed
    status, answer = edit(chosen, elements(chosen, "cards", 1), label["index"], {"colour": "mauvish"})
    assert status == 400 and answer["error"]["file"].endswith("layouts/mini/bishop.yaml")
