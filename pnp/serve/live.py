"""The live state `pnp serve` publishes: the latest pictures of a game, or the error that keeps
them from being redrawn, and a version number that moves on with every change.

One `LiveGame` per served game. It keeps a `Preview` per set of options a page asked for
(letter or A4, ink saver), redraws them all when a file changes, and wakes every page
waiting on `wait_for_change`. A failed reload keeps the last good pictures and publishes
the error beside them until a later save fixes it."""

from __future__ import annotations

import threading
import traceback
from pathlib import Path
from typing import Any

from pnp.errors import PnpError
from pnp.serve.pictures import PictureStore, Preview, PreviewOptions

Json = dict[str, Any]   # what the page is sent, as JSON

MAX_OPTION_SETS = 8   # paper x ink saver x language: the sets pages asked for last


def error_json(exc: Exception) -> Json:
    if isinstance(exc, PnpError):
        return dict(text=str(exc), file=exc.file, line=exc.line, field=exc.field, message=exc.message)
    # not the user's input: still shown on the page, and the server goes on
    return dict(text=f"pnp hit an internal problem ({exc.__class__.__name__}: {exc})",
                file=None, line=None, field=None, message=str(exc))


class LiveGame:
    def __init__(self, root: Path, game_id: str):
        self.root, self.game_id = Path(root), game_id
        self.store = PictureStore()
        self.version = 0
        self._changed = threading.Condition()
        self._previews: dict[PreviewOptions, Preview] = {}
        self._states: dict[PreviewOptions, Json] = {}
        self._refresh_lock = threading.Lock()

    # --- what pages read ---------------------------------------------------------------------
    def state(self, options: PreviewOptions) -> Json:
        """The latest state for these options; the first request for a new set draws it."""
        if options not in self._states:
            self._refresh(options)
        state = dict(self._states[options])
        state["version"] = self.version
        return state

    def wait_for_change(self, seen: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self.version != seen, timeout)
            return self.version

    # --- what the watcher calls ----------------------------------------------------------------
    def refresh_all(self) -> None:
        for options in list(self._previews) or [PreviewOptions()]:
            self._refresh(options)

    def _refresh(self, options: PreviewOptions) -> None:
        with self._refresh_lock:
            preview = self._previews.get(options)
            if preview is None:
                if len(self._previews) >= MAX_OPTION_SETS:
                    self._previews.pop(next(iter(self._previews)))
                preview = self._previews[options] = Preview(self.root, self.game_id, options, self.store)
            last = self._states.get(options, {}).get("snapshot")
            try:
                snapshot = preview.refresh(on_cards=lambda early: self._publish(options, early.as_json(), None))
                self._publish(options, snapshot.as_json(), None)
            except Exception as exc:  # noqa: BLE001 - a bad edit must never stop the server
                if not isinstance(exc, PnpError):
                    traceback.print_exc()
                self._publish(options, last, error_json(exc))

    def _publish(self, options: PreviewOptions, snapshot: Json | None, error: Json | None) -> None:
        self._states[options] = dict(snapshot=snapshot, error=error)
        with self._changed:
            self.version += 1
            self._changed.notify_all()
