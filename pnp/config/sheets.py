"""Card data from spreadsheets: CSV, TSV and XLSX, read into the same Deck a YAML file gives.

The first row names the fields; each later row is a card (blank rows are skipped). The fields'
types come from a small YAML beside the sheet (`crew.fields.yaml`, with the `fields:` and
`label:` keys a YAML data file has) or, without one, from each column's values. A field reads
the column headed with its name, or the heading its `column:` gives ("Card Name", which a
layout's `{field}` could not name); without the YAML, such a heading is read into a field
named after it (`card_name`). A `count` column gives the copies. Every bad cell is reported
at once, by sheet, row and column.

Nothing in a sheet is dropped without a word: a value in a column with no name, a row with
more cells than the sheet has columns, a formula with no saved value (a sheet written by a
script is never calculated) are errors at their cell. Every size is bounded before the work
it would cost: the workbook's unpacked size, the sheet's extent (rows, columns and cells,
read from where its values really are, not from what the file claims), each cell's text.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import unicodedata
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.paths import file_error, gate
from pnp.config.deck import (BUILTIN_FIELDS, FIELD_NAME, MAX_CARDS, Card, Deck, FieldSpec, check_count,
                             field_value)
from pnp.config.typed import Where, load_as, where_of
from pnp.errors import PnpError, did_you_mean, display_path, known
from pnp.yaml_source import MAX_FILE_BYTES, load_yaml

SHEET_SUFFIXES = {".csv", ".tsv", ".xlsx"}
MAX_ERRORS = 50   # listed at once; past this the rest are counted, not listed
MAX_CELL_CHARS = 10_000           # no card prints more; past this a paste went wrong
MAX_ROWS = 50_000                 # row numbers: a deck has at most MAX_CARDS cards
MAX_COLUMNS = 200                 # fields of a card
MAX_CELLS = 2_000_000             # rows x columns read
MAX_UNPACKED_BYTES = 100 * 2**20  # an XLSX is a zip: its parts unpacked, all together


@dataclass
class SheetFields:
    """The YAML beside a sheet: what a YAML data file has, less its cards."""

    fields: dict[str, FieldSpec]
    label: str = "name"
    designed: str = ""
    description: str = ""
    copies: str = ""   # the heading of the column that gives each card's copies ("Qty"); "": copies_heading


# headings a designer gives the copies column, compared in lower case without signs or spaces
COPIES_HEADINGS = ("count", "qty", "quantity", "copies", "numberofcopies", "noofcopies")


def is_sheet(name: str) -> bool:
    return Path(name.split("#", 1)[0]).suffix.lower() in SHEET_SUFFIXES


def split_sheet(name: str) -> tuple[str, str | None]:
    """`cards.xlsx#Crew` -> ('cards.xlsx', 'Crew'); a name without `#` picks the first sheet."""
    file, _, sheet = name.partition("#")
    return file, sheet or None


def fields_file(path: Path) -> Path:
    return path.with_name(path.stem + ".fields.yaml")


def load_sheet_deck(path: Path, sheet: str | None = None, warn: Callable[[str], None] | None = None) -> Deck:
    """The deck a sheet holds; `warn` is told of what reads nothing (a field the sheet has no
    column for)."""
    # formulas with no saved value: told with the sheet's other problems, in one run
    unsaved: dict[tuple[int, int], PnpError] = {}
    rows, place = read_rows(path, sheet, unsaved)
    if not rows:
        raise PnpError("the sheet is empty: its first row should name the fields", file=display_path(path))
    header_row, header = rows[0]
    columns = [str(h).strip() if h is not None else "" for h in header]
    body = rows[1:]
    widest = max(len(cells) for _, cells in rows)
    if widest > MAX_COLUMNS or rows[-1][0] > MAX_ROWS or len(rows) * widest > MAX_CELLS:
        raise PnpError(f"{place}{len(rows):,} rows (the last is row {rows[-1][0]:,}) of up to {widest:,} cells, "
                       f"more than pnp reads (at most {MAX_ROWS:,} rows, {MAX_COLUMNS} columns, "
                       f"{MAX_CELLS:,} cells)", file=display_path(path))
    errors: list[PnpError] = list(unsaved.values())
    declared = declared_fields(path, columns, errors, warn)
    spec = declared or inferred_fields(columns, body)
    # the copies column: the one named, else count, Qty ... where no field of the file reads it
    read = {field_spec.column or name for name, field_spec in spec.fields.items()}
    copies = spec.copies or copies_heading([heading for heading in columns if heading not in read])

    # ", column C (yards)" for each named column, and the file as messages name it, made once:
    # every cell read has a Where
    column_names = [f", column {column_letter(col)}" + (f" ({name})" if name else "")
                    for col, name in enumerate(columns)]
    shown = display_path(path)

    def cell_where(row: int, col: int) -> Where:
        column = column_names[col] if col < len(column_names) else f", column {column_letter(col)}"
        return Where(shown, None, f"{place}row {row}{column}")

    heading = {name: field_spec.column or name for name, field_spec in spec.fields.items()}
    headings = set(heading.values())
    first_of: dict[str, int] = {}   # each heading's first column
    for col, name in enumerate(columns):
        if not name:
            if (header_row, col) not in unsaved and any(col < len(cells) and blank(cells[col]) is False
                                                        for _, cells in body):
                errors.append(cell_where(header_row, col).error("a column with values has no name"))
        elif name in first_of:   # only one of them would be read
            errors.append(cell_where(header_row, col).error(
                f"columns {column_letter(first_of[name])} and {column_letter(col)} are both headed '{name}'",
                hint="give each column a heading of its own"))
        elif name in BUILTIN_FIELDS and name != copies:
            errors.append(cell_where(header_row, col).error(
                f"'{name}' is built in ({BUILTIN_FIELDS[name]}); name the column something else"))
        elif name != copies and name not in headings:
            errors.append(cell_where(header_row, col).error(
                f"unknown column '{name}'", hint=did_you_mean(name, sorted(headings))
                or f"the deck's fields: {known(spec.fields)}"))
        first_of.setdefault(name, col)
    for row, cells in body:
        extra = next((col for col in range(len(columns), len(cells)) if not blank(cells[col])), None)
        if extra is not None:
            errors.append(cell_where(row, extra).error(
                f"this row has {len(cells)} cells but the sheet has {len(columns)} columns: "
                f"'{short(cells[extra])}' is past the last one",
                hint="give the column a name in the first row, or check the row for a stray "
                     "separator (a comma in unquoted text)"))
    if spec.label not in spec.fields:
        errors.append(PnpError(f"label field '{spec.label}' is not among the fields",
                               file=display_path(path), hint=did_you_mean(spec.label, spec.fields)))
    index = {name: col for col, name in enumerate(columns) if name}
    # a row longer than others may hold a stray separator; every row as long is a sheet that
    # ends each with one (trailing commas)
    shortest = min((len(cells) for _, cells in body), default=0)
    cards, counts = [], []
    for row, cells in body:
        card = Card()
        card.where = Where(shown, None, f"{place}row {row}")
        # past the headings: cells a stray separator shifted along, unless only blank ones
        # end every row alike (a sheet that ends each row with a separator)
        past = cells[len(columns):]
        shifted = bool(past) and (len(cells) > shortest or not all(blank(cell) for cell in past))
        for name, field_spec in spec.fields.items():
            at = index.get(heading[name])
            value = cells[at] if at is not None and at < len(cells) else None
            if (row, at) in unsaved:   # told already: no "missing field" beside it
                card[name] = field_spec.default
                continue
            if at is None or blank(value):
                if field_spec.required:
                    errors.append(card.where.error(f"missing required field '{name}'"))
                card[name] = field_spec.default
                continue
            try:
                where = cell_where(row, at)
                card[name] = field_value(field_spec, cell_value(field_spec, value, where), where)
            except PnpError as exc:
                if shifted and not exc.hint:
                    exc.hint = (f"this row has {len(cells)} cells, more than the {len(columns)} headings: "
                                f"a separator in unquoted text moves every cell after it")
                errors.append(exc)
        count = 1
        if copies in index and not blank(cells[index[copies]] if index[copies] < len(cells) else None):
            count = count_of(cells[index[copies]], cell_where(row, index[copies]), errors)
        card.label = str(card.get(spec.label) or f"#{card.where.field}")
        if count == 0:
            continue   # switched off while balancing, as in a YAML file
        cards.append(card)
        counts.append(count)
    if errors:
        raise combined(errors)
    total = sum(counts)
    if total == 0:
        raise PnpError("the deck has no cards: every row after the first is blank", file=display_path(path))
    if total > MAX_CARDS:
        raise PnpError(f"{total} cards is more than pnp builds in one deck ({MAX_CARDS}); "
                       f"check the counts", file=display_path(path))
    return Deck(path, spec.fields, cards, counts, spec.designed, spec.label)


def combined(errors: list[PnpError]) -> PnpError:
    if len(errors) == 1:
        return errors[0]
    lines = [str(e) for e in errors[:MAX_ERRORS]]
    if len(errors) > MAX_ERRORS:
        lines.append(f"... and {len(errors) - MAX_ERRORS} more")
    return PnpError(f"{len(errors)} problems in the sheet:\n  " + "\n  ".join(lines))


def count_of(value: object, where: Where, errors: list[PnpError]) -> int:
    try:
        whole = FieldSpec(type="whole")
        return check_count(field_value(whole, cell_value(whole, value, where), where), where)
    except PnpError as exc:
        errors.append(exc)
        return 1


def short(value: object) -> str:
    text = str(value)
    return text if len(text) <= 30 else text[:27] + "..."


def blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def column_letter(col: int) -> str:
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


# ---- the values in cells

def cell_value(spec: FieldSpec, value: object, where: Where) -> object:
    """A cell as the YAML loader would have seen it: CSV cells are text, so numbers, flags
    and lists are read out of it; XLSX cells may already be numbers."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)    # spreadsheets store every number as a float
    if isinstance(value, bool) and spec.type != "flag":
        value = "TRUE" if value else "FALSE"   # as the sheet shows it: a quiz's answer, a column's odd one
    elif isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
        value = shown_date(value)
    if not isinstance(value, str):
        return value
    if len(value) > MAX_CELL_CHARS:
        raise where.error(f"{len(value):,} characters in one cell, more than a card holds "
                          f"({MAX_CELL_CHARS:,})")
    text = value.strip()
    if spec.type in ("number", "whole"):
        number = number_in(text)
        if number is None:
            raise where.error(f"expected {'a whole number' if spec.type == 'whole' else 'a number'}"
                              f", found \"{text}\"")
        return number
    if spec.type == "flag":
        flag = {"true": True, "yes": True, "false": False, "no": False}.get(text.lower())
        if flag is None:
            raise where.error(f"expected true, false, yes or no, found \"{text}\"")
        return flag
    if spec.type == "list":
        items = [item.strip() for item in text.split(spec.separator)]
        return [item if as_written(item) is None else as_written(item) for item in items if item]
    return value if spec.type == "text" else text


