"""Starting fast (issue 31, item 4): `pnp --help`, `pnp list` and a rebuild where nothing
changed import no drawing code. Checked by the modules a fresh process has loaded when it
ends (timings belong in bench/), so the test holds on a busy machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.units import COLOUR_NAMES, colour_problem, parse_colour

# what only drawing needs: the PDF and picture libraries and pnp's renderers and layout machinery
DRAWING = ("reportlab", "PIL", "pypdfium2", "pypdf", "pnp.render", "pnp.outputs.pdf", "pnp.exporters", "pnp.kinds.rule_sheet",
           "pnp.fonts", "pnp.impose")
LIGHT_LAYOUT = {"pnp.layout", "pnp.layout.binding"}   # data, not drawing

LOADED = """
import json, sys
from pnp.cli import main
sys.argv = ["pnp"] + sys.argv[1:]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded_modules(*args: str) -> list[str]:
    """The modules a `pnp ARGS` process has imported when it is done."""
    finished = subprocess.run([sys.executable, "-c", LOADED, *args], capture_output=True, text=True, timeout=120)
    return json.loads(finished.stderr.strip().splitlines()[-1])


def drawing_code(modules: list[str]) -> list[str]:
    return [name for name in modules
            if name.split(".")[0] in DRAWING or any(name == d or name.startswith(d + ".") for d in DRAWING)
            or (name.startswith("pnp.layout.") and name not in LIGHT_LAYOUT)]


def test_help_and_list_import_no_drawing_code(root):
    assert drawing_code(loaded_modules("--help")) == []
    listed = loaded_modules("list", "--root", str(root))
    assert "pnp.config.game" in listed   # it did load the games
    assert drawing_code(listed) == []


def test_a_rebuild_with_nothing_changed_imports_no_drawing_code(root, tmp_path):
    out = tmp_path / "out"
    first = loaded_modules("build", "--game", "12th-player", "--root", str(root), "--out", str(out), "-q")
    assert "pnp.layout.template" in first and "reportlab.pdfgen.canvas" in first   # drew: the check can see it
    assert (out / "12th-player" / "cards-letter.pdf").is_file()
    again = loaded_modules("build", "--game", "12th-player", "--root", str(root), "--out", str(out), "-q")
    assert drawing_code(again) == []
    # nor the schema, nor a YAML reader: the game is never loaded; nor, for one game, what
    # shares games out to processes
    assert not [name for name in again if name == "yaml" or name.startswith(("pnp.config.", "pnp.kinds"))]
    assert "pnp.commands.games_apart" not in again and "pnp.processes" not in again
    (root / "card_data/12th-player/rules.md").write_text(
        (root / "card_data/12th-player/rules.md").read_text() + "\n", encoding="utf-8")
    changed = loaded_modules("build", "--game", "12th-player", "--root", str(root), "--out", str(out), "-q")
    assert "reportlab.pdfgen.canvas" in changed


def test_a_rebuild_after_one_card_changed_loads_no_svg_or_paragraph_machinery(root, tmp_path):
    """Big Ten's defense cards carry SVG icons and emphasised text: redrawing the deck takes
    its icons from the build record (pnp.layout.icon_art) and sets emphasis as pnp's own
    styled runs, so neither svglib, reportlab's graphics nor its platypus is imported."""
    out = tmp_path / "out"
    args = ("build", "--game", "big-ten", "--root", str(root), "--out", str(out), "-q", "--jobs", "1")
    first = loaded_modules(*args)
    assert "svglib" in first   # the first build drew the icons
    data = root / "card_data/big-ten/defense.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace('name: "Run Blitz"', 'name: "Safety Blitz"'))
    again = loaded_modules(*args)
    assert "reportlab.pdfgen.canvas" in again   # it drew
    assert [name for name in again if name.startswith(("svglib", "reportlab.graphics", "reportlab.platypus"))] == []


def test_colour_names_are_reportlabs():
    """Deck colour fields are checked without reportlab, by pnp's copy of its names."""
    from reportlab.lib import colors
    assert COLOUR_NAMES == {name for name in colors.getAllNamedColors()
                            if name == name.lower() and not name.startswith("_")}
    assert colour_problem("Navy") is None and colour_problem("#abc") is None and colour_problem("none") is None
    assert parse_colour("navy") == colors.navy
    problem = colour_problem("navvy")
    assert problem is not None and "'navvy' is not a colour" in problem and "navy" in problem.split(";")[1]
    with pytest.raises(ValueError, match="not a colour"):
        parse_colour("#12")


def test_a_game_without_web_addresses_is_not_loaded_to_look_for_downloads(root, tmp_path, monkeypatch):
    """fetch_data tells from the manifest's text that there is nothing to download."""
    from pnp.project import Project
    project = Project(root)
    monkeypatch.setattr(Project, "game", lambda self, game_id: pytest.fail("loaded the game"))
    project.fetch_data("jukem")
    manifest = Path(root) / "card_data/jukem/game.yaml"
    manifest.write_text(manifest.read_text() + "# see https://example.org\n", encoding="utf-8")
    with pytest.raises(pytest.fail.Exception):
        project.fetch_data("jukem")


# --- ending: a command ends without Python's tidying up (pnp.launch.end) ----------------------

def pnp_process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pnp", *args], capture_output=True, text=True, timeout=120)


def test_a_command_ended_at_once_keeps_its_output_and_its_status(root):
    from click.testing import CliRunner

    from pnp.cli import cli
    listed = pnp_process("list", "--root", str(root))
    assert listed.returncode == 0
    assert listed.stdout and listed.stdout == CliRunner().invoke(cli, ["list", "--root", str(root)]).output
    unknown = pnp_process("build", "--game", "nope", "--root", str(root))
    assert unknown.returncode == 2 and "unknown game 'nope'" in unknown.stderr


def test_a_thread_still_running_when_the_command_ends_is_let_finish(tmp_path):
    """pnp serve's threads as it stops: Python's own end waits for them."""
    done = tmp_path / "done"
    script = ("import threading, time\nfrom pnp.launch import end\n"
              f"threading.Thread(target=lambda: (time.sleep(0.3), open({str(done)!r}, 'w').write('done'))).start()\n"
              "end(SystemExit(0))\n")
    ended = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert ended.returncode == 0 and done.read_text() == "done"


def test_output_still_in_a_buffer_when_the_command_ends_is_written():
    script = ("import sys\nfrom pnp.launch import end\n"
              "sys.stdout.write('every line ' * 50)\nend(SystemExit(3))\n")
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    ended = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=buffered)
    assert ended.returncode == 3 and ended.stdout == "every line " * 50


def test_a_command_started_with_its_output_closed_ends_with_its_status(root):
    """`pnp list >&-`: Python has no sys.stdout then; the review found every command ending in
    a traceback, exit 1."""
    for command, closed in ((["list"], "stdout"), (["validate", "--game", "12th-player"], "stderr")):
        script = (f"import sys\nsys.argv = ['pnp', *{command!r}, '--root', {str(root)!r}]\n"
                  f"sys.{closed} = None\nfrom pnp.launch import main\nmain()\n")
        ended = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        assert ended.returncode == 0, ended.stderr
        assert "Traceback" not in ended.stderr
