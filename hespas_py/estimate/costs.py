"""Hardware-independent work of StableHLO / MHLO / CHLO ops: FLOPs, bytes and the unit they run on.

Every estimator that needs op counts (roofline, fused_roofline, ...) reads them from here, so one
place decides how an op is counted. `op_work` never fails: an op it does not know gets the
memory-bound fallback (its operands and results cross memory once, no FLOPs) and is flagged.

Conventions (each is one decision, applied everywhere):

- FLOPs. Elementwise ops count 1 per result element, whatever the op: a transcendental
  (``exponential``, ``log``, ``tanh``, ``rsqrt``, ``logistic``, ``erf``, ...) counts 1 too, as
  XLA's cost analysis counts them, and so do ``compare``, ``select``, ``convert`` and ``clamp``.
  A multiply-add counts 2 (dot, convolution). Ops that carry a computation (``reduce``,
  ``reduce_window``, ``select_and_scatter``, ``scatter``, ``sort``, ``map``) charge that
  computation's FLOPs per application.
- Bytes. One kernel reads its operands and writes its results once: bytes = operand bytes +
  result bytes. Exceptions: slicing ops read only what they keep; in-place updates
  (``dynamic_update_slice``, ``scatter``) touch only the updated part; views (``reshape``,
  ``bitcast``, tuples, constants) are free; an ``mhlo.fusion`` is one kernel, so only its
  external operands and results count, however many ops it holds.
- Units. ``dot``/``dot_general``/``convolution`` run on the tensor unit at the rate of their
  *input* element type; everything else (factorizations and FFTs included) runs on the vector
  unit.
- Control flow. ``while`` costs (condition + body) x ``trip_count``; without a static trip count
  the body counts once and a note says so. ``case``/``if`` cost their costliest branch (bytes and
  each FLOP share maximised separately: an upper bound when branches differ in kind).
  ``func.call`` costs its callee's body (attached as its region).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from hespas_py.mlir.ops import DTYPE_BYTES, Op, Region, TensorType
from hespas_py.split.blocks import COLLECTIVES

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


#: Cost families `op_family` returns, with what they hold.
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


# ----------------------------------------------------------------------------------- helpers


def _io_bytes(op: Op) -> float:
    return float(sum(t.nbytes for t in op.operand_types) + sum(t.nbytes for t in op.result_types))


def _dtype(op: Op) -> str:
    """The element type that names an op's: its first operand's, else its first result's."""
    for t in (*op.operand_types, *op.result_types):
        if t.elements:
            return t.elements[0].dtype
        if t.is_array:
            return t.dtype
    return "f32"


def _widest_input_dtype(op: Op, count: int = 2) -> str:
    """Element type of the widest of the first ``count`` operands (ties: the first)."""
    best = _dtype(op)
    for t in op.operand_types[:count]:
        if DTYPE_BYTES.get(t.dtype, 0) > DTYPE_BYTES.get(best, 0):
            best = t.dtype
    return best


def _work(op: Op, family: str, flops: float = 0.0, nbytes: float | None = None,
          unit: str = VECTOR, dtype: str | None = None, notes: tuple[str, ...] = ()) -> Work:
    shares = ((unit, dtype or _dtype(op), float(flops)),) if flops else ()
    return Work(shares, _io_bytes(op) if nbytes is None else float(nbytes), family, notes=notes)


