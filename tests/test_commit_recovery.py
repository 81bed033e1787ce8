"""The commit of an output folder survives a failure or a kill at every rename: the folder
ends up wholly old or wholly new, the next build works, and the message says what is true.
Only pnp's own temporary files are ever removed."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import REPO, build, run
from pnp.outputs import folder as output_folder


def files(folder: Path) -> dict[str, bytes]:
    """Every file in the folder but the lock, by name."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".pnp.lock"}


def leftovers(folder: Path) -> list[str]:
    return [name for name in files(folder) if name.split("/")[-1].startswith((".pnp-part.", ".pnp-old."))
            or name.endswith(".pnp-journal.json")]


def edit(mini: Path, text: str) -> None:
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("Moves in an L.", text))


def count_renames(mini, out, monkeypatch) -> int:
    calls = []
    real = os.replace
    monkeypatch.setattr(output_folder.os, "replace", lambda a, b: (calls.append(1), real(a, b))[1])
    build(mini, "mini", out)
    monkeypatch.setattr(output_folder.os, "replace", real)
    return len(calls)


def test_a_failure_at_any_rename_leaves_the_folder_as_it_was(mini, tmp_path, monkeypatch):
    out = tmp_path / "out"
    build(mini, "mini", out)
    build(mini, "mini", tmp_path / "probe")   # a rebuild, as below: files that keep their bytes are not renamed
    edit(mini, "Jumps.")
    renames = count_renames(mini, tmp_path / "probe", monkeypatch)
    assert renames >= 4        # two files, the journal, the manifest, the record
    real = os.replace
    for failing in range(1, renames + 1):
        before = files(out / "mini")
        calls = []

        def replace(a, b):
            calls.append(1)
            if len(calls) == failing:
                raise OSError(errno.EPERM, os.strerror(errno.EPERM))   # e.g. an immutable file
            return real(a, b)

        monkeypatch.setattr(output_folder.os, "replace", replace)
        edit(mini, f"Jumps {failing}.")
        result = run("build", "--game", "mini", "--out", str(out), root=mini)
        monkeypatch.setattr(output_folder.os, "replace", real)
        assert result.exit_code == 1, failing
        assert "as they were" in result.stderr, (failing, result.stderr)
        assert files(out / "mini") == before, failing
        assert leftovers(out / "mini") == []
    build(mini, "mini", out)   # and the folder is still pnp's to write
    assert leftovers(out / "mini") == []


def test_disk_full_at_the_manifest_leaves_the_folder_as_it_was(mini, tmp_path, monkeypatch):
    out = tmp_path / "out"
    build(mini, "mini", out)
    before = files(out / "mini")
    edit(mini, "Jumps.")
    real = output_folder.OutputFolder._write_json

    def write_json(self, name, data):
        if name == output_folder.MANIFEST:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, name, data)

    monkeypatch.setattr(output_folder.OutputFolder, "_write_json", write_json)
    result = run("build", "--game", "mini", "--out", str(out), root=mini)
    assert result.exit_code == 1 and "No space left on device" in result.stderr
    assert "as they were" in result.stderr
    assert files(out / "mini") == before


KILLER = textwrap.dedent("""
    import os, sys
    sys.path.insert(0, {repo!r})
    import pnp.outputs.folder as folder
    real, calls = os.replace, []
    def replace(a, b):
        calls.append(1)
        if len(calls) == {at}:
            os._exit(137)          # as SIGKILL: no cleanup runs
        return real(a, b)
    folder.os.replace = replace
    from pnp.cli import main
    sys.argv = ["pnp", "build", "--game", "mini", "--root", {root!r}, "--out", {out!r}]
    main()
""")


