"""What a build reads is one list (pnp.inputs.BuildInputs): the build cache, the watcher and
the preview's picture keys all take it from there, pnp's own fonts and layouts included."""

from __future__ import annotations

import os
from pathlib import Path

import pnp
from pnp.commands.new import new_game
from pnp.inputs import BuildInputs
from pnp.watching import watched_folders

BUNDLED = Path(pnp.__file__).resolve().parent / "bundled"


def test_the_bundled_resources_are_real_files_not_links():
    found = []
    for folder, dirs, files in os.walk(BUNDLED):
        for name in dirs + files:
            path = Path(folder) / name
            assert not path.is_symlink(), f"{path} is a link: a wheel or another checkout would lack it"
            found.append(path.relative_to(BUNDLED).as_posix())
    assert "fonts/fonts.yaml" in found and "layouts/base/card.yaml" in found
    assert not any(name.startswith("layouts/big-ten") for name in found)   # the games' own stay theirs


def test_an_outside_project_reads_and_watches_pnps_own_fonts_layouts_sheets_and_shops(tmp_path):
    new_game(tmp_path, "demo", "Demo")
    folders = [folder.resolve() for folder in watched_folders(tmp_path, ["demo"])]
    for bundled in (BUNDLED / "fonts", BUNDLED / "layouts", BUNDLED / "sheets", BUNDLED.parent / "shops"):
        assert bundled.resolve() in folders
    for shared in ("layouts", "fonts", "shops", "sheets"):
        assert (tmp_path / shared).resolve() in folders
    names = [name for name, _ in BuildInputs(tmp_path, ("demo",)).files()]
    assert "pnp:fonts/Lato-Regular.ttf" in names and "pnp:layouts/base/card.yaml" in names
    assert "card_data/demo/game.yaml" in names


def test_a_project_with_fonts_of_its_own_does_not_read_pnps(tmp_path):
    new_game(tmp_path, "demo", "Demo")
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts/fonts.yaml").write_text("families: {}\n")
    names = [name for name, _ in BuildInputs(tmp_path, ("demo",)).files()]
    assert "fonts/fonts.yaml" in names and not any(name.startswith("pnp:fonts/") for name in names)


def test_the_preview_pictures_are_drawn_again_when_a_shop_or_sheet_layout_changes(tmp_path):
    from pnp.project import Project
    from pnp.render import PrintOptions
    from pnp.serve.pictures import look_digest
    new_game(tmp_path, "demo", "Demo")
    project = Project(tmp_path)
    checked = project.check("demo")

    def look() -> str:
        return look_digest(tmp_path, checked.game, checked.decks, PrintOptions())

    before = look()
    assert look() == before
    (tmp_path / "sheets").mkdir()
    (tmp_path / "sheets/mine.yaml").write_text("description: a sheet\n")
    after_sheet = look()
    assert after_sheet != before
    (tmp_path / "shops").mkdir()
    (tmp_path / "shops/mine.yaml").write_text("name: mine\n")
    assert look() != after_sheet


def test_an_editors_temporary_and_lock_files_are_not_changes(mini):
    """Saving in an editor writes files beside the one saved (a .tmp to rename, a lock, a
    backup): watch and serve rebuild for the saved file, not for each of those."""
    import threading
    import time
    from pnp.watching import changes
    stop = threading.Event()
    seen = changes(mini, ["mini"], stop, poll_seconds=0.1)
    next(seen)   # the folders are watched from here on
    folder = mini / "card_data/mini"
    for name in ("cards.yaml.tmp", "cards.yaml.part", ".~lock.cards.yaml#", ".#cards.yaml", "~$cards.xlsx"):
        (folder / name).write_text("an editor's own file")
    (folder / "rules.md").write_text((folder / "rules.md").read_text() + "\nOne more rule.\n")
    found: set = set()
    deadline = time.monotonic() + 20
    while "rules.md" not in {path.name for path in found} and time.monotonic() < deadline:
        found |= next(seen)
    stop.set()
    seen.close()
    assert {path.name for path in found} == {"rules.md"}


