"""``module_stats.json``: what the compute estimate of one step is made of.

Why and how: docs/traces.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from hespas_py.chakra.writer import collective_bytes
from hespas_py.estimators.base import Estimate, OpCost
from hespas_py.hardware import Hardware
from hespas_py.kernels import FLASH_BACKWARD, FLASH_FORWARD
from hespas_py.split.blocks import BlockGraph


def _tally(table: dict[str, dict[str, float]], key: str, cost: OpCost, count: int) -> None:
    entry = table.setdefault(key, {"count": 0, "flops": 0.0, "bytes": 0.0, "time_s": 0.0})
    entry["count"] += count
    entry["flops"] += cost.flops * count
    entry["bytes"] += cost.bytes * count
    entry["time_s"] += cost.time_s * count


def _ranked(table: dict[str, dict[str, float]], total_time: float) -> dict[str, dict[str, float]]:
    """Entries by descending time, each with its share of the total time."""
    ranked = sorted(table.items(), key=lambda item: (-item[1]["time_s"], item[0]))
    return {key: {**entry, "time_share": entry["time_s"] / total_time if total_time else 0.0}
            for key, entry in ranked}


def module_stats(graph: BlockGraph, estimates: Sequence[Estimate | None], hardware: Hardware,
                 estimator: str, cache: Mapping[str, float] | None = None) -> dict[str, Any]:
    """The stats document (plain JSON types) of one estimated block graph."""
    per_op: dict[str, dict[str, float]] = {}
    per_dtype: dict[str, dict[str, float]] = {}
    collectives: dict[str, dict[str, float]] = {}
    # Estimators hand the same OpCost to every op they cost alike: count rows by identity
    # (at C speed), then tally each distinct row once.
    all_rows: list[OpCost] = []
    time_s = flops = nbytes = ceiling_flops = ceiling_time = 0.0
    compute = ops = 0
    for block in graph.blocks:
        ops += len(block.ops)
        if block.collective:
            entry = collectives.setdefault(block.ops[0].short_name, {"count": 0, "bytes": 0})
            entry["count"] += 1
            entry["bytes"] += collective_bytes(block)
            if len(block.ops) > 1:  # combined (`hespas_py.split.combine`): how many it stands for
                entry["combined_ops"] = entry.get("combined_ops", 0) + len(block.ops)
            continue
        compute += 1
        estimate = estimates[block.id]
        assert estimate is not None, "every compute block has an estimate"
        time_s += estimate.time_s
        flops += estimate.flops
        nbytes += estimate.bytes
        if estimate.peak_flops > 0:
            ceiling_flops += estimate.flops
            ceiling_time += estimate.time_s * estimate.peak_flops
        all_rows += estimate.per_op
    occurrences = Counter(map(id, all_rows))
    rows = dict(zip(map(id, all_rows), all_rows, strict=True))
    fallback: Counter[str] = Counter()
    notes: dict[str, None] = {}
    for key, cost in rows.items():
        count = occurrences[key]
        _tally(per_op, cost.name, cost, count)
        _tally(per_dtype, cost.dtype, cost, count)
        if cost.fallback:
            fallback[cost.name] += count
        notes.update(dict.fromkeys(cost.notes))
    return {
        "source": graph.source,
        "estimator": estimator,
        "hardware": hardware.name,
        "num_devices": graph.num_devices,
        "blocks": {"compute": compute, "collective": len(graph.blocks) - compute, "ops": ops},
        "runtime_s": time_s,
        "flops": flops,
        "bytes": nbytes,
        "flops_per_s": flops / time_s if time_s else 0.0,
        "flops_utilization": ceiling_flops / ceiling_time if ceiling_time else 0.0,
        "memory_bandwidth_utilization": (nbytes / (time_s * hardware.memory_bandwidth)
                                         if time_s else 0.0),
        "per_op": _ranked(per_op, time_s),
        "per_dtype": _ranked(per_dtype, time_s),
        "collectives": collectives,
        "cache": dict(cache) if cache is not None else None,
        "fallback_ops": dict(fallback.most_common()),
        "notes": list(notes),
        "attention": {
            "mode": "fused" if hardware.params.fused_attention else "materialized",
            **{name: {"count": per_op.get(label, {}).get("count", 0),
                      "time_s": per_op.get(label, {}).get("time_s", 0.0)}
               for name, label in (("forward", FLASH_FORWARD), ("backward", FLASH_BACKWARD))},
        },
        "loops": [{"where": loop.where, "op": loop.op.name, "trips": loop.trips,
                   "trips_from": loop.trips_from, "executions": loop.executions,
                   "blocks_per_iteration": loop.blocks_per_iteration,
                   "scope": number, "parent_scope": loop.parent}
                  for number, loop in enumerate(graph.loops, 1)],
        "assumptions": [{"where": a.where, "op": a.op, "kind": a.kind, "detail": a.detail}
                        for a in graph.assumptions],
    }
