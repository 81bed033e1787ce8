"""`pnp build --reprint`: only what to print again since the deck on the table was printed.

Per deck, one PDF: a cover page that lists what to take out of the printed deck (removed
cards, lower counts, the old copies of redrawn cards) and what this print adds, then the
cards to print again (new cards, redrawn faces or backs, extra copies) drawn by the deck's own
renderer from a deck narrowed to them, so paper, duplex, bleed, fold, offset and sheet layout
are exactly the full build's. For boards, sheets, rule sheets and tuck boxes, the pages whose
pictures changed (pnp.playtest.pages_changed)."""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.config.deck import Deck
from pnp.units import mm
from pnp.errors import display_path
from pnp.outputs.folder import OutputFolder
from pnp.outputs.joining import joined
from pnp.outputs.pdf import DRAFT, OutputFile, finish, new_canvas
from pnp.playtest.diff import CardChange, comparable, compare, earlier_state, game_state, on_paper
from pnp.playtest.earlier import earlier_game
from pnp.playtest.pages_changed import PAGED_KINDS, changed_pages
from pnp.playtest.record import card_keys
from pnp.playtest.reprint_names import is_reprint, reprint_name
from pnp.project import Project
from pnp.options import PrintOptions
from pnp.render import BuildContext

if TYPE_CHECKING:
    from pnp.config.game import Component



@dataclass
class Reprinted:
    path: Path
    pages: int
    size: int
    note: str   # what the file holds, for the summary


def paper_of(ctx: BuildContext) -> tuple[float, float]:
    from pnp.impose import PAPER_SIZES
    return PAPER_SIZES[ctx.options.paper]


def reprint_game(project: Project, game_id: str, out: Path, paper: str | None, options: PrintOptions,
                 since: str | None) -> tuple[list[Reprinted], str, list[Path]]:
    """Write the reprint files of one game; (what was written, the earlier state's name).
    Nothing is written when nothing changed."""
    folder = OutputFolder(out / game_id)
    folder.check_place(project.root, out)   # as pnp build: OUT/ID may be a link into card_data/
    new = game_state(project.root, game_id, diagnostics=project.diagnostics)
    checked = project.check(game_id)
    if not options.draft:
        checked.require_valid()
    options = replace(options, paper=paper or checked.game.spec.paper)
    ctx = BuildContext(project, checked.game, checked.decks, options)
    files: list[tuple[OutputFile, str]] = []
    marked = DRAFT.set(options.draft)
    try:
        with earlier_game(project.root, game_id, folder.folder, since) as earlier:
            old, new = earlier_state(earlier, game_id), comparable(new, earlier)
            changes = compare(old, new)
            for component in checked.game.components:
                if component.is_deck:
                    mine = [c for c in changes if c.deck == component.id]
                    if mine:
                        files.append(deck_reprint(ctx, component, mine, earlier.name, old.decks.get(component.id)))
                elif component.kind in PAGED_KINDS:
                    old_ctx = BuildContext(old.project, old.game, old.decks, options)
                    files += reprinted_pages(ctx, old_ctx, component)
            name = earlier.name
    finally:
        DRAFT.reset(marked)
    # a reprint with these options, made earlier, is out of date; one with others still stands
    with_these_options = {reprint_name(f"{component.id}-{options.paper}{options.variant}.pdf")
                          for component in checked.game.components}

    def superseded(file_name: str) -> bool:
        return is_reprint(file_name) and file_name in with_these_options
    if not files:   # nothing to print again: an earlier reprint's files are out of date all the same
        if any((folder.folder / earlier_reprint).exists() for earlier_reprint in with_these_options):
            folder.commit([], keep_record=True, superseded=superseded)
        return [], name, folder.removed
    for file, _ in files:   # the deck printed with other options: its cards would not match
        printed = folder.folder / file.name.replace("-reprint.pdf", ".pdf")
        if not printed.exists():
            project.diagnostics.warn(f"{file.name}: there is no {printed.name} in {display_path(folder.folder)} to "
                                     f"match; give --reprint the paper and print options you printed with")
    paths = folder.commit([file for file, _ in files], keep_record=True, superseded=superseded)
    return [Reprinted(path, file.pages, len(file.data), note) for path, (file, note) in zip(paths, files)], name, \
        folder.removed


