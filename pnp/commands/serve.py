"""`pnp serve`: a live preview of one game in the browser.

Draws every piece once, then redraws what changed each time a file the build reads is saved
and tells the open pages (server-sent events). The page's print buttons build into the
output folder, as `pnp build` would."""

from __future__ import annotations

import errno
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.errors import PnpError
from pnp.request import BuildRequest
from pnp.serve.live import LiveGame
from pnp.serve.server import Build, Built, PreviewServer
from pnp.watching import changes

if TYPE_CHECKING:
    from pnp.serve.editing import LayoutEditor


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


def open_server(host: str, port: int, live: LiveGame, build: Build,
                editor: LayoutEditor | None = None) -> PreviewServer:
    try:
        return PreviewServer((host, port), live, build, editor)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise PnpError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
        other = free_port_near(host, port)
        hint = f"try --port {other}" if other else "choose another with --port"
        raise PortTaken(f"port {port} on {host} is already in use (another pnp serve?)", hint=hint) from None


def print_options(asked: dict[str, Any]) -> BuildRequest:
    """The page's print choices as a build request; anything unexpected is refused, not guessed."""
    return BuildRequest.from_json(asked)


def serve(root: Path, game_id: str, out: Path, host: str, port: int, announce: Callable[[str], None],
          edit: bool = False) -> None:
    """Serve until interrupted. `announce(url)` is told where the page is. With `edit`, the
    page may change the game's layout files (pnp.serve.editing)."""
    from pnp.config.deck import keep_loaded_decks
    from pnp.project import Project
    keep_loaded_decks()   # a save that leaves a data file as it was does not read it again

    def build(asked: dict[str, Any]) -> Built:
        from pnp.commands.build import languages_built
        request = print_options(asked)
        project = Project(root)
        written = [item for _, files in languages_built(project, game_id, out, request,
                                                        request.shop_presets(project.root))
                   for item in files]
        return [(item.path.name, item.path, item.pages, item.size) for item in written]

    live = LiveGame(root, game_id)
    editor = None
    if edit:
        from pnp.serve.editing import LayoutEditor
        editor = LayoutEditor(root, game_id)
    server = open_server(host, port, live, build, editor)
    stop = server.stopping
    armed = threading.Event()

    def follow_edits() -> None:
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
