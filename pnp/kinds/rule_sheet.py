"""Rule sheets drawn (the `rules` kind's renderer, `pnp.kinds.rules`): Markdown from the game
folder laid out with reportlab's platypus.

Headings, paragraphs, bulleted and numbered lists, bold/italic and tables are supported. Raw
HTML is off, and text is escaped before it becomes paragraph markup, so a rule sheet cannot
inject markup or load files. A paragraph that is only `{{contents}}` becomes the list of what
the game contains; `{{name}}` for a table named in the component becomes that table, built
from the game's data.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (BaseDocTemplate, Flowable, Frame, KeepTogether, ListFlowable, ListItem,
                                PageTemplate, Paragraph, Spacer, Table, TableStyle)
from reportlab.platypus.doctemplate import LayoutError
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.config.typed import where_of
from pnp.contents.stated import facts_of
from pnp.yaml_source import display_path
from pnp.errors import PnpError, did_you_mean
from pnp.impose import PAPER_SIZES, UNPRINTABLE
from pnp.layout.binding import text_of
from pnp.paths import safe_path
from pnp.fonts import fallbacks_for
from pnp.layout.icons import icons_of, load_icon, no_icons, with_tokens, without_tokens
from pnp.layout.runs import StyledLines, lay_out
from pnp.layout.text import has_rtl, to_markup, with_fallbacks
from pnp.units import mm
from pnp.outputs.pdf import OutputFile, compact_kind, draft_kind, starting_font
from pnp.config.deck import Card, Deck, select

if TYPE_CHECKING:
    from markdown_it.token import Token

    from pnp.config.typed import Where
    from pnp.fonts import FontBook, Styled
    from pnp.kinds.rules import RulesComponent, RulesTableSpec
    from pnp.render import BuildContext

# The rule sheet's styles: a ParagraphStyle by name, and "rtl" (a right-to-left sheet) and
# "width" (a column's, in points) beside them
Styles = dict[str, Any]
Say = Callable[[str], str]   # pnp's own words in the build's language
Generate = Callable[[str], list[Flowable]]   # the flowables for a `{{name}}` paragraph

_PLACEHOLDER = re.compile(r"^\{\{\s*([A-Za-z][A-Za-z0-9_-]*)\s*\}\}$")
_STRAY_PLACEHOLDER = re.compile(r"\{\{\s*[A-Za-z][A-Za-z0-9_-]*\s*\}\}")   # one among other text
ACCENT = colors.HexColor("#1f3a5f")


def render_rules(ctx: BuildContext, component: RulesComponent) -> list[OutputFile]:
    path = safe_path(ctx.game.folder, component.source, component.origin, what="rule sheet")
    if not path.is_file():
        raise component.origin.error(f"rule sheet '{component.source}' not found in the game folder")
    text = read_rules_text(path, component)
    say: Say = str
    rtl = False
    file, first_line = display_path(path), 1
    if ctx.translation is not None:
        text, say = ctx.translation.rules_text(component, text), ctx.translation.label
        rtl = ctx.translation.right_to_left
        file, first_line = ctx.translation.rules_where(component) or (file, first_line)
    text = facts_of(ctx.game).resolve_lines(text, file, first_line)
    styles = make_styles(ctx.project.fonts)
    styles["rtl"] = rtl
    styles["width"] = column_width(PAPER_SIZES[ctx.options.paper], component.columns)
    icons = RULE_ICONS.set((icons_of(ctx.game.folder), display_path(path)))
    where = RULE_TEXT.set((file, first_line, [-1]))
    try:
        story = markdown_story(text, styles, lambda name: generated(ctx, component, name, styles, path),
                               display_path(path))
    finally:
        RULE_ICONS.reset(icons)
        RULE_TEXT.reset(where)
    paper = PAPER_SIZES[ctx.options.paper]
    buffer = io.BytesIO()
    title = ctx.game.title
    document = rules_document(buffer, paper, title, component.columns, styles, ctx.game.spec.credit, say, rtl,
                              where_file=display_path(path), restated=component.restated)
    try:
        document.build(story, canvasmaker=draft_kind(compact_kind(Canvas)))
    except LayoutError as exc:
        # reportlab's word for a piece taller than a column (a table row, most often)
        raise PnpError("something on the rule sheet is taller than a whole column and cannot be "
                       "split (a table row with a very long cell?)", file=display_path(path),
                       hint=f"shorten it or break it up ({ADDRESS.sub('', str(exc))[:80]})") from None
    pages = document.page
    return [OutputFile(f"{component.id}-{ctx.options.paper}{ctx.options.rules_variant}.pdf", buffer.getvalue(),
                       pages, role="home")]


def read_rules_text(path: Path, component: RulesComponent) -> str:
    """The rule sheet's Markdown: UTF-8 (a BOM is fine), and not empty."""
    where = component.where_is("source")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise where.error(f"rule sheet '{component.source}' is not UTF-8 text (byte {exc.start}); "
                          f"save it as UTF-8") from None
    except OSError as exc:
        raise where.error(f"cannot read rule sheet '{component.source}': {exc.strerror}") from None
    if not text.strip():
        raise where.error(f"rule sheet '{component.source}' is empty; write the rules in it")
    return text


