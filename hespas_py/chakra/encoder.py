"""Where a device's nodes go in its trace, and the trace's bytes, each distinct node encoded once.

`place` lays out the blocks that have nodes on one device: node ids in block order, data deps
(a block without nodes on the device passes on what it depended on), and control deps that make
the device issue its communication in block order (`place`). Devices with the same
number of nodes in every collective share that placement; their traces differ only in their
communication nodes (groups, peers). `TraceEncoder` encodes the compute nodes of a placement
once, each group collective's nodes once per group, and only point-to-point nodes per device;
a device's trace is then a join of encoded pieces. The first device's pieces of a long trace
are encoded in shares by forked children (`hespas_py.forking`), or here if one fails.
"""

from __future__ import annotations

import functools
import io
import itertools
import marshal
from collections import Counter
from collections.abc import Iterator, Sequence
from operator import attrgetter
from typing import NamedTuple

from hespas_py.chakra.io import length_prefixed, write_nodes, write_trace
from hespas_py.chakra.nodes import CompNodes, collective, comp, point_to_point
from hespas_py.chakra.schema import Node, NodeType
from hespas_py.forking import Forked, shares
from hespas_py.split.blocks import Block, BlockGraph

#: Fewest nodes worth a forked encoder (`TraceEncoder`).
_NODES_PER_JOB = 20_000


class Comm(NamedTuple):
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


#: Per collective block id, each device's communication nodes (devices of one group share one
#: tuple; a device without communication there has ``()``).
Plan = dict[int, list[tuple[Comm, ...]]]
#: Compute block id -> (micros, flops, bytes) of its node.
CompCosts = dict[int, tuple[int, int, int]]


class Placed(NamedTuple):
    """Where one block's nodes go in a device's trace.

    Attributes:
        block: the block.
        first: id of its first node.
        deps: node ids its nodes depend on.
        comms: its communication on the device (collective blocks; at least one).
        after: control deps of its communication nodes: the nodes of the device's previous
            collective block that are not already in ``deps``.
    """

    block: Block
    first: int
    deps: list[int]
    comms: tuple[Comm, ...] = ()
    after: tuple[int, ...] = ()


_KIND = attrgetter("kind")


def place(graph: BlockGraph, plan: Plan, device: int) -> list[Placed]:
    """The blocks that have nodes on ``device``, placed in node order.

    Each collective block's nodes wait (control deps) for the device's previous collective block:
    the device issues its collectives in block order, which is the program order every device of
    an SPMD program shares, as XLA runs them. Without it a simulator that issues whatever is ready
    lets devices of a group start their collectives in different orders (a collective free from
    the start, or one whose inputs came sooner on one device than another) and deadlock, as
    ASTRA-sim matches collectives per group in issue order with one in flight per NPU.
    """
    placed: list[Placed] = []
    ids: list[tuple[int, ...]] = []   # per block: its node ids, or (if none) what it depended on
    previous: tuple[int, ...] = ()    # node ids of the last collective block placed
    first = 0
    for block in graph.blocks:
        if len(block.deps) == 1:
            deps = list(ids[block.deps[0]])
        else:
            deps = sorted(set().union(*map(ids.__getitem__, block.deps)))
        if block.collective:
            comms = plan[block.id][device]
            if not comms:
                ids.append(tuple(deps))
                continue
            after = tuple(i for i in previous if i not in deps)
            placed.append(Placed(block, first, deps, comms, after))
            previous = tuple(range(first, first + len(comms)))
            ids.append(previous)
            first += len(comms)
        else:
            placed.append(Placed(block, first, deps, ()))
            ids.append((first,))
            first += 1
    return placed


def _nodes(placed: Sequence[Placed], comp_costs: CompCosts) -> Iterator[Node]:
    """The nodes of ``placed`` blocks."""
    for item in placed:
        block, node_id, deps = item.block, item.first, item.deps
        if not item.comms:
            micros, flops, nbytes = comp_costs[block.id]
            yield comp(node_id, micros, deps, num_ops=flops, tensor_size=nbytes, name=block.label)
        for comm in item.comms:
            if comm.kind == NodeType.COMM_COLL_NODE:
                yield collective(node_id, comm.comm_type, comm.size, deps, ctrl_deps=item.after,
                                 pg_name=str(comm.pg), name=block.label)
            else:
                yield point_to_point(node_id, comm.kind, comm.src, comm.dst, comm.size, block.id,
                                     deps, ctrl_deps=item.after, name=block.label)
            node_id += 1


def _pieces(placed: Sequence[Placed], comp_costs: CompCosts) -> list[bytes]:
    """The encoded nodes of each placed block (compute nodes filled into one reused message,
    `CompNodes`)."""
    pieces = []
    compute = CompNodes()
    for item in placed:
        if item.comms:
            pieces.append(_encoded((item,), comp_costs))
        else:
            micros, flops, nbytes = comp_costs[item.block.id]
            node = compute.fill(item.first, micros, item.deps, flops, nbytes, item.block.label)
            pieces.append(length_prefixed(node))
    return pieces


