"""`pnp build`: validate, render every component, then write the files."""

from __future__ import annotations

import copy

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.cache import fingerprint, inputs_read, salt
from pnp.checkpoints import reached
from pnp.collecting import collector_paused
from pnp.commands.timing import timed
from pnp.outputs.folder import Json, OutputFolder
from pnp.playtest.reprint_names import OUTDATED_REPRINT, is_reprint
from pnp.errors import PnpError, ValidationFailed
from pnp.inputs import BuildInputs
from pnp.request import BuildRequest

if TYPE_CHECKING:   # the drawing code is imported only once a build has something to draw
    from pnp.commands.games_apart import Built
    from pnp.commands.parallel import Drawn
    from pnp.commands.progress import ProgressBar
    from pnp.config.game import Component, Game
    from pnp.config.shop import ShopPreset
    from pnp.diagnostics import Diagnostics
    from pnp.exporters.home_pdf import HomePdf
    from pnp.outputs.pdf import OutputFile
    from pnp.outputs.reuse import Reuse
    from pnp.processes import Ahead
    from pnp.project import Project
    from pnp.options import PrintOptions
    from pnp.render import BuildContext


class InterruptedAfterGames(KeyboardInterrupt):
    """Ctrl-C came in a build of several games once some were written: those were listed, and
    the others' output folders are as they were."""


@dataclass
class Written:
    path: Path
    pages: int
    size: int
    seconds: float
    reused: bool = False   # the file was already up to date
    removed: str = ""      # why a file an earlier build wrote was removed: its component is gone, or
                           # it was a reprint this build makes out of date


@dataclass
class Prepared:
    """One game's build drawn and checked, its files waiting to be written (`written`): what
    OutputFolder.commit takes. A build with nothing to draw (up to date) holds its files as
    they are (`kept`). A process that builds games apart hands this back, so every file is
    written by the command's own process, where a Ctrl-C waits for the renames."""
    folder: OutputFolder
    kept: list[Written] | None = None
    rendered: list[tuple[OutputFile, float | None]] | None = None
    unchanged: str | None = None
    warnings: list[str] | None = None
    components: set[str] | None = None
    playtest: Json | None = None
    parts: Json | None = None
    icons: Json | None = None
    superseded: Callable[[str], bool] | None = None
    told: list[str] = field(default_factory=list)   # every warning its drawing gave, to tell again

    def written(self) -> list[Written]:
        """The files written (or kept, up to date), each with what it took. Written once: the
        files' bytes are let go, and a second call tells the same."""
        if self.kept is not None:
            return self.kept
        assert self.rendered is not None
        rendered, folder = self.rendered, self.folder
        paths = folder.commit([file for file, _ in rendered], self.unchanged, self.warnings or [],
                              components=self.components, playtest=self.playtest,
                              parts=self.parts, icons=self.icons, superseded=self.superseded)
        self.kept = [Written(path, file.pages, len(file.data), spent or 0.0, reused=spent is None)
                     for path, (file, spent) in zip(paths, rendered)] + \
            [Written(path, 0, 0, 0.0, removed=OUTDATED_REPRINT if is_reprint(path.name) else "its component is no longer in game.yaml")
             for path in folder.removed]
        self.rendered = None
        return self.kept


def build_game(project: Project, game_id: str, out: Path, paper: str | None,
               options: PrintOptions, shops: Sequence[ShopPreset] = (),
               progress: Callable[[int], Callable[..., None]] | None = None,
               keep_printed: bool = False, jobs: int = 1) -> list[Written]:
    """Build every component of one game into out/<game_id>/ (prepared_game), and write the
    files."""
    return prepared_game(project, game_id, out, paper, options, shops, progress, keep_printed, jobs).written()


