"""Links in a project or a game folder never carry pnp's reading or writing outside them:
the project's own folders (card_data/, layouts/, fonts/ ...) may not lead out, and nothing is
written through a link inside a game folder (downloaded data, a translation)."""

from __future__ import annotations

import pytest

from conftest import run
from test_url_data import server, use_url  # noqa: F401 - the fixture, and how a game names a URL


@pytest.mark.parametrize("name", ["layouts", "fonts", "card_data"])
def test_a_project_folder_that_leads_out_is_refused(mini, tmp_path, name):
    elsewhere = tmp_path / "elsewhere"
    (mini / name).rename(elsewhere)
    (mini / name).symlink_to(elsewhere)
    result = run("validate", "--game", "mini", root=mini)
    assert result.exit_code != 0 and "Traceback" not in result.stderr
    assert f"{name} is a link that leads outside the project" in result.stderr, result.stderr


def test_a_project_folder_linked_inside_the_project_is_read(mini):
    (mini / "layouts").rename(mini / "shared-layouts")
    (mini / "layouts").symlink_to("shared-layouts")
    assert run("validate", "--game", "mini", root=mini).exit_code == 0


def test_a_translation_is_never_written_through_a_linked_lang_folder(mini, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (mini / "card_data/mini/lang").symlink_to(outside)
    result = run("translate", "--game", "mini", "--lang", "fr", root=mini)
    assert result.exit_code == 1 and "'lang' is a link" in result.stderr, result.stderr
    assert list(outside.iterdir()) == []


def test_downloaded_data_is_never_written_through_a_linked_data_folder(mini, tmp_path, server):  # noqa: F811
    outside = tmp_path / "outside"
    outside.mkdir()
    use_url(mini, server.url)
    (mini / "card_data/mini/.pnp-data").symlink_to(outside)
    result = run("build", "--game", "mini", "--out", str(tmp_path / "out"), root=mini)
    assert result.exit_code == 1 and "'.pnp-data' is a link" in result.stderr, result.stderr
    assert list(outside.iterdir()) == [] and server.requests == 0   # refused before anything was fetched


def test_pnp_new_never_writes_through_a_link(tmp_path):
    """A card_data/ that links elsewhere would take the new game there; a link left where the
    game's folder would be (even to nothing) was an internal error."""
    outside = tmp_path / "outside"
    outside.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    (project / "card_data").symlink_to(outside)
    result = run("new", "crew", root=project)
    assert result.exit_code == 1 and "'card_data' is a link" in result.stderr and list(outside.iterdir()) == []
    (project / "card_data").unlink()
    (project / "card_data").mkdir()
    (project / "card_data/crew").symlink_to(tmp_path / "nothing-here")
    result = run("new", "crew", root=project)
    assert result.exit_code == 1 and "already exists" in result.stderr and "internal" not in result.stderr


def test_an_output_folder_that_is_a_link_to_nothing_is_told_so(mini, tmp_path):
    """It said "cannot write to OUT/mini: File exists"."""
    out = tmp_path / "out"
    out.symlink_to(tmp_path / "nothing-here")
    result = run("build", "--game", "mini", "--out", str(out), root=mini)
    assert result.exit_code == 2 and "is a link to" in result.stderr and "which does not exist" in result.stderr


def test_a_root_given_through_a_link_and_dotdot_builds(mini, tmp_path, monkeypatch):
    """`..` after a link is the link's parent's parent, not the folder before it in the text:
    paths were told (and facts files found) by the text, so the build looked in a folder
    that is not there."""
    from pnp.errors import display_path
    (tmp_path / "x").mkdir()
    (tmp_path / "x/cd").symlink_to(mini / "card_data")
    monkeypatch.chdir(tmp_path)
    assert display_path(tmp_path / "x/cd/..") == str(mini.relative_to(tmp_path))
    result = run("build", "--game", "mini", "--out", str(tmp_path / "out"), root=tmp_path / "x/cd/..")
    assert result.exit_code == 0, result.stderr
