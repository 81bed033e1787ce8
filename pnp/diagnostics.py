"""What a run tells the user: warnings gathered while loading and drawing (told once each),
and the `Report` of a command (as Black's): each game's problems as they come, the warnings
at the end, and the exit status."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TypeVar

import click

from pnp.errors import ManyProblems, PnpError

MAX_SHOWN = 50   # problems shown one by one; past this, a count

Result = TypeVar("Result")


class Diagnostics:
    def __init__(self) -> None:
        self.warnings: list[str] = []
        self._seen: set[str] = set()
        self._heard: list[list[str]] = []   # for each `listening()` under way, what it was told
        self.game: str | None = None   # the game a run of several is at: its warnings name it

    def warn(self, message: str) -> None:
        for heard in self._heard:
            heard.append(message)
        told = f"{self.game}: {message}" if self.game else message
        if told not in self._seen:
            self._seen.add(told)
            self.warnings.append(told)

    def take_back(self, count: int) -> None:
        """Forget every warning told after the first `count`: what drawing a build said when
        the game's rules, checked meanwhile in another process, then refuse it (checked
        first, as in one process, nothing would have been drawn)."""
        for told in self.warnings[count:]:
            self._seen.discard(told)
        del self.warnings[count:]

    @contextlib.contextmanager
    def listening(self) -> Iterator[list[str]]:
        """Every warning given inside the block, told before or not: what a component's drawing
        warns of, kept in the build record to be told again when the drawing is reused."""
        heard: list[str] = []
        self._heard.append(heard)
        try:
            yield heard
        finally:   # by identity: an outer block may have heard the same words
            self._heard = [other for other in self._heard if other is not heard]


class Report(Diagnostics):
    """The warnings of a command's run, the problems it found and its exit status: 1 once
    any game failed, else 0."""

    def __init__(self, shown: int | None = MAX_SHOWN,
                 see_all: str = "pnp validate --game {game} --all-problems") -> None:
        """`shown`: the problems told one by one (None: every one); `see_all`: the command that
        tells the rest, told after their count ({game}: the game's id)."""
        super().__init__()
        self.failures = 0
        self.shown = shown
        self.see_all = see_all
        self._checking = "GAME"   # the game each_game is at, for `see_all`

    @property
    def exit_status(self) -> int:
        return 1 if self.failures else 0

    def problems(self, problems: list[str], game: str | None = None) -> None:
        """One game's problems, one red line each; any makes the run fail. `game`: whose they
        are, when not the game each_game is at."""
        if problems:
            self.failures += 1
        shown = problems if self.shown is None else problems[:self.shown]
        for problem in shown:
            click.secho(f"error: {problem}", fg="red", err=True)
        if len(problems) > len(shown):
            more = f"error: ... and {len(problems) - len(shown)} more"
            see_all = self.see_all.format(game=game or self._checking)
            click.secho(more + (f" ({see_all} lists them all)" if see_all else ""), fg="red", err=True)

    def failed(self, exc: PnpError) -> None:
        """A game that stopped: its one error, or every problem a check found and the sum."""
        if isinstance(exc, ManyProblems):
            self.problems(exc.problems)
            click.echo(exc.message, err=True)
        else:
            self.problems([str(exc)])

    def each_game(self, ids: list[str], action: Callable[[str], Result]) -> dict[str, Result]:
        """action(game_id) for every game; one game's problems do not stop the others.
        The results by game id, of the games that did not fail."""
        results: dict[str, Result] = {}
        for game_id in ids:
            self.game = game_id if len(ids) > 1 else None   # `cards: ...` is which game's cards?
            self._checking = game_id
            try:
                results[game_id] = action(game_id)
            except PnpError as exc:
                self.failed(exc)
            finally:
                self.game = None
        return results

    def tell_warnings(self) -> None:
        for warning in self.warnings:
            click.secho(f"warning: {warning}", fg="yellow", err=True)