def make_styles(fonts: FontBook) -> Styles:
    text = fonts.family("text", where_of(None, "font")).with_markup()
    display = fonts.family("display", where_of(None, "font")).with_markup()
    body = ParagraphStyle("body", fontName=text.face(), fontSize=9.5, leading=12.5,
                          spaceAfter=4, alignment=TA_LEFT)
    return {
        "body": body,
        "h1": ParagraphStyle("h1", parent=body, fontName=display.face(), fontSize=17, leading=20,
                             textColor=ACCENT, spaceBefore=6, spaceAfter=4, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=body, fontName=display.face(), fontSize=13, leading=16,
                             textColor=ACCENT, spaceBefore=8, spaceAfter=3, keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=body, fontName=text.face(bold=True), fontSize=10.5,
                             leading=13, spaceBefore=5, spaceAfter=2, keepWithNext=1),
        "cell": ParagraphStyle("cell", parent=body, fontSize=8.5, leading=10.5, spaceAfter=0),
        "head": ParagraphStyle("head", parent=body, fontName=text.face(bold=True), fontSize=8.5,
                               leading=10.5, spaceAfter=0, textColor=colors.white),
        "title": ParagraphStyle("title", fontName=display.face(), fontSize=26, leading=30,
                                textColor=colors.white),
        "foot": ParagraphStyle("foot", fontName=text.face(italic=True), fontSize=7.5,
                               textColor=colors.HexColor("#555555")),
    }


MARGIN, BANNER, GUTTER = mm(14), mm(16), mm(6)


def column_width(paper: tuple[float, float], columns: int) -> float:
    return (paper[0] - 2 * MARGIN - (columns - 1) * GUTTER) / columns


