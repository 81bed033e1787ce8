"""Work done in processes of their own: a build's components (`pnp build --jobs N`, the same
bytes as in one process) and the games `pnp validate` checks (the same report as in one).

Each process is a fork of the command, so it starts with everything already loaded. A build's
process draws whole components: a file never depends on what else the process drew (forms
and fonts are per canvas), so the bytes are those of a one-process build. Only a build with
at least two components to draw and enough pieces pays for the processes. Whatever fails in
its process is done again in the command's own, which then fails with the one clear message
it always gives."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

if TYPE_CHECKING:
    from pnp.config.game import Component
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext

# a component's timed files, its warnings and the icon art it drew (pnp.layout.icon_art)
Drawn = tuple[list[tuple["OutputFile", float | None]], list[str], dict[str, object]]
Result = TypeVar("Result")

MIN_PIECES = 100   # below this a build takes less time than starting the processes

# what each child does with an id, set before the fork for the children
_task: Callable[[str], object] | None = None


def forked(ids: list[str], task: Callable[[str], Result | None], jobs: int) -> dict[str, Result]:
    """task(id) for each id, `jobs` forked processes at a time, handed out in the order given
    (the biggest first balances best); the results by id. An id whose task failed in its
    process (raised, or gave None) is left out, for the caller to do again in its own process,
    where it fails with the one clear message it always gives."""
    global _task
    if len(ids) < 2 or jobs < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return {}
    _task = task
    found: dict[str, object] = {}
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(ids)),
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            futures = {id: pool.submit(_run, id) for id in ids}
            for id, future in futures.items():
                found[id] = future.result()
    except (BrokenProcessPool, OSError):   # a process killed (out of memory), or none could start
        pass   # what it did not finish is done here
    finally:
        _task = None
    return {id: cast(Result, result) for id, result in found.items() if result is not None}


def _run(id: str) -> object:
    """In a child: the task for one id; None when it failed (the parent does it again)."""
    assert _task is not None
    try:
        return _task(id)
    except BaseException:   # noqa: BLE001 - told by the parent, which does it again
        return None


def drawn_apart(ctx: BuildContext, components: list[Component], jobs: int) -> dict[str, Drawn]:
    """Each component's files (each with the time it took) and the warnings its drawing gave,
    by id, drawn `jobs` at a time; {} when drawing them here is as quick."""
    if sum(component.steps(ctx.decks) for component in components) < MIN_PIECES:
        return {}
    biggest_first = sorted(components, key=lambda component: -component.steps(ctx.decks))
    by_id: dict[str, Component] = {component.id: component for component in components}
    return forked([component.id for component in biggest_first], lambda id: _draw(ctx, by_id[id]), jobs)


def _draw(ctx: BuildContext, component: Component) -> Drawn:
    """In a child: one component drawn, as the build's own process draws it."""
    from pnp.commands.timing import timed
    from pnp.exporters.home_pdf import HomePdf
    from pnp.layout import icon_art
    ctx.tick = lambda steps=1: None   # the parent's progress bar is the parent's to move
    with ctx.project.diagnostics.listening() as heard:
        made = timed(HomePdf(ctx).component, component)
    return made, heard, icon_art.made_here()
