"""`pnp serve` in a real browser: Debian's Chromium, driven by selenium through chromedriver.

The page must show the cards, follow an edit without a reload, show a bad edit's error over
the page and clear it once fixed. Set PNP_SCREENSHOT=path to keep a picture of the page (the
README's is made this way). On CI, where .ci/run installs Chromium, a missing browser fails."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("CI"):
        raise RuntimeError("CI must have chromium and chromium-driver (installed by .ci/run)")
    pytest.skip("Chromium or chromedriver is not installed", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

# As the machine's own notes advise for a closed network: no background connections.
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1400,1000"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def started(command: list[str], **popen) -> tuple[subprocess.Popen, int, str]:
    """`pnp serve` (`command`, without --port) started on a free port: the process, its port
    and the first line it said. A port found free can be taken by another test's server
    before this one binds it; then it is started again on another."""
    for _ in range(5):
        port = free_port()
        process = subprocess.Popen(command + ["--port", str(port)], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, **popen)
        line = process.stderr.readline()   # "serving GAME at http://127.0.0.1:PORT/ ..."
        if f":{port}/" in line:
            return process, port, line
        rest = process.stderr.read()
        process.wait(timeout=30)
        assert "already in use" in line + rest, line + rest
    raise AssertionError("pnp serve found no free port in five tries")


@pytest.fixture
def server(root, tmp_path):
    process, port, _ = started([sys.executable, "-m", "pnp", "serve", "--game", "jukem", "--root", str(root),
                                "--out", str(tmp_path / "out")])
    yield f"http://127.0.0.1:{port}/"
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def card_pictures(driver) -> list[str]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#deck-cards .card img')].map(i => i.getAttribute('src'))")


def test_the_page_follows_edits_and_shows_errors_over_the_cards(server, browser, root):
    wait = WebDriverWait(browser, 60, poll_frequency=0.1)
    browser.get(server)
    wait.until(lambda d: len(card_pictures(d)) == 27)          # Jukem: 27 different cards
    wait.until(lambda d: d.execute_script(
        "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"))
    assert browser.find_element(By.ID, "title").text.startswith("Jukem")
    before = card_pictures(browser)

    data = root / "card_data/jukem/cards.yaml"
    text = data.read_text()
    assert "Gain these yards on your drive." in text
    data.write_text(text.replace("Gain these yards on your drive.", "Run it up the middle.", 1))
    wait.until(lambda d: card_pictures(d) != before)
    after = card_pictures(browser)
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert changed == [0]                                         # only the edited card is new
    wait.until(lambda d: d.execute_script("return document.images[0].complete && document.images[0].naturalWidth > 0"))

    browser.execute_script("document.querySelectorAll('#deck-cards .card')[0].click()")
    dialog = browser.find_element(By.ID, "card-dialog")
    wait.until(lambda d: dialog.is_displayed())
    assert "Run it up the middle." in dialog.text and "cards.yaml:" in dialog.text
    browser.find_element(By.CSS_SELECTOR, "#card-dialog .close").click()

    data.write_text(text.replace("yards: 5,", "yards: five,", 1))
    overlay = browser.find_element(By.ID, "error")
    wait.until(lambda d: overlay.is_displayed())
    assert "cards.yaml:" in overlay.text and "yards" in overlay.text
    assert card_pictures(browser) == after                        # the last good pictures stay
    shot = os.environ.get("PNP_SCREENSHOT")
    data.write_text(text)
    wait.until(lambda d: not overlay.is_displayed())
    wait.until(lambda d: card_pictures(d) == before)
    if shot:
        wait.until(lambda d: d.execute_script(
            "return [...document.images].every(i => i.complete && i.naturalWidth > 0)"))
        browser.find_element(By.ID, "guide-trim").click()
        browser.find_element(By.ID, "guide-safe").click()
        browser.execute_script("document.querySelectorAll('#deck-cards .card')[21].click()")
        wait.until(lambda d: dialog.is_displayed())
        Path(shot).parent.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(shot)


ATTACK = """<!doctype html><html><body>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="{target}api/build" enctype="text/plain" target="sink">
  <input name='{{"paper":"letter","x":"' value='"}}'>
</form>
<form id="urlencoded" method="POST" action="{target}api/build" target="sink">
  <input name="paper" value="letter">
</form>
<script>
window.results = {{}};
const body = JSON.stringify({{paper: "letter", duplex: "long-edge", bleed: 0, ink_saver: false}});
const tries = {{
  textPlain: () => fetch("{target}api/build", {{method: "POST", mode: "no-cors", body,
                                                   headers: {{"Content-Type": "text/plain"}}}}),
  json: () => fetch("{target}api/build", {{method: "POST", body, headers: {{"Content-Type": "application/json"}}}}),
  withToken: () => fetch("{target}api/build", {{method: "POST", body,
                        headers: {{"Content-Type": "application/json", "X-Pnp-Token": "guess"}}}}),
  readPage: () => fetch("{target}").then((r) => r.text()),
}};
for (const [name, attempt] of Object.entries(tries)) {{
  attempt().then((r) => {{ results[name] = "answered " + (r.status ?? r.length); }},
                 (e) => {{ results[name] = "refused: " + e; }});
}}
let loads = 0;
document.querySelector("iframe").addEventListener("load", () => {{
  loads += 1;
  if (loads === 1) document.getElementById("urlencoded").submit();
  else results.forms = "submitted";
}});
document.getElementById("form").submit();
</script></body></html>"""


@pytest.fixture
def attacker(server):
    """A web page on another origin: another port of 127.0.0.1, as any local dev server is."""
    import http.server
    import threading
    page = ATTACK.format(target=server).encode()

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def built(out: Path) -> list[Path]:
    return sorted(out.rglob("*.pdf")) if out.exists() else []


def test_a_page_from_another_origin_cannot_build(server, attacker, browser, tmp_path):
    out = tmp_path / "out"
    wait = WebDriverWait(browser, 120, poll_frequency=0.1)
    browser.get(attacker)
    wait.until(lambda d: d.execute_script("return Object.keys(window.results).length") == 5)
    results = browser.execute_script("return window.results")
    assert results["json"].startswith("refused") and results["withToken"].startswith("refused"), results
    assert results["readPage"].startswith("refused"), results      # the token cannot be read across
    assert built(out) == [], results                                 # nothing was built

    # the page itself does build, with its token: the attack above would have been seen
    browser.get(server)
    wait.until(lambda d: len(card_pictures(d)) == 27)
    browser.find_element(By.ID, "build").click()
    wait.until(lambda d: "Built:" in d.find_element(By.ID, "downloads").text
               or "Not built" in d.find_element(By.ID, "downloads").text)
    assert "Built:" in browser.find_element(By.ID, "downloads").text
    assert built(out)
