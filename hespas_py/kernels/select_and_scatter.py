"""``select_and_scatter`` (the gradient of max pooling) as XLA's GPU compiler runs it.

Rules and sources: docs/kernels.md."""

from __future__ import annotations

import dataclasses

from hespas_py.kernels.classes import COPY, REDUCE_WINDOW, SCATTER
from hespas_py.kernels.kernel import Kernel, Kind

#: Bytes of one index XLA's expander writes (``s32``).
INDEX_BYTES = 4


def expanded_kernels(kernel: Kernel) -> list[Kernel]:
    """The three kernels of a planned ``select_and_scatter`` kernel (see the module docstring)."""
    op = kernel.ops[0]
    operand, source = op.operand_types[0], op.operand_types[1]
    indices = len(operand.shape) * INDEX_BYTES * source.num_elements
    selected = 2 * source.num_elements * operand.nbytes // max(operand.num_elements, 1)
    parts = ((COPY, Kind.LOOP, 0.0, operand.nbytes),
             (REDUCE_WINDOW, Kind.LOOP, kernel.flops, operand.nbytes + source.nbytes + indices),
             (SCATTER, Kind.OPAQUE, 0.0, indices + source.nbytes + selected))
    return [dataclasses.replace(kernel, kind=kind, flops=flops, bytes=float(nbytes), part=part)
            for part, kind, flops, nbytes in parts]
