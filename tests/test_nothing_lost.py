"""A failed, interrupted or concurrent build never damages what is in the output folder, and
pnp never overwrites or deletes a file it did not write."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pypdf
import pytest

from conftest import build, pdf, run


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.suffix == ".pdf"}


def part_files(folder: Path) -> list[Path]:
    return list(folder.glob(".pnp-part.*")) + list(folder.glob(".pnp-old.*"))


def test_disk_full_on_the_second_file_writes_nothing(mini, tmp_path, monkeypatch):
    build(mini, "mini", tmp_path)
    folder = tmp_path / "mini"
    before = snapshot(folder)
    # Make the card text differ so a new build would change both files.
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("Moves in an L.", "Jumps."))
    import pnp.outputs.folder as output_folder
    real_fdopen = output_folder.os.fdopen
    opened = []

    def fdopen(fd, *args, **kwargs):
        handle = real_fdopen(fd, *args, **kwargs)
        if (args[0] if args else kwargs.get("mode", "r")) != "wb":
            return handle   # the lock and pnp's JSON files are read through fdopen too
        opened.append(handle)
        if len(opened) == 2:
            def full(_data):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            handle.write = full
        return handle

    monkeypatch.setattr(output_folder.os, "fdopen", fdopen)
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr and "as they were" in result.stderr
    assert snapshot(folder) == before
    assert part_files(folder) == []


def slow_game(mini: Path, copies: int = 200) -> int:
    """Make the mini deck big enough that a build takes a while; returns its size."""
    cards = mini / "card_data/mini/cards.yaml"
    extra = "".join(f"  - {{name: Pawn {i}, power: {i}, count: {copies}, text: 'Card {i} of many'}}\n"
                    for i in range(40))
    cards.write_text(cards.read_text() + extra)
    total = 6 + 40 * copies
    game = mini / "card_data/mini/game.yaml"
    game.write_text(game.read_text().replace("equals: 6", f"equals: {total}"))
    return total


def start_build(mini: Path, out: Path, point: str | None = None) -> subprocess.Popen:
    """A build in a process of its own; with `point`, it stops there (pnp.checkpoints) until
    `let_go` is called, having written a marker file to say it got there."""
    env = dict(os.environ)
    if point:
        env["PNP_TEST_POINT"] = f"{point}:{out / ('.reached-' + point)}"
    return subprocess.Popen([sys.executable, "-m", "pnp", "build", "--game", "mini", "--out", str(out),
                             "--root", str(mini)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def wait_until(process: subprocess.Popen, out: Path, point: str) -> None:
    """Until the build stands at `point`: told by its marker, not guessed from time."""
    marker = out / (".reached-" + point)
    deadline = time.monotonic() + 120
    while not marker.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"the build never reached {point}"
        time.sleep(0.01)


def let_go(out: Path, point: str) -> None:
    (out / (".reached-" + point)).unlink()


def test_ctrl_c_and_kill_leave_the_earlier_output_as_it_was(mini, tmp_path):
    build(mini, "mini", tmp_path)
    folder = tmp_path / "mini"
    before = snapshot(folder)
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("Moves in an L.", "Jumps."))   # a build would change the files
    process = start_build(mini, tmp_path, "rendering")
    wait_until(process, tmp_path, "rendering")
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"interrupted" in errors and b"as it was" in errors and b"Traceback" not in errors
    assert snapshot(folder) == before
    process = start_build(mini, tmp_path, "rendering")
    wait_until(process, tmp_path, "rendering")
    process.kill()
    process.wait(timeout=60)
    assert snapshot(folder) == before


def test_ctrl_c_during_the_renames_finishes_them_and_says_so(mini, tmp_path):
    """A Ctrl-C once one file is the new build's: the renames go on to the end (each file is
    wholly new) and the message says the folder holds this build's files, not the old ones."""
    build(mini, "mini", tmp_path)
    folder = tmp_path / "mini"
    before = snapshot(folder)
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("Moves in an L.", "Jumps."))
    build(mini, "mini", tmp_path / "new")
    new = snapshot(tmp_path / "new/mini")
    assert new != before
    process = start_build(mini, tmp_path, "renaming")
    wait_until(process, tmp_path, "renaming")
    process.send_signal(signal.SIGINT)
    let_go(tmp_path, "renaming")
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 130 and b"Traceback" not in errors
    assert b"holds this build's files" in errors and b"as it was" not in errors, errors
    assert snapshot(folder) == new
    assert part_files(folder) == [] and not (folder / ".pnp-journal.json").exists()