def shown_date(value: datetime.date | datetime.time | datetime.timedelta) -> str:
    """An XLSX date or time cell as text: ISO (1969-07-20, 20:17, 1969-07-20 20:17), one form
    whatever the sheet's own display format, which a workbook read for its values does not keep."""
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time():
            return value.date().isoformat()
        return value.isoformat(" ", "seconds" if value.second else "minutes")
    if isinstance(value, datetime.time):
        return value.isoformat("seconds" if value.second else "minutes")
    return str(value)   # a date, or a duration (h:mm:ss)


def number_in(text: str) -> int | float | None:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    return number if number == number else None   # NaN is not a number a card holds


# ---- the fields: declared beside the sheet, or read from the columns

def declared_fields(path: Path, columns: list[str], errors: list[PnpError],
                    warn: Callable[[str], None] | None = None) -> SheetFields | None:
    """The fields file beside the sheet, each field checked against the sheet's headings
    (`columns`): a field reads one column of its own. A `column:` the sheet lacks is added to
    `errors`, to be told with the sheet's own (a heading misspelt in the sheet, or in the
    fields file, is told at both); a field named after a column the sheet lacks, and with no
    `default:`, is blank on every card: `warn` is told."""
    beside = fields_file(path)
    if not beside.is_file():
        return None
    gate(beside, [path.parent], file_error(beside), "the fields file", where_to="the data file's folder")
    node = load_yaml(beside)
    where = where_of(node)
    spec = load_as(SheetFields, node, where)
    headings = [heading for heading in columns if heading]
    spec.copies = spec.copies.strip()   # as the headings are read
    if spec.copies and spec.copies != "count" and spec.copies not in headings:   # count: none, 1 each
        raise where.key(node, "copies").error(f"the sheet has no column headed '{spec.copies}'",
                                              hint=did_you_mean(spec.copies, headings)
                                              or f"its headings: {known(headings)}")
    read_by: dict[str, str] = {}   # each heading: the field that reads it
    fields_where = where.key(node, "fields")
    for name, field_spec in spec.fields.items():
        field_where = fields_where.key(node["fields"], name)
        field_spec.column = field_spec.column.strip()   # as the headings are read
        if name in BUILTIN_FIELDS:
            raise field_where.error(
                f"'{name}' is built in ({BUILTIN_FIELDS[name]}); name the field something else",
                hint="a card's copies come from the column headed count, or the one `copies:` names "
                     "beside `fields:` (copies: Qty)" if name == "count" else "")
        column = field_spec.column or name
        column_where = field_where.key(node["fields"][name], "column") if field_spec.column else field_where
        if column in read_by:
            raise column_where.error(f"fields '{read_by[column]}' and '{name}' both read the column headed '{column}'",
                                     hint="give each field a column of its own")
        if column == (spec.copies or "count"):
            raise column_where.error(f"the column headed '{column}' gives each card's copies, which a layout prints "
                                     f"as {{count}}", hint="read another column, or none")
        hint = did_you_mean(column, headings) or f"its headings: {known(headings)}"
        if column not in headings and field_spec.column:
            errors.append(column_where.error(f"the sheet has no column headed '{column}' for the field '{name}'",
                                             hint=hint))
        elif column not in headings and field_spec.default is None and warn is not None:
            warn(str(column_where.error(f"the sheet has no column headed '{column}': the field is blank on "
                                        f"every card", hint=hint + "; give the field a default: if it is meant "
                                        "to be left out")))
        read_by[column] = name
        if field_spec.default is not None:
            field_where = where.key(node["fields"], name)
            field_spec.default = field_value(field_spec, field_spec.default,
                                             field_where.key(node["fields"][name], "default"))
    return spec


