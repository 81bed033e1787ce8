"""The table view of `pnp serve` in a real browser (Debian's Chromium through selenium): a
seeded shuffle deals the pictures in the order the seed gives, and a count typed in the page
moves the odds, which are `pnp odds`'s own numbers. PNP_TABLE_SCREENSHOT=path keeps a
picture of the page (the README's)."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest

from test_serve_browser import browser, server  # noqa: F401 - its fixtures; skips without a browser


from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

MASK = 0xFFFFFFFF


def mulberry32(seed: int):
    """The page's generator (table.js `seeded`), written again from its definition."""
    state = seed & MASK

    def imul(a: int, b: int) -> int:
        return (a * b) & MASK

    def next_number() -> float:
        nonlocal state
        state = (state + 0x6D2B79F5) & MASK
        t = state
        t = imul(t ^ (t >> 15), t | 1)
        t ^= (t + imul(t ^ (t >> 7), t | 61)) & MASK
        return ((t ^ (t >> 14)) & MASK) / 2 ** 32
    return next_number


def seeded_order(counts: list[int], seed: int) -> list[int]:
    """The deck (card indices, copies in data order) after a Fisher-Yates shuffle, top first."""
    cards = [index for index, count in enumerate(counts) for _ in range(count)]
    rng = mulberry32(seed)
    for i in range(len(cards) - 1, 0, -1):
        j = int(rng() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def hands(driver) -> list[list[tuple[int, str]]]:
    """Each player's cards as (card index, picture address), in the order dealt."""
    found = driver.execute_script("""
        return [...document.querySelectorAll('#hands .hand')].map(h =>
          [...h.querySelectorAll('.table-card')].map(c => [Number(c.dataset.card), c.querySelector('img').getAttribute('src')]));""")
    return [[(index, src) for index, src in hand] for hand in found]


def typed(driver, element_id: str, value: str) -> None:
    box = driver.find_element(By.ID, element_id)
    box.clear()
    box.send_keys(value)


def test_a_seeded_deal_follows_the_seed_and_a_typed_count_moves_the_odds(server, browser, root):
    from pnp.playtest.odds import Where, hand_odds, percent, with_counts
    from pnp.project import Project
    wait = WebDriverWait(browser, 60, poll_frequency=0.1)
    browser.get(server + "table")
    wait.until(lambda d: d.find_element(By.ID, "pile-count").text == "56 cards")
    with urllib.request.urlopen(server + "api/state") as response:
        deck = next(d for d in json.load(response)["snapshot"]["decks"] if d["id"] == "cards")
    counts = [card["count"] for card in deck["cards"]]
    faces = [f"/img/{card['face']}.png" for card in deck["cards"]]

    typed(browser, "seed", "20261123")
    browser.find_element(By.ID, "shuffle").click()
    typed(browser, "players", "2")
    typed(browser, "hand-size", "5")
    browser.find_element(By.TAG_NAME, "body").send_keys("d")       # deal by keyboard
    wait.until(lambda d: len(hands(d)) == 2)
    order = seeded_order(counts, 20261123)
    dealt = hands(browser)
    assert dealt == [[(i, faces[i]) for i in order[0:10:2]], [(i, faces[i]) for i in order[1:10:2]]]
    assert browser.find_element(By.ID, "draw-count").text == "46 cards"
    wait.until(lambda d: d.execute_script(
        "return [...document.querySelectorAll('#hands img')].every(i => i.complete && i.naturalWidth > 0)"))

    # the same seed deals the same hands again; another seed does not
    browser.find_element(By.ID, "shuffle").click()
    browser.find_element(By.ID, "deal").click()
    assert hands(browser) == dealt
    typed(browser, "seed", "7")
    browser.find_element(By.ID, "shuffle").click()
    browser.find_element(By.ID, "deal").click()
    assert hands(browser) != dealt
    typed(browser, "seed", "20261123")
    browser.find_element(By.ID, "shuffle").click()
    browser.find_element(By.ID, "deal").click()
    browser.find_element(By.TAG_NAME, "body").send_keys("n")       # draw: the next card of the pile
    assert hands(browser)[0][-1] == (order[10], faces[order[10]])
    browser.find_elements(By.CSS_SELECTOR, "#hands .hand")[1].find_element(By.CSS_SELECTOR, ".table-card").click()
    assert browser.find_element(By.ID, "discard-count").text == "1 cards"
    assert browser.find_element(By.CSS_SELECTOR, "#discards img").get_attribute("src").endswith(faces[order[1]])
    browser.find_element(By.TAG_NAME, "body").send_keys("r")       # the discards back under the pile
    assert browser.find_element(By.ID, "discard-count").text == "0 cards"
    assert browser.find_element(By.ID, "draw-count").text == "46 cards"   # 56 - 10 dealt - 1 drawn + 1

    # odds: at least one PASS in five, as pnp odds gives it; then a count tried on the page
    project = Project(root)
    data = project.check("jukem").decks["cards"]
    Select(browser.find_element(By.ID, "odds-field")).select_by_value("type")
    typed(browser, "odds-value", "pass")
    expected = hand_odds(data, 5, [Where("type", "=", "pass")])
    wait.until(lambda d: percent(expected.at_least(1)) in d.find_element(By.ID, "odds-chance").text)
    first_pass = next(i for i, card in enumerate(deck["cards"]) if card["fields"]["type"] == "pass")
    count_box = browser.find_element(By.CSS_SELECTOR, f"#counts input[data-card='{first_pass}']")
    count_box.clear()
    count_box.send_keys("6")
    tried = hand_odds(with_counts(data, {"PASS": 6}), 5, [Where("type", "=", "pass")])
    assert percent(tried.at_least(1)) != percent(expected.at_least(1))
    wait.until(lambda d: percent(tried.at_least(1)) in d.find_element(By.ID, "odds-chance").text)
    assert f"(with the data's counts: {percent(expected.at_least(1))})" in browser.find_element(By.ID, "odds-chance").text
    assert float(browser.find_element(By.ID, "odds-chance").get_attribute("data-chance")) == pytest.approx(float(tried.at_least(1)))
    assert browser.find_element(By.ID, "pile-count").text == "60 cards"
    assert "count: 2" in (root / "card_data/jukem/cards.yaml").read_text()   # nothing written

    Select(browser.find_element(By.ID, "odds-sum")).select_by_value("yards")
    wait.until(lambda d: "mean" in d.find_element(By.ID, "sum-table").text)
    shot = os.environ.get("PNP_TABLE_SCREENSHOT")
    if shot:
        browser.find_element(By.ID, "shuffle").click()
        browser.find_element(By.ID, "deal").click()
        wait.until(lambda d: d.execute_script("return [...document.images].every(i => i.complete && i.naturalWidth > 0)"))
        Path(shot).parent.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(shot)
