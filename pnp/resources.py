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


def words_folder() -> Path:
    """pnp's own words in the languages it ships them in (bundled/words/CODE.yaml)."""
    return BUNDLED / "words"


# What base/card draws, told in every starter layout `pnp new` writes (and in docs/format.md).
BASE_NOTE = """# base/card is pnp's own layout (docs/format.md, "The base layout"). It draws two boxes
# before these elements:
#   background: the card's colour, run into the bleed (an element with the same id
#               replaces it, in place)
#   panel:      a cream (#fbf8ef) box with rounded corners, 4 mm inside the cut line
# To change the panel, add an element with `id: panel`; to draw none, replace it with a box
# that draws nothing: - {kind: box, id: panel}. Or leave out `extends` and draw it all here."""
