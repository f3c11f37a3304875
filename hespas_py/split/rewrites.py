"""XLA's collective rewrites, applied to the per-device program before it is split.

Why and how: docs/split.md.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence

from hespas_py.mlir.ops import Op, scalar_int
from hespas_py.split.device_offsets import IdMap, Offsets, Producers
from hespas_py.split.program import Flat, PerDeviceProgram

REDUCE_SCATTER_CREATOR = "reduce_scatter_creator"
#: The rewrites, in the order XLA's GPU pipeline runs them (`module_stats.json` counts each).
REWRITES = (REDUCE_SCATTER_CREATOR,)

_ALL_REDUCES = frozenset({"stablehlo.all_reduce", "mhlo.all_reduce"})
_RESHAPES = frozenset({"stablehlo.reshape", "mhlo.reshape"})


def rewrite_program(program: PerDeviceProgram, num_replicas: int, num_partitions: int
                    ) -> tuple[PerDeviceProgram, dict[str, int]]:
    """``program`` with XLA's collective rewrites applied (module docstring) and how many ops
    each rewrote (a loop body counted once). ``num_replicas``, ``num_partitions``: the module's
    (1 where it does not say)."""
    counts = dict.fromkeys(REWRITES, 0)
    top = _rewrite_flat(program.top, None, num_replicas, num_partitions, counts)
    return dataclasses.replace(program, top=top), counts


def _rewrite_flat(flat: Flat, outer: Producers | None, replicas: int, partitions: int,
                  counts: dict[str, int]) -> Flat:
    """``flat`` rewritten, its expanded loop bodies included; ``outer``: the producers of the
    values of the sequences around it."""
    slots: list[Op | None] = list(flat.ops)
    readers = _readers(flat.ops, flat.yielded)
    producer = Producers(slots, outer)
    done = _create_reduce_scatters(slots, readers, producer, replicas, partitions) if readers else 0
    counts[REDUCE_SCATTER_CREATOR] += done
    ops = flat.ops
    loops = dict(flat.loops)
    if done:  # the whiles stay, at new positions
        by_op = {id(flat.ops[p]): loop for p, loop in flat.loops.items()}
        ops = tuple(op for op in slots if op is not None)
        loops = {p: by_op[id(op)] for p, op in enumerate(ops) if id(op) in by_op}
    changed = bool(done)
    for position, loop in loops.items():
        body = _rewrite_flat(loop.body, producer, replicas, partitions, counts)
        if body is not loop.body:
            loops[position] = dataclasses.replace(loop, body=body)
            changed = True
    return dataclasses.replace(flat, ops=ops, loops=loops) if changed else flat


def _readers(ops: Sequence[Op], yielded: Sequence[int]) -> dict[int, list[int]]:
    """Positions of the ops reading each all-reduce result and each reshape of one (a yielded
    value is also read, at position -1); empty without all-reduces."""
    readers: dict[int, list[int]] = {}
    get = readers.get
    for position, op in enumerate(ops):
        if readers:
            for value in (*op.operands, *op.captures) if op.captures else op.operands:
                found = get(value)
                if found is not None and (not found or found[-1] != position):
                    found.append(position)
                    if op.name in _RESHAPES:
                        readers.update((r, []) for r in op.results)
        if op.name in _ALL_REDUCES:
            readers.update((r, []) for r in op.results)
    for value in yielded:
        if value in readers:
            readers[value].append(-1)
    return readers


def _only_reader(readers: Mapping[int, list[int]], value: int) -> int | None:
    found = readers.get(value, ())
    return found[0] if len(found) == 1 and found[0] >= 0 else None


# --- ReduceScatterCreator --------------------------------------------------------------------

def _create_reduce_scatters(ops: list[Op | None], readers: Mapping[int, list[int]],
                            producer: Producers, replicas: int, partitions: int) -> int:
    """Rewrite every match in ``ops`` in place (a removed op becomes None); how many."""
    done = 0
    for position, op in enumerate(ops):
        if op is None or op.name not in _ALL_REDUCES:
            continue
        found = _match_reduce_scatter(op, ops, readers, producer, replicas, partitions)
        if found is None:
            continue
        split_dim, group_size, reshape_at, slice_at = found
        sliced = ops[slice_at]
        assert sliced is not None, "a matched slice is still in place"
        attrs = {key: value for key, value in op.attrs.items()
                 if key in ("replica_groups", "channel_handle", "use_global_device_ids")}
        ops[position] = dataclasses.replace(
            op, name=op.name.rpartition(".")[0] + ".reduce_scatter", results=sliced.results,
            result_types=sliced.result_types, attrs={**attrs, "scatter_dimension": split_dim})
        ops[slice_at] = None
        if reshape_at is not None:
            ops[reshape_at] = None
        done += 1
    return done


def _match_reduce_scatter(op: Op, ops: Sequence[Op | None], readers: Mapping[int, list[int]],
                          producer: Producers, replicas: int, partitions: int
                          ) -> tuple[int, int, int | None, int] | None:
    """``MatchReduceScatter`` for the all-reduce ``op``: (split dimension of its result, group
    size, position of the reshape or None, position of the dynamic slice), or None."""
    if len(op.operands) != 1 or len(op.results) != 1 or not op.result_types[0].is_array:
        return None
    result = op.result_types[0]
    if sum(d != 1 for d in result.shape) < 1:
        return None
    groups = op.attrs.get("replica_groups", ())
    if groups and len({len(g) for g in groups}) != 1:
        return None
    at = _only_reader(readers, op.results[0])
    reshape_at, source = None, op
    reshape = None if at is None else ops[at]
    if reshape is not None and reshape.short_name == "reshape":
        reshape_at, at, source = at, _only_reader(readers, reshape.results[0]), reshape
    if at is None:
        return None
    sliced = ops[at]
    if sliced is None or sliced.short_name != "dynamic_slice":
        return None
    if sliced.operands[0] != source.results[0]:
        return None
    mode = _id_mode(op, groups, producer, replicas, partitions)
    if mode is None:
        return None
    group_size, id_map, iota_group = mode
    if group_size < 2:
        return None
    full, part = sliced.operand_types[0].shape, sliced.result_types[0].shape
    split_dim = _split_dim(full, part, sliced.operands[1:], producer)
    if split_dim is None or full[split_dim] // part[split_dim] != group_size:
        return None
    offsets = Offsets(producer, id_map, groups, group_size, iota_group)
    if not offsets.per_id(sliced.operands[1 + split_dim], part[split_dim]):
        return None
    if reshape_at is not None:
        unmodified = _unmodified_dims(result.shape, full)
        if split_dim not in unmodified:
            return None
        split_dim = unmodified[split_dim]
    if result.shape[split_dim] % group_size:
        return None
    return split_dim, group_size, reshape_at, at


def _id_mode(op: Op, groups: Sequence[Sequence[int]], producer: Producers,
             replicas: int, partitions: int) -> tuple[int, IdMap, bool] | None:
    """(group size, the device-id map, whether group j is device j) for ``op``, by
    ``MatchWithDynamicSlice``'s three cases; None where XLA gives up."""
    if "channel_handle" not in op.attrs:
        size = len(groups[0]) if groups else replicas
        return size, lambda o, i: i if o.short_name == "replica_id" else -1, not groups
    if op.attrs.get("use_global_device_ids"):
        if not groups:
            return None
        orthogonal = _orthogonal(groups, partitions)

        def global_id(o: Op, i: int) -> int:
            if o.short_name == "replica_id":
                return i if partitions == 1 else -1
            if o.short_name == "partition_id":
                return i if replicas == 1 else (i % partitions if orthogonal else -1)
            if o.short_name == "add":  # partition_id + replica_id * partitions
                a, b = (producer.get(v) for v in o.operands)
                if _flattened_id(a, b, producer, partitions) or _flattened_id(b, a, producer,
                                                                               partitions):
                    return i
            return -1
        return len(groups[0]), global_id, False
    if len(groups) != replicas or any(len(g) != 1 for g in groups):
        return None
    return partitions, lambda o, i: i if o.short_name == "partition_id" else -1, True


