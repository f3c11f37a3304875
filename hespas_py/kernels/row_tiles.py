"""The tiles of a Triton row kernel that spans several rows of a broadcast dimension.

Rules and sources: docs/kernels.md."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from hespas_py.hardware.params import ROW_TILE_CLASSES
from hespas_py.kernels.normalization import MAX_BLOCK_REGISTERS, reduces_last

if TYPE_CHECKING:
    from hespas_py.kernels.planner import Planner

#: Most elements of a padded Triton tile: the largest power of two within 0.4 of one thread
#: block's registers (``DoesTileFitInRegisters``).
REGISTER_TILE = 1 << (int(0.4 * MAX_BLOCK_REGISTERS).bit_length() - 1)

#: What the kernel computes after its row reductions, named for the microbenchmark case that
#: measures it: a score-sized value from two chained row reductions (the softmax forward's
#: probabilities, the score gradient), two chained row reductions with row-sized results only
#: (the row sum of ``exp(x - max)``), one row reduction on any chain (probabilities from a
#: saved sum).
#: (The keys of the presets' ``spanning_row_tile_s``, declared with it.)
CLASSES = SOFTMAX, ROW_SUM, GIVEN_SUM = ROW_TILE_CLASSES


def _padded(n: int) -> int:
    return 1 << max(n - 1, 0).bit_length()


def _broadcast_rows(planner: Planner, members: list[int], shape: tuple[int, ...]) -> int:
    """The product of the leading dimensions of ``shape`` that a member broadcast with that
    result shape replicates its operand along (a dimension it lacks, or has as size 1), the
    operand keeping the query row and the row
    (a mask ``[S, S]`` over ``[heads, S, S]``); 1 when none. An operand replicated along the
    query rows too (a layer norm's scale) costs every tiling alike, and XLA's search keeps the
    first it lists, which spans query rows."""
    rows = 1
    for m in members:
        op = planner.nodes[m].op
        if op.short_name != "broadcast_in_dim" or op.result_types[0].shape != shape:
            continue
        dims = tuple(op.attrs.get("dimensions", ()))
        last = len(shape) - 1
        if any(d not in dims or op.operand_types[0].shape[dims.index(d)] != shape[d]
               for d in (last - 1, last)):
            continue
        along = 1
        for d in range(last - 1):  # the leading dimensions: not the query row, not the row
            if d not in dims or op.operand_types[0].shape[dims.index(d)] == 1:
                along *= shape[d]
        rows = max(rows, along)
    return rows


def _chain_class(planner: Planner, members: list[int], reduces: set[int],
                 elements: int) -> str:
    """`CLASSES` entry of a kernel: how many row reductions its longest chain passes, and
    whether a score-sized value comes after two of them."""
    depth: dict[int, int] = {}  # member -> row reductions on its longest chain in the kernel
    for m in members:  # program order: producers first; a producer outside counts 0
        below = max((depth.get(planner.producer.get(k, -1), 0) for k in planner.nodes[m].inputs),
                    default=0)
        depth[m] = below + (m in reduces)
    if any(depth[m] >= 2 and planner.nodes[m].op.result_types
           and planner.nodes[m].op.result_types[0].num_elements == elements for m in members):
        return SOFTMAX
    return ROW_SUM if max(depth.values()) >= 2 else GIVEN_SUM


def spanned_rows(heads: int, row: int) -> int | None:
    """Broadcast rows (heads) XLA's tile spans for rows of ``row`` elements, when the tile holds
    one row of each (at the register cap); None when it is filled with query rows instead."""
    cap = REGISTER_TILE // _padded(row)
    spanned = min(heads & -heads, cap)  # the largest power of two dividing ``heads``
    return spanned if cap >= 2 and spanned == cap else None


def spanning_tiles(planner: Planner, members: list[int]) -> tuple[str, int] | None:
    """(`CLASSES` entry, tiles) of the Triton row kernel of ``members`` (sorted node indices)
    when XLA's tile holds one row of each of several broadcast rows; None otherwise."""
    reduces = {m for m in members if planner.nodes[m].op.short_name == "reduce"
               and reduces_last(planner.nodes[m].op)
               and len(planner.nodes[m].op.operand_types[0].shape) >= 3}
    if not reduces:
        return None
    shape = max((planner.nodes[m].op.operand_types[0].shape for m in reduces),
                key=lambda s: (len(s), s))
    spanned = spanned_rows(_broadcast_rows(planner, members, shape), shape[-1])
    if spanned is None:
        return None
    elements = math.prod(shape)
    return (_chain_class(planner, members, reduces, elements),
            elements // shape[-1] // spanned)
