"""`pnp build`: validate, render every component, then write the files."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import PnpError
from pnp.outputs.folder import OutputFolder
from pnp.outputs.pdf import OutputFile
from pnp.project import Project
from pnp.render import BuildContext, PrintOptions, renderer_for
from pnp.render.shop import render_shop
from pnp.rules.validate import validate


class ValidationFailed(PnpError):
    def __init__(self, problems: list[str]):
        super().__init__(f"{len(problems)} rule problem(s); nothing was built")
        self.problems = problems


@dataclass
class Written:
    path: Path
    pages: int
    size: int
    seconds: float


def build_game(project: Project, game_id: str, out: Path, paper: str | None,
               options: PrintOptions, shops: tuple = ()) -> list[Written]:
    """Build every component of one game into out/<game_id>/.

    Everything is rendered in memory first and written only when all of it succeeded, all
    files at once (see OutputFolder), so a failed build leaves the earlier output as it was."""
    game = project.game(game_id)
    decks = project.decks(game)
    problems = validate(game, decks)
    if problems:
        raise ValidationFailed(problems)
    options = PrintOptions(paper=paper or game.spec.paper, duplex=options.duplex,
                           back_offset=options.back_offset, bleed=options.bleed)
    ctx = BuildContext(project, game, decks, options)
    rendered: list[tuple[OutputFile, float]] = []
    for component in game.components:
        started = time.perf_counter()
        files = renderer_for(component.kind)(ctx, component)
        spent = (time.perf_counter() - started) / max(len(files), 1)
        rendered.extend((f, spent) for f in files)
    for preset in shops:
        started = time.perf_counter()
        files = render_shop(ctx, preset)
        spent = (time.perf_counter() - started) / max(len(files), 1)
        rendered.extend((f, spent) for f in files)
    paths = OutputFolder(out / game_id).commit([file for file, _ in rendered])
    return [Written(path, file.pages, len(file.data), spent)
            for path, (file, spent) in zip(paths, rendered)]