@pytest.mark.parametrize("at", range(1, 7))
def test_a_kill_between_renames_is_finished_or_undone_by_the_next_build(mini, tmp_path, at):
    out = tmp_path / "out"
    build(mini, "mini", out)
    old = files(out / "mini")
    edit(mini, "Jumps.")
    killed = subprocess.run([sys.executable, "-c", KILLER.format(repo=str(REPO), at=at, root=str(mini), out=str(out))],
                            capture_output=True, text=True, timeout=120)
    if killed.returncode == 0:
        pytest.skip(f"the commit has fewer than {at} renames")
    assert killed.returncode == 137
    now = files(out / "mini")
    visible = {name for name in now if not name.split("/")[-1].startswith(".pnp")}
    assert visible == {name for name in old if not name.split("/")[-1].startswith(".pnp")}
    # the next build recovers the folder, then writes the new cards
    result = run("build", "--game", "mini", "--out", str(out), root=mini)
    assert result.exit_code == 0, result.stderr
    assert leftovers(out / "mini") == []
    manifest = json.loads((out / "mini/.pnp-manifest.json").read_text())
    for name, entry in manifest.items():
        import hashlib
        assert hashlib.sha256((out / "mini" / name).read_bytes()).hexdigest() == entry["sha256"], name


def test_recovery_alone_leaves_a_whole_old_or_whole_new_folder(mini, tmp_path):
    out = tmp_path / "out"
    build(mini, "mini", out)
    old = {k: v for k, v in files(out / "mini").items() if k.endswith(".pdf")}
    edit(mini, "Jumps.")
    build(mini, "mini", tmp_path / "new")
    new = {k: v for k, v in files(tmp_path / "new/mini").items() if k.endswith(".pdf")}
    for at in range(1, 6):
        subprocess.run([sys.executable, "-c", KILLER.format(repo=str(REPO), at=at, root=str(mini), out=str(out))],
                       capture_output=True, timeout=120)
        output_folder.OutputFolder(out / "mini").recover()
        pdfs = {k: v for k, v in files(out / "mini").items() if k.endswith(".pdf")}
        assert pdfs in (old, new), at
        if pdfs == new:
            # finished: now make it old again for the next kill point
            edit(mini, "Moves in an L.")
        build(mini, "mini", out)
        old = {k: v for k, v in files(out / "mini").items() if k.endswith(".pdf")}
        edit(mini, "Jumps.")


def test_a_users_part_files_are_never_removed(mini, tmp_path):
    out = tmp_path / "out"
    (out / "mini").mkdir(parents=True)
    mine = [out / "mini/.download.part", out / "mini/.notes.txt.part", out / "mini/sub/.x.part"]
    for path in mine:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("mine")
    build(mini, "mini", out)
    build(mini, "mini", out)
    assert all(path.read_text() == "mine" for path in mine)


@pytest.mark.parametrize("name", ["../escaped.pdf", "/tmp/abs.pdf", "a/../../b.pdf", ""])
def test_no_output_path_leaves_the_folder(tmp_path, name):
    from pnp.errors import PnpError
    from pnp.outputs.pdf import OutputFile
    with pytest.raises(PnpError, match="must stay inside"):
        output_folder.OutputFolder(tmp_path / "game").commit([OutputFile(name, b"x")])
    assert list(tmp_path.rglob("*.pdf")) == []


def test_a_relative_output_folder_outside_the_current_one_works(mini, tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    result = run("build", "--game", "mini", "--out", "../relative-out", root=mini)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "relative-out/mini/cards-a4.pdf").is_file()


def test_files_of_a_component_removed_from_the_game_go_with_it_and_nothing_else(mini, tmp_path):
    out = tmp_path / "out"
    game = mini / "card_data/mini/game.yaml"
    text = game.read_text()
    # a second deck drawn from the same cards, with a shop export too
    game.write_text(text.replace("  - id: rules\n", "  - id: spares\n    kind: deck\n    data: cards.yaml\n"
                                 "    front: mini/card\n  - id: rules\n"))
    build(mini, "mini", out, "--shop", "tgc")
    build(mini, "mini", out, "--paper", "letter")
    spares = sorted(p.relative_to(out / "mini").as_posix() for p in (out / "mini").rglob("spares*"))
    assert "spares-a4.pdf" in spares and "spares-letter.pdf" in spares and any(s.startswith("tgc/") for s in spares)
    (out / "mini/spares-notes.txt").write_text("mine")   # a file pnp did not write
    edited = out / "mini/spares-letter.pdf"
    edited.write_bytes(edited.read_bytes() + b"\n% my annotation\n")   # changed since pnp wrote it

    game.write_text(text)   # the spares deck is gone from the game
    result = build(mini, "mini", out)
    left = sorted(p.relative_to(out / "mini").as_posix() for p in (out / "mini").rglob("spares*"))
    assert left == ["spares-letter.pdf", "spares-notes.txt"]
    assert not (out / "mini/tgc/spares").exists()
    assert "spares-a4.pdf  removed" in result.output
    # the other deck's files, of every build, are all still there
    for name in ("cards-a4.pdf", "cards-letter.pdf", "rules-a4.pdf", "tgc/manifest.csv"):
        assert (out / "mini" / name).is_file(), name
    manifest = json.loads((out / "mini/.pnp-manifest.json").read_text())
    assert not any(name.startswith(("spares-a4", "tgc/spares")) for name in manifest)