BOOLEANS = ("true", "false")   # what a spreadsheet app writes for a checkbox: a column of them is flags


def inferred_fields(columns: list[str], body: list[tuple[int, list[Any]]]) -> SheetFields:
    """Each column's type from its values: a flag when every value is one (an XLSX TRUE/FALSE
    cell, or the text true or false: yes and no are words a quiz card may print, so a column of
    them stays text), whole numbers or numbers when every value is one as written, else text,
    printed as written."""
    fields: dict[str, FieldSpec] = {}
    named = named_after(columns)
    copies = copies_heading(columns)
    for col, heading in enumerate(columns):
        if not heading or heading in BUILTIN_FIELDS or heading == copies:
            continue
        name = named[heading]
        values = [cells[col] for _, cells in body if col < len(cells) and not blank(cells[col])]
        numbers = [as_written(v) for v in values]
        if values and all(isinstance(v, bool) or isinstance(v, str) and v.strip().lower() in BOOLEANS
                          for v in values):
            fields[name] = FieldSpec(type="flag")
        elif values and all(isinstance(n, int) and not isinstance(n, bool)
                            or isinstance(n, float) and n.is_integer() for n in numbers):
            fields[name] = FieldSpec(type="whole")
        elif values and all(isinstance(n, (int, float)) and not isinstance(n, bool) for n in numbers):
            fields[name] = FieldSpec(type="number")
        else:
            fields[name] = FieldSpec(type="text")
        if name != heading:
            fields[name].column = heading
    label = "name" if "name" in fields else next(iter(fields), "name")
    return SheetFields(fields, label, copies=copies)


