"""The HTTP side of `pnp serve`: a handful of fixed routes over the standard library's server.

    GET  /                      the page (pnp's own assets only, from the package)
    GET  /assets/<name>         its script and style sheet
    GET  /api/state?paper&ink   the latest pictures and data as JSON, or the error beside them
    GET  /events                server-sent events: one `change` per new version
    GET  /img/<key>.png         a picture, by the hash of what it was drawn from (immutable)
    POST /api/build             build the PDFs with the page's options into the output folder
    GET  /download/<name>       a file that a build started from this page wrote
    GET  /api/edit/elements     with --edit: the elements of one card's layout (pnp.serve.editing)
    POST /api/edit/preview      with --edit: the card drawn with a changed element, nothing saved
    POST /api/edit              with --edit: the change checked as a build would, then saved

Nothing else is served: no directory listing, no path taken from the request is ever opened;
a picture is looked up by key in memory and a download by name in the list of files this
server's builds wrote. Requests whose Host is not this server are refused (a web page
elsewhere cannot reach a server on 127.0.0.1 through DNS tricks)."""

from __future__ import annotations

import hmac
import json
import re
import secrets
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from pnp.errors import PnpError
from pnp.serve.editing import EditRefused, LayoutEditor
from pnp.serve.live import LiveGame, error_json
from pnp.serve.pictures import RENDER_LOCK, PreviewOptions

ASSETS = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8", "edit.js": "text/javascript; charset=utf-8",
          "edit.css": "text/css; charset=utf-8"}
PICTURE = re.compile(r"^/img/([0-9a-f]{24}(?:-\d{1,4})?)\.png$")
HEARTBEAT_SECONDS = 15
MAX_BODY = 16384
TOKEN_HEADER = "X-Pnp-Token"
TOKEN_PLACEHOLDER = b"__PNP_SESSION_TOKEN__"


def asset(name: str) -> bytes:
    return resources.files("pnp.serve").joinpath("page").joinpath(name).read_bytes()


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True     # an open event stream must not keep pnp from stopping

    def __init__(self, address: tuple[str, int], live: LiveGame, build, editor: LayoutEditor | None = None):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, PreviewHandler)
        self.live = live
        self.build = build              # build(options: dict) -> list of (name, Path, pages, size)
        self.editor = editor            # None unless pnp serve --edit
        self.downloads: dict[str, Path] = {}
        self.stopping = threading.Event()
        self.token = secrets.token_urlsafe(32)   # this session's: in the page, asked of every change

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
            page = asset("index.html").replace(TOKEN_PLACEHOLDER, self.server.token.encode())
            return self._send(page, ASSETS["index.html"], cache="no-store")
        if url.path.startswith("/assets/") and url.path[len("/assets/"):] in ASSETS:
            name = url.path[len("/assets/"):]
            return self._send(asset(name), ASSETS[name])
        if url.path == "/api/state":
            state = self.server.live.state(PreviewOptions.from_query(query))
            return self._json({**state, "editing": self.server.editor is not None})
        if url.path == "/api/edit/elements":
            return self._edit_elements(query)
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
        path = urlsplit(self.path).path
        if path not in ("/api/build", "/api/edit", "/api/edit/preview"):
            return self._error(HTTPStatus.NOT_FOUND, "not found")
        if not self._changes_allowed():
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request too large")
        try:
            asked = json.loads(self.rfile.read(length) or b"{}")
            if not isinstance(asked, dict):
                raise ValueError("expected a JSON object")
        except ValueError as exc:
            return self._error(HTTPStatus.BAD_REQUEST, f"bad request: {exc}")
        if path == "/api/build":
            return self._build(asked)
        return self._edit(asked, draw_only=path.endswith("/preview"))

    def _build(self, options: dict) -> None:
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

    # --- the layout editor (pnp serve --edit) ---------------------------------------------------
    def _edit_elements(self, query: dict) -> None:
        editor = self.server.editor
        if editor is None:
            return self._error(HTTPStatus.NOT_FOUND, "layout editing is off; start pnp serve with --edit")
        try:
            card = int(query.get("card", ""))
        except ValueError:
            return self._error(HTTPStatus.BAD_REQUEST, "card is a number")
        try:
            self._json(editor.elements(query.get("deck", ""), card, query.get("side", "front")))
        except PnpError as exc:
            self._json(dict(error=error_json(exc)), status=HTTPStatus.BAD_REQUEST)

    def _edit(self, asked: dict, draw_only: bool) -> None:
        editor = self.server.editor
        if editor is None:
            return self._error(HTTPStatus.NOT_FOUND, "layout editing is off; start pnp serve with --edit")
        try:
            self._json(editor.change(asked, draw_only=draw_only))
        except EditRefused as exc:
            self._json(dict(error=error_json(exc)), status=HTTPStatus(exc.status))
        except PnpError as exc:
            self._json(dict(error=error_json(exc)), status=HTTPStatus.BAD_REQUEST)

    # --- responses ---------------------------------------------------------------------------
    def _changes_allowed(self) -> bool:
        """A request that changes anything comes from this server's own page: it carries the
        page's session token and this server's origin, and says it sends JSON."""
        host = self.headers.get("Host", "")
        token = self.headers.get(TOKEN_HEADER, "")
        origin = self.headers.get("Origin")
        kind = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if not hmac.compare_digest(token.encode(), self.server.token.encode()):
            self._error(HTTPStatus.FORBIDDEN, "this request does not come from the preview page (no session token)")
            return False
        if origin is not None and origin != f"http://{host}":
            self._error(HTTPStatus.FORBIDDEN, "requests from another site are refused")
            return False
        if kind != "application/json":
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON")
            return False
        return True

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

    def _json(self, value, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(json.dumps(value).encode(), "application/json", status=status, cache="no-store")

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