def _encoded(placed: Sequence[Placed], comp_costs: CompCosts) -> bytes:
    """The encoded nodes of ``placed`` blocks, in one piece."""
    stream = io.BytesIO()
    write_nodes(stream, _nodes(placed, comp_costs))
    return stream.getvalue()


def _encoded_pieces(placed: Sequence[Placed], comp_costs: CompCosts) -> tuple[bytes]:
    return (marshal.dumps(_pieces(placed, comp_costs)),)


def _forked_pieces(placed: list[Placed], comp_costs: CompCosts, jobs: int) -> list[bytes]:
    """`_pieces` of ``placed``; a long list's later shares encoded by up to ``jobs - 1`` forked
    children."""
    parts = shares(len(placed), max(1, min(jobs, len(placed) // _NODES_PER_JOB)))
    children = [Forked(functools.partial(_encoded_pieces, placed[start:stop], comp_costs))
                for start, stop in parts[1:]]
    pieces = _pieces(placed[:parts[0][1]], comp_costs)
    for child, (start, stop) in zip(children, parts[1:], strict=True):
        data = child.result()
        pieces += (_pieces(placed[start:stop], comp_costs) if data is None
                   else marshal.loads(data))
    return pieces


def _header() -> bytes:
    stream = io.BytesIO()
    write_trace(stream, ())
    return stream.getvalue()


class TraceEncoder:
    """The traces of the devices that share one placement (module docstring).

    ``jobs``: processes that may encode the first device's pieces (`hespas_py.forking`).
    """

    def __init__(self, placed: list[Placed], comp_costs: CompCosts, jobs: int = 1) -> None:
        self._placed = placed
        self._comp_costs = comp_costs
        self._jobs = jobs
        # The trace in steps: the encoded nodes of a run of compute blocks, or the index of a
        # placed collective block (whose nodes depend on the device); filled on first use.
        self._steps: list[bytes | int] = []
        # (index of a placed collective block, id of a group's comms) -> its encoded nodes
        self._shared: dict[tuple[int, int], bytes] = {}
        self._collectives: dict[int, Node] = {}  # index of a placed block -> its group node
        self._compute = sum(not item.comms for item in placed)
        # placed collective blocks before the first compute block
        self._leading = list(itertools.takewhile(lambda i: placed[i].comms, range(len(placed))))

    def trace(self, plan: Plan, device: int) -> tuple[bytes, Counter]:
        """``device``'s trace and its node count per type (in order of first appearance); the
        placement must be ``device``'s."""
        if not self._steps:
            self._prepare()
        parts, shared, placed = [_HEADER], self._shared, self._placed
        kinds: list[NodeType] = []
        for step in self._steps:
            if isinstance(step, int):
                comms = plan[placed[step].block.id][device]
                kinds += map(_KIND, comms)
                parts.append(shared.get((step, id(comms))) or self._encode(step, comms))
            else:
                parts.append(step)
        counts = Counter(dict.fromkeys(kinds[:sum(len(plan[placed[i].block.id][device])
                                                  for i in self._leading)], 0))
        if self._compute:
            counts[NodeType.COMP_NODE] = self._compute
        counts.update(kinds)
        return b"".join(parts), counts

    def _prepare(self) -> None:
        """Encode the nodes of the placement as the device it was made for has them."""
        pieces = _forked_pieces(self._placed, self._comp_costs, self._jobs)
        run: list[bytes] = []
        for i, (item, piece) in enumerate(zip(self._placed, pieces, strict=True)):
            if item.comms:
                if run:
                    self._steps.append(b"".join(run))
                    run = []
                self._shared[i, id(item.comms)] = piece
                self._steps.append(i)
            else:
                run.append(piece)
        if run:
            self._steps.append(b"".join(run))

    def _encode(self, index: int, comms: tuple[Comm, ...]) -> bytes:
        """The nodes of placed block ``index`` with ``comms``; kept when a group shares them.

        The groups of one collective differ only in ``pg_name``: the node of the first group
        met is built once and given each other group's name.
        """
        if comms[0].kind != NodeType.COMM_COLL_NODE:
            item = self._placed[index]
            return _encoded([Placed(item.block, item.first, item.deps, comms, item.after)],
                            self._comp_costs)
        node = self._collectives.get(index)
        if node is None:
            item = self._placed[index]
            node = self._collectives[index] = next(_nodes(
                [Placed(item.block, item.first, item.deps, comms, item.after)],
                self._comp_costs))
        next(a for a in node.attr if a.name == "pg_name").string_val = str(comms[0].pg)
        piece = self._shared[index, id(comms)] = length_prefixed(node)
        return piece


_HEADER = _header()
