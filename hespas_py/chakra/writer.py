"""Per-device Chakra traces from a block graph and its compute estimates.

Why and how: docs/traces.md.
"""

from __future__ import annotations

import errno
import functools
import json
import marshal
import math
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path

from hespas_py.chakra.encoder import Comm, CompCosts, Plan, TraceEncoder, place
from hespas_py.chakra.files import COMM_GROUP_FILE, trace_name
from hespas_py.chakra.groups import DeviceLayout, grouping
from hespas_py.chakra.schema import CollectiveCommType, NodeType
from hespas_py.chakra.symmetric import SYMMETRIC_FROM, one_placement, write_symmetric
from hespas_py.checks import TRACE_INT_MAX
from hespas_py.errors import HespasError
from hespas_py.estimators.base import Estimate
from hespas_py.forking import Forked, marshalled, max_jobs, shares
from hespas_py.mlir.ops import Op
from hespas_py.split.blocks import Block, BlockGraph

#: Chakra collective type of each group collective (short op name).
COMM_TYPES: dict[str, CollectiveCommType] = {
    "all_reduce": CollectiveCommType.ALL_REDUCE,
    "all_gather": CollectiveCommType.ALL_GATHER,
    "reduce_scatter": CollectiveCommType.REDUCE_SCATTER,
    "all_to_all": CollectiveCommType.ALL_TO_ALL,
    "collective_broadcast": CollectiveCommType.BROADCAST,
}
_PERMUTE = "collective_permute"
#: Fewest distinct traces worth a forked writer (`write_traces`).
_TRACES_PER_JOB = 32
_SEND, _RECV, _COLL = NodeType.COMM_SEND_NODE, NodeType.COMM_RECV_NODE, NodeType.COMM_COLL_NODE
#: What ``link(2)`` fails with when a file has all the links it may have, or the file system
#: has no hard links.
_NO_MORE_LINKS = frozenset({errno.EMLINK, errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP})


def durations_micros(times_s: Sequence[float]) -> list[int]:
    """Whole-microsecond durations whose running sums track the exact running sums of ``times_s``.

    Each is ``round(T_i) - round(T_{i-1})`` with ``T_i`` the running total in microseconds, so
    no time is lost to per-node rounding and the sum is ``round(sum(times_s) * 1e6)``.
    """
    out = []
    total = 0.0
    emitted = 0
    for t in times_s:
        total += t * 1e6
        whole = round(total)
        out.append(whole - emitted)
        emitted = whole
    return out


@dataclass(frozen=True)
class TraceSet:
    """What `write_traces` wrote.

    Attributes:
        num_devices: traces written (one per device).
        files: distinct trace files (the others are hard links to them).
        nodes: node count per node type name, per device (device -> {type name: count}).
        comm_groups: group id -> device ids, as in ``comm_group.json``.
        total_micros: sum of ``duration_micros`` over one device's compute nodes.
    """

    num_devices: int
    files: int
    nodes: dict[int, dict[str, int]]
    comm_groups: dict[int, tuple[int, ...]]
    total_micros: int


def collective_bytes(block: Block) -> int:
    """Bytes a collective block's ops read: its message size (Chakra's ``comm_size``; a combined
    collective's ops share their groups and kind, their messages add up)."""
    return sum(t.nbytes for op in block.ops for t in op.operand_types)


def _check_fits(graph: BlockGraph, block: Block, what: str, value: float) -> None:
    """`HespasError` when a block's figure is not finite, negative, or too large for the trace."""
    if math.isfinite(value) and 0 <= value <= TRACE_INT_MAX:
        return
    raise HespasError(f"{graph.source}: block {block.id} ({block.label}): its {what} ({value:.4g}) "
                      f"is not a trace value (finite, 0 to 2^63 - 1): its tensors are too large "
                      "or the node config's rates too small")


def _all_fit(values: Sequence[float]) -> bool:
    """Whether every value passes `_check_fits` (at C speed: a NaN or an infinity makes the sum
    so, and no trace value's sum comes near the float range's end)."""
    return not values or (math.isfinite(sum(values)) and min(values) >= 0
                          and max(values) <= TRACE_INT_MAX)


