"""Time per kernel class: the fused roofline's plan beside a GPU profile of the same program.

Why and how: docs/accuracy.md.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from hespas_py.accuracy.evaluate import NO_LIMIT
from hespas_py.errors import HespasError
from hespas_py.estimators.base import get_estimator
from hespas_py.estimators.dispatch import entry_buffers
from hespas_py.estimators.fused_roofline import FusedRoofline
from hespas_py.jaxcompat import hlo_module_from_text
from hespas_py.kernels import (
    CLASSES,
    CONV_BACKWARD_FILTER,
    CONV_BACKWARD_INPUT,
    CONV_FORWARD,
    COPY,
    ELEMENTWISE,
    FLASH_BACKWARD,
    FLASH_FORWARD,
    GATHER,
    GEMM,
    OTHER,
    REDUCE_WINDOW,
    REDUCTION,
    SCATTER,
    kernel_class,
)
from hespas_py.mlir.reader import load_module
from hespas_py.resources import shipped
from hespas_py.run import node_hardware
from hespas_py.split import split

#: The estimator whose plan of kernels is set beside the profile.
PLANNER = FusedRoofline.name

#: The pseudo-class of the step's time outside kernels (host dispatch, gaps between kernels).
IDLE = "idle"
#: The pseudo-class of kernel time a truncated profile does not list (device busy less listed).
UNPROFILED = "unprofiled"

#: cuBLAS / cuDNN custom-call targets of XLA's GPU backend, by class (longest prefix first).
LIBRARY_TARGETS: tuple[tuple[str, str], ...] = (
    ("__cublas$", GEMM),
    ("__cudnn$convBackwardInput", CONV_BACKWARD_INPUT),
    ("__cudnn$convBackwardFilter", CONV_BACKWARD_FILTER),
    ("__cudnn$conv", CONV_FORWARD),  # convForward, convBiasActivationForward
    ("__cudnn$fmha", FLASH_FORWARD),  # Backward kinds are matched below
)
#: Library kernel names (NVIDIA's naming) launched where no HLO instruction is named, by class.
_KERNEL_NAMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), c) for p, c in (
        (r"sdpa.*bprop|fmha.*(bwd|backward)|flash_bprop|convert_dq|dot_do_o", FLASH_BACKWARD),
        (r"sdpa.*fprop|fmha|flash_fprop", FLASH_FORWARD),
        (r"wgrad", CONV_BACKWARD_FILTER),
        (r"dgrad", CONV_BACKWARD_INPUT),
        (r"fprop|conv(?!ert)", CONV_FORWARD),
        (r"nvjet|gemm|cutlass|cublas|xmma", GEMM),
        (r"memcpy|memset", COPY),
    ))
#: HLO opcodes of pure data movement (with views), for a fusion that is a copy.
_HLO_MOVES = frozenset({"parameter", "bitcast", "tuple", "get_tuple_element", "copy",
                        "transpose", "broadcast", "slice", "concatenate", "pad", "reverse",
                        "dynamic_slice", "dynamic_update_slice", "iota", "reshape", "constant"})


@dataclass(frozen=True)
class ClassTime:
    """Launches and seconds of one kernel class in one step.

    Attributes:
        launches: kernel launches per step.
        seconds: GPU time per step.
    """

    launches: float = 0.0
    seconds: float = 0.0

    def __add__(self, other: ClassTime) -> ClassTime:
        return ClassTime(self.launches + other.launches, self.seconds + other.seconds)


def _library_class(target: str) -> str:
    for prefix, cls in LIBRARY_TARGETS:
        if target.startswith(prefix):
            return FLASH_BACKWARD if cls == FLASH_FORWARD and "Backward" in target else cls
    return OTHER


def _fusion_class(ops: set[str]) -> str:
    if ops & {"dot", "convolution"}:
        return GEMM
    if "scatter" in ops:
        return SCATTER
    if "reduce_window" in ops:
        return REDUCE_WINDOW
    if "reduce" in ops:
        return REDUCTION
    if "gather" in ops:
        return GATHER
    return COPY if ops <= _HLO_MOVES else ELEMENTWISE


class HloKernels:
    """The class of every kernel-launching instruction of an XLA-optimized HLO module."""

    def __init__(self, hlo_text: str, source: str) -> None:
        try:
            module = hlo_module_from_text(hlo_text)
        except Exception as exc:  # XLA's parser raises its own status errors
            raise HespasError(f"{source}: not an HLO module ({str(exc).splitlines()[0]})") from None
        computations = {c.name: [i for i in c.instructions()] for c in module.computations()}
        opcodes = {name: {_opcode(i) for i in insts} for name, insts in computations.items()}
        #: instruction name ('.' and '-' as '_', as profilers print kernel names) -> class
        self.classes: dict[str, str] = {}
        for insts in computations.values():
            for inst in insts:
                cls = self._classify(inst, opcodes)
                if cls is not None:
                    self.classes[_norm(inst.name)] = cls

    @staticmethod
    def _classify(inst, opcodes: Mapping[str, set[str]]) -> str | None:
        op = _opcode(inst)
        if op == "custom_call":
            target = re.search(r'custom_call_target="([^"]*)"', inst.to_string())
            return _library_class(target.group(1) if target else "")
        if op == "fusion":
            called = re.search(r"calls=%?([\w.-]+)", inst.to_string())
            return _fusion_class(opcodes.get(called.group(1), set()) if called else set())
        if op in ("copy", "transpose"):
            return COPY
        if op in ("scatter", "gather", "reduce", "reduce_window"):
            return _fusion_class({op})
        return None

    def kernel_class(self, hlo_op: str, kernel: str) -> str:
        """The class of a profiled ``kernel`` launched for HLO instruction ``hlo_op``."""
        own = self.classes.get(_norm(kernel))
        if own is not None:
            return own
        for pattern, cls in _KERNEL_NAMES:
            if pattern.search(kernel):
                named = self.classes.get(_norm(hlo_op))
                return named if named not in (None, OTHER) else cls
        return self.classes.get(_norm(hlo_op), OTHER)


def _opcode(inst) -> str:
    """``kReduceWindow`` -> ``reduce_window`` (the StableHLO spelling of the op)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", inst.opcode.name[1:]).lower()


