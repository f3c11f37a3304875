"""The `Work` record every per-op cost rule returns, and the arithmetic that builds and combines it.

`hespas_py.kernels.costs` states the counting conventions and picks a rule per op; the rules
build their `Work` with `kernel_work` (one kernel: operands read, results written once),
`combine` (sums over ops, loop trips) and `costliest` (alternative branches), and an op they
cannot count gets `fallback`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hespas_py.mlir.ops import DTYPE_BYTES, Op

TENSOR = "tensor"
VECTOR = "vector"


@dataclass(frozen=True, slots=True)
class Work:
    """What one op (or region) costs, independent of any hardware.

    Attributes:
        flops: ``(unit, dtype, flops)`` shares: the unit (``"tensor"`` or ``"vector"``) and the
            element type that set the rate, once per (unit, dtype) pair.
        bytes: bytes moved to and from device memory.
        family: the op's cost family (see `FAMILIES`).
        fallback: True when the op itself is unknown and got the memory-bound fallback.
        notes: why the count is approximate (unknown trip count, unknown nested op, ...), once each.
    """

    flops: tuple[tuple[str, str, float], ...]
    bytes: float
    family: str
    fallback: bool = False
    notes: tuple[str, ...] = ()

    @property
    def total_flops(self) -> float:
        """All FLOPs, whatever their unit."""
        return sum(share[2] for share in self.flops)


#: Cost families `costs.op_family` returns, with what they hold.
FAMILIES: Mapping[str, str] = {
    "free": "views and bookkeeping (reshape, bitcast, constant, tuple, return, ...): no work",
    "elementwise": "1 FLOP per result element on the vector unit",
    "reduction": "reduce, reduce_window, select_and_scatter, sort, map: computation x applications",
    "tensor": "dot, dot_general, convolution: 2 FLOPs per multiply-add on the tensor unit",
    "memory": "data movement (broadcast, transpose, pad, slice, gather, scatter, ...): bytes only",
    "linalg": "cholesky, triangular_solve, fft and solver custom calls",
    "random": "rng, rng_bit_generator and RNG custom calls: 1 FLOP per generated element",
    "control": "while, case, if, call, fusion, manual_computation: the cost of their regions",
    "collective": "a collective inside a compute block: its local memory traffic only",
    "unknown": "memory-bound fallback: operand + result bytes, no FLOPs; reported",
}


def io_bytes(op: Op) -> float:
    """Operand plus result bytes: what one kernel running ``op`` alone moves."""
    return float(sum(t.nbytes for t in op.operand_types) + sum(t.nbytes for t in op.result_types))


def _dtype(op: Op) -> str:
    """The element type that names an op's: its first operand's, else its first result's."""
    for t in (*op.operand_types, *op.result_types):
        if t.elements:
            return t.elements[0].dtype
        if t.is_array:
            return t.dtype
    return "f32"


def widest_input_dtype(op: Op, count: int = 2) -> str:
    """Element type of the widest of the first ``count`` operands (ties: the first)."""
    best = _dtype(op)
    for t in op.operand_types[:count]:
        if DTYPE_BYTES.get(t.dtype, 0) > DTYPE_BYTES.get(best, 0):
            best = t.dtype
    return best


def kernel_work(op: Op, family: str, flops: float = 0.0, nbytes: float | None = None,
                unit: str = VECTOR, dtype: str | None = None, notes: tuple[str, ...] = ()) -> Work:
    """``op`` as one kernel: ``flops`` on ``unit`` at ``dtype`` (the op's own by default), and
    ``nbytes`` moved (its operand and result bytes by default)."""
    shares = ((unit, dtype or _dtype(op), float(flops)),) if flops else ()
    return Work(shares, io_bytes(op) if nbytes is None else float(nbytes), family, notes=notes)


def combine(works: Iterable[Work], family: str, nbytes: float | None = None,
            scale: float = 1.0, notes: tuple[str, ...] = ()) -> Work:
    """Sum of ``works`` times ``scale``; bytes replaced by ``nbytes`` when given."""
    shares: dict[tuple[str, str], float] = {}
    total_bytes = 0.0
    all_notes: dict[str, None] = dict.fromkeys(notes)
    for w in works:
        for unit, dtype, flops in w.flops:
            shares[(unit, dtype)] = shares.get((unit, dtype), 0.0) + flops
        total_bytes += w.bytes
        all_notes.update(dict.fromkeys(w.notes))
    return Work(
        tuple((u, d, f * scale) for (u, d), f in shares.items() if f),
        (total_bytes * scale) if nbytes is None else float(nbytes), family,
        notes=tuple(all_notes))


def costliest(works: Sequence[Work]) -> Work:
    """Bytes and each FLOP share maximised separately over alternative branches."""
    shares: dict[tuple[str, str], float] = {}
    notes: dict[str, None] = {}
    for w in works:
        for unit, dtype, flops in w.flops:
            shares[(unit, dtype)] = max(shares.get((unit, dtype), 0.0), flops)
        notes.update(dict.fromkeys(w.notes))
    return Work(tuple((u, d, f) for (u, d), f in shares.items() if f),
                max((w.bytes for w in works), default=0.0), "control", notes=tuple(notes))


def fallback(op: Op, reason: str | None = None) -> Work:
    """The memory-bound fallback: operand + result bytes, no FLOPs, flagged (with ``reason``)."""
    notes = (reason,) if reason else ()
    return Work((), io_bytes(op), "unknown", fallback=True, notes=notes)


def attr_ints(op: Op, key: str, rank: int, default: int) -> tuple[int, ...]:
    """Integer attribute ``key`` of ``op`` (one per spatial dimension), ``default`` where absent."""
    value = op.attrs.get(key)
    if value is None:
        return (default,) * rank
    return tuple(int(v) for v in value)