def rules_document(buffer: io.BytesIO, paper: tuple[float, float], title: str, columns: int, styles: Styles,
                   credit: str, say: Say = str, rtl: bool = False, where_file: str = "rules.md",
                   restated: bool = False) -> BaseDocTemplate:
    """`say` puts pnp's own words on the sheet into a translated build's language; a
    right-to-left one fills the columns from the right; a `restated` sheet (a published game's
    rules retold) says in its footer that the words are ours. Past MAX_PAGES pages the layout
    stops with an error rather than run on."""
    margin, banner, gutter = MARGIN, BANNER, GUTTER
    width, height = paper

    def frames(top_room: float) -> list[Frame]:
        column_w = column_width(paper, columns)
        order = range(columns - 1, -1, -1) if rtl else range(columns)
        return [Frame(margin + i * (column_w + gutter), margin, column_w,
                      height - 2 * margin - top_room, id=f"col{i}", leftPadding=0, rightPadding=0,
                      topPadding=0, bottomPadding=0) for i in order]

    def first_page(canvas: Canvas, doc: BaseDocTemplate) -> None:
        canvas.saveState()
        canvas.setFillColor(ACCENT)
        canvas.setViewerPreference("PrintScaling", "None")   # print at 100 %, like the cards
        # the band stays inside the 5 mm a home printer cannot print
        canvas.rect(UNPRINTABLE, height - margin - banner + mm(4), width - 2 * UNPRINTABLE, banner, stroke=0, fill=1)
        heading = paragraph(as_written(title) + " — " + escape(say("how to play")), styles["title"])
        heading.wrap(width - 2 * margin, banner)
        heading.drawOn(canvas, margin, height - margin - banner + mm(7.5))
        canvas.restoreState()
        footer(canvas, doc)

    def footer(canvas: Canvas, doc: BaseDocTemplate) -> None:
        if doc.page > MAX_PAGES:
            raise PnpError(f"the rule sheet runs past {MAX_PAGES} pages", file=where_file,
                           hint="a rule sheet is read at the table; split it up or shorten it")
        told = [as_written(title)] + ([escape(say("rules in our own words"))] if restated else [])
        line = " · ".join(told + [f"{escape(say('page'))} {doc.page}"])
        if credit:
            line += f" · {as_written(credit)}"
        para = paragraph(line, styles["foot"])
        para.wrap(width - 2 * margin, margin)
        para.drawOn(canvas, margin, mm(7))

    document = BaseDocTemplate(buffer, pagesize=paper, invariant=1, pageCompression=1,
                               initialFontName=starting_font(),
                               title=f"{title}: rules", author="pnp", creator="pnp",
                               leftMargin=margin, rightMargin=margin, topMargin=margin,
                               bottomMargin=margin)
    document.addPageTemplates([
        PageTemplate("first", frames(banner + mm(2)), onPage=first_page, autoNextPageTemplate="rest"),
        PageTemplate("rest", frames(0), onPage=footer),
    ])
    return document


def as_written(words: str) -> str:
    """Words from game.yaml (its title, its credit) as markup that prints them as written: a
    colon there starts no icon ("Go:set:go", "Spice :coin: Route")."""
    return no_icons(escape(words))


RULE_ICONS: ContextVar[tuple[dict[str, Path], str]] = ContextVar("rule_icons", default=({}, "rules.md"))
# where the text being laid out is written (its file, first line, and the block's line within
# it, kept up to date as blocks are read), so an error in a block names its line
RULE_TEXT: ContextVar[tuple[str, int, list[int]]] = ContextVar("rule_text", default=("rules.md", 1, [-1]))


def refuse_stray_placeholder(paragraph_text: str) -> None:
    """A `{{name}}` among a paragraph's other text (no blank line before or after it) would
    print as written, braces and all: refused at its own line."""
    code_spans_blanked = re.sub(r"(`+).*?\1", lambda span: " " * len(span.group(0)), paragraph_text, flags=re.S)
    stray = _STRAY_PLACEHOLDER.search(code_spans_blanked)   # `{{name}}` in code is meant to print as written
    if stray is None:
        return
    file, line = rule_line()
    if line is not None:
        line += paragraph_text.count("\n", 0, stray.start())
    raise PnpError(f"'{stray.group(0)}' is inside a paragraph, where it would print as written; a table "
                   f"or the contents list is a paragraph of its own", file=file, line=line,
                   hint="leave a blank line before and after it")


def rule_line() -> tuple[str, int | None]:
    """The file and line of the block of the rule sheet being laid out."""
    file, first, at = RULE_TEXT.get()
    return file, first + at[0] if at[0] >= 0 else None


def paragraph(markup: str, style: ParagraphStyle) -> Flowable:
    """A paragraph of the rule sheet: `:icons:` drawn inline, characters its font lacks set in
    the family's fallbacks; right-to-left text and text with icons set as styled runs."""
    images: tuple[Any, ...] = ()
    if ":" in markup:
        icons, source = RULE_ICONS.get()

        def fail(message: str) -> None:
            file, line = rule_line()
            raise PnpError(message, file=file, line=line)
        markup, names = with_tokens(markup, icons, fail)
        ink = style.textColor.hexval()[2:] if hasattr(style.textColor, "hexval") else "000000"
        images = tuple(load_icon(icons[name], ink, source, scale) for name, scale in names)
    fallbacks = fallbacks_for(style.fontName, without_tokens(markup))
    if has_rtl(markup) or images:
        return StyledParagraph(markup, style, fallbacks, images)
    if fallbacks:
        markup = with_fallbacks(markup, style.fontName, fallbacks)
    return Paragraph(markup, style)


