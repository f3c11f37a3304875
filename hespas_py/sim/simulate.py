"""`simulate`: replay a Chakra trace set on ASTRA-sim's analytical congestion-unaware model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from hespas_py.errors import HespasError
from hespas_py.gc_pause import gc_paused
from hespas_py.sim.collective_times import NotSymmetric
from hespas_py.sim.columns import of_symmetric_set, of_traces
from hespas_py.sim.errors import Rejected
from hespas_py.sim.gang import gang_plan, run_gang
from hespas_py.sim.inputs import check_setup, load_comm_groups
from hespas_py.sim.machine import NetworkConfig, RemoteMemoryConfig, SystemConfig
from hespas_py.sim.replicate import run_replicated
from hespas_py.sim.result import SimResult
from hespas_py.sim.symmetry import symmetric_plan
from hespas_py.sim.trace import Trace, load_traces, trace_paths
from hespas_py.sim.workload import run_full

TraceSet = str | Path | Sequence[Trace]


def _resolve_traces(traces: TraceSet, num_npus: int) -> list[Trace]:
    if isinstance(traces, (str, Path)):
        return load_traces(trace_paths(traces, num_npus))
    traces = list(traces)
    if len(traces) != num_npus:
        raise HespasError(f"{traces[0].path if traces else 'traces'}: {len(traces)} traces for a "
                          f"network of {num_npus} NPUs")
    return traces


def _resolve_groups(comm_groups: str | Path | Mapping | None) -> dict[int, tuple[int, ...]]:
    if comm_groups is None:
        return {}
    if isinstance(comm_groups, (str, Path)):
        return load_comm_groups(comm_groups)
    return {int(k): tuple(v) for k, v in comm_groups.items()}


def _check_setup(system: SystemConfig, network: NetworkConfig,
                 groups: Mapping[int, tuple[int, ...]]) -> None:
    """Startup checks ASTRA-sim makes before simulating anything."""
    check_setup(system, network, "system.json")
    for gid, members in groups.items():
        if any(not 0 <= m < network.num_npus for m in members):
            raise Rejected(f"communicator group {gid} names NPUs outside 0..{network.num_npus - 1}")


def simulate(traces: TraceSet, system: SystemConfig, network: NetworkConfig, *,
             comm_groups: str | Path | Mapping | None = None,
             remote_memory: RemoteMemoryConfig | None = None,
             replicate: bool = True) -> SimResult:
    """Simulate a trace set like ASTRA-sim's AstraSim_Analytical_Congestion_Unaware.

    Args:
      traces: the workload prefix (``<prefix>.<npu>.et`` for every NPU) or parsed traces.
      system: the system layer configuration (system.json).
      network: the network (network.yml); its NPU count sets how many traces are read.
      comm_groups: comm_group.json path or ``{group id: ranks}``, for nodes with pg_name.
      remote_memory: accepted for parity with ASTRA-sim; MEM nodes are rejected at load.
      replicate: simulate symmetric NPUs once (traces alike but for the groups and peers they
        name, `hespas_py.sim.replicate`; a symmetric trace set, `hespas_py.chakra.symmetric`,
        only so), or, where they differ in their sends and receives, each distinct collective
        once (`hespas_py.sim.gang`); False simulates everything.

    Raises:
      HespasError: unreadable input, or a trace set ASTRA-sim rejects, crashes or stalls on.
    """
    del remote_memory  # no node that reads it gets past trace loading
    label = traces if isinstance(traces, (str, Path)) else "traces"
    groups = _resolve_groups(comm_groups)
    try:
        _check_setup(system, network, groups)
        with gc_paused():
            symmetric = (of_symmetric_set(traces, network.num_npus)
                         if isinstance(traces, (str, Path)) else None)
            if symmetric is not None:
                return _run_symmetric_set(symmetric, system, network, groups, label, replicate)
            resolved = _resolve_traces(traces, network.num_npus)
            if replicate:
                columns = of_traces(resolved)
                plan = None if columns is None else symmetric_plan(columns, system, network,
                                                                   groups)
                if columns is not None and plan is not None:
                    try:
                        return run_replicated(columns, plan, system, network, groups, resolved)
                    except NotSymmetric:
                        pass
                gang = gang_plan(resolved, system, network, groups)
                if gang is not None:
                    try:
                        return run_gang(resolved, gang, system, network, groups)
                    except NotSymmetric:
                        pass
            return SimResult(tuple(w.result()
                                   for w in run_full(resolved, system, network, groups)))
    except Rejected as exc:
        raise HespasError(f"{label}: {exc}") from None


def _run_symmetric_set(columns, system: SystemConfig, network: NetworkConfig,
                       groups: Mapping[int, tuple[int, ...]], label, replicate: bool) -> SimResult:
    """A symmetric trace set (NPU 0's trace and the columns) replayed once: it holds no other
    trace to replay in full."""
    if not replicate:
        raise HespasError(f"{label}: a symmetric trace set (one trace and the groups and peers of "
                          "every device) is simulated by symmetry only: drop --full")
    plan = symmetric_plan(columns, system, network, groups)
    if plan is None:
        raise HespasError(f"{label}: the devices of this symmetric trace set do not form the "
                          "symmetric patterns one replay stands for (hespas_py/sim/symmetry.py)")
    try:
        return run_replicated(columns, plan, system, network, groups)
    except NotSymmetric:
        raise HespasError(f"{label}: a collective of the symmetric trace set takes different "
                          "times on different devices: no simulation by symmetry") from None
