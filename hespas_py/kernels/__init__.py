"""A model of the kernel fusion XLA's GPU compiler applies, run on plain (unoptimized) StableHLO.

`plan_kernels` groups ops into the kernels XLA would launch and counts device-memory traffic at
kernel boundaries only: a value produced and consumed inside one kernel never reaches HBM; a value
crossing a boundary is written once by its producer's kernel and read once by every kernel that
consumes it. The rules follow XLA's GPU fusion passes (``instruction_fusion``/``priority_fusion``,
``multi_output_fusion``, the cuBLAS/cuDNN epilogue rewriters), simplified:

- *Loop fusion.* Elementwise ops, ``convert``, ``broadcast_in_dim``, ``iota``, ``transpose``,
  ``slice``/``dynamic_slice``, ``pad``, ``concatenate``, ``reverse``, ``gather`` and
  ``reduce_window`` fuse into their consumers when every consumer can take them. A producer with
  several consumers is duplicated into each of them (recomputed) unless it is expensive (a
  transcendental, ``reduce_window``, ``gather``, ...), which XLA never duplicates, or
  recomputing it in each consumer moves more bytes than writing it once (priority fusion's cost
  test, `Planner._duplication_pays`; with ``duplication_cone``, counting its single-consumer
  operand chain).
- *Input (reduction) fusion.* ``reduce`` roots a kernel that takes loop-fusible producers.
- *Epilogue fusion.* A dot whose single consumer kernel is a pure elementwise chain (bias add,
  activation, convert, residual add) writes only the chain's result. A convolution takes an
  epilogue only when it is a *forward* convolution and the chain holds only what cuDNN's fused
  conv-bias-activation runs (scale, bias/side-input add, ReLU, convert): XLA's
  ``cudnn_fused_conv_rewriter`` matches forward cuDNN calls only, so backward-input and
  backward-filter convolutions (`conv_kind`, XLA's ``conv_rewriter``) always write their result.
  ``transpose``, ``reverse`` and ``convert`` producers feeding only dots fold into their
  operands; a convolution takes only ``transpose`` and ``reverse`` (cuDNN reads its operands in
  its own element type, so an operand ``convert`` ends its producer's kernel).
- *Multi-output fusion.* A loop kernel whose result a reduction kernel reads merges into it, and
  sibling loop/reduction kernels over the same iteration space that read one large value merge
  (each joins the first sibling group it can), when no other kernel lies on a path between them
  (XLA's cycle check) and neither uses a reduction result of the other.
- *Boundaries.* Collectives, control flow (``while``/``case``/``if``), ``mhlo.fusion`` (already one
  kernel), ``sort``, ``scatter``, custom calls and every other op are kernels of their own.
  ``func.call`` bodies are inlined (XLA inlines calls before fusing); ``reshape``/``bitcast`` and
  tuple plumbing are views; scalar and splat constants are folded into their users.

Nested regions (``while`` body and condition, ``case`` branches) are planned as scopes of their
own; a ``while`` repeats its kernels ``trip_count`` times (its loop-invariant constants folded,
`scope.sunk_arguments`), a ``case`` keeps its costliest branch.

XLA's GPU-only rewrites (`GpuRules`, on for the GPU node presets): row normalizations as
Triton kernels (`normalization`), ``select_and_scatter`` as its expander's three kernels
(`select_and_scatter`), dot operand converts kept out of cuBLAS GEMMs, reductions too large for
one race-free kernel split into partial reductions (`tree_reduction`), cuDNN's padded
convolution inputs (`convolution.padded_input`), transpose kernels for dot operands stored in a
layout cuBLAS cannot read (`operand_layout`) and duplication weighed with the operand cone
(``duplication_cone``). cuBLAS/cuDNN custom calls
are GEMM, convolution and flash-attention kernels (`hespas_py.kernels.library_calls`); every
kernel has a class (`classes`) for comparison with GPU profiles.

With ``fused_attention``, attention patterns are planned first, each as one flash-attention
kernel forward and one backward (`attention`); the ops they hold are left out of the rules above.

The package, one concern a module: `kernel` (what a kernel is), `scope` (op classes and a scope's
flattened dataflow), `convolution` (cuDNN convolution rules and GEMM shapes), `attention` (flash
attention patterns) with `axes` (the key axis of their scores), `operand_layout` (GEMM operand
layout copies), `rules` (the GPU-only rewrites' switches), `row_tiles` (Triton row tiles XLA
spreads over several heads), `planner` (the fusion decisions) with `multi_output` (sibling
kernels merged; their kernel DAG is a `hespas_py.dag.Dag`) and `cost` (each planned kernel's work
and boundary traffic, nested control flow, and the entry points).
"""

from hespas_py.kernels.classes import (
    CLASSES,
    COPY,
    ELEMENTWISE,
    GATHER,
    GEMM,
    OTHER,
    REDUCE_WINDOW,
    REDUCTION,
    SCATTER,
    kernel_class,
)
from hespas_py.kernels.convolution import (
    CONV_BACKWARD_FILTER,
    CONV_BACKWARD_INPUT,
    CONV_FORWARD,
    channel_efficiency,
    conv_channel_padding,
    conv_kind,
    padded_f16_channels,
    padded_input,
)
from hespas_py.kernels.cost import block_outputs, plan_kernels
from hespas_py.kernels.costs import op_work
from hespas_py.kernels.kernel import FLASH_BACKWARD, FLASH_FORWARD, Kernel, Kind
from hespas_py.kernels.layout_chains import chain_copies
from hespas_py.kernels.linalg_costs import REDUCIBLE_F32
from hespas_py.kernels.op_cycles import PROFILES, cycles, vector_work
from hespas_py.kernels.planner import Planner
from hespas_py.kernels.row_tiles import GIVEN_SUM, ROW_SUM, SOFTMAX, spanned_rows
from hespas_py.kernels.rules import FusionPasses, GpuRules
from hespas_py.kernels.scope import (
    IN_PLACE,
    Node,
    OpClass,
    Scope,
    constant_values,
    sunk_arguments,
)
from hespas_py.kernels.work import TENSOR, Work

__all__ = ["CLASSES", "CONV_BACKWARD_FILTER", "CONV_BACKWARD_INPUT", "CONV_FORWARD", "COPY",
           "ELEMENTWISE", "FLASH_BACKWARD", "FLASH_FORWARD", "FusionPasses", "GATHER",
           "GEMM", "GIVEN_SUM", "GpuRules", "IN_PLACE", "Kernel", "Kind", "Node",
           "OTHER", "OpClass", "PROFILES", "Planner", "REDUCE_WINDOW", "REDUCIBLE_F32",
           "REDUCTION", "ROW_SUM", "SCATTER", "SOFTMAX", "Scope", "TENSOR", "Work",
           "block_outputs", "chain_copies", "channel_efficiency", "constant_values",
           "conv_channel_padding", "conv_kind", "cycles", "kernel_class", "op_work",
           "padded_f16_channels", "padded_input", "plan_kernels", "spanned_rows",
           "sunk_arguments", "vector_work"]