def _norm(name: str) -> str:
    return name.lstrip("%").replace(".", "_").replace("-", "_")


def profile_classes(hlo_text: str, profile_csv: str, source: str,
                    measured_s: float | None = None,
                    busy_s: float | None = None) -> dict[str, ClassTime]:
    """Per-class launches and GPU time of a profile (``measured_s``: the step's wall time, whose
    remainder over the kernels is `IDLE`; ``busy_s``: the GPU time of all its kernels, when the
    profile lists only some: the rest is `UNPROFILED`)."""
    kernels = HloKernels(hlo_text, source)
    reader = csv.DictReader(io.StringIO(profile_csv))
    wanted = ("hlo_op", "kernel", "launches_per_step", "us_per_step")
    if any(c not in (reader.fieldnames or ()) for c in wanted):
        raise HespasError(f"{source}: a kernel profile needs the columns {','.join(wanted)}")
    totals: dict[str, ClassTime] = defaultdict(ClassTime)
    for line, row in enumerate(reader, start=2):
        try:
            launches, seconds = float(row["launches_per_step"]), float(row["us_per_step"]) * 1e-6
        except ValueError:
            raise HespasError(f"{source}: line {line}: launches and time must be numbers") from None
        totals[kernels.kernel_class(row["hlo_op"], row["kernel"])] += ClassTime(launches, seconds)
    listed = sum(t.seconds for t in totals.values())
    if busy_s is not None and busy_s - listed > 1e-7:
        totals[UNPROFILED] = ClassTime(0.0, busy_s - listed)
    if measured_s is not None:
        busy = listed if busy_s is None else max(busy_s, listed)
        totals[IDLE] = ClassTime(0.0, max(measured_s - busy, 0.0))
    return dict(totals)