def _plan(graph: BlockGraph, layout: DeviceLayout) -> tuple[Plan, dict[tuple[int, ...], int]]:
    """Per collective block, each device's communication nodes; and the group registry."""
    registry: dict[tuple[int, ...], int] = {}
    plan: Plan = {}
    # Collectives with the same groups (or pairs) and message size get the same roles: worked
    # out once. Ops of one kind, attribute dict and operand types (the reader shares equal ones;
    # the graph keeps them alive, so ids are stable) are known alike without looking further.
    alike: dict[tuple, list[tuple[Comm, ...]]] = {}
    known: dict[tuple, list[tuple[Comm, ...]]] = {}
    for block in graph.blocks:
        if not block.collective:
            continue
        op = block.ops[0]
        key = (op.name, id(op.attrs), *(id(t) for o in block.ops for t in o.operand_types))
        roles = known.get(key)
        if roles is None:
            size = collective_bytes(block)
            _check_fits(graph, block, "message size in bytes", size)
            same = (grouping(op), size)
            roles = alike.get(same)
            if roles is None:
                roles = alike[same] = _roles(graph, op, size, layout, registry)
            known[key] = roles
        plan[block.id] = roles
    return plan, registry


def _roles(graph: BlockGraph, op: Op, size: int, layout: DeviceLayout,
           registry: dict[tuple[int, ...], int]) -> list[tuple[Comm, ...]]:
    """Each device's communication nodes for collective ``op`` of ``size`` bytes; groups new to
    ``registry`` get the next group id. All devices of a group share one role tuple, so that
    equal roles are one object."""
    roles: list[tuple[Comm, ...]] = [()] * layout.num_devices
    if op.short_name == _PERMUTE:
        sends: dict[int, list[Comm]] = {}
        receives: dict[int, list[Comm]] = {}
        for src, dst in layout.pairs(op):
            if src != dst:
                sends.setdefault(src, []).append(Comm(_SEND, size, 0, 0, src, dst))
                receives.setdefault(dst, []).append(Comm(_RECV, size, 0, 0, src, dst))
        for device in sends.keys() | receives.keys():  # sends first
            roles[device] = (*sends.get(device, ()), *receives.get(device, ()))
    elif op.short_name in COMM_TYPES:
        comm_type = int(COMM_TYPES[op.short_name])
        for group in layout.groups(op):
            if len(group) < 2:
                continue
            pg = registry.setdefault(group, len(registry) + 1)
            role = (Comm(_COLL, size, comm_type, pg, 0, 0),)
            for device in group:
                roles[device] = role
    else:
        raise HespasError(f"{graph.source}: no Chakra node type for {op.name}")
    return roles


def _distinct(plan: Plan) -> list[list[tuple[Comm, ...]]]:
    """The distinct role lists of a plan (blocks of one kind share theirs), in block order."""
    return list({id(roles): roles for roles in plan.values()}.values())


def _alike(distinct: list[list[tuple[Comm, ...]]], num_devices: int) -> list[list[int]]:
    """The devices, grouped by their roles in every collective (devices of a group have
    identical traces), in order of their first device."""
    if not distinct:
        return [list(range(num_devices))]
    # Equal roles are one object (`_plan`): a device's signature is the ids of its roles.
    by_signature: dict[tuple[int, ...], list[int]] = {}
    signatures = zip(*[list(map(id, roles)) for roles in distinct], strict=True)
    for device, signature in enumerate(signatures):
        by_signature.setdefault(signature, []).append(device)
    return list(by_signature.values())


def _replicate(original: str, paths: Sequence[str]) -> None:
    """Hard links to ``original`` at ``paths``. Where the file system refuses one more link to a
    file (its limit: ext4 takes 65,000) or hard links at all, that path gets a copy, and the
    following paths are linked to the copy."""
    source = original
    for path in paths:
        try:
            os.link(source, path)
        except FileExistsError:  # left by a forked writer that failed (`write_traces`)
            os.unlink(path)
            os.link(source, path)
        except OSError as error:
            if error.errno not in _NO_MORE_LINKS:
                raise
            shutil.copyfile(source, path)
            source = path


