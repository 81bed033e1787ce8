"""Card data at a URL (a Google Sheet published as CSV, a file on a server), kept as a local copy.

    data: https://docs.google.com/spreadsheets/d/e/…/pub?output=csv

The first build downloads it into the game folder (`.pnp-data/`), with a note of the URL and
the time beside it; later builds read that copy, so a build never waits on the network and the
same copy gives the same PDFs. `pnp build --refresh` downloads again; when that fails (offline,
the server down) the copy is used with a warning saying how old it is.

A download is kept only when it is whole: the body must be as long as the server's
Content-Length says, a chunked body must end properly, and the whole download must finish
within TOTAL_SECONDS (a server that sends a byte every few seconds never passes a per-read
timeout). Anything less is a failed download: the earlier copy stays as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pnp.config.sheets import SHEET_SUFFIXES
from pnp.yaml_source import MAX_FILE_BYTES

if TYPE_CHECKING:
    from pnp.config.typed import Where

CACHE = ".pnp-data"
TIMEOUT = 10          # seconds without a byte: a published sheet answers in one or two
TOTAL_SECONDS = 30.0  # the whole download, however the server trickles it
CHUNK = 64 * 1024


class DownloadFailed(OSError):
    """A download that did not give the whole file: told like being offline."""


def is_url(name: str) -> bool:
    return name.startswith(("http://", "https://"))


def cached_copy(game_folder: Path, url: str) -> Path:
    """Where the copy of `url` lives: named by a hash of the URL, with the data's suffix
    (`.csv` unless the URL's path ends in another one pnp reads), and a `#sheet` kept aside."""
    address, _, _ = url.partition("#")
    suffix = Path(urlsplit(address).path).suffix.lower()
    if suffix not in SHEET_SUFFIXES | {".yaml", ".yml"}:
        suffix = ".csv"   # a published Google Sheet: pub?output=csv
    return game_folder / CACHE / (hashlib.sha256(address.encode()).hexdigest()[:16] + suffix)


def local_data(game_folder: Path, url: str, where: Where, refresh: bool, warn: Callable[[str], None]) -> Path:
    """The local copy of `url`, downloaded first when there is none or `refresh` asks."""
    address = url.partition("#")[0]
    check_address(address, where)
    copy = cached_copy(game_folder, url)
    if copy.is_file() and not refresh:
        return copy
    from pnp.paths import write_inside
    for path in (copy, note_of(copy)):   # before the download: nothing fetched for a place refused
        write_inside(path, game_folder, where.error, "downloaded data")
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
    write_copy(copy, data, address, game_folder, where)
    return copy


def check_address(address: str, where: Where) -> None:
    """An address pnp can download from, or one clear error at the game's `data:` line."""
    try:
        parts = urlsplit(address)
        parts.port   # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        raise where.error(f"'{address}' is not a web address pnp can read ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise where.error(f"'{address}' is not a web address pnp can read",
                          hint="an http:// or https:// address with a server name")


def download(address: str) -> bytes:
    """The whole body at `address`, within TOTAL_SECONDS, or DownloadFailed (an OSError)."""
    import http.client   # here: a build that downloads nothing does not load the HTTP machinery
    done = threading.Event()
    stop = threading.Event()
    result: dict[str, Any] = {}   # the fetching thread's bytes or error

    def fetch() -> None:
        try:
            result["data"] = read_whole(address, stop)
        except (OSError, http.client.HTTPException, ValueError) as exc:
            result["error"] = exc
        finally:
            done.set()

    # A thread of its own, so that the total time holds even while the server trickles headers;
    # left behind after the limit, it stops at its next read.
    threading.Thread(target=fetch, name="pnp-download", daemon=True).start()
    if not done.wait(TOTAL_SECONDS):
        stop.set()
        raise DownloadFailed(f"the download took more than {TOTAL_SECONDS:g} seconds")
    if "error" in result:
        exc = result["error"]
        if isinstance(exc, DownloadFailed):
            raise exc
        if isinstance(exc, http.client.IncompleteRead):
            raise DownloadFailed(f"the server stopped after {len(exc.partial)} bytes of the file")
        if isinstance(exc, (http.client.HTTPException, ValueError)):
            raise DownloadFailed(f"the server's answer is not a valid HTTP response "
                                 f"({exc.__class__.__name__}{': ' + str(exc)[:80] if str(exc) else ''})")
        raise exc
    data: bytes = result["data"]
    return data


def read_whole(address: str, stop: threading.Event) -> bytes:
    import urllib.request
    request = urllib.request.Request(address, headers={"User-Agent": "pnp (print-and-play builder)"})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:   # noqa: S310 (http/https only)
        declared = response.headers.get("Content-Length")
        expected = int(declared) if declared is not None and declared.strip().isdigit() else None
        if declared is not None and expected is None:
            raise DownloadFailed(f"the server sent a bad Content-Length ({declared[:40]!r})")
        if expected is not None and expected > MAX_FILE_BYTES:
            raise DownloadFailed(f"more than {MAX_FILE_BYTES // 2**20} MB")
        parts: list[bytes] = []
        size = 0
        while not stop.is_set():
            part = response.read1(CHUNK)
            if not part:
                break
            parts.append(part)
            size += len(part)
            if size > MAX_FILE_BYTES:
                raise DownloadFailed(f"more than {MAX_FILE_BYTES // 2**20} MB")
        if stop.is_set():
            raise DownloadFailed("stopped")
    if expected is not None and size != expected:
        raise DownloadFailed(f"the server sent {size} of the file's {expected} bytes (cut short)")
    return b"".join(parts)


def write_copy(copy: Path, data: bytes, address: str, game_folder: Path, where: Where) -> None:
    """The copy and its note, each written whole (a temporary file renamed into place), only
    inside the game folder: a `.pnp-data` that is a link is refused before anything is written
    (checked again here: the folder may have changed during the download)."""
    from pnp.paths import write_inside
    for path in (copy, note_of(copy)):
        write_inside(path, game_folder, where.error, "downloaded data")
    copy.parent.mkdir(parents=True, exist_ok=True)
    note = {"url": address, "fetched": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    for path, content in ((copy, data), (note_of(copy), json.dumps(note, indent=1).encode())):
        fd, temp = tempfile.mkstemp(prefix=".pnp-part.", dir=copy.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)   # no half-written part left in the game folder
            raise


def note_of(copy: Path) -> Path:
    return copy.with_name(copy.name + ".source.json")


def fetched_at(copy: Path) -> str:
    try:
        return str(json.loads(note_of(copy).read_text(encoding="utf-8"))["fetched"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):   # a note edited by hand, nested past reason
        return "an earlier build"