def copies_heading(columns: list[str]) -> str:
    """The column that gives each card's copies: `count`, else the first headed as designers
    head it (Qty, Quantity, Copies, # Copies)."""
    if "count" in columns:
        return "count"
    return next((heading for heading in columns if re.sub(r"[^a-z]", "", heading.lower()) in COPIES_HEADINGS),
                "count")


def named_after(columns: list[str]) -> dict[str, str]:
    """Each heading's field name: the heading itself where a layout's `{field}` can name it,
    else made from its letters and digits ("Card Name" -> card_name, "Coût" -> cout), or from
    its column's letter where it has none a name can use (column_c)."""
    plain = {heading for heading in columns if FIELD_NAME.match(heading)}
    names: dict[str, str] = {}
    taken = set(plain) | set(BUILTIN_FIELDS)
    for col, heading in enumerate(columns):
        if not heading or heading in names:
            continue
        if heading in plain:
            names[heading] = heading
            continue
        ascii_text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
        name = re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")
        if not FIELD_NAME.match(name):
            name = f"column_{column_letter(col).lower()}"
        made, n = name, 2
        while made in taken:
            made, n = f"{name}_{n}", n + 1
        taken.add(made)
        names[heading] = made
    return names


def as_written(value: object) -> object:
    """A CSV cell's number when it is one as written, text that reads back the same once
    printed: `007`, `2.50`, `+2`, `1e3`, `1_000` or `١٢` would print otherwise, so a column
    holding one is text and each cell prints as it is written. XLSX numbers are numbers."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    number = number_in(text)
    return number if number is not None and str(number) == text else None


# ---- reading the rows

class NoSuchSheet(PnpError):
    """A `#Sheet` the file does not have: the mistake is where the sheet is named."""


def read_rows(path: Path, sheet: str | None, unsaved: dict[tuple[int, int], PnpError] | None = None
              ) -> tuple[list[tuple[int, list[Any]]], str]:
    """The non-blank rows as (row number, cells), and how messages name the sheet. A formula
    with no saved value is an error at its cell: put in `unsaved` by (row, column) when given,
    to be told with the sheet's other problems, else raised at once."""
    if path.suffix.lower() == ".xlsx":
        return xlsx_rows(path, sheet, unsaved)
    if sheet is not None:
        raise NoSuchSheet(f"'#{sheet}' picks a sheet, but a {path.suffix} file has only one",
                          file=display_path(path))
    return text_rows(path), ""