@collector_paused()
def prepared_game(project: Project, game_id: str, out: Path, paper: str | None,
                  options: PrintOptions, shops: Sequence[ShopPreset] = (),
                  progress: Callable[[int], Callable[..., None]] | None = None,
                  keep_printed: bool = False, jobs: int = 1) -> Prepared:
    """One game's build, drawn and ready to write (see _prepared_game). Its record keeps the
    warnings this game's build gave, as given: not another game's of the same run, nor the
    name of the game a run of several tells before each."""
    with project.diagnostics.listening() as heard:
        prepared = _prepared_game(project, game_id, out, paper, options, shops, progress, keep_printed, jobs, heard)
    prepared.told = heard
    return prepared


def _prepared_game(project: Project, game_id: str, out: Path, paper: str | None,
                    options: PrintOptions, shops: Sequence[ShopPreset],
                    progress: Callable[[int], Callable[..., None]] | None,
                    keep_printed: bool, jobs: int, heard: list[str]) -> Prepared:
    """Every component of one game drawn for out/<game_id>/, to be written by Prepared.written.

    Everything is rendered in memory first and written only when all of it succeeded, all
    files at once (see OutputFolder), so a failed build leaves the earlier output as it was.
    When nothing the build reads has changed since the last build there, nothing is redone.
    `progress(total)` may return a function to call with each step done. With `keep_printed`
    (pnp watch), the record keeps the cards of the last build that had none (a `pnp build`),
    so `pnp diff` and `--reprint` still compare with what was printed. With `jobs` above one,
    components are drawn in that many processes at once (pnp.commands.parallel), the same
    bytes as in one."""
    folder = OutputFolder(out / game_id, language=options.lang)
    folder.check_place(project.root, out)
    folder.recover()   # a commit a kill cut short is finished or undone before anything is judged
    project.fetch_data(game_id)   # data given by URL: its local copy counts in what changed
    asked = (project.root, game_id, options, paper, tuple(shops))   # before options get the paper
    inputs, read = inputs_read(*asked)
    previous = folder.up_to_date(inputs)
    if previous is not None and not keep_printed and not options.lang and stands_in(folder):
        previous = None   # the files are a watch's: build to record what this build's cards are
    if previous is not None:
        for warning in folder.last_warnings():   # still true: the input is the same
            project.diagnostics.warn(warning)
        return Prepared(folder, kept=[Written(folder.folder / f["name"], f["pages"], f["size"], 0.0, reused=True)
                                      for f in previous])
    from pnp.outputs.pdf import DRAFT
    from pnp.outputs.reuse import Reuse, component_keys
    from pnp.processes import Ahead
    from pnp.render import BuildContext
    game, decks = project.loaded(game_id)
    # the rules are checked in another process while this one draws; a draft is drawn whatever
    # they find, each problem told first as a warning
    problems = Ahead(lambda: project.problems(game, decks), 1 if options.draft else jobs)
    if options.draft:
        for problem in problems.result():
            project.diagnostics.warn(f"draft: {problem}")
    with rules_first(problems, project.diagnostics, options.draft) as stop:
        # what each component reads, keyed from the same reading as `inputs` (shops draw no home file)
        drawn_for = BuildInputs(project.root, (game_id,), options, paper).digest(salt(), read=[])
        last_record = folder.read_record()
        reuse = Reuse(folder, component_keys(game, decks, drawn_for, read), last_record)
        options = replace(options, paper=paper or game.spec.paper)
        ctx = BuildContext(project, game, decks, options, jobs=jobs, stop=stop)
        if options.lang:   # only a translated build loads the translation machinery
            from pnp.lang.apply import in_language
            ctx = in_language(ctx, options.lang)
        steps = sum(component.steps(decks) for component in game.components)
        if progress is not None:   # shown once the rules let the build go on, as when checked first
            ctx.tick = once_ready(lambda: progress(steps * (1 + len(shops))),
                                  lambda: problems.done() and (options.draft or not problems.result()))
        from pnp.layout import icon_art
        icon_art.keep_from(salt(), (last_record or {}).get("icons"))   # drawn by the last build
        marked = DRAFT.set(options.draft)
        try:
            from pnp.playtest.record import recorded_decks
            recorded = recorded_decks(last_record)   # a reused deck's cards, as the last build recorded them
            rendered = render_all(ctx, game, game_id, options, shops, steps, reuse, jobs, recorded)
            icons = icon_art.recorded({digest for _, _, digest in read})
        finally:
            DRAFT.reset(marked)
            icon_art.stop()
    if ctx.translation is not None:   # built with the source text where a translation lacks it
        from pnp.lang.check import translation_problems
        for problem in translation_problems(game, decks, ctx.translation):
            project.diagnostics.warn(f"{options.lang}: {problem}")
    # a file saved during the build: never count this output up to date
    unchanged = inputs if fingerprint(*asked) == inputs else None
    playtest = None
    superseded = None
    if not options.lang:   # what pnp diff and build --reprint compare with next time
        from pnp.playtest.record import RECORD_KEY, game_record
        superseded = None if keep_printed else is_reprint   # a new printed state: earlier reprints are out of date
        last = folder.read_record() if keep_printed else None
        playtest = last.get(RECORD_KEY) if last is not None else None
        if isinstance(playtest, dict):
            playtest = {**playtest, "kept": True}   # from a build before the watch: stands in
        else:
            playtest = game_record(project.root, game, decks, ctx.compiled, recorded)
    return Prepared(folder, rendered=rendered, unchanged=unchanged, warnings=list(dict.fromkeys(heard)),
                    components=output_components(game), playtest=playtest,
                    parts=reuse.parts if unchanged is not None else None,
                    icons=icons if unchanged is not None else None, superseded=superseded)


