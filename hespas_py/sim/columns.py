"""What every NPU names at each communication node of a trace set that replays one program.

The traces of an SPMD program are alike but for the communicator group each collective names and
the peer of each send (its ``comm_dst``) and receive (its ``comm_src``). `Columns` holds NPU 0's
trace and, per communication position, those values for every NPU (a *column*; equal columns are
one object). It is made from the traces themselves (`of_traces`, None when they differ in more),
or read from a symmetric trace set (`of_symmetric_set`), which holds NPU 0's trace and the columns
instead of one trace per NPU (`hespas_py.chakra.writer`).
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hespas_py.chakra.files import SYMMETRIC_FILE
from hespas_py.chakra.schema import NodeType
from hespas_py.errors import HespasError
from hespas_py.sim.trace import Trace, TraceNode, load_traces
from hespas_py.sim.workload import group_number

_PG_NAME = TraceNode._fields.index("pg_name")
_INTS = TraceNode._fields.index("ints")
_SEND, _RECV = NodeType.COMM_SEND_NODE, NodeType.COMM_RECV_NODE
_COMMUNICATION = frozenset({NodeType.COMM_COLL_NODE, _SEND, _RECV})
#: Per NPU, the group id it names (None: every NPU) or the peer it sends to / receives from.
Column = tuple


@dataclass(frozen=True)
class Columns:
    """NPU 0's trace and, per communication position of it, every NPU's column value."""

    trace: Trace
    num_npus: int
    values: dict[int, Column]


def peer(node: TraceNode) -> int:
    """The other end of a send (its destination) or receive (its source)."""
    return node.ints["comm_dst" if node.type == _SEND else "comm_src"]


def _value(node: TraceNode) -> int | None:
    if node.type == NodeType.COMM_COLL_NODE:
        try:
            return group_number(node.pg_name)
        except ValueError:
            return -1  # names no group: never a partition of the machine
    return peer(node)


def _skeleton(node: TraceNode) -> bytes:
    """Every field of ``node`` but the group and the peers (self-delimiting bytes)."""
    fields = list(node)
    fields[_PG_NAME] = ""
    if node.type in (_SEND, _RECV):
        fields[_INTS] = {k: v for k, v in node.ints.items() if k not in ("comm_src", "comm_dst")}
    return marshal.dumps(tuple(fields), 2)


def of_traces(traces: Sequence[Trace]) -> Columns | None:
    """The columns of a trace set, or None when its traces differ in more than groups and
    peers (or in their number of nodes)."""
    distinct: dict[bytes, int] = {}
    firsts: list[Trace] = []
    of_npu = []
    for trace in traces:
        index = distinct.setdefault(trace.digest, len(firsts))
        if index == len(firsts):
            firsts.append(trace)
        of_npu.append(index)
    first = firsts[0]
    skeletons: dict[int, bytes] = {}

    def skeleton(node: TraceNode) -> bytes:
        found = skeletons.get(id(node))
        if found is None:
            found = skeletons[id(node)] = _skeleton(node)
        return found

    reference = [skeleton(node) for node in first.nodes]
    for trace in firsts[1:]:
        if len(trace.nodes) != len(reference) or any(
                skeleton(node) != ref for node, ref in zip(trace.nodes, reference, strict=True)):
            return None
    positions = [p for p, node in enumerate(first.nodes) if node.type in _COMMUNICATION]
    rows = [[_value(trace.nodes[p]) for p in positions] for trace in firsts]
    shared: dict[Column, Column] = {}
    values = {}
    for position, per_trace in zip(positions, zip(*rows, strict=True), strict=True):
        column = tuple(per_trace[i] for i in of_npu)
        values[position] = shared.setdefault(column, column)
    return Columns(first, len(traces), values)


def of_symmetric_set(prefix: str | Path, num_npus: int) -> Columns | None:
    """The columns a symmetric trace set's manifest (next to ``PREFIX.0.et``) gives, None when
    the folder holds no manifest."""
    manifest = Path(f"{prefix}.0.et").parent / SYMMETRIC_FILE
    if not manifest.is_file():
        return None
    try:
        doc = json.loads(manifest.read_text())
        devices, columns, nodes = doc["num_devices"], doc["columns"], doc["nodes"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise HespasError(f"{manifest}: not a symmetric trace set manifest ({exc})") from None
    if devices != num_npus:
        raise HespasError(f"{manifest}: {devices} devices for a network of {num_npus} NPUs")
    trace = load_traces([Path(f"{prefix}.0.et")])[0]
    by_id = {node.id: position for position, node in enumerate(trace.nodes)}
    shared: dict[tuple[int, str], Column] = {}
    values = {}
    for node_id, (column, key) in nodes.items():
        position = by_id.get(int(node_id))
        if position is None:
            raise HespasError(f"{manifest}: names node {node_id}, which {prefix}.0.et lacks")
        if (column, key) not in shared:
            shared[column, key] = tuple(columns[column][key])
        values[position] = shared[column, key]
    return Columns(trace, devices, values)
