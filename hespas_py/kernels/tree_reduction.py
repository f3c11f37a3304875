"""Large reductions as XLA's GPU compiler runs them: in two (or more) kernels.

Rules and sources: docs/kernels.md."""

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
        for count, after in zip(counts, [*counts[1:], 1], strict=False):
            stages.append(dataclasses.replace(
                kernel, ops=(op,), flops=float(count * sum(t.num_elements
                                                           for t in op.result_types)),
                bytes=float((count + after) * result), tensor_flops=0.0, tensor_dtype="",
                notes=(), part=REDUCTION))
    if not stages:
        return [kernel]
    return [dataclasses.replace(kernel, bytes=kernel.bytes + extra_bytes), *stages]