def test_a_file_rewritten_at_the_same_size_and_time_counts_as_changed(tmp_path, monkeypatch):
    """Digests are kept by each file's size, times and inode (a rebuild reads the shared
    folders once): a save that keeps the size and puts the old time back still changes it."""
    import hashlib

    from pnp import inputs
    monkeypatch.setattr(inputs, "SETTLED", -1)   # keep even a file saved a moment ago
    data = tmp_path / "cards.yaml"
    data.write_text("value: 1\n")
    assert inputs.content_digest(data) == hashlib.sha256(b"value: 1\n").digest()
    before = data.stat()
    data.write_text("value: 2\n")
    os.utime(data, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert inputs.content_digest(data) == hashlib.sha256(b"value: 2\n").digest()


def test_the_files_read_are_listed_in_order_with_links_to_files_and_not_into_linked_folders(tmp_path):
    from pnp.inputs import files_under
    (tmp_path / "b/c").mkdir(parents=True)
    for name in ("a.yaml", "b/c/d.png", "b/e.yaml", "b-z.txt"):
        (tmp_path / name).write_text(name)
    (tmp_path / "link.yaml").symlink_to(tmp_path / "a.yaml")
    (tmp_path / "linked").symlink_to(tmp_path / "b")
    (tmp_path / "loop.png").symlink_to(tmp_path / "loop.png")
    assert files_under(str(tmp_path)) == ["a.yaml", "b/c/d.png", "b/e.yaml", "b-z.txt", "link.yaml"]
    assert files_under(str(tmp_path / "missing")) == []


def test_a_build_with_another_back_offset_draws_again_though_its_files_keep_their_names(mini, tmp_path):
    """The options are part of what a build reads: the back offset's value is not in the file
    names, so only the key can tell the builds apart."""
    from conftest import build, pdf, run
    build(mini, "mini", tmp_path, "--back-offset", "1,0")
    before = pdf(tmp_path / "mini/cards-a4-back-offset.pdf").pages[1].get_contents().get_data()
    again = run("build", "--game", "mini", "--out", str(tmp_path), "--back-offset", "3,0", root=mini)
    assert again.exit_code == 0 and "up to date" not in again.output
    after = pdf(tmp_path / "mini/cards-a4-back-offset.pdf").pages[1].get_contents().get_data()
    assert after != before


def test_pnps_own_modules_and_yaml_count_as_its_code(tmp_path, monkeypatch):
    """A changed or upgraded pnp never reuses an old build: its Python modules and its own YAML
    (the bundled words and arrangements no folder of a build lists) are in every key."""
    from pnp import cache
    package = tmp_path / "pnp"
    (package / "bundled/words").mkdir(parents=True)
    (package / "cli.py").write_text("print('hi')\n")
    (package / "bundled/words/en.yaml").write_text("page: page\n")
    (package / "notes.txt").write_text("not code\n")
    monkeypatch.setattr(cache, "PACKAGE", package)

    def digest() -> str:
        cache.code_digest.cache_clear()
        return cache.code_digest()
    try:
        first = digest()
        (package / "notes.txt").write_text("still not code, longer\n")
        assert digest() == first
        for changed in ("bundled/words/en.yaml", "cli.py"):
            (package / changed).write_text((package / changed).read_text() + "# more\n")
            assert digest() != first, changed
            first = digest()
    finally:
        cache.code_digest.cache_clear()   # pnp's own, for the tests that follow


def test_watching_goes_on_by_looking_at_the_files_when_the_system_will_not_tell(mini, monkeypatch):
    """A user's inotify instances and watches are few (128 instances), and editors use them too:
    when the system refuses to watch the folders, a change is still seen, by looking."""
    import threading
    import time
    import watchfiles
    from pnp import watching
    real = watchfiles.watch

    def refusing(*folders, force_polling=False, **options):
        if not force_polling:
            raise OSError(24, "Too many open files")   # inotify_init1 past fs.inotify.max_user_instances
        return real(*folders, force_polling=True, **options)
    monkeypatch.setattr(watching.watchfiles, "watch", refusing)
    stop = threading.Event()
    seen = watching.changes(mini, ["mini"], stop, poll_seconds=0.1)
    rules = mini / "card_data/mini/rules.md"
    found: set = set()
    deadline = time.monotonic() + 20
    edited = False
    while "rules.md" not in {path.name for path in found} and time.monotonic() < deadline:
        found |= next(seen)
        if not edited and time.monotonic() > deadline - 19:   # once the polling has started
            rules.write_text(rules.read_text() + "\nOne more rule.\n")
            edited = True
    stop.set()
    seen.close()
    assert "rules.md" in {path.name for path in found}


def test_only_the_systems_refusal_turns_watching_to_looking():
    """A folder that vanished while being armed (a git checkout) is armed again with the system's
    help; only its refusal (watches or instances used up) turns pnp to looking at the files."""
    import errno
    from pnp.watching import refused
    assert refused(OSError(errno.EMFILE, "Too many open files"))
    assert refused(OSError("OS file watch limit reached. about [\"/x\"]"))
    assert not refused(FileNotFoundError(errno.ENOENT, "No such file or directory"))
    assert not refused(PermissionError(errno.EACCES, "Permission denied"))
