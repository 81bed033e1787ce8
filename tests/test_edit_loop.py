"""The edit-rebuild loop: no-change rebuilds skip rendering, watch rebuilds after an edit and
survives a bad one, --quiet is quiet."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time

import pytest

import pnp.commands.build as build_module
from conftest import build, pdf, run


def test_a_rebuild_with_nothing_changed_renders_nothing(mini, tmp_path, monkeypatch):
    build(mini, "mini", tmp_path)

    def no_rendering(*_args):
        raise AssertionError("rendered although nothing changed")

    monkeypatch.setattr(build_module, "render_all", no_rendering)
    started = time.perf_counter()
    result = run("build", "--game", "mini", "--out", str(tmp_path), root=mini)
    assert result.exit_code == 0, result.stderr
    assert "mini: up to date, nothing changed since the last build (3 files" in result.output   # cards, rules, print-all
    assert time.perf_counter() - started < 0.5


def test_any_change_of_input_or_option_rebuilds(mini, tmp_path):
    build(mini, "mini", tmp_path)
    assert "up to date" in run("build", "--game", "mini", "--out", str(tmp_path), root=mini).output
    for args in (["--paper", "letter"], ["--bleed"], ["--duplex", "short-edge"]):
        assert "up to date" not in run("build", "--game", "mini", "--out", str(tmp_path), *args, root=mini).output
    layout = mini / "layouts/mini/back.yaml"
    layout.write_text(layout.read_text().replace("MINI", "MAXI"))
    assert "up to date" not in run("build", "--game", "mini", "--out", str(tmp_path), root=mini).output
    assert "MAXI" in pdf(tmp_path / "mini/cards-a4.pdf").pages[1].extract_text()
    # A deleted output file is rebuilt even though no input changed.
    (tmp_path / "mini/rules-a4.pdf").unlink()
    assert "up to date" not in run("build", "--game", "mini", "--out", str(tmp_path), root=mini).output
    assert (tmp_path / "mini/rules-a4.pdf").exists()


def test_quiet_prints_nothing_but_problems(mini, tmp_path):
    result = run("build", "--game", "mini", "--out", str(tmp_path), "--quiet", root=mini)
    assert result.exit_code == 0 and result.output == ""


class Lines:
    """Lines a process prints, read in the background so a test can wait for one."""

    def __init__(self, stream):
        self.queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in iter(stream.readline, ""):
            self.queue.put(line)

    def wait_for(self, text: str, timeout: float = 30) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.queue.get(timeout=0.2)
            except queue.Empty:
                continue
            if text in line:
                return line
        raise AssertionError(f"no line with {text!r} within {timeout} s")


@pytest.fixture
def watching(mini, tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "pnp", "watch", "--game", "mini", "--root", str(mini),
                                "--out", str(tmp_path), "--interval", "0.1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    yield process, Lines(process.stdout), Lines(process.stderr)
    process.terminate()
    process.wait(timeout=10)


def test_watch_rebuilds_after_an_edit_and_survives_a_bad_one(mini, tmp_path, watching):
    process, out, errors = watching
    out.wait_for("mini: rebuilt")
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("name: Knight", "name: Rook"))
    out.wait_for("mini: rebuilt")
    assert "Rook" in pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text()
    good = (tmp_path / "mini/cards-a4.pdf").read_bytes()
    cards.write_text(cards.read_text().replace("  - name: Rook", "  - name: [Rook"))
    errors.wait_for("cards.yaml:")
    errors.wait_for("not rebuilt; the last good files stay")
    assert process.poll() is None
    assert (tmp_path / "mini/cards-a4.pdf").read_bytes() == good
    cards.write_text(cards.read_text().replace("  - name: [Rook", "  - name: Bishop II"))
    out.wait_for("mini: rebuilt")
    assert "Bishop II" in pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text()



def test_watch_rebuilds_with_the_print_options_a_build_takes(mini, tmp_path):
    """`pnp watch --bleed --duplex short-edge` writes (and after an edit rewrites) the files
    `pnp build --bleed --duplex short-edge` writes, not the plain ones."""
    process = subprocess.Popen([sys.executable, "-m", "pnp", "watch", "--game", "mini", "--root", str(mini),
                                "--out", str(tmp_path), "--interval", "0.1", "--bleed", "--duplex", "short-edge"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out = Lines(process.stdout)
        out.wait_for("mini: rebuilt")
        cards = mini / "card_data/mini/cards.yaml"
        cards.write_text(cards.read_text().replace("name: Knight", "name: Rook"))
        out.wait_for("mini: rebuilt")
        watched = tmp_path / "mini/cards-a4-short-edge-bleed.pdf"
        assert "Rook" in pdf(watched).pages[0].extract_text()
        assert not (tmp_path / "mini/cards-a4.pdf").exists()
    finally:
        process.terminate()
        process.wait(timeout=10)
    built = tmp_path / "built"
    run("build", "--game", "mini", "--out", str(built), "--bleed", "--duplex", "short-edge", root=mini)
    assert (built / "mini/cards-a4-short-edge-bleed.pdf").read_bytes() == watched.read_bytes()


def test_watch_reports_markup_it_cannot_read_and_goes_on(mini, tmp_path, watching):
    process, out, errors = watching
    out.wait_for("mini: rebuilt")
    good = (tmp_path / "mini/cards-a4.pdf").read_bytes()
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("text: Moves in an L.", 'text: "Moves **in *an** L*."'))
    line = errors.wait_for("cross")
    assert "cards.yaml:" in line and "Knight" in line
    errors.wait_for("not rebuilt; the last good files stay")
    assert process.poll() is None
    assert (tmp_path / "mini/cards-a4.pdf").read_bytes() == good
    cards.write_text(cards.read_text().replace('"Moves **in *an** L*."', '"Moves **in an L**."'))
    out.wait_for("mini: rebuilt")
    assert process.poll() is None

def test_an_edit_saved_during_a_build_never_counts_as_up_to_date(mini, tmp_path, monkeypatch):
    """The edit lands after the fingerprint was taken but before the data is read: the output
    shows the edit, so putting the old text back must rebuild, not reuse that output."""
    from pnp.project import Project
    cards = mini / "card_data/mini/cards.yaml"
    original = cards.read_text()
    real_decks = Project.decks

    def decks_read_after_an_edit(self, game):
        cards.write_text(original.replace("Moves in an L.", "Jumps over."))
        return real_decks(self, game)

    monkeypatch.setattr(Project, "decks", decks_read_after_an_edit)
    build(mini, "mini", tmp_path)
    monkeypatch.setattr(Project, "decks", real_decks)
    assert "Jumps over." in pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text()
    cards.write_text(original)
    assert "up to date" not in run("build", "--game", "mini", "--out", str(tmp_path), root=mini).output
    assert "Moves in an L." in pdf(tmp_path / "mini/cards-a4.pdf").pages[0].extract_text()


def test_a_watch_round_counts_the_files_it_redrew_not_the_ones_it_kept(root, tmp_path, capsys):
    """Changing one Jukem card redraws its deck and the print-all file; the round said
    "rebuilt 5 files" as if the rule sheet and tuck box were drawn again too."""
    from pnp.commands.watch import rebuild_games
    from pnp.request import BuildRequest
    out = tmp_path / "out"
    import re
    rebuild_games(root, ["jukem"], out, BuildRequest())
    capsys.readouterr()
    before = {path: path.stat().st_mtime_ns for path in (out / "jukem").glob("*.pdf")}
    cards = root / "card_data/jukem/cards.yaml"
    cards.write_text(cards.read_text().replace("Gain these yards", "Gain the yards", 1))
    rebuild_games(root, ["jukem"], out, BuildRequest())
    told = capsys.readouterr().out
    redrawn = sum(path.stat().st_mtime_ns != when for path, when in before.items())
    counted = re.search(r"jukem: rebuilt (\d+) files? in [\d.]+ s \((\d+) unchanged\)", told)
    assert counted, told
    rebuilt, unchanged = int(counted.group(1)), int(counted.group(2))
    # every file is one or the other; a redrawn file whose bytes came out the same keeps its time
    assert rebuilt + unchanged == len(before) and rebuilt >= redrawn > 0 and unchanged >= 1, told


def test_ctrl_c_while_watch_waits_for_an_edit_stops_it(watching):
    """The review found a Ctrl-C while watch waited caught by the file watcher, which stopped,
    and pnp watching again: it took a kill to end it."""
    import signal
    process, out, errors = watching
    errors.wait_for("watching for changes")
    time.sleep(0.5)   # inside the watcher's wait
    process.send_signal(signal.SIGINT)
    errors.wait_for("stopped watching", timeout=15)
    assert process.wait(timeout=15) == 0
