"""The `pnp` command line: parses options and calls a function in pnp.commands."""

from __future__ import annotations

import math
import os
import re
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from pnp.errors import PnpError, did_you_mean, known
from pnp.layout.units import mm
from pnp.inputs import SHARED_FOLDERS

ROOT_HELP = "Folder holding card_data/, layouts/ and fonts/ (default: the current folder)."


def fail(message: str) -> None:
    click.secho(f"error: {message}", fg="red", err=True)
    sys.exit(1)


def open_project(root: Path, report=None):
    """The project at `root`, telling its warnings to `report` (a pnp.diagnostics.Report)."""
    from pnp.project import Project
    try:
        return Project(root, report)
    except PnpError as exc:
        raise click.UsageError(str(exc)) from None


def chosen_games(project, games: tuple[str, ...], every: bool) -> list[str]:
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


def chosen_shops(project, shops: tuple[str, ...]) -> list:
    from pnp.config.shop import load_shop, shop_ids
    presets = []
    for shop in shops:
        if shop not in shop_ids(project.root):
            hint = did_you_mean(shop, shop_ids(project.root))
            raise click.BadParameter(f"unknown shop '{shop}'" + (f"; {hint}" if hint else "")
                                     + f"; shops: {known(shop_ids(project.root))}", param_hint="--shop")
        try:
            presets.append(load_shop(project.root, shop))
        except PnpError as exc:
            fail(str(exc))
    return presets


def finite(value: float, name: str) -> float:
    if not math.isfinite(value):
        raise click.BadParameter("give a finite number", param_hint=name)
    return value


def checked_out(root: Path, out: Path) -> Path:
    """The output folder, refused inside the folders a build reads: writing there would feed
    the next build (and make `watch` rebuild forever)."""
    resolved = out.resolve()
    for name in ("card_data",) + SHARED_FOLDERS:
        source = (root / name).resolve()
        if resolved == source or source in resolved.parents:
            raise click.BadParameter(f"'{out}' is inside {name}/, which pnp reads; choose a folder "
                                     f"outside {', '.join(n + '/' for n in ('card_data',) + SHARED_FOLDERS)}",
                                     param_hint="--out")
    return out


def parse_offset(_ctx, _param, value: str | None) -> tuple[float, float]:
    if not value:
        return (0.0, 0.0)
    try:
        x, y = (float(part) for part in value.split(","))
    except ValueError:
        raise click.BadParameter("give two numbers in mm, e.g. 0.5,-1") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise click.BadParameter("give two finite numbers in mm, e.g. 0.5,-1")
    if abs(x) > 20 or abs(y) > 20:
        raise click.BadParameter("an offset over 20 mm is not a printer's shift")
    return (mm(x), mm(y))


def parse_bleed(_ctx, _param, value: str | None) -> float:
    if value is None:
        return 0.0
    from pnp.config.typed import Where
    from pnp.layout.units import Length
    text = value.strip()
    fraction = re.fullmatch(r"(\d+)\s*/\s*(\d+)\s*([a-z]*)", text.lower())
    if fraction and int(fraction.group(2)):   # 1/8in, as shops write it
        text = f"{int(fraction.group(1)) / int(fraction.group(2))}{fraction.group(3)}"
    text = text if any(c.isalpha() for c in text) else text + "mm"
    try:
        length = Length.parse(text, Where("--bleed", None, ""))
    except PnpError as exc:
        raise click.BadParameter(exc.message) from None
    if length.percent is not None or not 0 <= length.points <= mm(10):
        raise click.BadParameter("bleed is a length from 0 to 10 mm")
    return length.points


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pnp")
def cli():
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
def paper_option(help_text: str = "Paper size (default: the game's own, usually letter)."):
    return click.option("--paper", type=click.Choice(["letter", "a4"]), help=help_text)


def out_option(help_text: str = "Output folder; each game writes into OUT/ID/."):
    return click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
                        show_default=True, help=help_text)


root_option = click.option("--root", type=click.Path(file_okay=False, path_type=Path),
                           default=Path("."), show_default=False, help=ROOT_HELP)