class StyledParagraph(Flowable):   # type: ignore[misc]  # reportlab ships without types
    """A rule-sheet paragraph in a right-to-left script or with icons, set as styled runs
    (pnp.layout.runs): bold, italic and icons kept, lines in visual order, a right-to-left
    paragraph aligned from the right."""

    def __init__(self, markup: str, style: ParagraphStyle, fallbacks: tuple[Styled, ...],
                 images: tuple[Any, ...] = ()) -> None:
        super().__init__()
        self.markup, self.style, self.fallbacks, self.images = markup, style, fallbacks, images
        self.lines: StyledLines | None = None

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        style = self.style
        colour = style.textColor.hexval()[2:] if hasattr(style.textColor, "hexval") else "000000"
        align = {TA_LEFT: "left", TA_CENTER: "center", TA_RIGHT: "right"}.get(style.alignment, "left")
        self.lines = lay_out(self.markup, style.fontName, self.fallbacks, self.images, style.fontSize,
                             style.leading / style.fontSize, colour, align, available_width, float("inf"),
                             force=True)
        self.width = available_width
        return available_width, (self.lines.height if self.lines else style.leading)

    def draw(self) -> None:
        if self.lines is not None:
            self.lines.drawOn(self.canv, 0, 0)

    def getSpaceBefore(self) -> float:  # noqa: N802 - reportlab's name
        space: float = self.style.spaceBefore
        return space

    def getSpaceAfter(self) -> float:  # noqa: N802 - reportlab's name
        space: float = self.style.spaceAfter
        return space


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


MAX_NESTING = 40   # token levels: a list item inside a list is two
# Bounds that keep the layout to seconds (reportlab re-wraps what is left of a paragraph at
# every column break, and a heading is kept with what follows it, so a heading or paragraph
# longer than a column costs far more than its length).
MAX_RULES_CHARS = 300_000      # the whole sheet: some 100 pages of text
MAX_HEADING_CHARS = 300        # a heading is a few words; kept whole with the next block
MAX_PARAGRAPH_CHARS = 20_000   # a paragraph, list item or table cell: some four columns
MAX_CODE_LINES = 1_000         # a code block, one paragraph a line
MAX_LINES = 20_000             # lines of Markdown, checked before it is parsed
MAX_BLOCKS = 5_000             # paragraphs, list items, table cells and code lines in all
MAX_PAGES = 150
MAX_KEPT_HEADINGS = 3          # headings kept together with the table that follows them


def markdown_story(text: str, styles: Styles, generate: Generate, where_file: str = "rules.md") -> list[Flowable]:
    from markdown_it import MarkdownIt   # only games with a rule sheet pay for importing it
    if len(text) > MAX_RULES_CHARS:
        raise PnpError(f"the rule sheet has {len(text):,} characters, more than pnp lays out "
                       f"({MAX_RULES_CHARS:,})", file=where_file)
    if text.count("\n") > MAX_LINES:
        raise PnpError(f"the rule sheet has {text.count(chr(10)):,} lines, more than pnp lays out ({MAX_LINES:,})",
                       file=where_file, hint="a rule sheet is read at the table; split it up or shorten it")
    # escapes kept apart from the text (text_join would merge them): `\:` stays a colon that
    # starts no icon, where Markdown would leave a bare colon (see `inline`)
    parser = MarkdownIt("commonmark", {"html": False, "maxNesting": MAX_NESTING + 4}).enable("table") \
        .disable("text_join")
    tokens = parser.parse(text)
    check_sizes(tokens, where_file)
    deepest = max((token for token in tokens if token.map), key=lambda token: token.level, default=None)
    if deepest is not None and deepest.level > MAX_NESTING:
        # past its limit markdown-it drops text silently: say so instead of printing less
        raise PnpError(f"the rule sheet nests lists or quotes more than {MAX_NESTING // 2} levels deep",
                       file=where_file, line=deepest.map[0] + 1 if deepest.map else None)
    story, _ = _blocks(tokens, 0, None, styles, generate)
    return story


