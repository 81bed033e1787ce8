"""The `pnp` command line: parses options and calls a function in pnp.commands."""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pnp import __version__
from pnp.cli_request import PAPER_HELP, Option, RequestCommand, build_request_options, usage_error
from pnp.diagnostics import MAX_SHOWN
from pnp.errors import PnpError, did_you_mean, known
from pnp.inputs import SHARED_FOLDERS
from pnp.request import BuildRequest, UsageProblem

if TYPE_CHECKING:   # loaded by the commands that need them: `pnp --help` stays quick
    from pnp.config.shop import ShopPreset
    from pnp.diagnostics import Report
    from pnp.project import Project

ROOT_HELP = "Folder holding card_data/, layouts/ and fonts/ (default: the current folder)."


def fail(message: str) -> None:
    click.secho(f"error: {message}", fg="red", err=True)
    sys.exit(1)


def open_project(root: Path, report: Report | None = None) -> Project:
    """The project at `root`, telling its warnings to `report` (a pnp.diagnostics.Report)."""
    from pnp.project import Project
    try:
        return Project(root, report)
    except PnpError as exc:
        raise click.UsageError(str(exc)) from None


def chosen_games(project: Project, games: tuple[str, ...], every: bool) -> list[str]:
    """The game ids to work on; an unknown id is a usage error that lists the known ones."""
    available = project.game_ids()
    if every:
        return available
    if not games:
        raise click.UsageError(f"name a game with --game ID or use --all; games: {known(available)}")
    for game in games:
        if game not in available:
            hint = did_you_mean(game, available)
            raise click.BadParameter(f"unknown game '{game}'" + (f"; {hint}" if hint else "")
                                     + f"; known games: {known(available)}", param_hint="--game")
    return list(games)


def chosen_shops(project: Project, request: BuildRequest) -> list[ShopPreset]:
    """The shop presets a request names, loaded: an unknown name is a usage error, a preset
    with a mistake an error naming its line."""
    try:
        return request.shop_presets(project.root)
    except UsageProblem as exc:
        raise usage_error(exc) from None
    except PnpError as exc:
        fail(str(exc))
        raise   # not reached: fail exits


def finite(value: float, name: str) -> float:
    if not math.isfinite(value):
        raise click.BadParameter("give a finite number", param_hint=name)
    return value


def checked_out(root: Path, out: Path) -> Path:
    """The output folder, refused inside the folders a build reads: writing there would feed
    the next build (and make `watch` rebuild forever)."""
    if out.is_symlink() and not out.exists():
        raise click.BadParameter(f"'{out}' is a link to {os.readlink(out)}, which does not exist; make that folder "
                                 f"or give another", param_hint="--out")
    resolved = out.resolve()
    for name in ("card_data",) + SHARED_FOLDERS:
        source = (root / name).resolve()
        if resolved == source or source in resolved.parents:
            raise click.BadParameter(f"'{out}' is inside {name}/, which pnp reads; choose a folder "
                                     f"outside {', '.join(n + '/' for n in ('card_data',) + SHARED_FOLDERS)}",
                                     param_hint="--out")
    from pnp.paths import inside, own_folders
    if inside(resolved, own_folders(), resolved=True):   # its bundled layouts and fonts
        raise click.BadParameter(f"'{out}' is inside pnp's own files ({own_folders()[0]}), which pnp reads; "
                                 f"choose a folder of your own", param_hint="--out")
    return out


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="pnp")
def cli() -> None:
    """pnp turns YAML card and game data into print-and-play PDFs.

    \b
    Example:
      pnp build --game big-ten          # PDFs in output/big-ten/
      pnp validate --all                # check every deck against its rules
      pnp list                          # the games pnp finds
    """


game_option = click.option("--game", "games", multiple=True, metavar="ID",
                           help="A game id (a folder in card_data/). Repeat for several.")
all_option = click.option("--all", "every", is_flag=True, help="Every game in card_data/.")
def paper_option(help_text: str = PAPER_HELP) -> Option:
    return click.option("--paper", type=click.Choice(["letter", "a4"], case_sensitive=False), help=help_text)


def out_option(help_text: str = "Output folder; each game writes into OUT/ID/.") -> Option:
    return click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
                        show_default=True, help=help_text)


