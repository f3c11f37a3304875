"""Symmetric NPUs simulated once.

When the NPUs' traces are alike but for the groups their collectives name and the peers of their
sends and receives, and those form the symmetric patterns `hespas_py.sim.symmetry` checks (groups
partitioning the machine into groups of one size; every send's message taking one time, matched
by a send of every NPU), every NPU issues each node at the same tick, so NPU 0's replay stands for
all of them. Each distinct collective (type, size, dimensions, priority and group layout) is
simulated once in isolation, every NPU starting it on its own group at once, to get its duration;
if that duration differs between NPUs (e.g. a binary tree's root and leaves, or groups placed
unalike on the network) the set is not symmetric and the caller falls back to a full simulation.
The groups of a layout do not share links in the congestion-unaware network, so groups whose
ring steps cross the network alike (dimension and hops of each message, `group_geometry`) take
one time: one group of each such geometry is simulated. An NPU runs one collective at a time, so
a collective alone takes as long as it does within the step. A send finishes its message's time
after it is issued; a receive when it is posted or when NPU 0's own send of the matching position
has had that time, whichever is later (its peer issued that send at the same tick).

Only same-nanosecond ties between a collective's and a compute node's completion can order
differently from the full simulation (the collective is timed from its issue).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from collections.abc import Mapping, Sequence

from hespas_py.chakra.schema import NodeType
from hespas_py.sim.columns import Columns
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sim.network import EventQueue, Network
from hespas_py.sim.result import SimResult
from hespas_py.sim.symmetry import SymmetricPlan
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


def group_geometry(members: tuple[int, ...], network: Network) -> tuple:
    """How the steps of a group's ring (its members in order, round) cross the network."""
    return tuple(network.route(a, b)
                 for a, b in zip(members, members[1:] + members[:1], strict=True))


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


class ReplicatedWorkload(Workload):
    """NPU 0's replay with every collective timed by `CollectiveTimes` and every send and receive
    by the symmetric plan's message times."""

    def __init__(self, sys: Sys, trace: Trace, groups: Mapping[int, tuple[int, ...]],
                 times: CollectiveTimes, plan: SymmetricPlan) -> None:
        super().__init__(sys, trace, groups)
        self.times = times
        self.plan = plan
        self.sent: dict[int, int] = {}  # send position -> tick issued
        self.waiting: dict[int, list[int]] = {}  # send position -> receives waiting for it

    def start_collective(self, position: int, node: TraceNode, com_type: int, size: int,
                         involved: tuple[bool, ...], group: CommGroup | None) -> None:
        """Finish the collective after its measured duration."""
        duration = self.times.duration(position, at_start=self.sys.queue.now == 0)
        self.sys.register_event(self.node_done, position, duration)

    def send(self, position: int, node: TraceNode) -> None:
        """Done when the message has arrived; the receives matched to it can complete."""
        now = self.sys.queue.now
        self.sent[position] = now
        delay = self.plan.sends[position]
        self.sys.register_event(self.node_done, position, delay)
        for receive in self.waiting.pop(position, ()):
            self.sys.register_event(self.node_done, receive, delay)

    def recv(self, position: int, node: TraceNode) -> None:
        """Done when the matching message has arrived (its send issued at NPU 0's tick)."""
        send, delay = self.plan.receives[position]
        issued = self.sent.get(send)
        if issued is None:
            self.waiting.setdefault(send, []).append(position)
        else:
            self.sys.register_event(self.node_done, position,
                                    max(0, issued + delay - self.sys.queue.now))


def run_replicated(columns: Columns, plan: SymmetricPlan, system: SystemConfig,
                   network: NetworkConfig, groups: Mapping[int, tuple[int, ...]],
                   traces: list[Trace] | None = None) -> SimResult:
    """Replay NPU 0 and copy its report to every NPU (raises `NotSymmetric` when unsound);
    ``traces``: each NPU's own trace for its report (NPU 0's when not given)."""
    from hespas_py.sim.prefetch import prefetch

    times = CollectiveTimes(columns, plan.layouts, system, network, groups)
    prefetch(times)
    queue = EventQueue()
    sys = Sys(0, queue, Network(network, queue), system, network)
    workload = ReplicatedWorkload(sys, columns.trace, groups, times, plan)
    run_workloads([workload], queue)
    device = workload.result()
    return SimResult(tuple(dataclasses.replace(device, id=npu,
                                               trace=traces[npu] if traces else columns.trace)
                           for npu in range(columns.num_npus)), replicated=True)
