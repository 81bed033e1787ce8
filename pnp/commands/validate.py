"""`pnp validate`: load a game's data, check it against its rules, and draw every piece in
memory exactly as `pnp build` would, writing nothing.

Drawing is what makes the promise hold: whatever `build` would stop on (a field the cards
lack, markup that can't be drawn, an image that won't decode, a piece larger than the paper,
a rule-sheet table naming an unknown column) stops `validate` too, and the warnings a build
would give (text that doesn't fit, missing glyphs) are given here. Each translation in the
game's lang/ folder is drawn too, and what it lacks is reported (pnp.lang.check)."""

from __future__ import annotations

from dataclasses import replace

from pnp.collecting import collector_paused, free_what_the_pause_left
from pnp.diagnostics import Report
from pnp.errors import ManyProblems, PnpError
from pnp.project import Project
from pnp.render import BuildContext
from pnp.request import BuildRequest


Validated = tuple[list[str], int]   # a game's rule and translation problems, and its rules checked


def validate_games(project: Project, report: Report, ids: list[str], jobs: int = 1) -> dict[str, Validated]:
    """`report.each_game` over validate_game. With `jobs` above one, the games are checked that
    many at a time in forked processes (pnp.commands.games_apart: each game's warnings told
    again here, in the order of `ids`), so the report is the one a single process gives; a game
    that fails in its process is checked again here, which tells its one clear error."""
    from pnp.commands.games_apart import games_apart
    ahead = games_apart(project, ids, lambda game_id: heard_validating(project, game_id), jobs)

    def validated(game_id: str) -> Validated:
        if game_id not in ahead:
            return validate_game(project, game_id, jobs)
        result, heard = ahead[game_id]
        for warning in heard:
            project.diagnostics.warn(warning)
        return result
    return report.each_game(ids, validated)


def heard_validating(project: Project, game_id: str) -> tuple[Validated, list[str]]:
    """In a child: a game validated, with every warning its validation gave."""
    with project.diagnostics.listening() as heard:
        return validate_game(project, game_id), heard


@collector_paused()
def validate_game(project: Project, game_id: str, jobs: int = 1) -> Validated:
    """(rule and translation problems, number of rules checked). Load and drawing errors raise
    PnpError. With `jobs` above one, the rules are checked in a forked process while this one
    draws."""
    from pnp.outputs.pdf import CHECKING
    from pnp.processes import Ahead
    game, decks = project.loaded(game_id)
    problems = Ahead(lambda: project.problems(game, decks), jobs)
    ctx = BuildContext(project, game, decks, BuildRequest().options_for(game.spec.paper))
    files = []
    checking = CHECKING.set(True)   # every page drawn, no file made of them
    try:
        for component in game.components:
            files += [replace(file, component=component.id) for file in component.render(ctx)]
        from pnp.commands.build import distinct_names
        distinct_names(game, files, game_id, ctx.options)   # as a build would stop on them
        return problems.result() + each_translation_drawn(ctx), len(game.contents)
    except PnpError as exc:
        found = problems.result()
        if not found or isinstance(exc, ManyProblems):
            raise
        # the drawing stopped: the rule problems are told too, first (a card's wrong value is
        # often both)
        raise ManyProblems(found + [str(exc)], f"{len(found) + 1} problems; drawing stopped at the last") from None
    finally:
        CHECKING.reset(checking)
        problems.cancel()   # taken already, or no longer wanted


def each_translation_drawn(ctx: BuildContext) -> list[str]:
    """Each translation the game has, drawn in memory like a translated build; what it lacks
    or has let fall behind is a problem. Bad input in a lang file is one problem too, told
    after the game's own (a card renamed in the data is a rule problem first)."""
    from pnp.lang import language_codes
    codes = language_codes(ctx.game.folder)
    if not codes:
        return []
    from pnp.errors import PnpError
    from pnp.lang.apply import translated_context
    from pnp.lang.file import load_translation
    from pnp.lang.check import translation_problems
    problems = []
    for code in codes:
        try:
            translation = load_translation(ctx.game, ctx.decks, code)
            translated = translated_context(replace(ctx, options=replace(ctx.options, lang=code)), translation)
        except PnpError as exc:
            problems.append(str(exc))
            continue
        draw_in_language(translated)
        problems += translation_problems(ctx.game, ctx.decks, translation)
        free_what_the_pause_left()   # this language's pages, before the next is drawn
    return problems


def draw_in_language(ctx: BuildContext) -> None:
    """Every piece of a translated build drawn in memory, its print-all cover too, so every
    word it asks the translation for is asked (pnp's own words included)."""
    from pnp.impose import PAPER_SIZES
    from pnp.exporters.print_all import HOW_TO_PRINT, cover, home_part
    assert ctx.translation is not None   # a translated build's context
    parts = []
    for component in ctx.game.components:
        parts.append(home_part(ctx.options, component, component.render(ctx)))
    cover(ctx.game.title, PAPER_SIZES[ctx.options.paper], [part for part in parts if part is not None],
          ctx.project.fonts, ctx.translation.label, ctx.options.duplex)
    # the cover's words for every way to print, not only the one drawn: a fold build's cover
    # printed in English what no translation had been asked for
    for duplex, how in HOW_TO_PRINT.items():
        ctx.translation.label(how)
        for component in ctx.game.components:
            ctx.translation.label(component.cutting(duplex))
