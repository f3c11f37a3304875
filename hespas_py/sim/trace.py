"""Chakra traces as the simulator needs them: compact per-node records and a dependency index.

Attributes are read the way ASTRA-sim's Chakra feeder reads them: any integer-valued field (bool
included) converts to an integer attribute, a float does not; ``pg_name`` must be a string.
Node kinds ASTRA-sim cannot finish a run with (METADATA, INVALID, MEM_LOAD/STORE, CPU ops) are
rejected when the trace is loaded.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from hespas_py.chakra.io import read_trace
from hespas_py.chakra.schema import CollectiveCommType, NodeType
from hespas_py.errors import HespasError

#: Resource class of a node: the GPU compute slot, the communication slot, or none (receives).
GPU, COMM, RECV = 0, 1, 2

_INT_FIELDS = frozenset({"int32_val", "int64_val", "uint32_val", "uint64_val", "sint32_val",
                         "sint64_val", "fixed32_val", "fixed64_val", "sfixed32_val",
                         "sfixed64_val", "bool_val"})
_KNOWN_INT_ATTRS = ("comm_type", "comm_size", "comm_src", "comm_dst", "comm_tag", "comm_priority",
                    "num_ops", "tensor_size", "is_cpu_op")


class TraceNode(NamedTuple):
    """One Chakra node, reduced to what the simulator reads.

    Attributes:
      id: node id.
      name: node name.
      type: `NodeType` value.
      deps: data and control parents, deduplicated, in ascending id.
      duration_us: recorded duration in microseconds (replayed as ``max(1, 1000 * us)`` ns).
      ints: integer attributes by name (comm_type, comm_size, comm_src, comm_dst, comm_tag,
        comm_priority, num_ops, tensor_size); absent ones are missing.
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
        """`GPU`, `COMM` or `RECV`: the hardware slot the node occupies while in flight."""
        if self.type == NodeType.COMP_NODE:
            return GPU
        return RECV if self.type == NodeType.COMM_RECV_NODE else COMM


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
    """

    path: Path
    nodes: tuple[TraceNode, ...]
    index: dict
    children: tuple[tuple[int, ...], ...]
    parent_counts: tuple[int, ...]
    digest: bytes


def _attr_value(path: Path, node, attr):
    kind = attr.WhichOneof("value")
    if attr.name == "pg_name":
        if kind not in ("string_val", "bytes_val"):
            raise HespasError(f"{path}: node {node.id}: pg_name must be a string attribute")
        value = getattr(attr, kind)
        return value.decode(errors="replace") if isinstance(value, bytes) else value
    if attr.name == "involved_dim":
        if kind != "bool_list":
            raise HespasError(f"{path}: node {node.id}: expected bool_list in involved_dim")
        return tuple(attr.bool_list.values)
    if kind not in _INT_FIELDS:
        raise HespasError(f"{path}: node {node.id}: attribute {attr.name} must be an integer, "
                          f"got {kind}")
    return int(getattr(attr, kind))


def _check_kind(path: Path, node, is_cpu_op: bool) -> None:
    kind = node.type
    if kind in (NodeType.METADATA_NODE, NodeType.INVALID_NODE, NodeType.MEM_LOAD_NODE,
                NodeType.MEM_STORE_NODE) or kind not in iter(NodeType):
        name = NodeType(kind).name if kind in iter(NodeType) else str(kind)
        raise HespasError(f"{path}: node {node.id} has type {name}; ASTRA-sim only completes "
                          "runs of COMP, COMM_COLL, COMM_SEND and COMM_RECV nodes")
    if is_cpu_op:
        raise HespasError(f"{path}: node {node.id} is a CPU op (is_cpu_op); ASTRA-sim aborts its "
                          "report on CPU ops")


def _convert(path: Path, node) -> TraceNode:
    ints = {}
    pg_name = ""
    involved = None
    for attr in node.attr:
        name = attr.name
        if name == "pg_name":
            pg_name = _attr_value(path, node, attr)
        elif name == "involved_dim":
            involved = _attr_value(path, node, attr)
        elif name in _KNOWN_INT_ATTRS:
            ints[name] = _attr_value(path, node, attr)
    _check_kind(path, node, bool(ints.pop("is_cpu_op", 0)))
    deps = tuple(sorted(set(node.data_deps) | set(node.ctrl_deps)))
    return TraceNode(node.id, node.name, node.type, deps, node.duration_micros, ints, pg_name,
                     involved)


def _index(path: Path, nodes: list[TraceNode], digest: bytes) -> Trace:
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
    return Trace(path, tuple(nodes), index, tuple(map(tuple, children)), counts, digest)


def load_trace(path: str | Path) -> Trace:
    """Read and index one ``.et`` file."""
    path = Path(path)
    return _parse(path, hashlib.blake2b(_read_bytes(path), digest_size=16).digest())


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise HespasError(f"{path}: no such file") from None
    except OSError as exc:
        raise HespasError(f"{path}: cannot read ({exc.strerror})") from None


def _parse(path: Path, digest: bytes) -> Trace:
    _, raw = read_trace(path)
    return _index(path, [_convert(path, node) for node in raw], digest)


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
            digest = hashlib.blake2b(_read_bytes(path), digest_size=16).digest()
            trace = by_digest.get(digest)
            if trace is None:
                trace = by_digest[digest] = _parse(path, digest)
            by_inode[inode] = trace
        traces.append(trace)
    return traces


def collective_name(node: TraceNode) -> str:
    """Human name of a COMM_COLL node's collective type (e.g. ``ALL_REDUCE``)."""
    value = node.ints.get("comm_type", -1)
    try:
        return CollectiveCommType(value).name
    except ValueError:
        return f"comm_type {value}"