def model_classes(workload: Path, node: str, params: Mapping | None = None) -> dict[str, ClassTime]:
    """Per-class launches and time of the fused roofline's plan of a single-device ``workload``
    on node preset ``node`` (``params``: extra hardware params)."""
    hardware = node_hardware(node, PLANNER, params)
    module = load_module(workload)
    graph = split(module, "linear_split", block_lim=NO_LIMIT)
    estimator = get_estimator(PLANNER, hardware)
    assert isinstance(estimator, FusedRoofline), "PLANNER plans kernels"
    estimator.prepare(graph)
    totals: dict[str, ClassTime] = defaultdict(ClassTime)
    dispatch = estimator.dispatch(entry_buffers(module))
    if dispatch is not None:
        totals[IDLE] = ClassTime(0.0, dispatch.time_s)
    per_block: list[list] = []
    for block in graph.blocks:
        if block.collective:
            per_block.append([])
            continue
        kernels = (per_block[block.repeats] if block.repeats >= 0
                   else estimator.block_kernels(block))
        per_block.append(kernels)
        for kernel in kernels:
            seconds = estimator.kernel_cost(kernel)[0] * kernel.count
            idle = kernel.gap_s * kernel.count  # the GPU's idle time around it (`launch_gaps`)
            totals[kernel_class(kernel)] += ClassTime(kernel.count, seconds - idle)
            if idle:
                totals[IDLE] += ClassTime(0.0, idle)
    return dict(totals)


#: Report order: the kernel classes, then the kernels a profile leaves out, then the idle time.
ORDER: tuple[str, ...] = (*CLASSES, UNPROFILED, IDLE)


@dataclass(frozen=True)
class KernelComparison:
    """One measured program's time per kernel class, measured and estimated.

    Attributes:
        row: the accuracy row's name.
        measured: per class, from the profile (`IDLE`: the step's time outside kernels).
        estimated: per class, from the fused roofline's plan.
    """

    row: str
    measured: Mapping[str, ClassTime]
    estimated: Mapping[str, ClassTime]

    def as_json(self) -> dict:
        return {cls: {"measured_s": self.measured.get(cls, ClassTime()).seconds,
                      "estimated_s": self.estimated.get(cls, ClassTime()).seconds,
                      "measured_launches": self.measured.get(cls, ClassTime()).launches,
                      "estimated_launches": self.estimated.get(cls, ClassTime()).launches}
                for cls in ORDER if cls in self.measured or cls in self.estimated}


def profile_files(workload: str) -> tuple[Path, Path] | None:
    """(optimized HLO, kernel profile) shipped beside workload ``workload`` (a name under the
    shipped ``workloads`` folder, e.g. ``gpu_h100/resnet18_1dev``), or None."""
    hlo = shipped("workloads", f"{workload}.xla_opt.txt.gz")
    profile = shipped("workloads", f"{workload}.kernels.csv")
    return (hlo, profile) if hlo.is_file() and profile.is_file() else None


def device_busy_s(workload: str) -> float | None:
    """The GPU time of all kernels of one step of shipped workload ``workload``
    (``device_busy_ms_per_step`` of the ``measured.csv`` beside it), or None where not given."""
    folder, _, case = workload.rpartition("/")
    table = shipped("workloads", folder, "measured.csv") if folder else None
    if table is None or not table.is_file():
        return None
    for row in csv.DictReader(io.StringIO(table.read_text())):
        if row.get("case") == case and (row.get("device_busy_ms_per_step") or "").strip():
            try:
                return float(row["device_busy_ms_per_step"]) * 1e-3
            except ValueError:
                raise HespasError(f"{table}: device_busy_ms_per_step of {case} must be a "
                                  "number") from None
    return None


def compare(row: str, workload: str, workload_file: Path, node: str, measured_s: float,
            params: Mapping | None = None) -> KernelComparison | None:
    """The per-class comparison of one row (None when its workload ships no profile)."""
    files = profile_files(workload)
    if files is None:
        return None
    hlo, profile = files
    measured = profile_classes(gzip.decompress(hlo.read_bytes()).decode(), profile.read_text(),
                               str(profile), measured_s, device_busy_s(workload))
    return KernelComparison(row, measured, model_classes(workload_file, node, params))
