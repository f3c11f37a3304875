"""FLOP counts of the linear-algebra ops: contractions (``dot``, ``dot_general``,
``convolution``) on the tensor unit, and factorizations, triangular solves and FFTs on the vector
unit (`hespas_py.kernels.costs` dispatches to them, custom-call solvers included).

Rules and sources: docs/kernels.md."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from hespas_py.kernels.work import (
    TENSOR,
    Work,
    attr_ints,
    fallback,
    kernel_work,
    widest_input_dtype,
)
from hespas_py.mlir.ops import Op, TensorType

#: Dtype of the tensor share of an f32 contraction that may run in reduced precision.
REDUCIBLE_F32 = "tf32"
#: ``precision_config`` entries that let XLA's GPU GEMMs run f32 operands as TF32.
_REDUCIBLE = frozenset({"DEFAULT", "HIGH"})


def contraction_dtype(op: Op) -> str:
    """The element type setting a contraction's tensor rate (see the module docstring)."""
    dtype = widest_input_dtype(op)
    if dtype == "f32" and all(p in _REDUCIBLE for p in op.attrs.get("precision_config", ())):
        return REDUCIBLE_F32
    return dtype


def dot_work(op: Op) -> Work:
    """2 x result elements x contracted size."""
    lhs = op.operand_types[0]
    if op.short_name == "dot":
        contracting = lhs.shape[-1] if lhs.shape else 1
    else:
        numbers = op.attrs.get("dot_dimension_numbers")
        if numbers is None:
            return fallback(op, "dot_general without dot_dimension_numbers")
        contracting = math.prod(lhs.shape[d] for d in numbers.get("lhs_contracting_dimensions", ()))
    flops = 2 * op.result_types[0].num_elements * contracting
    return kernel_work(op, "tensor", flops, unit=TENSOR, dtype=contraction_dtype(op))


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
            taps += _multiples(first, end, stride, offset, lhs_dil)
    return taps


def _multiples(first: int, end: int, stride: int, offset: int, modulus: int) -> int:
    """How many ``o`` in ``range(first, end)`` make ``o * stride + offset`` a multiple of
    ``modulus``: those ``o`` form one residue class modulo ``modulus / gcd(stride, modulus)``
    (or none), counted without walking the range (a transposed convolution's output row is
    thousands of positions)."""
    common = math.gcd(stride, modulus)
    if end <= first or offset % common:
        return 0
    period = modulus // common
    residue = -(offset // common) * pow(stride // common, -1, period) % period
    return (end - 1 - residue) // period - (first - 1 - residue) // period


def convolution_work(op: Op) -> Work:
    """2 x (output batch x output features) x kernel input features x valid taps.

    The kernel's input-feature size is already the input features / ``feature_group_count``; with
    ``batch_group_count`` > 1 each output feature reads one batch group, which the smaller output
    batch already reflects. Taps on padding or lhs-dilation holes (transposed convolutions) do no
    work and are not counted, as in XLA's cost analysis.
    """
    numbers = op.attrs.get("dimension_numbers")
    if numbers is None:
        return fallback(op, "convolution without dimension_numbers")
    lhs, rhs, out = op.operand_types[0], op.operand_types[1], op.result_types[0]
    in_spatial = numbers["input_spatial_dimensions"]
    k_spatial = numbers["kernel_spatial_dimensions"]
    out_spatial = numbers["output_spatial_dimensions"]
    rank = len(in_spatial)
    strides = attr_ints(op, "window_strides", rank, 1)
    lhs_dil = attr_ints(op, "lhs_dilation", rank, 1)
    rhs_dil = attr_ints(op, "rhs_dilation", rank, 1)
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
    return kernel_work(op, "tensor", flops, unit=TENSOR, dtype=contraction_dtype(op))


def _matrix_batch(t: TensorType) -> tuple[int, int]:
    """(batch, n) of a [..., n, n]-shaped operand."""
    n = t.shape[-1] if t.shape else 1
    return max(t.num_elements // max(n * n, 1), 1), n


def cholesky_work(op: Op) -> Work:
    """n^3 / 3 per [n, n] matrix."""
    batch, n = _matrix_batch(op.operand_types[0])
    return kernel_work(op, "linalg", batch * n ** 3 / 3)


def triangular_solve_work(op: Op) -> Work:
    """Each right-hand-side element needs n multiply-adds against the n x n triangle."""
    _, n = _matrix_batch(op.operand_types[0])
    return kernel_work(op, "linalg", op.operand_types[1].num_elements * n)


def fft_work(op: Op) -> Work:
    """5 N log2 N per transform of length N (the classic radix-2 count)."""
    lengths = op.attrs.get("fft_length")
    t = max((*op.operand_types, *op.result_types), key=lambda t: t.num_elements)
    n = math.prod(lengths) if lengths else (t.shape[-1] if t.shape else 1)
    return kernel_work(op, "linalg", 5 * t.num_elements * math.log2(n) if n > 1 else 0)


def factorization(flops_per_n3: float) -> Callable[[Op], Work]:
    """Dense factorizations of [..., n, n] matrices (LU, QR, eigen): flops_per_n3 x n^3 each."""
    def handler(op: Op) -> Work:
        batch, n = _matrix_batch(op.operand_types[0])
        return kernel_work(op, "linalg", flops_per_n3 * batch * n ** 3)
    return handler