def stands_in(folder: OutputFolder) -> bool:
    """Whether the record's cards are an earlier build's, kept by pnp watch."""
    record = folder.read_record() or {}
    playtest = record.get("playtest")
    return isinstance(playtest, dict) and bool(playtest.get("kept"))


def output_components(game: Game) -> set[str]:
    """What a file in the output folder may be made for: a component of the game, in the
    game's language or one it has a translation for. A file made for anything else (a
    component or a translation since removed) goes."""
    from pnp.lang import language_codes
    ids = {component.id for component in game.components}
    return ids | {made_for(id, code) for id in ids for code in language_codes(game.folder)}


@contextmanager
def rules_first(problems: Ahead[list[str]], diagnostics: Diagnostics, draft: bool) -> Iterator[Callable[[], None]]:
    """The game's rule problems refuse the build, worked out while the block draws: told
    first, before any error met on the way and with what drawing said taken back, as when they
    were checked before anything was drawn. The block is given a `stop` to call between
    pieces of work, which refuses the build as soon as they are in; known at once (checked
    here, no process alongside), they refuse it before anything is drawn. A draft is built
    whatever they say."""
    told = len(diagnostics.warnings)

    def refused() -> None:
        if not draft and (found := problems.result()):
            diagnostics.take_back(told)
            raise ValidationFailed(found)

    def stop() -> None:
        if problems.done():
            refused()
    stop()
    try:
        yield stop
    except PnpError:
        refused()
        raise
    except BaseException:   # interrupted, or pnp's own bug: the rules' process is not left behind
        problems.cancel()
        raise
    refused()


def once_ready(start: Callable[[], Callable[..., None]], ready: Callable[[], bool]) -> Callable[..., None]:
    """A progress tick that starts the progress (`start`) only once `ready()`, and then moves
    it on by every step done before."""
    done: list[int] = [0]
    moved: list[Callable[..., None]] = []

    def tick(steps: int = 1) -> None:
        if moved:
            moved[0](steps)
            return
        done[0] += steps
        if ready():
            moved.append(start())
            moved[0](done[0])
    return tick


def made_for(component_id: str, lang: str | None) -> str:
    """What the output manifest says a file was made for: its component, `id@code` in a
    translated build."""
    return f"{component_id}@{lang}" if lang else component_id