@cli.command()
@game_option
@all_option
@paper_option()
@out_option()
@root_option
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge", "none", "fold"]),
              default="long-edge", show_default=True,
              help="How your printer turns the sheet for the back side; backs are placed so they "
              "line up. 'none': backs on their own pages, to turn over like a book page and glue. "
              "'fold': fronts and backs on one side, to fold and glue (no duplex printer needed).")
@click.option("--back-offset", callback=parse_offset, metavar="X,Y",
              help="Shift the backs by X mm right and Y mm down to make up for a printer's shift.")
@click.option("--bleed", callback=parse_bleed, is_flag=False, flag_value="3mm", default=None,
              metavar="[LENGTH]", help="Extend backgrounds past the cut line (3mm if no length).")
@click.option("--shop", "shops", multiple=True, metavar="NAME",
              help="Also write files for a print shop: tgc, mpc, drivethru, tts (Tabletop Simulator), ttp (Tabletop Playground), or a preset in shops/.")
@click.option("--ink-saver", is_flag=True, help="Print with little ink: no full-bleed backgrounds "
              "or dark fills (files get an -ink-saver suffix).")
@click.option("--draft", is_flag=True, help="Build even when composition rules fail (while balancing): "
              "each rule problem is a warning and every page says DRAFT. Data and type errors "
              "still stop the build.")
@click.option("--refresh", is_flag=True, help="Download card data given by URL again (builds "
              "otherwise use the copy downloaded first).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no list of files; "
              "problems are still reported.")
@click.option("--lang", "langs", multiple=True, metavar="CODE",
              help="Build in a language the game has a translation for (card_data/ID/lang/CODE.yaml); "
              "repeat for several, or 'all'. Files get the code in their names (cards-letter-de.pdf).")
def build(games, every, paper, out, root, duplex, back_offset, bleed, shops, ink_saver, draft, refresh, quiet,
          langs):
    """Build print-ready PDFs for one or more games.

    \b
    Example:
      pnp build --game 12th-player --paper a4
      pnp build --all --bleed --duplex short-edge
      pnp build --game 12th-player --lang de --lang he
    """
    out = checked_out(root, out)
    from pnp.commands.build import build_game
    from pnp.diagnostics import Report
    from pnp.render import PrintOptions
    report = Report()
    project = open_project(root, report)
    project.refresh = refresh
    ids = chosen_games(project, games, every)
    presets = chosen_shops(project, shops)
    if duplex == "fold" and back_offset != (0.0, 0.0):
        fail("--back-offset does not apply to --duplex fold: fronts and backs print on the same "
             "side, so there is no printer shift to make up for")
    options = PrintOptions(duplex=duplex, back_offset=back_offset, bleed=bleed, ink_saver=ink_saver,
                           draft=draft)

    def build_one(game_id):
        languages: list[str | None] = [None]   # the game as written
        if langs:
            from pnp.lang import chosen_languages
            languages = list(chosen_languages(root / "card_data" / game_id, game_id, langs))
        for lang in languages:
            label = f"{game_id} ({lang})" if lang else game_id
            with ProgressBar(label, enabled=not quiet) as bar:
                written = build_game(project, game_id, out, paper, replace(options, lang=lang), presets,
                                     bar.start)
            if not quiet:
                summarise(label, written, out)

    report.each_game(ids, build_one)
    conclude(report)


@cli.command()
@game_option
@all_option
@root_option
def validate(games, every, root):
    """Check games' data and deck composition against their rules, and draw every piece and
    translation in memory as a build would (its warnings too), writing no files.

    \b
    Example:
      pnp validate --game jukem
      pnp validate --all
    """
    from pnp.commands.validate import validate_game
    from pnp.diagnostics import Report
    report = Report()
    project = open_project(root, report)
    checked = report.each_game(chosen_games(project, games, every),
                               lambda game_id: validate_game(project, game_id))
    for game_id, (problems, rules) in checked.items():
        report.problems(problems)
        if not problems:
            click.echo(f"{game_id}: ok ({rules} rules checked)")
    conclude(report)


@cli.command()
@game_option
@all_option
@paper_option("Paper size of the page pictures (default: the game's own).")
@out_option("Output folder; pictures go into OUT/ID/proof/.")
@click.option("--guides", is_flag=True, help="Draw each face with its 3 mm bleed and lines over it: "
              "bleed edge (red), trim (black), safe zone 3 mm inside the trim (blue, dashed).")
