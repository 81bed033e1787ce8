"""One error type for everything a user can get wrong: it prints as one sentence."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path


class PnpError(Exception):
    """A problem with the user's input, told as `file:line: field: what is wrong`."""

    def __init__(self, message: str, *, file: str | Path | None = None, line: int | None = None,
                 field: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.field = field
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        field = f"{self.field}: " if self.field else ""
        if self.file:
            if not self.line and self.field and is_row(self.field):   # a spreadsheet row: no line
                where, field = f"{self.file}, {self.field}: ", ""
            else:
                where = self.file + (f":{self.line}" if self.line else "") + ": "
        hint = f" ({self.hint})" if self.hint else ""
        return f"{where}{field}{self.message}{hint}"


def is_row(field: str) -> bool:
    """Whether a field names a spreadsheet row (`row 7`, `sheet Cards, row 7, column B (name)`),
    which has no line of its own."""
    return field.startswith(("row ", "sheet ")) and "row " in field


class ManyProblems(PnpError):
    """Several problems found in one pass, told one line each (the first 50 at most)."""

    def __init__(self, problems: list[str], summary: str):
        super().__init__(summary)
        self.problems = problems


class ValidationFailed(ManyProblems):
    """The decks disagree with the contents the game's rules state: nothing is built."""

    def __init__(self, problems: list[str]):
        super().__init__(problems, f"{len(problems)} rule problem(s); nothing was built")


def did_you_mean(name: str, choices: Iterable[object]) -> str | None:
    """A hint naming the closest known choice, or None when nothing is close."""
    close = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def known(choices: Iterable[object]) -> str:
    return ", ".join(sorted(str(c) for c in choices))


def display_path(path: Path) -> str:
    """The path as the user would type it: relative to the current folder when inside it. A
    link is named itself, not where it leads (a message about the link would name its target)."""
    absolute = Path(path) if Path(path).is_absolute() else Path.cwd() / path
    try:
        shown = absolute.resolve() if absolute.name in ("", ".", "..") else absolute.parent.resolve() / absolute.name
        return str(shown.relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


def type_name(value: object) -> str:
    if isinstance(value, bool):
        return f"true/false ({value})"
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text '{value}'"
    if value is None:
        return "nothing"
    return type(value).__name__


def in_one_line(text: str, most: int = 40) -> str:
    """`text` fit for a one-line message: each run of white space (line breaks too) as one
    space, cut to `most` characters with '...'."""
    flat = " ".join(text.split())
    return flat if len(flat) <= most else flat[:most - 3] + "..."
