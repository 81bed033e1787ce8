"""`pnp validate`: load a game's data and check it against its rules, without rendering."""

from __future__ import annotations

from pnp.layout.template import Size, compile_layout
from pnp.project import Project
from pnp.render import BuildContext, PrintOptions
from pnp.contents.validate import validate

ANY_SIZE = Size(500.0, 700.0)


def validate_game(project: Project, game_id: str) -> tuple[list[str], int]:
    """(rule problems, number of rules checked). Load errors raise PnpError.

    Layouts are compiled too, so a `{field}` the cards lack is caught here and not first
    at build time."""
    game = project.game(game_id)
    decks = project.decks(game)
    ctx = BuildContext(project, game, decks, PrintOptions())
    for component in game.components:
        for key in ("front", "back", "layout"):
            name = getattr(component, key, None)
            if name:
                size = getattr(component, "size", None)
                layout = _compile_quietly(ctx, component, key, name, size)
                check_card_text(layout, decks.get(component.id))
    return validate(game, decks), len(game.contents)


def check_card_text(layout, deck) -> None:
    """Every card's text through the layout's text elements: markup that can't be drawn is
    found here, not first by build."""
    if deck is None:
        return
    checks = [drawer.check_markup for drawer in layout.drawers if hasattr(drawer, "check_markup")]
    for card in deck.cards:
        for check in checks:
            check(card)


def _compile_quietly(ctx, component, key: str, name: str, size):
    # checking fields does not depend on the size, so any size will do for a sheet
    return compile_layout(ctx.project.root, name, component._where.key({}, key),
                   ctx.frame_args(ctx.decks.get(component.id), component=component), size,
                   default_size=ANY_SIZE)
