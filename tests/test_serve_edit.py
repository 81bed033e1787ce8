"""The layout editor of `pnp serve --edit` over HTTP: what it lists, what it saves, and what it
refuses (no token, another site, a file changed meanwhile, a bad value, a file that is not the
game's own layout)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from test_serve import Served


@pytest.fixture
def editing(root, tmp_path):
    return Served(root, "jukem", tmp_path / "out", edit=True)


def elements(served: Served, component="cards", card=0, side="front", picture=False) -> dict:
    query = f"component={component}&card={card}&side={side}" + ("&picture=1" if picture else "")
    status, _, data = served.request(f"/api/edit/elements?{query}")
    assert status == 200, data
    return json.loads(data)


def edit(served: Served, listing: dict, element_id: str, changes: dict, target="defining", headers=None,
         path="/api/edit") -> tuple[int, dict]:
    index = next(e["index"] for e in listing["elements"] if e["id"] == element_id)
    body = json.dumps(dict(component=listing["component"], card=listing["card"], side=listing["side"], index=index,
                           target=target, changes=changes, files=listing["files"])).encode()
    status, _, data = served.request(path, method="POST", body=body, headers=headers)
    return status, json.loads(data) if data.startswith(b"{") else {"text": data.decode()}


def test_a_cards_elements_are_listed_with_their_box_file_line_and_settings(editing):
    listing = elements(editing)
    assert listing["layout"] == "jukem/card" and listing["size_mm"] == [63.5, 88.9]
    title = next(e for e in listing["elements"] if e["id"] == "title")
    assert title["box"] == {"x": 13.0, "y": 6.0, "w": 37.5, "h": 12.0}
    assert (title["file"], title["line"], title["kind"]) == ("layouts/jukem/card.yaml", 26, "text")
    assert title["settings"]["size"] == 22 and title["settings"]["text"] == "{title}"
    assert title["units"] == {"x": "mm", "y": "mm", "w": "mm", "h": "mm"}
    panel = next(e for e in listing["elements"] if e["id"] == "panel")
    assert panel["box"] == {"x": 3.0, "y": 3.0, "w": 57.5, "h": 82.9}     # inset: 3mm
    assert "black-ink" in listing["palette"] and "display" in listing["fonts"]


def test_a_change_is_saved_in_its_line_alone_and_the_preview_redraws(editing, root):
    layout = root / "layouts/jukem/card.yaml"
    before = layout.read_text()
    status, answer = edit(editing, elements(editing), "title", {"y": "7.5mm"})
    assert status == 200, answer
    assert layout.read_text() == before.replace("    y: 6mm\n    w: 37.5mm", "    y: 7.5mm\n    w: 37.5mm")
    assert next(e for e in answer["elements"] if e["id"] == "title")["box"]["y"] == 7.5
    assert answer["picture"]   # the card drawn with the change
    editing.wait_for(lambda state: state["version"] >= 2)   # the watcher saw the save


def test_a_preview_draws_the_change_and_saves_nothing(editing, root):
    layout = root / "layouts/jukem/card.yaml"
    before = layout.read_text()
    status, answer = edit(editing, elements(editing), "title", {"x": "20mm"}, path="/api/edit/preview")
    assert status == 200 and answer["picture"]
    assert layout.read_text() == before


def test_a_bad_value_is_refused_with_the_builds_message_and_nothing_is_written(editing, root):
    layout = root / "layouts/jukem/card.yaml"
    before = layout.read_text()
    status, answer = edit(editing, elements(editing), "title", {"colour": "reddish"})
    assert status == 400
    assert answer["error"]["file"].endswith("layouts/jukem/card.yaml") and answer["error"]["line"] == 32
    assert "'reddish' is not a colour" in answer["error"]["text"]
    status, answer = edit(editing, elements(editing), "title", {"text": "{nickname}"})
    assert status == 400 and "'nickname', which the cards do not have" in answer["error"]["text"]
    assert layout.read_text() == before


def test_an_edit_made_in_the_text_editor_meanwhile_is_never_overwritten(editing, root):
    layout = root / "layouts/jukem/card.yaml"
    listing = elements(editing)
    mine = layout.read_text().replace("size: 22", "size: 20")   # the designer saves in their editor
    layout.write_text(mine)
    status, answer = edit(editing, listing, "title", {"x": "20mm"})
    assert status == 409 and "changed on disk" in answer["error"]["text"]
    assert layout.read_text() == mine
    status, _ = edit(editing, elements(editing), "title", {"x": "20mm"})   # after a reload it saves
    assert status == 200 and "size: 20" in layout.read_text() and "x: 20mm" in layout.read_text()


@pytest.mark.parametrize("headers, expected", [
    ({"X-Pnp-Token": "wrong"}, 403),
    ({"Origin": "http://evil.example"}, 403),
    ({"Origin": "http://127.0.0.1:1"}, 403),          # another port of this machine: another site
    ({"Content-Type": "text/plain"}, 415),
])
def test_a_write_without_the_token_from_another_site_or_not_json_is_refused(editing, root, headers, expected):
    layout = root / "layouts/jukem/card.yaml"
    before = layout.read_text()
    status, _ = edit(editing, elements(editing), "title", {"x": "30mm"}, headers=headers)
    assert status == expected
    assert layout.read_text() == before


def test_editing_is_off_unless_asked_for(root, tmp_path):
    served = Served(root, "jukem", tmp_path / "out")
    status, _, _ = served.request("/api/edit/elements?component=cards&card=0&side=front")
    assert status == 404
    body = json.dumps(dict(component="cards", card=0, side="front", index=2, changes={"x": "1mm"})).encode()
    assert served.request("/api/edit", method="POST", body=body)[0] == 404
    assert served.state()["editing"] is False


@pytest.fixture
def outside_project(tmp_path):
    """A project outside the repository, made by `pnp new`: its card layout extends pnp's own
    bundled base/card, which the editor must never change."""
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copytree(REPO / "fonts", folder / "fonts")
    subprocess.run([sys.executable, "-m", "pnp", "new", "my-game", "--title", "My Game"], cwd=folder,
                   check=True, capture_output=True)
    return folder


def test_an_inherited_element_is_overridden_in_the_child_and_pnps_own_base_never_written(outside_project, tmp_path):
    served = Served(outside_project, "my-game", tmp_path / "out", edit=True)
    listing = elements(served)
    child = outside_project / "layouts" / f"{listing['layout']}.yaml"
    inherited = [e for e in listing["elements"] if e["inherited"] and e["id"]]
    assert inherited, listing["elements"]
    target = inherited[0]
    change = {"inset": "4mm"} if "inset" in target["settings"] else {"x": "4mm"}
    assert target["writable"] is False               # pnp's bundled base/card
    assert target["file"] == "pnp's own layouts/base/card.yaml"   # not taken for the game's card.yaml
    status, answer = edit(served, listing, target["id"], change)
    assert status == 400 and "pnp's own layouts are never changed" in answer["error"]["text"]
    before = child.read_text()
    status, answer = edit(served, listing, target["id"], change, target="override")
    assert status == 200, answer
    after = child.read_text()
    assert after.startswith(before.rstrip("\n"))     # the child gained an override, nothing else changed
    added = after[len(before.rstrip("\n")):]
    assert f"id: {target['id']}" in added and ": 4mm" in added
    again = next(e for e in answer["elements"] if e["id"] == target["id"])
    assert again["inherited"] is False and again["box"]["x"] == 4.0


def test_only_the_served_games_layouts_are_written(editing, root):
    """An element of a layout no deck of the game uses cannot be reached: elements are numbered
    in the card's own layout, and a number past its end is refused."""
    listing = elements(editing)
    body = json.dumps(dict(component="cards", card=0, side="front", index=len(listing["elements"]) + 5,
                           changes={"x": "1mm"}, files=listing["files"])).encode()
    status, _, data = editing.request("/api/edit", method="POST", body=body)
    assert status == 400 and b"no element" in data
    for bad in ({"component": "../../etc"}, {"side": "inside"}, {"changes": {"extends": "x"}}, {"changes": {"x": [1]}}):
        request = dict(component="cards", card=0, side="front", index=2, changes={"x": "1mm"}, files=listing["files"])
        request.update(bad)
        status, _, _ = editing.request("/api/edit", method="POST", body=json.dumps(request).encode())
        assert status == 400, bad


