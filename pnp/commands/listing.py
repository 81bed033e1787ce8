"""`pnp list`: the games under a root, their components and card counts."""

from __future__ import annotations

from pnp.project import Project


def describe_games(project: Project, game_ids: list[str] | None = None) -> list[str]:
    """The lines `pnp list` prints for the games (all of them by default)."""
    lines = []
    for game_id in project.game_ids() if game_ids is None else game_ids:
        lines += describe_game(project, game_id)
    return lines


def describe_game(project: Project, game_id: str) -> list[str]:
    """One game's lines: its title, players and paper, then each component."""
    game = project.game(game_id)
    decks = project.decks(game)
    project.check_references(game, decks)   # what build and validate would refuse, list refuses
    lines = [f"{game_id}: {game.title} ({game.spec.players} players, {game.spec.paper})"]
    for component in game.components:
        deck = decks.get(component.id)
        count = f", {deck.total} pieces" if deck is not None and component.is_deck else ""
        lines.append(f"  {component.id:<16} {component.kind}{count}"
                     + (f"  {component.title}" if component.title else ""))
    return lines
