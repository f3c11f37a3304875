"""Per-device Chakra traces from a block graph and its compute estimates.

One node per block, in block order, node ids from 0, ``data_deps`` = the block's deps:

- compute block -> ``COMP_NODE`` named by its ops (``convolution+add+maximum``), with
  ``duration_micros``, ``num_ops`` (FLOPs) and ``tensor_size`` (bytes). Durations carry their
  sub-microsecond remainders from node to node (each is the difference of the rounded running
  total), so the trace's total equals the estimate's total rounded to 1 us.
- group collective -> ``COMM_COLL_NODE`` with ``comm_type``, ``comm_size`` (bytes per rank, the
  ASTRA-sim convention, which for every supported collective is the op's operand bytes: the full
  buffer of an all-reduce, the input shard of an all-gather, the pre-scatter input of a
  reduce-scatter, the per-rank buffer of an all-to-all) and ``pg_name`` (its group's id in
  ``comm_group.json``; ids from 1, one per distinct group of two or more devices).
- ``collective_permute`` -> a ``COMM_SEND_NODE`` on each source and a ``COMM_RECV_NODE`` on each
  target (``comm_src``, ``comm_dst``, ``comm_tag`` = the block id), ``comm_size`` = operand bytes.

A device alone in its group (or outside every group, or not in any permute pair) does no
communication for that collective: it gets no node, and blocks that read the collective depend on
what the collective depended on. Devices whose node lists are identical share one file: it is
written once and hard-linked (``dev.<i>.et``).
"""

from __future__ import annotations

import functools
import io
import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

from hespas_py.chakra.files import COMM_GROUP_FILE, trace_name
from hespas_py.chakra.groups import DeviceLayout
from hespas_py.chakra.io import write_nodes, write_trace
from hespas_py.chakra.nodes import collective, comp, point_to_point
from hespas_py.chakra.schema import CollectiveCommType, Node, NodeType
from hespas_py.errors import HespasError
from hespas_py.estimate.base import Estimate
from hespas_py.fast_init import fast_constructor
from hespas_py.forking import Forked, max_jobs, shares
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
#: Fewest nodes worth a forked trace encoder (`_write_trace`).
_NODES_PER_JOB = 20_000

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
class _Comm:
    """One device's part in one collective block.

    Attributes:
        kind: node type, COMM_COLL_NODE or COMM_SEND_NODE / COMM_RECV_NODE.
        size: ``comm_size``.
        comm_type: CollectiveCommType (group collectives only).
        pg: group id (group collectives only).
        src, dst: peers (send/recv only).
    """

    kind: NodeType
    size: int
    comm_type: int = 0
    pg: int = 0
    src: int = 0
    dst: int = 0


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
    """Bytes a collective block's op reads: its message size (Chakra's ``comm_size``)."""
    return sum(t.nbytes for t in block.ops[0].operand_types)


def _plan(graph: BlockGraph, layout: DeviceLayout
          ) -> tuple[dict[int, list[tuple[_Comm, ...]]], dict[tuple[int, ...], int]]:
    """Per collective block, each device's communication nodes; and the group registry."""
    registry: dict[tuple[int, ...], int] = {}
    plan: dict[int, list[tuple[_Comm, ...]]] = {}
    # Group collectives of one kind, attribute dict and operand types (the reader shares equal
    # ones; the graph keeps them alive, so ids are stable) get the same roles: worked out once.
    known: dict[tuple, list[tuple[_Comm, ...]]] = {}
    n = layout.num_devices
    for block in graph.blocks:
        if not block.collective:
            continue
        op = block.ops[0]
        key = (op.name, id(op.attrs), *map(id, op.operand_types))
        if key in known:
            plan[block.id] = known[key]
            continue
        size = collective_bytes(block)
        roles: list[tuple[_Comm, ...]] = [()] * n
        if op.short_name == _PERMUTE:
            for src, dst in layout.pairs(op):
                if src != dst:
                    roles[src] += (_Comm(NodeType.COMM_SEND_NODE, size, src=src, dst=dst),)
                    roles[dst] += (_Comm(NodeType.COMM_RECV_NODE, size, src=src, dst=dst),)
            roles = [tuple(sorted(r, key=lambda c: c.kind)) for r in roles]  # sends first
        elif op.short_name in COMM_TYPES:
            comm_type = int(COMM_TYPES[op.short_name])
            for group in layout.groups(op):
                if len(group) < 2:
                    continue
                pg = registry.setdefault(group, len(registry) + 1)
                for device in group:
                    roles[device] = (_Comm(NodeType.COMM_COLL_NODE, size, comm_type, pg),)
            known[key] = roles
        else:
            raise HespasError(f"{graph.source}: no Chakra node type for {op.name}")
        plan[block.id] = roles
    return plan, registry


@dataclass(frozen=True, slots=True)
class _Placed:
    """Where one block's nodes go in a device's trace.

    Attributes:
        block: the block.
        first: id of its first node.
        deps: node ids its nodes depend on.
        comms: its communication on the device (collective blocks; at least one).
    """

    block: Block
    first: int
    deps: list[int]
    comms: tuple[_Comm, ...] = ()


