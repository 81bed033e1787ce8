"""Card data at a URL (a Google Sheet published as CSV, a file on a server), kept as a local copy.

    data: https://docs.google.com/spreadsheets/d/e/…/pub?output=csv

The first build downloads it into the game folder (`.pnp-data/`), with a note of the URL and
the time beside it; later builds read that copy, so a build never waits on the network and the
same copy gives the same PDFs. `pnp build --refresh` downloads again; when that fails (offline,
the server down) the copy is used with a warning saying how old it is.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

from pnp.config.sheets import SHEET_SUFFIXES
from pnp.yaml_source import MAX_FILE_BYTES

CACHE = ".pnp-data"
TIMEOUT = 20   # seconds: a published sheet answers in one or two


def is_url(name: str) -> bool:
    return name.startswith(("http://", "https://"))


def cached_copy(game_folder: Path, url: str) -> Path:
    """Where the copy of `url` lives: named by a hash of the URL, with the data's suffix
    (`.csv` unless the URL's path ends in another one pnp reads), and a `#sheet` kept aside."""
    address, _, _ = url.partition("#")
    suffix = Path(urlparse(address).path).suffix.lower()
    if suffix not in SHEET_SUFFIXES | {".yaml", ".yml"}:
        suffix = ".csv"   # a published Google Sheet: pub?output=csv
    return game_folder / CACHE / (hashlib.sha256(address.encode()).hexdigest()[:16] + suffix)


def local_data(game_folder: Path, url: str, where, refresh: bool, warn) -> Path:
    """The local copy of `url`, downloaded first when there is none or `refresh` asks."""
    address = url.partition("#")[0]
    copy = cached_copy(game_folder, url)
    if copy.is_file() and not refresh:
        return copy
    try:
        data = download(address)
    except OSError as exc:
        reason = getattr(exc, "reason", None) or exc
        if copy.is_file():
            warn(f"{where.file}:{where.line}: could not download {address} ({reason}); "
                 f"using the copy from {fetched_at(copy)}")
            return copy
        raise where.error(f"could not download {address} ({reason}) and there is no copy of it yet",
                          hint="check the address and your connection, then build again") from None
    write_copy(copy, data, address)
    return copy


def download(address: str) -> bytes:
    request = urllib.request.Request(address, headers={"User-Agent": "pnp (print-and-play builder)"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:   # noqa: S310 (http/https only)
        data = response.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise OSError(f"more than {MAX_FILE_BYTES // 2**20} MB")
    return data


def write_copy(copy: Path, data: bytes, address: str) -> None:
    """The copy and its note, each written whole (a temporary file renamed into place)."""
    copy.parent.mkdir(parents=True, exist_ok=True)
    note = {"url": address, "fetched": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    for path, content in ((copy, data), (note_of(copy), json.dumps(note, indent=1).encode())):
        fd, temp = tempfile.mkstemp(prefix=".pnp-part.", dir=copy.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.replace(temp, path)


def note_of(copy: Path) -> Path:
    return copy.with_name(copy.name + ".source.json")


def fetched_at(copy: Path) -> str:
    try:
        return json.loads(note_of(copy).read_text(encoding="utf-8"))["fetched"]
    except (OSError, ValueError, KeyError, TypeError):
        return "an earlier build"

