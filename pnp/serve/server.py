"""The HTTP side of `pnp serve`: a handful of fixed routes over the standard library's server.

    GET  /                      the page (pnp's own assets only, from the package)
    GET  /assets/<name>         its script and style sheet
    GET  /api/state?paper&ink   the latest pictures and data as JSON, or the error beside them
    GET  /events                server-sent events: one `change` per new version
    GET  /img/<key>.png         a picture, by the hash of what it was drawn from (immutable)
    POST /api/build             build the PDFs with the page's options into the output folder
    GET  /download/<name>       a file that a build started from this page wrote
    GET  /api/edit/elements     with --edit: the elements of one piece's layout (a card, a board, a
                                sheet's page; pnp.serve.editing), and with picture=1 the piece drawn
    POST /api/edit/preview      with --edit: the piece drawn with a changed element, nothing saved
    POST /api/edit              with --edit: the change checked as a build would, then saved
    GET  /table                 the table view: shuffle, deal and draw a deck (pnp.serve.table)
    GET  /api/odds?deck&hand&…  exact odds of a hand, as `pnp odds` gives them

Nothing else is served: no directory listing, no path taken from the request is ever opened;
a picture is looked up by key in memory and a download by name in the list of files this
server's builds wrote.

The server runs beside a browser that visits other sites, so:

- every request must name this server in its Host header: a loopback name or address, the
  machine's own name, or the address the request actually arrived on, with this server's
  port, whatever `--host` is (a web page elsewhere cannot reach it through DNS rebinding);
- every request that changes anything (`changes_allowed`, called first by every POST route)
  must carry the session token the page was served with in an `X-Pnp-Token` header, an
  `Origin` that is this server exactly (another port of localhost is another origin), no
  `Sec-Fetch-Site` other than `same-origin`, and a JSON body (`Content-Type:
  application/json`); a plain form or `text/plain` POST from another site never builds. The
  token is made afresh each time the server starts, put in the page's `<meta name="pnp-token">`
  and sent back by the page's script; a custom header also means a browser must ask first
  (CORS preflight), which this server never grants;
- a body is read only with a plain `Content-Length` of at most MAX_BODY bytes (no chunked
  bodies) within the socket timeout, and a client that hangs up is simply let go;
- at most MAX_CONNECTIONS connections are served at once, each on its own thread; one more is
  told 503 and closed at once (a flood of idle connections cannot start threads without end);
- the page may not be framed by another site (no clickjacking of its Build button)."""

from __future__ import annotations

import hmac
import ipaddress
import json
import re
import secrets
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from pnp.errors import PnpError
from pnp.serve.editing import EditRefused, LayoutEditor
from pnp.serve.live import LiveGame, error_json
from pnp.serve.pictures import RENDER_LOCK, PreviewOptions

if TYPE_CHECKING:
    from socketserver import _RequestType   # a socket, or a datagram and its socket

ASSETS = {"index.html": "text/html; charset=utf-8", "dom.js": "text/javascript; charset=utf-8",
          "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8", "edit.js": "text/javascript; charset=utf-8",
          "edit.css": "text/css; charset=utf-8", "table.html": "text/html; charset=utf-8",
          "table.js": "text/javascript; charset=utf-8", "table.css": "text/css; charset=utf-8"}
PICTURE = re.compile(r"^/img/([0-9a-f]{24}(?:-\d{1,4})?)\.png$")
HEARTBEAT_SECONDS = 15
MAX_BODY = 4096
SOCKET_TIMEOUT = 60        # a client that stops sending (or reading) for this long is let go
MAX_CONNECTIONS = 64       # at once (each an open page's event stream, or a request): no more threads than this
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 45\r\n"
        b"Retry-After: 5\r\nConnection: close\r\n\r\npnp serve has too many connections open now.\n")
TOKEN_HEADER = "X-Pnp-Token"
TOKEN_PLACEHOLDER = b"__PNP_SESSION_TOKEN__"
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1"}
GONE = (ConnectionError, TimeoutError)   # the client hung up or went quiet: not pnp's problem
PAGE_HEADERS = {"X-Frame-Options": "DENY", "Content-Security-Policy": "frame-ancestors 'none'",
                "Referrer-Policy": "no-referrer"}
Built = list[tuple[str, Path, int, int]]   # each file a build wrote: name, path, pages, bytes
Build = Callable[[dict[str, Any]], Built]   # a build with the page's print options (JSON)


