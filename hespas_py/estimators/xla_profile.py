"""The ``xla_profile`` estimator: compile each block with the local XLA backend and time it.

The block is cut out as a standalone module (`mlir.extract`), compiled by the default jax
backend's client (XLA:GPU on a GPU machine: the published tool's XLA profiling path, without its
xla-translate / hlo_runner_main binaries; XLA:CPU elsewhere, so the path is always exercised) and
run on buffers of its input shapes: small random values for floats; for an integer that a
gather or scatter of the block (or of a function it calls) indexes with, through reshapes,
converts, broadcasts, slices and concatenations, values drawn uniformly over the dimension it
indexes (`index_bounds`: token ids spread over the vocabulary, as in a real step; all-zero ids
make an embedding-gradient scatter update one row with every atomic, measured 6-50 ms on an
H100 where spread ids take microseconds); zeros for the other integers and booleans (loop
counters and dynamic-slice starts at their first value). After ``warmup`` runs, ``repeats``
timed runs are taken (host wall clock around execute + wait for the results); runs further than
3 median absolute deviations from the median are dropped and the median of the rest is the
block's time. The time is that of the machine running hespas_py, not of the preset's hardware:
`measured_on` names that device (gen's summary and ``module_stats.json`` carry it, and cache
keys hold it). A node preset whose chip is not that device (`same_chip`: on a CPU machine, every
preset) is refused before anything is timed unless the ``allow_other_device`` param
(``--allow-other-device``) says to take this machine's times; a config file of one's own is
taken as describing the machine it runs on.

Each such run holds one call's host dispatch (tens of microseconds on a GPU), which a step pays
once, not once per block. With ``back_to_back`` the ``repeats`` runs are issued without waiting
(a GPU queues them, as a step's kernels follow each other) and waited on once, three times: the
block's time is the least of the three totals over ``repeats``, and the step's one dispatch is
costed by the preset's ``dispatch_*`` params like the rooflines do.

Params read from ``Hardware.params`` (declared with their defaults in `hespas_py.hardware.params`):
``warmup``, ``repeats``, ``back_to_back``, ``allow_other_device``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Mapping, Sequence

import numpy as np

from hespas_py.errors import HespasError, first_line
from hespas_py.estimators.base import Estimate, OpCost, register
from hespas_py.estimators.xla_cost import XlaBlockEstimator
from hespas_py.hardware import preset_names
from hespas_py.jaxcompat import compile_on_one_device, local_client
from hespas_py.kernels import op_work
from hespas_py.mlir.bindings import ir
from hespas_py.mlir.extract import block_inputs
from hespas_py.mlir.ops import Op
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


#: Ops an index passes through, with the operands it comes from (None: all of them): each
#: result element is an operand element (``select`` and ``add`` where ``jnp.take`` wraps
#: negative indices, ``clamp`` where it clips them).
_INDEX_CARRIERS: Mapping[str, slice | None] = {
    "convert": None, "reshape": None, "broadcast_in_dim": None, "transpose": None,
    "slice": None, "concatenate": None, "bitcast": None, "add": None,
    "dynamic_slice": slice(0, 1), "select": slice(1, 3), "clamp": slice(1, 2)}


def index_bounds(ops: Sequence[Op]) -> dict[int, int]:
    """Value id -> the size of the operand dimension a gather or scatter among ``ops`` (or in the
    bodies of the functions they call) indexes with it: the least, where it indexes several."""
    sources: dict[int, tuple[int, ...]] = {}  # value -> the values it carries indices from
    bounds: dict[int, int] = {}

    def mark(value: int, size: int) -> None:
        pending = [value]
        while pending:
            v = pending.pop()
            if bounds.get(v, size + 1) > size:
                bounds[v] = size
                pending.extend(sources.get(v, ()))

    def visit(body: Sequence[Op]) -> None:
        for op in body:
            name = op.short_name
            if name in _INDEX_CARRIERS:
                part = _INDEX_CARRIERS[name]
                sources.update(dict.fromkeys(op.results,
                                             op.operands if part is None else op.operands[part]))
            elif name == "call" and op.regions:
                callee = op.regions[0]
                sources.update((arg, (operand,))
                               for arg, operand in zip(callee.args, op.operands, strict=True))
                visit(callee.ops)
                if callee.ops and callee.ops[-1].short_name == "return":
                    sources.update((result, (returned,)) for result, returned
                                   in zip(op.results, callee.ops[-1].operands, strict=True))
            elif name in ("gather", "scatter"):
                numbers = op.attrs.get("dimension_numbers" if name == "gather"
                                       else "scatter_dimension_numbers") or {}
                dims = numbers.get("start_index_map" if name == "gather"
                                   else "scattered_dims_to_operand_dims") or ()
                inputs = 1 if name == "gather" else (len(op.operands) - 1) // 2
                if dims:
                    mark(op.operands[inputs], min(op.operand_types[0].shape[d] for d in dims))

    visit(ops)
    return bounds


def same_chip(preset: str, device_kind: str) -> bool:
    """Whether a node preset (``H100_80GB``) names the chip of a device JAX describes as
    ``device_kind`` (``NVIDIA H100 80GB HBM3``): the preset's first word (``H100``, ``MI300X``,
    ``TPUv5p``) is in the device's name, letters and digits alone, case aside."""
    def letters(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch.isalnum())

    return letters(preset.split("_")[0]) in letters(device_kind)


