"""Every core (issue 31, item 5): a long deck is drawn in parts that processes draw at once,
and the game's rules are checked in another process while the build draws. The pages, the
bytes and the report are those of one process."""

from __future__ import annotations

import os
import re

import pypdfium2
import pytest

from conftest import build, run

DECK = "jukem/cards-letter.pdf"   # 56 cards, 9 a sheet: 7 sheets, each with its page of backs


@pytest.fixture
def short_parts(monkeypatch):
    """Parts of two sheets, so the bundled Jukem deck (7 sheets) is drawn in four."""
    from pnp.render import parts
    monkeypatch.setattr(parts, "SHEETS_A_PART", 2)
    assert [len(part) for part in parts.parts_of(7)] == [1, 2, 2, 2]


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def pictures(path) -> list[bytes]:
    document = pypdfium2.PdfDocument(str(path))
    return [document[index].render(scale=0.5).to_pil().tobytes() for index in range(len(document))]


def streams_in(data: bytes) -> list[bytes]:
    """Every stream object of a PDF, whole (its dictionary, references included, and data)."""
    return [body for body in re.findall(rb"\n\d+ 0 obj\n(.*?)\nendobj\n", data, re.DOTALL) if b"stream" in body]


def test_a_deck_drawn_in_parts_shows_the_pages_of_one_canvas(root, tmp_path, monkeypatch, short_parts):
    build(root, "jukem", tmp_path / "parts", "--jobs", "1")
    from pnp.render import parts
    monkeypatch.setattr(parts, "SHEETS_A_PART", 1000)
    build(root, "jukem", tmp_path / "whole", "--jobs", "1")
    parted, whole = tmp_path / "parts" / DECK, tmp_path / "whole" / DECK
    assert parted.read_bytes() != whole.read_bytes()   # joined from four files
    assert pictures(parted) == pictures(whole)   # 14 pages, each as one canvas draws it
    # each part draws every look it stamps once more; the joined file holds each stream once
    streams = streams_in(parted.read_bytes())
    assert len(streams) > 20 and len(set(streams)) == len(streams)
    assert len(streams) < len(streams_in(whole.read_bytes())) + 20   # a few looks with text differ by part
    print_all = tmp_path / "parts/jukem/jukem-print-all-letter.pdf"
    assert pictures(print_all)[2:2 + 14] == pictures(whole)   # after the cover and its blank back


def test_a_deck_drawn_in_parts_by_two_processes_writes_the_bytes_of_one(root, tmp_path, monkeypatch, short_parts):
    from pnp import processes
    apart: list[set[str]] = []
    real = processes.forked
    monkeypatch.setattr(processes, "forked", lambda *args: (apart.append(set(found := real(*args))), found)[1])
    one = build(root, "jukem", tmp_path / "one", "--jobs", "1")
    assert apart == []
    two = build(root, "jukem", tmp_path / "two", "--jobs", "2")
    assert {"0", "1", "2", "3"} in apart   # the deck's four parts, drawn in the other processes
    for name in ("cards-letter.pdf", "jukem-print-all-letter.pdf", ".pnp-build.json"):
        assert (tmp_path / "one/jukem" / name).read_bytes() == (tmp_path / "two/jukem" / name).read_bytes(), name
    assert one.stderr == two.stderr


