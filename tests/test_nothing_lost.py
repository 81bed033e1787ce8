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


def start_build(mini: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pnp", "build", "--game", "mini", "--out", str(out),
                             "--root", str(mini)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_until_rendering(process: subprocess.Popen, seconds: float = 0.6) -> None:
    time.sleep(seconds)
    assert process.poll() is None, "the build finished before it could be interrupted"


def test_ctrl_c_and_kill_leave_the_earlier_output_as_it_was(mini, tmp_path):
    build(mini, "mini", tmp_path)
    folder = tmp_path / "mini"
    before = snapshot(folder)
    slow_game(mini, copies=450)     # 18,006 cards: several seconds, time to interrupt it
    process = start_build(mini, tmp_path)
    wait_until_rendering(process)
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"interrupted" in errors and b"Traceback" not in errors
    assert snapshot(folder) == before
    process = start_build(mini, tmp_path)
    wait_until_rendering(process)
    process.kill()
    process.wait(timeout=60)
    assert snapshot(folder) == before


def test_two_builds_into_one_folder_at_once_both_finish_whole(mini, tmp_path):
    total = slow_game(mini)
    first, second = start_build(mini, tmp_path), start_build(mini, tmp_path)
    for process in (first, second):
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors
    reader = pypdf.PdfReader(str(tmp_path / "mini/cards-a4.pdf"))
    assert len(reader.pages) == 2 * -(-total // 16)   # 16 mini cards a sheet, with backs
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