def check_sizes(tokens: Sequence[Token], where_file: str) -> None:
    """Each heading, paragraph and code block within its bound, or an error at its line."""
    heading = False
    blocks = 0
    for token in tokens:
        line = token.map[0] + 1 if token.map else None
        if token.type == "heading_open":
            heading = True
        if token.type in ("inline", "fence", "code_block"):
            blocks += 1 if token.type == "inline" else token.content.rstrip("\n").count("\n") + 1
            if blocks > MAX_BLOCKS:
                raise PnpError(f"the rule sheet has more than {MAX_BLOCKS:,} paragraphs, list items, table "
                               f"cells and code lines, more than pnp lays out", file=where_file, line=line,
                               hint="a rule sheet is read at the table; split it up or shorten it")
        if token.type == "inline":
            limit, what = (MAX_HEADING_CHARS, "heading") if heading else (MAX_PARAGRAPH_CHARS, "paragraph")
            if len(token.content) > limit:
                raise PnpError(f"a {what} of {len(token.content):,} characters, longer than pnp lays out "
                               f"({limit:,})", file=where_file, line=line,
                               hint="a heading is a few words: put the rest in a paragraph below it"
                               if heading else "break it into paragraphs")
            heading = False
        elif token.type in ("fence", "code_block"):
            lines = token.content.rstrip("\n").count("\n") + 1
            if lines > MAX_CODE_LINES or len(token.content) > MAX_PARAGRAPH_CHARS * 5:
                raise PnpError(f"a code block of {lines:,} lines, more than pnp lays out ({MAX_CODE_LINES:,})",
                               file=where_file, line=line)


def code_lines(content: str, styles: Styles) -> list[Flowable]:
    """A code block as one paragraph a line: reportlab splits a long paragraph at each column
    break by laying out all that is left again, lines of their own cost nothing to split."""
    style = ParagraphStyle("code", parent=styles["body"], spaceAfter=0)
    lines = content.rstrip("\n").split("\n")
    out: list[Flowable] = [paragraph(escape(line) or "&nbsp;", style) for line in lines]
    if out:
        out.append(Spacer(1, styles["body"].spaceAfter))
    return out


def _blocks(tokens: Sequence[Token], i: int, stop: str | None, styles: Styles,
            generate: Generate) -> tuple[list[Flowable], int]:
    """Flowables from tokens[i:] up to the closing token `stop`; returns (flowables, next i)."""
    out: list[Flowable] = []
    while i < len(tokens):
        token = tokens[i]
        if stop and token.type == stop:
            return out, i + 1
        if token.map:   # the block's line, for an error in it
            RULE_TEXT.get()[2][0] = token.map[0]
        if token.type == "heading_open":
            level = min(int(token.tag[1]), 3)
            out.append(paragraph(inline(tokens[i + 1]), styles[f"h{level}"]))
            i += 3
        elif token.type == "paragraph_open":
            content = tokens[i + 1].content.strip()
            match = _PLACEHOLDER.match(content)
            if match:
                made = generate(match.group(1))
                headings: list[Flowable] = []
                while out and getattr(out[-1], "style", None) is not None and \
                        out[-1].style.name in ("h1", "h2", "h3") and len(headings) < MAX_KEPT_HEADINGS:
                    headings.insert(0, out.pop())
                if headings:   # never a heading alone at the foot of a column
                    made = [KeepTogether([*headings, made[0]]), *made[1:]]
                out.extend(made)
            else:
                refuse_stray_placeholder(content)
                out.append(paragraph(inline(tokens[i + 1]), styles["body"]))
            i += 3
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            close = token.type.replace("_open", "_close")
            items, i = _list_items(tokens, i + 1, close, styles, generate)
            kind = "bullet" if token.type == "bullet_list_open" else "1"
            if items:
                out.append(ListFlowable(items, bulletType=kind, start=None if kind == "bullet" else 1,
                                        **list_side(styles), bulletFontSize=8 if kind == "bullet" else 9,
                                        bulletFontName=styles["body"].fontName,
                                        bulletColor=ACCENT, spaceAfter=4))
        elif token.type == "table_open":
            rows, i = _table_rows(tokens, i + 1)
            if styles.get("rtl"):   # written in reading order: the first column goes on the right
                rows = [row[::-1] for row in rows]
            out.append(make_table(rows[0], rows[1:], styles))
        elif token.type == "hr":
            out.append(Spacer(1, 6))
            i += 1
        elif token.type in ("fence", "code_block"):
            out.extend(code_lines(token.content, styles))
            i += 1
        else:
            i += 1
    return out, i


