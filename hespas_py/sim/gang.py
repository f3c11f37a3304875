"""Every NPU replayed, each distinct collective simulated once: trace sets whose sends and
receives keep one NPU's replay from standing for all.

Why and how: docs/simulation.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hespas_py.chakra.schema import NodeType
from hespas_py.sim.collective_times import CollectiveTimes
from hespas_py.sim.columns import of_traces
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sim.network import EventQueue, Network
from hespas_py.sim.result import SimResult
from hespas_py.sim.symmetry import group_layouts
from hespas_py.sim.system import CommGroup, Sys
from hespas_py.sim.trace import Trace, TraceNode, index_trace
from hespas_py.sim.workload import Workload, run_workloads

_POINT_TO_POINT = (NodeType.COMM_SEND_NODE, NodeType.COMM_RECV_NODE)


def collectives_only(trace: Trace) -> tuple[Trace, dict[int, int]] | None:
    """``trace``'s collective nodes alone, in order, free of dependencies (node id = ordinal),
    and each collective's position in ``trace`` -> its ordinal; None when it has none. Two NPUs
    issue the same collectives in the same order (program order,
    `hespas_py.chakra.encoder.place`) exactly when these traces have one shape."""
    nodes: list[TraceNode] = []
    ordinals: dict[int, int] = {}
    for position, node in enumerate(trace.nodes):
        if node.type == NodeType.COMM_COLL_NODE:
            ordinals[position] = len(nodes)
            nodes.append(node._replace(id=len(nodes), deps=()))
    return (index_trace(trace.path, nodes, trace.digest), ordinals) if nodes else None


def gang_plan(traces: Sequence[Trace], system: SystemConfig, network: NetworkConfig,
              groups: Mapping[int, tuple[int, ...]]
              ) -> tuple[list[Trace], list[dict[int, int]], dict[int, int]] | None:
    """(per NPU its `collectives_only` trace and ordinals, per ordinal its group layout) when the
    traces hold sends or receives and their collectives are alike (`group_layouts` of the
    collectives alone); else None."""
    if not any(node.type in _POINT_TO_POINT for trace in {t.digest: t for t in traces}.values()
               for node in trace.nodes):
        return None
    made: dict[bytes, tuple[Trace, dict[int, int]]] = {}
    for trace in traces:
        if trace.digest not in made:
            found = collectives_only(trace)
            if found is None:
                return None
            made[trace.digest] = found
    alone = [made[t.digest][0] for t in traces]
    layouts = group_layouts(alone, system, network, groups)
    if layouts is None:
        return None
    return alone, [made[t.digest][1] for t in traces], layouts


class _Gang:
    """The members of each collective that have issued it, until the last one does."""

    def __init__(self, times: CollectiveTimes, num_npus: int) -> None:
        self.times = times
        self.num_npus = num_npus
        self.waiting: dict[tuple[int, int | None], list[tuple[Workload, int]]] = {}

    def arrive(self, workload: Workload, position: int, ordinal: int,
               group: CommGroup | None) -> None:
        """``workload`` issued its collective ``ordinal`` (at ``position`` of its trace)."""
        key = (ordinal, group.id if group is not None else None)
        waiting = self.waiting.setdefault(key, [])
        waiting.append((workload, position))
        if len(waiting) < (len(group.members) if group is not None else self.num_npus):
            return
        del self.waiting[key]
        duration = self.times.duration(ordinal, at_start=workload.sys.queue.now == 0)
        for member, member_position in waiting:
            member.sys.register_event(member.node_done, member_position, duration)


class GangWorkload(Workload):
    """One NPU's full replay whose collectives finish by `_Gang`."""

    def __init__(self, sys: Sys, trace: Trace, groups: Mapping[int, tuple[int, ...]],
                 ordinals: dict[int, int], gang: _Gang) -> None:
        super().__init__(sys, trace, groups)
        self.ordinals = ordinals
        self.gang = gang

    def start_collective(self, position: int, node: TraceNode, com_type: int, size: int,
                         involved: tuple[bool, ...], group: CommGroup | None) -> None:
        self.gang.arrive(self, position, self.ordinals[position], group)


def run_gang(traces: Sequence[Trace], plan: tuple[list[Trace], list[dict[int, int]],
                                                  dict[int, int]],
             system: SystemConfig, network: NetworkConfig,
             groups: Mapping[int, tuple[int, ...]]) -> SimResult:
    """Replay every NPU with its collectives timed once (`gang_plan`'s ``plan``; raises
    `hespas_py.sim.collective_times.NotSymmetric` when a collective's duration differs between NPUs)."""
    from hespas_py.sim.prefetch import prefetch

    alone, ordinals, layouts = plan
    columns = of_traces(alone)
    assert columns is not None, "gang_plan found the collectives alike"
    times = CollectiveTimes(columns, layouts, system, network, groups)
    prefetch(times)
    queue = EventQueue()
    net = Network(network, queue)
    gang = _Gang(times, network.num_npus)
    workloads = [GangWorkload(Sys(npu, queue, net, system, network), trace, groups,
                              ordinals[npu], gang) for npu, trace in enumerate(traces)]
    run_workloads(workloads, queue)
    return SimResult(tuple(w.result() for w in workloads), timed_collectives=True)
