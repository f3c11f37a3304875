"""The two kinds of sweep task: plain functions of plain dataclasses, so a process pool and Ray run
the same code.

`make_traces` runs one trace job and hands the traces back as bytes (a worker on another machine
shares no disk with the driver); `simulate_points` simulates a batch of points on one trace set,
parsing the traces once per worker process (`_parsed` keeps the last few), and simulating each
point as ``hespas gen --system-config`` does.
"""

from __future__ import annotations

import collections
import dataclasses
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hespas_py.chakra.files import COMM_GROUP_FILE, TRACE_PREFIX
from hespas_py.errors import HespasError
from hespas_py.export.workloads import workload_path
from hespas_py.pipeline import generate
from hespas_py.sim.inputs import load_comm_groups
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sim.simulate import simulate
from hespas_py.sim.trace import load_traces
from hespas_py.sweep.keys import file_digest
from hespas_py.sweep.plan import TraceJob

#: Parsed trace sets a worker keeps for the batches that follow.
_PARSED_KEPT = 4
_parsed_sets: collections.OrderedDict = collections.OrderedDict()


@dataclass(frozen=True)
class Failure:
    """A task stopped on bad input.

    Attributes:
        reason: the one-line error.
    """

    reason: str


@dataclass(frozen=True)
class TraceFiles:
    """The traces of one trace job.

    Attributes:
        key: the job's key.
        files: the distinct ``.et`` file contents.
        device_files: per device, the index of its file in `files`.
        comm_groups: the ``comm_group.json`` text.
        peak_bytes: the per-device peak memory of the workload (`hespas_py.memory`).
    """

    key: str
    files: tuple[bytes, ...]
    device_files: tuple[int, ...]
    comm_groups: str
    peak_bytes: int

    @property
    def num_devices(self) -> int:
        """Devices the traces are for."""
        return len(self.device_files)


@dataclass(frozen=True)
class Figures:
    """A simulated point, in seconds; the last three are the slowest device's.

    Attributes:
        step_time_s: the step: the slowest device's wall time.
        compute_s: its GPU time (union of its compute nodes' intervals).
        comm_s: its communication time (union of its communication nodes' intervals).
        exposed_comm_s: its finish time minus its summed compute time.
    """

    step_time_s: float
    compute_s: float
    comm_s: float
    exposed_comm_s: float

    @classmethod
    def of(cls, result) -> Figures:
        """The figures of a `hespas_py.sim.result.SimResult`."""
        worst = max(result.devices, key=lambda d: d.wall_time_ns)
        return cls(result.step_time_ns * 1e-9, worst.gpu_time_ns * 1e-9,
                   worst.comm_time_ns * 1e-9, worst.exposed_comm_ns * 1e-9)


@dataclass(frozen=True)
class SimBatch:
    """Points simulated on one trace set.

    Attributes:
        traces: the trace set.
        machines: per point, its index and its (system, network).
    """

    traces: TraceFiles
    machines: tuple[tuple[int, SystemConfig, NetworkConfig], ...]


def _workload_file(job: TraceJob) -> Path:
    """The job's workload file on this worker, checked against the driver's digest."""
    where = job.workload
    path = workload_path(where.shipped) if where.shipped else where.file
    if file_digest(path) != job.workload_digest:
        raise HespasError(f"{path}: differs from the driver's copy of the workload (install the "
                          "same hespas_py on every worker, and put workload files on a shared "
                          "file system)")
    return path


def make_traces(job: TraceJob) -> TraceFiles | Failure:
    """Generate the job's traces (`hespas_py.pipeline.generate`) and read them back."""
    try:
        with tempfile.TemporaryDirectory(prefix="hespas-sweep-") as scratch:
            out = Path(scratch) / "traces"
            config = dataclasses.replace(job.config, mlir_file=_workload_file(job), output_dir=out,
                                         memory=True)  # every row reports its peak
            result = generate(config)
            devices = result.layout.num_devices
            files: dict[bytes, int] = {}
            device_files = tuple(files.setdefault((out / f"{TRACE_PREFIX}.{d}.et").read_bytes(),
                                                  len(files)) for d in range(devices))
            groups = out / COMM_GROUP_FILE
            return TraceFiles(job.key, tuple(files), device_files,
                              groups.read_text() if groups.is_file() else "{}",
                              result.stats["memory"]["peak_bytes"])
    except HespasError as exc:
        return Failure(str(exc))


def _parsed(traces: TraceFiles) -> tuple[list, dict]:
    """(per-device parsed traces, comm groups) of a trace set, parsed once per process."""
    if traces.key in _parsed_sets:
        _parsed_sets.move_to_end(traces.key)
        return _parsed_sets[traces.key]
    with tempfile.TemporaryDirectory(prefix="hespas-sweep-") as scratch:
        paths = []
        for i, data in enumerate(traces.files):
            paths.append(Path(scratch) / f"trace.{i}.et")
            paths[-1].write_bytes(data)
        groups_file = Path(scratch) / "comm_group.json"
        groups_file.write_text(traces.comm_groups)
        parsed = (load_traces([paths[i] for i in traces.device_files]),
                  load_comm_groups(groups_file))
    _parsed_sets[traces.key] = parsed
    while len(_parsed_sets) > _PARSED_KEPT:
        _parsed_sets.popitem(last=False)
    return parsed


def simulate_points(batch: SimBatch) -> list[tuple[int, Figures | Failure]]:
    """Simulate each point of the batch: (point index, figures or why it failed)."""
    try:
        traces, groups = _parsed(batch.traces)
    except HespasError as exc:
        return [(index, Failure(str(exc))) for index, _, _ in batch.machines]
    outcomes: list[tuple[int, Figures | Failure]] = []
    for index, system, network in batch.machines:
        try:
            result = simulate(traces, system, network, comm_groups=groups)
        except HespasError as exc:
            outcomes.append((index, Failure(str(exc))))
            continue
        outcomes.append((index, Figures.of(result)))
    return outcomes
