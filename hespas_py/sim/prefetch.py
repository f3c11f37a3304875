"""Collective durations of a replicated run, measured up front by forked processes.

A replicated run (`hespas_py.sim.replicate`) times each distinct collective by simulating it on
its groups, which on a machine of hundreds of NPUs is nearly all of its time. The
collectives issued after tick 0 are known before the replay starts, so on a big machine they are
shared out to forked copies of this process (`hespas_py.forking`) and measured at once; the
replay then finds them measured. A collective a child could not measure (it stopped, or the
measurement raised) is left to the replay, which measures it itself and raises as it would have:
prefetching changes speed, never results.
"""

from __future__ import annotations

import functools
import marshal

from hespas_py.forking import Forked, marshalled, max_jobs, shares
from hespas_py.sim.collective_times import CollectiveTimes, NotSymmetric
from hespas_py.sim.errors import Rejected
from hespas_py.sim.workload import SIMULATED_COLLECTIVES

#: Fewest NPUs worth forking for: a collective on 128 NPUs takes tens of ms to simulate, a fork
#: and its hand-back a few.
WORTH_IT_NPUS = 128


def _measured(times: CollectiveTimes, positions: list[int]) -> list[int | None]:
    durations: list[int | None] = []
    for position in positions:
        try:
            durations.append(times.measure(position, at_start=False))
        except (NotSymmetric, Rejected):
            durations.append(None)
    return durations


def prefetch(times: CollectiveTimes) -> None:
    """Measure the distinct collectives of ``times``' traces into it when the machine is big
    enough and this process may fork (`hespas_py.forking.max_jobs`)."""
    jobs = max_jobs()
    if jobs < 2 or times.network.num_npus < WORTH_IT_NPUS:
        return
    distinct: dict[tuple, int] = {}
    nodes = times.columns.trace.nodes
    for position in times.layouts:
        if nodes[position].ints.get("comm_type") in SIMULATED_COLLECTIVES:
            distinct.setdefault(times.key(position, at_start=False), position)
    positions = list(distinct.values())
    if len(positions) < 2:
        return
    ranges = shares(len(positions), min(jobs, len(positions)))
    children = [Forked(functools.partial(marshalled, _measured, times, positions[slice(*share)]))
                for share in ranges[1:]]
    results = [_measured(times, positions[slice(*ranges[0])])]
    results += [marshal.loads(data) if (data := child.result()) is not None
                else [None] * (stop - start)
                for child, (start, stop) in zip(children, ranges[1:], strict=True)]
    for position, duration in zip(positions, (d for share in results for d in share), strict=True):
        if duration is not None:
            times.record(position, at_start=False, duration=duration)
