"""Hardware-independent work of StableHLO / MHLO / CHLO ops: FLOPs, bytes and the unit they run on.

Rules and sources: docs/kernels.md."""

from __future__ import annotations

import math
from collections.abc import Callable

from hespas_py.kernels.linalg_costs import (
    cholesky_work,
    convolution_work,
    dot_work,
    factorization,
    fft_work,
    triangular_solve_work,
)
from hespas_py.kernels.work import (
    TENSOR,
    Work,
    attr_ints,
    combine,
    costliest,
    fallback,
    io_bytes,
    kernel_work,
)
from hespas_py.mlir.ops import Op, Region, TensorType
from hespas_py.split.blocks import COLLECTIVES

# ----------------------------------------------------------------------------------- regions


def region_work(region: Region) -> Work:
    """Sum of the work of a region's ops (each op its own kernel)."""
    return combine((op_work(op) for op in region.ops), "control")


def _computation_flops(op: Op, index: int = 0) -> float:
    """FLOPs of one application of the scalar computation in region ``index`` (1 if absent)."""
    if index < len(op.regions):
        return region_work(op.regions[index]).total_flops
    return 1.0


# ----------------------------------------------------------------------------------- handlers


def _free(op: Op) -> Work:
    return Work((), 0.0, "free")


def _elementwise(op: Op) -> Work:
    return kernel_work(op, "elementwise", sum(t.num_elements for t in op.result_types[:1]))


def _per_element(flops_per_element: float) -> Callable[[Op], Work]:
    """Elementwise-like ops doing a fixed amount of work per operand element (batch norm)."""
    def handler(op: Op) -> Work:
        return kernel_work(op, "elementwise", flops_per_element * op.operand_types[0].num_elements)
    return handler


def _map(op: Op) -> Work:
    return kernel_work(op, "reduction", op.result_types[0].num_elements * _computation_flops(op))


def _memory(op: Op) -> Work:
    return kernel_work(op, "memory")


def _slice(op: Op) -> Work:
    """Reads only the kept part: 2 x result, plus any index operands."""
    index_bytes = sum(t.nbytes for t in op.operand_types[1:])
    return kernel_work(op, "memory", nbytes=2 * op.result_types[0].nbytes + index_bytes)


def _dynamic_update_slice(op: Op) -> Work:
    """In place: read the update, write it into the operand; indices are read too."""
    update, indices = op.operand_types[1], op.operand_types[2:]
    return kernel_work(op, "memory", nbytes=2 * update.nbytes + sum(t.nbytes for t in indices))


def _gather(op: Op) -> Work:
    """Reads the gathered rows (as many as it writes) and the indices."""
    indices = op.operand_types[1] if len(op.operand_types) > 1 else TensorType((), "i32")
    return kernel_work(op, "memory",
                       nbytes=2 * sum(t.nbytes for t in op.result_types) + indices.nbytes)