@click.option("--showcase", is_flag=True, help="Also write pictures for a web page: a fanned hand "
              "and a row of each deck's cards with soft shadows (DECK-showcase-fan.png, -row.png).")
@click.option("--width", default=1600, show_default=True, type=click.IntRange(200, 8000),
              help="Width in pixels of the showcase pictures.")
@click.option("--background", default="#2b3440", show_default=True, help="Background colour of the showcase pictures.")
@click.option("--pick", "picks", multiple=True, metavar="CARD",
              help="A card to show (by name; repeat for several). Default: each deck's first five.")
@root_option
def proof(games, every, paper, out, guides, showcase, width, background, picks, root):
    """Write PNG proofs to check on screen: a contact sheet of every card face per deck, and
    each printed page at screen resolution.

    \b
    Example:
      pnp proof --game jukem            # output/jukem/proof/cards-faces.png, ...
      pnp proof --game jukem --guides   # faces with bleed, trim and safe-zone lines
      pnp proof --game jukem --showcase --width 1200 --pick RUN --pick JUKEM
    """
    out = checked_out(root, out)
    from pnp.commands.proof import proof_game
    from pnp.diagnostics import Report
    report = Report()
    project = open_project(root, report)
    made = report.each_game(chosen_games(project, games, every),
                            lambda game_id: proof_game(project, game_id, out, paper, guides,
                                                       (width, background, picks) if showcase else None))
    for game_id, paths in made.items():
        faces = [p for p in paths if p.name.endswith("-faces.png")]
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
@paper_option()
@out_option()
@root_option
@click.option("--interval", type=click.FloatRange(0.1, 10), callback=lambda _c, _p, v: finite(v, "--interval"),
              default=0.5, show_default=True,
              help="Seconds between looks at the files where the system can't report changes "
              "(some network drives); elsewhere each save is seen at once.")
@click.option("--lang", "langs", multiple=True, metavar="CODE",
              help="Also rebuild these translations (or 'all') on every save.")
def watch(games, every, paper, out, root, interval, langs):
    """Rebuild a game each time you save one of its files, layouts or fonts. Stop with Ctrl-C.

    A bad edit prints what is wrong and keeps watching; the last good PDFs stay.

    \b
    Example:
      pnp watch --game jukem
    """
    out = checked_out(root, out)
    from pnp.commands.build import build_game
    from pnp.commands.watch import watch as watch_files
    from pnp.diagnostics import Report
    from pnp.project import Project
    from pnp.render import PrintOptions
    ids = chosen_games(open_project(root), games, every)

    def rebuild():
        stamp = time.strftime("%H:%M:%S")
        report = Report()             # each rebuild tells its own problems and warnings
        try:
            project = Project(root, report)   # fresh each time: edits to fonts.yaml and layouts count
        except PnpError as exc:       # card_data/ gone for a moment (a git checkout): wait for it
            report.failed(exc)
            click.echo("watching for changes (Ctrl-C to stop)", err=True)
            return
        for game_id in ids:
            started = time.perf_counter()
            try:
                written = build_game(project, game_id, out, paper, PrintOptions())
                if langs:   # a translation's files follow the game's
                    from pnp.lang import chosen_languages
                    for lang in chosen_languages(root / "card_data" / game_id, game_id, langs):
                        written += build_game(project, game_id, out, paper, PrintOptions(lang=lang))
            except Exception as exc:  # noqa: BLE001 - a watch outlives every bad edit
                report.failed(exc if isinstance(exc, PnpError) else
                              PnpError(f"pnp hit an internal problem ({exc.__class__.__name__}: {exc})"))
                click.echo(f"[{stamp}] {game_id}: not rebuilt; the last good files stay", err=True)
                continue
            state = "up to date" if all(w.reused for w in written) else \
                f"rebuilt {len(written)} files in {time.perf_counter() - started:.2f} s"
            click.echo(f"[{stamp}] {game_id}: {state}")
        report.tell_warnings()
        click.echo("watching for changes (Ctrl-C to stop)", err=True)

    try:
        watch_files(root, ids, rebuild, interval)
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
def serve(game_id, out, root, port, host):
    """Show a game in your browser and update it live as you save its files.

    Every card face and back, sheets, boards and rule-sheet pages as pictures; click a card for
    its data. A bad edit shows its error over the page until you fix it. Stop with Ctrl-C.

    \b
    Example:
      pnp serve --game jukem            # then open http://127.0.0.1:8000/
    """
    out = checked_out(root, out)
    from pnp.commands.serve import serve as serve_game
    project = open_project(root)
    chosen_games(project, (game_id,), False)
    try:
        serve_game(root, game_id, out, host, port,
                   lambda url: click.echo(f"serving {game_id} at {url} (Ctrl-C to stop)", err=True))
    except PnpError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        click.echo("stopped serving", err=True)


