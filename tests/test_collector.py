"""Python's cycle collector waits while a build or a validation works (pnp.collecting: the
benchmark measures what that saves) and is back when it ends, a failed one too, so a long
watch or serve session frees what each rebuild left behind; validate frees what each
translation left before it draws the next."""

from __future__ import annotations

import gc
import weakref

import pnp.commands.build
import pnp.commands.validate
from conftest import REPO, build, run


def test_a_build_draws_without_collecting_and_collects_again_after(mini, tmp_path, monkeypatch):
    while_drawing = []
    monkeypatch.setattr(pnp.commands.build, "reached", lambda point: while_drawing.append(gc.isenabled()))
    assert gc.isenabled()
    build(mini, "mini", tmp_path / "out")
    assert while_drawing and not any(while_drawing)
    assert gc.isenabled()


def test_validate_draws_without_collecting_and_collects_again_after(mini, monkeypatch):
    while_drawing = []
    drawn = pnp.commands.validate.each_translation_drawn

    def noted(ctx):
        while_drawing.append(gc.isenabled())
        return drawn(ctx)
    monkeypatch.setattr(pnp.commands.validate, "each_translation_drawn", noted)
    assert run("validate", "--game", "mini", "--jobs", "1", root=mini).exit_code == 0
    assert while_drawing == [False]
    assert gc.isenabled()


def test_collecting_comes_back_after_a_build_that_failed(mini, tmp_path):
    (mini / "card_data/mini/cards.yaml").write_text("cards: [\n", encoding="utf-8")
    result = run("build", "--game", "mini", "--out", str(tmp_path / "out"), root=mini)
    assert result.exit_code == 1 and "cards.yaml" in result.output + (result.stderr or "")
    assert gc.isenabled()


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_validate_frees_what_each_translation_left_before_drawing_the_next(monkeypatch):
    """Each language's pages leave some cycles (7 MB at 5,600 cards): with the collector
    waiting for the whole game, fourteen languages took 190 MB where they had taken 92."""
    left: list[weakref.ref[Cycle]] = []
    drawn = pnp.commands.validate.draw_in_language

    def noted(ctx):
        assert all(ref() is None for ref in left), "the last language's cycles are still held"
        left.append(weakref.ref(Cycle()))
        return drawn(ctx)
    monkeypatch.setattr(pnp.commands.validate, "draw_in_language", noted)
    assert run("validate", "--game", "12th-player", "--jobs", "1", root=REPO).exit_code == 0
    assert len(left) == 2   # German and Hebrew


def test_a_command_run_as_pnp_never_collects(mini):
    """`pnp` ends when its command is done: the collector stays off (pnp.launch), so nothing
    walks what a build made just before the process gives its memory back."""
    import subprocess
    import sys
    script = ("import gc, sys\nfrom pnp import launch\n"
              "launch.end = lambda done: print('collecting' if gc.isenabled() else 'paused', done.code)\n"
              f"sys.argv = ['pnp', 'validate', '--game', 'mini', '--root', {str(mini)!r}]\nlaunch.main()\n")
    ended = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert ended.stdout.splitlines()[-1] == "paused 0"


def test_watch_and_serve_collect_over_their_hours(mini, tmp_path, monkeypatch):
    from click.testing import CliRunner

    import pnp.commands.serve
    import pnp.commands.watch
    from pnp.cli import cli
    running = []
    monkeypatch.setattr(pnp.commands.watch, "watch_games", lambda *args, **kw: running.append(gc.isenabled()))
    monkeypatch.setattr(pnp.commands.serve, "serve", lambda *args, **kw: running.append(gc.isenabled()))
    try:
        for command in (["watch", "--game", "mini"], ["serve", "--game", "mini"]):
            gc.disable()   # as pnp.launch leaves it
            CliRunner().invoke(cli, [*command, "--root", str(mini), "--out", str(tmp_path / "out")])
    finally:
        gc.enable()
    assert running == [True, True]


def test_a_command_that_builds_again_frees_what_the_last_build_left_first(mini, tmp_path, monkeypatch):
    """The collector off for a whole command (pnp.launch): `--lang all` builds one language
    after another, and each left its cycles (24 MB at 5,600 cards) until a review found the
    peak doubled. Each build after the first frees them; the first, and a single build, pay
    nothing."""
    import pnp.collecting
    freed = []
    monkeypatch.setattr(pnp.collecting, "free_what_the_pause_left", lambda: freed.append(True))
    monkeypatch.setattr(pnp.collecting, "_paused_before", False)
    gc.disable()
    try:
        build(mini, "mini", tmp_path / "one")
        assert freed == []
        build(mini, "mini", tmp_path / "two")
        assert freed == [True]
    finally:
        gc.enable()