def test_a_planted_manifest_never_has_pnp_delete_a_file_it_does_not_make(mini, tmp_path):
    """An output folder from someone else whose manifest lists a user's own files (with their
    true digests) for a component the game does not have: the next build removed them, and
    the subfolder they were in."""
    import hashlib
    out = tmp_path / "out"
    build(mini, "mini", out)
    folder = out / "mini"
    (folder / "notes.txt").write_text("mine")
    (folder / "sub").mkdir()
    (folder / "sub/keep.md").write_text("also mine")
    (folder / "sub/oldthing-a4.pdf").write_bytes(b"%PDF-1.4 a user's own file named like pnp's, in a folder of its own")
    manifest_path = folder / ".pnp-manifest.json"
    manifest = json.loads(manifest_path.read_text())
    entry = next(iter(manifest.values()))
    for name in ("notes.txt", "sub/keep.md", "sub/oldthing-a4.pdf"):
        digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
        planted = dict(entry) if isinstance(entry, dict) else {}
        planted.update({"component": "oldthing", "sha256": digest, "digest": digest})
        manifest[name] = planted
    manifest_path.write_text(json.dumps(manifest))
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("Moves in an L.", "Moves in a big L."))
    result = build(mini, "mini", out)
    assert (folder / "notes.txt").read_text() == "mine" and (folder / "sub/keep.md").read_text() == "also mine"
    assert "notes.txt" not in result.output and "keep.md" not in result.output

def test_a_planted_journal_never_deletes_or_replaces_a_file_whose_digest_it_knows(mini, tmp_path):
    """A journal in pnp's shape naming a user's empty file (whose digest anyone knows) as new,
    and one naming a planted old copy to put back over another: neither is the file the commit
    staged, so both stay as they are."""
    import hashlib
    out = tmp_path / "out"
    build(mini, "mini", out)
    folder = out / "mini"
    (folder / ".gitkeep").write_text("")
    (folder / "notes.txt").write_text("my notes\n")
    (folder / ".pnp-old.notes.txt.x").write_text("planted")
    (folder / ".pnp-old.made.txt.y").write_text("planted")
    sha = {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in (".gitkeep", "notes.txt")}
    journal(out, [{"name": ".gitkeep", "part": ".pnp-part.a", "old": None, "digest": sha[".gitkeep"]},
                  {"name": "notes.txt", "part": ".pnp-part.b", "old": ".pnp-old.notes.txt.x",
                   "digest": sha["notes.txt"]},
                  {"name": "made.txt", "part": ".pnp-part.d", "old": ".pnp-old.made.txt.y", "digest": "00"},
                  {"name": "x.pdf", "part": ".pnp-part.c", "old": None, "digest": "00"}])
    build(mini, "mini", out, "--paper", "letter")
    assert (folder / ".gitkeep").is_file() and (folder / "notes.txt").read_text() == "my notes\n"
    assert not (folder / "made.txt").exists()   # a planted copy is not put back where there was none


# --- the write gate: nothing written, read back or deleted outside --out/ID -----------------------
def journal(out: Path, renames: list, **extra) -> Path:
    path = out / "mini/.pnp-journal.json"
    path.write_text(json.dumps({"renames": renames, "manifest": {}, "record": {}, "old_manifest": {}, **extra}))
    return path


