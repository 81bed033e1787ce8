"""A build's components drawn in processes of their own (`pnp build --jobs N`, the same bytes
as in one process), by `pnp.processes.forked`.

Each process is a fork of the command, so it starts with everything already loaded, and
draws whole components: a file never depends on what else the process drew (forms and fonts
are per canvas), so the bytes are those of a one-process build. Only a build with at least
two components to draw and enough pieces pays for the processes. Whatever fails in its
process is done again in the command's own, which then fails with the one clear message it
always gives."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.processes import forked

if TYPE_CHECKING:
    from pnp.config.game import Component
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext

# a component's timed files, its warnings and the icon art it drew (pnp.layout.icon_art)
Drawn = tuple[list[tuple["OutputFile", float | None]], list[str], dict[str, object]]

MIN_PIECES = 100   # below this a build takes less time than starting the processes


def drawn_apart(ctx: BuildContext, components: list[Component], jobs: int) -> dict[str, Drawn]:
    """Each component's files (each with the time it took) and the warnings its drawing gave,
    by id, drawn `jobs` at a time; {} when drawing them here is as quick."""
    if sum(component.steps(ctx.decks) for component in components) < MIN_PIECES:
        return {}
    biggest_first = sorted(components, key=lambda component: -component.steps(ctx.decks))
    by_id: dict[str, Component] = {component.id: component for component in components}
    return forked([component.id for component in biggest_first], lambda id: _draw(ctx, by_id[id]), jobs, ctx.stop)


def _draw(ctx: BuildContext, component: Component) -> Drawn:
    """In a child: one component drawn, as the build's own process draws it."""
    from pnp.commands.timing import timed
    from pnp.exporters.home_pdf import HomePdf
    from pnp.layout import icon_art
    ctx.tick = lambda steps=1: None   # the parent's progress bar is the parent's to move
    with ctx.project.diagnostics.listening() as heard:
        made = timed(HomePdf(ctx).component, component)
    return made, heard, icon_art.made_here()