def text_rows(path: Path) -> list[tuple[int, list[Any]]]:
    if path.stat().st_size > MAX_FILE_BYTES:
        raise PnpError(f"more than {MAX_FILE_BYTES // 2**20} MB: more than a deck needs", file=display_path(path))
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PnpError(f"not UTF-8 text (byte {exc.start + 1}): save the sheet as "
                       f"'CSV UTF-8'", file=display_path(path)) from None
    if path.suffix.lower() == ".tsv":
        delimiter = "\t"
    else:
        first = text.split("\n", 1)[0]
        delimiter = ";" if first.count(";") > first.count(",") else ","
    check_quotes_close(text, delimiter, path)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        rows = list(enumerate(reader, 1))
    except csv.Error as exc:
        raise PnpError(f"row {reader.line_num}: {exc}", file=display_path(path)) from None
    return [(n, cells) for n, cells in rows if not all(blank(c) for c in cells)]


def check_quotes_close(text: str, delimiter: str, path: Path) -> None:
    """A quote that opens a cell and is never closed takes every row after it into that cell:
    a deck of one card, without a word. So does one closed only by a later cell's opening quote
    (`Di,"z"`: text runs on after it). Told at the row where it opens. Quotes are read as the
    CSV reader reads them (one opens a cell only at its start; `""` inside a quoted cell is a
    quote), looking at the quotes alone: a big sheet has few."""
    if '"' not in text:
        return
    row, counted_to = 1, 0   # the rows (records) that end before `counted_to`
    quoted, escaped, opened_at = False, False, 0
    for match in QUOTE.finditer(text):
        at = match.start()
        if escaped:
            escaped = False
        elif quoted:
            if text.startswith('""', at):
                escaped = True   # a quote within the cell
                continue
            quoted = False
            # a quote at a cell's start, with text after it: the next cell's opening quote, taken
            # for this one's close, the rows between read into one cell
            after, before = text[at + 1:at + 2], text[at - 1]
            if before in (delimiter, "\n", "\r") and after not in ("", delimiter, "\n", "\r") \
                    and LINE_BREAK.search(text, counted_to, at):
                raise unclosed(path, row, "and runs on past the row it opens on, to a quote that opens another cell")
            counted_to = at   # line breaks inside the cell end no row
        elif at == 0 or text[at - 1] in (delimiter, "\n", "\r"):
            row += len(LINE_BREAK.findall(text, counted_to, at))
            quoted, opened_at, counted_to = True, row, at
    if quoted:
        raise unclosed(path, opened_at, "and is never closed")


