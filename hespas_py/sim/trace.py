"""Chakra traces as the simulator needs them: compact per-node records and a dependency index.

Files are decoded by `hespas_py.sim.node_view`. A trace set is loaded sharing work between its
files: byte-identical files (hard links included) are parsed once, each distinct node encoding is
decoded once, and traces that differ at most in their collectives' ``pg_name`` share one
dependency index.
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
import os
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from hespas_py.chakra.io import node_encodings
from hespas_py.chakra.schema import CollectiveCommType, NodeType, enum_name
from hespas_py.errors import HespasError
from hespas_py.gc_pause import gc_paused
from hespas_py.sim.inputs import read_input
from hespas_py.sim.node_view import decode_node

#: Resource class of a node: the GPU compute slot, the communication slot, none (receives), or
#: the CPU slot (any node marked ``is_cpu_op``; ASTRA-sim's HardwareResource checks that first).
GPU, COMM, RECV, CPU = 0, 1, 2, 3

class TraceNode(NamedTuple):
    """One Chakra node, reduced to what the simulator reads.

    Attributes:
      id: node id.
      name: node name.
      type: `NodeType` value.
      deps: data and control parents, deduplicated, in ascending id.
      duration_us: recorded duration in microseconds (replayed as ``max(1, 1000 * us)`` ns).
      ints: integer attributes by name (comm_type, comm_size, comm_src, comm_dst, comm_tag,
        comm_priority, num_ops, tensor_size, is_cpu_op); absent ones, and a false is_cpu_op, are
        missing.
      pg_name: communicator group name ("" when absent).
      involved_dim: the ``involved_dim`` bool list, or None when absent.
    """

    id: int
    name: str
    type: int
    deps: tuple[int, ...]
    duration_us: int
    ints: dict
    pg_name: str
    involved_dim: tuple[bool, ...] | None

    @property
    def resource(self) -> int:
        """`GPU`, `COMM`, `RECV` or `CPU`: the hardware slot the node occupies while in flight."""
        if self.ints.get("is_cpu_op"):
            return CPU
        if self.type == NodeType.COMP_NODE:
            return GPU
        return RECV if self.type == NodeType.COMM_RECV_NODE else COMM


#: Where `TraceNode.pg_name` lies in a node tuple.
_PG_NAME = TraceNode._fields.index("pg_name")


@dataclass(frozen=True)
class Trace:
    """One device's trace with its dependency structure precomputed.

    Attributes:
      path: the ``.et`` file.
      nodes: nodes in file order.
      index: node id -> position in `nodes`.
      children: per position, the positions of the nodes that depend on it.
      parent_counts: per position, how many distinct parents it waits for.
      digest: content hash; equal digests mean byte-identical traces.
      keys: per position, ``(node id, position)``: its place in ascending-id issue order.
      resources: per position, the node's `TraceNode.resource`.
      shape: hash of every node field but ``pg_name``: equal shapes mean traces that differ at
        most in the communicator groups their collectives name.
    """

    path: Path
    nodes: tuple[TraceNode, ...]
    index: dict
    children: tuple[tuple[int, ...], ...]
    parent_counts: tuple[int, ...]
    digest: bytes
    keys: tuple[tuple[int, int], ...]
    resources: tuple[int, ...]
    shape: bytes


def index_trace(path: Path, nodes: list[TraceNode], digest: bytes,
                node_shapes: list[bytes] | None = None) -> Trace:
    """Check and index decoded nodes (ids unique, parents present, something issuable unless
    there is nothing);
    ``node_shapes``: each node's `node_shape`, when known."""
    index = {}
    for position, node in enumerate(nodes):
        if node.id in index:
            raise HespasError(f"{path}: node id {node.id} appears twice")
        index[node.id] = position
    children: list[list[int]] = [[] for _ in nodes]
    for position, node in enumerate(nodes):
        for parent in node.deps:
            parent_position = index.get(parent)
            if parent_position is None:
                raise HespasError(f"{path}: node {node.id} depends on node {parent}, which is not "
                                  "in the trace")
            children[parent_position].append(position)
    counts = tuple(len(node.deps) for node in nodes)
    if counts and 0 not in counts:  # an empty trace finishes at tick 0, as in ASTRA-sim
        raise HespasError(f"{path}: no node is free of dependencies (a cycle)")
    if node_shapes is None:
        node_shapes = list(map(node_shape, nodes))
    return Trace(path, tuple(nodes), index, tuple(map(tuple, children)), counts, digest,
                 tuple((node.id, position) for position, node in enumerate(nodes)),
                 tuple(node.resource for node in nodes), _digest(b"".join(node_shapes)))


