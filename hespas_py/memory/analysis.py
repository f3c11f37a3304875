"""Per-device peak memory of a module's program, as XLA's buffer assignment counts it.

Why and how: docs/memory.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hespas_py.errors import HespasError
from hespas_py.hardware import Params
from hespas_py.kernels import GpuRules
from hespas_py.memory.backend import BACKENDS, Backend
from hespas_py.memory.intervals import TOP_BUFFERS, Buffer
from hespas_py.memory.liveness import scope_peak
from hespas_py.mlir.aliases import ANY_OUTPUT
from hespas_py.mlir.ops import Module, TensorType
from hespas_py.mlir.reader import load_module
from hespas_py.split.combine import DEFAULT_COMBINE, Thresholds

#: Bytes per element of a tuple's pointer table (64-bit device pointers).
TUPLE_POINTER_BYTES = 8


@dataclass(frozen=True)
class MemoryReport:
    """Peak device memory of one device's program.

    Attributes:
        arguments_bytes: the entry arguments.
        outputs_bytes: the results (each returned position its own buffer), with the pointer
            table of a result tuple.
        alias_bytes: arguments whose buffers are donated to outputs (counted once).
        temporaries_bytes: the most bytes of temporaries live at once.
        top: the largest buffers live at the peak (arguments, outputs, temporaries), largest
            first.
    """

    arguments_bytes: int
    outputs_bytes: int
    alias_bytes: int
    temporaries_bytes: int
    top: tuple[Buffer, ...] = ()

    @property
    def peak_bytes(self) -> int:
        """Arguments + outputs - aliased + temporaries."""
        return (self.arguments_bytes + self.outputs_bytes - self.alias_bytes
                + self.temporaries_bytes)

    def as_json(self, capacity_bytes: int | None = None) -> dict[str, Any]:
        """The ``memory`` entry of ``module_stats.json`` and ``hespas gen --json``: with a
        capacity, ``fits`` says whether the peak is within it (None without one)."""
        return {
            "peak_bytes": self.peak_bytes,
            "arguments_bytes": self.arguments_bytes,
            "outputs_bytes": self.outputs_bytes,
            "alias_bytes": self.alias_bytes,
            "temporaries_bytes": self.temporaries_bytes,
            "capacity_bytes": capacity_bytes,
            "fits": None if capacity_bytes is None else self.peak_bytes <= capacity_bytes,
            "top": [b.as_json() for b in self.top],
        }


def _donated_outputs(arg_types: tuple[TensorType, ...], result_types: tuple[TensorType, ...],
                     aliases: Mapping[int, int]) -> dict[int, int]:
    """Output -> the donated argument whose buffer it takes over (named, else one of its type)."""
    claimed: dict[int, int] = {}
    for arg, output in sorted(aliases.items(), key=lambda item: item[1] == ANY_OUTPUT):
        if arg >= len(arg_types):
            continue
        taker = output if output != ANY_OUTPUT else next(
            (k for k, t in enumerate(result_types) if k not in claimed and t == arg_types[arg]),
            None)
        if taker is None or taker in claimed or taker >= len(result_types):
            continue
        claimed[taker] = arg
    return claimed


def _backend(name: str | Backend) -> Backend:
    if isinstance(name, Backend):
        return name
    if name not in BACKENDS:
        raise HespasError(f"memory backend {name!r}: not one of {', '.join(BACKENDS)}")
    return BACKENDS[name]


def memory_rules(params: Params) -> GpuRules:
    """The GPU rewrites (`GpuRules`) a hardware's params switch on that the memory analysis
    plans with: all but ``duplication_cone``. Those that change which values XLA:GPU's kernels
    write (Triton normalizations recomputed in their readers, GEMMs reading operands as stored,
    cheap f32 math recomputed) bring the transformer steps' peaks to XLA's (GPT-2 +44.6% ->
    +6.1% on the H200); duplicating producers with their operand cone keeps ResNet-50's forward
    residual sums and BatchNorm outputs for the backward pass, which XLA's buffer assignment does
    not hold (+2.8% -> +23%: `configs/nodes/README.md`, ``duplication_cone``)."""
    return dataclasses.replace(GpuRules.of(params), duplication_cone=False)


def analyze(module: Module, fused_attention: bool = False, combine: Thresholds = DEFAULT_COMBINE,
            backend: str | Backend = "gpu", rules: GpuRules = GpuRules()) -> MemoryReport:
    """The per-device memory of ``module``'s entry function (see the module docstring);
    ``fused_attention`` plans attention as flash kernels, as the estimator would; ``combine``:
    the thresholds of XLA's collective combiners (default: XLA's own); ``backend``: whose
    compiler to follow, ``gpu`` (XLA:GPU), ``cpu`` (the installed jaxlib's XLA:CPU,
    `backend.XLA_CPU`) or a `Backend`; another name raises `HespasError`; ``rules``: XLA:GPU's
    rewrites to plan with (`memory_rules` of a hardware's params; none by default)."""
    entry = module.functions[module.entry]
    returned = entry.ops[-1].operands if entry.ops else ()
    donated = _donated_outputs(entry.arg_types, entry.result_types, module.aliases)
    # An output in a donated argument's allocation lends it to no temporary: XLA assigns nothing
    # else to an entry parameter's allocation ("allocation holds parameter", MaybeAssignBuffer in
    # xla/service/buffer_assignment.cc).
    temporaries = scope_peak(entry.ops, entry.args, entry.arg_types, returned, fused_attention,
                             output_slots=[v for k, v in enumerate(returned) if k not in donated],
                             combine=combine, backend=_backend(backend), rules=rules, entry=True)
    arguments = [Buffer("parameter", t.shape, t.dtype, t.nbytes, "argument")
                 for t in entry.arg_types]
    producers = {r: op.name for op in entry.ops for r in op.results}
    outputs = [Buffer(producers.get(v, "parameter"), t.shape, t.dtype, t.nbytes, "output")
               for v, t in zip(returned, entry.result_types, strict=True)]
    top = sorted([*arguments, *outputs, *temporaries.live], key=lambda b: -b.bytes)
    return MemoryReport(
        arguments_bytes=sum(b.bytes for b in arguments),
        outputs_bytes=sum(b.bytes for b in outputs)
        + (TUPLE_POINTER_BYTES * len(outputs) if len(outputs) > 1 else 0),
        alias_bytes=sum(min(entry.arg_types[arg].nbytes, entry.result_types[out].nbytes)
                        for out, arg in donated.items()),
        temporaries_bytes=temporaries.bytes, top=tuple(top[:TOP_BUFFERS]))


def peak_of_file(path: str | Path, module: int | None = None,
                 fused_attention: bool = False, backend: str | Backend = "gpu",
                 rules: GpuRules = GpuRules()) -> MemoryReport:
    """`analyze` of the module in ``path`` (module ``module``, from 1, of a file of several);
    ``backend`` and ``rules`` as `analyze` takes them; bad input raises `HespasError` as
    `load_module` does. For callers that hold no `Module` (`bench/memory.py`, scripts)."""
    return analyze(load_module(path, module=module), fused_attention, backend=backend,
                   rules=rules)
