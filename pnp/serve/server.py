"""The HTTP side of `pnp serve`: a handful of fixed routes over the standard library's server.

    GET  /                      the page (pnp's own assets only, from the package)
    GET  /assets/<name>         its script and style sheet
    GET  /api/state?paper&ink   the latest pictures and data as JSON, or the error beside them
    GET  /events                server-sent events: one `change` per new version
    GET  /img/<key>.png         a picture, by the hash of what it was drawn from (immutable)
    POST /api/build             build the PDFs with the page's options into the output folder
    GET  /download/<name>       a file that a build started from this page wrote
    GET  /table                 the table view: shuffle, deal and draw a deck (pnp.serve.table)
    GET  /api/odds?deck&hand&…  exact odds of a hand, as `pnp odds` gives them

Nothing else is served: no directory listing, no path taken from the request is ever opened;
a picture is looked up by key in memory and a download by name in the list of files this
server's builds wrote. Requests whose Host is not this server are refused (a web page
elsewhere cannot reach a server on 127.0.0.1 through DNS tricks)."""

from __future__ import annotations

import json
import re
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from pnp.serve.live import LiveGame, error_json
from pnp.serve.pictures import RENDER_LOCK, PreviewOptions

ASSETS = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8", "table.html": "text/html; charset=utf-8",
          "table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}
PICTURE = re.compile(r"^/img/([0-9a-f]{24}(?:-\d{1,4})?)\.png$")
HEARTBEAT_SECONDS = 15
MAX_BODY = 4096


def asset(name: str) -> bytes:
    return resources.files("pnp.serve").joinpath("page").joinpath(name).read_bytes()


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True     # an open event stream must not keep pnp from stopping

    def __init__(self, address: tuple[str, int], live: LiveGame, build):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, PreviewHandler)
        self.live = live
        self.build = build              # build(options: dict) -> list of (name, Path, pages, size)
        self.downloads: dict[str, Path] = {}
        self.stopping = threading.Event()

    def allowed_hosts(self) -> set[str]:
        host, port = self.server_address[:2]
        names = {host, "localhost", "127.0.0.1", "[::1]"} if host in ("127.0.0.1", "localhost", "::1") else None
        return {f"{name}:{port}" for name in names} if names else set()


class PreviewHandler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the standard library's name
        pass   # the terminal shows what the user does, not every picture fetched

    # --- routing -----------------------------------------------------------------------------
    def do_GET(self):  # noqa: N802 - the standard library's name
        if not self._host_ok():
            return
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        if url.path == "/":
            return self._send(asset("index.html"), ASSETS["index.html"])
        if url.path.startswith("/assets/") and url.path[len("/assets/"):] in ASSETS:
            name = url.path[len("/assets/"):]
            return self._send(asset(name), ASSETS[name])
        if url.path == "/table":
            return self._send(asset("table.html"), ASSETS["table.html"])
        if url.path == "/api/odds":
            return self._odds(parse_qs(url.query))
        if url.path == "/api/state":
            return self._json(self.server.live.state(PreviewOptions.from_query(query)))
        if url.path == "/events":
            return self._events()
        match = PICTURE.match(url.path)
        if match:
            png = self.server.live.store.get(match.group(1))
            if png is None:
                return self._error(HTTPStatus.NOT_FOUND, "no such picture (it was redrawn since)")
            return self._send(png, "image/png", cache="public, max-age=31536000, immutable")
        if url.path.startswith("/download/"):
            return self._download(url.path[len("/download/"):])
        self._error(HTTPStatus.NOT_FOUND, "not found")

    def do_POST(self):  # noqa: N802
        if not self._host_ok():
            return
        if urlsplit(self.path).path != "/api/build":
            return self._error(HTTPStatus.NOT_FOUND, "not found")
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request too large")
        try:
            options = json.loads(self.rfile.read(length) or b"{}")
            if not isinstance(options, dict):
                raise ValueError("expected a JSON object")
        except ValueError as exc:
            return self._error(HTTPStatus.BAD_REQUEST, f"bad request: {exc}")
        try:
            with RENDER_LOCK:
                written = self.server.build(options)
        except Exception as exc:  # noqa: BLE001 - the page shows it; the server goes on
            return self._json(dict(files=[], error=error_json(exc)))
        files = []
        for name, path, pages, size in written:
            self.server.downloads[name] = path
            files.append(dict(name=name, url=f"/download/{name}", pages=pages, size=size))
        self._json(dict(files=files, error=None))

    def _odds(self, query: dict[str, list[str]]) -> None:
        from pnp.errors import PnpError
        from pnp.serve.table import odds_json
        snapshot = self.server.live.state(PreviewOptions()).get("snapshot")
        try:
            return self._json(odds_json(snapshot, query))
        except PnpError as exc:
            return self._error(HTTPStatus.BAD_REQUEST, str(exc))

    # --- responses ---------------------------------------------------------------------------
    def _host_ok(self) -> bool:
        allowed = self.server.allowed_hosts()
        if allowed and self.headers.get("Host") not in allowed:
            self._error(HTTPStatus.FORBIDDEN, "this server answers only to its own address")
            return False
        return True

    def _download(self, name: str) -> None:
        path = self.server.downloads.get(name)
        if path is None or not path.is_file():
            return self._error(HTTPStatus.NOT_FOUND, "not a file a build from this page wrote")
        kind = "application/pdf" if name.endswith(".pdf") else "application/octet-stream"
        self._send(path.read_bytes(), kind, extra={"Content-Disposition": f'attachment; filename="{name}"'})

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        live, seen = self.server.live, -1
        try:
            while not self.server.stopping.is_set():
                version = live.wait_for_change(seen, HEARTBEAT_SECONDS)
                if version != seen:
                    self.wfile.write(f"event: change\ndata: {json.dumps({'version': version})}\n\n".encode())
                    seen = version
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass   # the page was closed

    def _json(self, value) -> None:
        self._send(json.dumps(value).encode(), "application/json", cache="no-store")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._send(message.encode(), "text/plain; charset=utf-8", status=status, cache="no-store")

    def _send(self, body: bytes, kind: str, status=HTTPStatus.OK, cache: str = "no-cache",
              extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)