def test_a_layout_that_is_a_link_out_of_layouts_is_neither_read_nor_written(editing, root, tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    card = root / "layouts/jukem/card.yaml"
    outside.write_text(card.read_text())
    card.unlink()
    card.symlink_to(outside)
    before = outside.read_text()
    status, _, data = editing.request("/api/edit/elements?component=cards&card=0&side=front")
    assert status == 400 and b"outside the layouts folder" in data
    body = json.dumps(dict(component="cards", card=0, side="front", index=2, changes={"x": "20mm"})).encode()
    status, _, data = editing.request("/api/edit", method="POST", body=body)
    assert status == 400 and b"outside the layouts folder" in data
    assert outside.read_text() == before and card.is_symlink()


def test_the_served_page_carries_a_fresh_session_token(editing, tmp_path, root):
    other = Served(root, "jukem", tmp_path / "out2", edit=True)
    assert len(editing.token) >= 32 and editing.token != other.token


def test_nothing_is_left_beside_the_layout(editing, root):
    edit(editing, elements(editing), "title", {"x": "21mm"})
    assert sorted(p.name for p in (root / "layouts/jukem").iterdir()) == sorted(
        p.name for p in (Path(REPO) / "layouts/jukem").iterdir())


def test_a_link_planted_where_the_editor_writes_its_new_text_is_not_followed(editing, root, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    listing = elements(editing)
    (root / f"layouts/jukem/.card.yaml.{os.getpid()}.part").symlink_to(victim)   # the server runs in this process
    status, _ = edit(editing, listing, "title", {"x": "19mm"})
    assert status == 200 and "x: 19mm" in (root / "layouts/jukem/card.yaml").read_text()
    assert victim.read_text() == "mine"


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_a_number_that_is_no_number_is_refused_and_nothing_is_written(editing, root, number):
    """JSON has no NaN, but Python reads it: the edit got as far as writing the YAML, failed
    there, and the request dropped with a traceback in the terminal."""
    layout = root / "layouts/jukem/card.yaml"
    before = layout.read_text()
    listing = elements(editing)
    index = next(e["index"] for e in listing["elements"] if e["id"] == "title")
    body = ('{"component": "%s", "card": %d, "side": "%s", "index": %d, "target": "defining", '
            '"changes": {"size": %s}, "files": %s}' % (listing["component"], listing["card"], listing["side"], index,
                                                        number, json.dumps(listing["files"]))).encode()
    status, _, data = editing.request("/api/edit", method="POST", body=body)
    assert status == 400 and b"is not a number an edit can write" in data, data
    assert layout.read_text() == before
