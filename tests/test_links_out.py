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