HOSTILE_JOURNALS = {
    "names a file outside": [{"name": "../../victim.txt", "part": ".pnp-part.x", "old": None, "digest": "0" * 64}],
    "keeps an old file outside": [{"name": "cards-a4.pdf", "part": ".pnp-part.x", "old": "../../victim.txt",
                                   "digest": "0" * 64}],
    "would delete a user's file": [{"name": "cards-a4.pdf", "part": "notes.txt", "old": None, "digest": "0" * 64}],
    "absolute": [{"name": "/tmp/victim.txt", "part": ".pnp-part.x", "old": None, "digest": "0" * 64}],
    "not a list": {"name": "x"},
}


@pytest.mark.parametrize("case", sorted(HOSTILE_JOURNALS))
def test_a_journal_naming_anything_but_pnps_own_files_deletes_nothing(mini, tmp_path, case):
    out = tmp_path / "out"
    build(mini, "mini", out)
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    (out / "mini/notes.txt").write_text("mine too")
    journal(out, HOSTILE_JOURNALS[case])
    before = files(out / "mini")
    edit(mini, "Jumps.")
    result = run("build", "--game", "mini", "--out", str(out), root=mini)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert ".pnp-journal.json is not a journal pnp wrote here" in result.stderr, result.stderr
    assert "delete .pnp-journal.json" in result.stderr and "build again" in result.stderr
    assert victim.read_text() == "mine" and files(out / "mini") == before


@pytest.mark.parametrize("damage", [b"{\"renames\": [", b"\xff\xfe", b"", b"[]"])
def test_a_damaged_journal_is_one_clear_error_that_says_what_to_do(mini, tmp_path, damage):
    out = tmp_path / "out"
    build(mini, "mini", out)
    (out / "mini/.pnp-journal.json").write_bytes(damage)
    before = files(out / "mini")
    result = run("build", "--game", "mini", "--out", str(out), "--paper", "letter", root=mini)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert ".pnp-journal.json" in result.stderr and "delete .pnp-journal.json" in result.stderr, result.stderr
    assert files(out / "mini") == before


def test_a_journal_naming_a_file_inside_never_deletes_what_pnp_did_not_write(mini, tmp_path):
    """A journal in pnp's shape that says a user's file was new: it does not hold what the
    journal says pnp wrote, so the undo leaves it."""
    out = tmp_path / "out"
    build(mini, "mini", out)
    (out / "mini/notes.txt").write_text("mine")
    journal(out, [{"name": "notes.txt", "part": ".pnp-part.gone", "old": None, "digest": "0" * 64}])
    build(mini, "mini", out, "--paper", "letter")
    assert (out / "mini/notes.txt").read_text() == "mine"
    assert leftovers(out / "mini") == []


def test_a_lock_that_is_a_link_never_creates_a_file_where_it_points(mini, tmp_path):
    out = tmp_path / "out"
    (out / "mini").mkdir(parents=True)
    (out / "mini/.pnp.lock").symlink_to(tmp_path / "created-by-pnp")
    result = run("build", "--game", "mini", "--out", str(out), root=mini)
    assert result.exit_code == 1 and ".pnp.lock is a link" in result.stderr, result.stderr
    assert not os.path.lexists(tmp_path / "created-by-pnp")


def test_a_game_output_folder_that_links_into_card_data_is_refused(mini, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "mini").symlink_to(mini / "card_data/mini")
    before = sorted(p.name for p in (mini / "card_data/mini").iterdir())
    result = run("build", "--game", "mini", "--out", str(out), root=mini)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "is a link" in result.stderr or "leads into card_data/" in result.stderr, result.stderr
    assert sorted(p.name for p in (mini / "card_data/mini").iterdir()) == before


def test_a_game_output_folder_inside_a_folder_pnp_reads_is_refused(mini, tmp_path):
    """--out itself is fine (the root), but ROOT/ID for a game named like a shared folder is not."""
    (mini / "card_data/mini").rename(mini / "card_data/layouts")
    result = run("build", "--game", "layouts", "--out", str(mini), root=mini)
    assert result.exit_code == 1 and "leads into layouts/, which pnp reads" in result.stderr, result.stderr
    assert not list((mini / "layouts").rglob("*.pdf"))


