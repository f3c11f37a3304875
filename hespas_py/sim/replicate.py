"""Identical NPUs simulated once.

When every NPU runs the same trace, all collectives span the whole machine and no NPU sends to a
single peer, every NPU issues each collective at the same tick, so one NPU's replay stands for all
of them. Each distinct collective is simulated once on the full machine in isolation (all NPUs
starting together) to get its duration; if that duration differs between NPUs (e.g. a binary
tree's root and leaves) the set is not symmetric and the caller falls back to a full simulation.

Only same-nanosecond ties between a collective's and a compute node's completion can order
differently from the full simulation (the collective is timed from its issue).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Mapping

from hespas_py.chakra.schema import NodeType
from hespas_py.sim.config import NetworkConfig, SystemConfig
from hespas_py.sim.engine import CommGroup, EventQueue, Network, Sys
from hespas_py.sim.result import SimResult
from hespas_py.sim.trace import Trace, TraceNode, index_trace
from hespas_py.sim.workload import Workload, group_id, run_full, run_workloads

#: Compute time placed before a collective timed away from tick 0.
_LEAD_IN_US = 1


class NotSymmetric(Exception):
    """A collective finishes at different times on different NPUs."""


def replicable(traces: list[Trace], system: SystemConfig, network: NetworkConfig,
               groups: Mapping[int, tuple[int, ...]]) -> bool:
    """Whether one NPU's replay can stand for all (cheap structural checks)."""
    first = traces[0]
    if any(t.digest != first.digest for t in traces):
        return False
    if any(a.name == "doubleBinaryTree" for algs in system.implementations.values() for a in algs):
        return False
    everyone = tuple(range(network.num_npus))
    compute, collective = NodeType.COMP_NODE, NodeType.COMM_COLL_NODE
    for node in first.nodes:
        if node.type == compute:
            continue
        if node.type != collective:
            return False
        gid = group_id(node)
        if gid is not None and tuple(sorted(groups.get(gid, ()))) != everyone:
            return False
    return True


class CollectiveTimes:
    """Durations of collectives on the whole machine, measured once per distinct collective."""

    def __init__(self, system: SystemConfig, network: NetworkConfig,
                 groups: Mapping[int, tuple[int, ...]]) -> None:
        self.system = system
        self.network = network
        self.groups = groups
        self._durations: dict[tuple, int] = {}

    @staticmethod
    def key(node: TraceNode, at_start: bool) -> tuple:
        """What makes two collectives take the same time."""
        return (node.ints.get("comm_type"), node.ints.get("comm_size"), node.involved_dim,
                group_id(node), node.ints.get("comm_priority", 0), at_start)

    def duration(self, node: TraceNode, at_start: bool) -> int:
        """Issue-to-finish ns of ``node``'s collective, identical on every NPU."""
        key = self.key(node, at_start)
        duration = self._durations.get(key)
        if duration is None:
            duration = self._durations[key] = self.measure(node, at_start)
        return duration

    def record(self, node: TraceNode, at_start: bool, duration: int) -> None:
        """Take a `measure` of ``node`` made elsewhere (`hespas_py.sim.prefetch`)."""
        self._durations[self.key(node, at_start)] = duration

    def measure(self, node: TraceNode, at_start: bool) -> int:
        """Simulate ``node``'s collective alone on the whole machine: its duration."""
        if at_start:
            nodes = [node._replace(id=0, deps=())]
            lead_in = 0
        else:
            nodes = [TraceNode(0, "lead-in", NodeType.COMP_NODE, (), _LEAD_IN_US, {}, "", None),
                     node._replace(id=1, deps=(0,))]
            lead_in = _LEAD_IN_US * 1000
        trace = index_trace(Path("<collective timing>"), nodes, b"")
        workloads = run_full([trace] * self.network.num_npus, self.system, self.network,
                             self.groups)
        finishes = {w.end[len(nodes) - 1] for w in workloads}
        if len(finishes) != 1:
            raise NotSymmetric
        return finishes.pop() - lead_in


class ReplicatedWorkload(Workload):
    """One NPU's replay with every collective timed by `CollectiveTimes`."""

    def __init__(self, sys: Sys, trace: Trace, groups: Mapping[int, tuple[int, ...]],
                 times: CollectiveTimes) -> None:
        super().__init__(sys, trace, groups)
        self.times = times

    def start_collective(self, position: int, node: TraceNode, com_type: int, size: int,
                         involved: tuple[bool, ...], group: CommGroup | None) -> None:
        """Finish the collective after its measured duration."""
        duration = self.times.duration(node, at_start=self.sys.queue.now == 0)
        self.sys.register_event(self.node_done, position, duration)


def run_replicated(trace: Trace, system: SystemConfig, network: NetworkConfig,
                   groups: Mapping[int, tuple[int, ...]]) -> SimResult:
    """Replay NPU 0 and copy its report to every NPU (raises `NotSymmetric` when unsound)."""
    from hespas_py.sim.prefetch import prefetch

    times = CollectiveTimes(system, network, groups)
    prefetch(times, trace)
    queue = EventQueue()
    sys = Sys(0, queue, Network(network, queue), system, network)
    workload = ReplicatedWorkload(sys, trace, groups, times)
    run_workloads([workload], queue)
    device = workload.result()
    return SimResult(tuple(dataclasses.replace(device, id=npu)
                           for npu in range(network.num_npus)), replicated=True)