def write_traces(out_dir: Path, graph: BlockGraph, estimates: Sequence[Estimate | None],
                 layout: DeviceLayout) -> TraceSet:
    """Write ``dev.<i>.et`` for every device and ``comm_group.json`` into ``out_dir``.

    ``estimates[i]`` is block ``i``'s estimate (None for collective blocks). Many distinct traces
    are written in shares by forked children (`hespas_py.forking`), or here if one fails; from
    `SYMMETRIC_FROM` distinct traces of devices that all have device 0's nodes, only device 0's
    and the others' groups and peers (`hespas_py.chakra.symmetric`).
    """
    compute = [b for b in graph.blocks if not b.collective]
    costs = []
    for block in compute:
        estimate = estimates[block.id]
        assert estimate is not None, "every compute block has an estimate"
        costs.append(estimate)
    times = [e.time_s for e in costs]
    flops = [e.flops for e in costs]
    nbytes = [e.bytes for e in costs]
    if not all(map(_all_fit, (times, flops, nbytes))):
        for block, estimate in zip(compute, costs, strict=True):
            for what, value in (("time", estimate.time_s), ("FLOPs", estimate.flops),
                                ("bytes", estimate.bytes)):
                _check_fits(graph, block, what, value)
    micros = durations_micros(times)
    if not _all_fit(micros):
        for block, m in zip(compute, micros, strict=True):
            _check_fits(graph, block, "duration in microseconds", m)
    comp_costs = {b.id: (m, round(f), round(n))
                  for b, m, f, n in zip(compute, micros, flops, nbytes, strict=True)}
    plan, registry = _plan(graph, layout)
    distinct = _distinct(plan)
    classes = _alike(distinct, layout.num_devices)
    jobs = max_jobs()
    if len(classes) >= SYMMETRIC_FROM and one_placement(distinct, layout.num_devices):
        kinds = write_symmetric(out_dir, graph, plan, distinct, comp_costs, layout.num_devices,
                                jobs)
        counts = dict.fromkeys(range(layout.num_devices), kinds)
        classes = [list(range(layout.num_devices))]
    else:
        counts = _write_classes(out_dir, graph, plan, distinct, comp_costs, classes, jobs)
    groups = {gid: group for group, gid in registry.items()}
    (out_dir / COMM_GROUP_FILE).write_text(
        json.dumps({str(gid): list(g) for gid, g in groups.items()}) + "\n")
    return TraceSet(num_devices=layout.num_devices, files=len(classes),
                    nodes=dict(sorted(counts.items())), comm_groups=groups,
                    total_micros=sum(micros))


def _write_classes(out_dir: Path, graph: BlockGraph, plan: Plan, distinct: list[list[tuple]],
                   comp_costs: CompCosts, classes: list[list[int]], jobs: int
                   ) -> dict[int, dict[str, int]]:
    """Write a trace per class of devices with identical traces (hard links for the others),
    many classes in shares by forked children; each device's node count per type name."""
    parts = shares(len(classes), max(1, min(jobs, len(classes) // _TRACES_PER_JOB)))
    write = functools.partial(_write_share, out_dir, graph, plan, distinct, comp_costs,
                              jobs if len(parts) == 1 else 1)
    children = [Forked(functools.partial(marshalled, write, classes[start:stop]))
                for start, stop in parts[1:]]
    counts = write(classes[:parts[0][1]])
    for child, (start, stop) in zip(children, parts[1:], strict=True):
        data = child.result()
        counts.update(write(classes[start:stop]) if data is None else marshal.loads(data))
    return counts


def _write_share(out_dir: Path, graph: BlockGraph, plan: Plan, distinct: list[list[tuple]],
                 comp_costs: CompCosts, jobs: int, classes: list[list[int]]
                 ) -> dict[int, dict[str, int]]:
    """Write the traces of ``classes`` (devices with identical traces, `_alike`); each device's
    node count per type name."""
    counts: dict[int, dict[str, int]] = {}
    encoders: dict[tuple[int, ...], TraceEncoder] = {}
    for devices in classes:
        first = devices[0]
        shape = tuple(map(len, map(itemgetter(first), distinct)))  # decides the placement
        encoder = encoders.get(shape)
        if encoder is None:
            encoder = encoders[shape] = TraceEncoder(place(graph, plan, first), comp_costs, jobs)
        data, kinds = encoder.trace(plan, first)
        path = os.path.join(out_dir, trace_name(first))
        with open(path, "wb") as stream:
            stream.write(data)
        _replicate(path, [os.path.join(out_dir, trace_name(device)) for device in devices[1:]])
        counts.update(dict.fromkeys(devices, {NodeType(k).name: n for k, n in kinds.items()}))
    return counts
