"""A simulated run as Chrome/Perfetto trace-event JSON (opens in ui.perfetto.dev).

One process per NPU with two threads: compute (GPU COMP nodes) and communication (collectives,
sends, receives), and a third, CPU, for CPU ops (``is_cpu_op``) on NPUs that run any. Each node is
a complete ("X") event in microseconds with its node id, bytes and collective type in ``args``.
"""

from __future__ import annotations

import json
from pathlib import Path

from hespas_py.chakra.schema import NodeType
from hespas_py.errors import HespasError
from hespas_py.sim.result import SimResult
from hespas_py.sim.trace import CPU, TraceNode, collective_name

COMPUTE_TRACK, COMM_TRACK, CPU_TRACK = 0, 1, 2


def _event(npu: int, node: TraceNode, issue: int, finish: int) -> dict:
    compute = node.type == NodeType.COMP_NODE
    args: dict = {"node_id": node.id}
    if compute:
        category = "compute"
        track = CPU_TRACK if node.resource == CPU else COMPUTE_TRACK
    else:
        track = COMM_TRACK
        category = "communication"
        args["bytes"] = node.ints.get("comm_size", 0)
        if node.type == NodeType.COMM_COLL_NODE:
            args["collective"] = collective_name(node)
            if node.pg_name:
                args["pg_name"] = node.pg_name
        else:
            args["peer"] = node.ints.get("comm_dst" if node.type == NodeType.COMM_SEND_NODE
                                         else "comm_src")
    return {"name": node.name or f"node {node.id}", "cat": category, "ph": "X",
            "pid": npu, "tid": track,
            "ts": issue / 1000, "dur": (finish - issue) / 1000, "args": args}


def trace_events(result: SimResult) -> dict:
    """The trace-event document of a simulated run."""
    events: list[dict] = []
    for device in result.devices:
        npu = device.id
        events.append({"name": "process_name", "ph": "M", "pid": npu,
                       "args": {"name": f"NPU {npu}"}})
        tracks = [(COMPUTE_TRACK, "compute"), (COMM_TRACK, "communication")]
        if device.cpu_time_ns:
            tracks.append((CPU_TRACK, "CPU"))
        for tid, label in tracks:
            events.append({"name": "thread_name", "ph": "M", "pid": npu, "tid": tid,
                           "args": {"name": label}})
        if device.trace is None:
            continue
        nodes, index = device.trace.nodes, device.trace.index
        events.extend(_event(npu, nodes[index[node_id]], issue, finish)
                      for node_id, issue, finish in device.timeline)
    return {"traceEvents": events, "displayTimeUnit": "ns"}


def write_timeline(result: SimResult, path: str | Path) -> None:
    """Write the trace-event JSON of ``result`` to ``path``."""
    path = Path(path)
    try:
        path.write_text(json.dumps(trace_events(result), separators=(",", ":")))
    except OSError as exc:
        raise HespasError(f"{path}: cannot write timeline ({exc.strerror})") from None
