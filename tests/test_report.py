"""The Report a command keeps: each game's problems as they come, warnings once, exit status."""

from __future__ import annotations

from pnp.diagnostics import MAX_SHOWN, Report
from pnp.errors import PnpError, ValidationFailed


def test_one_failed_game_does_not_stop_the_others_and_sets_the_exit_status(capsys):
    report = Report()

    def action(game_id):
        if game_id == "bad":
            raise PnpError("broken", file="game.yaml", line=3)
        return game_id.upper()

    assert report.each_game(["a", "bad", "b"], action) == {"a": "A", "b": "B"}
    assert report.exit_status == 1
    assert capsys.readouterr().err == "error: game.yaml:3: broken\n"


def test_a_failed_validation_tells_each_problem_then_the_sum(capsys):
    report = Report()
    report.failed(ValidationFailed(["one", "two"]))
    assert capsys.readouterr().err == "error: one\nerror: two\n2 rule problem(s); nothing was built\n"
    assert report.exit_status == 1


def test_many_problems_are_cut_short_and_no_problems_is_success(capsys):
    report = Report()
    report.problems([])
    assert report.exit_status == 0
    report.problems([f"p{i}" for i in range(MAX_SHOWN + 5)], "g")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == MAX_SHOWN + 1
    assert lines[-1] == "error: ... and 5 more (pnp validate --game g --all-problems lists them all)"


def test_warnings_are_told_once_each(capsys):
    report = Report()
    for message in ("late", "late", "tight"):
        report.warn(message)
    report.tell_warnings()
    assert capsys.readouterr().err == "warning: late\nwarning: tight\n"
    assert report.exit_status == 0


def test_a_report_asked_for_every_problem_tells_every_one(capsys):
    report = Report(shown=None)
    report.problems([f"p{i}" for i in range(MAX_SHOWN + 5)], "g")
    lines = capsys.readouterr().err.splitlines()
    assert lines == [f"error: p{i}" for i in range(MAX_SHOWN + 5)]