since_option = click.option("--since", metavar="REV|RECORD",
                            help="Compare with a git revision of the data (e.g. HEAD~3, a tag) or "
                            "an earlier build record (a copy of OUT/ID/.pnp-build.json) instead "
                            "of the last build in the output folder.")


root_option = click.option("--root", type=click.Path(file_okay=False, path_type=Path),
                           default=Path("."), show_default=False, help=ROOT_HELP)


@cli.command(cls=RequestCommand)
@game_option
@all_option
@out_option()
@root_option
@build_request_options()
@click.option("--refresh", is_flag=True, help="Download card data given by URL again (builds "
              "otherwise use the copy downloaded first).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no list of files; "
              "problems are still reported.")
@click.option("--reprint", is_flag=True, help="Only what to print again since the last build (or --since): "
              "per deck the new, redrawn and extra cards behind a cover that lists what to take out "
              "and add; a board's changed tiles. Files end in -reprint; the full build's files and its "
              "record stay as they are.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes to work in at once (default: the number of cores): the games of --all "
              "(or of several --game), components, the parts of a deck over 320 sheets, and the rules "
              "checked while drawing; the files are the same whatever the number.")
@since_option
def build(games: tuple[str, ...], every: bool, out: Path, root: Path, request: BuildRequest, refresh: bool,
          quiet: bool, reprint: bool, since: str | None, jobs: int | None) -> None:
    """Build print-ready PDFs for one or more games.

    \b
    Example:
      pnp build --game 12th-player --paper a4
      pnp build --all --bleed --duplex short-edge
      pnp build --game 12th-player --lang de --lang he
    """
    out = checked_out(root, out)
    from pnp.commands.build import build_as_asked
    from pnp.diagnostics import Report
    report = Report()
    project = open_project(root, report)
    project.refresh = refresh
    ids = chosen_games(project, games, every)
    if every and "all" in request.langs:   # every game's every translation: a game with none has nothing to build
        from pnp.lang import language_codes
        untranslated = [g for g in ids if not language_codes(root / "card_data" / g)]
        for game_id in untranslated:
            click.echo(f"{game_id}: no translations, nothing to build in other languages "
                       f"(`pnp translate --game {game_id} --lang CODE` starts one)", err=True)
        ids = [g for g in ids if g not in untranslated]
        if not ids:
            fail("no game here has a translation; `pnp translate --game ID --lang CODE` starts one")
    presets = chosen_shops(project, request)
    if since and not reprint:
        raise click.UsageError("--since goes with --reprint (or pnp diff)")
    if reprint:
        if request.langs or request.shops:
            raise click.UsageError("--reprint makes home PDFs in the game's own language; "
                                   "leave out --lang and --shop")
        from pnp.playtest.reprint import reprint_game

        def reprint_one(game_id: str) -> None:
            from pnp.playtest.reprint_names import OUTDATED_REPRINT
            written, name, removed = reprint_game(project, game_id, out, request.paper, request.options_for(), since)
            if not written:
                click.echo(f"{game_id}: nothing to reprint, no card, board, sheet, rule sheet or tuck box changed "
                           f"since {name}; nothing written")
            elif not quiet:
                click.echo(f"{game_id}: reprint since {name}:")
                for item in written:
                    click.echo(f"  {item.path}  {item.pages} page{'s' if item.pages != 1 else ''}: {item.note}")
            for path in removed if not quiet else ():
                click.echo(f"  {path}  removed: {OUTDATED_REPRINT}")

        report.each_game(ids, reprint_one)
        conclude(report)
        return
    jobs = jobs or os.cpu_count() or 1
    ahead = None
    if len(ids) > 1:   # one game draws its components apart instead (not even this imported)
        from pnp.commands.games_apart import games_built_apart
        ahead = games_built_apart(project, ids, out, request, presets, jobs, quiet)
    finished: list[str] = []

    def built(game_id: str) -> None:
        build_as_asked(project, game_id, out, request, presets, quiet, jobs, ahead)
        finished.append(game_id)
    try:
        report.each_game(ids, built)
    except KeyboardInterrupt as exc:
        from pnp.commands.build import InterruptedAfterGames
        from pnp.outputs.folder import InterruptedAfterCommit
        if finished and not isinstance(exc, (InterruptedAfterCommit, InterruptedAfterGames)):
            raise InterruptedAfterGames() from None
        raise
    conclude(report)