def describe_device(device) -> str:
    """How a JAX device is named to the user: its kind, or for a CPU its model (XLA:CPU)."""
    if device.platform != "cpu":
        return str(device.device_kind)
    model = next((line.partition(":")[2].strip() for line in _cpuinfo()
                  if line.startswith("model name")), "")
    return f"CPU{f': {model}' if model else ''} (XLA:CPU)"


def _cpuinfo() -> list[str]:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            return info.read(65536).splitlines()
    except OSError:
        return []


def _buffer(vtype: ir.Type, rng: np.random.Generator, bound: int | None) -> np.ndarray:
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
    if bound and dtype.kind in "iu":
        return rng.integers(0, bound, shape).astype(dtype)
    return np.zeros(shape, dtype)


@register
class XlaProfile(XlaBlockEstimator):
    """Measured time of the block compiled by the local XLA backend."""

    name = "xla_profile"
    method_version = 2  # 2: gather and scatter indices spread over what they index (was zeros)

    def __init__(self, hardware) -> None:
        super().__init__(hardware)
        self.warmup = hardware.params.warmup
        self.repeats = hardware.params.repeats
        self.back_to_back = hardware.params.back_to_back
        self._device: str | None = None

    @property
    def measured_on(self) -> str:
        """The local device the blocks are timed on (its backend starts on first use); a node
        preset of another chip is a `HespasError` here unless ``allow_other_device``."""
        if self._device is None:
            device = local_client().devices()[0]
            name = self.hardware.name
            if (name in preset_names() and not same_chip(name, str(device.device_kind))
                    and not self.hardware.params.allow_other_device):
                raise HespasError(
                    f"{name}: xla_profile times each block on this machine "
                    f"({describe_device(device)}), not on a {name}: run it on a {name}, or pass "
                    "--allow-other-device (--param allow_other_device=true) to take this "
                    "machine's times")
            self._device = describe_device(device)
        return self._device

    def prepare(self, graph) -> None:
        self.measured_on  # noqa: B018 - refuse another chip before any block is timed
        super().prepare(graph)

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}@{self.measured_on}"

    def dispatch(self, buffers: int) -> OpCost | None:
        """The preset's dispatch row with ``back_to_back``; else None: each block's measured time
        already holds a call's dispatch on this host."""
        return super().dispatch(buffers) if self.back_to_back else None

    def measure(self, block: Block) -> float:
        """Seconds one run of the block takes on the local backend (robust median)."""
        self.measured_on  # noqa: B018 - refuse another chip before any block is timed
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

            bounds = index_bounds(block.ops)
            inputs = [jax.device_put(_buffer(t, rng, bounds.get(v)), client.devices()[0])
                      for t, v in zip(arg_types, block_inputs(block.ops), strict=True)]
            for _ in range(self.warmup):
                _wait(executable.execute(inputs))
            if self.back_to_back:
                return min(_timed(executable, inputs, self.repeats) for _ in range(3)) \
                    / self.repeats
            return robust_median([_timed(executable, inputs, 1) for _ in range(self.repeats)])
        except HespasError:
            raise
        except Exception as exc:  # XLA raises its own status types
            raise HespasError(f"XLA could not compile or run the block: {first_line(exc)}") \
                from None

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


def _wait(outputs) -> None:
    for out in outputs:
        out.block_until_ready()


def _timed(executable, inputs, runs: int) -> float:
    """Seconds for ``runs`` runs issued back to back and waited on at the end."""
    start = time.perf_counter()
    outputs = [executable.execute(inputs) for _ in range(runs)]
    for one in outputs:
        _wait(one)
    return time.perf_counter() - start


def _dtype(block: Block) -> str:
    for op in block.ops:
        for t in op.result_types:
            return t.dtype
    return ""

