"""`pnp serve`: a live preview of one game in the browser.

Draws every piece once, then redraws what changed each time a file the build reads is saved
and tells the open pages (server-sent events). The page's print buttons build into the
output folder, as `pnp build` would."""

from __future__ import annotations

import errno
import math
import socket
import threading
from pathlib import Path

from pnp.errors import PnpError
from pnp.serve.live import LiveGame
from pnp.serve.server import PreviewServer
from pnp.watching import changes

DUPLEX = ("long-edge", "short-edge", "none", "fold")


class PortTaken(PnpError):
    pass


def free_port_near(host: str, port: int) -> int | None:
    for candidate in range(port + 1, min(port + 50, 65535)):
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            try:
                probe.bind((host, candidate))
                return candidate
            except OSError:
                continue
    return None


def open_server(host: str, port: int, live: LiveGame, build) -> PreviewServer:
    try:
        return PreviewServer((host, port), live, build)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise PnpError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
        other = free_port_near(host, port)
        hint = f"try --port {other}" if other else "choose another with --port"
        raise PortTaken(f"port {port} on {host} is already in use (another pnp serve?)", hint=hint) from None


def print_options(asked: dict):
    """The page's print choices as build options; anything unexpected is refused, not guessed."""
    from pnp.layout.units import mm
    from pnp.render import PrintOptions
    paper = asked.get("paper", "letter")
    duplex = asked.get("duplex", "long-edge")
    bleed = asked.get("bleed", 0)
    if paper not in ("letter", "a4"):
        raise PnpError(f"unknown paper '{paper}'", hint="letter or a4")
    if duplex not in DUPLEX:
        raise PnpError(f"unknown duplex '{duplex}'", hint=", ".join(DUPLEX))
    if isinstance(bleed, bool) or not isinstance(bleed, (int, float)) or not math.isfinite(bleed) \
            or not 0 <= bleed <= 10:
        raise PnpError("bleed is a number of mm from 0 to 10")
    lang = asked.get("lang") or None
    from pnp.lang import CODE
    if lang is not None and not (isinstance(lang, str) and CODE.match(lang)):
        raise PnpError("lang is a language code the game has a translation for, or empty")
    return paper, PrintOptions(paper=paper, duplex=duplex, bleed=mm(bleed), ink_saver=bool(asked.get("ink_saver")),
                               lang=lang)


def serve(root: Path, game_id: str, out: Path, host: str, port: int, announce) -> None:
    """Serve until interrupted. `announce(url)` is told where the page is."""
    from pnp.commands.build import build_game
    from pnp.project import Project

    def build(asked: dict):
        paper, options = print_options(asked)
        written = build_game(Project(root), game_id, out, paper, options)
        return [(item.path.name, item.path, item.pages, item.size) for item in written]

    live = LiveGame(root, game_id)
    server = open_server(host, port, live, build)
    stop = server.stopping
    armed = threading.Event()

    def follow_edits():
        for changed in changes(root, [game_id], stop):
            if changed or not armed.is_set():
                live.refresh_all()   # the first time: once watched, so no edit falls between
                armed.set()

    watcher = threading.Thread(target=follow_edits, name="pnp-watch", daemon=True)
    watcher.start()
    armed.wait()
    shown_host = f"[{host}]" if ":" in host else host
    announce(f"http://{shown_host}:{server.server_address[1]}/")
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        stop.set()
        server.server_close()