def asset(name: str) -> bytes:
    return resources.files("pnp.serve").joinpath("page").joinpath(name).read_bytes()


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True     # an open event stream must not keep pnp from stopping

    def __init__(self, address: tuple[str, int], live: LiveGame, build: Build, editor: LayoutEditor | None = None):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, PreviewHandler)
        self.live = live
        self.build = build
        self.editor = editor            # None unless pnp serve --edit
        self.downloads: dict[str, Path] = {}
        self.stopping = threading.Event()
        self.token = secrets.token_urlsafe(32)   # this session's: in the page, asked of every change
        self.bound = address[0]
        self.free_slots = threading.BoundedSemaphore(MAX_CONNECTIONS)

    def process_request(self, request: _RequestType, client_address: Any) -> None:
        """A thread for each connection up to MAX_CONNECTIONS; past that the connection is told
        503 and closed at once, so a flood of connections (with --host on a network) cannot make
        the server start threads without end."""
        if not self.free_slots.acquire(blocking=False):
            try:
                assert isinstance(request, socket.socket)   # a stream server's requests are sockets
                request.settimeout(1)
                request.sendall(BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.free_slots.release()
            raise

    def process_request_thread(self, request: _RequestType, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.free_slots.release()

    def serves_host(self, header: str | None, arrived_on: str) -> bool:
        """Whether a Host header names this server: its port, and a name or address that is
        this server's own whatever `--host` says (never a name that merely resolves here,
        which is what DNS rebinding relies on). `arrived_on` is the local address the request
        came in on."""
        parsed = split_host(header)
        if parsed is None:
            return False
        name, port = parsed
        if port != self.server_address[1]:
            return False
        arrived = plain_address(arrived_on)
        if name == arrived:
            return True                                   # the address the client really used
        if is_loopback(arrived):
            return name in LOOPBACK_NAMES
        if name == self.bound.lower():
            return True                                   # the name given to --host
        return name in own_names()                        # the machine's own name, on the network

    def handle_error(self, request: _RequestType, client_address: Any) -> None:
        import sys
        if isinstance(sys.exc_info()[1], GONE):
            return     # a client hanging up is not an error
        super().handle_error(request, client_address)


def split_host(header: str | None) -> tuple[str, int] | None:
    """`name:port` (or `[v6]:port`, or a name alone for port 80) as (lower-case name, port)."""
    if not header or len(header) > 300 or any(c in header for c in " /\\@?#\t"):
        return None
    match = re.fullmatch(r"(\[[0-9a-fA-F:.]+\]|[^:\[\]]+)(?::(\d{1,5}))?", header.strip())
    if match is None:
        return None
    name = match.group(1).lower().rstrip(".")
    return plain_address(name), int(match.group(2) or 80)


def plain_address(name: str) -> str:
    """An address in one spelling (`[::1]` -> `::1`, `::ffff:127.0.0.1` -> `127.0.0.1`)."""
    bare = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    try:
        address = ipaddress.ip_address(bare.split("%", 1)[0])
    except ValueError:
        return name
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return str(address)


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address == "localhost"


def own_names() -> set[str]:
    """This machine's own names (`--host 0.0.0.0` shares the preview on the local network)."""
    names = {socket.gethostname().lower()}
    try:
        names.add(socket.getfqdn().lower())
    except OSError:
        pass
    return {name.rstrip(".") for name in names if name}


class PreviewHandler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"
    timeout = SOCKET_TIMEOUT

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the standard library's name
        pass   # the terminal shows what the user does, not every picture fetched

    # --- routing -----------------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        if not self._host_ok():
            return
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        if url.path == "/":
            page = asset("index.html").replace(TOKEN_PLACEHOLDER, self.server.token.encode())
            return self._send(page, ASSETS["index.html"], cache="no-store", extra=PAGE_HEADERS)
        if url.path.startswith("/assets/") and url.path[len("/assets/"):] in ASSETS:
            name = url.path[len("/assets/"):]
            return self._send(asset(name), ASSETS[name])
        if url.path == "/table":   # a page as the preview is: no other site may frame it
            return self._send(asset("table.html"), ASSETS["table.html"], extra=PAGE_HEADERS)
        if url.path == "/api/odds":
            return self._odds(parse_qs(url.query))
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

    def do_POST(self) -> None:  # noqa: N802
        asked = self.changes_allowed()
        if asked is None:
            return
        path = urlsplit(self.path).path
        if path in ("/api/edit", "/api/edit/preview"):
            return self._edit(asked, draw_only=path.endswith("/preview"))
        if path != "/api/build":
            return self._error(HTTPStatus.NOT_FOUND, "not found")
        self._build(asked)

    def _build(self, options: dict[str, Any]) -> None:
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
        from pnp.serve.table import odds_json
        snapshot = self.server.live.state(PreviewOptions()).get("snapshot")
        try:
            return self._json(odds_json(snapshot, query))
        except PnpError as exc:
            return self._error(HTTPStatus.BAD_REQUEST, str(exc))

    # --- the layout editor (pnp serve --edit) ---------------------------------------------------
    def _edit_elements(self, query: dict[str, str]) -> None:
        editor = self.server.editor
        if editor is None:
            return self._error(HTTPStatus.NOT_FOUND, "layout editing is off; start pnp serve with --edit")
        try:
            card = int(query.get("card", ""))
        except ValueError:
            return self._error(HTTPStatus.BAD_REQUEST, "card is a number")
        try:
            self._json(editor.elements(query.get("component", ""), card, query.get("side", "front"),
                                       picture=query.get("picture") == "1"))
        except PnpError as exc:
            self._json(dict(error=error_json(exc)), status=HTTPStatus.BAD_REQUEST)

    def _edit(self, asked: dict[str, Any], draw_only: bool) -> None:
        editor = self.server.editor
        if editor is None:
            return self._error(HTTPStatus.NOT_FOUND, "layout editing is off; start pnp serve with --edit")
        try:
            self._json(editor.change(asked, draw_only=draw_only))
        except EditRefused as exc:
            self._json(dict(error=error_json(exc)), status=HTTPStatus(exc.status))
        except PnpError as exc:
            self._json(dict(error=error_json(exc)), status=HTTPStatus.BAD_REQUEST)

    # --- what a request must show --------------------------------------------------------------
    def changes_allowed(self) -> dict[str, Any] | None:
        """The one gate of every request that changes anything: this server's Host, its own
        Origin, the session token, and a bounded JSON object as the body. Returns that object,
        or None once the refusal is sent. Every state-changing route calls this first."""
        if not self._host_ok():
            return None
        host = self.headers.get("Host", "")
        origin = self.headers.get("Origin")
        if origin is None or origin != f"http://{host}":
            self._refuse(HTTPStatus.FORBIDDEN, "only the preview page itself may change anything")
            return None
        if self.headers.get("Sec-Fetch-Site", "same-origin") != "same-origin":
            self._refuse(HTTPStatus.FORBIDDEN, "only the preview page itself may change anything")
            return None
        token = self.headers.get(TOKEN_HEADER, "")
        if not hmac.compare_digest(token.encode("utf-8", "replace"), self.server.token.encode()):
            self._refuse(HTTPStatus.FORBIDDEN, "this session's token is missing or wrong (reload the page)")
            return None
        kind = self.headers.get("Content-Type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            self._refuse(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON (Content-Type: application/json)")
            return None
        body = self._body()
        if body is None:
            return None
        try:
            # NaN and Infinity are not JSON; Python reads them, and an edit would write them
            value = json.loads(body or b"{}", parse_constant=not_a_number)
        except ValueError as exc:
            self._refuse(HTTPStatus.BAD_REQUEST, f"bad request: {exc}")
            return None
        if not isinstance(value, dict):
            self._refuse(HTTPStatus.BAD_REQUEST, "bad request: expected a JSON object")
            return None
        return value

    def _body(self) -> bytes | None:
        """The request body, at most MAX_BODY bytes, whatever the headers claim."""
        if "Transfer-Encoding" in self.headers:
            self._refuse(HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length, not chunked")
            return None
        lengths = self.headers.get_all("Content-Length") or []
        if len(lengths) != 1 or not re.fullmatch(r"[0-9]{1,9}", lengths[0].strip()):
            self._refuse(HTTPStatus.LENGTH_REQUIRED, "one plain Content-Length is needed")
            return None
        length = int(lengths[0])
        if length > MAX_BODY:
            self._refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request too large")
            return None
        body = self.rfile.read(length)
        if len(body) != length:
            self.close_connection = True
            return None    # the client hung up part way: nobody to answer
        return body

    def _refuse(self, status: HTTPStatus, message: str) -> None:
        self.close_connection = True   # any body left unread must not be taken for a request
        self._error(status, message)

    def _host_ok(self) -> bool:
        arrived_on = self.connection.getsockname()[0]
        if not self.server.serves_host(self.headers.get("Host"), arrived_on):
            self._refuse(HTTPStatus.FORBIDDEN, "this server answers only to its own address")
            return False
        return True

    def handle(self) -> None:
        try:
            super().handle()
        except GONE:
            self.close_connection = True   # the client hung up or went quiet: let it go

    # --- responses ---------------------------------------------------------------------------

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
        except GONE:
            pass   # the page was closed

    def _json(self, value: object, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(json.dumps(value).encode(), "application/json", status=status, cache="no-store")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._send(message.encode(), "text/plain; charset=utf-8", status=status, cache="no-store")

    def _send(self, body: bytes, kind: str, status: HTTPStatus = HTTPStatus.OK, cache: str = "no-cache",
              extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")   # no other site embeds its pictures
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)


def not_a_number(name: str) -> None:
    raise ValueError(f"{name} is not a number an edit can write; give a finite one")