@cli.command()
@game_option
@all_option
@root_option
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Games to check at once, each in a process of its own, or for one game its rules "
              "beside its drawing (default: the number of cores); the report is the same whatever "
              "the number.")
@click.option("--all-problems", is_flag=True,
              help=f"Tell every problem found; without it a game's first {MAX_SHOWN} are told and the rest counted.")
def validate(games: tuple[str, ...], every: bool, root: Path, jobs: int | None, all_problems: bool) -> None:
    """Check games' data and deck composition against their rules, and draw every piece and
    translation in memory as a build would (its warnings too), writing no files.

    \b
    Example:
      pnp validate --game jukem
      pnp validate --all
    """
    from pnp.commands.validate import validate_games
    from pnp.diagnostics import Report
    report = Report(shown=None if all_problems else MAX_SHOWN)
    project = open_project(root, report)
    checked = validate_games(project, report, chosen_games(project, games, every), jobs or os.cpu_count() or 1)
    for game_id, (problems, rules) in checked.items():
        report.problems(problems, game_id)
        if not problems:
            click.echo(f"{game_id}: ok ({rules} rules checked)")
    conclude(report)


@cli.command()
@game_option
@all_option
@paper_option("Paper size of the page pictures (default: the game's own).")
@out_option("Output folder; pictures go into OUT/ID/proof/.")
@click.option("--guides", is_flag=True, help="Draw each face with its 3 mm bleed and lines over it: "
              "bleed edge (red), trim (black), safe zone 1/8 in inside the trim (blue, dashed).")
@click.option("--showcase", is_flag=True, help="Also write pictures for a web page: a fanned hand "
              "and a row of each deck's cards with soft shadows (DECK-showcase-fan.png, -row.png).")
@click.option("--width", default=1600, show_default=True, type=click.IntRange(200, 8000),
              help="Width in pixels of the showcase pictures.")
@click.option("--background", default="#2b3440", show_default=True, help="Background colour of the showcase pictures.")
@click.option("--pick", "picks", multiple=True, metavar="CARD",
              help="A card to show (by name; repeat for several). Default: each deck's first five.")
@click.option("--changes", is_flag=True, help="Instead: each card changed since the last build (or --since), "
              "its old face beside the new with what differs boxed in red (OUT/ID/proof/DECK-changes.png).")
@since_option
@click.option("--lang", "langs", multiple=True, metavar="CODE",
              help="Pictures of the game in a language it has a translation for; repeat for several, or "
                   "'all'. Files get the code in their names (cards-faces-de.png).")
@root_option
def proof(games: tuple[str, ...], every: bool, paper: str | None, out: Path, guides: bool, showcase: bool,
          width: int, background: str, picks: tuple[str, ...], changes: bool, since: str | None,
          langs: tuple[str, ...], root: Path) -> None:
    """Write PNG proofs to check on screen: a contact sheet of every card face per deck, and
    each printed page at screen resolution.

    \b
    Example:
      pnp proof --game jukem            # output/jukem/proof/cards-faces.png, ...
      pnp proof --game jukem --guides   # faces with bleed, trim and safe-zone lines
      pnp proof --game jukem --showcase --width 1200 --pick RUN --pick JUKEM
      pnp proof --game 12th-player --lang de  # cards-faces-de.png, rules-letter-de-page-01.png ...
    """
    out = checked_out(root, out)
    from pnp.commands.proof import is_contact_sheet, proof_game
    from pnp.diagnostics import Report
    report = Report()
    project = open_project(root, report)
    if since and not changes:
        raise click.UsageError("--since goes with --changes")
    if langs and changes:
        raise click.UsageError("--lang goes with the pictures of a game, not with --changes")
    if changes:
        from pnp.playtest.changes_proof import changes_proof
        drawn = report.each_game(chosen_games(project, games, every),
                                 lambda game_id: changes_proof(project, game_id, out, since))
        for game_id, (paths, found, name) in drawn.items():
            if not paths:
                click.echo(f"{game_id}: no card looks different since {name}"
                           + (f" ({len(found)} count or added/removed changes: see pnp diff)" if found else ""))
            for path in paths:
                click.echo(f"{game_id}: {path}")
        conclude(report)
        return
    made = report.each_game(chosen_games(project, games, every),
                            lambda game_id: proof_game(project, game_id, out, paper, guides,
                                                       (width, background, picks) if showcase else None, langs))
    for game_id, paths in made.items():
        faces = [p for p in paths if is_contact_sheet(p.name)]
        shows = [p for p in paths if "-showcase-" in p.name]
        click.echo(f"{game_id}: {len(faces)} contact sheet(s)"
                   + (f", {len(shows)} showcase picture(s)" if shows else "")
                   + f" and {len(paths) - len(faces) - len(shows)} page picture(s) in {out / game_id / 'proof'}")
        for path in faces + shows:
            click.echo(f"  {path}")
    conclude(report)


