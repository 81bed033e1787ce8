"""The first code the `pnp` command runs: loading pnp takes a moment, and a Ctrl-C in it ends
quietly (exit 130, nothing written yet) instead of with a traceback. Its Ctrl-C handler is set
as this module is imported, the first thing the command's script does, so no moment before
`main` is left to Python's own handler."""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType

_started = False          # main has begun: a Ctrl-C is a KeyboardInterrupt from here on
_asked_to_stop = False    # a Ctrl-C came before main began: main ends at once


def main() -> None:
    global _started
    _started = True
    try:
        if _asked_to_stop:
            raise KeyboardInterrupt
        from pnp.collecting import paused_for_the_process
        paused_for_the_process()   # a command is over in seconds; watch and serve turn it back on
        from pnp.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted; nothing was written\n")
        sys.exit(130)
    try:
        run()
    except SystemExit as done:
        end(done)
    end(SystemExit(0))


def end(done: SystemExit) -> None:
    """The command's end, without Python's tidying up when nothing is left to tidy: the
    interpreter's own end freed the objects a build held one at a time and walked them all
    once more for cycles, 0.05 s of a 5,600-card build (the process's memory goes back to the
    system whole). Everything pnp writes is closed and synced before its command returns.
    With another thread still running (pnp serve's, as it stops), a child process not yet
    waited for, or output that cannot be flushed (a closed pipe), Python ends as usual."""
    code = done.code
    if not isinstance(code, int) or threading.active_count() > 1 or children_running():
        raise done
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:   # None: closed when pnp started (`>&-`), or no console at all
                stream.flush()
    except (OSError, ValueError):
        raise done from None
    os._exit(code)


def children_running() -> bool:
    pool = sys.modules.get("multiprocessing")   # imported only by a build that used it
    return pool is not None and bool(pool.active_children())


def interrupt(_signal: int, frame: FrameType | None) -> None:
    """Ctrl-C: a KeyboardInterrupt, as Python raises it, except before `main` began (noted,
    for main to end on) and while a module is being imported (pnp imports its drawing code
    when it first draws). There it can land in a module lock's clean-up, where Python prints
    it as a traceback and drops it, or in a class being made, where it becomes a RuntimeError,
    or leave a module half made for the next import to trip on. So there it comes again 5 ms
    later (a timer's signal: nothing is imported to set it), until the import is done."""
    global _asked_to_stop
    if not _started:
        _asked_to_stop = True
        return
    if hasattr(signal, "setitimer") and importing(frame):
        signal.signal(signal.SIGALRM, interrupt)
        signal.setitimer(signal.ITIMER_REAL, 0.005)
        return
    raise KeyboardInterrupt


def importing(frame: FrameType | None) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


signal.signal(signal.SIGINT, interrupt)
