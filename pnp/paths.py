"""The one gate for files pnp reads on a game's behalf.

A game folder is something people share and unzip, so every file it names (data, images, SVG
references, icons, fonts, layouts, rule sheets, shop presets) is resolved with every link
followed and read only when it lies inside the folders it may come from: the game's own
folder, the root's shared folders (layouts/, fonts/, shops/, sheets/) or pnp's own bundled
files. A file with a second name (a hard link) outside pnp's own files is refused too: its
other name may be anywhere."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from pnp.errors import PnpError

Fail = Callable[[str], Exception]   # makes the error to raise, e.g. `where.error`


class Place(Protocol):
    """Where a path is written (a config `Where`): it makes the error that names it."""

    def error(self, message: str, hint: str | None = None) -> PnpError: ...


@lru_cache(maxsize=1)
def own_folders() -> tuple[Path, ...]:
    """pnp's package and the bundled fonts and layouts it carries (real files in the package;
    each resolved, in case an installation links them elsewhere)."""
    package = Path(__file__).resolve().parent
    bundled = package / "bundled"
    found = [package]
    if bundled.is_dir():
        found += [child.resolve() for child in sorted(bundled.iterdir())]
    return tuple(found)


def inside(path: Path, folders: Sequence[Path], resolved: bool = False) -> bool:
    """Whether a resolved path is one of the folders or lies in one of them (each resolved,
    unless they already are)."""
    for folder in folders:
        if not resolved:
            try:
                folder = folder.resolve()
            except (OSError, RuntimeError):
                continue
        if path == folder or folder in path.parents:
            return True
    return False


def gate(path: Path, folders: Sequence[Path], fail: Fail, what: str, shown: str | None = None,
         where_to: str = "the game folder") -> Path:
    """`path` with every link followed, if it lies inside one of `folders` or pnp's own files;
    else `fail(message)` is raised. `shown` is the name the user wrote."""
    shown = str(path) if shown is None else shown
    if "\0" in str(path):
        raise fail(f"{what} path contains a NUL character; remove it")
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):   # a link that leads to itself
        raise fail(f"{what} path '{shown}' is a link that never ends (a symlink loop)") from None
    own = inside(resolved, own_folders(), resolved=True)   # resolved once per process
    if not own and not inside(resolved, folders):
        raise fail(f"{what} path '{shown}' leads outside {where_to}")
    if resolved.exists() and not (resolved.is_file() or resolved.is_dir()):
        raise fail(f"{what} '{shown}' is not a plain file (a pipe or a device); pnp reads only files")
    if not own:
        try:
            links = resolved.stat().st_nlink if resolved.is_file() else 1
        except OSError:
            links = 1
        if links > 1:
            raise fail(f"{what} '{shown}' is a hard link: the same file has another name, which may "
                       f"be anywhere; copy the file in instead of linking it")
    return resolved


def safe_path(base: Path, name: str, where: Place, what: str) -> Path:
    """`name` resolved inside `base`; absolute paths, `..` and links that lead out are refused."""
    if "\0" in name:
        raise where.error(f"{what} path contains a NUL character; remove it")
    candidate = Path(name)
    if candidate.is_absolute():
        raise where.error(f"{what} path '{name}' is absolute; give it relative to the game folder")
    return gate(base / candidate, [base], where.error, what, shown=name)


def file_error(path: Path) -> Fail:
    """A `fail` for a file found by listing a folder: the error names the file itself."""
    from pnp.yaml_source import display_path
    return lambda message: PnpError(message, file=display_path(path))


def check_project_folders(root: Path) -> None:
    """The project's own folders (card_data/, layouts/, fonts/, shops/, sheets/) lie inside it:
    one that is a link leading elsewhere would let a shared project read, and `pnp serve
    --edit` write, anywhere the link points."""
    from pnp.inputs import SHARED_FOLDERS
    try:
        real_root = root.resolve()
    except (OSError, RuntimeError):
        raise PnpError(f"the project folder {root} is a link that never ends") from None
    for name in ("card_data",) + SHARED_FOLDERS:
        folder = root / name
        if not folder.is_symlink():
            continue
        try:
            target = folder.resolve()
        except (OSError, RuntimeError):
            target = None
        if target is None or not inside(target, [real_root], resolved=True):
            raise PnpError(f"{folder} is a link that leads outside the project (to {folder.readlink()}); pnp "
                           f"reads and writes a project's files only inside it",
                           hint=f"put the {name} folder itself in the project")


def write_inside(path: Path, base: Path, fail: Fail, what: str, where_to: str = "the game folder") -> Path:
    """`path`, to be written, when it and every folder between `base` and it is a plain file or
    folder (or not there yet), not a link: a link would carry the write out of `base`."""
    try:
        parts = path.relative_to(base).parts
    except ValueError:
        raise fail(f"{what} '{path}' is not inside {base}") from None
    current = base
    for part in parts:
        current = current / part
        if current.is_symlink():
            shown = current.relative_to(base).as_posix()
            raise fail(f"'{shown}' is a link: pnp writes the {what} only inside {where_to} itself; "
                       f"replace the link with a folder")
    return path


def read_folders(root: Path, game_folder: Path) -> list[Path]:
    """Where a build of a game may read: its own folder and the root's shared folders."""
    from pnp.inputs import SHARED_FOLDERS
    return [game_folder] + [Path(root) / name for name in SHARED_FOLDERS]


def game_ids(root: Path) -> list[str]:
    """The games of the project at `root`: each folder of card_data/ with a game.yaml."""
    folder = root / "card_data"
    if not folder.is_dir():
        return []
    return sorted(p.parent.name for p in folder.glob("*/game.yaml"))
