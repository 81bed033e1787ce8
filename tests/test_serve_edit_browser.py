"""Editing a layout on the card in `pnp serve --edit`, in a real browser (Debian's Chromium).

Select the Jukem card's title, drag it 5 mm right, resize it, change its colour in the panel,
undo once: the layout file then differs from the original in the moved and resized values
only (its comments intact), and a build puts the title where the page showed it. Set
PNP_SCREENSHOT_EDIT=folder to keep pictures of the editor as it selects, drags and edits in
the panel, and as it moves a board's title (the README's are made this way)."""

from __future__ import annotations

import difflib
import os
import signal
import subprocess
import sys

import pypdfium2
import pytest

from test_serve_browser import browser, card_pictures, started  # noqa: F401 - fixtures
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

MM = 72 / 25.4


def serve_editing(root, out, game: str):
    """`pnp serve --edit` in a session of its own: stopped with the worker processes it may
    have started to draw a big game's pages (stopped alone mid-drawing, those would live on)."""
    process, port, line = started([sys.executable, "-m", "pnp", "serve", "--game", game, "--root", str(root),
                                   "--out", str(out), "--edit"], start_new_session=True)
    assert "editing" in line, line
    yield f"http://127.0.0.1:{port}/"
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=30)


@pytest.fixture
def editing_server(root, tmp_path):
    yield from serve_editing(root, tmp_path / "out", "jukem")


@pytest.fixture
def board_server(root, tmp_path):
    yield from serve_editing(root, tmp_path / "out", "big-ten")


def title_centres(pdf_path) -> list[float]:
    """The horizontal centre (mm) of every 'RUN' title on the first page of a card sheet."""
    page = pypdfium2.PdfDocument(pdf_path)[0]
    text = page.get_textpage()
    centres = []
    searcher = text.search("RUN", match_case=True, match_whole_word=True)
    while (found := searcher.get_next()) is not None:
        start, count = found
        boxes = [text.get_charbox(i) for i in range(start, start + count)]
        left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
        centres.append((left + right) / 2 / MM)
    return sorted(centres)


def build(root, out) -> list[float]:
    subprocess.run([sys.executable, "-m", "pnp", "build", "--game", "jukem", "--root", str(root), "--out", str(out),
                    "-q"], check=True, capture_output=True)
    return title_centres(out / "jukem/cards-letter.pdf")


def picture(driver, name: str) -> None:
    """The editor dialog as a picture, when PNP_SCREENSHOT_EDIT names a folder for them."""
    folder = os.environ.get("PNP_SCREENSHOT_EDIT")
    if not folder:
        return
    from io import BytesIO

    from PIL import Image
    box = driver.execute_script("const r = document.getElementById('edit-dialog').getBoundingClientRect();"
                                "return [r.left, r.top, r.right, r.bottom].map(v => v * devicePixelRatio)")
    Image.open(BytesIO(driver.get_screenshot_as_png())).crop(tuple(round(v) for v in box)).save(
        os.path.join(folder, f"serve-edit-{name}.png"), optimize=True)


def panel_value(driver, key: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, f"#edit-form [name={key}]").get_attribute("value")


