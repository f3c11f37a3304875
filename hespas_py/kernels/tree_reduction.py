"""Large reductions as XLA's GPU compiler runs them: in two (or more) kernels.

XLA's GPU pipeline runs ``TreeReductionRewriter`` (xla/service/gpu/transforms/
tree_reduction_rewriter.cc) before fusion. A reduction its emitter cannot run without atomics
(``ReductionIsRaceFree``, xla/service/gpu/reduction_utils.cc) is split into a reduction to
partial results and a reduction of the partials. The race-free bounds, on the reduced size of
the default (row-major) layout:

- a *row* reduction (the minor-most dimension is reduced): ``MinThreadsXRowReduction`` (1024)
  threads x a tile of 16 = 16,384 elements;
- a *column* reduction (minor dimensions are kept): ``WarpSize`` (32) x a tile of 128 = 4,096.

The reduced size ``n`` is split as ``k1 x k2``: ``k2`` starts at ``floor(sqrt(n))`` (at most the
bound) and is searched down to half of that for the least padding, a power of two winning ties;
the first kernel reduces ``k2`` (row) or ``k1`` (column) elements per partial, so it writes
``k1`` (row) or ``k2`` (column) partials per output element, which the next kernel reduces. The
optimized HLO of the measured steps (``workloads/gpu_h100``) shows both: ResNet's BatchNorm
statistics over 256 x 112 x 112 positions as ``f32[1024,64]`` partials and a Triton reduction of
them, LLaMA's cross-entropy over a 128,256-word vocabulary as ``f32[4096,501]`` partials.

The first kernel keeps the planned kernel's work and traffic, its reduce results written as
partials; each later kernel reads the partials and writes the reduction's results.
"""

from __future__ import annotations

import dataclasses
import math

from hespas_py.kernels.classes import REDUCTION
from hespas_py.kernels.kernel import Kernel, Kind
from hespas_py.mlir.ops import Op

#: Elements a row reduction reduces race-free (MinThreadsXRowReduction 1024 x tile 16).
ROW_BOUND = 1024 * 16
#: Elements a column reduction reduces race-free (WarpSize 32 x tile 128).
COLUMN_BOUND = 32 * 128


def partial_counts(op: Op) -> list[int]:
    """Partials per output element of each split of reduce ``op``, in order (empty when its
    emitter reduces it in one kernel)."""
    shape = op.operand_types[0].shape
    dims = sorted(op.attrs.get("dimensions", ()))
    n = math.prod(shape[d] for d in dims)
    row = bool(dims) and dims[-1] == len(shape) - 1
    bound = ROW_BOUND if row else COLUMN_BOUND
    counts: list[int] = []
    while n > bound:
        k2, k1 = _split(n, bound)
        n = k1 if row else k2  # the partials the next kernel reduces
        counts.append(n)
    return counts


def _split(n: int, bound: int) -> tuple[int, int]:
    """(k2, k1) of a reduced size ``n``: ``k2`` near ``sqrt(n)``, at most ``bound``, with the
    least padding of ``n`` to ``k1 x k2``, a power of two preferred at equal padding."""
    k2 = min(math.isqrt(n), bound)
    best, padding = k2, (k2 - n % k2) % k2
    for i in range(k2 - 1, k2 // 2, -1):
        pad = (i - n % i) % i
        if pad < padding or (pad == padding and i & (i - 1) == 0):
            best, padding = i, pad
    return best, (n + padding) // best


def split_kernels(kernel: Kernel) -> list[Kernel]:
    """A planned reduction kernel followed by the kernels reducing its partial results."""
    if kernel.kind is not Kind.REDUCTION:
        return [kernel]
    extra_bytes = 0
    stages: list[Kernel] = []
    for op in kernel.ops:
        if op.short_name != "reduce":
            continue
        result = sum(t.nbytes for t in op.result_types)
        counts = partial_counts(op)
        if counts:
            extra_bytes += (counts[0] - 1) * result
        for count, after in zip(counts, [*counts[1:], 1]):
            stages.append(dataclasses.replace(
                kernel, ops=(op,), flops=float(count * sum(t.num_elements
                                                           for t in op.result_types)),
                bytes=float((count + after) * result), tensor_flops=0.0, tensor_dtype="",
                notes=(), part=REDUCTION))
    if not stages:
        return [kernel]
    return [dataclasses.replace(kernel, bytes=kernel.bytes + extra_bytes), *stages]
