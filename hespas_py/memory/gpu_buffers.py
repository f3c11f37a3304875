"""Buffers XLA:GPU's rewrites add to a scope's fused program, for `hespas_py.memory.liveness`
(on with `Backend.gpu_buffers`).

- Padded convolution inputs. cuDNN reads a forward convolution's input as a padded copy where
  XLA pads it (`convolution.padded_input`: uneven window padding, ``ConvPaddingLegalization``;
  channels for tensor cores, ``CudnnPadForConvolutions``). ``GpuConvRewriter``
  (``xla/service/gpu/transforms/conv_rewriter.cc``) gives the filter gradient of that
  convolution (a backward-filter convolution of the same input whose other operand has the
  forward result's elements and whose result has its kernel's) the forward window, so it is
  padded alike and HLO CSE (``xla/service/hlo_cse.cc``) merges the two pads: one copy, written
  where the first of them runs, live until the last (the measured ResNet steps' optimized HLO:
  ``loop_pad_fusion.2`` f16[256,57,57,64] read by ``cudnn-conv.30`` in the forward pass and
  ``cudnn-conv-bw-filter.28`` in the backward pass). The input itself is then read by its
  other kernels only; a loop kernel's result that nothing else reads is never written (the pad
  kernel computes it: the stem's f16 images exist only padded).
- The initial value of an expanded ``select_and_scatter``. ``SelectAndScatterExpander``
  (``xla/service/select_and_scatter_expander.cc``) scatters the source into a broadcast of the
  init value to the operand's shape. HLO CSE merges it with an identical broadcast the step
  already has (a max pooling's ReLU, ``max(x, broadcast(0))``, feeds the pooling whose gradient
  this is). A scatter whose result is read only by slices from its start writes only that part
  (``ScatterSliceSimplifier``, ``xla/service/gpu/transforms/scatter_slice_simplifier.cc``: the
  gradient of a max pooling padded at the high end), so the init broadcast has the slices'
  shape. The loop kernel reading it first writes it too (multi-output fusion,
  ``xla/service/gpu/transforms/multi_output_fusion.cc``), and it stays live until the scatter,
  which updates a copy of it in place (copy insertion, ``xla/service/copy_insertion.cc``: the
  measured ResNet steps' ``loop_broadcast_maximum_fusion{1}``, f16[256,112,112,64], copied by
  ``copy.181`` for ``input_scatter_fusion``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from hespas_py.estimate.fusion.convolution import CONV_BACKWARD_FILTER, CONV_FORWARD, \
    conv_kind, padded_input
from hespas_py.estimate.fusion.planner import Planner
from hespas_py.mlir.ops import TensorType


@dataclass(frozen=True, slots=True)
class AddedBuffer:
    """A buffer a rewrite adds.

    Attributes:
        op: the op that writes it (``pad``, ``broadcast_in_dim``).
        type: its type.
        birth: the kernel position that writes it.
        death: the last kernel position that reads it.
    """

    op: str
    type: TensorType
    birth: int
    death: int


def padded_inputs(planner: Planner, time: Callable[[int], list[int]]
                  ) -> tuple[list[AddedBuffer], dict[int, set[int]]]:
    """The padded convolution inputs of the scope (see the module docstring), and per padded
    value the kernels (planner groups) that read its copy instead of it. ``time``: a node's
    kernel positions."""
    forward: dict[tuple, tuple[int, TensorType]] = {}  # (input, result, kernel) -> pad
    filters: list[int] = []
    for i, node in enumerate(planner.nodes):
        if node.op.short_name != "convolution" or not planner.node_groups[i]:
            continue
        kind = conv_kind(node.op, planner.reversed_kernel(i))
        if kind == CONV_FORWARD and (padded := padded_input(node.op, kind)) is not None:
            match = (node.inputs[0], node.op.result_types[0].num_elements,
                     node.op.operand_types[1].num_elements)
            forward.setdefault(match, (i, padded))
        elif kind == CONV_BACKWARD_FILTER:
            filters.append(i)
    readers: dict[tuple[int, TensorType], list[int]] = {}
    for i in filters:
        node = planner.nodes[i]
        match = (node.inputs[0], node.op.operand_types[1].num_elements,
                 node.op.result_types[0].num_elements)
        if match in forward:
            readers.setdefault((node.inputs[0], forward[match][1]), []).append(i)
    for (key, _, _), (i, padded) in forward.items():
        readers.setdefault((key, padded), []).append(i)
    added, moved = [], {}
    for (key, padded), nodes in readers.items():
        times = [t for i in nodes for t in time(i)]
        added.append(AddedBuffer("pad", padded, min(times), max(times)))
        moved.setdefault(key, set()).update(g for i in nodes for g in planner.node_groups[i])
    return added, moved


def scatter_inits(planner: Planner, time: Callable[[int], list[int]]) -> list[AddedBuffer]:
    """The broadcast init values of expanded ``select_and_scatter`` ops merged with an earlier
    identical broadcast (see the module docstring). ``time``: a node's kernel positions."""
    values = planner.scope.values
    broadcasts: dict[tuple, list[int]] = {}  # (value, type) -> nodes broadcasting it
    for i, node in enumerate(planner.nodes):
        if node.op.short_name == "broadcast_in_dim" and node.inputs \
                and node.inputs[0] in values and node.op.result_types:
            broadcasts.setdefault((values[node.inputs[0]], node.op.result_types[0]),
                                  []).append(i)
    added = []
    for i, node in enumerate(planner.nodes):
        if node.op.short_name != "select_and_scatter" or len(node.inputs) < 3 \
                or node.inputs[2] not in values or not time(i):
            continue
        operand = _sliced(planner, node.outputs[0]) or node.op.operand_types[0]
        at = min(time(i))
        before = [t for b in broadcasts.get((values[node.inputs[2]], operand), ())
                  for t in time(b) if t < at]
        if before:
            added.append(AddedBuffer("broadcast_in_dim", operand, min(before), at))
    return added


def _sliced(planner: Planner, key: int) -> TensorType | None:
    """The type of the slices that read ``key`` when all its readers are such slices from its
    start (unit strides) of one type, else None (``ScatterSliceSimplifier``)."""
    users = [planner.nodes[u].op for u in dict.fromkeys(planner.users.get(key, ()))]
    if not users or not all(op.short_name == "slice" and not any(op.attrs.get(
            "start_indices", (1,))) and all(s == 1 for s in op.attrs.get("strides", ()))
            for op in users):
        return None
    types = {op.result_types[0] for op in users}
    return types.pop() if len(types) == 1 else None
