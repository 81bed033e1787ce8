"""Work in forked processes: each starts as a copy of the one that forks it, with everything
already loaded, and hands back what its task made. `forked` runs tasks by id, N at a time
(a build's components, a long deck's parts, validate's games); `Ahead` runs one task while
the process that forked it goes on (a game's rules, checked while it is drawn). Whatever
fails in its process is done again in the caller's, where it fails with the one clear
message it always gives."""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from typing import Generic, NoReturn, TypeVar, cast

Result = TypeVar("Result")

# what each child does with an id, set before the fork for the children
_task: Callable[[str], object] | None = None


def forked(ids: list[str], task: Callable[[str], Result | None], jobs: int) -> dict[str, Result]:
    """task(id) for each id, `jobs` forked processes at a time, handed out in the order given
    (the biggest first balances best); the results by id. An id whose task failed in its
    process (raised, or gave None) is left out, for the caller to do again in its own process,
    where it fails with the one clear message it always gives. Nothing is forked from a
    process that is itself one of these children."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    global _task
    if len(ids) < 2 or jobs < 2 or in_child() or "fork" not in multiprocessing.get_all_start_methods():
        return {}
    _task = task
    found: dict[str, object] = {}
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(ids)),
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            futures = {id: pool.submit(_run, id) for id in ids}
            for id, future in futures.items():
                found[id] = future.result()
    except (BrokenProcessPool, OSError):   # a process killed (out of memory), or none could start
        pass   # what it did not finish is done here
    finally:
        _task = None
    return {id: cast(Result, result) for id, result in found.items() if result is not None}


_in_child = False


def in_child() -> bool:
    """True in a process `forked` started: its work is already one share of the cores."""
    return _in_child


def _run(id: str) -> object:
    """In a child: the task for one id; None when it failed (the parent does it again)."""
    global _in_child
    assert _task is not None
    _in_child = True
    try:
        return _task(id)
    except BaseException:   # noqa: BLE001 - told by the parent, which does it again
        return None


class Ahead(Generic[Result]):
    """`task()` worked out in a forked process while this one goes on (with `jobs` above one
    and fork at hand), its result taken when it is needed; in this process when it could not
    be, or failed there (where it fails again, with its one clear message)."""

    def __init__(self, task: Callable[[], Result], jobs: int) -> None:
        self.task = task
        self.child: tuple[int, int] | None = None   # its process id and the pipe its result comes by
        if jobs < 2 or in_child() or not hasattr(os, "fork"):
            return
        try:
            read, write = os.pipe()
            pid = os.fork()
        except OSError:
            return
        if pid == 0:
            _answer(task, read, write)
        os.close(write)
        self.child = (pid, read)

    def result(self) -> Result:
        if self.child is not None:
            pid, read = self.child
            self.child = None
            with os.fdopen(read, "rb") as pipe:
                answer = pipe.read()
            os.waitpid(pid, 0)
            if answer:
                return cast(Result, pickle.loads(answer))
        return self.task()


def _answer(task: Callable[[], object], read: int, write: int) -> NoReturn:
    """In the forked child: the task's result down the pipe, nothing when it failed; then gone
    without running anything the parent set to run at exit (or flushing its output twice)."""
    global _in_child
    _in_child = True
    os.close(read)
    try:
        answer = pickle.dumps(task())
    except BaseException:   # noqa: BLE001 - the parent does it again, and tells it
        answer = b""
    try:
        with os.fdopen(write, "wb") as pipe:
            pipe.write(answer)
    finally:
        os._exit(0)