def unclosed(path: Path, row: int, how: str) -> PnpError:
    return PnpError(f"row {row}: a quote (\") opens a cell {how}, so the rows after it would be read into "
                    f"that one cell", file=display_path(path),
                    hint="close the quote, or double it (\"\") where it belongs to the text")


LINE_BREAK = re.compile(r"\r\n|\n|\r")
QUOTE = re.compile('"')


def sheet_names(path: Path) -> list[str]:
    """A workbook's sheets, in order ([] for a CSV or TSV, or a file openpyxl cannot open)."""
    if path.suffix.lower() != ".xlsx":
        return []
    import openpyxl
    try:
        return list(openpyxl.load_workbook(path, read_only=True).sheetnames)
    except Exception:   # noqa: BLE001 - reading it for rows has told why already
        return []


def xlsx_rows(path: Path, sheet: str | None, unsaved: dict[tuple[int, int], PnpError] | None = None
              ) -> tuple[list[tuple[int, list[Any]]], str]:
    import openpyxl
    check_unpacked_size(path)
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:   # openpyxl raises many kinds for a file that is not a workbook
        raise PnpError(f"not a readable XLSX workbook ({exc})", file=display_path(path)) from None
    try:
        if sheet is None:
            if not book.worksheets:
                raise PnpError("the workbook has no sheets", file=display_path(path))
            chosen = book.worksheets[0]
        elif sheet in book.sheetnames:
            chosen = book[sheet]
        else:
            raise NoSuchSheet(f"no sheet '{sheet}' in the workbook",
                              file=display_path(path), hint=did_you_mean(sheet, book.sheetnames)
                              or f"its sheets: {', '.join(book.sheetnames)}")
        place = f"sheet {chosen.title}, "
        xml = sheet_xml(chosen)
        rows_used, columns_used = extent(xml, path, place)
        try:
            rows = [(n, list(cells)) for n, cells in enumerate(
                chosen.iter_rows(max_row=rows_used, max_col=columns_used, values_only=True), 1)]
        except Exception as exc:   # noqa: BLE001 - openpyxl's parser, on a damaged sheet
            raise PnpError(f"not a readable XLSX sheet ({exc.__class__.__name__}: {str(exc)[:100]})",
                           file=display_path(path)) from None
        if xml is not None and FORMULA.search(xml):
            found = unsaved_formulas(path, chosen.title, rows, rows_used, columns_used, place)
            if unsaved is not None:
                unsaved.update(found)
            elif found:
                raise combined(list(found.values()))
        fill_merged_down(rows, merged_ranges(xml))
        return [(n, cells) for n, cells in rows if not all(blank(c) for c in cells)], place
    finally:
        book.close()