def _combine(works: Iterable[Work], family: str, nbytes: float | None = None,
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


def _costliest(works: Sequence[Work]) -> Work:
    """Bytes and each FLOP share maximised separately over alternative branches."""
    shares: dict[tuple[str, str], float] = {}
    notes: dict[str, None] = {}
    for w in works:
        for unit, dtype, flops in w.flops:
            shares[(unit, dtype)] = max(shares.get((unit, dtype), 0.0), flops)
        notes.update(dict.fromkeys(w.notes))
    return Work(tuple((u, d, f) for (u, d), f in shares.items() if f),
                max((w.bytes for w in works), default=0.0), "control", notes=tuple(notes))


def region_work(region: Region) -> Work:
    """Sum of the work of a region's ops (each op its own kernel)."""
    return _combine((op_work(op) for op in region.ops), "control")


def _computation_flops(op: Op, index: int = 0) -> float:
    """FLOPs of one application of the scalar computation in region ``index`` (1 if absent)."""
    if index < len(op.regions):
        return region_work(op.regions[index]).total_flops
    return 1.0


def _attr_ints(op: Op, key: str, rank: int, default: int) -> tuple[int, ...]:
    value = op.attrs.get(key)
    if value is None:
        return (default,) * rank
    return tuple(int(v) for v in value)


# ----------------------------------------------------------------------------------- handlers


def _free(op: Op) -> Work:
    return Work((), 0.0, "free")


def _elementwise(op: Op) -> Work:
    return _work(op, "elementwise", sum(t.num_elements for t in op.result_types[:1]))


def _per_element(flops_per_element: float) -> Callable[[Op], Work]:
    """Elementwise-like ops doing a fixed amount of work per operand element (batch norm)."""
    def handler(op: Op) -> Work:
        return _work(op, "elementwise", flops_per_element * op.operand_types[0].num_elements)
    return handler


def _map(op: Op) -> Work:
    return _work(op, "reduction", op.result_types[0].num_elements * _computation_flops(op))


def _memory(op: Op) -> Work:
    return _work(op, "memory")


def _slice(op: Op) -> Work:
    """Reads only the kept part: 2 x result, plus any index operands."""
    index_bytes = sum(t.nbytes for t in op.operand_types[1:])
    return _work(op, "memory", nbytes=2 * op.result_types[0].nbytes + index_bytes)


def _dynamic_update_slice(op: Op) -> Work:
    """In place: read the update, write it into the operand; indices are read too."""
    update, indices = op.operand_types[1], op.operand_types[2:]
    return _work(op, "memory", nbytes=2 * update.nbytes + sum(t.nbytes for t in indices))


def _gather(op: Op) -> Work:
    """Reads the gathered rows (as many as it writes) and the indices."""
    indices = op.operand_types[1] if len(op.operand_types) > 1 else TensorType((), "i32")
    return _work(op, "memory", nbytes=2 * sum(t.nbytes for t in op.result_types) + indices.nbytes)


def _scatter(op: Op) -> Work:
    """In place: read indices and updates, read-modify-write the updated elements."""
    n_inputs = max((len(op.operand_types) - 1) // 2, 1)
    indices = op.operand_types[n_inputs] if len(op.operand_types) > n_inputs else None
    updates = op.operand_types[n_inputs + 1:]
    update_elements = sum(t.num_elements for t in updates)
    nbytes = (indices.nbytes if indices else 0) + 3 * sum(t.nbytes for t in updates)
    return _work(op, "memory", update_elements // max(len(updates), 1) * _computation_flops(op),
                 nbytes=nbytes)


def _reduce(op: Op) -> Work:
    """Every input element is combined once: input elements x computation FLOPs."""
    return _work(op, "reduction", op.operand_types[0].num_elements * _computation_flops(op))


def _reduce_window(op: Op) -> Work:
    rank = len(op.operand_types[0].shape)
    window = math.prod(_attr_ints(op, "window_dimensions", rank, 1))
    return _work(op, "reduction", op.result_types[0].num_elements * window * _computation_flops(op))


def _select_and_scatter(op: Op) -> Work:
    """Per source element: one select over the window, one scatter computation."""
    rank = len(op.operand_types[0].shape)
    window = math.prod(_attr_ints(op, "window_dimensions", rank, 1))
    per_source = window * _computation_flops(op, 0) + _computation_flops(op, 1)
    return _work(op, "reduction", op.operand_types[1].num_elements * per_source)


def _sort(op: Op) -> Work:
    """n log2 n comparator applications per sorted row."""
    t = op.operand_types[0]
    dim = int(op.attrs.get("sort_dimension", op.attrs.get("dimension", -1)))
    n = t.shape[dim] if t.shape else 1
    compares = t.num_elements * math.ceil(math.log2(n)) if n > 1 else 0
    return _work(op, "reduction", compares * _computation_flops(op))


def _dot(op: Op) -> Work:
    lhs = op.operand_types[0]
    if op.short_name == "dot":
        contracting = lhs.shape[-1] if lhs.shape else 1
    else:
        numbers = op.attrs.get("dot_dimension_numbers")
        if numbers is None:
            return _fallback(op, "dot_general without dot_dimension_numbers")
        contracting = math.prod(lhs.shape[d] for d in numbers.get("lhs_contracting_dimensions", ()))
    flops = 2 * op.result_types[0].num_elements * contracting
    return _work(op, "tensor", flops, unit=TENSOR, dtype=_widest_input_dtype(op))


@lru_cache(maxsize=4096)
def _valid_taps(in_size: int, kernel: int, out: int, stride: int, pad_lo: int, lhs_dil: int,
                rhs_dil: int) -> int:
    """Kernel taps, summed over output positions, that land on a real input element (not on
    padding nor on an lhs-dilation hole) along one spatial dimension."""
    dilated = (in_size - 1) * lhs_dil + 1
    taps = 0
    for tap in range(kernel):
        offset = tap * rhs_dil - pad_lo  # output position o reads dilated input o * stride + offset
        first = max(0, -(offset // stride))
        end = min(out, (dilated - 1 - offset) // stride + 1)
        if lhs_dil == 1:
            taps += max(0, end - first)
        else:
            taps += sum((o * stride + offset) % lhs_dil == 0 for o in range(first, end))
    return taps


def _convolution(op: Op) -> Work:
    """2 x (output batch x output features) x kernel input features x valid taps.

    The kernel's input-feature size is already the input features / ``feature_group_count``; with
    ``batch_group_count`` > 1 each output feature reads one batch group, which the smaller output
    batch already reflects. Taps on padding or lhs-dilation holes (transposed convolutions) do no
    work and are not counted, as in XLA's cost analysis.
    """
    numbers = op.attrs.get("dimension_numbers")
    if numbers is None:
        return _fallback(op, "convolution without dimension_numbers")
    lhs, rhs, out = op.operand_types[0], op.operand_types[1], op.result_types[0]
    in_spatial = numbers["input_spatial_dimensions"]
    k_spatial = numbers["kernel_spatial_dimensions"]
    out_spatial = numbers["output_spatial_dimensions"]
    rank = len(in_spatial)
    strides = _attr_ints(op, "window_strides", rank, 1)
    lhs_dil = _attr_ints(op, "lhs_dilation", rank, 1)
    rhs_dil = _attr_ints(op, "rhs_dilation", rank, 1)
    padding = op.attrs.get("padding") or ((0, 0),) * rank
    taps = 1
    for i in range(rank):
        taps *= _valid_taps(lhs.shape[in_spatial[i]], rhs.shape[k_spatial[i]],
                            out.shape[out_spatial[i]], strides[i], int(padding[i][0]),
                            lhs_dil[i], rhs_dil[i])
    batch_features = (out.shape[numbers["output_batch_dimension"]]
                      * out.shape[numbers["output_feature_dimension"]])
    kernel_in = rhs.shape[numbers["kernel_input_feature_dimension"]]
    flops = 2 * batch_features * kernel_in * taps
    return _work(op, "tensor", flops, unit=TENSOR, dtype=_widest_input_dtype(op))


def _matrix_batch(t: TensorType) -> tuple[int, int]:
    """(batch, n) of a [..., n, n]-shaped operand."""
    n = t.shape[-1] if t.shape else 1
    return max(t.num_elements // max(n * n, 1), 1), n


def _cholesky(op: Op) -> Work:
    batch, n = _matrix_batch(op.operand_types[0])
    return _work(op, "linalg", batch * n ** 3 / 3)


def _triangular_solve(op: Op) -> Work:
    """Each right-hand-side element needs n multiply-adds against the n x n triangle."""
    _, n = _matrix_batch(op.operand_types[0])
    return _work(op, "linalg", op.operand_types[1].num_elements * n)


def _fft(op: Op) -> Work:
    """5 N log2 N per transform of length N (the classic radix-2 count)."""
    lengths = op.attrs.get("fft_length")
    t = max((*op.operand_types, *op.result_types), key=lambda t: t.num_elements)
    n = math.prod(lengths) if lengths else (t.shape[-1] if t.shape else 1)
    return _work(op, "linalg", 5 * t.num_elements * math.log2(n) if n > 1 else 0)


def _random(op: Op) -> Work:
    return _work(op, "random", sum(t.num_elements for t in op.result_types),
                 dtype=op.result_types[-1].dtype)


def _collective(op: Op) -> Work:
    return _work(op, "collective",
                 notes=(f"{op.name} inside a compute block: only its local memory traffic counted",))


def _while(op: Op) -> Work:
    trip = op.attrs.get("trip_count")
    notes: tuple[str, ...] = ()
    if trip is None:
        trip = 1
        notes = (f"{op.name}: trip count unknown, body counted once",)
    return _combine((region_work(r) for r in op.regions), "control", scale=float(trip),
                    notes=notes)


def _branches(op: Op) -> Work:
    return _costliest([region_work(r) for r in op.regions])


def _regions_or_fallback(op: Op) -> Work:
    """Ops whose cost is their region's (call, manual_computation, composite)."""
    if not op.regions:
        return _fallback(op, f"{op.name} without a body")
    return _combine((region_work(r) for r in op.regions), "control")


def _fusion(op: Op) -> Work:
    """One kernel: its body's FLOPs, only its external operand and result bytes."""
    return _combine((region_work(r) for r in op.regions), "control", nbytes=_io_bytes(op))


def _fallback(op: Op, reason: str | None = None) -> Work:
    notes = (reason,) if reason else ()
    return Work((), _io_bytes(op), "unknown", fallback=True, notes=notes)


# ------------------------------------------------------------------------------ custom calls

#: custom_call targets that are views, annotations or no-ops.
_FREE_TARGETS = frozenset({
    "Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "annotate_device_placement",
    "LayoutConstraint", "AllocateBuffer", "mhlo.sharding", "xla.sdy.FuncResultSharding",
    "xla.sdy.GlobalToLocalShape", "xla.sdy.LocalToGlobalShape", "local_sharding_constraint",
})
#: custom_call targets that only move data.
_MEMORY_TARGETS = frozenset({"MoveToHost", "MoveToDevice", "PinToDevice", "ResizeBilinear"})


def _top_k(op: Op) -> Work:
    """A full pass over the input with log2(k) comparisons per element."""
    k = op.result_types[0].shape[-1] if op.result_types and op.result_types[0].shape else 1
    flops = op.operand_types[0].num_elements * max(math.ceil(math.log2(k)), 1)
    return _work(op, "reduction", flops)


def _factorization(flops_per_n3: float) -> Callable[[Op], Work]:
    """Dense factorizations of [..., n, n] matrices (LU, QR, eigen): flops_per_n3 x n^3 each."""
    def handler(op: Op) -> Work:
        batch, n = _matrix_batch(op.operand_types[0])
        return _work(op, "linalg", flops_per_n3 * batch * n ** 3)
    return handler


#: Substrings of solver / RNG / top-k custom_call targets (LAPACK, cuSOLVER, hipSOLVER, XLA),
#: checked in order, with their handlers.
_TARGET_PATTERNS: tuple[tuple[str, Callable[[Op], Work]], ...] = (
    ("potrf", _cholesky),
    ("trsm", _triangular_solve),
    ("getrf", _factorization(2 / 3)),
    ("geqrf", _factorization(4 / 3)),
    ("syevd", _factorization(9.0)),
    ("heevd", _factorization(9.0)),
    ("gesdd", _factorization(22.0)),
    ("threefry", _random),
    ("philox", _random),
    ("topk", _top_k),
)


def _custom_call(op: Op) -> Work:
    target = str(op.attrs.get("call_target_name", ""))
    if target in _FREE_TARGETS:
        return _free(op)
    if target in _MEMORY_TARGETS:
        return _memory(op)
    lowered = target.lower()
    for pattern, handler in _TARGET_PATTERNS:
        if pattern in lowered:
            return handler(op)
    return _fallback(op, f"custom_call target {target!r} unknown: memory-bound fallback")


# ------------------------------------------------------------------------------- dispatch

_ELEMENTWISE = (
    "abs", "add", "and", "atan2", "cbrt", "ceil", "clamp", "compare", "complex", "convert",
    "cosine", "count_leading_zeros", "divide", "exponential", "exponential_minus_one", "floor",
    "imag", "is_finite", "log", "log_plus_one", "logistic", "maximum", "minimum", "multiply",
    "negate", "not", "or", "popcnt", "power", "real", "reduce_precision", "remainder",
    "round_nearest_afz", "round_nearest_even", "rsqrt", "select", "shift_left",
    "shift_right_arithmetic", "shift_right_logical", "sign", "sine", "sqrt", "subtract", "tan",
    "tanh", "xor", "uniform_quantize", "uniform_dequantize",
    # MHLO / CHLO elementwise math
    "erf", "erf_inv", "erfc", "lgamma", "digamma", "polygamma", "zeta", "igamma", "igammac",
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cosh", "sinh", "bessel_i1e", "conj",
    "next_after", "square", "is_inf", "is_neg_inf", "is_pos_inf", "broadcast_add",
    "broadcast_subtract", "broadcast_multiply", "broadcast_divide", "broadcast_maximum",
    "broadcast_minimum", "broadcast_compare", "broadcast_select", "broadcast_and",
    "broadcast_or", "broadcast_xor", "broadcast_power", "broadcast_remainder", "broadcast_atan2",
)

_FREE = (
    "constant", "reshape", "dynamic_reshape", "bitcast", "bitcast_convert", "get_tuple_element",
    "tuple", "optimization_barrier", "return", "yield", "partition_id", "replica_id",
    "after_all", "create_token", "get_dimension_size", "set_dimension_size",
    "sharding_constraint", "reshard", "propagation_barrier", "sharding_group",
    "add_dependency", "domain",
)

_MEMORY = (
    "broadcast_in_dim", "broadcast", "dynamic_broadcast_in_dim", "transpose", "reverse", "pad",
    "dynamic_pad", "concatenate", "iota", "dynamic_iota", "copy", "infeed", "outfeed", "send",
    "recv",
)

_HANDLERS: dict[str, Callable[[Op], Work]] = {
    **dict.fromkeys(_ELEMENTWISE, _elementwise),
    **dict.fromkeys(_FREE, _free),
    **dict.fromkeys(_MEMORY, _memory),
    **dict.fromkeys(COLLECTIVES, _collective),
    "slice": _slice, "real_dynamic_slice": _slice, "dynamic_slice": _slice,
    "dynamic_update_slice": _dynamic_update_slice,
    "gather": _gather, "dynamic_gather": _gather, "scatter": _scatter,
    "reduce": _reduce, "reduce_window": _reduce_window,
    "select_and_scatter": _select_and_scatter, "sort": _sort, "map": _map, "top_k": _top_k,
    "dot": _dot, "dot_general": _dot, "convolution": _convolution,
    "cholesky": _cholesky, "triangular_solve": _triangular_solve, "fft": _fft,
    "rng": _random, "rng_bit_generator": _random, "rng_uniform": _random, "rng_normal": _random,
    "batch_norm_inference": _per_element(4.0),
    "batch_norm_training": _per_element(7.0),
    "batch_norm_grad": _per_element(9.0),
    "while": _while, "case": _branches, "if": _branches,
    "call": _regions_or_fallback, "manual_computation": _regions_or_fallback,
    "composite": _regions_or_fallback, "fusion": _fusion,
    "custom_call": _custom_call,
}


def op_work(op: Op) -> Work:
    """The work of ``op`` (never raises: unknown or malformed ops get the fallback)."""
    handler = _HANDLERS.get(op.short_name)
    if handler is None:
        return _fallback(op)
    try:
        return handler(op)
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as exc:
        return _fallback(op, f"{op.name}: malformed ({type(exc).__name__}: {exc}); fallback used")


def op_flops(op: Op) -> float:
    """FLOPs of ``op``, whatever unit runs them."""
    return op_work(op).total_flops


def op_bytes(op: Op) -> float:
    """Bytes ``op`` moves to and from device memory."""
    return op_work(op).bytes


def op_family(op: Op) -> str:
    """The cost family of ``op`` (a key of `FAMILIES`)."""
    return op_work(op).family