@cli.command()
@game_option
@all_option
@out_option("Output folder whose last build is compared with (OUT/ID/.pnp-build.json).")
@root_option
@since_option
@click.option("--quiet", "-q", is_flag=True, help="Print nothing; the exit status is 0 either way.")
def diff(games: tuple[str, ...], every: bool, out: Path, root: Path, since: str | None, quiet: bool) -> None:
    """List the cards changed since the last build: added, removed, with another count, and
    each changed field with its old and new value and the file and line to find it; then the
    pages of boards, sheets, rule sheets and tuck boxes that look different.

    \b
    Example:
      pnp diff --game jukem
      pnp diff --game jukem --since HEAD~1
    """
    out = checked_out(root, out)
    from pnp.diagnostics import Report
    from pnp.playtest.diff import change_lines, game_changes
    report = Report()
    project = open_project(root, report)
    found = report.each_game(chosen_games(project, games, every),
                             lambda game_id: game_changes(root, game_id, out / game_id, since))
    if not quiet:
        for game_id, changes in found.items():
            for line in change_lines(game_id, changes):
                click.echo(line)
    conclude(report)


@cli.command()
@click.option("--game", "game_id", required=True, metavar="ID", help="The game.")
@click.option("--deck", "deck_id", metavar="ID", help="The deck (default: the game's first).")
@click.option("--hand", type=click.IntRange(1, 60), required=True, help="Cards in a hand.")
@click.option("--where", "wheres", multiple=True, metavar="CONDITION",
              help="Which cards count: field=value, field!=value, or yards>=8 (also <=, >, <); "
              "repeat for cards that meet all.")
@click.option("--at-least", type=click.IntRange(0, 60), metavar="K",
              help="Also give the chance of at least K such cards in a hand.")
@click.option("--sum", "sum_field", metavar="FIELD", help="The distribution of a numeric field's sum over a hand.")
@click.option("--count", "counts", multiple=True, metavar="CARD=N",
              help="Try another count for a card (by its name; RUN (2) for the second RUN), "
              "without editing the data. Repeatable.")
@root_option
def odds(game_id: str, deck_id: str | None, hand: int, wheres: tuple[str, ...], at_least: int | None,
         sum_field: str | None, counts: tuple[str, ...], root: Path) -> None:
    """Exact odds of a hand from a deck's counts: at least K cards that match a condition, and
    a numeric field's sum. No sampling: every figure is a count of hands.

    \b
    Example:
      pnp odds --game jukem --deck cards --hand 5 --where type=pass --at-least 1
      pnp odds --game jukem --hand 5 --sum yards --count "KICK RETURN=2"
    """
    from pnp.playtest.odds import hand_odds, odds_lines, parse_count, parse_where, with_counts
    project = open_project(root)
    chosen_games(project, (game_id,), False)
    try:
        checked = project.check(game_id)
    except PnpError as exc:
        fail(str(exc))
    deck_ids = [c.id for c in checked.game.components if c.is_deck]
    if not deck_ids:
        fail(f"{game_id} has no deck")
    deck_id = deck_id or deck_ids[0]
    if deck_id not in deck_ids:
        raise click.BadParameter(f"no deck '{deck_id}' in {game_id}; its decks: {known(deck_ids)}",
                                 param_hint="--deck")
    try:
        deck = checked.decks[deck_id]
        tried = dict(parse_count(text) for text in counts)
        deck = with_counts(deck, tried)
        conditions = [parse_where(text, deck) for text in wheres]
        if at_least is not None and not conditions:
            raise PnpError("--at-least counts the cards --where names; give a --where too")
        result = hand_odds(deck, hand, conditions, sum_field)
    except PnpError as exc:
        raise click.UsageError(str(exc)) from None
    for line in odds_lines(deck_id, result, conditions, at_least, tried):
        click.echo(line)