MERGE_CELL = re.compile(rb'<(?:\w+:)?mergeCell\s+ref="([A-Z]+[0-9]+:[A-Z]+[0-9]+)"')
# A tag's attributes never hold a `<`: each scan stops at the next one, where a scan to the next
# `>` ran over the rest of the file from every `<c` (a 5 KB workbook of `<c <c <c ...`: minutes).
# A cell with content (`<c r="B7" t="s"><v>3</v></c>`), not an empty styled one (`<c r="B7" s="1"/>`).
FILLED_CELL = re.compile(rb'<(?:\w+:)?c\b[^<>]*?\br="([A-Z]{1,3})([0-9]{1,7})"[^<>]*?(?<!/)>')
ANY_CELL = re.compile(rb'<(?:\w+:)?c[\s>/]')
CELL_WITH_REFERENCE = re.compile(rb'<(?:\w+:)?c\b[^<>]*?\br="')
ROW = re.compile(rb'<(?:\w+:)?row\b[^<>]*?\br="([0-9]{1,7})"')
FORMULA = re.compile(rb'<(?:\w+:)?f[\s>/]')


def check_unpacked_size(path: Path) -> None:
    """An XLSX is a zip: a small file can unpack to gigabytes. Checked before any is read; then
    no part may hold one piece of XML (a comment, a text) longer than MAX_XML_PIECE, which the
    XML reader takes time in the square of (90 MB of comment: three minutes)."""
    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
            if unpacked > MAX_UNPACKED_BYTES:
                raise PnpError(f"the workbook unpacks to {unpacked // 2**20:,} MB, more than pnp reads "
                               f"({MAX_UNPACKED_BYTES // 2**20} MB)", file=display_path(path),
                               hint="keep only the card sheet in the workbook, or save it as CSV")
            for info in archive.infolist():
                if info.filename.endswith((".xml", ".rels")) and info.file_size > MAX_XML_PIECE:
                    longest = longest_piece(archive.read(info))
                    if longest > MAX_XML_PIECE:
                        raise PnpError(f"the workbook's {info.filename} holds one piece of {longest // 2**20:,} MB "
                                       f"(a comment or a text), more than a sheet of cards has; it looks damaged",
                                       file=display_path(path),
                                       hint="open the workbook in a spreadsheet app and save it, or save it as CSV")
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError) as exc:
        raise PnpError(f"not a readable XLSX workbook ({exc})", file=display_path(path)) from None


MAX_XML_PIECE = 2**20   # one comment, text or section in a workbook's XML: a cell holds 32,767 characters


def longest_piece(xml: bytes) -> int:
    """The longest run of the XML its reader takes as one piece: a comment, a CDATA section
    or a processing instruction (each to its end marker), or text between two tags."""
    longest = max(map(len, xml.split(b"<")))   # text between tags: one pass, whatever the text
    for start, end in ((b"<!--", b"-->"), (b"<![CDATA[", b"]]>"), (b"<?", b"?>")):
        at = xml.find(start)
        while at >= 0:
            close = xml.find(end, at + len(start))
            stop = len(xml) if close < 0 else close + len(end)
            longest = max(longest, stop - at)
            at = xml.find(start, stop)
    return longest


def sheet_xml(worksheet: Any) -> bytes | None:   # an openpyxl read-only worksheet (untyped)
    """The sheet's own XML (a read-only sheet keeps its merged cells and extent to itself)."""
    try:
        with worksheet.parent._archive.open(worksheet._worksheet_path) as source:
            xml: bytes = source.read()
            return xml
    except (AttributeError, KeyError):   # another openpyxl: read as openpyxl sees it
        return None


