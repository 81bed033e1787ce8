"""What pnp ships for games made outside its repository: the bundled fonts and base layouts.

A project folder's own `fonts/` and `layouts/` come first; a project made by `pnp new` in an
empty folder has neither `fonts/` nor `layouts/base/` and draws with these. They are real
files in the package, the same in a checkout, an editable install and a wheel (the
repository's top-level `fonts` is a link to `pnp/bundled/fonts`, for its own games). What a
build reads of them counts in its cache key and is watched (pnp.inputs.BuildInputs)."""

from __future__ import annotations

from pathlib import Path

BUNDLED = Path(__file__).parent / "bundled"
SHOPS = Path(__file__).resolve().parent / "shops"   # the shop presets pnp carries (pnp.config.shop)


def fonts_folder(root: Path) -> Path:
    """The project's fonts/ when it has a fonts.yaml, else pnp's own."""
    own = Path(root) / "fonts"
    return own if (own / "fonts.yaml").is_file() else BUNDLED / "fonts"


def layout_folders(root: Path) -> list[Path]:
    """Where layout names are looked up, first match wins: the project's, then pnp's."""
    return [Path(root) / "layouts", BUNDLED / "layouts"]
