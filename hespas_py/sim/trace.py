"""Chakra traces as the simulator needs them: compact per-node records and a dependency index.

Attributes are read the way ASTRA-sim's Chakra feeder reads them: any integer-valued field (bool
included) converts to an integer attribute, a float does not; ``pg_name`` must be a string.
Node kinds ASTRA-sim cannot finish a run with (METADATA, INVALID, MEM_LOAD/STORE) are rejected when
the trace is loaded.
"""

from __future__ import annotations

import functools
import hashlib
import io
import marshal
import os
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

from hespas_py.chakra.io import parse_trace
from hespas_py.chakra.schema import AttributeProto, CollectiveCommType, NodeType, enum_name
from hespas_py.errors import HespasError
from hespas_py.gc_pause import gc_paused
from hespas_py.sim.inputs import read_input

#: Resource class of a node: the GPU compute slot, the communication slot, none (receives), or
#: the CPU slot (any node marked ``is_cpu_op``; ASTRA-sim's HardwareResource checks that first).
GPU, COMM, RECV, CPU = 0, 1, 2, 3

_INT_FIELDS = frozenset({"int32_val", "int64_val", "uint32_val", "uint64_val", "sint32_val",
                         "sint64_val", "fixed32_val", "fixed64_val", "sfixed32_val",
                         "sfixed64_val", "bool_val"})
_KNOWN_INT_ATTRS = frozenset({"comm_type", "comm_size", "comm_src", "comm_dst", "comm_tag",
                              "comm_priority", "num_ops", "tensor_size", "is_cpu_op"})
_SIMULATED_TYPES = frozenset({NodeType.COMP_NODE, NodeType.COMM_COLL_NODE, NodeType.COMM_SEND_NODE,
                              NodeType.COMM_RECV_NODE})


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
      digest: content hash; equal digests mean byte-identical traces (see also `shape`).
      keys: per position, ``(node id, position)``: its place in ascending-id issue order.
      resources: per position, the node's `TraceNode.resource`.
    """

    path: Path
    nodes: tuple[TraceNode, ...]
    index: dict
    children: tuple[tuple[int, ...], ...]
    parent_counts: tuple[int, ...]
    digest: bytes
    keys: tuple[tuple[int, int], ...]
    resources: tuple[int, ...]

    @functools.cached_property
    def shape(self) -> bytes:
        """Hash of every node field but ``pg_name``: equal shapes mean traces that differ at most
        in the communicator groups their collectives name (computed on first use)."""
        # marshal version 2 writes no back-references, so equal values give equal bytes.
        fields = [node[:_PG_NAME] + node[_PG_NAME + 1:] for node in self.nodes]
        return _digest(marshal.dumps(fields, 2))


def _node_view_class() -> type:
    """A reading view of Chakra's Node: same field numbers, attributes kept as raw bytes.

    Attribute messages repeat across nodes (``is_cpu_op``, collective types and sizes), so each
    distinct encoding is decoded once; unread fields (inputs, outputs, start time) are skipped.
    """
    field = descriptor_pb2.FieldDescriptorProto
    file = descriptor_pb2.FileDescriptorProto(name="hespas_py/sim/node_view.proto",
                                              package="HespasSimView", syntax="proto3")
    message = file.message_type.add(name="NodeView")
    for name, number, kind, repeated in (
            ("id", 1, field.TYPE_UINT64, False), ("name", 2, field.TYPE_STRING, False),
            ("type", 3, field.TYPE_INT32, False), ("ctrl_deps", 4, field.TYPE_UINT64, True),
            ("data_deps", 5, field.TYPE_UINT64, True),
            ("duration_micros", 7, field.TYPE_UINT64, False), ("attr", 10, field.TYPE_BYTES, True)):
        message.field.add(name=name, number=number, type=kind,
                          label=field.LABEL_REPEATED if repeated else field.LABEL_OPTIONAL)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("HespasSimView.NodeView"))


_NodeView = _node_view_class()


def _decode_attribute(raw: bytes) -> tuple[str, object, str | None]:
    """(name, value, problem) of one encoded AttributeProto; value is None when ignored."""
    attr = AttributeProto.FromString(raw)
    name, kind = attr.name, attr.WhichOneof("value")
    if name in _KNOWN_INT_ATTRS:
        if kind not in _INT_FIELDS:
            return name, None, f"attribute {name} must be an integer, got {kind}"
        value = int(getattr(attr, kind))
        # A false is_cpu_op is the default; dropping it keeps every node's dict small.
        return name, None if name == "is_cpu_op" and not value else value, None
    if name == "pg_name":
        if kind not in ("string_val", "bytes_val"):
            return name, None, "pg_name must be a string attribute"
        value = getattr(attr, kind)
        return name, value.decode(errors="replace") if isinstance(value, bytes) else value, None
    if name == "involved_dim":
        if kind != "bool_list":
            return name, None, "expected bool_list in involved_dim"
        return name, tuple(attr.bool_list.values), None
    return name, None, None


def _reject_kind(path: Path, node) -> None:
    name = enum_name(NodeType, node.type, str(node.type))
    raise HespasError(f"{path}: node {node.id} has type {name}; ASTRA-sim only completes "
                      "runs of COMP, COMM_COLL, COMM_SEND and COMM_RECV nodes")


def _nodes(path: Path, data: bytes) -> list[TraceNode]:
    """Decode every node of a trace file's bytes (its first message is the GlobalMetadata)."""
    attributes: dict[bytes, tuple] = {}
    nodes = []
    _, views = parse_trace(path, io.BytesIO(data), _NodeView)
    try:
        for view in views:
            ints = {}
            pg_name = ""
            involved = None
            for encoded in view.attr:
                decoded = attributes.get(encoded)
                if decoded is None:
                    decoded = attributes[encoded] = _decode_attribute(encoded)
                name, value, problem = decoded
                if problem is not None:
                    raise HespasError(f"{path}: node {view.id}: {problem}")
                if value is None:
                    continue
                if name == "pg_name":
                    pg_name = value
                elif name == "involved_dim":
                    involved = value
                else:
                    ints[name] = value
            kind = view.type
            if kind not in _SIMULATED_TYPES:
                _reject_kind(path, view)
            deps = view.data_deps[:]
            if view.ctrl_deps:
                deps += view.ctrl_deps
            deps = tuple(sorted(set(deps))) if len(deps) > 1 else tuple(deps)
            nodes.append(TraceNode(view.id, view.name, kind, deps, view.duration_micros, ints,
                                   pg_name, involved))
    except DecodeError as exc:
        raise HespasError(f"{path}: not a Chakra trace ({exc})") from None
    return nodes


