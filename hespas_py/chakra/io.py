"""Reading and writing Chakra trace files: one GlobalMetadata, then Nodes, each length-prefixed
(protobuf's varint length prefix: `write_trace` writes it, `parse_trace` and `node_encodings`
read it)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from google.protobuf import proto
from google.protobuf.message import DecodeError

from hespas_py.chakra.schema import GlobalMetadata, Node
from hespas_py.errors import HespasError

#: Version string written into GlobalMetadata (MLCommons' converters write "0.0.4").
TRACE_VERSION = "0.0.4"

# The `type: ignore[arg-type]` below: protobuf's stub types the stream of
# `proto.parse_length_prefixed` as BytesIO; any binary stream (an open file) works.


def write_trace(stream: BinaryIO, nodes: Iterable, version: str = TRACE_VERSION) -> None:
    """Write a GlobalMetadata and then every node, each with protobuf's varint length prefix."""
    stream.write(length_prefixed(GlobalMetadata(version=version)))
    write_nodes(stream, nodes)


def write_nodes(stream: BinaryIO, nodes: Iterable) -> None:
    """Write nodes, each with protobuf's varint length prefix (a trace's body, or part of it):
    the bytes of ``proto.serialize_length_prefixed``, whose per-call set-up costs several times
    the encoding of a node."""
    write = stream.write
    for node in nodes:
        write(length_prefixed(node))


def length_prefixed(message: Any) -> bytes:
    """One message (a node, the metadata) as a trace holds it: its length as a varint, then
    its bytes."""
    data: bytes = message.SerializeToString()
    return (_ONE_BYTE[len(data)] if len(data) < 0x80 else _varint(len(data))) + data


#: The varints of 0 to 127: one byte each.
_ONE_BYTE = tuple(bytes((n,)) for n in range(0x80))


def _varint(value: int) -> bytes:
    """Protobuf's base-128 varint of a non-negative ``value``: 7 bits a byte, low bits first, the
    high bit set on every byte but the last."""
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def parse_trace(path: str | Path, stream: BinaryIO,
                node_type: type[Any] = Node) -> tuple[Any, list]:
    """The GlobalMetadata and every node of a trace stream, each node parsed as ``node_type``
    (Node, or a lighter message with Node's field numbers); `HespasError` naming ``path`` for an
    empty or malformed stream."""
    try:
        meta = proto.parse_length_prefixed(GlobalMetadata, stream)  # type: ignore[arg-type]
        if meta is None:
            raise HespasError(f"{path}: empty Chakra trace")
        nodes = []
        parse = proto.parse_length_prefixed
        while (node := parse(node_type, stream)) is not None:  # type: ignore[arg-type]
            nodes.append(node)
    except (DecodeError, ValueError) as exc:
        raise HespasError(f"{path}: not a Chakra trace ({exc})") from None
    return meta, nodes


def node_encodings(path: str | Path, data: bytes) -> list[bytes]:
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


def read_trace(path: str | Path) -> tuple[Any, list]:
    """Read one ``.et`` file into its GlobalMetadata and its list of Nodes."""
    path = Path(path)
    try:
        with path.open("rb") as stream:
            return parse_trace(path, stream)
    except FileNotFoundError:
        raise HespasError(f"{path}: no such file") from None
