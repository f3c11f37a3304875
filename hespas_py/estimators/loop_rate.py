"""The element rate of XLA's loop kernels (`loop_element_rate`): a floor on the time of an
elementwise kernel that moves few bytes per element.

XLA's loop emitter gives each thread a few elements of the kernel's iteration space (its output
shape). A kernel that reads and writes few bytes per element does not reach the memory bandwidth
then: it is bound by the elements it can process per second, so its time is at least
``elements / loop_element_rate``. Measured per chip by a microbenchmark of one such kernel: a
``bf16`` array converted to f32, scaled, shifted and written back as ``bf16`` (4 bytes per
element, `scripts/gpu/row_kernels.py`'s ``stream`` case, ``workloads/gpu_h100/microbench/
row_kernels*.json``): 0.73e12 elements/s on an H100 at any size from 4 to 512 Mi elements
(2.92 TB/s, below the 0.8 x 3.35 TB/s the presets assume, so the floor binds only under 3.7
bytes per element there), 0.84e12 on an H200 (3.36 TB/s where 0.8 x 4.8 TB/s is 3.84).

Evidence beside it (validation, not fitted; the H200 profiles of ``workloads/gpu_h200``): the
loop kernels reading one bf16 value and writing one run at 3.1-3.3 TB/s (0.78-0.84e12
elements/s), broadcast fills at 8.5e11 elements/s whatever the element type (1.69 TB/s for
bf16, 3.40 for f32), kernels of 6 or more bytes per element at 3.7-4.5 TB/s (memory-bound).

Applies to elementwise (loop) kernels that run whole ops; an in-place ``dynamic_update_slice``
iterates over its update only. Not to reductions, library calls or the copies the plan adds
beside GEMMs (`fusion.cost`), whose iteration spaces differ.
"""

from __future__ import annotations

from hespas_py.kernels import Kernel, Kind


def loop_elements(kernel: Kernel) -> int:
    """The elements of a loop kernel's iteration space (0 for any other kernel)."""
    if kernel.kind is not Kind.LOOP or kernel.part:
        return 0
    sizes = [op.operand_types[1].num_elements if op.short_name == "dynamic_update_slice"
             else max((t.num_elements for t in op.result_types), default=0)
             for op in kernel.ops]
    return max(sizes, default=0)
