"""The work plan of a sweep: one trace job per distinct (workload, node, estimator, split), one
point per (workload, node, system, estimator, variant), each point naming the traces it replays.

Rows come out in plan order: workloads, then nodes, systems, estimators and variants, each in the
spec's order. Work is planned by content (`hespas_py.sweep.keys`): two nodes or variants that come
to the same numbers share their traces or simulation.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hespas_py.pipeline import GenConfig
from hespas_py.run import Split, build_config
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sweep.keys import file_digest, machine_key, point_key, trace_key
from hespas_py.sweep.spec import NodeConfig, SweepSpec, Workload
from hespas_py.sweep.variants import apply_variant

#: The label columns every row starts with.
LABELS = ("workload", "node", "system", "estimator")


@dataclass(frozen=True)
class TraceJob:
    """Traces to make.

    Attributes:
        key: content key of the traces (`hespas_py.sweep.keys.trace_key`).
        config: what ``hespas gen`` would be given (the task picks the output folder).
        workload: where the workload is (a worker resolves a shipped one itself).
        workload_digest: the workload file's `hespas_py.sweep.keys.file_digest`, which the
            worker's copy must match.
    """

    key: str
    config: GenConfig
    workload: Workload
    workload_digest: str


@dataclass(frozen=True)
class Point:
    """One point of the sweep.

    Attributes:
        index: its place in the plan (and among the rows).
        labels: workload, node, system and estimator names as the spec gives them.
        variant: the value of each variant key.
        traces: key of the `TraceJob` whose traces it simulates.
        key: content key of its simulation (`hespas_py.sweep.keys.point_key`).
        system: the system layer, variant applied.
        network: the network, variant applied.
        capacity_bytes: the node's usable device memory (None when its config states none).
    """

    index: int
    labels: Mapping[str, str]
    variant: Mapping[str, Any]
    traces: str
    key: str
    system: SystemConfig
    network: NetworkConfig
    capacity_bytes: int | None

    def fits(self, peak_bytes: int) -> bool | None:
        """Whether a per-device peak fits the node (None when its capacity is unknown)."""
        return None if self.capacity_bytes is None else peak_bytes <= self.capacity_bytes


@dataclass(frozen=True)
class Plan:
    """What a sweep does.

    Attributes:
        traces: the distinct trace jobs.
        points: every point, in row order.
        variant_keys: the variant columns, in order.
        fits_only: points whose peak memory exceeds their node's capacity are skipped.
    """

    traces: tuple[TraceJob, ...]
    points: tuple[Point, ...]
    variant_keys: tuple[str, ...]
    fits_only: bool = False


def _gen_config(workload: Path, node: NodeConfig, estimator: str, split: Split) -> GenConfig:
    """`hespas gen NODE --mlir_file WORKLOAD` with the spec's split settings and estimator."""
    return build_config(node.file, mlir_file=workload, output_dir=Path("traces"),
                        estimator=estimator, split=split)


def make_plan(spec: SweepSpec) -> Plan:
    """Every trace job and point of ``spec``."""
    variants = [dict(zip(spec.variants, values, strict=True))
                for values in itertools.product(*spec.variants.values())]
    machines: dict[str, list[tuple]] = {}  # per system, per variant: (layer, network, key)
    for system, setup in spec.systems.items():
        machines[system] = []
        for variant in variants:
            layer, network = apply_variant(variant, (setup.system, setup.network))
            machines[system].append((layer, network, machine_key(layer, network)))
    jobs: dict[str, TraceJob] = {}
    points: list[Point] = []
    for workload, where in spec.workloads.items():
        content = file_digest(where.file)
        for node, configs in spec.nodes.items():
            keys = {}
            for estimator in spec.estimators:
                config = _gen_config(where.file, configs[estimator], estimator, spec.split)
                keys[estimator] = key = trace_key(config, content)
                jobs.setdefault(key, TraceJob(key, config, where, content))
            for system in spec.systems:
                for estimator in spec.estimators:
                    labels = dict(zip(LABELS, (workload, node, system, estimator), strict=True))
                    for variant, (layer, network, machine) in zip(variants, machines[system],
                                                                  strict=True):
                        points.append(Point(len(points), labels, variant, keys[estimator],
                                            point_key(keys[estimator], machine), layer,
                                            network,
                                            configs[estimator].hardware.capacity_bytes))
    return Plan(tuple(jobs.values()), tuple(points), tuple(spec.variants), spec.fits_only)
