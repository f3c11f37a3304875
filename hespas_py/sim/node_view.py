"""Chakra trace bytes to node fields, as ASTRA-sim's Chakra feeder reads them.

Attributes: any integer-valued field (bool included) converts to an integer attribute, a float
does not; ``pg_name`` must be a string. Node kinds ASTRA-sim cannot finish a run with (METADATA,
INVALID, MEM_LOAD/STORE) are rejected.
"""

from __future__ import annotations

from pathlib import Path

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

from hespas_py.chakra.schema import AttributeProto, GlobalMetadata, NodeType, enum_name
from hespas_py.errors import HespasError

_INT_FIELDS = frozenset({"int32_val", "int64_val", "uint32_val", "uint64_val", "sint32_val",
                         "sint64_val", "fixed32_val", "fixed64_val", "sfixed32_val",
                         "sfixed64_val", "bool_val"})
_KNOWN_INT_ATTRS = frozenset({"comm_type", "comm_size", "comm_src", "comm_dst", "comm_tag",
                              "comm_priority", "num_ops", "tensor_size", "is_cpu_op"})
_SIMULATED_TYPES = frozenset({NodeType.COMP_NODE, NodeType.COMM_COLL_NODE, NodeType.COMM_SEND_NODE,
                              NodeType.COMM_RECV_NODE})


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


def node_encodings(path: Path, data: bytes) -> list[bytes]:
    """The encoded nodes of a trace file's bytes: length-prefixed messages after the
    GlobalMetadata (`HespasError` naming ``path`` when empty or malformed)."""
    messages = []
    position, end = 0, len(data)
    while position < end:
        size = shift = 0
        while True:
            if position >= end:
                raise HespasError(f"{path}: not a Chakra trace (truncated length prefix)")
            byte = data[position]
            position += 1
            size |= (byte & 0x7F) << shift
            if byte < 0x80:
                break
            shift += 7
        if position + size > end:
            raise HespasError(f"{path}: not a Chakra trace (truncated message)")
        messages.append(data[position:position + size])
        position += size
    if not messages:
        raise HespasError(f"{path}: empty Chakra trace")
    try:
        GlobalMetadata.FromString(messages[0])
    except DecodeError as exc:
        raise HespasError(f"{path}: not a Chakra trace ({exc})") from None
    return messages[1:]


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
