"""Work in forked processes: each starts as a copy of the one that forks it, with everything
already loaded, and hands back what it made down a pipe. `forked` runs tasks by id in N
workers, each taking the next as it finishes (a build's components, a long deck's parts,
validate's games); `Ahead` runs one task while the process that forked it goes on (a game's
rules, checked while it is drawn). Whatever fails in its process is done again in the
caller's, where it fails with the one clear message it always gives.

A process whose parent is gone (killed, or stopped by a signal sent to it alone) ends too
(Linux), rather than wait on its pipe for ever; and a parent that stops early ends its
children before it goes on."""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
from collections.abc import Callable
from typing import Generic, NoReturn, TypeVar, cast

Result = TypeVar("Result")

_in_child = False


def in_child() -> bool:
    """True in a process forked here: its work is already one share of the cores."""
    return _in_child


def can_fork(jobs: int) -> bool:
    return jobs > 1 and not _in_child and hasattr(os, "fork")


def forked(ids: list[str], task: Callable[[str], Result | None], jobs: int,
           stop: Callable[[], None] | None = None,
           done: Callable[[str, Result | None], None] | None = None) -> dict[str, Result]:
    """task(id) for each id, in `jobs` forked processes, each taking the next id as it is done
    (in the order given: the biggest first balances best); the results by id. An id whose
    task failed in its process (raised, gave None, or the process was killed) is left out, for
    the caller to do again in its own process. `stop`, called while the processes work, may
    raise to end them all at once (the build's rules refused it); `done(id, result)` is called
    as each task ends, with None for one that failed (a progress bar; a build writes each game
    as it comes)."""
    if len(ids) < 2 or not can_fork(jobs):
        return {}
    waiting = list(range(len(ids)))
    workers: dict[int, Worker] = {}   # by the pipe their answers come by
    found: dict[str, Result] = {}
    try:
        for _ in range(min(jobs, len(ids))):
            worker = Worker.started(lambda index: task(ids[index]))
            if worker is None:
                break   # no process could start: what is left is done in the caller's
            workers[worker.answers] = worker
            if worker.give(waiting[0]):
                waiting.pop(0)
        while workers:
            ready, _, _ = select.select(list(workers), [], [], 0.05 if stop is not None else None)
            for pipe in ready:
                worker = workers[pipe]
                index, answer = worker.doing, worker.answer()
                if answer is not None:
                    found[ids[index]] = cast(Result, answer)
                if done is not None:
                    done(ids[index], cast("Result | None", answer))
                if waiting and worker.alive and worker.give(waiting[0]):
                    waiting.pop(0)
                else:
                    del workers[pipe]
                    worker.end()
            if stop is not None:
                stop()
    finally:
        for worker in workers.values():   # stopped early: no process is left behind
            worker.end(kill=True)
    return found


_giving: set[int] = set()   # the pipes this process gives its workers their tasks by


class Worker:
    """A forked process doing tasks by index, one at a time: each index goes to it down one
    pipe, a line each, and each answer comes back down another, its length first (no answer,
    length 0, when the task failed). It imports what its tasks need once, for all of them."""

    def __init__(self, pid: int, tasks: int, answers: int) -> None:
        self.pid, self.tasks, self.answers = pid, tasks, answers
        self.doing = -1
        self.alive = True

    @classmethod
    def started(cls, task: Callable[[int], object]) -> Worker | None:
        parent = os.getpid()
        try:
            tasks_read, tasks_write = os.pipe()
            answers_read, answers_write = os.pipe()
            pid = os.fork()
        except OSError:
            return None
        if pid == 0:
            for pipe in (tasks_write, answers_read, *_giving):   # another worker's end would keep it waiting
                os.close(pipe)
            _serve(task, parent, tasks_read, answers_write)
        os.close(tasks_read)
        os.close(answers_write)
        _giving.add(tasks_write)
        return cls(pid, tasks_write, answers_read)

    def give(self, index: int) -> bool:
        """Whether it took the task: False when it has died (its next answer says so too)."""
        self.doing = index
        try:
            os.write(self.tasks, b"%d\n" % index)
        except OSError:   # gone since its last answer (the system killed it)
            self.alive = False
            return False
        return True

    def answer(self) -> object | None:
        """The answer to the task it was given; None when that failed, or the process died."""
        head = _read_exactly(self.answers, 8)
        if len(head) < 8:
            self.alive = False
            return None
        size = int.from_bytes(head, "big")
        body = _read_exactly(self.answers, size)
        if len(body) < size:   # killed while it answered
            self.alive = False
            return None
        return cast(object, pickle.loads(body)) if body else None

    def end(self, kill: bool = False) -> None:
        os.close(self.tasks)   # no more tasks: it leaves
        _giving.discard(self.tasks)
        if kill:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os.waitpid(self.pid, 0)
        os.close(self.answers)


