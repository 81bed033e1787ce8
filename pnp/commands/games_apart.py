"""Several games at once, each in a forked process of its own (`pnp build` and `pnp validate`
of more than one game): the four bundled games are small, and a game's own components are too
few to share out, so games are the work worth spreading over the cores.

Each process is a fork of the command, with the drawing code imported once before it; what it
made and the warnings it gave come back to be told in the order of the games, as one process
tells them. A game that fails in its process is done again in the command's own, which tells
its one clear error."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from pnp import processes
from pnp.errors import PnpError

if TYPE_CHECKING:
    from pnp.commands.build import Prepared, Written
    from pnp.config.shop import ShopPreset
    from pnp.project import Project
    from pnp.request import BuildRequest

Result = TypeVar("Result")
Built = list[tuple[str, "Prepared"]]   # each language of a game: its label, and its build ready to write
# (each Prepared holds the warnings its drawing gave)


def games_apart(project: Project, ids: list[str], task: Callable[[str], Result], jobs: int,
                done: Callable[[str, Result | None], None] | None = None) -> dict[str, Result]:
    """task(game) for each game, `jobs` at a time in forked processes, biggest first; {} when
    fewer than two games (or one core) leave nothing to share. `done(game, what it gave)` is
    called as each game ends (None: it failed there). The task hands back the warnings it gave,
    to be told in the order of the games."""
    if len(ids) < 2 or not processes.can_fork(jobs):
        return {}
    drawing_code_imported()
    return processes.forked(biggest_first(project, ids), task, jobs, done=done)


def games_built_apart(project: Project, ids: list[str], out: Path, request: BuildRequest,
                      shops: Sequence[ShopPreset], jobs: int, quiet: bool = False) -> dict[str, Built]:
    """The games of a `pnp build` that need drawing, drawn apart (pnp.commands.build's
    languages_prepared), with one progress bar counting the games. Each game's files are
    written by the command as the game comes in (so it holds one game's files at a time), as
    one process writes them: a Ctrl-C then waits for a game's renames, and a game that fails
    apart has nothing written when it is drawn again. What each wrote is told later, in the
    order of the games; after a Ctrl-C, what the games written by then wrote is told at once.
    A game whose files are up to date is left to the command, which tells so at once."""
    import click

    from pnp.commands.build import InterruptedAfterGames, languages_prepared
    from pnp.commands.progress import ProgressBar, summarise
    from pnp.outputs.folder import InterruptedAfterCommit
    to_build = [game_id for game_id in dict.fromkeys(ids)
                if work(project, game_id) <= SMALL_GAME and not up_to_date(project, game_id, out, request, shops)]
    if len(to_build) < 2 or not processes.can_fork(jobs):
        return {}
    written: dict[str, list[tuple[str, list[Written]]]] = {}   # by game, each language written so far
    refused: dict[str, PnpError] = {}

    def written_now(game_id: str, drawn: Built | None) -> None:
        tick(1)
        written[game_id] = []
        for label, prepared in drawn or ():
            try:
                written[game_id].append((label, prepared.written()))   # kept for the command to tell
            except PnpError as exc:   # told when the command comes to this game, which meets it again
                refused[game_id] = exc
                break
    try:
        with ProgressBar(f"{len(to_build)} games", enabled=not quiet) as bar:
            tick = bar.start(len(to_build), least=2)
            return games_apart(project, to_build,
                               lambda game_id: list(languages_prepared(project, game_id, out, request, shops)),
                               jobs, written_now)
    except KeyboardInterrupt as exc:
        for game_id in to_build:   # as one process would have told them
            for label, files in written.get(game_id, []) if not quiet else ():
                summarise(label, files, out / game_id)
            if game_id in refused:
                click.secho(f"error: {game_id}: {refused[game_id]}", fg="red", err=True)
        if any(written.values()) and not isinstance(exc, InterruptedAfterCommit):
            raise InterruptedAfterGames() from None
        raise


def up_to_date(project: Project, game_id: str, out: Path, request: BuildRequest, shops: Sequence[ShopPreset]) -> bool:
    """Whether every language of the game asked for was last built from what it reads now:
    only which games to share out, so any doubt counts as not (the build itself decides)."""
    from pnp.cache import fingerprint
    from pnp.outputs.folder import OutputFolder
    try:
        for lang in request.languages(project.root / "card_data" / game_id, game_id):
            inputs = fingerprint(project.root, game_id, request.options_for(lang=lang), request.paper, tuple(shops))
            if OutputFolder(out / game_id, language=lang).up_to_date(inputs) is None:
                return False
    except (PnpError, OSError):
        return False
    return True


def drawing_code_imported() -> None:
    """What every game's drawing imports, imported once before the fork rather than in each
    process."""
    import pnp.exporters.print_all  # noqa: F401
    import pnp.kinds  # noqa: F401
    import pnp.kinds.rule_sheet  # noqa: F401
    import pnp.layout.template  # noqa: F401


# A game whose files hold more than this (a deck of some 1,400 cards) shares its own components
# and parts out instead: it is built after the others, in the command's process, which then
# never holds more than one big game's files (with a shop's pictures, hundreds of MB).
SMALL_GAME = 200_000


def biggest_first(project: Project, ids: list[str]) -> list[str]:
    """The games by the work they take, biggest first, so that the processes finish together."""
    return sorted(ids, key=lambda game_id: work(project, game_id), reverse=True)


def work(project: Project, game_id: str) -> int:
    """The work a game takes, roughly: the size of its files, once for the game and once more
    for each translation, which draws it all again."""
    from pnp.lang import language_codes
    folder = project.root / "card_data" / game_id
    try:
        size = sum(entry.stat().st_size for entry in os.scandir(folder) if entry.is_file(follow_symlinks=False))
        return size * (1 + len(language_codes(folder)))
    except OSError:   # told when the game is read
        return 0
