"""The roofline estimator: each op is bound by its compute or by its memory traffic.

Per op, ``time = max(sum(flops_i / rate_i), bytes / memory_bandwidth)`` over its FLOP shares
(see `work.Work`); a block's time is the sum over its ops (each op is its own kernel; an
``mhlo.fusion`` is one). Rates:

- tensor-unit work (dot, convolution) runs at ``per_dtype_flops[<input element type>]``; an f32
  contraction whose precision config allows reduced precision (`linalg_costs.REDUCIBLE_F32`:
  ``DEFAULT``/``HIGH``, as JAX emits by default) runs at the ``tf32`` rate when the
  ``f32_matmul_as_tf32`` param is true (XLA's CUDA GEMMs on Ampere and later), and is then
  reported as ``tf32``; otherwise, and at ``HIGHEST``, at the ``f32`` rate;
- vector-unit work (elementwise, reductions, ...) runs at ``vector_flops``;
- a dtype absent from ``per_dtype_flops`` runs at ``peak_flops`` and the op carries a note saying
  so (or, with the ``error_on_unknown_type`` param, the run stops with an error).

``Estimate.peak_flops`` is the rate the time was actually computed against
(``flops / compute time``), so ``flops / (time_s * peak_flops) <= 1`` always holds.

Params read from ``Hardware.params``: ``f32_matmul_as_tf32``, ``error_on_unknown_type`` and the
``dispatch_*`` params (`hespas_py.estimators.dispatch`).
"""

from __future__ import annotations

from typing import Any

from hespas_py.errors import HespasError
from hespas_py.estimators.base import Estimate, Estimator, OpCost, register
from hespas_py.estimators.dispatch import dispatch_cost
from hespas_py.fast_init import fast_constructor
from hespas_py.hardware import Hardware
from hespas_py.kernels import REDUCIBLE_F32, TENSOR, Work, op_work
from hespas_py.mlir.ops import Op
from hespas_py.split.blocks import Block

#: `Estimate`'s constructor, positional (time_s, flops, bytes, per_op, peak_flops), made cheap.
_new_estimate = fast_constructor(Estimate)


def rate_dtype(dtype: str) -> str:
    """The element type whose peak applies: a complex type runs at its component's rate."""
    return dtype[len("complex<"):-1] if dtype.startswith("complex<") else dtype


@register
class Roofline(Estimator):
    """Sum over ops of max(compute time, memory time)."""

    name = "roofline"

    def __init__(self, hardware: Hardware) -> None:
        super().__init__(hardware)
        self._tf32 = hardware.params.f32_matmul_as_tf32
        self._strict = hardware.params.error_on_unknown_type
        self._vector_rate = hardware.vector_flops or hardware.peak_flops
        # `_signature` of an op -> (the op, its cost row, its compute time). An op's cost depends
        # on nothing else; the reader shares one attrs mapping between ops with equal
        # attributes, and holding the op here keeps the ids in its signature from being reused.
        self._memo: dict[tuple, tuple[Op, OpCost, float]] = {}
        # The `_signature`s of a block's ops -> its estimate: a step repeats few kinds of blocks
        # (ResNet-50: 728 kinds among 4,596 blocks). Each signature is also in ``_memo``, which
        # keeps its ids alive.
        self._blocks: dict[tuple, Estimate] = {}

    def dispatch(self, buffers: int) -> OpCost | None:
        return dispatch_cost(self.hardware.params, buffers)

    def rate(self, unit: str, dtype: str) -> tuple[float, str, str | None]:
        """(FLOP/s, dtype reported, note) for work of ``dtype`` on ``unit``."""
        if unit != TENSOR:
            return self._vector_rate, dtype, None
        table = self.hardware.per_dtype_flops
        key = rate_dtype(dtype)
        if key == REDUCIBLE_F32:
            key = "tf32" if self._tf32 and "tf32" in table else "f32"
        if key in table:
            return table[key], key, None
        if self._strict:
            raise HespasError(f"{self.hardware.name}: no peak for dtype {key!r} in "
                              "per_datatype_flops (error_on_unknown_type is set)")
        return (self.hardware.peak_flops, key,
                f"no peak for dtype {key} in per_datatype_flops: used peak_flops")

    def cost(self, op: Op, work: Work) -> tuple[OpCost, float]:
        """The op's cost row and its compute-bound time (seconds)."""
        compute_s = 0.0
        notes = dict.fromkeys(work.notes)
        dtype, top_flops = _result_dtype(op), 0.0
        for unit, share_dtype, flops in work.flops:
            rate, shown, note = self.rate(unit, share_dtype)
            compute_s += flops / rate
            if note:
                notes[note] = None
            if flops > top_flops:
                dtype, top_flops = shown, flops
        time_s = max(compute_s, work.bytes / self.hardware.memory_bandwidth)
        return (OpCost(op.name, dtype, work.total_flops, work.bytes, time_s, work.fallback,
                       tuple(notes)), compute_s)

    def estimate(self, block: Block) -> Estimate:
        keys = tuple(map(_signature, block.ops))
        if None in keys:
            return self._estimate(block.ops, keys)
        found = self._blocks.get(keys)
        if found is None:
            found = self._blocks[keys] = self._estimate(block.ops, keys)
        return found

    def _estimate(self, ops: tuple[Op, ...], keys: tuple[tuple | None, ...]) -> Estimate:
        """The estimate of a block of ``ops`` whose `_signature`s are ``keys``."""
        rows: list[OpCost] = []
        compute_s = time_s = flops = nbytes = 0.0
        memo = self._memo
        for op, key in zip(ops, keys, strict=True):
            if key is None:
                row, op_compute_s = self.cost(op, op_work(op))
            else:
                known = memo.get(key)
                if known is None:
                    known = memo[key] = (op, *self.cost(op, op_work(op)))
                _, row, op_compute_s = known
            rows.append(row)
            compute_s += op_compute_s
            time_s += row.time_s
            flops += row.flops
            nbytes += row.bytes
        peak = flops / compute_s if compute_s > 0 else self._vector_rate
        return _new_estimate(time_s, flops, nbytes, tuple(rows), peak)


def _signature(op: Op) -> tuple | None:
    """What an op's cost depends on: its name, types and attrs, and those of the ops in its
    regions; None when a region holds ops with regions of their own (not worth it).

    Types and attrs count by identity (the reader hands out one object per distinct type and
    attribute set; the memo keeps the op, hence them, alive), which keeps hashing in C."""
    key = (op.name, id(op.attrs), *map(id, op.operand_types), None, *map(id, op.result_types))
    if not op.regions:
        return key
    inner: list[Any] = []
    for region in op.regions:
        for nested in region.ops:
            if nested.regions:
                return None
            inner += (nested.name, id(nested.attrs), *map(id, nested.operand_types), None,
                      *map(id, nested.result_types), None)
        inner.append(None)  # region boundary
    return (*key, *inner)


def _result_dtype(op: Op) -> str:
    for t in op.result_types:
        if t.is_array:
            return t.dtype
    return op.result_types[0].dtype if op.result_types else ""
