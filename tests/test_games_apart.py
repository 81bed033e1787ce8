"""`pnp build` of several games builds them in processes of their own (issue 31, every core):
the files, the report and the exit status are one process's, a game that fails included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import run


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def every_file(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".pnp.lock"}


@pytest.fixture
def games_forked(monkeypatch) -> list[set[str]]:
    """The games each call shared out to processes finished there."""
    from pnp import processes
    apart: list[set[str]] = []
    real = processes.forked
    monkeypatch.setattr(processes, "forked", lambda *args, **kw: (apart.append(set(found := real(*args, **kw))), found)[1])
    return apart


def test_games_built_apart_give_the_files_and_report_of_one_process(root, tmp_path, games_forked):
    edit(root / "card_data/jukem/cards.yaml", "title: {type: text", "title: {type: txet")   # a load error
    # a warning: tokens touching, 8 across, leave no margin for marks on Letter
    edit(root / "card_data/monster-ball/game.yaml", "front: monster-ball/token", "front: monster-ball/token\n    gap: 0mm")
    one = run("build", "--all", "--out", str(tmp_path / "one"), "--jobs", "1", root=root)
    assert games_forked == []
    two = run("build", "--all", "--out", str(tmp_path / "two"), "--jobs", "2", root=root)
    assert games_forked == [{"12th-player", "big-ten", "monster-ball"}]   # jukem failed there, told here

    def told(result, out: str) -> str:
        return re.sub(r"\d+\.\d\d s\b", "T s", result.output.replace(str(tmp_path / out), "OUT"))
    assert (two.exit_code, told(two, "two"), two.stderr) == (one.exit_code, told(one, "one"), one.stderr)
    assert one.exit_code == 1 and "jukem/cards.yaml" in one.stderr
    assert "warning: monster-ball: tokens: the horizontal cut" in one.stderr
    assert told(one, "one").index("12th-player:") < told(one, "one").index("big-ten:") < told(one, "one").index("monster-ball:")
    assert every_file(tmp_path / "two") == every_file(tmp_path / "one")   # records and manifests too
    assert len(every_file(tmp_path / "one")) > 30


def test_games_already_up_to_date_are_not_shared_out(root, tmp_path, games_forked):
    """A build where one game changed draws that game alone, in this process (its own
    components may still go to processes)."""
    out = str(tmp_path / "out")
    assert run("build", "--all", "--out", out, "-q", root=root).exit_code == 0
    assert games_forked == [{"12th-player", "big-ten", "jukem", "monster-ball"}]
    edit(root / "card_data/big-ten/defense.yaml", 'name: "Run Blitz"', 'name: "Safety Blitz"')
    again = run("build", "--all", "--out", out, root=root)
    assert again.exit_code == 0 and games_forked == [{"12th-player", "big-ten", "jukem", "monster-ball"}]
    assert "jukem: up to date" in again.output and "big-ten:\n" in again.output


def test_ctrl_c_while_games_built_apart_are_written_waits_for_the_renames(mini, tmp_path):
    """The games drawn in other processes are written by the command itself, game by game: a
    Ctrl-C to the whole group (as a terminal sends it) while a game's files are renamed lets
    them finish and says so. Written in the processes, the files were killed mid-rename with
    the message that the folder was as it was."""
    import os
    import shutil
    import signal
    import subprocess
    import sys
    import time
    shutil.copytree(mini / "card_data/mini", mini / "card_data/other")
    out = tmp_path / "out"
    assert run("build", "--all", "--out", str(out), "-q", root=mini).exit_code == 0
    for game in ("mini", "other"):
        edit(mini / f"card_data/{game}/cards.yaml", "Moves in an L.", "Jumps.")
    marker = tmp_path / "renaming"
    process = subprocess.Popen([sys.executable, "-m", "pnp", "build", "--all", "--out", str(out), "--root", str(mini),
                                "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                               env={**os.environ, "PNP_TEST_POINT": f"renaming:{marker}"})
    deadline = time.monotonic() + 120
    while not marker.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGINT)
    marker.unlink()
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 130 and b"Traceback" not in errors
    assert b"holds this build's files" in errors and b"as it was" not in errors, errors
    left = [p.name for p in out.rglob("*") if p.name.startswith((".pnp-part.", ".pnp-old.", ".pnp-journal"))]
    assert left == []


def test_a_big_game_is_not_shared_out_but_built_by_the_command(mini, tmp_path, games_forked):
    """A game over SMALL_GAME shares its own components out instead: the command, which writes
    what processes hand back, never holds two big games' files at once (a review measured 676 MB
    against 300 MB for four big decks with a shop's pictures)."""
    import shutil

    from pnp.commands.games_apart import SMALL_GAME
    for copy in ("other", "huge"):
        shutil.copytree(mini / "card_data/mini", mini / f"card_data/{copy}")
    cards = mini / "card_data/huge/cards.yaml"
    cards.write_text("# " + "x" * SMALL_GAME + "\n" + cards.read_text())
    built = run("build", "--all", "--out", str(tmp_path / "out"), "--jobs", "2", root=mini)
    assert built.exit_code == 0, built.stderr
    assert games_forked == [{"mini", "other"}]
    assert (tmp_path / "out/huge/cards-a4.pdf").is_file()