_new_placed = fast_constructor(_Placed)


def _place(graph: BlockGraph, plan: dict[int, list[tuple[_Comm, ...]]],
           device: int) -> tuple[list[_Placed], Counter]:
    """The blocks that have nodes on ``device``, placed in node order, and the node types."""
    placed: list[_Placed] = []
    kinds: Counter = Counter()
    ids: list[tuple[int, ...]] = []   # per block: its node ids, or (if none) what it depended on
    first = 0
    for block in graph.blocks:
        if len(block.deps) == 1:
            deps = list(ids[block.deps[0]])
        else:
            deps = sorted({i for d in block.deps for i in ids[d]})
        if block.collective:
            comms = plan[block.id][device]
            if not comms:
                ids.append(tuple(deps))
                continue
            kinds.update(comm.kind for comm in comms)
            placed.append(_new_placed(block, first, deps, comms))
            ids.append(tuple(range(first, first + len(comms))))
            first += len(comms)
        else:
            kinds[NodeType.COMP_NODE] += 1
            placed.append(_new_placed(block, first, deps, ()))
            ids.append((first,))
            first += 1
    return placed, kinds


#: Compute block id -> (micros, flops, bytes) of its node.
_CompCosts = dict[int, tuple[int, int, int]]


def _nodes(placed: Sequence[_Placed], comp_costs: _CompCosts) -> Iterator[Node]:
    """The nodes of ``placed`` blocks."""
    for item in placed:
        block, node_id, deps = item.block, item.first, item.deps
        if not item.comms:
            micros, flops, nbytes = comp_costs[block.id]
            yield comp(node_id, micros, deps, num_ops=flops, tensor_size=nbytes, name=block.label)
        for comm in item.comms:
            if comm.kind == NodeType.COMM_COLL_NODE:
                yield collective(node_id, comm.comm_type, comm.size, deps, pg_name=str(comm.pg),
                                 name=block.label)
            else:
                yield point_to_point(node_id, comm.kind, comm.src, comm.dst, comm.size, block.id,
                                     deps, name=block.label)
            node_id += 1


def _encoded_nodes(placed: Sequence[_Placed], comp_costs: _CompCosts) -> bytes:
    stream = io.BytesIO()
    write_nodes(stream, _nodes(placed, comp_costs))
    return stream.getvalue()


def _encoded_chunks(placed: Sequence[_Placed], comp_costs: _CompCosts) -> tuple[bytes]:
    return (_encoded_nodes(placed, comp_costs),)


def _write_trace(path: Path, placed: list[_Placed], comp_costs: _CompCosts) -> None:
    """Write one trace; a long one's later nodes are built and encoded by forked children
    (`hespas_py.forking`), or here if one fails."""
    parts = shares(len(placed), max(1, min(max_jobs(), len(placed) // _NODES_PER_JOB)))
    children = [Forked(functools.partial(_encoded_chunks, placed[start:stop], comp_costs))
                for start, stop in parts[1:]]
    with path.open("wb") as stream:
        write_trace(stream, _nodes(placed[:parts[0][1]], comp_costs))
        for child, (start, stop) in zip(children, parts[1:]):
            data = child.result()
            if data is None:
                data = _encoded_nodes(placed[start:stop], comp_costs)
            stream.write(data)


def write_traces(out_dir: Path, graph: BlockGraph, estimates: Sequence[Estimate | None],
                 layout: DeviceLayout) -> TraceSet:
    """Write ``dev.<i>.et`` for every device and ``comm_group.json`` into ``out_dir``.

    ``estimates[i]`` is block ``i``'s estimate (None for collective blocks).
    """
    compute = [b for b in graph.blocks if not b.collective]
    micros = durations_micros([estimates[b.id].time_s for b in compute])
    comp_costs = {b.id: (m, round(estimates[b.id].flops), round(estimates[b.id].bytes))
            for b, m in zip(compute, micros)}
    plan, registry = _plan(graph, layout)
    by_signature: dict[tuple, list[int]] = {}
    distinct_roles = {id(roles): roles for roles in plan.values()}.values()  # blocks share them
    for device in range(layout.num_devices):
        signature = tuple(roles[device] for roles in distinct_roles)
        by_signature.setdefault(signature, []).append(device)
    counts: dict[int, dict[str, int]] = {}
    for devices in by_signature.values():
        placed, kinds = _place(graph, plan, devices[0])
        first = out_dir / trace_name(devices[0])
        _write_trace(first, placed, comp_costs)
        tally = {NodeType(kind).name: count for kind, count in kinds.items()}
        for device in devices:
            counts[device] = tally
            if device != devices[0]:
                os.link(first, out_dir / trace_name(device))
    groups = {gid: group for group, gid in registry.items()}
    (out_dir / COMM_GROUP_FILE).write_text(
        json.dumps({str(gid): list(g) for gid, g in groups.items()}) + "\n")
    return TraceSet(num_devices=layout.num_devices, files=len(by_signature),
                    nodes=dict(sorted(counts.items())), comm_groups=groups,
                    total_micros=sum(micros))
