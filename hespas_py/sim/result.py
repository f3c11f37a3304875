"""What a simulation reports: ASTRA-sim's per-NPU figures plus each node's issue/finish times."""

from __future__ import annotations

from dataclasses import dataclass

from hespas_py.sim.trace import Trace


@dataclass(frozen=True)
class DeviceResult:
    """One NPU's figures, all in ns, as ASTRA-sim prints them.

    Attributes:
      id: NPU id.
      wall_time_ns: latest finish of any node ("Wall time").
      gpu_time_ns: union of GPU compute node intervals ("GPU time").
      comm_time_ns: union of communication node intervals ("Comm time").
      exposed_comm_ns: finish tick minus summed GPU compute time ("exposed communication"; CPU
        op time counts as exposed, as in ASTRA-sim's workload layer).
      overlap_ns: GPU time + comm time - wall time when positive, else 0
        ("Total compute-communication overlap"); with CPU ops, the time GPU compute or
        communication runs takes the wall time's place.
      finished_ns: tick at which the NPU's last node finished ("finished, N cycles").
      cpu_time_ns: union of CPU compute node (``is_cpu_op``) intervals ("CPU time"; 0 when the
        NPU ran none). ASTRA-sim 518bd51 prints no statistics for an NPU that ran a CPU op, only
        its "finished" line (finish, exposed communication): its overlap step throws on CPU time.
      timeline: ``(node id, issue ns, finish ns)`` per issued node, in issue order (empty when
        the backend does not report nodes).
      trace: the device's parsed trace (node names and kinds for the timeline), if known.
    """

    id: int
    wall_time_ns: int
    gpu_time_ns: int
    comm_time_ns: int
    exposed_comm_ns: int
    overlap_ns: int
    finished_ns: int
    cpu_time_ns: int = 0
    timeline: tuple[tuple[int, int, int], ...] = ()
    trace: Trace | None = None

    def as_json(self) -> dict:
        """The device entry of ``hespas simulate --json`` (``cpu_time_ns`` only when CPU ops ran,
        as ASTRA-sim has a "CPU time" figure only then)."""
        entry = {"id": self.id, "wall_time_ns": self.wall_time_ns,
                 "gpu_time_ns": self.gpu_time_ns, "comm_time_ns": self.comm_time_ns,
                 "exposed_comm_ns": self.exposed_comm_ns, "overlap_ns": self.overlap_ns}
        if self.cpu_time_ns:
            entry["cpu_time_ns"] = self.cpu_time_ns
        return entry


@dataclass(frozen=True)
class SimResult:
    """A simulated step.

    Attributes:
      devices: one entry per NPU, in NPU order.
      backend: ``builtin`` or ``astra-sim``.
      replicated: True when identical symmetric devices were simulated once and replicated.
      timed_collectives: True when every NPU was replayed with each distinct collective
        simulated once (`hespas_py.sim.gang`).
    """

    devices: tuple[DeviceResult, ...]
    backend: str = "builtin"
    replicated: bool = False
    timed_collectives: bool = False

    @property
    def step_time_ns(self) -> int:
        """The step's duration: the slowest NPU's wall time."""
        return max(d.wall_time_ns for d in self.devices)

    def as_json(self) -> dict:
        """``{"devices": [...]}`` as ``hespas simulate --json`` prints it."""
        return {"devices": [d.as_json() for d in self.devices]}


def merged_length(intervals: list[tuple[int, int]]) -> int:
    """Total length of the union of closed intervals (touching intervals merge)."""
    if not intervals:
        return 0
    intervals.sort()
    total = 0
    start, end = intervals[0]
    for a, b in intervals:
        if a <= end:
            if b > end:
                end = b
        else:
            total += end - start
            start, end = a, b
    return total + end - start
