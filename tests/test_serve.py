"""`pnp serve` over HTTP: what it shows, how it follows edits, and what it refuses to serve."""

from __future__ import annotations

import http.client
import io
import json
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

from pnp.commands.serve import PortTaken, open_server, print_options, serve
from pnp.errors import PnpError
from pnp.serve.live import LiveGame


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Served:
    """A `pnp serve` running in a thread of this process, and a small client for it."""

    def __init__(self, root: Path, game: str, out: Path, edit: bool = False):
        self.root, self.port = root, free_port()
        self.url = None
        self.thread = threading.Thread(target=serve, args=(root, game, out, "127.0.0.1", self.port, self._ready),
                                       kwargs=dict(edit=edit), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while self.url is None:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def _ready(self, url):
        self.url = url

    @property
    def token(self) -> str:
        """The session token the server put in its page, as the page's script reads it."""
        _, _, page = self.request("/")
        return page.decode().split('name="pnp-token" content="', 1)[1].split('"', 1)[0]

    def request(self, path: str, method="GET", body: bytes | None = None, host: str | None = None,
                headers: dict | None = None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Host": host or f"127.0.0.1:{self.port}"}
        if body is not None:
            sent["Content-Type"] = "application/json"
            sent["X-Pnp-Token"] = self.token
        sent.update(headers or {})
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, response.getheader("Content-Type"), data

    def state(self, query: str = "") -> dict:
        status, _, data = self.request(f"/api/state{query}")
        assert status == 200
        return json.loads(data)

    def wait_for(self, condition, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if condition(state):
                return state
            time.sleep(0.05)
        raise AssertionError(f"the page never showed the change; last state: {json.dumps(state)[:500]}")


@pytest.fixture
def served(mini, tmp_path):
    return Served(mini, "mini", tmp_path / "out")


def cards_file(root: Path) -> Path:
    return root / "card_data/mini/cards.yaml"


def test_the_page_shows_every_card_face_and_back_with_its_data(served):
    status, kind, html = served.request("/")
    assert status == 200 and kind.startswith("text/html") and b"/assets/app.js" in html
    state = served.state()
    assert state["error"] is None
    deck = state["snapshot"]["decks"][0]
    assert [(c["label"], c["count"]) for c in deck["cards"]] == [("Knight", 4), ("Bishop", 2)]
    knight = deck["cards"][0]
    assert knight["fields"]["power"] == 3
    assert knight["source"].endswith("cards.yaml:8")        # the card's own line in its file
    for key in (knight["face"], knight["back"]):
        status, kind, png = served.request(f"/img/{key}.png")
        assert status == 200 and kind == "image/png"
        image = Image.open(io.BytesIO(png))
        # drawn with a 3 mm bleed around the card, at 150 dpi
        width, height = deck["size_mm"]
        assert deck["bleed_mm"] == 3
        expected = ((width + 6) / 25.4 * 150, (height + 6) / 25.4 * 150)
        assert all(abs(got - want) <= 1 for got, want in zip(image.size, expected)), image.size
    rules = state["snapshot"]["pages"][0]
    assert rules["kind"] == "rules" and rules["pictures"]
    assert served.request(f"/img/{rules['pictures'][0]}.png")[0] == 200


def test_saving_a_card_redraws_only_that_card(served):
    before = served.state()["snapshot"]["decks"][0]["cards"]
    path = cards_file(served.root)
    path.write_text(path.read_text().replace("power: 2", "power: 7"))
    after = served.wait_for(lambda s: s["snapshot"]["decks"][0]["cards"][1]["fields"]["power"] == 7)
    cards = after["snapshot"]["decks"][0]["cards"]
    assert cards[1]["face"] != before[1]["face"]     # the Bishop is drawn anew
    assert cards[0]["face"] == before[0]["face"]     # the Knight keeps its picture
    assert served.request(f"/img/{cards[1]['face']}.png")[0] == 200


def test_a_bad_edit_shows_its_error_and_keeps_the_last_pictures_until_fixed(served):
    good = served.state()["snapshot"]
    path = cards_file(served.root)
    text = path.read_text()
    path.write_text(text.replace("power: 2", "power: two"))
    state = served.wait_for(lambda s: s["error"] is not None)
    assert state["error"]["file"].endswith("cards.yaml") and state["error"]["line"] == 13
    assert "power" in state["error"]["text"] and "whole number" in state["error"]["text"]
    assert state["snapshot"] == good                  # the last good pictures stay
    path.write_text(text)
    assert served.wait_for(lambda s: s["error"] is None)["snapshot"]["decks"] == good["decks"]


def test_the_event_stream_tells_of_each_change(served):
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    connection.request("GET", "/events", headers={"Host": f"127.0.0.1:{served.port}"})
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"

    def next_event() -> dict:
        lines = []
        while True:
            line = response.fp.readline().decode().rstrip("\n")
            if line == "" and lines:
                break
            if line and not line.startswith(":"):
                lines.append(line)
        assert lines[0] == "event: change"
        return json.loads(lines[1].removeprefix("data: "))

    first = next_event()["version"]
    path = cards_file(served.root)
    path.write_text(path.read_text().replace("Moves in an L.", "Jumps."))
    assert next_event()["version"] > first
    connection.close()


@pytest.mark.parametrize("path", [
    "/../pyproject.toml", "/assets/../../pyproject.toml", "/assets/", "/assets/%2e%2e/cli.py",
    "/img/../../card_data/mini/cards.yaml", "/img/", "/card_data/mini/cards.yaml",
    "/download/../../card_data/mini/cards.yaml", "/download/%2e%2e%2fcards.yaml", "/download/cards-a4.pdf",
    "/serve/page/index.html", "/pnp/serve/page/app.js", "//etc/passwd", "/api/../../etc/passwd",
])
def test_nothing_but_the_game_and_the_page_is_served(served, path):
    status, _, body = served.request(path)
    assert status == 404, (path, body[:200])


def test_requests_for_another_host_are_refused(served):
    status, _, _ = served.request("/api/state", host="attacker.example:80")
    assert status == 403


def test_the_print_buttons_build_into_the_output_folder_and_offer_the_files(served, tmp_path):
    body = json.dumps({"paper": "letter", "duplex": "short-edge", "bleed": 0, "ink_saver": False}).encode()
    status, _, data = served.request("/api/build", method="POST", body=body)
    result = json.loads(data)
    assert status == 200 and result["error"] is None
    names = [f["name"] for f in result["files"]]
    assert any(name.startswith("cards-letter") and name.endswith(".pdf") for name in names)
    written = sorted(p.relative_to(tmp_path) for p in (tmp_path / "out").rglob("*.pdf"))
    assert written and all(p.parts[:2] == ("out", "mini") for p in written)
    status, kind, pdf = served.request(result["files"][0]["url"])
    assert status == 200 and kind == "application/pdf" and pdf.startswith(b"%PDF")


@pytest.mark.parametrize("asked", [{"paper": "legal"}, {"duplex": "sideways"}, {"bleed": 40}, {"bleed": "3mm"}])
def test_print_options_from_the_page_are_checked(asked):
    with pytest.raises(PnpError):
        print_options(asked)


def test_a_taken_port_is_told_with_a_free_one_to_try(served, mini):
    with pytest.raises(PortTaken) as caught:
        open_server("127.0.0.1", served.port, LiveGame(mini, "mini"), lambda options: [])
    assert f"port {served.port}" in str(caught.value) and "try --port" in str(caught.value)


def test_serve_on_a_taken_port_exits_with_one_line(served, mini):
    result = subprocess.run([sys.executable, "-m", "pnp", "serve", "--game", "mini", "--root", str(mini),
                             "--port", str(served.port)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "already in use" in result.stderr and "Traceback" not in result.stderr
