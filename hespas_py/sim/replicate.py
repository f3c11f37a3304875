"""Symmetric NPUs simulated once.

When the NPUs' traces are identical but for the communicator groups their collectives name, and
at every collective position those groups partition the machine into groups of one size (the
whole machine included; `hespas_py.sim.symmetry` checks this), every NPU issues each collective
at the same tick, so one NPU's replay stands for all of them. Each distinct collective (type,
size, dimensions, priority and group layout) is simulated once on the whole machine in isolation,
every NPU starting it on its own group at once, to get its duration; if that duration differs
between NPUs (e.g. a binary tree's root and leaves, or groups placed unalike on the network) the
set is not symmetric and the caller falls back to a full simulation. An NPU runs one collective
at a time, so a collective alone takes as long as it does within the step.

Only same-nanosecond ties between a collective's and a compute node's completion can order
differently from the full simulation (the collective is timed from its issue).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Mapping, Sequence

from hespas_py.chakra.schema import NodeType
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sim.network import EventQueue, Network
from hespas_py.sim.result import SimResult
from hespas_py.sim.system import CommGroup, Sys
from hespas_py.sim.trace import Trace, TraceNode, index_trace
from hespas_py.sim.workload import Workload, run_full, run_workloads

#: Compute time placed before a collective timed away from tick 0.
_LEAD_IN_US = 1


class NotSymmetric(Exception):
    """A collective finishes at different times on different NPUs."""


def _timing_trace(node: TraceNode, at_start: bool) -> Trace:
    """A trace of ``node`` alone, issued at tick 0 or after a short lead-in."""
    if at_start:
        nodes = [node._replace(id=0, deps=())]
    else:
        nodes = [TraceNode(0, "lead-in", int(NodeType.COMP_NODE), (), _LEAD_IN_US, {}, "", None),
                 node._replace(id=1, deps=(0,))]
    return index_trace(Path("<collective timing>"), nodes, b"")


class CollectiveTimes:
    """Durations of the collectives of a symmetric trace set, measured once per distinct one."""

    def __init__(self, traces: Sequence[Trace], layouts: Mapping[int, int],
                 system: SystemConfig, network: NetworkConfig,
                 groups: Mapping[int, tuple[int, ...]]) -> None:
        """``traces``: per NPU its trace; ``layouts``: per collective position its group layout
        number (`hespas_py.sim.symmetry.group_layouts`)."""
        self.traces = traces
        self.layouts = layouts
        self.system = system
        self.network = network
        self.groups = groups
        # The lead-in is a delay, not a kernel: never priced by the roofline, which would need
        # its num_ops (a collective's own duration does not depend on how compute is priced).
        self._timing_system = dataclasses.replace(system, roofline_enabled=False)
        self._durations: dict[tuple, int] = {}

    def key(self, position: int, at_start: bool) -> tuple:
        """What makes two collectives take the same time."""
        node = self.traces[0].nodes[position]
        return (node.ints.get("comm_type"), node.ints.get("comm_size"), node.involved_dim,
                self.layouts[position], node.ints.get("comm_priority", 0), at_start)

    def duration(self, position: int, at_start: bool) -> int:
        """Issue-to-finish ns of the collective at ``position``, identical on every NPU."""
        key = self.key(position, at_start)
        duration = self._durations.get(key)
        if duration is None:
            duration = self._durations[key] = self.measure(position, at_start)
        return duration

    def record(self, position: int, at_start: bool, duration: int) -> None:
        """Take a `measure` made elsewhere (`hespas_py.sim.prefetch`)."""
        self._durations[self.key(position, at_start)] = duration

    def measure(self, position: int, at_start: bool) -> int:
        """Simulate the collective at ``position`` alone on the whole machine, each NPU on the
        group its trace names: its duration (`NotSymmetric` when NPUs finish apart)."""
        by_group: dict[str, Trace] = {}
        timing = []
        for trace in self.traces:
            node = trace.nodes[position]
            alone = by_group.get(node.pg_name)
            if alone is None:
                alone = by_group[node.pg_name] = _timing_trace(node, at_start)
            timing.append(alone)
        workloads = run_full(timing, self._timing_system, self.network, self.groups)
        last = len(timing[0].nodes) - 1
        finishes = {w.end[last] for w in workloads}
        if len(finishes) != 1:
            raise NotSymmetric
        return finishes.pop() - (0 if at_start else _LEAD_IN_US * 1000)


class ReplicatedWorkload(Workload):
    """One NPU's replay with every collective timed by `CollectiveTimes`."""

    def __init__(self, sys: Sys, trace: Trace, groups: Mapping[int, tuple[int, ...]],
                 times: CollectiveTimes) -> None:
        super().__init__(sys, trace, groups)
        self.times = times

    def start_collective(self, position: int, node: TraceNode, com_type: int, size: int,
                         involved: tuple[bool, ...], group: CommGroup | None) -> None:
        """Finish the collective after its measured duration."""
        duration = self.times.duration(position, at_start=self.sys.queue.now == 0)
        self.sys.register_event(self.node_done, position, duration)


def run_replicated(traces: Sequence[Trace], layouts: Mapping[int, int], system: SystemConfig,
                   network: NetworkConfig, groups: Mapping[int, tuple[int, ...]]) -> SimResult:
    """Replay NPU 0 and copy its report to every NPU (raises `NotSymmetric` when unsound);
    ``layouts`` as `CollectiveTimes` takes them."""
    from hespas_py.sim.prefetch import prefetch

    times = CollectiveTimes(traces, layouts, system, network, groups)
    prefetch(times)
    queue = EventQueue()
    sys = Sys(0, queue, Network(network, queue), system, network)
    workload = ReplicatedWorkload(sys, traces[0], groups, times)
    run_workloads([workload], queue)
    device = workload.result()
    return SimResult(tuple(dataclasses.replace(device, id=npu, trace=trace)
                           for npu, trace in enumerate(traces)), replicated=True)
