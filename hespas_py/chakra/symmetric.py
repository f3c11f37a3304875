"""A symmetric trace set: one trace for every device, and each device's groups and peers.

Why and how: docs/traces.md.
"""

from __future__ import annotations

import json
from pathlib import Path

from hespas_py.chakra.encoder import CompCosts, Plan, TraceEncoder, place
from hespas_py.chakra.files import SYMMETRIC_FILE, trace_name
from hespas_py.chakra.schema import NodeType
from hespas_py.split.blocks import BlockGraph

#: Distinct traces from which a trace set is written as a symmetric set.
SYMMETRIC_FROM = 4096
_KEYS = {NodeType.COMM_COLL_NODE: "group", NodeType.COMM_SEND_NODE: "send",
         NodeType.COMM_RECV_NODE: "recv"}


def one_placement(distinct: list[list[tuple]], num_devices: int) -> bool:
    """Whether every device has as many communication nodes in every collective as device 0
    (so every device's trace has device 0's nodes)."""
    return all(len(set(map(len, roles))) == 1 for roles in distinct) and num_devices > 0


def _column(roles: list[tuple]) -> dict[str, list[int]]:
    """Per node kind of a collective's roles, each device's group or peer."""
    column: dict[str, list[int]] = {}
    for comm in roles[0]:
        column[_KEYS[comm.kind]] = []
    for comms in roles:
        for comm in comms:
            key = _KEYS[comm.kind]
            column[key].append(comm.pg if key == "group" else
                               comm.dst if key == "send" else comm.src)
    return column


def write_symmetric(out_dir: Path, graph: BlockGraph, plan: Plan, distinct: list[list[tuple]],
                    comp_costs: CompCosts, num_devices: int, jobs: int) -> dict[str, int]:
    """Write device 0's trace and ``symmetric.json`` (module docstring); device 0's node count
    per node type name."""
    placed = place(graph, plan, 0)
    data, kinds = TraceEncoder(placed, comp_costs, jobs).trace(plan, 0)
    (out_dir / trace_name(0)).write_bytes(data)
    index = {id(roles): i for i, roles in enumerate(distinct)}
    nodes = {}
    for item in placed:
        column = index[id(plan[item.block.id])] if item.comms else None
        for offset, comm in enumerate(item.comms):
            nodes[str(item.first + offset)] = [column, _KEYS[comm.kind]]
    doc = {"num_devices": num_devices, "columns": [_column(roles) for roles in distinct],
           "nodes": nodes}
    (out_dir / SYMMETRIC_FILE).write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    return {NodeType(k).name: n for k, n in kinds.items()}