STARTING = """
import sys
from pnp.launch import main   # what the pnp command's script does first (a module of a few lines)
sys.argv = ["pnp", "build", "--game", "mini", "--root", {root!r}, "--out", {out!r}]
print("python is up", flush=True)   # Python's own start (site) is no part of pnp's: time from here
main()
"""


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.03, 0.05, 0.1, 0.2])
def test_ctrl_c_while_pnp_starts_gives_no_traceback(mini, tmp_path, delay):
    """Ctrl-C at any moment from pnp's first line (while its modules load, then while it
    builds): exit 130 and one line, never a traceback."""
    process = subprocess.Popen([sys.executable, "-c", STARTING.format(root=str(mini), out=str(tmp_path))],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.readline() == b"python is up\n"
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=60)
    assert b"Traceback" not in errors, errors.decode()
    assert process.returncode == 130 and b"interrupted" in errors, (process.returncode, errors)


def test_two_builds_into_one_folder_at_once_both_finish_whole(mini, tmp_path):
    total = slow_game(mini)
    first, second = start_build(mini, tmp_path), start_build(mini, tmp_path)
    for process in (first, second):
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors
    reader = pypdf.PdfReader(str(tmp_path / "mini/cards-a4.pdf"))
    assert len(reader.pages) == 2 * -(-total // 18)   # 18 mini cards a sheet (turned: 16 upright), with backs
    assert part_files(tmp_path / "mini") == []


def test_a_file_pnp_did_not_write_is_never_overwritten(mini, tmp_path):
    folder = tmp_path / "mini"
    folder.mkdir(parents=True)
    mine = folder / "cards-a4.pdf"
    mine.write_bytes(b"%PDF-1.4 my own file")
    notes = folder / "notes.txt"
    notes.write_text("keep me")
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 1
    assert "cards-a4.pdf was not written by pnp" in result.stderr
    assert mine.read_bytes() == b"%PDF-1.4 my own file"
    assert not (folder / "rules-a4.pdf").exists()      # all or nothing
    assert notes.read_text() == "keep me"


def test_an_edited_output_is_not_overwritten_but_an_unchanged_one_is(mini, tmp_path):
    build(mini, "mini", tmp_path)
    build(mini, "mini", tmp_path)                        # pnp's own, unchanged: fine
    rules = tmp_path / "mini/rules-a4.pdf"
    rules.write_bytes(rules.read_bytes() + b"\n% my annotation\n")
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 1 and "rules-a4.pdf was not written by pnp, or was changed" in result.stderr
    assert rules.read_bytes().endswith(b"% my annotation\n")
    assert len(pdf(tmp_path / "mini/cards-a4.pdf").pages) == 2


def test_a_refused_build_leaves_a_users_folder_as_it_was(mini, tmp_path):
    """pnp's lock is its own file: a build refused in a folder of someone else's files takes
    it away again, and one that wrote there keeps it for the next."""
    folder = tmp_path / "mini"
    folder.mkdir(parents=True)
    (folder / "cards-a4.pdf").write_bytes(b"%PDF-1.4 my own file")
    before = sorted(p.name for p in folder.iterdir())
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 1 and "was not written by pnp" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == before
    (folder / "cards-a4.pdf").unlink()
    build(mini, "mini", tmp_path)
    assert (folder / ".pnp.lock").is_file() and (folder / ".pnp-manifest.json").is_file()