def deck_reprint(ctx: BuildContext, component: Component, changes: list[CardChange],
                 since: str, printed_deck: Deck | None = None) -> tuple[OutputFile, str]:
    """The deck's cards to print again, behind a cover that says what to pull (from
    `printed_deck`, as it was printed) and add."""
    deck = ctx.decks[component.id]
    again = {c.key: c.reprinted for c in changes if c.reprinted and c.new_card is not None}
    keys = card_keys([card.label for card in deck.cards])
    # a card printing {count} is told changed with any count, so all its copies are here: the
    # narrowed deck's count is the full deck's
    cards = [(card, again[key]) for key, card in zip(keys, deck.cards) if key in again]
    title = component.title or component.id
    options = ctx.options
    cover = cover_pages(ctx, f"{ctx.game.title}: {title}, reprint since {since}", changes, printed_deck, deck,
                        "The cards follow on the next sheet, printed like the full deck (paper, duplex, bleed)."
                        if cards else "Nothing to print: only cards to take out.")
    name = reprint_name(f"{component.id}-{options.paper}{options.variant}.pdf")
    # printed double-sided, the cards start on a fresh sheet
    fresh_sheet = bool(cards) and component.printed_double(options.duplex) and cover.pages % 2 == 1
    sources, blanks = [cover], [(cover.pages - 1,) if fresh_sheet else ()]
    if cards:
        narrowed = Deck(deck.path, deck.fields, [c for c, _ in cards], [n for _, n in cards], deck.designed,
                        deck.label)
        drawn = component.render(replace(ctx, decks={**ctx.decks, component.id: narrowed}, compiled={},
                                         laid_out_for={component.id: deck.total}))
        sources.append(drawn[0])
        blanks.append(())
    data, pages = joined([s.data for s in sources], blanks, paper_of(ctx), f"{ctx.game.title}: {title} (reprint)",
                         b"/ViewerPreferences<</PrintScaling/None>>")
    printed = sum(n for _, n in cards)
    pulled = sum(c.pulled for c in changes)
    note = f"{printed} card{'s' if printed != 1 else ''} to print, {pulled} to take out"
    return OutputFile(name, data, pages, component=component.id), note


def cover_pages(ctx: BuildContext, heading: str, changes: list[CardChange], printed: Deck | None, now: Deck,
                closing: str) -> OutputFile:
    """What to take out of the printed deck and what to put in, one line a card."""
    from pnp.config.typed import where_of
    text = ctx.project.fonts.family("text", where_of(None, "font"))
    display = ctx.project.fonts.family("display", where_of(None, "font"))
    width, height = paper_of(ctx)
    lines: list[tuple[str, str]] = [("head", "Take out of the printed deck")]
    pulls = [c for c in changes if c.pulled]
    lines += [("line", f"{c.pulled} x {on_paper(c.key, c.old_card, printed, c.new_card)}   {why_pulled(c)}")
              for c in pulls] or [("line", "nothing")]
    lines += [("gap", ""), ("head", "Add from this print")]
    adds = [c for c in changes if c.reprinted]
    lines += [("line", f"{c.reprinted} x {on_paper(c.key, c.new_card, now, c.old_card)}   {why_added(c)}")
              for c in adds] or [("line", "nothing")]
    lines += [("gap", ""), ("line", closing)]
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, (width, height), heading)
    left, top = mm(20), height - mm(25)
    y = top

    def start_page() -> float:
        canvas.setFont(display.face(), 16)
        canvas.drawString(left, top, heading)
        return top - mm(12)

    y = start_page()
    for kind, line in lines:
        if y < mm(20):
            canvas.showPage()
            y = start_page()
        if kind == "head":
            canvas.setFont(text.face(bold=True), 12)
            canvas.drawString(left, y, line)
            y -= mm(7)
        elif kind == "gap":
            y -= mm(4)
        else:
            canvas.setFont(text.face(), 10)
            canvas.drawString(left + mm(4), y, line)
            y -= mm(5.5)
    canvas.showPage()
    return finish(canvas, buffer, "cover.pdf")


def why_pulled(change: CardChange) -> str:
    if change.kind == "removed":
        return "(removed from the deck)"
    if change.kind == "changed":
        return "(redrawn: the new copies are in this print)"
    return f"(count {change.old_count} -> {change.new_count})"


def why_added(change: CardChange) -> str:
    if change.kind == "added":
        return "(new card)"
    if change.kind == "changed":
        what = ", ".join(name for name, _, _ in change.fields) or "its look"
        return f"(changed: {what})"
    return f"(count {change.old_count} -> {change.new_count})"


def reprinted_pages(ctx: BuildContext, old_ctx: BuildContext, component: Component) -> list[tuple[OutputFile, str]]:
    """The pages of a board, sheet, rule sheet or tuck box whose pictures changed, as files."""
    found = []
    for changed in changed_pages(ctx, old_ctx, component):
        data, pages = pages_of(changed.file.data, changed.pages, paper_of(ctx),
                               f"{ctx.game.title}: {component.title or component.id} (reprint)")
        found.append((OutputFile(reprint_name(changed.file.name), data, pages, component=component.id), changed.note))
    return found


def pages_of(pdf: bytes, indices: list[int], paper: tuple[float, float], title: str) -> tuple[bytes, int]:
    """The chosen pages of a PDF, as a file of their own."""
    import pypdfium2
    from pnp.outputs.joining import finished
    source = pypdfium2.PdfDocument(pdf)
    document = pypdfium2.PdfDocument.new()
    document.import_pages(source, pages=indices)
    buffer = io.BytesIO()
    document.save(buffer)
    return finished(buffer.getvalue(), title, b"/ViewerPreferences<</PrintScaling/None>>"), len(indices)
