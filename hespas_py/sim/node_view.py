"""Chakra trace bytes to node fields, as ASTRA-sim's Chakra feeder reads them.

Attributes: any integer-valued field (bool included) converts to an integer attribute, a float
does not; ``pg_name`` must be a string. Node kinds ASTRA-sim cannot finish a run with (METADATA,
INVALID, MEM_LOAD/STORE) are rejected.
"""

from __future__ import annotations

from pathlib import Path

from google.protobuf.message import DecodeError

from hespas_py.chakra.schema import AttributeProto, NodeType, enum_name, node_view_class
from hespas_py.errors import HespasError

_INT_FIELDS = frozenset({"int32_val", "int64_val", "uint32_val", "uint64_val", "sint32_val",
                         "sint64_val", "fixed32_val", "fixed64_val", "sfixed32_val",
                         "sfixed64_val", "bool_val"})
_KNOWN_INT_ATTRS = frozenset({"comm_type", "comm_size", "comm_src", "comm_dst", "comm_tag",
                              "comm_priority", "num_ops", "tensor_size", "is_cpu_op"})
_SIMULATED_TYPES = frozenset({NodeType.COMP_NODE, NodeType.COMM_COLL_NODE, NodeType.COMM_SEND_NODE,
                              NodeType.COMM_RECV_NODE})


#: A reading view of Chakra's Node: the fields the simulator reads, attributes kept as raw bytes
#: (attribute messages repeat across nodes, so each distinct encoding is decoded once).
_NodeView = node_view_class(("id", "name", "type", "ctrl_deps", "data_deps", "duration_micros",
                             "attr"), raw=("attr",))


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


def decode_node(path: Path, encoded: bytes, attributes: dict[bytes, tuple]) -> tuple:
    """The fields of `hespas_py.sim.trace.TraceNode` of one encoded node; ``attributes`` caches
    decoded attribute encodings."""
    try:
        view = _NodeView.FromString(encoded)
    except DecodeError as exc:
        raise HespasError(f"{path}: not a Chakra trace ({exc})") from None
    ints = {}
    pg_name = ""
    involved = None
    for raw in view.attr:
        decoded = attributes.get(raw)
        if decoded is None:
            try:
                decoded = attributes[raw] = _decode_attribute(raw)
            except DecodeError as exc:
                raise HespasError(f"{path}: node {view.id}: an attribute does not decode "
                                  f"({exc})") from None
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
        name = enum_name(NodeType, kind, str(kind))
        raise HespasError(f"{path}: node {view.id} has type {name}; ASTRA-sim only completes "
                          "runs of COMP, COMM_COLL, COMM_SEND and COMM_RECV nodes")
    deps = view.data_deps[:]
    if view.ctrl_deps:
        deps += view.ctrl_deps
    deps = tuple(sorted(set(deps))) if len(deps) > 1 else tuple(deps)
    return (view.id, view.name, kind, deps, view.duration_micros, ints, pg_name, involved)
