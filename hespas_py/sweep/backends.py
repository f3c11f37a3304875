"""Where sweep tasks run: this process, a local process pool, or Ray.

Every backend takes tasks (`submit`: a plain function and its picklable argument, with a tag) and
hands results back as they finish (`next_done`), so the sweep can submit simulations of a trace
set as soon as it is made. Workers run with ``HESPAS_JOBS=1``: the backend is the parallelism, and
a Ray worker (which runs threads) must not fork.
"""

from __future__ import annotations

import collections
import concurrent.futures
import multiprocessing
import os
from collections.abc import Callable
from typing import Any

from hespas_py.errors import HespasError
from hespas_py.forking import JOBS_VARIABLE, max_jobs, may_fork

BACKENDS = ("local", "ray")
_WORKER_ENV = {JOBS_VARIABLE: "1"}


class Backend:
    """Runs tasks and returns their results as they finish.

    Attributes:
        workers: how many tasks run at once (for sizing batches).
    """

    workers: int = 1

    def submit(self, fn: Callable[[Any], Any], arg: Any, tag: Any) -> None:
        """Start ``fn(arg)``; `next_done` returns its result with ``tag``."""
        raise NotImplementedError

    @property
    def pending(self) -> int:
        """Tasks submitted and not yet returned by `next_done`."""
        raise NotImplementedError

    def next_done(self) -> tuple[Any, Any]:
        """``(tag, result)`` of a finished task, waiting for one if needed."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop the workers (unfinished tasks are dropped)."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class InProcess(Backend):
    """Runs each task in this process when its result is asked for."""

    def __init__(self) -> None:
        self._queue: collections.deque = collections.deque()

    def submit(self, fn: Callable[[Any], Any], arg: Any, tag: Any) -> None:
        self._queue.append((fn, arg, tag))

    @property
    def pending(self) -> int:
        return len(self._queue)

    def next_done(self) -> tuple[Any, Any]:
        fn, arg, tag = self._queue.popleft()
        return tag, fn(arg)


def _init_worker() -> None:
    os.environ.update(_WORKER_ENV)


class ProcessPool(Backend):
    """A pool of ``workers`` local processes (forked where this process may fork)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        method = "fork" if may_fork() else "spawn"
        self._pool = concurrent.futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context(method), initializer=_init_worker)
        # The workers start with the first task; fork them now, before a progress display runs
        # a thread that could hold a lock (say, stderr's) at the moment of the fork.
        self._pool.submit(int).result()
        self._futures: dict[concurrent.futures.Future, Any] = {}
        self._done: collections.deque = collections.deque()

    def submit(self, fn: Callable[[Any], Any], arg: Any, tag: Any) -> None:
        self._futures[self._pool.submit(fn, arg)] = tag

    @property
    def pending(self) -> int:
        return len(self._futures)

    def next_done(self) -> tuple[Any, Any]:
        if not self._done:
            done, _ = concurrent.futures.wait(self._futures,
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            self._done.extend(done)
        future = self._done.popleft()
        tag = self._futures.pop(future)
        try:
            return tag, future.result()
        except concurrent.futures.BrokenExecutor:
            raise HespasError(f"a worker process died (killed for memory?) while running {tag}; "
                              "finished work is kept: rerun with fewer --jobs") from None

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class RayBackend(Backend):
    """Ray tasks on the cluster at ``address`` (``auto``, ``ray://host:10001``, ...), or on a
    local Ray of ``workers`` CPUs; a Ray already initialised in this process is used as it is."""

    def __init__(self, address: str | None, workers: int | None) -> None:
        try:
            import ray
        except ImportError:
            raise HespasError("--backend ray needs Ray: pip install 'hespas_py[ray]'") from None
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            try:
                if address:
                    ray.init(address=address, log_to_driver=False)
                else:
                    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise HespasError(f"--address {address}: cannot start or reach Ray "
                                  f"({str(exc).splitlines()[0] if str(exc) else exc})") from None
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote: dict[Callable, Any] = {}
        self._refs: dict[Any, Any] = {}

    def submit(self, fn: Callable[[Any], Any], arg: Any, tag: Any) -> None:
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(fn).options(
                runtime_env={"env_vars": _WORKER_ENV})
        self._refs[remote.remote(arg)] = tag

    @property
    def pending(self) -> int:
        return len(self._refs)

    def next_done(self) -> tuple[Any, Any]:
        (ref,), _ = self._ray.wait(list(self._refs), num_returns=1)
        return self._refs.pop(ref), self._ray.get(ref)

    def close(self) -> None:
        for ref in self._refs:
            self._ray.cancel(ref)
        self._refs.clear()
        if self._started:
            self._ray.shutdown()


def make_backend(name: str, jobs: int | None = None, address: str | None = None) -> Backend:
    """The backend ``name`` (one of `BACKENDS`) with ``jobs`` workers (default: this machine's
    `hespas_py.forking.max_jobs`; for Ray, the cluster's CPUs)."""
    if name not in BACKENDS:
        raise HespasError(f"--backend {name}: use one of {', '.join(BACKENDS)}")
    if jobs is not None and jobs < 1:
        raise HespasError(f"--jobs must be at least 1, not {jobs}")
    if name == "ray":
        return RayBackend(address, jobs)
    if address is not None:
        raise HespasError("--address is for --backend ray")
    workers = jobs or max_jobs()
    return InProcess() if workers == 1 else ProcessPool(workers)
