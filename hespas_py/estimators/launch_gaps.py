"""The GPU's idle time at the boundaries of XLA's command buffers (``launch_gap_s``).

XLA runs a step's kernels in command buffers (CUDA graphs) where it can: the command types of
``xla_gpu_enable_command_buffer`` (in the jax 0.11 XLA: fusions, cuBLAS and cuBLASLt GEMMs,
custom calls, cuDNN graph calls such as flash attention, dynamic-slice fusions;
``DefaultDebugOptionsIgnoringFlags``, xla/debug_options_flags.cc), formed by
``CommandBufferConversionPass`` from runs of at least ``xla_gpu_graph_min_graph_size`` (5)
consecutive commands. A cuDNN convolution (``ConvolutionThunk``) is no command: it is launched
on its own and cuts the step's kernels into command buffers around it (the measured profiles:
``cudnn-conv*`` outside, every other kernel under ``command_buffer_N``). Inside a command buffer
consecutive kernels start back to back; at each switch between a command buffer and a kernel
launched alone the GPU idles, and between two such kernels too.

``launch_gap_s`` gives those gaps: ``switch`` at each switch into or out of a command buffer,
``between`` between two consecutive library calls launched alone. They are charged to the
convolution kernels (`Kernel.gap_s`), in the plan's program order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from hespas_py.kernels import (
    CONV_BACKWARD_FILTER,
    CONV_BACKWARD_INPUT,
    CONV_FORWARD,
    Kernel,
    Kind,
)

#: Kernels launched outside command buffers: cuDNN convolution calls.
_ALONE = frozenset({CONV_FORWARD, CONV_BACKWARD_INPUT, CONV_BACKWARD_FILTER})


def alone(kernel: Kernel) -> bool:
    """Whether XLA launches ``kernel`` outside its command buffers (a cuDNN convolution)."""
    return kernel.kind is Kind.GEMM and kernel.gemm_kind in _ALONE


def with_launch_gaps(kernels: Sequence[Kernel], gaps: Mapping[str, float]) -> list[Kernel]:
    """``kernels`` (one scope, program order) with the idle time around each kernel launched
    alone set (`Kernel.gap_s`): ``switch`` before it after a command-buffer kernel and after it
    before one, ``between`` before it after another kernel launched alone."""
    switch, between = float(gaps.get("switch", 0.0)), float(gaps.get("between", 0.0))
    if not switch and not between:
        return list(kernels)
    result = []
    for i, kernel in enumerate(kernels):
        if not alone(kernel):
            result.append(kernel)
            continue
        gap = 0.0
        if i > 0:
            gap += between if alone(kernels[i - 1]) else switch
        if i + 1 < len(kernels) and not alone(kernels[i + 1]):
            gap += switch
        result.append(dataclasses.replace(kernel, gap_s=gap))
    return result