def test_a_shop_folder_that_links_outside_is_refused(mini, tmp_path):
    out = tmp_path / "out"
    build(mini, "mini", out)
    (tmp_path / "elsewhere").mkdir()
    (out / "mini/tgc").symlink_to(tmp_path / "elsewhere")
    result = run("build", "--game", "mini", "--out", str(out), "--shop", "tgc", root=mini)
    assert result.exit_code == 1 and "leads outside" in result.stderr, result.stderr
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_a_manifest_entry_through_a_linked_folder_deletes_nothing_outside(mini, tmp_path):
    out = tmp_path / "out"
    build(mini, "mini", out)
    (tmp_path / "elsewhere").mkdir()
    victim = tmp_path / "elsewhere/victim.pdf"
    victim.write_bytes(b"%PDF mine /Creator (pnp)")
    (out / "mini/gone").symlink_to(tmp_path / "elsewhere")
    manifest = json.loads((out / "mini/.pnp-manifest.json").read_text())
    import hashlib
    manifest["gone/victim.pdf"] = {"sha256": hashlib.sha256(victim.read_bytes()).hexdigest(), "component": "gone"}
    (out / "mini/.pnp-manifest.json").write_text(json.dumps(manifest))
    edit(mini, "Jumps.")
    build(mini, "mini", out)   # the component 'gone' is not the game's: its files would go
    assert victim.read_bytes() == b"%PDF mine /Creator (pnp)"


def test_pnps_json_files_that_are_links_are_never_read_through(mini, tmp_path):
    out = tmp_path / "out"
    build(mini, "mini", out)
    for name in (".pnp-manifest.json", ".pnp-build.json"):
        (out / "mini" / name).unlink()
        (out / "mini" / name).symlink_to("/dev/zero")   # read through, it would never end
    edit(mini, "Jumps.")
    build(mini, "mini", out)   # the marks in pnp's files stand in for the manifest
    assert not (out / "mini/.pnp-manifest.json").is_symlink()


# --- all or nothing, really -------------------------------------------------------------------------
DROPPING_KILLER = textwrap.dedent("""
    import os, sys, pathlib
    sys.path.insert(0, {repo!r})
    real = pathlib.Path.unlink
    def unlink(self, *args, **kwargs):
        if self.name.startswith(".pnp-old."):
            os._exit(137)          # killed while the old files are dropped
        return real(self, *args, **kwargs)
    pathlib.Path.unlink = unlink
    from pnp.cli import main
    sys.argv = ["pnp", "build", "--game", "mini", "--root", {root!r}, "--out", {out!r}]
    main()
""")