def test_select_drag_resize_recolour_and_undo_save_only_the_changed_values(editing_server, browser, root, tmp_path):
    layout = root / "layouts/jukem/card.yaml"
    original = layout.read_text()
    before = build(root, tmp_path / "before")
    # the panel is drawn anew after each save: a field read as it is replaced is read again
    wait = WebDriverWait(browser, 60, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,))
    browser.get(editing_server)
    wait.until(lambda d: len(card_pictures(d)) == 27)
    browser.find_elements(By.CSS_SELECTOR, "#deck-cards .card")[0].click()
    edit_button = browser.find_element(By.ID, "dialog-edit")
    wait.until(lambda d: edit_button.is_displayed())
    edit_button.click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".edit-box[data-id=title]"))

    # Select: a click on the title shows its file, line and settings.
    title = browser.find_element(By.CSS_SELECTOR, ".edit-box[data-id=title]")
    ActionChains(browser).move_to_element(title).click().perform()
    wait.until(lambda d: "title" in d.find_element(By.ID, "edit-title").text)
    assert browser.find_element(By.ID, "edit-where").text == "layouts/jukem/card.yaml:26"
    assert panel_value(browser, "x") == "13mm" and panel_value(browser, "text") == "{title}"
    scale = browser.execute_script("return editScale()")
    picture(browser, "select")

    # Move 5 mm right (Alt: the grid alone, no snapping to the icon's edge nearby).
    status = browser.find_element(By.ID, "edit-status")
    title = browser.find_element(By.CSS_SELECTOR, ".edit-box[data-id=title]")
    (ActionChains(browser).key_down(Keys.ALT).click_and_hold(title).move_by_offset(round(5 * scale), 0)
     .move_by_offset(0, 0).perform())
    # While dragging, the card is redrawn with the title where it is (nothing saved yet).
    wait.until(lambda d: d.execute_script("return document.querySelector('#edit-stage img').src")
               .startswith("data:image/png"))
    assert panel_value(browser, "x") == "18mm" and "x: 13mm" in layout.read_text()
    picture(browser, "drag")
    ActionChains(browser).release().key_up(Keys.ALT).perform()
    wait.until(lambda d: status.text.startswith("saved"))
    assert panel_value(browser, "x") == "18mm" and "x: 18mm" in layout.read_text()

    # Resize from the corner handle: 4 mm wider.
    handle = browser.find_element(By.CSS_SELECTOR, ".edit-box.selected .edit-handle")
    browser.execute_script("document.getElementById('edit-status').textContent = ''")
    (ActionChains(browser).key_down(Keys.ALT).click_and_hold(handle).move_by_offset(round(4 * scale), 0)
     .move_by_offset(0, 0).release().key_up(Keys.ALT).perform())
    wait.until(lambda d: status.text.startswith("saved"))
    assert panel_value(browser, "w") == "41.5mm"

    # A bad colour is refused with the build's message; a good one is saved; undo takes it back.
    moved = layout.read_text()
    colour = browser.find_element(By.CSS_SELECTOR, "#edit-form [name=colour]")
    colour.send_keys(Keys.CONTROL, "a")
    colour.send_keys("reddish", Keys.TAB)
    wait.until(lambda d: "is not a colour" in status.text)
    assert "layouts/jukem/card.yaml" in status.text and "did you mean 'red'" in status.text
    assert layout.read_text() == moved
    colour = browser.find_element(By.CSS_SELECTOR, "#edit-form [name=colour]")
    colour.send_keys(Keys.CONTROL, "a")
    colour.send_keys("#1f5fbf", Keys.TAB)
    wait.until(lambda d: '"#1f5fbf"' in layout.read_text() and status.text.startswith("saved"))
    picture(browser, "panel")
    browser.find_element(By.ID, "edit-undo").click()
    wait.until(lambda d: layout.read_text() == moved)
    wait.until(lambda d: d.find_element(By.ID, "edit-redo").is_enabled())
    browser.find_element(By.ID, "edit-redo").click()                  # redo, and undo again
    wait.until(lambda d: '"#1f5fbf"' in layout.read_text() and d.find_element(By.ID, "edit-undo").is_enabled())
    browser.find_element(By.ID, "edit-undo").click()
    wait.until(lambda d: layout.read_text() == moved)

    # Arrow keys nudge: Shift+Down is 5 mm, then ten presses of Up at 0.5 mm bring it back.
    stage = browser.find_element(By.ID, "edit-stage")
    stage.send_keys(Keys.SHIFT, Keys.ARROW_DOWN)
    wait.until(lambda d: "    y: 11mm\n" in layout.read_text() and panel_value(d, "y") == "11mm"
               and status.text.startswith("saved"))
    stage.send_keys(*[Keys.ARROW_UP] * 10)
    wait.until(lambda d: layout.read_text() == moved)

    changed = [line for line in difflib.unified_diff(original.splitlines(), layout.read_text().splitlines(), lineterm="")
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert sorted(changed) == ["+    w: 41.5mm",
                               "+    x: 18mm         # clear of the side icon in the corner, centred on the card",
                               "-    w: 37.5mm",
                               "-    x: 13mm         # clear of the side icon in the corner, centred on the card"], changed

    # The build puts every title's centre 5 + 4/2 = 7 mm to the right, to 0.1 mm.
    after = build(root, tmp_path / "after")
    assert len(after) == len(before) > 0
    for old, new in zip(before, after):
        assert abs(new - old - 7.0) < 0.1, (old, new)


def text_left(pdf_path, words: str) -> float:
    """The left edge (mm) of `words` on the first page."""
    text = pypdfium2.PdfDocument(pdf_path)[0].get_textpage()
    start, count = text.search(words, match_case=True).get_next()
    return min(text.get_charbox(i)[0] for i in range(start, start + count)) / MM


def test_a_boards_title_is_selected_and_dragged_on_the_board_and_built_there(board_server, browser, root, tmp_path):
    layout = root / "layouts/big-ten/board.yaml"
    original = layout.read_text()
    wait = WebDriverWait(browser, 120, poll_frequency=0.1)
    browser.get(board_server)
    button = wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#pages-board button.edit-page"))[0]
    wait.until(lambda d: d.execute_script(
        "return [...document.querySelectorAll('#pages-board img')].every(i => i.complete && i.naturalWidth > 0)"))
    button.click()
    wait.until(lambda d: d.execute_script("return Boolean(edit.info && edit.info.layout === 'big-ten/board')"))
    index = browser.execute_script("return edit.info.elements.find(e => e.settings.text === 'BIG TEN FOOTBALL').index")

    title = browser.find_element(By.CSS_SELECTOR, f".edit-box[data-index='{index}']")
    ActionChains(browser).move_to_element(title).click().perform()
    wait.until(lambda d: "text" in d.find_element(By.ID, "edit-title").text)
    assert browser.find_element(By.ID, "edit-where").text == "layouts/big-ten/board.yaml:51"
    assert panel_value(browser, "x") == "259.8mm" and panel_value(browser, "text") == "BIG TEN FOOTBALL"
    picture(browser, "board-select")

    # Drag it about 20 mm right (Alt: onto the 0.5 mm grid, no guides); the board redraws live.
    scale = browser.execute_script("return editScale()")
    status = browser.find_element(By.ID, "edit-status")
    title = browser.find_element(By.CSS_SELECTOR, f".edit-box[data-index='{index}']")
    (ActionChains(browser).key_down(Keys.ALT).click_and_hold(title).move_by_offset(round(20 * scale), 0)
     .move_by_offset(0, 0).perform())
    wait.until(lambda d: d.execute_script("return edit.picture !== document.querySelector('#edit-stage img').src"))
    picture(browser, "board")
    ActionChains(browser).release().key_up(Keys.ALT).perform()
    wait.until(lambda d: status.text.startswith("saved"))
    moved = float(panel_value(browser, "x").removesuffix("mm"))
    assert 18 <= moved - 259.8 <= 22 and moved * 2 == round(moved * 2), moved
    line = original.splitlines()[50]
    changed = [row for row in difflib.unified_diff(original.splitlines(), layout.read_text().splitlines(), lineterm="")
               if row[:1] in "+-" and not row.startswith(("+++", "---"))]
    assert changed == ["-" + line, "+" + line.replace("x: 259.8mm", f"x: {moved:g}mm")], changed

    # The built board has the title where the page put it, to 0.1 mm.
    subprocess.run([sys.executable, "-m", "pnp", "build", "--game", "big-ten", "--root", str(root), "--out",
                    str(tmp_path / "built"), "-q"], check=True, capture_output=True)
    left = text_left(tmp_path / "built/big-ten/board-whole.pdf", "BIG TEN FOOTBALL")
    layout.write_text(original)
    subprocess.run([sys.executable, "-m", "pnp", "build", "--game", "big-ten", "--root", str(root), "--out",
                    str(tmp_path / "before"), "-q"], check=True, capture_output=True)
    before = text_left(tmp_path / "before/big-ten/board-whole.pdf", "BIG TEN FOOTBALL")
    assert abs(left - before - (moved - 259.8)) < 0.1, (before, left, moved)