def render_all(ctx: BuildContext, game: Game, game_id: str, options: PrintOptions, shops: Sequence[ShopPreset],
               steps: int, reuse: Reuse, jobs: int = 1,
               recorded: Mapping[str, object] = {}) -> list[tuple[OutputFile, float | None]]:
    """Every file of a build, in memory, each with the time it took (None: taken from the last
    build, `reuse`; a deck `recorded` in the last build record is then not compiled either):
    the home PDF's (pnp.exporters.home_pdf), each component drawn here, in another process
    or by the last build, then the print-all file, then each shop's. The pieces are drawn from
    `ctx.game` (translated in a translated build)."""
    from pnp.exporters.home_pdf import HomePdf
    home = HomePdf(ctx)
    rendered: list[tuple[OutputFile, float | None]] = []
    drawn = {component.id: component for component in ctx.game.components}
    ahead = {}   # components drawn in other processes, by id
    to_draw = [drawn[c.id] for c in game.components if c.id not in reuse.reusable()]
    if jobs > 1 and len(to_draw) > 1:   # one alone is drawn here (not even the process pool imported)
        from pnp.commands.parallel import drawn_apart
        ahead = drawn_apart(ctx, to_draw, jobs)
    for component in game.components:
        ctx.stop()
        files = reused(ctx, drawn[component.id], reuse, component.id in recorded) or \
            drawn_now(ctx, home, drawn[component.id], reuse, ahead.get(component.id))
        rendered += files
        home.add(drawn[component.id], [file for file, _ in files])
        if not component.is_deck:   # a deck ticks card by card as it draws
            ctx.tick(1)
        reached("rendering")   # for tests: one component drawn, the rest to come
    distinct_names(game, [file for file, _ in rendered], game_id, options)   # before print-all and shops
    rendered += timed(home.finish)
    for preset in shops:
        from pnp.exporters import render_shop
        if options.lang:   # a translation's shop files: a folder of their own, tgc-de/
            preset = copy.copy(preset)
            preset.id = f"{preset.id}-{options.lang}"
        rendered += [(replace(file, component=made_for(file.component, options.lang)) if file.component else file,
                      spent) for file, spent in timed(render_shop, ctx, preset)]
        ctx.tick(steps)
    distinct_names(game, [file for file, _ in rendered], game_id, options)
    return rendered


def reused(ctx: BuildContext, component: Component, reuse: Reuse,
           recorded: bool = False) -> list[tuple[OutputFile, float | None]]:
    """A component's files as the last build wrote them, when it read the same (its warnings
    told again); [] when it must be drawn. A deck whose cards the last record holds (`recorded`)
    needs no layouts compiled for the record."""
    kept = reuse.kept(component.id)
    if kept is None:
        return []
    taken_over(ctx, component, kept.warnings, compile=not recorded)
    return [(file, None) for file in kept.files]


def taken_over(ctx: BuildContext, component: Component, warnings: list[str], compile: bool = True) -> None:
    """What drawing a component here would have done besides its files, for one drawn
    elsewhere (by the last build, or another process): its warnings told, its progress, and
    (with `compile`) a deck's layouts compiled, which the build record's cards come from."""
    for warning in warnings:
        ctx.project.diagnostics.warn(warning)
    from pnp.kinds.deck import DeckComponent, compile_deck_layouts   # loaded with the game's kinds
    if isinstance(component, DeckComponent):
        if compile and not ctx.options.lang:   # a translated build keeps no cards in its record
            ctx.compiled[component.id] = compile_deck_layouts(ctx, component, ctx.options.bleed)
        ctx.tick(component.steps(ctx.decks))


def drawn_now(ctx: BuildContext, home: HomePdf, component: Component, reuse: Reuse,
              apart: Drawn | None = None) -> list[tuple[OutputFile, float | None]]:
    """A component drawn by the home PDF (or `apart`: as another process drew it, its files and
    warnings), its files and warnings noted for the next build to reuse."""
    if apart is not None:
        made, heard, icons = apart
        taken_over(ctx, component, heard)
        from pnp.layout import icon_art
        icon_art.take(icons)   # what it drew of the icons, for the next build
    else:
        with ctx.project.diagnostics.listening() as heard:
            made = timed(home.component, component)
    files = [(replace(file, component=made_for(component.id, ctx.options.lang)), spent) for file, spent in made]
    reuse.drawn(component.id, [file for file, _ in files], heard)
    return files


