"""`pnp list`: the games under a root, their components and card counts."""

from __future__ import annotations

from pnp.project import Project


def describe_games(project: Project) -> list[str]:
    lines = []
    for game_id in project.game_ids():
        game = project.game(game_id)
        decks = project.decks(game)
        project.check_references(game, decks)   # what build and validate would refuse, list refuses
        lines.append(f"{game_id}: {game.title} ({game.spec.players} players, {game.spec.paper})")
        for component in game.components:
            deck = decks.get(component.id)
            count = f", {deck.total} pieces" if deck is not None and component.is_deck else ""
            lines.append(f"  {component.id:<16} {component.kind}{count}"
                         + (f"  {component.title}" if component.title else ""))
    return lines
