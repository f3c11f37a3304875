"""Small Chakra trace builders: the nodes ASTRA-sim simulates, and trace sets on disk.

Used to write test and benchmark workloads with the project's own schema.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Sequence

from hespas_py.chakra.io import write_trace
from hespas_py.chakra.schema import AttributeProto, CollectiveCommType, Node, NodeType


def _node(node_id: int, name: str, kind: NodeType, deps: Iterable[int],
          ctrl_deps: Iterable[int]) -> Node:
    node = Node(id=node_id, name=name, type=kind)
    node.data_deps.extend(deps)
    node.ctrl_deps.extend(ctrl_deps)
    node.attr.append(AttributeProto(name="is_cpu_op", bool_val=False))
    return node


def comp(node_id: int, duration_us: int, deps: Iterable[int] = (), *,
         ctrl_deps: Iterable[int] = (), num_ops: int | None = None,
         tensor_size: int | None = None, name: str = "") -> Node:
    """A GPU compute node (num_ops/tensor_size only matter with the roofline enabled)."""
    node = _node(node_id, name or f"comp{node_id}", NodeType.COMP_NODE, deps, ctrl_deps)
    node.duration_micros = duration_us
    if num_ops is not None:
        node.attr.append(AttributeProto(name="num_ops", int64_val=num_ops))
    if tensor_size is not None:
        node.attr.append(AttributeProto(name="tensor_size", uint64_val=tensor_size))
    return node


def collective(node_id: int, comm_type: CollectiveCommType, size: int,
               deps: Iterable[int] = (), *, ctrl_deps: Iterable[int] = (), pg_name: str = "",
               involved_dim: Sequence[bool] | None = None, name: str = "") -> Node:
    """A COMM_COLL node of ``size`` bytes per rank."""
    node = _node(node_id, name or f"{comm_type.name.lower()}{node_id}", NodeType.COMM_COLL_NODE,
                 deps, ctrl_deps)
    node.attr.append(AttributeProto(name="comm_type", int64_val=int(comm_type)))
    node.attr.append(AttributeProto(name="comm_size", int64_val=size))
    if pg_name:
        node.attr.append(AttributeProto(name="pg_name", string_val=pg_name))
    if involved_dim is not None:
        attr = AttributeProto(name="involved_dim")
        attr.bool_list.values.extend(involved_dim)
        node.attr.append(attr)
    return node


def point_to_point(node_id: int, kind: NodeType, src: int, dst: int, size: int, tag: int,
                   deps: Iterable[int] = (), *, name: str = "") -> Node:
    """A COMM_SEND_NODE or COMM_RECV_NODE between ``src`` and ``dst``."""
    node = _node(node_id, name or f"{kind.name.lower()}{node_id}", kind, deps, ())
    for key, value in (("comm_src", src), ("comm_dst", dst), ("comm_tag", tag)):
        node.attr.append(AttributeProto(name=key, int32_val=value))
    node.attr.append(AttributeProto(name="comm_size", int64_val=size))
    return node


def write_trace_set(prefix: str | Path, per_npu: Sequence[Sequence[Node]]) -> list[Path]:
    """Write ``<prefix>.<npu>.et`` for each NPU's node list."""
    paths = []
    for npu, nodes in enumerate(per_npu):
        path = Path(f"{prefix}.{npu}.et")
        with path.open("wb") as stream:
            write_trace(stream, nodes)
        paths.append(path)
    return paths


def write_identical_trace_set(prefix: str | Path, nodes: Sequence[Node],
                              num_npus: int) -> list[Path]:
    """Write one trace and hard-link it as every NPU's trace (as SPMD generators can)."""
    first = write_trace_set(prefix, [nodes])[0]
    paths = [first]
    for npu in range(1, num_npus):
        path = Path(f"{prefix}.{npu}.et")
        path.unlink(missing_ok=True)
        os.link(first, path)
        paths.append(path)
    return paths
