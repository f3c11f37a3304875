"""Symmetric NPUs simulated once.

Why and how: docs/simulation.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from hespas_py.sim.collective_times import CollectiveTimes
from hespas_py.sim.columns import Columns
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sim.network import EventQueue, Network
from hespas_py.sim.result import SimResult
from hespas_py.sim.symmetry import SymmetricPlan
from hespas_py.sim.system import CommGroup, Sys
from hespas_py.sim.trace import Trace, TraceNode
from hespas_py.sim.workload import Workload, run_workloads


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
