"""Buffers XLA:GPU's rewrites add to a scope's fused program, for `hespas_py.memory.liveness`
(on with `Backend.gpu_buffers`).

Why and how: docs/memory.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hespas_py.kernels import (
    CONV_BACKWARD_FILTER,
    CONV_FORWARD,
    Kind,
    Planner,
    chain_copies,
    conv_kind,
    padded_input,
)
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


def added_buffers(planner: Planner, position: Callable[[int], int],
                  death: dict[int, int], entry: bool = False) -> list[AddedBuffer]:
    """The buffers the rewrites add to the scope ``planner`` planned. ``position``: a kernel's
    (planner group's) place in the schedule; ``death``: per temporary, the last position that
    reads it, shortened here for a padded value: it lives until its other readers and its
    first pad, and not at all when no other kernel reads it and a loop kernel writes it;
    ``entry``: the scope is the entry function (whole-parameter layout copies)."""
    def when(i: int) -> list[int]:
        return [position(g) for g in planner.node_groups[i]]

    pads, moved = padded_inputs(planner, when)
    for key, groups in moved.items():
        writer = planner.writer_group(key)
        if key not in death or writer is None:
            continue
        rest = [position(g) for g in planner.reader_groups(key) if g not in groups]
        if not rest and planner.groups[writer].kind is Kind.LOOP:
            del death[key]
        else:
            death[key] = max(position(writer), min(position(g) for g in groups), *rest)
    return [*pads, *scatter_inits(planner, when), *_layout_copies(planner, position, death)
            ] if entry else [*pads, *scatter_inits(planner, when)]


def _layout_copies(planner: Planner, position: Callable[[int], int],
                   death: dict[int, int]) -> list[AddedBuffer]:
    """The whole-parameter layout copies of the entry scope (see the module docstring); the
    chain's ``dynamic_update_slice`` results are updates of the copy in place (their own
    buffers are dropped from ``death``)."""
    if not planner.rules.cublas_operand_layouts:
        return []
    added = []
    for chain in chain_copies(planner):
        for key in chain.updated:
            death.pop(key, None)
        added.append(AddedBuffer("copy", planner.scope.types[chain.source],
                                 position(chain.first),
                                 max(position(g) for g in {chain.first, *chain.readers})))
    return added


def padded_inputs(planner: Planner, time: Callable[[int], list[int]]
                  ) -> tuple[list[AddedBuffer], dict[int, set[int]]]:
    """The padded convolution inputs of the scope (see the module docstring), and per padded
    value the kernels (planner groups) that read its copy instead of it. ``time``: a node's
    kernel positions."""
    pads: dict[tuple, list[int]] = {}  # (input, padded type, padding, dilation) -> readers
    forward: dict[tuple, tuple] = {}  # (input, result elements, kernel elements) -> its pad
    filters: list[int] = []
    for i, node in enumerate(planner.nodes):
        if node.op.short_name != "convolution" or not planner.node_groups[i]:
            continue
        kind = conv_kind(node.op, planner.reversed_kernel(i))
        if kind == CONV_FORWARD and (padded := padded_input(node.op, kind)) is not None:
            pad = (node.inputs[0], padded, node.op.attrs.get("padding"),
                   node.op.attrs.get("lhs_dilation"))
            pads.setdefault(pad, []).append(i)
            forward.setdefault((node.inputs[0], node.op.result_types[0].num_elements,
                                node.op.operand_types[1].num_elements), pad)
        elif kind == CONV_BACKWARD_FILTER:
            filters.append(i)
    for i in filters:
        node = planner.nodes[i]
        found = forward.get((node.inputs[0], node.op.operand_types[1].num_elements,
                             node.op.result_types[0].num_elements))
        if found is not None:
            pads[found].append(i)
    added: list[AddedBuffer] = []
    moved: dict[int, set[int]] = {}
    for (key, padded, _, _), nodes in pads.items():
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
    spans: dict[tuple, tuple[int, int]] = {}  # (value, type) -> (written, last copied)
    for i, node in enumerate(planner.nodes):
        if node.op.short_name != "select_and_scatter" or len(node.inputs) < 3 \
                or node.inputs[2] not in values or not time(i):
            continue
        init = (values[node.inputs[2]], _sliced(planner, node.outputs[0])
                or node.op.operand_types[0])
        at = min(time(i))
        before = [t for b in broadcasts.get(init, ()) for t in time(b) if t < at]
        if before:  # one buffer (CSE) for every scatter of it
            written, last = spans.get(init, (min(before), at))
            spans[init] = (min(written, *before), max(last, at))
    return [AddedBuffer("broadcast_in_dim", vtype, written, last)
            for (_, vtype), (written, last) in spans.items()]


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