def _serve(task: Callable[[int], object], parent: int, tasks: int, answers: int) -> NoReturn:
    """In a worker: each task it is given done, its answer sent back, until no more come."""
    global _in_child
    _in_child = True
    try:
        _end_with(parent)
        with os.fdopen(tasks, "rb") as given, os.fdopen(answers, "wb") as out:
            for line in given:
                try:
                    answer = pickle.dumps(task(int(line)))
                except BaseException:   # noqa: BLE001 - the parent does it again, and tells it
                    answer = b""
                out.write(len(answer).to_bytes(8, "big") + answer)
                out.flush()
    finally:
        os._exit(0)


def _read_exactly(pipe: int, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = os.read(pipe, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class Ahead(Generic[Result]):
    """`task()` worked out in a forked process while this one goes on (with `jobs` above one),
    its result taken when it is needed. Where no process is forked it is worked out at once,
    here, as if nothing ran alongside; what failed in its process is done again here, where it
    fails with its one clear message."""

    def __init__(self, task: Callable[[], Result], jobs: int) -> None:
        self.task = task
        self.child: tuple[int, int] | None = None   # its process and the pipe its result comes by
        self.answer: tuple[Result] | None = None
        self.owner = os.getpid()   # a process forked later has the pipe too, but no child
        if can_fork(jobs):
            self.child = _fork(task)
        if self.child is None:
            self.answer = (task(),)

    def done(self) -> bool:
        """Whether the result is in, without waiting for it (never, in another process)."""
        if os.getpid() != self.owner:
            return False
        if self.answer is None and self.child is not None:
            if select.select([self.child[1]], [], [], 0)[0]:
                self._take()
        return self.answer is not None

    def result(self) -> Result:
        if self.answer is None and self.child is not None:
            self._take()
        if self.answer is None:   # it failed there
            self.answer = (self.task(),)
        return self.answer[0]

    def cancel(self) -> None:
        """No longer wanted (the command failed otherwise): its process ended, not left behind."""
        if self.child is not None and os.getpid() == self.owner:
            pid, pipe = self.child
            self.child = None
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            os.close(pipe)

    def _take(self) -> None:
        assert self.child is not None
        pid, pipe = self.child
        self.child = None
        answer = _answer_of(pid, pipe)
        if answer is not None:
            self.answer = (cast(Result, answer),)


def _fork(task: Callable[[], object]) -> tuple[int, int] | None:
    """A child doing `task`: its process id and the pipe its answer comes by; None when no
    process could start."""
    parent = os.getpid()
    try:
        read, write = os.pipe()
        pid = os.fork()
    except OSError:
        return None
    if pid == 0:
        _answer(task, parent, read, write)
    os.close(write)
    return pid, read


def _answer(task: Callable[[], object], parent: int, read: int, write: int) -> NoReturn:
    """In the forked child: the task's result down the pipe, nothing when it failed; then gone
    without running anything the parent set to run at exit (or flushing its output twice)."""
    global _in_child
    _in_child = True
    try:
        os.close(read)
        _end_with(parent)
        answer = pickle.dumps(task())
    except BaseException:   # noqa: BLE001 - the parent does it again, and tells it
        answer = b""
    try:
        with os.fdopen(write, "wb") as pipe:
            pipe.write(answer)
    finally:
        os._exit(0)


def _end_with(parent: int) -> None:
    """Ask the system to kill this process when its parent dies (Linux); gone now if it has."""
    if sys.platform.startswith("linux"):
        import ctypes
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
    if os.getppid() != parent:
        os._exit(0)


def _answer_of(pid: int, pipe: int) -> object | None:
    """What a child sent, once it is done; None when it failed or was killed."""
    with os.fdopen(pipe, "rb") as reading:
        answer = reading.read()
    os.waitpid(pid, 0)
    if not answer:
        return None
    return cast(object, pickle.loads(answer))