@cli.command(cls=RequestCommand)
@game_option
@all_option
@out_option()
@root_option
@build_request_options(langs="Also rebuild these translations (or 'all') on every save.")
@click.option("--interval", type=click.FloatRange(0.1, 10), callback=lambda _c, _p, v: finite(v, "--interval"),
              default=0.5, show_default=True,
              help="Seconds between looks at the files where the system can't report changes "
              "(some network drives); elsewhere each save is seen at once.")
def watch(games: tuple[str, ...], every: bool, out: Path, root: Path, request: BuildRequest,
          interval: float) -> None:
    """Rebuild a game each time you save one of its files, layouts or fonts, with the print
    options a build takes. Stop with Ctrl-C.

    A bad edit prints what is wrong and keeps watching; the last good PDFs stay.

    \b
    Example:
      pnp watch --game jukem
      pnp watch --game jukem --bleed --duplex short-edge
    """
    out = checked_out(root, out)
    from pnp.collecting import collect_while_running
    from pnp.commands.watch import watch_games
    collect_while_running()
    project = open_project(root)
    ids = chosen_games(project, games, every)
    chosen_shops(project, request)   # an unknown shop is a usage error now, not at each save
    try:
        watch_games(root, ids, out, request, interval)
    except KeyboardInterrupt:
        click.echo("stopped watching", err=True)


@cli.command()
@click.option("--game", "game_id", required=True, metavar="ID", help="The game to show.")
@out_option("Output folder for the PDFs the page's print buttons build; each game writes into OUT/ID/.")
@root_option
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port to serve on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can see the page unless you choose "
              "another (e.g. 0.0.0.0 for your network).")
@click.option("--edit", is_flag=True,
              help="Let the page move, resize and retype a card's elements and save them to the layout's "
              "YAML (only this game's layout files in layouts/; every write needs the page's session token).")
def serve(game_id: str, out: Path, root: Path, port: int, host: str, edit: bool) -> None:
    """Show a game in your browser and update it live as you save its files.

    Every card face and back, sheets, boards and rule-sheet pages as pictures; click a card for
    its data. A bad edit shows its error over the page until you fix it. Stop with Ctrl-C.
    With --edit, a card's "Edit layout" button lets you select, drag, resize and retype its
    elements; each change is saved to the layout file that defines it.

    \b
    Example:
      pnp serve --game jukem            # then open http://127.0.0.1:8000/
      pnp serve --game jukem --edit     # and edit the layout on the card
    """
    out = checked_out(root, out)
    from pnp.collecting import collect_while_running
    from pnp.commands.serve import serve as serve_game
    collect_while_running()
    project = open_project(root)
    chosen_games(project, (game_id,), False)
    try:
        serve_game(root, game_id, out, host, port,
                   lambda url: click.echo(f"serving {game_id} at {url}{' with layout editing' if edit else ''} "
                                          f"(Ctrl-C to stop)", err=True), edit=edit)
    except PnpError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        click.echo("stopped serving", err=True)


@cli.command()
@click.option("--paper", type=click.Choice(["letter", "a4"], case_sensitive=False), default="letter", show_default=True,
              help="Paper size: the one you print your cards on.")
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge"]), default="long-edge",
              show_default=True, help="How you will print it: the same as for your cards.")
@out_option("Output folder; the sheet goes into OUT/calibration/.")
@root_option
def calibrate(paper: str, duplex: str, out: Path, root: Path) -> None:
    """Write a two-sided sheet that measures how far your printer shifts the back side.

    Print it double-sided, hold it to the light and read the offset for --back-offset.

    \b
    Example:
      pnp calibrate --paper a4
    """
    out = checked_out(root, out)
    from pnp.commands.calibrate import calibration_sheet
    project = open_project(root)
    try:
        path = calibration_sheet(project, paper, duplex, out)
    except PnpError as exc:
        fail(str(exc))
    click.echo(f"{path}  2 pages: print both on one sheet, double-sided ({duplex.replace('-', ' ')})")


@cli.command()
@click.argument("game_id")
@click.option("--title", help="The game's title (default: made from the id).")
@click.option("--data", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Start from a spreadsheet you have (.csv, .tsv, .xlsx): the deck reads a copy of "
                   "it, with fields typed from its columns and a front showing every column.")