def list_side(styles: Styles) -> dict[str, Any]:
    """Where a list's bullets go: on the right in a right-to-left sheet."""
    if styles.get("rtl"):
        return {"bulletDir": "rtl", "rightIndent": 12, "leftIndent": 0}
    return {"leftIndent": 12}


def _list_items(tokens: Sequence[Token], i: int, close: str, styles: Styles,
                generate: Generate) -> tuple[list[ListItem], int]:
    items: list[ListItem] = []
    while tokens[i].type != close:
        if tokens[i].type == "list_item_open":
            body, i = _blocks(tokens, i + 1, "list_item_close", styles, generate)
            for flowable in body:   # tight lists: no space after each item
                if isinstance(flowable, Paragraph):
                    flowable.style = ParagraphStyle("item", parent=flowable.style, spaceAfter=1.5)
            if body:
                items.append(ListItem(body))
        else:
            i += 1
    return items, i + 1


def _table_rows(tokens: Sequence[Token], i: int) -> tuple[list[list[str]], int]:
    rows: list[list[str]] = []
    row: list[str] = []
    while tokens[i].type != "table_close":
        kind = tokens[i].type
        if kind == "tr_open":
            row = []
        elif kind == "tr_close":
            rows.append(row)
        elif kind == "inline":
            row.append(inline(tokens[i]))
        i += 1
    return rows, i + 1


def inline(token: Token) -> str:
    """Paragraph markup for an inline token: escaped text with bold and italic kept."""
    parts = []
    for child in token.children or []:
        kind = child.type
        if kind == "text":
            parts.append(escape(child.content))
        elif kind == "text_special":   # a backslash escape: `\:` stays pnp's, a colon that starts no icon
            parts.append(no_icons(":") if child.info == "escape" and child.content == ":" else escape(child.content))
        elif kind == "code_inline":
            parts.append(escape(child.content))
        elif kind in ("strong_open", "strong_close"):
            parts.append("<b>" if kind.endswith("open") else "</b>")
        elif kind in ("em_open", "em_close"):
            parts.append("<i>" if kind.endswith("open") else "</i>")
        elif kind == "softbreak":
            parts.append(" ")
        elif kind == "hardbreak":
            parts.append("<br/>")
        # links keep their text (a text child); images are not placed from rule sheets
    return "".join(parts)


def make_table(heading: list[str], rows: list[list[str]], styles: Styles) -> Table:
    head, cell = styles["head"], styles["cell"]
    scale = fitting_scale([heading] + rows, styles["width"], cell)
    if scale < 1:   # the longest words are wider than the column: a smaller size first
        head, cell = (ParagraphStyle(f"{style.name}-fitted", parent=style, fontSize=style.fontSize * scale,
                                     leading=style.leading * scale) for style in (head, cell))
    # a right-to-left table: a cell in a right-to-left script is set from where its reading
    # starts (its own style does that), numbers and Latin words from the right too, so every
    # cell stands under its heading
    rtl = bool(styles.get("rtl"))
    head_right, cell_right = (ParagraphStyle(f"{style.name}-rtl", parent=style, alignment=TA_RIGHT)
                              for style in (head, cell))
    data = [[paragraph(h, head_right if rtl and not has_rtl(h) else head) for h in heading]]
    data += [[paragraph(c, cell_right if rtl and not has_rtl(c) else cell) for c in row] for row in rows]
    table = Table(data, repeatRows=1, hAlign="RIGHT" if styles.get("rtl") else "LEFT",
                  colWidths=column_widths([heading] + rows, styles["width"], cell))
    table.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), ACCENT),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#eef2f7")]),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LINEBELOW", (0, -1), (-1, -1), 0.5, ACCENT),
        ("FONTNAME", (0, 0), (-1, -1), styles["cell"].fontName),   # else reportlab names Helvetica
    ]))
    return table


_TAG = re.compile(r"<[^>]+>")


