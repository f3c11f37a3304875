"""When one NPU's replay can stand for every NPU's: the structural checks of a replicated run.

The NPUs' traces must be identical but for the communicator group (``pg_name``) each collective
names, hold only compute and collective nodes, and at every collective position the groups the
NPUs name must partition the machine into groups of one size, each NPU in the group its own trace
names (a whole-machine collective is the one-group partition). Traces are compared once per
distinct trace (`Trace.digest`, then `Trace.shape`) and group layouts once per distinct layout.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from hespas_py.chakra.schema import NodeType
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sim.trace import Trace
from hespas_py.sim.workload import group_number

#: Group ids named at one position, one per distinct trace (None: the whole machine).
Layout = tuple[int | None, ...]


def _distinct(traces: Sequence[Trace]) -> tuple[list[Trace], list[int]]:
    """The distinct traces (by digest) in order of first NPU, and per NPU its index among them."""
    index: dict[bytes, int] = {}
    distinct: list[Trace] = []
    of_npu = []
    for trace in traces:
        number = index.get(trace.digest)
        if number is None:
            number = index[trace.digest] = len(distinct)
            distinct.append(trace)
        of_npu.append(number)
    return distinct, of_npu


def _partitions(layout: Layout, of_npu: list[int], groups: Mapping[int, tuple[int, ...]],
                num_npus: int) -> bool:
    """Whether the groups of ``layout`` partition the machine into groups of one size, each NPU
    in the group its own trace names."""
    named = set(layout)
    if None in named:
        return len(named) == 1
    owner: list[int | None] = [None] * num_npus
    sizes = set()
    for gid in named:
        members = groups.get(gid)
        if members is None:
            return False
        sizes.add(len(members))
        for npu in members:
            if owner[npu] is not None:
                return False
            owner[npu] = gid
    return len(sizes) == 1 and all(owner[npu] == layout[kind] for npu, kind in enumerate(of_npu))


def group_layouts(traces: Sequence[Trace], system: SystemConfig, network: NetworkConfig,
                  groups: Mapping[int, tuple[int, ...]]) -> dict[int, int] | None:
    """Per collective position, the number of its distinct group layout (the same collective at
    two positions with one layout takes the same time), or None when NPU 0's replay cannot
    stand for every NPU's."""
    if any(a.name == "doubleBinaryTree" for algs in system.implementations.values() for a in algs):
        return None
    distinct, of_npu = _distinct(traces)
    first = distinct[0]
    if any(trace.shape != first.shape for trace in distinct[1:]):
        return None
    compute, collective = NodeType.COMP_NODE, NodeType.COMM_COLL_NODE
    positions = []
    for position, node in enumerate(first.nodes):
        if node.type == collective:
            positions.append(position)
        elif node.type != compute:
            return None
    pg_names = [[trace.nodes[p].pg_name for p in positions] for trace in distinct]
    ids: dict[str, int | None] = {}
    numbers: dict[tuple[str, ...], int] = {}
    layouts = {}
    for position, names in zip(positions, zip(*pg_names)):
        number = numbers.get(names)
        if number is None:
            try:
                layout = tuple(ids[n] if n in ids else ids.setdefault(n, group_number(n))
                               for n in names)
            except ValueError:  # a pg_name that names no group: the full simulation reports it
                return None
            if not _partitions(layout, of_npu, groups, network.num_npus):
                return None
            number = numbers[names] = len(numbers)
        layouts[position] = number
    return layouts
