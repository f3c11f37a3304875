"""The ``xla_profile`` estimator: compile each block with the local XLA backend and time it.

The block is cut out as a standalone module (`mlir.extract`), compiled by the default jax
backend's client (XLA:GPU on a GPU machine: the published tool's XLA profiling path, without its
xla-translate / hlo_runner_main binaries; XLA:CPU elsewhere, so the path is always exercised) and
run on buffers of its input shapes (zeros for integers and booleans, which keeps gathers and
dynamic slices in bounds; small random values for floats). After ``warmup`` runs, ``repeats``
timed runs are taken (host wall clock around execute + wait for the results); runs further than
3 median absolute deviations from the median are dropped and the median of the rest is the
block's time. The time is that of the machine running hespas_py, not of the preset's hardware.

Params read from ``Hardware.params``: ``warmup`` (int, default 2), ``repeats`` (int, default 10).
"""

from __future__ import annotations

import statistics
import time
from typing import ClassVar, Mapping

import numpy as np

from hespas_py.checks import Number
from hespas_py.errors import HespasError
from hespas_py.estimate.base import Estimate, OpCost, register
from hespas_py.estimate.costs import op_work
from hespas_py.estimate.xla_cost import XlaBlockEstimator, _first_line
from hespas_py.jaxcompat import compile_on_one_device, local_client
from hespas_py.mlir.bindings import ir
from hespas_py.split.blocks import Block

#: numpy element types of MLIR element types (ml_dtypes, a jax dependency, for the narrow floats).
_NUMPY_DTYPES: Mapping[str, str] = {
    "f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
    "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2", "i1": "bool",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
}


def robust_median(samples: list[float]) -> float:
    """Median of ``samples`` after dropping those beyond 3 median absolute deviations."""
    center = statistics.median(samples)
    spread = statistics.median(abs(s - center) for s in samples)
    kept = [s for s in samples if abs(s - center) <= 3 * spread] if spread > 0 else samples
    return statistics.median(kept)


def _buffer(vtype: ir.Type, rng: np.random.Generator) -> np.ndarray:
    import ml_dtypes  # noqa: F401  (registers bfloat16 and the float8 types with numpy)

    if not isinstance(vtype, ir.RankedTensorType):
        raise HespasError(f"xla_profile: block input of type {vtype} cannot be fed")
    name = str(vtype.element_type)
    try:
        dtype = np.dtype(getattr(ml_dtypes, _NUMPY_DTYPES[name], None) or _NUMPY_DTYPES[name])
    except KeyError:
        raise HespasError(f"xla_profile: no buffer for element type {name}") from None
    shape = tuple(vtype.shape)
    if dtype.kind == "f" or dtype.kind == "V":
        return rng.uniform(-1.0, 1.0, shape).astype(dtype)
    return np.zeros(shape, dtype)


@register
class XlaProfile(XlaBlockEstimator):
    """Measured time of the block compiled by the local XLA backend."""

    name = "xla_profile"
    param_types: ClassVar[Mapping[str, type]] = {
        **XlaBlockEstimator.param_types, "warmup": Number(0, integer=True),
        "repeats": Number(1, integer=True)}

    def __init__(self, hardware) -> None:
        super().__init__(hardware)
        self.warmup = max(int(hardware.params.get("warmup", 2)), 0)
        self.repeats = max(int(hardware.params.get("repeats", 10)), 1)

    def dispatch(self, buffers: int) -> None:
        """None: each block's measured time already holds a call's dispatch on this host."""
        return None

    def measure(self, block: Block) -> float:
        """Seconds one run of the block takes on the local backend (robust median)."""
        module = self.block_module(block)
        main = next(op for op in module.body.operations
                    if ir.StringAttr(op.attributes["sym_name"]).value == "main")
        arg_types = [a.type for a in main.regions[0].blocks[0].arguments]
        text = str(module)
        rng = np.random.default_rng(0)
        client = local_client()
        try:
            executable = compile_on_one_device(client, text)
            import jax

            inputs = [jax.device_put(_buffer(t, rng), client.devices()[0]) for t in arg_types]
            samples = []
            for i in range(self.warmup + self.repeats):
                start = time.perf_counter()
                for out in executable.execute(inputs):
                    out.block_until_ready()
                if i >= self.warmup:
                    samples.append(time.perf_counter() - start)
        except HespasError:
            raise
        except Exception as exc:  # XLA raises its own status types
            raise HespasError(f"XLA could not compile or run the block: {_first_line(exc)}") \
                from None
        return robust_median(samples)

    def estimate_with_xla(self, block: Block) -> Estimate:
        time_s = self.measure(block)
        works = [op_work(op) for op in block.ops]
        flops = sum(w.total_flops for w in works)
        nbytes = sum(w.bytes for w in works)
        row = OpCost(block.label, _dtype(block), flops, nbytes, time_s)
        peak = max([self.hardware.peak_flops, *self.hardware.per_dtype_flops.values()])
        # A measured time says nothing of the preset's peak: utilisation is reported against the
        # largest peak, capped so it can never exceed 1.
        return Estimate(time_s, flops, nbytes, (row,), peak_flops=max(peak, flops / time_s))


def _dtype(block: Block) -> str:
    for op in block.ops:
        for t in op.result_types:
            return t.dtype
    return ""