CELL_PADDING = 7.0      # a cell's left and right padding together (make_table's style)
LEAST_TABLE_SCALE = 0.8   # a table too wide for its column shrinks to this, then breaks long words


def fitting_scale(rows: list[list[str]], width: float, style: ParagraphStyle) -> float:
    """How much smaller than `style` a table's text must be for its longest words to fit
    the column side by side: 1 when they do; at least LEAST_TABLE_SCALE."""
    least = least_widths(rows, style)
    words = sum(least) - CELL_PADDING * len(least)
    if sum(least) <= width or words <= 0:
        return 1.0
    return max(LEAST_TABLE_SCALE, (width - CELL_PADDING * len(least)) / words)


def measured(style: ParagraphStyle) -> Callable[[str], float]:
    def measure(text: str) -> float:
        plain_text = _TAG.sub("", text).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        width: float = stringWidth(plain_text, style.fontName, style.fontSize)
        return width
    return measure


def least_widths(rows: list[list[str]], style: ParagraphStyle) -> list[float]:
    """Each column's longest word, padded: as narrow as the column can be unbroken."""
    measure = measured(style)
    return [max(max((measure(w) for w in r[i].split()), default=0) for r in rows if i < len(r)) + CELL_PADDING
            for i in range(len(rows[0]))]


def column_widths(rows: list[list[str]], width: float, style: ParagraphStyle) -> list[float]:
    """Widths in points: each column as wide as its longest line needs when that fits,
    never narrower than its longest word; what is left goes to the wordiest columns. Where
    the longest words alone are wider than the column of text even at the least size (a
    German compound), the widest columns give way, their long words broken, so the table
    keeps to its column."""
    measure = measured(style)
    pad = CELL_PADDING
    columns = range(len(rows[0]))
    need = [max(measure(r[i]) for r in rows if i < len(r)) + pad for i in columns]
    least = least_widths(rows, style)
    if sum(need) <= width:
        need[-1] += width - sum(need)
        return need
    if sum(least) > width:
        return capped(least, width)
    widths = list(least)
    spare = width - sum(widths)
    wanting = {i: need[i] - least[i] for i in columns if need[i] > least[i]}
    total = sum(wanting.values()) or 1
    for i, extra in wanting.items():
        widths[i] += max(spare, 0) * extra / total
    return widths


def capped(widths: list[float], total: float) -> list[float]:
    """`widths` with the widest cut down to one cap, so they add up to `total`: the narrow
    columns (a count, a cost) keep their width."""
    cap = total
    for count, each in enumerate(sorted(widths, reverse=True), start=1):
        narrower = sorted(widths, reverse=True)[count:]
        cap = (total - sum(narrower)) / count
        if not narrower or cap >= narrower[0]:
            break
    return [min(each, cap) for each in widths]


ADDRESS = re.compile(r"@0x[0-9a-fA-F]+| at 0x[0-9a-fA-F]+")   # where an object sits in memory: never the same twice


class Gap(Spacer):   # type: ignore[misc]  # reportlab ships without types
    """Space after a block that shrinks to what is left of the column: a gap that does not fit
    ends the column, not starts another (a table filling the last column exactly left a
    page holding only its footer)."""

    _ZEROSIZE = True   # asked to fit even in no room at all

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        width, height = super().wrap(available_width, available_height)
        return width, max(0.0, min(height, available_height))


def generated(ctx: BuildContext, component: RulesComponent, name: str, styles: Styles, path: Path) -> list[Flowable]:
    """The flowables for a `{{name}}` paragraph."""
    if name == "contents":
        return [contents_list(ctx, styles)]
    if name in component.tables:
        return [deck_table(ctx, component.tables[name], styles), Gap(1, 4)]
    known = ", ".join(["contents", *component.tables]) or "contents"
    file, line = rule_line()
    raise PnpError(f"'{{{{{name}}}}}' names no generated table; known: {known}", file=file, line=line)


