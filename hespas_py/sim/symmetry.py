"""When one NPU's replay can stand for every NPU's: the structural checks of a replicated run.

Why and how: docs/simulation.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hespas_py.chakra.schema import NodeType
from hespas_py.sim.columns import Column, Columns, of_traces
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sim.network import EventQueue, Network
from hespas_py.sim.trace import Trace
from hespas_py.sim.workload import NATIVE_TAG_RANGE

_COLL, _SEND, _RECV = NodeType.COMM_COLL_NODE, NodeType.COMM_SEND_NODE, NodeType.COMM_RECV_NODE
_SIMULATED = frozenset({NodeType.COMP_NODE, _COLL, _SEND, _RECV})


@dataclass(frozen=True)
class SymmetricPlan:
    """How NPU 0's replay stands for every NPU's.

    Attributes:
        layouts: per collective position, the number of its distinct group layout (the same
            collective at two positions with one layout takes the same time).
        sends: per send position, the ns its message takes.
        receives: per receive position, the position of the send whose message it takes and
            that message's ns.
    """

    layouts: dict[int, int]
    sends: dict[int, int]
    receives: dict[int, tuple[int, int]]


def _partitions(column: Column, groups: Mapping[int, tuple[int, ...]]) -> bool:
    """Whether the groups of ``column`` partition the machine into groups of one size, each
    NPU in the group it names."""
    named = Counter(column)
    if None in named:
        return len(named) == 1
    sizes = set()
    for gid, count in named.items():
        members = groups.get(gid)
        if members is None or len(members) != count or any(column[m] != gid for m in members):
            return False
        sizes.add(count)
    return len(sizes) == 1


def _message_ns(column: Column, size: int, network: Network, sending: bool) -> int | None:
    """The one time every NPU's message of ``size`` bytes to (or from) its peer in ``column``
    takes, or None when they differ or an NPU is its own peer."""
    times = set()
    for npu, other in enumerate(column):
        if other == npu or not 0 <= other < len(column):
            return None
        times.add(network.delay(npu, other, size) if sending else network.delay(other, npu, size))
        if len(times) > 1:
            return None
    return times.pop()


def symmetric_plan(columns: Columns, system: SystemConfig, network: NetworkConfig,
                   groups: Mapping[int, tuple[int, ...]]) -> SymmetricPlan | None:
    """The plan of a replicated run (module docstring), or None when NPU 0's replay cannot
    stand for every NPU's."""
    if any(a.name == "doubleBinaryTree" for algs in system.implementations.values() for a in algs):
        return None
    nodes = columns.trace.nodes
    if any(node.type not in _SIMULATED for node in nodes):
        return None
    net = Network(network, EventQueue())  # geometry only: no events
    layouts: dict[int, int] = {}
    numbers: dict[int, int | None] = {}
    sends: dict[int, int] = {}
    by_key: dict[tuple, list[int]] = {}
    checked: dict[tuple, int | None] = {}
    for position, node in enumerate(nodes):
        if node.type == _COLL:
            column = columns.values[position]
            if id(column) not in numbers:
                numbers[id(column)] = len(numbers) if _partitions(column, groups) else None
            number = numbers[id(column)]
            if number is None:
                return None
            layouts[position] = number
        elif node.type == _SEND:
            size = node.ints["comm_size"]
            key = (id(columns.values[position]), size, True)
            if key not in checked:
                checked[key] = _message_ns(columns.values[position], size, net, True)
            message_ns = checked[key]
            if message_ns is None:
                return None
            sends[position] = message_ns
            by_key.setdefault((node.ints["comm_tag"] % NATIVE_TAG_RANGE, size), []).append(position)
    receives = _receives(columns, sends, by_key)
    return None if receives is None else SymmetricPlan(layouts, sends, receives)


def _receives(columns: Columns, sends: dict[int, int],
              by_key: dict[tuple, list[int]]) -> dict[int, tuple[int, int]] | None:
    """Per receive position, its matching send position and time (None when a receive has no
    send of its tag and size, or its source does not send to it there)."""
    taken: Counter = Counter()
    receives = {}
    verified: set[tuple[int, int]] = set()
    for position, node in enumerate(columns.trace.nodes):
        if node.type != _RECV:
            continue
        key = (node.ints["comm_tag"] % NATIVE_TAG_RANGE, node.ints["comm_size"])
        matching = by_key.get(key, [])
        if taken[key] >= len(matching):
            return None
        send = matching[taken[key]]
        taken[key] += 1
        sources, targets = columns.values[position], columns.values[send]
        if (id(sources), id(targets)) not in verified:
            if any(targets[src] != npu for npu, src in enumerate(sources)):
                return None
            verified.add((id(sources), id(targets)))
        receives[position] = (send, sends[send])
    return receives


def group_layouts(traces: Sequence[Trace], system: SystemConfig, network: NetworkConfig,
                  groups: Mapping[int, tuple[int, ...]]) -> dict[int, int] | None:
    """Per collective position, the number of its distinct group layout, for traces of
    computation and collectives only; None when NPU 0's replay cannot stand for every NPU's."""
    columns = of_traces(traces)
    if columns is None or any(node.type in (_SEND, _RECV) for node in columns.trace.nodes):
        return None
    plan = symmetric_plan(columns, system, network, groups)
    return None if plan is None else plan.layouts