@root_option
def new(game_id: str, title: str | None, data: Path | None, root: Path) -> None:
    """Start a new game: a small deck, its layouts and a rule sheet, ready to build and edit.

    Any folder will do: in an empty one this starts a project (card_data/, layouts/) that draws
    with pnp's own fonts until you add a fonts/ folder.

    \b
    Example:
      pnp new my-game --title "My Game"
      pnp new crew --data crew.xlsx
      pnp build --game my-game
    """
    from pnp.commands.new import new_game
    try:
        paths = new_game(root, game_id, title, data)
    except PnpError as exc:
        fail(str(exc))
    for path in paths:
        click.echo(f"  wrote {path}")
    if data is not None:   # the sheet was copied in: edits to the designer's own file are not read
        from pnp.commands.new_from_sheet import picked_sheet
        click.echo(f"the deck reads {paths[0]}, a copy of {picked_sheet(str(data))[0]}: edit that copy from now on")
    click.echo(f"next: pnp build --game {game_id}" + (f" --root {root}" if str(root) != "." else ""))


@cli.command()
@click.option("--game", "game_id", required=True, metavar="ID", help="The game to translate.")
@click.option("--lang", "code", required=True, metavar="CODE", help="The language: de, he, ar, pt-BR ...")
@root_option
def translate(game_id: str, code: str, root: Path) -> None:
    """Write (or bring up to date) a game's translation file, card_data/ID/lang/CODE.yaml, with
    every string to translate beside its source; fill in the empty texts, then build with --lang.

    \b
    Example:
      pnp translate --game my-game --lang fr
      pnp validate --game my-game            # what is left to translate
      pnp build --game my-game --lang fr --shop tgc
    """
    from pnp.commands.translate import translate_game
    from pnp.diagnostics import Report
    report = Report()
    project = open_project(root, report)
    chosen_games(project, (game_id,), False)
    done = report.each_game([game_id], lambda game: translate_game(project, game, code))
    for path, total, todo, dropped in done.values():
        click.echo(f"wrote {display(path)}: {total} strings, {todo} to translate"
                   + (f"; {dropped} for what the game no longer has, kept as comments at its end" if dropped else ""))
    conclude(report)


def display(path: Path) -> str:
    from pnp.yaml_source import display_path
    return display_path(path)


@cli.command(name="list")
@root_option
def list_games(root: Path) -> None:
    """List the games found, their components and card counts.

    \b
    Example:
      pnp list --root ~/my-games
    """
    from pnp.commands.listing import describe_game
    from pnp.diagnostics import Report
    report = Report()
    project = open_project(root, report)
    def listed(game_id: str) -> None:
        for line in describe_game(project, game_id):
            click.echo(line)
    report.each_game(project.game_ids(), listed)   # a game that cannot be read is told; the others listed
    conclude(report)


def conclude(report: Report) -> None:
    """The warnings gathered on the way, and exit status 1 if any game failed."""
    report.tell_warnings()
    if report.exit_status:
        sys.exit(report.exit_status)


def main() -> None:
    """Run the CLI. A PnpError that escapes a command is still one sentence; anything else is
    a bug in pnp, reported in one line too unless PNP_DEBUG asks for the traceback."""
    try:
        cli(prog_name="pnp", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        from pnp.commands.build import InterruptedAfterGames
        from pnp.outputs.folder import InterruptedAfterCommit
        if isinstance(exc, InterruptedAfterCommit) or isinstance(exc.__cause__, InterruptedAfterCommit):
            click.echo("interrupted as the files were put in place; pnp finished that first, so the "
                       "output folder holds this build's files", err=True)
        elif isinstance(exc, InterruptedAfterGames) or isinstance(exc.__cause__, InterruptedAfterGames):
            click.echo("interrupted; the games listed above were written, and the output folders of "
                       "the others are as they were before this build", err=True)
        else:
            click.echo("interrupted; the output folder is as it was before this build", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except PnpError as exc:
        fail(str(exc))
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if os.environ.get("PNP_DEBUG"):
            raise
        fail(f"pnp hit an internal problem ({exc.__class__.__name__}: {exc}); "
             f"run again with PNP_DEBUG=1 for details and please report it")
