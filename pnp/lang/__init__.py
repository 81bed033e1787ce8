"""Translated builds: a game's languages are the files in its `lang/` folder, one a language
(`card_data/<game>/lang/de.yaml`).

This module only lists them and picks the ones asked for, so a build without `--lang` pays
for no more than one look at a folder; loading (`file.py`), applying (`apply.py`) and checking
(`check.py`) a translation are imported only when one is used."""

from __future__ import annotations

import re
from pathlib import Path

from pnp.errors import PnpError, did_you_mean

FOLDER = "lang"
CODE = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$")   # de, he, pt-BR: a language tag


def language_codes(game_folder: Path) -> list[str]:
    """The languages a game is translated into, sorted (no lang/ folder: none)."""
    folder = Path(game_folder) / FOLDER
    if not folder.is_dir():
        return []
    return sorted(path.stem for path in folder.glob("*.yaml") if CODE.match(path.stem))


def lang_file(game_folder: Path, code: str) -> Path:
    return Path(game_folder) / FOLDER / f"{code}.yaml"


def chosen_languages(game_folder: Path, game_id: str, asked: tuple[str, ...]) -> list[str]:
    """The languages `--lang` names for one game (`all`: every one it has), or one error
    that lists the languages the game has."""
    have = language_codes(game_folder)
    if "all" in asked:
        if not have:
            raise PnpError(f"{game_id} has no translations; `pnp translate --game {game_id} --lang CODE` "
                           f"writes card_data/{game_id}/{FOLDER}/CODE.yaml for you to fill in")
        return have
    for code in asked:
        if code not in have:
            hint = did_you_mean(code, have)
            listed = f"its languages: {', '.join(have)}" if have else \
                f"it has none yet (card_data/{game_id}/{FOLDER}/ holds one YAML file a language)"
            start = f"`pnp translate --game {game_id} --lang {code}` starts one" if CODE.match(code) \
                else f"'{code}' is no language code (de, he, ar, pt-BR)"
            raise PnpError(f"{game_id} has no translation '{code}'; {listed}"
                           + (f"; {hint}" if hint else "") + f"; {start}")
    return list(dict.fromkeys(asked))
