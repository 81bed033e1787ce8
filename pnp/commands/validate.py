"""`pnp validate`: load a game's data, check it against its rules, and draw every piece in
memory exactly as `pnp build` would, writing nothing.

Drawing is what makes the promise hold: whatever `build` would stop on (a field the cards
lack, markup that can't be drawn, an image that won't decode, a piece larger than the paper,
a rule-sheet table naming an unknown column) stops `validate` too, and the warnings a build
would give (text that doesn't fit, missing glyphs) are given here."""

from __future__ import annotations

from dataclasses import replace

from pnp.project import Project
from pnp.render import BuildContext, PrintOptions


def validate_game(project: Project, game_id: str) -> tuple[list[str], int]:
    """(rule problems, number of rules checked). Load and drawing errors raise PnpError."""
    checked = project.check(game_id)
    game = checked.game
    ctx = BuildContext(project, game, checked.decks, replace(PrintOptions(), paper=game.spec.paper))
    for component in game.components:
        component.render(ctx)
    return checked.problems, len(game.contents)
