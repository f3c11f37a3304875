"""The durations of a symmetric trace set's collectives, each distinct one simulated once in
isolation (`hespas_py.sim.replicate` explains why that stands for every NPU)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path

from hespas_py.chakra.schema import NodeType
from hespas_py.sim.columns import Columns
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sim.network import EventQueue, Network
from hespas_py.sim.system import Sys
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


def group_geometry(members: tuple[int, ...], network: Network) -> tuple:
    """How the steps of a group's ring (its members in order, round) cross the network."""
    return tuple(network.route(a, b) for a, b in zip(members, members[1:] + members[:1], strict=True))


class CollectiveTimes:
    """Durations of the collectives of a symmetric trace set, measured once per distinct one."""

    def __init__(self, columns: Columns, layouts: Mapping[int, int], system: SystemConfig,
                 network: NetworkConfig, groups: Mapping[int, tuple[int, ...]]) -> None:
        """``layouts``: per collective position its group layout number
        (`hespas_py.sim.symmetry.SymmetricPlan`)."""
        self.columns = columns
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
        node = self.columns.trace.nodes[position]
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
        """Simulate the collective at ``position`` alone, each NPU on the group it names (one
        group per geometry; the whole machine for a whole-machine collective): its duration
        (`NotSymmetric` when NPUs finish apart)."""
        node = self.columns.trace.nodes[position]
        column = self.columns.values[position]
        npus: Sequence[int]
        if column[0] is None:
            npus = range(self.columns.num_npus)
        else:
            net = Network(self.network, EventQueue())  # geometry only: no events
            by_geometry: dict[tuple, int] = {}
            for gid in dict.fromkeys(column):
                by_geometry.setdefault(group_geometry(self.groups[gid], net), gid)
            npus = [m for gid in by_geometry.values() for m in self.groups[gid]]
        timing = {}
        alone: dict[int | None, Trace] = {}
        for npu in npus:
            gid = column[npu]
            if gid not in alone:
                alone[gid] = _timing_trace(node._replace(pg_name="" if gid is None else str(gid)),
                                           at_start)
            timing[npu] = alone[gid]
        finishes = {w.end[len(w.trace.nodes) - 1] for w in self._run(timing)}
        if len(finishes) != 1:
            raise NotSymmetric
        return finishes.pop() - (0 if at_start else _LEAD_IN_US * 1000)

    def _run(self, timing: dict[int, Trace]) -> list[Workload]:
        if len(timing) == self.columns.num_npus:
            return run_full([timing[n] for n in range(len(timing))], self._timing_system,
                            self.network, self.groups)
        queue = EventQueue()
        net = Network(self.network, queue)
        workloads = [Workload(Sys(npu, queue, net, self._timing_system, self.network), trace,
                              self.groups)
                     for npu, trace in timing.items()]
        run_workloads(workloads, queue)
        return workloads
