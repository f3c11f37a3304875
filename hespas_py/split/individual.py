"""``individual_split``: one block per op, optionally with single-parent/single-child chains merged.

Constants: a constant-like op (see `Program.constant`) is not a block of its own. It is placed
in the earliest block (lowest id) among the blocks of its users, so every op sits in exactly one
block and is costed once; later users read it as a block input without a dependency edge. A
constant-like op that no block reads (dead, or only returned) is dropped: it does no work
(`graph.unread_constants`, which `linear_split` drops alike). An
expanded loop is a block of its own (its body is split the same way).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from hespas_py.mlir.ops import Module, Op
from hespas_py.split.blocks import BlockGraph
from hespas_py.split.build import build_graph
from hespas_py.split.combine import Thresholds
from hespas_py.split.graph import Program, block_index


def individual_split(source: Module | Sequence[Op], merge: bool = False,
                     loop_trips: int = 1, combine_threshold: Thresholds | int = 0,
                     collective_rewrites: bool = False) -> BlockGraph:
    """Split into one block per non-constant op; with ``merge``, fuse compute chains.

    Args:
        source: a module (its per-device program is split) or a plain op list (one device).
        merge: fuse every edge ``a -> b`` where ``a`` has one child, ``b`` has one parent and
            both are compute blocks, transitively; collectives are never fused. Fusing only
            contracts edges, so every dependency between remaining blocks is kept and the graph
            stays connected exactly as before.
        loop_trips: iterations of a ``while`` whose trip count the module does not give.
        combine_threshold: bytes up to which independent collectives merge, for every kind
            or per kind (0: none merge; `hespas_py.split.combine.Thresholds`).
        collective_rewrites: apply XLA's collective rewrites first (`hespas_py.split.rewrites`).
    """
    return build_graph(Program.of(source, loop_trips, collective_rewrites),
                       functools.partial(_groups, merge=merge),
                       combine_threshold)


def _groups(program: Program, merge: bool) -> list[list[int]]:
    """The blocks of one program, as op positions."""
    groups = [[p] for p, const in enumerate(program.constant) if not const]
    if merge:
        groups = _merge_chains(program, groups)
    return _attach_constants(program, groups)


def _merge_chains(program: Program, groups: list[list[int]]) -> list[list[int]]:
    """Contract single-child -> single-parent compute edges; groups ordered by first op.

    One pass over the ops' reads counts each group's children and finds its parent when it has
    exactly one (constant-like producers and ops outside every group are no parents)."""
    block_of = block_index(program, groups)
    producer_of, constant, uses = program.producer.get, program.constant, program.uses
    children = [0] * len(groups)
    parent = [-1] * len(groups)  # the group's only parent; -1: none, or several
    for group_id, group in enumerate(groups):
        parents = set()
        for position in group:
            for value in uses[position]:
                source = producer_of(value)
                if source is not None and not constant[source]:
                    parents.add(block_of[source])
        parents.discard(group_id)
        parents.discard(-1)
        for found in parents:
            children[found] += 1
        if len(parents) == 1:
            parent[group_id] = parents.pop()
    compute = [not (len(g) == 1 and (program.collective[g[0]] or g[0] in program.loops))
               for g in groups]
    successor = [-1] * len(groups)
    has_predecessor = [False] * len(groups)
    for child, only in enumerate(parent):
        if only >= 0 and children[only] == 1 and compute[only] and compute[child]:
            successor[only] = child
            has_predecessor[child] = True
    merged = []
    for head in range(len(groups)):
        if has_predecessor[head]:
            continue
        chain: list[int] = []
        node = head
        while node != -1:
            chain.extend(groups[node])
            node = successor[node]
        chain.sort()
        merged.append(chain)
    merged.sort(key=lambda chain: chain[0])
    return merged


def _attach_constants(program: Program, groups: list[list[int]]) -> list[list[int]]:
    """Put each read constant-like op into the lowest-id block among its readers' blocks; the
    constants whose earliest reader is an expanded loop (its initial values) form a block of
    their own just before it."""
    block_of = block_index(program, groups)
    loop_groups = {block_of[p] for p in program.loops}
    before_loop: dict[int, list[int]] = {}
    earliest_reader: dict[int, int] = {}
    constant, uses, producer_of = program.constant, program.uses, program.producer.get
    for position in range(len(program.ops) - 1, -1, -1):
        if constant[position]:
            block_id = earliest_reader.get(position, -1)
            if block_id < 0:
                continue
            block_of[position] = block_id
            if block_id in loop_groups:
                before_loop.setdefault(block_id, []).append(position)
            else:
                groups[block_id].append(position)
        else:
            block_id = block_of[position]
        for value in uses[position]:
            producer = producer_of(value)
            if producer is not None and constant[producer]:
                known = earliest_reader.get(producer, block_id)
                earliest_reader[producer] = min(known, block_id)
    for group in groups:
        group.sort()
    if not before_loop:
        return groups
    return [part for block_id, group in enumerate(groups)
            for part in (sorted(before_loop.get(block_id, ())), group) if part]
