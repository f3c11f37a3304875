"""Running a sweep plan: make the missing traces, simulate the missing points, gather the rows.

Points already in the store are not simulated again, and traces are made only for points still
to simulate (and only when not stored), so a rerun or a resumed sweep does only what is left.
Simulations of a trace set are submitted as soon as its traces exist, in batches that each parse
the traces once. A point whose workload's device count differs from its system's NPU count, or
whose traces or simulation failed on bad input, is skipped with the reason; so is, with
``fits_only``, a point whose per-device peak memory exceeds its node's capacity (not simulated).
Every row carries ``peak_bytes`` and ``fits`` (None when the node states no capacity).
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hespas_py.sweep.backends import Backend
from hespas_py.sweep.plan import Plan, Point
from hespas_py.sweep.store import Store
from hespas_py.sweep.tasks import (
    Failure,
    Figures,
    SimBatch,
    TraceFiles,
    make_traces,
    simulate_points,
)
from hespas_py.units import gib

#: Called as ``progress(phase, done, total)``, phase ``traces`` or ``points``.
ProgressHook = Callable[[str, int, int], None]
#: Most points in one simulation task.
_BATCH_LIMIT = 64


@dataclass(frozen=True)
class Work:
    """What one run did and what it found already done.

    Attributes:
        traces_made: trace jobs run.
        traces_reused: trace sets read from the store.
        points_simulated: distinct points simulated.
        points_reused: points read from the store.
    """

    traces_made: int = 0
    traces_reused: int = 0
    points_simulated: int = 0
    points_reused: int = 0


@dataclass(frozen=True)
class SweepResult:
    """A finished sweep.

    Attributes:
        rows: per simulated point, its labels, `Figures` fields, ``peak_bytes`` and ``fits``, in
            plan order.
        skipped: per skipped point, its labels and ``reason``.
        work: what this run did.
    """

    rows: tuple[Mapping[str, Any], ...]
    skipped: tuple[Mapping[str, Any], ...]
    work: Work

    def as_json(self) -> dict[str, list]:
        """``{"rows": [...], "skipped": [...]}`` (results.json, ``--json``)."""
        return {"rows": [dict(r) for r in self.rows], "skipped": [dict(s) for s in self.skipped]}


class _Run:
    """The state of one `run_sweep`."""

    def __init__(self, plan: Plan, store: Store, backend: Backend,
                 progress: ProgressHook | None) -> None:
        self.store, self.backend, self.progress = store, backend, progress
        self.outcomes: dict[int, Figures | str] = {}
        self.todo: dict[str, dict[str, list[Point]]] = defaultdict(dict)
        self.work = Work()
        self.fits_only = plan.fits_only
        self.peaks: dict[str, int] = {}  # trace key -> per-device peak memory
        self.traces_total = 0
        for point in plan.points:
            figures = store.point(point.key)
            if figures is None or not store.has_traces(point.traces):  # rows need its memory
                self.todo[point.traces].setdefault(point.key, []).append(point)
            else:
                self.outcomes[point.index] = figures
        self._count(points_reused=len(self.outcomes))
        self.points_total = len(plan.points)

    def _count(self, **done: int) -> None:
        self.work = dataclasses.replace(self.work, **{k: getattr(self.work, k) + v
                                                      for k, v in done.items()})

    def _report(self) -> None:
        if self.progress is not None:
            self.progress("traces", self.work.traces_made, self.traces_total)
            self.progress("points", len(self.outcomes), self.points_total)

    def _finish(self, points: list[Point], outcome: Figures | str) -> None:
        for point in points:
            self.outcomes[point.index] = outcome

    def too_big(self, point: Point, peak: int) -> str | None:
        """Why ``point`` is left out under ``fits_only`` (its peak exceeds its node's
        capacity); None when it is not."""
        if not self.fits_only or point.fits(peak) is not False:
            return None
        assert point.capacity_bytes is not None, "a point that does not fit has a capacity"
        return (f"{point.labels['workload']} needs {gib(peak)} GiB per device, "
                f"{point.labels['node']} has {gib(point.capacity_bytes)} GiB (fits_only)")

    def submit_points(self, traces: TraceFiles) -> None:
        """Skip the trace set's points its device count (or, with ``fits_only``, its memory)
        does not fit; batch the others."""
        self.peaks[traces.key] = traces.peak_bytes
        fitting = []
        for same in self.todo.pop(traces.key).values():
            reason = self.too_big(same[0], traces.peak_bytes)
            if same[0].network.num_npus == traces.num_devices and reason is None:
                fitting.append(same)
                continue
            for point in same:
                self.outcomes[point.index] = reason or (
                    f"{point.labels['workload']} runs on {traces.num_devices} devices, "
                    f"{point.labels['system']} has {point.network.num_npus} NPUs")
        size = min(_BATCH_LIMIT, math.ceil(len(fitting) / (2 * self.backend.workers)) or 1)
        for start in range(0, len(fitting), size):
            group = fitting[start:start + size]
            batch = SimBatch(traces, tuple((same[0].index, same[0].system, same[0].network)
                                           for same in group))
            self.backend.submit(simulate_points, batch, {same[0].index: same for same in group})

    def traces_done(self, key: str, result: TraceFiles | Failure) -> None:
        self._count(traces_made=1)
        if isinstance(result, Failure):
            for same in self.todo.pop(key).values():
                self._finish(same, result.reason)
            return
        self.store.put_traces(result)
        self.submit_points(result)

    def points_done(self, group: Mapping[int, list[Point]],
                    outcomes: list[tuple[int, Figures | Failure]]) -> None:
        for index, outcome in outcomes:
            same = group[index]
            if isinstance(outcome, Failure):
                self._finish(same, outcome.reason)
                continue
            self.store.put_point(same[0].key, outcome)
            self._finish(same, outcome)
            self._count(points_simulated=1)


    def run(self, plan: Plan) -> SweepResult:
        """Submit what is missing, collect everything, and gather the rows in plan order."""
        for job in plan.traces:
            if job.key not in self.todo:
                continue
            if self.store.has_traces(job.key):
                self._count(traces_reused=1)
                self.submit_points(self.store.traces(job.key))
            else:
                self.traces_total += 1
                self.backend.submit(make_traces, job, job.key)
        self._report()
        while self.backend.pending:
            tag, result = self.backend.next_done()
            if isinstance(tag, str):
                self.traces_done(tag, result)
            else:
                self.points_done(tag, result)
            self._report()
        rows, skipped = [], []
        for point in plan.points:
            outcome = self.outcomes[point.index]
            if isinstance(outcome, Figures):
                if point.traces not in self.peaks:
                    self.peaks[point.traces] = self.store.peak_bytes(point.traces)
                peak = self.peaks[point.traces]
                outcome = self.too_big(point, peak) or outcome
            if isinstance(outcome, Figures):
                rows.append({**point.labels, **dataclasses.asdict(outcome), "peak_bytes": peak,
                             "fits": point.fits(peak), **point.variant})
            else:
                skipped.append({**point.labels, **point.variant, "reason": outcome})
        return SweepResult(tuple(rows), tuple(skipped), self.work)


def run_sweep(plan: Plan, store: Store, backend: Backend,
              progress: ProgressHook | None = None) -> SweepResult:
    """Run what ``plan`` still needs on ``backend``, keeping results in ``store``."""
    return _Run(plan, store, backend, progress).run(plan)