def test_a_kill_while_old_files_are_dropped_leaves_a_complete_commit(mini, tmp_path):
    """Killed after the renames, while the kept old files go: the new files are all in place and
    no journal is left to undo later; the next build (up to date) clears the leftovers, and a
    later edit of a PDF is refused, never silently overwritten."""
    out = tmp_path / "out"
    build(mini, "mini", out)
    edit(mini, "Jumps.")
    build(mini, "mini", tmp_path / "new")
    killed = subprocess.run([sys.executable, "-c", DROPPING_KILLER.format(repo=str(REPO), root=str(mini), out=str(out))],
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == 137, killed.stderr
    assert not (out / "mini/.pnp-journal.json").exists()
    pdfs = {k: v for k, v in files(out / "mini").items() if k.endswith(".pdf")}
    assert pdfs == {k: v for k, v in files(tmp_path / "new/mini").items() if k.endswith(".pdf")}
    result = build(mini, "mini", out)
    assert "up to date" in result.output
    assert leftovers(out / "mini") == []
    rules = out / "mini/rules-a4.pdf"
    rules.write_bytes(rules.read_bytes() + b"\n% my note\n")
    edit(mini, "Leaps.")
    result = run("build", "--game", "mini", "--out", str(out), root=mini)
    assert result.exit_code == 1 and "rules-a4.pdf was not written by pnp, or was changed" in result.stderr
    assert rules.read_bytes().endswith(b"% my note\n")


def test_the_next_build_finishes_a_journal_before_it_judges_the_folder_up_to_date(mini, tmp_path, monkeypatch):
    """A commit cut short after its record was written (the journal and kept old files still
    there): the next build, with nothing changed, finishes it first, then finds it up to date."""
    out = tmp_path / "out"
    build(mini, "mini", out)
    edit(mini, "Jumps.")
    monkeypatch.setattr(output_folder.OutputFolder, "_forget", lambda self, journal: None)   # cut short here
    build(mini, "mini", out)
    monkeypatch.undo()
    assert (out / "mini/.pnp-journal.json").exists() and leftovers(out / "mini")
    result = build(mini, "mini", out)
    assert "up to date" in result.output
    assert leftovers(out / "mini") == []


def test_a_component_whose_file_would_take_the_print_all_name_is_an_error_at_its_id(mini, tmp_path):
    game = mini / "card_data/mini/game.yaml"
    text = game.read_text()
    game.write_text(text.replace("  - id: rules\n", "  - id: mini-print-all\n    kind: deck\n    data: cards.yaml\n"
                                 "    front: mini/card\n  - id: rules\n"))
    line = game.read_text().splitlines().index("  - id: mini-print-all") + 1
    for command in ("build", "validate"):
        result = run(command, "--game", "mini", *(("--out", str(tmp_path)) if command == "build" else ()), root=mini)
        assert result.exit_code == 1 and "Traceback" not in result.stderr
        assert f"game.yaml:{line}: components[" in result.stderr, result.stderr
        assert "component 'mini-print-all' would write mini-print-all-a4.pdf" in result.stderr
        assert "print-all" in result.stderr
    assert not (tmp_path / "mini").exists()


def test_a_lost_manifest_is_rebuilt_from_pnps_own_files(mini, tmp_path):
    """Every file pnp wrote (the joined print-all, PNGs, and the shop's CSV through the build
    record) is still known as pnp's once the manifest is gone."""
    out = tmp_path / "out"
    build(mini, "mini", out, "--shop", "tgc")
    (out / "mini/.pnp-manifest.json").unlink()
    edit(mini, "Jumps.")
    build(mini, "mini", out, "--shop", "tgc")
    manifest = json.loads((out / "mini/.pnp-manifest.json").read_text())
    assert "mini-print-all-a4.pdf" in manifest and "tgc/manifest.csv" in manifest


def test_proof_into_a_game_output_folder_that_links_into_card_data_is_refused(mini, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "mini").symlink_to(mini / "card_data/mini")
    result = run("proof", "--game", "mini", "--out", str(out), root=mini)
    assert result.exit_code == 1 and "is a link" in result.stderr, result.stderr
    assert not (mini / "card_data/mini/proof").exists()


def test_a_build_waiting_on_a_lock_taken_away_locks_the_new_one(tmp_path):
    """A build that created the lock and had nothing to keep removes it as it lets go; one
    waiting on that file then locks the file now there, so no two builds hold the folder."""
    import threading
    import time
    folder = output_folder.OutputFolder(tmp_path / "mine")
    folder.folder.mkdir()
    order = []

    def waiting() -> None:
        with folder._locked():
            order.append(("second", os.stat(folder.folder / ".pnp.lock").st_ino))

    with folder._locked():
        first = os.stat(folder.folder / ".pnp.lock").st_ino
        other = threading.Thread(target=waiting)
        other.start()
        time.sleep(0.3)   # the other opens this lock file and waits on it
        order.append(("first", first))
    other.join(5)
    assert [who for who, _ in order] == ["first", "second"]
    assert not (folder.folder / ".pnp.lock").exists()   # nothing of pnp's there: no lock left either


def test_an_output_folder_removed_before_its_lock_is_an_error_not_a_wait(tmp_path):
    """A user's `rm -rf output` between pnp making the folder and locking it: the lock cannot
    be made, which is one error (a review found pnp retrying for ever at full speed)."""
    code = ("from pathlib import Path\nfrom pnp.outputs.folder import OutputFolder\n"
            f"with OutputFolder(Path({str(tmp_path / 'gone')!r}))._locked():\n    pass\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20,
                          cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 1 and "FileNotFoundError" in done.stderr
