"""Components drawn in processes of their own (`pnp build --jobs N`), the same bytes as in one.

Each process is a fork of the build, so it starts with the game, its decks and the build's
context already loaded, and draws whole components: a file never depends on what else the
process drew (forms and fonts are per canvas), so the bytes are those of a one-process build.
Only a build with at least two components to draw and enough pieces pays for the processes;
a component whose drawing fails in its process is drawn again in the build's own, which then
fails with the one clear message it always gives."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnp.config.game import Component
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext

Drawn = tuple[list[tuple["OutputFile", float | None]], list[str]]   # a component's timed files and its warnings

MIN_PIECES = 100   # below this a build takes less time than starting the processes

# (context, components by id), set before the fork for the children
_work: tuple[BuildContext, dict[str, Component]] | None = None


def drawn_apart(ctx: BuildContext, components: list[Component], jobs: int) -> dict[str, Drawn]:
    """Each component's files (each with the time it took) and the warnings its drawing gave,
    by id, drawn `jobs` at a time; {} when drawing them here is as quick."""
    global _work
    if len(components) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return {}
    if sum(component.steps(ctx.decks) for component in components) < MIN_PIECES:
        return {}
    biggest_first = sorted(components, key=lambda component: -component.steps(ctx.decks))
    _work = (ctx, {component.id: component for component in components})
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(components)),
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            futures = {component.id: pool.submit(_draw, component.id) for component in biggest_first}
            found = {id: future.result() for id, future in futures.items()}
    finally:
        _work = None
    return {id: result for id, result in found.items() if result is not None}


def _draw(component_id: str) -> Drawn | None:
    """In a child: one component drawn; None when it failed (the parent draws it again)."""
    from pnp.commands.timing import timed
    from pnp.exporters.home_pdf import HomePdf
    assert _work is not None
    ctx, components = _work
    ctx.tick = lambda steps=1: None   # the parent's progress bar is the parent's to move
    try:
        with ctx.project.diagnostics.listening() as heard:
            made = timed(HomePdf(ctx).component, components[component_id])   # as the build's own process draws it
    except BaseException:   # noqa: BLE001 - told by the parent, which draws it again
        return None
    return made, heard