def index_trace(path: Path, nodes: list[TraceNode], digest: bytes) -> Trace:
    """Check and index decoded nodes (ids unique, parents present, something issuable)."""
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
    if 0 not in counts:
        raise HespasError(f"{path}: no node is free of dependencies (empty trace or a cycle)")
    return Trace(path, tuple(nodes), index, tuple(map(tuple, children)), counts, digest,
                 tuple((node.id, position) for position, node in enumerate(nodes)),
                 tuple(node.resource for node in nodes))


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def _load(path: Path, data: bytes, digest: bytes) -> Trace:
    with gc_paused():
        return index_trace(path, _nodes(path, data), digest)


def trace_paths(prefix: str | Path, num_npus: int) -> list[Path]:
    """ASTRA-sim's file names for ``--workload-configuration=prefix``: ``prefix.<npu>.et``."""
    return [Path(f"{prefix}.{npu}.et") for npu in range(num_npus)]


def load_traces(paths: list[Path]) -> list[Trace]:
    """Load every device's trace, parsing byte-identical files (hard links included) only once."""
    by_inode: dict[tuple[int, int], Trace] = {}
    by_digest: dict[bytes, Trace] = {}
    traces = []
    for path in paths:
        try:
            stat = os.stat(path)
        except FileNotFoundError:
            raise HespasError(f"{path}: no such file (ASTRA-sim needs one trace per NPU)") from None
        inode = (stat.st_dev, stat.st_ino)
        trace = by_inode.get(inode)
        if trace is None:
            data = read_input(path)
            digest = _digest(data)
            trace = by_digest.get(digest)
            if trace is None:
                trace = by_digest[digest] = _load(path, data, digest)
            by_inode[inode] = trace
        traces.append(trace)
    return traces


def collective_name(node: TraceNode) -> str:
    """Human name of a COMM_COLL node's collective type (e.g. ``ALL_REDUCE``)."""
    value = node.ints.get("comm_type", -1)
    return enum_name(CollectiveCommType, value, f"comm_type {value}")
