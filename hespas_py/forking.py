"""Share big jobs with forked copies of this process, one per spare CPU.

Why and how: docs/forking.md.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import marshal
import os
import signal
import struct
import weakref
from collections.abc import Callable, Generator, Iterable
from typing import Any

from hespas_py.errors import HespasError

JOBS_VARIABLE = "HESPAS_JOBS"
_CHUNK = struct.Struct("<QQ")  # where a child wrote one chunk: offset and length in its file


def max_jobs() -> int:
    """Processes one job may use (see the module docstring)."""
    setting = os.environ.get(JOBS_VARIABLE, "").strip()
    if setting:
        if not setting.isdigit():
            raise HespasError(f"{JOBS_VARIABLE}={setting!r}: expected a whole number of processes")
        jobs = max(1, int(setting))
    else:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else os.cpu_count() or 1
    return jobs if jobs < 2 or may_fork() else 1


def may_fork() -> bool:
    """Whether this process may fork now: it has ``os.fork`` and a single thread."""
    if not hasattr(os, "fork"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # no thread count to be had (macOS): never fork
        return False


class Forked:
    """A child process yielding the byte chunks of ``work()``, which this process takes as they
    come (`chunks`) or all at once (`result`).

    Chunks go through an unlinked temporary file and only their (offset, length) through a
    pipe, so the child never waits for this process to read: it finishes its work, and exits.
    """

    def __init__(self, work: Callable[[], Iterable[bytes]]) -> None:
        self.failed = False  # whether the child stopped before the end of its work
        if not may_fork():  # a caller's own check (`max_jobs`) came before a thread started
            self._pid = -1
            return
        import tempfile  # (with random) only in a process that forks

        with contextlib.ExitStack() as undo:
            try:
                self._data = undo.enter_context(tempfile.TemporaryFile())
                read_end, write_end = os.pipe()
                undo.callback(os.close, read_end)
                undo.callback(os.close, write_end)
                self._pid = os.fork()
            except OSError:  # no file, descriptor or process to be had: no child
                self._pid = -1
                return
            undo.pop_all()
        if self._pid == 0:  # the child: never returns
            code = 1
            try:
                os.close(read_end)
                fd, offset = self._data.fileno(), 0
                for chunk in work():
                    written = 0
                    while written < len(chunk):
                        written += os.pwrite(fd, chunk[written:], offset + written)
                    os.write(write_end, _CHUNK.pack(offset, len(chunk)))
                    offset += len(chunk)
                code = 0
            finally:
                os._exit(code)
        os.close(write_end)
        self._read_end = read_end

    def chunks(self) -> Generator[bytes, None, None]:
        """The child's chunks, each as soon as it is written; `failed` tells at the end whether
        the child stopped early. Closing this iterator early kills the child."""
        if self._pid < 0:
            self.failed = True
            return
        finished = False
        try:
            with os.fdopen(self._read_end, "rb") as pipe:
                while len(header := pipe.read(_CHUNK.size)) == _CHUNK.size:
                    offset, size = _CHUNK.unpack(header)
                    yield os.pread(self._data.fileno(), size, offset)
            finished = True
        finally:
            if not finished:
                os.kill(self._pid, signal.SIGKILL)
            _, status = os.waitpid(self._pid, 0)
            self.failed = os.waitstatus_to_exitcode(status) != 0
            self._data.close()

    def result(self) -> bytes | None:
        """All the child's bytes once it has exited; `None` if it failed."""
        data = b"".join(self.chunks())
        return None if self.failed else data

    def stop(self) -> None:
        """Kill the child before any of its chunks is taken (its work is no longer wanted)."""
        if self._pid > 0:
            os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
            os.close(self._read_end)
            self._data.close()
            self.failed = True


class _Later:
    """The getter `background` returns for work given to a child. The child is killed if the
    result is never taken: when the getter is dropped (an error came first) or at exit."""

    def __init__(self, work: Callable[[], Any], child: Forked) -> None:
        self._work = work
        self._child: Forked | None = child
        self._stop = weakref.finalize(self, child.stop)

    def __call__(self) -> Any:
        data = None
        if self._child is not None:
            self._stop.detach()
            data = self._child.result()
            self._child = None
        return self._work() if data is None else marshal.loads(data)


def background(work: Callable[[], Any], worth_it: bool = True) -> Callable[[], Any]:
    """A getter of ``work()``: computed meanwhile by a forked child when ``worth_it`` and a spare
    process is allowed (the result must marshal), else here when the getter is called."""
    if not worth_it or max_jobs() < 2:
        return work
    return _Later(work, Forked(functools.partial(marshalled, work)))


def marshalled(work: Callable[..., Any], *args: Any) -> tuple[bytes]:
    """``work(*args)`` marshalled: the one chunk of a `Forked` child whose result is plain data."""
    return (marshal.dumps(work(*args)),)


def shares(count: int, jobs: int, first_weight: float = 1.0) -> list[tuple[int, int]]:
    """``jobs`` consecutive (start, stop) ranges covering ``range(count)``, the first one
    ``first_weight`` times as long as each of the others (which are of near-equal length)."""
    total = first_weight + jobs - 1
    cuts = [0, *(round(count * (first_weight + j) / total) for j in range(jobs - 1)), count]
    return list(itertools.pairwise(cuts))