def distinct_names(game: Game, files: list[OutputFile], game_id: str, options: PrintOptions) -> None:
    """No two files of a build share a name (one would silently replace the other): a
    component whose files would take the name of another's, or of the print-all file, is an
    error at its id. The print-all name is reserved even before it is made."""
    from pnp.exporters.print_all import print_all_name
    by_id: dict[str, Component] = {component.id: component for component in game.components}
    reserved = print_all_name(game_id, f"{options.paper}{options.variant}")
    seen: dict[str, Component | None] = {reserved: None}
    for file in files:
        component = by_id.get((file.component or "").split("@")[0])
        if file.name not in seen or (file.name == reserved and component is None):
            seen[file.name] = component
            continue
        first = seen[file.name]
        culprit = component if component is not None else first
        if culprit is None:
            raise PnpError(f"two files of this build are named {file.name}")
        other = first if culprit is component else component
        what = ("the print-all file" if other is None else "itself, twice" if other is culprit
                else f"component '{other.id}'")
        raise culprit.where_is("id").error(
            f"component '{culprit.id}' would write {file.name}, a name {what} writes too; "
            f"give it another id")


def languages_built(project: Project, game_id: str, out: Path, request: BuildRequest, shops: Sequence[ShopPreset] = (),
                    progress: Callable[[str], ProgressBar] | None = None, as_written: bool = False,
                    keep_printed: bool = False, jobs: int = 1) -> Iterator[tuple[str, list[Written]]]:
    """One game built as `request` asks, once per language it names (the game as written when
    it names none; with `as_written`, that too), each as (label, files written).
    `progress(label)` gives the bar a build reports its steps to; `keep_printed` is build_game's
    (pnp watch)."""
    for label, prepared in languages_prepared(project, game_id, out, request, shops, progress, as_written,
                                              keep_printed, jobs):
        yield label, prepared.written()


def languages_prepared(project: Project, game_id: str, out: Path, request: BuildRequest,
                       shops: Sequence[ShopPreset] = (), progress: Callable[[str], ProgressBar] | None = None,
                       as_written: bool = False, keep_printed: bool = False,
                       jobs: int = 1) -> Iterator[tuple[str, Prepared]]:
    """languages_built's builds, each drawn and ready to write."""
    languages = request.languages(project.root / "card_data" / game_id, game_id)
    if as_written and None not in languages:
        languages.insert(0, None)
    for lang in languages:
        label = f"{game_id} ({lang})" if lang else game_id
        bar = progress(label) if progress is not None else None
        with bar if bar is not None else nullcontext():
            prepared = prepared_game(project, game_id, out, request.paper, request.options_for(lang=lang), shops,
                                     bar.start if bar is not None else None, keep_printed=keep_printed, jobs=jobs)
        yield label, prepared


def told_and_written(project: Project, label: str, prepared: Prepared) -> tuple[str, list[Written]]:
    """A language drawn in another process, as one process tells it: the warnings its drawing
    gave, then its files written (a refusal stops the game there, its later languages untold)."""
    for warning in prepared.told:
        project.diagnostics.warn(warning)
    return label, prepared.written()


def build_as_asked(project: Project, game_id: str, out: Path, request: BuildRequest, shops: Sequence[ShopPreset] = (),
                   quiet: bool = False, jobs: int = 1, ahead: dict[str, Built] | None = None) -> None:
    """`pnp build` of one game: each language with its progress bar, then the files it wrote.
    A game `ahead` holds was drawn in another process (pnp.commands.games_apart): its warnings
    are told, and its files written here."""
    from pnp.commands.progress import ProgressBar, summarise
    built: Iterable[tuple[str, list[Written]]]
    if ahead is not None and game_id in ahead:
        drawn = ahead.pop(game_id)   # once: a game named twice is up to date the second time
        built = (told_and_written(project, label, each) for label, each in drawn)
    else:
        built = languages_built(project, game_id, out, request, shops,
                                lambda label: ProgressBar(label, enabled=not quiet), jobs=jobs)
    for label, written in built:
        if not quiet:
            summarise(label, written, out / game_id)