def node_shape(node: TraceNode) -> bytes:
    """Every field of ``node`` but its pg_name, serialized (self-delimiting: a trace's shape
    hashes their concatenation)."""
    # marshal version 2 writes no back-references, so equal values give equal bytes.
    return marshal.dumps(node[:_PG_NAME] + node[_PG_NAME + 1:], 2)


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


class _SetReader:
    """Decodes the files of one trace set, each distinct node encoding once; traces whose nodes
    differ at most in pg_name share the first one's dependency index."""

    def __init__(self) -> None:
        self._attributes: dict[bytes, tuple] = {}
        self._nodes: dict[bytes, tuple[TraceNode, bytes]] = {}  # encoding -> (node, node_shape)
        self._indexed: dict[tuple[bytes, ...], Trace] = {}  # node shapes -> first such trace

    def read(self, path: Path, data: bytes, digest: bytes) -> Trace:
        """The trace of one file's bytes."""
        known = self._nodes
        nodes, shapes = [], []
        with gc_paused():
            for encoded in node_encodings(path, data):
                entry = known.get(encoded)
                if entry is None:
                    node = TraceNode(*decode_node(path, encoded, self._attributes))
                    entry = known[encoded] = (node, node_shape(node))
                nodes.append(entry[0])
                shapes.append(entry[1])
            structure = tuple(shapes)
            like = self._indexed.get(structure)
            if like is None:
                like = self._indexed[structure] = index_trace(path, nodes, digest, shapes)
                return like
        return dataclasses.replace(like, path=path, nodes=tuple(nodes), digest=digest)


def trace_paths(prefix: str | Path, num_npus: int) -> list[Path]:
    """ASTRA-sim's file names for ``--workload-configuration=prefix``: ``prefix.<npu>.et``."""
    return [Path(f"{prefix}.{npu}.et") for npu in range(num_npus)]


def load_traces(paths: list[Path]) -> list[Trace]:
    """Load every device's trace, parsing byte-identical files (hard links included) only once."""
    reader = _SetReader()
    by_inode: dict[tuple[int, int], Trace] = {}
    by_digest: dict[bytes, Trace] = {}
    traces = []
    for path in paths:
        try:
            stat = os.stat(path)
        except FileNotFoundError:
            found = sum(p.is_file() for p in paths)
            if not found:
                raise HespasError(f"{path}: no such file (ASTRA-sim needs one trace per NPU)") \
                    from None
            raise HespasError(f"{path.parent}: {found} traces for a network of {len(paths)} NPUs "
                              f"(no {path.name}); ASTRA-sim needs one per NPU, {paths[0].name} "
                              f"to {paths[-1].name}") from None
        inode = (stat.st_dev, stat.st_ino)
        trace = by_inode.get(inode)
        if trace is None:
            data = read_input(path)
            digest = _digest(data)
            trace = by_digest.get(digest)
            if trace is None:
                trace = by_digest[digest] = reader.read(path, data, digest)
            by_inode[inode] = trace
        traces.append(trace)
    return traces


def collective_name(node: TraceNode) -> str:
    """Human name of a COMM_COLL node's collective type (e.g. ``ALL_REDUCE``)."""
    value = node.ints.get("comm_type", -1)
    return enum_name(CollectiveCommType, value, f"comm_type {value}")
