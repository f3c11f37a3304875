"""``select_and_scatter`` (the gradient of max pooling) as XLA's GPU compiler runs it.

XLA's GPU pipeline runs ``SelectAndScatterExpander`` (xla/service/select_and_scatter_expander.cc,
added to the GPU compiler's pipeline in gpu_compiler.cc): the op becomes a variadic
``reduce_window`` over the operand and one ``iota`` per operand dimension, which selects each
window's element and writes, per source element, the selected value and its index along every
dimension as ``s32``, then a ``scatter`` of the source at those indices into the operand-shaped
initial value (a broadcast of the init scalar). The optimized HLO of the measured ResNet steps
(``workloads/gpu_h100``) holds exactly these: a ``loop_reduce_window_fusion`` writing an ``f16``
and four ``s32`` arrays of the pooled shape, a ``memcpy`` of the zero fill and an
``input_scatter_fusion`` reading the four index arrays. Three kernels, then:

- ``copy``: write the operand-shaped initial value;
- ``reduce_window``: read the operand (iotas are generated in the kernel), write the selected
  values and ``rank`` index arrays of the source's shape;
- ``scatter``: read the index arrays and the source, read-modify-write the selected elements.

Its FLOPs stay those of `hespas_py.kernels.costs` (the window selection), on the
``reduce_window`` kernel.
"""

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
