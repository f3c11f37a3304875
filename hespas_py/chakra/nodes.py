"""Chakra nodes of the kinds ASTRA-sim simulates, with the attributes it reads.

The one place that says how a compute, collective or point-to-point node is encoded (attribute
names, their value fields and order); the trace writer and the synthetic test and benchmark
traces both build their nodes here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hespas_py.chakra.schema import CollectiveCommType, Node, NodeType


def _node(node_id: int, name: str, kind: NodeType, deps: Iterable[int],
          ctrl_deps: Iterable[int], duration_us: int = 0, is_cpu_op: bool = False) -> Node:
    node = Node(id=node_id, name=name, type=kind, data_deps=deps, duration_micros=duration_us)
    if ctrl_deps:
        node.ctrl_deps.extend(ctrl_deps)
    node.attr.add(name="is_cpu_op", bool_val=is_cpu_op)
    return node


def comp(node_id: int, duration_us: int, deps: Iterable[int] = (), *,
         ctrl_deps: Iterable[int] = (), num_ops: int | None = None,
         tensor_size: int | None = None, name: str = "", cpu: bool = False) -> Node:
    """A GPU compute node, or with ``cpu`` a CPU op (num_ops/tensor_size only matter for GPU
    nodes with ASTRA-sim's roofline enabled)."""
    node = _node(node_id, name or f"comp{node_id}", NodeType.COMP_NODE, deps, ctrl_deps,
                 duration_us, cpu)
    if num_ops is not None:
        node.attr.add(name="num_ops", int64_val=num_ops)
    if tensor_size is not None:
        node.attr.add(name="tensor_size", uint64_val=tensor_size)
    return node


class CompNodes:
    """Compute nodes as `comp` builds them (GPU nodes with ``num_ops`` and ``tensor_size``), one
    after another in one reused message: a trace holds thousands, and building a message per
    node costs the writer twice what encoding it does. `fill` returns that message, valid
    until the next call: encode it before asking for the next node."""

    __slots__ = ("_deps", "_node", "_num_ops", "_tensor_size")

    def __init__(self) -> None:
        self._node = comp(0, 0, num_ops=0, tensor_size=0)
        self._deps = self._node.data_deps
        _, self._num_ops, self._tensor_size = self._node.attr  # comp's order

    def fill(self, node_id: int, duration_us: int, deps: Iterable[int], num_ops: int,
             tensor_size: int, name: str = "") -> Node:
        """The node ``comp(node_id, duration_us, deps, num_ops=num_ops,
        tensor_size=tensor_size, name=name)`` would be."""
        node = self._node
        node.id = node_id
        node.name = name or f"comp{node_id}"
        node.duration_micros = duration_us
        del self._deps[:]
        self._deps.extend(deps)
        self._num_ops.int64_val = num_ops
        self._tensor_size.uint64_val = tensor_size
        return node


def collective(node_id: int, comm_type: int, size: int,
               deps: Iterable[int] = (), *, ctrl_deps: Iterable[int] = (), pg_name: str = "",
               involved_dim: Sequence[bool] | None = None, name: str = "") -> Node:
    """A COMM_COLL node of ``size`` bytes per rank (``pg_name``: its communicator group)."""
    node = _node(node_id, name or f"{CollectiveCommType(comm_type).name.lower()}{node_id}",
                 NodeType.COMM_COLL_NODE, deps, ctrl_deps)
    node.attr.add(name="comm_type", int64_val=int(comm_type))
    node.attr.add(name="comm_size", int64_val=size)
    if pg_name:
        node.attr.add(name="pg_name", string_val=pg_name)
    if involved_dim is not None:
        node.attr.add(name="involved_dim").bool_list.values.extend(involved_dim)
    return node


def point_to_point(node_id: int, kind: NodeType, src: int, dst: int, size: int, tag: int,
                   deps: Iterable[int] = (), *, ctrl_deps: Iterable[int] = (),
                   name: str = "") -> Node:
    """A COMM_SEND_NODE or COMM_RECV_NODE between ``src`` and ``dst``."""
    node = _node(node_id, name or f"{NodeType(kind).name.lower()}{node_id}", kind, deps,
                 ctrl_deps)
    node.attr.add(name="comm_src", int32_val=src)
    node.attr.add(name="comm_dst", int32_val=dst)
    node.attr.add(name="comm_tag", int32_val=tag)
    node.attr.add(name="comm_size", int64_val=size)
    return node
