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