def _scatter(op: Op) -> Work:
    """In place: read indices and updates, read-modify-write the updated elements."""
    n_inputs = max((len(op.operand_types) - 1) // 2, 1)
    indices = op.operand_types[n_inputs] if len(op.operand_types) > n_inputs else None
    updates = op.operand_types[n_inputs + 1:]
    update_elements = sum(t.num_elements for t in updates)
    nbytes = (indices.nbytes if indices else 0) + 3 * sum(t.nbytes for t in updates)
    return kernel_work(op, "memory",
                       update_elements // max(len(updates), 1) * _computation_flops(op),
                       nbytes=nbytes)


def _reduce(op: Op) -> Work:
    """Every input element is combined once: input elements x computation FLOPs."""
    return kernel_work(op, "reduction", op.operand_types[0].num_elements * _computation_flops(op))


def _reduce_window(op: Op) -> Work:
    rank = len(op.operand_types[0].shape)
    window = math.prod(attr_ints(op, "window_dimensions", rank, 1))
    return kernel_work(op, "reduction",
                       op.result_types[0].num_elements * window * _computation_flops(op))


def _select_and_scatter(op: Op) -> Work:
    """Per source element: one select over the window, one scatter computation."""
    rank = len(op.operand_types[0].shape)
    window = math.prod(attr_ints(op, "window_dimensions", rank, 1))
    per_source = window * _computation_flops(op, 0) + _computation_flops(op, 1)
    return kernel_work(op, "reduction", op.operand_types[1].num_elements * per_source)


def _sort(op: Op) -> Work:
    """n log2 n comparator applications per sorted row."""
    t = op.operand_types[0]
    dim = int(op.attrs.get("sort_dimension", op.attrs.get("dimension", -1)))
    n = t.shape[dim] if t.shape else 1
    compares = t.num_elements * math.ceil(math.log2(n)) if n > 1 else 0
    return kernel_work(op, "reduction", compares * _computation_flops(op))


def _random(op: Op) -> Work:
    return kernel_work(op, "random", sum(t.num_elements for t in op.result_types),
                       dtype=op.result_types[-1].dtype)


def _collective(op: Op) -> Work:
    return kernel_work(
        op, "collective",
        notes=(f"{op.name} inside a compute block: only its local memory traffic counted",))


def _while(op: Op) -> Work:
    trip = op.attrs.get("trip_count")
    notes: tuple[str, ...] = ()
    if trip is None:
        trip = 1
        notes = (f"{op.name}: trip count unknown, body counted once",)
    return combine((region_work(r) for r in op.regions), "control", scale=float(trip),
                   notes=notes)


def _branches(op: Op) -> Work:
    return costliest([region_work(r) for r in op.regions])


def _regions_or_fallback(op: Op) -> Work:
    """Ops whose cost is their region's (call, manual_computation, composite)."""
    if not op.regions:
        return fallback(op, f"{op.name} without a body")
    return combine((region_work(r) for r in op.regions), "control")


def _fusion(op: Op) -> Work:
    """One kernel: its body's FLOPs, only its external operand and result bytes."""
    return combine((region_work(r) for r in op.regions), "control", nbytes=io_bytes(op))


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
    return kernel_work(op, "reduction", flops)


#: Substrings of solver / RNG / top-k custom_call targets (LAPACK, cuSOLVER, hipSOLVER, XLA),
#: checked in order, with their handlers.
_TARGET_PATTERNS: tuple[tuple[str, Callable[[Op], Work]], ...] = (
    ("potrf", cholesky_work),
    ("trsm", triangular_solve_work),
    ("getrf", factorization(2 / 3)),
    ("geqrf", factorization(4 / 3)),
    ("syevd", factorization(9.0)),
    ("heevd", factorization(9.0)),
    ("gesdd", factorization(22.0)),
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
    from hespas_py.kernels.library_calls import library_call  # GPU steps' calls only

    library = library_call(op)
    if library is not None:  # cuBLAS / cuDNN: one tensor-unit kernel
        return kernel_work(op, "tensor", library.flops, nbytes=library.bytes, unit=TENSOR,
                           dtype=library.dtype)
    lowered = target.lower()
    for pattern, handler in _TARGET_PATTERNS:
        if pattern in lowered:
            return handler(op)
    return fallback(op, f"custom_call target {target!r} unknown: memory-bound fallback")


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

#: Short names of the elementwise ops (one FLOP per result element).
ELEMENTWISE_OPS = frozenset(_ELEMENTWISE)

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
    "dot": dot_work, "dot_general": dot_work, "convolution": convolution_work,
    "cholesky": cholesky_work, "triangular_solve": triangular_solve_work, "fft": fft_work,
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
        return fallback(op)
    try:
        return handler(op)
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as exc:
        return fallback(op, f"{op.name}: malformed ({type(exc).__name__}: {exc}); fallback used")


def op_flops(op: Op) -> float:
    """FLOPs of ``op``, whatever unit runs them."""
    return op_work(op).total_flops


def op_bytes(op: Op) -> float:
    """Bytes ``op`` moves to and from device memory."""
    return op_work(op).bytes


def op_family(op: Op) -> str:
    """The cost family of ``op`` (a key of `work.FAMILIES`)."""
    return op_work(op).family