def contents_list(ctx: BuildContext, styles: Styles) -> ListFlowable:
    items = []
    for component in ctx.game.components:
        label = component.title or component.id
        deck = ctx.decks.get(component.id)
        line = f"<b>{escape(label)}</b>"
        if component.description:
            description = facts_of(ctx.game).resolve(component.description, component.where_is("description"))
            line += f": {escape(description)}"
        elif deck is not None and component.is_deck:
            say = ctx.translation.label if ctx.translation is not None else str
            line += ": " + escape(say("{count} pieces").replace("{count}", str(deck.total)))
        items.append(ListItem(paragraph(line, ParagraphStyle("c", parent=styles["body"], spaceAfter=1.5))))
    return ListFlowable(items, bulletType="bullet", **list_side(styles), bulletFontSize=8,
                        bulletFontName=styles["body"].fontName, bulletColor=ACCENT, spaceAfter=4)


def cell_text(card: Card, column: str) -> str:
    """A card's text for a table column; `move+effect` puts two fields in one cell, the first
    in bold."""
    first, *rest = [text_of(card.get(name)) for name in column.split("+")]
    if not rest:
        return first
    return " ".join([f"**{first}**" if first else "", *rest]).strip()


def summary_rows(deck: Deck, spec: RulesTableSpec) -> list[list[str]]:
    """One row per value of `summarise_by`: how many cards have it, and for each other column
    the values those cards show (numbers in order with repeats, words once each)."""
    groups: dict[str, list[Card]] = {}
    for card in deck.expanded():
        groups.setdefault(text_of(card.get(spec.summarise_by or "")), []).append(card)
    rows = []
    for key, cards in groups.items():
        row = []
        for column in spec.columns:
            if column == spec.summarise_by:
                row.append(to_markup(key))
            elif column == "count":
                row.append(str(len(cards)))
            else:
                values = [card.get(column) for card in cards if card.get(column) not in (None, "")]
                numbers = [v for v in values if isinstance(v, (int, float))]
                if len(numbers) == len(values):
                    row.append(", ".join(text_of(v) for v in sorted(numbers)))
                else:
                    row.append(to_markup(", ".join(dict.fromkeys(text_of(v) for v in values))))
        rows.append(row)
    return rows


def with_kept_values_said(deck: Deck, kept: frozenset[str], columns: Sequence[str],
                          say: Callable[[str, Where | None], str]) -> Deck:
    """The deck with the values of the kept fields a table prints in the build's language: a
    field that chooses a layout keeps "ship" on the cards, and the table says it as a label
    (pnp translate asks for it, validate names it when missing)."""
    shown = kept & {name for column in columns for name in column.split("+")}
    if not shown:
        return deck
    cards = []
    for card in deck.cards:
        said = Card(card)
        for name in shown:
            if isinstance(card.get(name), str):
                said[name] = say(card[name], card.where)
        said.label, said.where = card.label, card.where
        cards.append(said)
    return Deck(deck.path, deck.fields, cards, list(deck.counts), deck.designed, deck.label)


def deck_table(ctx: BuildContext, spec: RulesTableSpec, styles: Styles) -> Table:
    if spec.deck not in ctx.decks:
        raise spec.where_is("deck").error(f"the table names the deck '{spec.deck}', which the game does not have",
                                          hint=f"decks: {', '.join(ctx.decks)}")
    deck = select(ctx.decks[spec.deck], spec.where)
    for column in spec.columns:
        for name in column.split("+"):
            if name != "count" and name not in deck.fields:
                raise spec.where_is("columns").error(
                    f"the table for deck '{spec.deck}' has a column '{name}' the cards do not have",
                    hint=did_you_mean(name, deck.fields) or f"fields: {', '.join(deck.fields)}")
    if ctx.translation is not None:
        deck = with_kept_values_said(deck, ctx.kept.get(spec.deck, frozenset()), spec.columns, ctx.translation.label)
    headings = spec.headings or [c.replace("_", " ").capitalize() for c in spec.columns]
    rows = []
    if spec.summarise_by:
        rows = summary_rows(deck, spec)
    elif spec.group:
        for card, count in zip(deck.cards, deck.counts):
            rows.append([str(count) if c == "count" else to_markup(cell_text(card, c))
                         for c in spec.columns])
    else:
        for card in deck.expanded():
            rows.append([to_markup(cell_text(card, c)) for c in spec.columns])
    return make_table([escape(h) for h in headings], rows, styles)