@cli.command()
@click.option("--paper", type=click.Choice(["letter", "a4"]), default="letter", show_default=True,
              help="Paper size: the one you print your cards on.")
@click.option("--duplex", type=click.Choice(["long-edge", "short-edge"]), default="long-edge",
              show_default=True, help="How you will print it: the same as for your cards.")
@out_option("Output folder; the sheet goes into OUT/calibration/.")
@root_option
def calibrate(paper, duplex, out, root):
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
def new(game_id, title, data, root):
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
    click.echo(f"next: pnp build --game {game_id}" + (f" --root {root}" if str(root) != "." else ""))


@cli.command()
@click.option("--game", "game_id", required=True, metavar="ID", help="The game to translate.")
@click.option("--lang", "code", required=True, metavar="CODE", help="The language: de, he, ar, pt-BR ...")
@root_option
def translate(game_id, code, root):
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
    for path, total, todo in done.values():
        click.echo(f"wrote {display(path)}: {total} strings, {todo} to translate")
    conclude(report)


def display(path: Path) -> str:
    from pnp.yaml_source import display_path
    return display_path(path)


@cli.command(name="list")
@root_option
def list_games(root):
    """List the games found, their components and card counts.

    \b
    Example:
      pnp list --root ~/my-games
    """
    from pnp.commands.listing import describe_games
    project = open_project(root)
    try:
        for line in describe_games(project):
            click.echo(line)
    except PnpError as exc:
        fail(str(exc))


class ProgressBar:
    """click's progress bar on a terminal, for builds long enough to want one."""

    def __init__(self, label: str, enabled: bool):
        self.label = label
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: Any = None   # click's progress bar, once started

    def start(self, total: int):
        if not self.enabled or total < 200:
            return lambda steps=1: None
        self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
        self.bar.__enter__()
        return self.bar.update

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if self.bar is not None:
            self.bar.__exit__(*exc_info)
        return False


def summarise(game_id: str, written, out: Path) -> None:
    """Every file a build wrote, with its pages, size and the time it took."""
    if written and all(item.reused for item in written):
        click.echo(f"{game_id}: up to date, nothing changed since the last build "
                   f"({len(written)} files in {out / game_id})")
        return
    click.echo(f"{game_id}:")
    for item in written:
        if item.removed:
            click.echo(f"  {item.path}  removed: its component is no longer in game.yaml")
            continue
        pages = f"{item.pages} page{'s' if item.pages != 1 else ''}, " if item.pages else ""
        click.echo(f"  {item.path}  {pages}{item.size / 1024:.0f} KiB, {item.seconds:.2f} s")


def conclude(report) -> None:
    """The warnings gathered on the way, and exit status 1 if any game failed."""
    report.tell_warnings()
    if report.exit_status:
        sys.exit(report.exit_status)


def main():
    """Run the CLI. A PnpError that escapes a command is still one sentence; anything else is
    a bug in pnp, reported in one line too unless PNP_DEBUG asks for the traceback."""
    try:
        cli(prog_name="pnp", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        from pnp.outputs.folder import InterruptedAfterCommit
        if isinstance(exc, InterruptedAfterCommit) or isinstance(exc.__cause__, InterruptedAfterCommit):
            click.echo("interrupted as the files were put in place; pnp finished that first, so the "
                       "output folder holds this build's files", err=True)
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