def extent(xml: bytes | None, path: Path, place: str) -> tuple[int, int]:
    """The rows and columns that hold values, from where the cells really are (the sheet's
    `dimension` may claim anything): refused past the limits before a row is read."""
    from openpyxl.utils.cell import column_index_from_string
    if xml is None:
        return MAX_ROWS, MAX_COLUMNS
    rows = columns = 0
    lowest = widest = ""      # the cells that set the extent, for the message
    for letters, number in FILLED_CELL.findall(xml):
        row, column = int(number), column_index_from_string(letters.decode())
        if row > rows:
            rows, lowest = row, (letters + number).decode()
        if column > columns:
            columns, widest = column, (letters + number).decode()
    if len(ANY_CELL.findall(xml)) > len(CELL_WITH_REFERENCE.findall(xml)):
        # cells without a reference (some writers): counted in order, so assume the widest
        rows = max([rows] + [int(n) for n in ROW.findall(xml)] + [xml.count(b"<row")])
        columns = MAX_COLUMNS
    if rows > MAX_ROWS or columns > MAX_COLUMNS or rows * columns > MAX_CELLS:
        far = lowest if rows > MAX_ROWS else widest if columns > MAX_COLUMNS else f"{lowest} and {widest}"
        raise PnpError(f"{place}values reach cell {far or rows}: {rows:,} rows by {columns:,} columns, "
                       f"more than pnp reads (at most {MAX_ROWS:,} rows, {MAX_COLUMNS} columns, "
                       f"{MAX_CELLS:,} cells)", file=display_path(path),
                       hint="delete what lies past your cards, or keep them on a sheet of their own")
    return max(rows, 1), max(columns, 1)


def unsaved_formulas(path: Path, title: str, rows: list[tuple[int, list[Any]]], rows_used: int, columns_used: int,
                     place: str) -> dict[tuple[int, int], PnpError]:
    """A formula whose result the file does not hold (written by a script, never opened in a
    spreadsheet app) would print blank: an error at each such cell, by (row, column)."""
    import openpyxl
    problems: dict[tuple[int, int], PnpError] = {}
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=False)
        formulas = list(book[title].iter_rows(max_row=rows_used, max_col=columns_used, values_only=True))
    except Exception as exc:   # noqa: BLE001 - read once already: damaged only in its formulas
        raise PnpError(f"not a readable XLSX sheet ({exc.__class__.__name__})", file=display_path(path)) from None
    headings = next((cells for _, cells in rows if not all(blank(c) for c in cells)), [])   # the first row used
    try:
        for (n, values), written in zip(rows, formulas):
            for col, (value, formula) in enumerate(zip(values, written)):
                if value is None and formula is not None and not isinstance(formula, (int, float, bool)) \
                        and (not isinstance(formula, str) or formula.startswith("=")):
                    heading = headings[col] if col < len(headings) and headings[col] not in (None, "") else ""
                    cell = Where(display_path(path), None, f"{place}row {n}, column {column_letter(col)}"
                                 + (f" ({str(heading).strip()})" if heading else ""))
                    problems[n, col] = cell.error(   # named as every other cell is: "cards.xlsx, sheet Crew, row 3"
                        f"the formula {short(getattr(formula, 'text', formula))} has no saved value",
                        hint="open the workbook in a spreadsheet app and save it, so each formula's result is stored")
    finally:
        book.close()
    return problems


def merged_ranges(xml: bytes | None) -> list[tuple[int, int, int, int]]:
    """The sheet's merged cells as (first column, first row, last column, last row). A read-only
    sheet (kept for speed on big sheets) does not parse them, so they are read from its XML."""
    from openpyxl.utils.cell import range_boundaries
    if xml is None or b"mergeCell" not in xml:
        return []
    return [range_boundaries(ref.decode()) for ref in MERGE_CELL.findall(xml)]


def fill_merged_down(rows: list[tuple[int, list[Any]]], ranges: list[tuple[int, int, int, int]]) -> None:
    """A cell merged down several rows (a card type written once beside its cards) gives its
    value to each of those rows, as the sheet shows it; merged across, it stays in its column."""
    by_number = {n: cells for n, cells in rows}
    for first_col, first_row, _, last_row in ranges:
        anchor = by_number.get(first_row)
        if anchor is None or first_col > len(anchor):
            continue
        value = anchor[first_col - 1]
        for n in range(first_row + 1, last_row + 1):
            cells = by_number.get(n)
            if cells is None:
                continue
            cells.extend([None] * (first_col - len(cells)))
            cells[first_col - 1] = value
