"""Kernel classes: a small vocabulary shared by planned kernels and profiled GPU kernels, so a
model's time per class can be set beside a profile's (``hespas accuracy --kernels``).

A class names what a kernel does, not how it was costed: a GEMM (cuBLAS or a Triton GEMM
fusion), one of the three cuDNN convolution calls, a flash-attention kernel forward or backward,
a reduction (input fusion), an elementwise loop fusion, a scatter, a windowed reduction
(``reduce_window``, max pooling), a gather, a copy or transpose, anything else.
"""

from __future__ import annotations

from hespas_py.kernels.convolution import (
    CONV_BACKWARD_FILTER,
    CONV_BACKWARD_INPUT,
    CONV_FORWARD,
)
from hespas_py.kernels.kernel import FLASH_BACKWARD, FLASH_FORWARD, Kernel, Kind

GEMM = "gemm"
REDUCTION = "reduction"
ELEMENTWISE = "elementwise"
SCATTER = "scatter"
REDUCE_WINDOW = "reduce_window"
GATHER = "gather"
COPY = "copy"
OTHER = "other"

#: Every class, in report order.
CLASSES: tuple[str, ...] = (
    GEMM, CONV_FORWARD, CONV_BACKWARD_INPUT, CONV_BACKWARD_FILTER, FLASH_FORWARD, FLASH_BACKWARD,
    REDUCTION, ELEMENTWISE, SCATTER, REDUCE_WINDOW, GATHER, COPY, OTHER)

#: Ops that make a loop kernel a copy when it holds nothing else (data movement only).
_MOVES = frozenset({"transpose", "copy", "broadcast_in_dim", "broadcast", "slice", "concatenate",
                    "pad", "reverse", "dynamic_slice", "dynamic_update_slice", "iota", "convert"})


def kernel_class(kernel: Kernel) -> str:
    """The class (`CLASSES`) of a planned kernel."""
    names = {op.short_name for op in kernel.ops}
    if kernel.part:
        return kernel.part
    if kernel.kind is Kind.ATTENTION:
        return kernel.gemm_kind
    if kernel.kind is Kind.GEMM:
        return GEMM if kernel.gemm_kind == "dot" else kernel.gemm_kind
    if "scatter" in names or "select_and_scatter" in names:
        return SCATTER
    if kernel.kind is Kind.REDUCTION:
        return REDUCTION
    if "reduce_window" in names:
        return REDUCE_WINDOW
    if "gather" in names:
        return GATHER
    if kernel.kind is Kind.LOOP:
        return COPY if names <= _MOVES else ELEMENTWISE
    if kernel.kind is Kind.OPAQUE and names <= _MOVES:
        return COPY
    return OTHER
