"""`pnp watch`: rebuild a game whenever one of its files, its layouts or fonts change.

The operating system tells of each save (pnp.watching, shared with `pnp serve`); where it
can't (some network drives), the files are polled every `interval` seconds. A bad edit
prints its error and the watch goes on; the last good output stays where it is (a failed
build writes nothing). Each rebuild is made from the same BuildRequest a `pnp build` with
the same options makes, so it writes the files that build writes."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import click

from pnp.errors import PnpError
from pnp.request import BuildRequest
from pnp.watching import changes


def watch(root: Path, game_ids: list[str], rebuild: Callable[[], None], interval: float = 0.5,
          stop: threading.Event | None = None) -> None:
    """Call `rebuild()` once the files are watched, then again after every burst of changes,
    until `stop` is set."""
    stop = stop or threading.Event()
    built = False
    for changed in changes(root, game_ids, stop, poll_seconds=interval):
        if changed or not built:
            rebuild()
            built = True


def watch_games(root: Path, game_ids: list[str], out: Path, request: BuildRequest, interval: float = 0.5,
                stop: threading.Event | None = None) -> None:
    """Build the games as `request` asks (the game as written, and each language it names)
    now and after every change, telling each rebuild on the terminal, until `stop` is set."""
    from pnp.config.deck import keep_loaded_decks
    keep_loaded_decks()   # a save that leaves a data file as it was does not read it again
    watch(root, game_ids, lambda: rebuild_games(root, game_ids, out, request), interval, stop)


def rebuild_games(root: Path, game_ids: list[str], out: Path, request: BuildRequest) -> None:
    """One round of a watch: every game rebuilt (or found up to date), each bad edit told."""
    from pnp.commands.build import languages_built
    from pnp.diagnostics import Report
    from pnp.project import Project
    stamp = time.strftime("%H:%M:%S")
    report = Report()             # each rebuild tells its own problems and warnings
    try:
        project = Project(root, report)   # fresh each time: edits to fonts.yaml and layouts count
        shops = request.shop_presets(project.root)   # and edits to a shop preset
    except PnpError as exc:       # card_data/ gone for a moment (a git checkout): wait for it
        report.failed(exc)
        click.echo("watching for changes (Ctrl-C to stop)", err=True)
        return
    for game_id in game_ids:
        started = time.perf_counter()
        try:
            built = languages_built(project, game_id, out, request, shops, as_written=True, keep_printed=True)
            written = [item for _, files in built for item in files]
        except Exception as exc:  # noqa: BLE001 - a watch outlives every bad edit
            report.failed(exc if isinstance(exc, PnpError) else
                          PnpError(f"pnp hit an internal problem ({exc.__class__.__name__}: {exc})"))
            click.echo(f"[{stamp}] {game_id}: not rebuilt; the last good files stay", err=True)
            continue
        redrawn = [w for w in written if not w.reused and not w.removed]
        files = f"{len(redrawn)} file{'s' if len(redrawn) != 1 else ''}"
        state = "up to date" if not redrawn else \
            f"rebuilt {files} in {time.perf_counter() - started:.2f} s" + \
            (f" ({kept} unchanged)" if (kept := sum(w.reused for w in written)) else "")
        click.echo(f"[{stamp}] {game_id}: {state}")
    report.tell_warnings()
    click.echo("watching for changes (Ctrl-C to stop)", err=True)