def test_the_rules_checked_while_drawing_refuse_the_build_as_before(root, tmp_path, monkeypatch):
    """The rules are checked in a forked process while the build draws: a build they refuse
    tells their problems and nothing drawing said (a token sheet's warning here, said before
    the rules' answer came: the check is made slow), writes nothing, and exits 1, as when they
    were checked before anything was drawn."""
    import time

    from pnp.project import Project
    forks = []
    real_fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: (forks.append(1), real_fork())[1])
    game = root / "card_data/monster-ball/game.yaml"
    edit(game, "front: monster-ball/token", "front: monster-ball/token\n    gap: 0mm")   # warns as drawn
    drawn = run("build", "--game", "monster-ball", "--out", str(tmp_path / "drawn"), "--jobs", "1", root=root)
    assert "the horizontal cut" in drawn.stderr
    real_problems = Project.problems
    monkeypatch.setattr(Project, "problems", lambda *args: (time.sleep(1.5), real_problems(*args))[1])
    edit(game, "expect: {law: 8, chaos: 8}", "expect: {law: 9, chaos: 8}")   # a count the deck does not have
    results = {}
    for jobs in ("1", "2"):
        forks.clear()
        results[jobs] = run("build", "--game", "monster-ball", "--out", str(tmp_path / jobs), "--jobs", jobs,
                            root=root)
        assert bool(forks) == (jobs == "2")   # checked in a forked process only with two jobs
        assert not (tmp_path / jobs / "monster-ball").exists() or not any((tmp_path / jobs / "monster-ball").glob("*.pdf"))
    one, two = results["1"], results["2"]
    assert one.exit_code == two.exit_code == 1
    assert (one.output, one.stderr) == (two.output, two.stderr)
    assert "game.yaml" in two.stderr and "the horizontal cut" not in two.stderr


def test_work_ahead_comes_from_another_process_and_fails_here_as_it_would():
    from pnp.processes import Ahead
    assert Ahead(os.getpid, 2).result() != os.getpid()
    assert Ahead(os.getpid, 1).result() == os.getpid()
    failing = Ahead(lambda: 1 / 0, 2)
    with pytest.raises(ZeroDivisionError):   # failed there: done again here, for its own error
        failing.result()


def test_validating_one_game_checks_its_rules_while_drawing_and_reports_as_one_process(root, monkeypatch):
    forks = []
    real_fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: (forks.append(1), real_fork())[1])
    edit(root / "card_data/monster-ball/game.yaml", "expect: {law: 8, chaos: 8}", "expect: {law: 9, chaos: 8}")
    one = run("validate", "--game", "monster-ball", "--jobs", "1", root=root)
    assert forks == []
    two = run("validate", "--game", "monster-ball", "--jobs", "2", root=root)
    assert forks   # the rules were checked in a forked process
    assert one.exit_code == two.exit_code == 1
    assert (one.output, one.stderr) == (two.output, two.stderr)
    assert "law" in one.output + one.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_rule_problem_is_told_before_a_broken_translation_as_when_checked_first(root, tmp_path, jobs):
    """Whatever fails while the build gets ready to draw (a translation file it cannot read,
    here) comes after the rules, which were checked first before they ran alongside."""
    edit(root / "card_data/12th-player/game.yaml", "equals: 17", "equals: 18")
    edit(root / "card_data/12th-player/lang/de.yaml", "language: Deutsch", "language: [Deutsch")
    result = run("build", "--game", "12th-player", "--lang", "de", "--out", str(tmp_path), "--jobs", jobs,
                 root=root)
    assert result.exit_code == 1
    assert "18" in result.stderr and "game.yaml" in result.stderr, result.stderr
    assert "de.yaml" not in result.stderr


def test_a_build_its_rules_refuse_draws_nothing_in_one_process(root, tmp_path, monkeypatch):
    """Checked here (one process), the rules refuse the build before a page is drawn."""
    from reportlab.pdfgen.canvas import Canvas
    shown = []
    real_show = Canvas.showPage
    monkeypatch.setattr(Canvas, "showPage", lambda self: (shown.append(1), real_show(self))[1])
    edit(root / "card_data/jukem/game.yaml", "equals: 56", "equals: 57")
    result = run("build", "--game", "jukem", "--out", str(tmp_path), "--jobs", "1", root=root)
    assert result.exit_code == 1 and "57" in result.stderr
    assert shown == []


