"""Card data at a URL (a published Google Sheet is a CSV at an address): downloaded once into
the game folder, used from there, fetched again with --refresh, and kept when offline. Served
here by a small HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import build, pdf, run

CSV = "name,power,colour,text,count\n{first},3,#224466,Moves in an L.,4\nBishop,2,#224466,Diagonal.,2\n"


class Sheet:
    """What the server answers with; change `text` to publish a new version."""

    def __init__(self):
        self.text = CSV.format(first="Knight")
        self.requests = 0


@pytest.fixture
def server():
    sheet = Sheet()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            sheet.requests += 1
            body = sheet.text.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    sheet.url = f"http://127.0.0.1:{httpd.server_address[1]}/spreadsheets/d/e/pub?output=csv"
    sheet.stop = lambda: (httpd.shutdown(), httpd.server_close())
    yield sheet
    if thread.is_alive():
        sheet.stop()


def use_url(mini, url: str) -> None:
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("data: cards.yaml", f'data: "{url}"'))


def names(path) -> str:
    return pdf(path).pages[0].extract_text()


def test_the_first_build_downloads_a_copy_with_its_url_and_time(mini, tmp_path, server):
    use_url(mini, server.url)
    build(mini, "mini", tmp_path)
    assert "Knight" in names(tmp_path / "mini/cards-a4.pdf")
    copies = list((mini / "card_data/mini/.pnp-data").glob("*.csv"))
    assert len(copies) == 1 and copies[0].read_text() == CSV.format(first="Knight")
    note = json.loads(copies[0].with_name(copies[0].name + ".source.json").read_text())
    assert note["url"] == server.url and note["fetched"]


def test_builds_use_the_copy_until_refresh_fetches_again(mini, tmp_path, server):
    use_url(mini, server.url)
    build(mini, "mini", tmp_path)
    server.text = CSV.format(first="Rook")   # the sheet is edited online
    again = build(mini, "mini", tmp_path)
    assert "up to date" in again.output and server.requests == 1
    assert "Rook" not in names(tmp_path / "mini/cards-a4.pdf")
    build(mini, "mini", tmp_path, "--refresh")
    assert server.requests == 2
    assert "Rook" in names(tmp_path / "mini/cards-a4.pdf")


def test_offline_the_copy_is_used_with_a_note(mini, tmp_path, server):
    use_url(mini, server.url)
    build(mini, "mini", tmp_path)
    server.stop()
    result = run("build", "--game", "mini", "--out", str(tmp_path / "again"), "--refresh", root=mini)
    assert result.exit_code == 0, result.stderr
    assert "could not download" in result.stderr and "using the copy from" in result.stderr
    assert "game.yaml:" in result.stderr
    assert "Knight" in names(tmp_path / "again/mini/cards-a4.pdf")


def test_no_copy_and_no_server_is_one_clear_error(mini, tmp_path, server):
    use_url(mini, server.url)
    server.stop()
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 1
    assert "game.yaml:7:" in result.stderr and "could not download" in result.stderr
    assert "no copy of it yet" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "mini").exists()


# --- a download is kept only when it is whole, and ends within seconds --------------------------

class RawServer:
    """A server on 127.0.0.1 that answers each connection with `answer` (bytes, or a function of
    the socket): for answers no polite HTTP server gives."""

    def __init__(self, answer):
        import socket
        self.answer = answer
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/pub.csv"
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        import socket
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except socket.timeout:
                continue
            with connection:
                connection.settimeout(5)
                try:
                    connection.recv(4096)     # the request
                    if callable(self.answer):
                        self.answer(connection, self.stopped)
                    else:
                        connection.sendall(self.answer)
                except OSError:
                    pass

    def stop(self):
        self.stopped.set()
        self.thread.join(10)
        self.listener.close()


@pytest.fixture
def raw():
    servers = []

    def start(answer):
        servers.append(RawServer(answer))
        return servers[-1]
    yield start
    for server in servers:
        server.stop()


def copy_of(mini):
    copies = list((mini / "card_data/mini/.pnp-data").glob("*.csv"))
    return copies[0].read_text() if copies else None


def answer(body: bytes, length: int | None = None, extra: str = "") -> bytes:
    head = "HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nConnection: close\r\n" + extra
    if length is not None:
        head += f"Content-Length: {length}\r\n"
    return head.encode() + b"\r\n" + body


WHOLE = CSV.format(first="Rook").encode()
BAD_ANSWERS = {
    "cut short": answer(WHOLE[:-25], length=len(WHOLE)),        # the last card lost on the way
    "garbage": b"\x00\xffnot http at all\r\n\r\n",
    "a bad chunk": answer(b"zz\r\nname,power\r\n0\r\n\r\n", extra="Transfer-Encoding: chunked\r\n"),
    "a chunk cut short": answer(b"400\r\n" + WHOLE + b"\r\n", extra="Transfer-Encoding: chunked\r\n"),
    "a bad length": answer(WHOLE, extra="Content-Length: lots\r\n"),
    "nothing": b"",
}


@pytest.mark.parametrize("case", BAD_ANSWERS)
def test_a_download_that_is_not_whole_is_never_kept(mini, tmp_path, server, raw, case):
    use_url(mini, server.url)
    build(mini, "mini", tmp_path)
    before = copy_of(mini)
    bad = raw(BAD_ANSWERS[case])
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace(server.url, bad.url))
    # no copy of this address yet: one clear error, nothing built
    result = run("build", "--game", "mini", "--out", str(tmp_path / "fresh"), root=mini)
    assert result.exit_code == 1, (case, result.output)
    assert "could not download" in result.stderr and "game.yaml:7:" in result.stderr, result.stderr
    assert "internal problem" not in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "fresh/mini").exists()
    assert len(list((mini / "card_data/mini/.pnp-data").iterdir())) == 2   # the first copy and its note only
    # the earlier copy of an address stays as it was when a refresh comes back cut short
    game.write_text(game.read_text().replace(bad.url, server.url))
    server.text = "name,power\n"          # never asked for: the raw server answers instead
    import pnp.config.remote as remote
    real = remote.read_whole
    remote.read_whole = lambda address, stop: real(bad.url, stop)
    try:
        result = run("build", "--game", "mini", "--out", str(tmp_path / "again"), "--refresh", root=mini)
    finally:
        remote.read_whole = real
    assert result.exit_code == 0, result.stderr
    assert "could not download" in result.stderr and "using the copy from" in result.stderr
    assert copy_of(mini) == before
    assert "Knight" in names(tmp_path / "again/mini/cards-a4.pdf")


def test_a_download_that_trickles_ends_within_its_time_limit(mini, tmp_path, raw, monkeypatch):
    import time
    import pnp.config.remote as remote

    def trickle(connection, stopped):
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
        while not stopped.wait(0.5):      # a byte every half second: no per-read timeout fires
            connection.sendall(b"x")

    monkeypatch.setattr(remote, "TOTAL_SECONDS", 2.0)
    slow = raw(trickle)
    use_url(mini, slow.url)
    started = time.monotonic()
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert time.monotonic() - started < 15
    assert result.exit_code == 1 and "more than 2 seconds" in result.stderr, result.stderr


@pytest.mark.parametrize("url", ["http://[::1/x.csv", "http://[nonsense]/x.csv", "http://host:port/x.csv",
                                 "http:///x.csv", "https://:80/x.csv", "http://127.0.0.1:99999/x.csv"])
def test_an_address_pnp_cannot_read_is_one_clear_error(mini, tmp_path, url):
    use_url(mini, url)
    for command in (["build", "--out", str(tmp_path)], ["validate"]):
        result = run(command[0], "--game", "mini", *command[1:], root=mini)
        assert result.exit_code == 1, (url, result.output)
        assert "game.yaml:7:" in result.stderr and "internal problem" not in result.stderr, result.stderr


def test_a_facts_rule_reads_its_file_in_the_game_folder_when_the_data_is_downloaded(mini, tmp_path, server):
    """The deck's copy lies in .pnp-data/, and the facts rule looked for its file there."""
    (mini / "card_data/mini/facts.yaml").write_text(
        "pieces:\n  key: name\n  source: Contents\n  entries:\n    - {name: Knight, count: 4, section: Contents}\n    - {name: Bishop, count: 2, section: Contents}\n")
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace(
        "contents:\n", "contents:\n  - {rule: facts, deck: cards, file: facts.yaml, table: pieces, source: Contents}\n", 1))
    use_url(mini, server.url)
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code == 0 and "mini: ok (2 rules checked)" in result.output, result.stderr


def test_a_downloads_note_nested_past_reason_reads_as_an_earlier_build(tmp_path):
    from pnp.config.remote import fetched_at, note_of
    copy = tmp_path / "cards.csv"
    copy.write_text("name\nA\n")
    note_of(copy).write_text("[" * 200_000 + "]" * 200_000)
    assert fetched_at(copy) == "an earlier build"
