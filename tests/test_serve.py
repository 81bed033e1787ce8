"""`pnp serve` over HTTP: what it shows, how it follows edits, and what it refuses to serve."""

from __future__ import annotations

import http.client
import io
import json
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pypdf
import pytest
from PIL import Image

from pnp.commands.serve import PortTaken, open_server, print_options, serve
from pnp.errors import PnpError
from pnp.serve.live import LiveGame


class Served:
    """A `pnp serve` running in a thread of this process, and a small client for it."""

    def __init__(self, root: Path, game: str, out: Path, host: str = "127.0.0.1", edit: bool = False):
        self.root, self.out = root, out
        self.url = None
        # port 0: the system gives a free port as the server binds it (a port found free first
        # could be taken by another test's server in between); the page's address names it
        self.thread = threading.Thread(target=serve, args=(root, game, out, host, 0, self._ready),
                                       kwargs=dict(edit=edit), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60
        while self.url is None:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        self.port = urlsplit(self.url).port

    def _ready(self, url):
        self.url = url

    @property
    def token(self) -> str:
        """The session token, read from the page as its script reads it."""
        html = self.request("/")[2].decode()
        return re.search(r'<meta name="pnp-token" content="([^"]+)">', html).group(1)

    def request(self, path: str, method="GET", body: bytes | None = None, host: str | None = None,
                headers: dict | None = None):
        """A request as the page makes it: a POST has the page's origin, token and JSON type
        unless `headers` says otherwise (a header given as None is left out)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Host": host if host is not None else f"127.0.0.1:{self.port}"}
        if method == "POST":
            sent.update({"Origin": f"http://127.0.0.1:{self.port}", "Content-Type": "application/json",
                         "X-Pnp-Token": self.token})
        sent.update(headers or {})
        sent = {key: value for key, value in sent.items() if value is not None}
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


# --- pnp serve beside a browser that visits other sites ----------------------------------------

BUILD = json.dumps({"paper": "", "duplex": "long-edge", "bleed": 0, "ink_saver": False}).encode()


def built_anything(served) -> bool:
    return served.out.exists() and any(served.out.rglob("*.pdf"))


def test_the_page_builds_with_its_own_token_and_the_games_paper(served):
    """"game's paper" (the empty choice) builds the game's own: mini is an A4 game."""
    status, _, data = served.request("/api/build", method="POST", body=BUILD)
    result = json.loads(data)
    assert status == 200 and result["error"] is None, data
    cards = next(served.out.rglob("cards-*.pdf"))
    assert cards.name.startswith("cards-a4")
    width, height = (float(v) for v in pypdf.PdfReader(cards).pages[0].mediabox[2:])
    assert (round(width), round(height)) == (595, 842)     # A4 in points


def test_each_session_has_its_own_token_and_the_page_carries_it(served, mini, tmp_path):
    status, _, html = served.request("/")
    token = served.token
    assert len(token) >= 32 and token.encode() in html
    other = Served(mini, "mini", tmp_path / "other-out")
    assert other.token != token
    # the other session's token does not build here
    status, _, _ = served.request("/api/build", method="POST", body=BUILD, headers={"X-Pnp-Token": other.token})
    assert status == 403 and not built_anything(served)


@pytest.mark.parametrize("why, headers", [
    ("no token", {"X-Pnp-Token": None}),
    ("a wrong token", {"X-Pnp-Token": "guessed"}),
    ("no Origin", {"Origin": None}),
    ("another site", {"Origin": "https://attacker.example"}),
    ("another port of localhost", {"Origin": "http://127.0.0.1:1"}),
    ("localhost by another name", {"Origin": "http://localhost:1"}),
    ("a sandboxed frame or a file", {"Origin": "null"}),
    ("a fetch another site made", {"Sec-Fetch-Site": "cross-site"}),
    ("a fetch another port made", {"Sec-Fetch-Site": "same-site"}),
    ("a text/plain body (no preflight)", {"Content-Type": "text/plain"}),
    ("a form post", {"Content-Type": "application/x-www-form-urlencoded"}),
    ("a multipart form", {"Content-Type": "multipart/form-data; boundary=x"}),
    ("no content type", {"Content-Type": None}),
    ("another host", {"Host": "attacker.example"}),
])
def test_a_request_that_is_not_the_pages_own_never_builds(served, why, headers):
    status, _, body = served.request("/api/build", method="POST", body=BUILD, headers=headers)
    assert status in (403, 411, 415), (why, status, body)
    assert not built_anything(served), why
    assert served.state()["error"] is None      # and the server goes on


@pytest.mark.parametrize("length", ["-1", "abc", "99999999999999", "4097", "1e3", " 5", "0x10", "+5"])
def test_a_body_is_bounded_whatever_its_length_header_says(served, length):
    connection = socket.create_connection(("127.0.0.1", served.port), timeout=30)
    head = (f"POST /api/build HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
            f"Origin: http://127.0.0.1:{served.port}\r\nX-Pnp-Token: {served.token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n")
    connection.sendall(head.encode())
    try:
        connection.sendall(b"{" + b" " * 2**20 + b"}")   # far more than any build request
    except OSError:
        pass    # the server refused and closed before reading it: as it should
    answer = connection.recv(200).decode(errors="replace")
    connection.close()
    # a plain length past 4 KiB is too large, whatever follows; the others are not lengths at all
    assert answer.split(" ")[1] in (("413",) if length == "4097" else ("400", "411", "413")), answer
    assert not built_anything(served)


@pytest.mark.parametrize("framing", [
    "Transfer-Encoding: chunked\r\n",                      # no length at all: chunked
    "",                                                    # no length, no chunks
    "Content-Length: 2\r\nContent-Length: 900000\r\n",   # two lengths
])
def test_a_body_without_one_plain_length_is_refused(served, framing):
    connection = socket.create_connection(("127.0.0.1", served.port), timeout=30)
    connection.sendall((f"POST /api/build HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                        f"Origin: http://127.0.0.1:{served.port}\r\nX-Pnp-Token: {served.token}\r\n"
                        f"Content-Type: application/json\r\n{framing}\r\n2\r\n{{}}\r\n0\r\n\r\n").encode())
    answer = connection.recv(200).decode(errors="replace")
    connection.close()
    assert answer.split(" ")[1] in ("400", "411"), answer
    assert not built_anything(served)


def test_a_client_hanging_up_early_is_not_an_error(served, capfd):
    for request in (
        f"POST /api/build HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
        f"Origin: http://127.0.0.1:{served.port}\r\nX-Pnp-Token: {served.token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"pa",     # body cut short
        f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n",            # headers cut short
        f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Length: abc\r\n\r\n",
    ):
        connection = socket.create_connection(("127.0.0.1", served.port), timeout=30)
        connection.sendall(request.encode())
        connection.close()
    # a reader that goes away mid-answer (a big picture)
    key = served.state()["snapshot"]["decks"][0]["cards"][0]["face"]
    connection = socket.create_connection(("127.0.0.1", served.port), timeout=30)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    connection.sendall(f"GET /img/{key}.png HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
    connection.close()    # a reset, not a polite close
    time.sleep(0.5)
    assert served.state()["error"] is None     # the server answers on
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err + captured.out, captured.err


@pytest.fixture
def shared(mini, tmp_path):
    """`pnp serve --host 0.0.0.0`: shared on the network."""
    return Served(mini, "mini", tmp_path / "out", host="0.0.0.0")


@pytest.mark.parametrize("host", ["attacker.example:{port}", "attacker.example", "127.0.0.1.nip.io:{port}",
                                  "127.0.0.1:1", "localhost:{port}0", "", "127.0.0.1:{port}@x",
                                  "10.0.0.1:{port}", "[::2]:{port}"])
def test_a_shared_server_answers_only_to_its_own_names(shared, host):
    """DNS rebinding: a name the attacker controls, pointed at this machine, is refused."""
    status, _, _ = shared.request("/api/state", host=host.format(port=shared.port))
    assert status in (400, 403)
    status, _, _ = shared.request("/", host=host.format(port=shared.port))
    assert status in (400, 403)


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}"])
def test_a_shared_server_answers_to_the_address_it_is_reached_on(shared, host):
    status, _, _ = shared.request("/api/state", host=host.format(port=shared.port))
    assert status == 200


def test_the_page_cannot_be_framed_by_another_site(served):
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    connection.request("GET", "/", headers={"Host": f"127.0.0.1:{served.port}"})
    response = connection.getresponse()
    response.read()
    assert response.getheader("X-Frame-Options") == "DENY"
    assert "frame-ancestors 'none'" in response.getheader("Content-Security-Policy")
    assert response.getheader("Cache-Control") == "no-store"      # the token is not kept in caches
    connection.request("GET", "/table", headers={"Host": f"127.0.0.1:{served.port}"})
    table = connection.getresponse()
    table.read()
    assert table.getheader("X-Frame-Options") == "DENY"              # the table view is a page too
    assert "frame-ancestors 'none'" in table.getheader("Content-Security-Policy")
    key = served.state()["snapshot"]["decks"][0]["cards"][0]["face"]
    connection.request("GET", f"/img/{key}.png", headers={"Host": f"127.0.0.1:{served.port}"})
    response = connection.getresponse()
    response.read()
    assert response.getheader("Cross-Origin-Resource-Policy") == "same-origin"   # no other page shows it


def test_a_flood_of_connections_is_turned_away_without_a_thread_each(shared):
    """Open connections that never send (as a flood from the network would) take at most
    MAX_CONNECTIONS threads; the next is told 503 at once; once they go, pages load again."""
    from pnp.serve.server import MAX_CONNECTIONS
    threads_before = threading.active_count()
    idle = [socket.create_connection(("127.0.0.1", shared.port), timeout=30) for _ in range(MAX_CONNECTIONS)]
    try:
        deadline = time.monotonic() + 30
        while threading.active_count() < threads_before + MAX_CONNECTIONS and time.monotonic() < deadline:
            time.sleep(0.05)
        one_more = socket.create_connection(("127.0.0.1", shared.port), timeout=30)
        one_more.sendall(f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{shared.port}\r\n\r\n".encode())
        answer = one_more.recv(200)
        one_more.close()
        assert answer.startswith(b"HTTP/1.1 503"), answer
        assert threading.active_count() <= threads_before + MAX_CONNECTIONS + 1
    finally:
        for connection in idle:
            connection.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:   # each idle connection's thread sees it closed and ends
        try:
            if shared.request("/api/state")[0] == 200:
                break
        except ConnectionError:
            pass
        time.sleep(0.1)
    assert shared.state()["error"] is None


def test_the_page_in_another_language_tells_what_its_translation_lacks(mini, tmp_path):
    """Looking at the German pictures, a card whose text changed since it was translated
    showed the old words and no warning, where validate names it out of date."""
    lang = mini / "card_data/mini/lang"
    lang.mkdir()
    (lang / "de.yaml").write_text("language: Deutsch\ncards:\n  cards.yaml:\n    Knight:\n"
                                  "      text: {source: Moves in an L., text: Zieht im L.}\n", encoding="utf-8")
    cards_file(mini).write_text(cards_file(mini).read_text().replace("Moves in an L.", "Moves in a big L."))
    served = Served(mini, "mini", tmp_path / "out")
    messages = [warning["message"] for warning in served.state("?lang=de")["snapshot"]["warnings"]]
    assert any(m.startswith("de: ") and "out of date" in m and "Knight" in m for m in messages), messages
    assert not any("out of date" in warning["message"] for warning in served.state()["snapshot"]["warnings"])
