"""Decoding and summarising Chakra traces, ours or any other tool's (``hespas trace show``).

Attribute values are read from whichever field of the value oneof is set, so traces that write
e.g. ``num_ops`` as ``uint64_val`` instead of ``int64_val`` decode the same.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from hespas_py.chakra.files import COMM_GROUP_FILE, STATS_FILE
from hespas_py.chakra.io import parse_trace, read_trace
from hespas_py.chakra.schema import CollectiveCommType, NodeType, enum_name
from hespas_py.checks import shown
from hespas_py.errors import HespasError

_TRACE_FILE = re.compile(r"^(?P<prefix>.+)\.(?P<rank>\d+)\.et$")
#: How many node names `TraceSummary.top_names` keeps.
TOP_NAMES = 10


def attr_value(attr: Any) -> Any:
    """The Python value of one AttributeProto (a list for ``*_list`` fields; None if unset)."""
    which = attr.WhichOneof("value")
    if which is None:
        return None
    value = getattr(attr, which)
    return list(value.values) if which.endswith("_list") else value


def node_attrs(node: Any) -> dict[str, Any]:
    """A node's attributes by name."""
    return {a.name: attr_value(a) for a in node.attr}


@dataclass(frozen=True)
class TraceSummary:
    """What one trace file holds.

    Attributes:
        path: the file.
        version: GlobalMetadata version.
        nodes: node count.
        by_type: node count per NodeType name.
        edges: data plus control dependencies.
        compute_micros: sum of ``duration_micros`` over COMP nodes.
        flops: sum of ``num_ops`` over COMP nodes.
        tensor_bytes: sum of ``tensor_size`` over COMP nodes.
        collectives: per comm type name, ``{"count": n, "bytes": sum of comm_size}``.
        point_to_point: per SEND/RECV, ``{"count": n, "bytes": sum of comm_size}``.
        pg_names: distinct ``pg_name`` values of collectives ("" when unset), sorted.
        top_names: up to `TOP_NAMES` COMP node names by total duration:
            ``[name, count, micros]``.
    """

    path: str
    version: str
    nodes: int
    by_type: dict[str, int]
    edges: int
    compute_micros: int
    flops: int
    tensor_bytes: int
    collectives: dict[str, dict[str, int]]
    point_to_point: dict[str, dict[str, int]]
    pg_names: list[str]
    top_names: list[list[Any]]

    def as_dict(self) -> dict[str, Any]:
        """Plain-JSON form."""
        return asdict(self)


def _bump(table: dict[str, dict[str, int]], key: str, size: int) -> None:
    entry = table.setdefault(key, {"count": 0, "bytes": 0})
    entry["count"] += 1
    entry["bytes"] += size


def _count(path: str | Path, node: Any, attrs: dict[str, Any], name: str) -> int:
    """Numeric attribute ``name`` of ``node`` as an integer (0 when absent); `HespasError` for
    another kind of value (a string, a list, NaN)."""
    value = attrs.get(name)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise HespasError(f"{path}: node {node.id}: attribute {name} must be a number, got "
                          f"{shown(value)}")
    return int(value)


def summarize_trace(path: str | Path, data: bytes | None = None) -> TraceSummary:
    """Decode ``path`` (or ``data``, its bytes already read) and tally it."""
    meta, nodes = read_trace(path) if data is None else parse_trace(path, io.BytesIO(data))
    by_type: dict[str, int] = {}
    collectives: dict[str, dict[str, int]] = {}
    p2p: dict[str, dict[str, int]] = {}
    names: dict[str, list[int]] = {}
    pg_names: set[str] = set()
    edges = micros = flops = tensor_bytes = 0
    for node in nodes:
        kind = enum_name(NodeType, node.type, f"UNKNOWN_{node.type}")
        by_type[kind] = by_type.get(kind, 0) + 1
        edges += len(node.data_deps) + len(node.ctrl_deps)
        attrs = node_attrs(node)
        if node.type == NodeType.COMP_NODE:
            micros += node.duration_micros
            flops += _count(path, node, attrs, "num_ops")
            tensor_bytes += _count(path, node, attrs, "tensor_size")
            entry = names.setdefault(node.name, [0, 0])
            entry[0] += 1
            entry[1] += node.duration_micros
        elif node.type == NodeType.COMM_COLL_NODE:
            comm_type = _count(path, node, attrs, "comm_type")
            comm = enum_name(CollectiveCommType, comm_type, f"UNKNOWN_{comm_type}")
            _bump(collectives, comm, _count(path, node, attrs, "comm_size"))
            pg_names.add(str(attrs.get("pg_name") or ""))
        elif node.type in (NodeType.COMM_SEND_NODE, NodeType.COMM_RECV_NODE):
            _bump(p2p, kind, _count(path, node, attrs, "comm_size"))
    top = sorted(names.items(), key=lambda item: (-item[1][1], item[0]))[:TOP_NAMES]
    return TraceSummary(
        path=str(path), version=meta.version, nodes=len(nodes), by_type=by_type, edges=edges,
        compute_micros=micros, flops=flops, tensor_bytes=tensor_bytes, collectives=collectives,
        point_to_point=p2p, pg_names=sorted(pg_names),
        top_names=[[name, count, total] for name, (count, total) in top])


def trace_files(directory: Path) -> list[Path]:
    """``<prefix>.<rank>.et`` files of a directory, by prefix then rank."""
    found = []
    for path in directory.iterdir():
        match = _TRACE_FILE.match(path.name)
        if match and path.is_file():
            found.append((match["prefix"], int(match["rank"]), path))
    return [path for _, _, path in sorted(found)]


def summarize(target: str | Path) -> dict[str, Any]:
    """Summary of one trace file, or of every trace in a directory.

    A directory's result holds ``traces`` (one summary per distinct file content: hard links
    and byte-identical copies are listed once, with every path under ``files``), and its
    ``comm_group.json`` and ``module_stats.json`` when present.
    """
    target = Path(target)
    if target.is_file():
        return {"traces": [{**summarize_trace(target).as_dict(), "files": [str(target)]}]}
    if not target.is_dir():
        raise HespasError(f"{target}: no such trace file or directory")
    paths = trace_files(target)
    if not paths:
        raise HespasError(f"{target}: no <prefix>.<rank>.et trace files")
    by_content: dict[bytes, dict[str, Any]] = {}
    for path in paths:
        content = path.read_bytes()
        digest = hashlib.blake2b(content, digest_size=16).digest()
        if digest in by_content:
            by_content[digest]["files"].append(str(path))
        else:
            by_content[digest] = {**summarize_trace(path, content).as_dict(), "files": [str(path)]}
    result: dict[str, Any] = {"directory": str(target), "ranks": len(paths),
                              "traces": list(by_content.values())}
    for key, name in (("comm_groups", COMM_GROUP_FILE), ("module_stats", STATS_FILE)):
        path = target / name
        if path.is_file():
            try:
                result[key] = json.loads(path.read_text())
            except json.JSONDecodeError as exc:
                raise HespasError(f"{path}: invalid JSON ({exc.msg})") from None
            except UnicodeDecodeError as exc:
                raise HespasError(f"{path}: not a JSON text file (not UTF-8 at byte {exc.start})") \
                    from None
    return result
