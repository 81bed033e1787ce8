"""What pnp ships for games made outside its repository: the bundled fonts and base layouts.

A project folder's own `fonts/` and `layouts/` come first; a project made by `pnp new` in an
empty folder has neither `fonts/` nor `layouts/base/` and draws with these. In the repository
`pnp/bundled/` links to the top-level folders, and a wheel carries copies of them."""

from __future__ import annotations

from pathlib import Path

BUNDLED = Path(__file__).parent / "bundled"


def fonts_folder(root: Path) -> Path:
    """The project's fonts/ when it has a fonts.yaml, else pnp's own."""
    own = Path(root) / "fonts"
    return own if (own / "fonts.yaml").is_file() else BUNDLED / "fonts"


def layout_folders(root: Path) -> list[Path]:
    """Where layout names are looked up, first match wins: the project's, then pnp's."""
    return [Path(root) / "layouts", BUNDLED / "layouts"]


def words_folder() -> Path:
    """pnp's own words in the languages it ships them in (bundled/words/CODE.yaml)."""
    return BUNDLED / "words"