def test_each_game_drawn_apart_is_written_as_it_comes_in(mini, tmp_path, monkeypatch):
    """The command writes a game as soon as its process hands it back, so it holds one game's
    files at a time, not every game's until the last is drawn."""
    import shutil

    from pnp.commands import build, games_apart
    shutil.copytree(mini / "card_data/mini", mini / "card_data/other")
    events: list[str] = []
    real_written, real_apart = build.Prepared.written, games_apart.games_apart

    def written(self):
        if self.kept is None:
            events.append(f"written {self.folder.folder.name}")
        return real_written(self)

    def apart(*args, **kw):
        found = real_apart(*args, **kw)
        events.append("all drawn")
        return found
    monkeypatch.setattr(build.Prepared, "written", written)
    monkeypatch.setattr(games_apart, "games_apart", apart)
    assert run("build", "--all", "--out", str(tmp_path / "out"), "--jobs", "2", root=mini).exit_code == 0
    assert sorted(events[:2]) == ["written mini", "written other"] and events[2:] == ["all drawn"], events


def test_a_language_refused_stops_its_game_as_in_one_process(root, tmp_path, games_forked):
    """A game's German files are refused (a file of someone else's in the way): one process
    never draws its Hebrew edition, so never tells that edition's warnings, and the report
    drawn apart is the same (a review found the Hebrew warning told there alone)."""
    import shutil
    for game in ("big-ten", "jukem", "monster-ball"):
        shutil.rmtree(root / "card_data" / game)
    shutil.copytree(root / "card_data/12th-player", root / "card_data/twelfth")
    edit(root / "card_data/12th-player/lang/he.yaml", '"Copies": "', '"Copies": "" #')   # warned: not translated
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        (out / "12th-player").mkdir(parents=True)
        (out / "12th-player/rules-letter-de.pdf").write_bytes(b"%PDF-1.4 mine")
        result = run("build", "--all", "--lang", "all", "--out", str(out), "--jobs", jobs, root=root)
        reports.append((result.exit_code, result.stderr.replace(str(out), "OUT")))
    assert games_forked == [{"12th-player", "twelfth"}]
    assert reports[0] == reports[1]
    assert reports[0][0] == 1 and "rules-letter-de.pdf was not written by pnp" in reports[0][1]
    assert "'Copies' is not translated" not in reports[0][1]


def test_a_ctrl_c_after_a_game_is_written_tells_what_it_wrote(mini, tmp_path, monkeypatch, capsys):
    """A Ctrl-C while another game is still drawn: the games written by then are listed, as one
    process lists each game as it ends, and the message says so (a review found them written
    without a word, under "the output folder is as it was")."""
    import shutil
    import sys

    from pnp.cli import main
    from pnp.commands import games_apart
    shutil.copytree(mini / "card_data/mini", mini / "card_data/other")
    real = games_apart.games_apart

    def interrupted_after_the_first(project, ids, task, jobs, done):
        def first_then_ctrl_c(game_id, drawn):
            done(game_id, drawn)
            raise KeyboardInterrupt
        return real(project, ids, task, jobs, first_then_ctrl_c)
    monkeypatch.setattr(games_apart, "games_apart", interrupted_after_the_first)
    out = tmp_path / "out"
    monkeypatch.setattr(sys, "argv", ["pnp", "build", "--all", "--out", str(out), "--jobs", "2", "--root", str(mini)])
    with pytest.raises(SystemExit) as ended:
        main()
    told = capsys.readouterr()
    assert ended.value.code == 130
    written = [game for game in ("mini", "other") if (out / game / "cards-a4.pdf").exists()]
    assert len(written) == 1, written
    assert f"{written[0]}:\n  {out / written[0] / 'cards-a4.pdf'}" in told.out, told.out
    assert f"{({'mini', 'other'} - set(written)).pop()}:" not in told.out
    assert "the games listed above were written, and the output folders of the others are as they were" in told.err


def test_a_ctrl_c_in_one_process_after_a_game_says_the_games_listed_were_written(mini, tmp_path, monkeypatch, capsys):
    """In one process too: the first game written and listed, a Ctrl-C in the second."""
    import shutil
    import sys

    from pnp import cli
    from pnp.commands import build
    shutil.copytree(mini / "card_data/mini", mini / "card_data/other")
    real = build.build_as_asked

    def second_interrupted(project, game_id, *args):
        if game_id == "other":
            raise KeyboardInterrupt
        return real(project, game_id, *args)
    monkeypatch.setattr(build, "build_as_asked", second_interrupted)
    monkeypatch.setattr(sys, "argv", ["pnp", "build", "--all", "--out", str(tmp_path / "out"), "--jobs", "1",
                                      "--root", str(mini)])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    told = capsys.readouterr()
    assert ended.value.code == 130 and "mini:\n" in told.out and "other:" not in told.out
    assert "the games listed above were written, and the output folders of the others are as they were" in told.err