def _flattened_id(partition: Op | None, product: Op | None, producer: Producers,
                  partitions: int) -> bool:
    """Whether ``partition`` is ``partition_id`` and ``product`` is ``replica_id * partitions``."""
    if partition is None or partition.short_name != "partition_id" or product is None \
            or product.short_name != "multiply":
        return False
    a, b = (producer.get(v) for v in product.operands)
    return any(x is not None and x.short_name == "replica_id" and scalar_int(y) == partitions
               for x, y in ((a, b), (b, a)))


def _orthogonal(groups: Sequence[Sequence[int]], partitions: int) -> bool:
    """Whether every partition sits at one position of its groups, in groups of one replica."""
    index: dict[int, int] = {}
    for group in groups:
        for i, device in enumerate(group):
            partition = device % partitions
            if index.setdefault(partition, i) != i or device // partitions != group[0] // partitions:
                return False
    return True


def _split_dim(full: Sequence[int], part: Sequence[int], offsets: Sequence[int],
               producer: Producers) -> int | None:
    """``ExtractSplitDimSpec`` with one split dimension allowed."""
    differing = [d for d, (a, b) in enumerate(zip(full, part, strict=True)) if a != b]
    if len(differing) == 1:
        return differing[0]
    split = [d for d in range(len(full))
             if full[d] != 1 and scalar_int(producer.get(offsets[d])) != 0]
    return split[0] if len(split) == 1 else None


def _unmodified_dims(before: Sequence[int], after: Sequence[int]) -> dict[int, int]:
    """``ShapeUtil::DimensionsUnmodifiedByReshape``: dimension of ``after`` -> the dimension of
    ``before`` it is, for the dimensions a reshape leaves alone (alone in their common-factor
    group on both sides)."""
    bounds = [(0, 0)]
    i = j = 0
    size_a = size_b = 1
    while i < len(before) or j < len(after):
        if j == len(after) or (i < len(before) and (size_a < size_b or (
                size_a == size_b and before[i] <= after[j]))):
            grow_b = size_a == size_b and j < len(after) and before[i] == after[j]
            size_a *= before[i]
            i += 1
            if grow_b:
                size_b *= after[j]
                j += 1
        else:
            size_b *= after[j]
            j += 1
        if size_a == size_b:
            bounds.append((i, j))
    unmodified = {}
    for (i0, j0), (i1, j1) in itertools.pairwise(bounds):
        if i1 - i0 == 1 and j1 - j0 == 1:
            unmodified[j0] = i0
    return unmodified


__all__ = ["REDUCE_SCATTER_CREATOR", "REWRITES", "rewrite_program"]
