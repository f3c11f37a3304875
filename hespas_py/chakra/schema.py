"""The Chakra execution-trace schema (proto3 package ``ChakraProtoMsg``), defined in Python.

Field names, numbers and types are those of MLCommons Chakra's ``et_def.proto`` so the bytes are
interchangeable with every Chakra reader and writer (ASTRA-sim included). The schema is built from a
``FileDescriptorProto`` at import time, so no protoc is needed, and it lives in a private descriptor
pool so it cannot clash with the real ``chakra`` package imported in the same process. Readers
that need only some of a node's fields get a view of it from the same declarations
(`node_view_class`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_F = descriptor_pb2.FieldDescriptorProto

#: Scalar kinds of AttributeProto's value oneof, in field-number order (value n at 2n+1, list at 2n+2).
_ATTR_SCALARS: tuple[tuple[str, str, int], ...] = (
    ("double", "Double", _F.TYPE_DOUBLE), ("float", "Float", _F.TYPE_FLOAT),
    ("int32", "Int32", _F.TYPE_INT32), ("int64", "Int64", _F.TYPE_INT64),
    ("uint32", "Uint32", _F.TYPE_UINT32), ("uint64", "Uint64", _F.TYPE_UINT64),
    ("sint32", "Sint32", _F.TYPE_SINT32), ("sint64", "Sint64", _F.TYPE_SINT64),
    ("fixed32", "Fixed32", _F.TYPE_FIXED32), ("fixed64", "Fixed64", _F.TYPE_FIXED64),
    ("sfixed32", "Sfixed32", _F.TYPE_SFIXED32), ("sfixed64", "Sfixed64", _F.TYPE_SFIXED64),
    ("bool", "Bool", _F.TYPE_BOOL), ("string", "String", _F.TYPE_STRING),
    ("bytes", "Bytes", _F.TYPE_BYTES),
)


class NodeType(enum.IntEnum):
    """Chakra ``NodeType``."""

    INVALID_NODE = 0
    METADATA_NODE = 1
    MEM_LOAD_NODE = 2
    MEM_STORE_NODE = 3
    COMP_NODE = 4
    COMM_SEND_NODE = 5
    COMM_RECV_NODE = 6
    COMM_COLL_NODE = 7


class CollectiveCommType(enum.IntEnum):
    """Chakra ``CollectiveCommType``."""

    ALL_REDUCE = 0
    REDUCE = 1
    ALL_GATHER = 2
    GATHER = 3
    SCATTER = 4
    BROADCAST = 5
    ALL_TO_ALL = 6
    REDUCE_SCATTER = 7
    REDUCE_SCATTER_BLOCK = 8
    BARRIER = 9


def enum_name(kind: type[enum.IntEnum], value: int, unknown: str) -> str:
    """The name of ``value`` in ``kind`` (``NodeType``, ``CollectiveCommType``), else ``unknown``."""
    try:
        return kind(value).name
    except ValueError:
        return unknown


def _field(msg, name: str, number: int, ftype: int, *, repeated: bool = False,
           type_name: str = "", oneof: int | None = None) -> None:
    f = msg.field.add(name=name, number=number, type=ftype,
                      label=_F.LABEL_REPEATED if repeated else _F.LABEL_OPTIONAL)
    if type_name:
        f.type_name = f".ChakraProtoMsg.{type_name}"
    if oneof is not None:
        f.oneof_index = oneof


def _enum(file, cls: type[enum.IntEnum]) -> None:
    e = file.enum_type.add(name=cls.__name__)
    for member in cls:
        e.value.add(name=member.name, number=member.value)


#: Chakra's Node: (name, number, type, repeated, message or enum type).
_NODE_FIELDS: tuple[tuple[str, int, int, bool, str], ...] = (
    ("id", 1, _F.TYPE_UINT64, False, ""),
    ("name", 2, _F.TYPE_STRING, False, ""),
    ("type", 3, _F.TYPE_ENUM, False, "NodeType"),
    ("ctrl_deps", 4, _F.TYPE_UINT64, True, ""),
    ("data_deps", 5, _F.TYPE_UINT64, True, ""),
    ("start_time_micros", 6, _F.TYPE_UINT64, False, ""),
    ("duration_micros", 7, _F.TYPE_UINT64, False, ""),
    ("inputs", 8, _F.TYPE_MESSAGE, False, "IOInfo"),
    ("outputs", 9, _F.TYPE_MESSAGE, False, "IOInfo"),
    ("attr", 10, _F.TYPE_MESSAGE, True, "AttributeProto"),
)


def _build_file() -> descriptor_pb2.FileDescriptorProto:
    file = descriptor_pb2.FileDescriptorProto(
        name="hespas_py/et_def.proto", package="ChakraProtoMsg", syntax="proto3")
    _enum(file, NodeType)
    _enum(file, CollectiveCommType)

    attr = file.message_type.add(name="AttributeProto")
    attr.oneof_decl.add(name="value")
    _field(attr, "name", 1, _F.TYPE_STRING)
    _field(attr, "doc_string", 2, _F.TYPE_STRING)
    for i, (lower, title, ftype) in enumerate(_ATTR_SCALARS):
        lst = file.message_type.add(name=f"{title}List")
        _field(lst, "values", 1, ftype, repeated=True)
        _field(attr, f"{lower}_val", 2 * i + 3, ftype, oneof=0)
        _field(attr, f"{lower}_list", 2 * i + 4, _F.TYPE_MESSAGE, type_name=f"{title}List", oneof=0)

    meta = file.message_type.add(name="GlobalMetadata")
    _field(meta, "version", 1, _F.TYPE_STRING)
    _field(meta, "attr", 2, _F.TYPE_MESSAGE, repeated=True, type_name="AttributeProto")

    io = file.message_type.add(name="IOInfo")
    for number, name in enumerate(("values", "shapes", "types"), start=1):
        _field(io, name, number, _F.TYPE_STRING)

    tensor = file.message_type.add(name="Tensor")
    for number, name in enumerate(
            ("tensor_id", "storage_id", "offset", "num_elem", "elem_bytes"), start=1):
        _field(tensor, name, number, _F.TYPE_UINT64)
    _field(tensor, "device", 6, _F.TYPE_STRING)

    node = file.message_type.add(name="Node")
    for name, number, ftype, repeated, type_name in _NODE_FIELDS:
        _field(node, name, number, ftype, repeated=repeated, type_name=type_name)
    return file


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(_build_file())


def _message(name: str) -> type[Any]:
    return message_factory.GetMessageClass(_POOL.FindMessageTypeByName(f"ChakraProtoMsg.{name}"))


GlobalMetadata = _message("GlobalMetadata")
if TYPE_CHECKING:  # a class built from the descriptor at run time: no field is known statically
    Node: TypeAlias = Any
else:
    Node = _message("Node")
AttributeProto = _message("AttributeProto")
IOInfo = _message("IOInfo")
Tensor = _message("Tensor")
BoolList = _message("BoolList")


def node_view_class(fields: Sequence[str], raw: Sequence[str] = ()) -> type[Any]:
    """A reading view of Chakra's Node: only ``fields`` (same names and numbers; any other field
    of the bytes is skipped unparsed), the node type read as its integer, each message field in
    ``raw`` kept as its encoded bytes for the reader to decode (or not)."""
    declared = {name: (number, ftype, repeated) for name, number, ftype, repeated, _ in _NODE_FIELDS}
    file = descriptor_pb2.FileDescriptorProto(name="hespas_py/node_view.proto",
                                              package="ChakraView", syntax="proto3")
    view = file.message_type.add(name="Node")
    for name in fields:
        number, ftype, repeated = declared[name]
        if ftype == _F.TYPE_MESSAGE and name not in raw:
            raise ValueError(f"Node.{name}: a message field of a view is read raw")
        ftype = _F.TYPE_BYTES if name in raw else _F.TYPE_INT32 if ftype == _F.TYPE_ENUM else ftype
        _field(view, name, number, ftype, repeated=repeated)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("ChakraView.Node"))