def test_a_build_its_rules_refuse_stops_drawing_once_they_are_in(root, tmp_path, monkeypatch):
    """Checked alongside (two jobs), the rules' answer ends the drawing when it comes, and the
    processes drawing with it, rather than after every page: each page here takes a fifth of
    a second, the check far less."""
    import time

    from reportlab.pdfgen.canvas import Canvas
    shown = tmp_path / "shown"   # a byte for each page, whichever process drew it
    real_show = Canvas.showPage

    def show(self):
        with open(shown, "ab") as pages:
            pages.write(b".")
        time.sleep(0.2)
        real_show(self)
    monkeypatch.setattr(Canvas, "showPage", show)
    edit(root / "card_data/jukem/game.yaml", "equals: 56", "equals: 57")
    result = run("build", "--game", "jukem", "--out", str(tmp_path / "out"), "--jobs", "2", root=root)
    assert result.exit_code == 1 and "57" in result.stderr
    assert len(shown.read_bytes() if shown.exists() else b"") < 14   # of the game's 17 pages
    assert not (tmp_path / "out/jukem").exists() or not any((tmp_path / "out/jukem").glob("*.pdf"))


def test_a_process_working_alongside_ends_when_its_parent_is_killed(tmp_path):
    """A signal to pnp alone (a CI job cancelled, `timeout`) left its processes waiting on
    their pipes for ever, holding the output open."""
    import subprocess
    import sys
    import time
    script = tmp_path / "parent.py"
    script.write_text("import time\nfrom pnp.processes import Ahead\n"
                      "ahead = Ahead(lambda: time.sleep(60), 2)\n"
                      "print(ahead.child[0], flush=True)\ntime.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    parent.kill()
    parent.wait()

    def alive(pid: int) -> bool:
        try:
            state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return False
        return state not in ("Z", "X")
    deadline = time.monotonic() + 10
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)


def _dies_once_answered(id: str) -> tuple[str, int]:
    import signal
    if id == "a":   # killed (as by the system) 50 ms after it answers, while waiting for more
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.setitimer(signal.ITIMER_REAL, 0.05)
    return id.upper(), os.getpid()


def test_a_worker_killed_between_tasks_leaves_them_to_the_others_or_the_caller():
    import time

    from pnp.processes import forked
    found = forked(["a", "b", "c", "d"], _dies_once_answered, 2, lambda: time.sleep(0.3))
    assert found["a"][0] == "A"
    assert all(found[id][0] == id.upper() for id in found)   # the rest: done by the other, or left
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)   # no process left behind


def test_a_build_that_fails_otherwise_leaves_no_process_behind(root, tmp_path, monkeypatch):
    """Interrupted, or stopped by pnp's own bug, a build ends the process checking its rules."""
    from pnp.commands import build
    from pnp.project import Project
    from pnp.request import BuildRequest

    def broken(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(build, "render_all", broken)
    with pytest.raises(KeyboardInterrupt):
        build.build_game(Project(root), "jukem", tmp_path, None, BuildRequest().options_for("letter"), jobs=2)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@pytest.mark.parametrize("refused", [True, False])
def test_the_progress_starts_once_the_rules_let_the_build_go_on(root, tmp_path, refused):
    """A refused build showed no progress bar when its rules came first; checked alongside,
    the bar waits for them, then shows every step done meanwhile."""
    from pnp.commands.build import build_game
    from pnp.errors import ValidationFailed
    from pnp.project import Project
    from pnp.request import BuildRequest
    if refused:
        edit(root / "card_data/jukem/game.yaml", "equals: 56", "equals: 57")
    started, moved = [], []

    def progress(total):
        started.append(total)
        return lambda steps=1: moved.append(steps)
    options = BuildRequest().options_for("letter")
    if refused:
        with pytest.raises(ValidationFailed):
            build_game(Project(root), "jukem", tmp_path, None, options, progress=progress, jobs=2)
        assert started == []
    else:
        build_game(Project(root), "jukem", tmp_path, None, options, progress=progress, jobs=2)
        assert len(started) == 1 and sum(moved) == started[0]
