"""Trace generation, end to end: StableHLO file -> blocks -> estimates -> Chakra traces + stats.

Why and how: docs/traces.md.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hespas_py.chakra.files import STATS_FILE
from hespas_py.chakra.groups import DeviceLayout
from hespas_py.chakra.stats import module_stats
from hespas_py.chakra.writer import write_traces
from hespas_py.estimators.base import Estimate, get_estimator
from hespas_py.estimators.dispatch import DISPATCH, entry_buffers, with_dispatch
from hespas_py.forking import background
from hespas_py.gc_pause import gc_paused
from hespas_py.hardware import Hardware
from hespas_py.mlir.reader import load_module
from hespas_py.output_dir import check_target, staged
from hespas_py.split import split
from hespas_py.split.blocks import BlockGraph
from hespas_py.split.combine import DEFAULT_COMBINE, Thresholds
from hespas_py.split.loops import TRIP_COUNT

log = logging.getLogger("hespas_py")

#: Called as ``progress(phase, done, total)`` while a long phase runs.
ProgressHook = Callable[[str, int, int], None]

DEFAULT_SPLIT = "linear_split"
#: How often (in blocks) the estimate phase reports progress.
_PROGRESS_EVERY = 256
#: Fewest blocks worth computing module_stats in a forked child while the traces are written.
_BACKGROUND_STATS_BLOCKS = 20_000
#: Fewest ops (functions' top level) worth analysing memory in a forked child while the step is split,
#: estimated and written (a fork costs milliseconds; the analysis of a 1,000-op step, tens).
_BACKGROUND_MEMORY_OPS = 1_000


@dataclass(frozen=True)
class GenConfig:
    """One trace-generation run.

    Attributes:
        mlir_file: the StableHLO module to read.
        output_dir: where the traces go (created atomically).
        hardware: the `Hardware` the estimator models.
        estimator: estimator name (``roofline``, ``fused_roofline``, ...).
        split_strategy: ``individual_split`` or ``linear_split``.
        merge: individual_split only: fuse single-parent/single-child compute chains.
        block_lim: linear_split only: most ops per compute block.
        separator: linear_split only: which ops cut blocks (a `SEPARATORS` name).
        separator_policy: linear_split only: ``isolated``, ``end_block`` or ``start_block``.
        num_npus: device count for a module that runs on a single device (None: the module's).
        module: which module (from 1) of a file that holds several; None for a file of one.
        loop_trips: iterations of a ``while`` whose trip count the module does not give (an
            assumption, warned about and listed in ``module_stats.json``).
        combine_threshold: bytes up to which independent collectives of one kind and group
            merge, per kind, as XLA's combiners merge them (`hespas_py.split.combine`); all
            zero: off.
        collective_rewrites: apply XLA's collective rewrites (`hespas_py.split.rewrites`);
            `hespas_py.run.build_config` turns them on for hardware built by XLA's GPU
            compiler (`rewrites_by_default`) unless the config or command line says otherwise.
        memory: analyse the per-device peak memory (`hespas_py.memory`: a second fusion plan of
            the step, about as costly as the fused_roofline estimate); off: ``memory`` is None.
        clean: replace ``output_dir`` if it exists.
        cache_dir: the estimate cache directory (shared between runs); None: no cache.
        disable_cache: no cache even when ``cache_dir`` is set.
        source: where the settings came from (config file or preset), for messages.
    """

    mlir_file: Path
    output_dir: Path
    hardware: Hardware
    estimator: str
    split_strategy: str = DEFAULT_SPLIT
    merge: bool = False
    block_lim: int = 1024
    separator: str = "is_communication_op"
    separator_policy: str = "isolated"
    num_npus: int | None = None
    module: int | None = None
    loop_trips: int = 1
    combine_threshold: Thresholds = Thresholds()
    collective_rewrites: bool = False
    memory: bool = True
    clean: bool = False
    cache_dir: Path | None = None
    disable_cache: bool = False
    source: str = ""

    def split_options(self) -> dict[str, Any]:
        """Keyword options of the chosen splitter (``combine_threshold`` and
        ``collective_rewrites`` only when on)."""
        combine: dict[str, Any] = (
            {"combine_threshold": self.combine_threshold} if self.combine_threshold else {})
        if self.collective_rewrites:
            combine["collective_rewrites"] = True
        if self.split_strategy == "individual_split":
            return {"merge": self.merge, **combine}
        return {"block_lim": self.block_lim, "separator": self.separator,
                "policy": self.separator_policy, **combine}


def rewrites_by_default(hardware: Hardware) -> bool:
    """Whether XLA's collective rewrites apply to ``hardware`` unless told otherwise: when its
    ``compiler`` is ``xla_gpu`` (`hespas_py.split.rewrites` models that compiler's passes; the
    TPU compiler's are not public)."""
    return hardware.params.compiler == "xla_gpu"


@dataclass(frozen=True)
class GenResult:
    """What `generate` produced.

    Attributes:
        output_dir: the finished output directory.
        stats: the ``module_stats.json`` document.
        summary: the short, machine-readable summary (``--json`` prints it).
        graph: the block graph the traces were written from.
        estimates: per block, its estimate (None for collectives).
        layout: how devices were numbered.
    """

    output_dir: Path
    stats: Mapping[str, Any]
    summary: Mapping[str, Any]
    graph: BlockGraph = field(repr=False)
    estimates: tuple[Estimate | None, ...] = field(repr=False)
    layout: DeviceLayout = field(repr=False)


def _estimator(config: GenConfig):
    estimator = get_estimator(config.estimator, config.hardware)
    if config.disable_cache or config.cache_dir is None:
        return estimator
    from hespas_py.estimators.cache import CachedEstimator  # hashlib's OpenSSL: cached runs only

    return CachedEstimator(estimator, config.cache_dir)


def memory_of(module, hardware: Hardware, combine: Thresholds) -> dict[str, Any]:
    """The ``memory`` entry of a module's stats: its per-device peak (`hespas_py.memory`),
    planned with the hardware's ``fused_attention`` setting and GPU rewrites (`memory_rules`)
    and the collectives combined as ``combine`` says (off: as XLA's defaults do), against the
    hardware's capacity."""
    from hespas_py.memory import analyze, memory_rules  # loads only for a run that asks

    report = analyze(module, hardware.params.fused_attention, combine or DEFAULT_COMBINE,
                     rules=memory_rules(hardware.params))
    return report.as_json(hardware.capacity_bytes)


def _estimate_all(graph, estimator, progress: ProgressHook | None) -> list:
    compute = sum(not b.collective for b in graph.blocks)
    estimator.prepare(graph)
    estimates: list = []
    done = 0
    for block in graph.blocks:
        if block.collective:
            estimates.append(None)
            continue
        estimates.append(estimator.estimate(block) if block.repeats < 0
                         else estimates[block.repeats])
        done += 1
        if progress is not None and (done % _PROGRESS_EVERY == 0 or done == compute):
            progress("estimate", done, compute)
    return estimates


def _warn_assumed_trips(graph: BlockGraph, loop_trips: int) -> None:
    """One warning naming the loops whose trip count was assumed (``--loop-trips``)."""
    assumed = [a.where for a in graph.assumptions if a.kind == TRIP_COUNT]
    if assumed:
        log.warning("trip count not static for %d loop(s), assumed %d (--loop-trips): %s",
                    len(assumed), loop_trips, "; ".join(assumed))


def _summary(config: GenConfig, source: str, stats: Mapping[str, Any], traces,
             timings: Mapping[str, float], top: int = 5) -> dict[str, Any]:
    return {
        "output_dir": str(config.output_dir),
        "mlir_file": source,
        "estimator": config.estimator,
        "hardware": config.hardware.name,
        **({"measured_on": stats["measured_on"]} if "measured_on" in stats else {}),
        "split": {"strategy": config.split_strategy, **{
            k: v.as_json() if isinstance(v, Thresholds) else v
            for k, v in config.split_options().items()
            if k in ("merge", "block_lim", "combine_threshold", "collective_rewrites")}},
        "num_devices": traces.num_devices,
        "compute_estimate_s": stats["runtime_s"],
        "host_dispatch_s": stats["per_op"].get(DISPATCH, {}).get("time_s", 0.0),
        "flops_utilization": stats["flops_utilization"],
        "memory_bandwidth_utilization": stats["memory_bandwidth_utilization"],
        "nodes_per_device": traces.nodes[0] if traces.nodes else {},
        "trace_files": traces.files,
        "comm_groups": {str(k): list(v) for k, v in traces.comm_groups.items()},
        "collectives": stats["collectives"],
        "top_ops": [{"op": name, "count": e["count"], "time_s": e["time_s"],
                     "time_share": e["time_share"]}
                    for name, e in list(stats["per_op"].items())[:top]],
        "fallback_ops": stats["fallback_ops"],
        "loops": stats["loops"],
        "assumptions": stats["assumptions"],
        "cache": stats["cache"],
        "memory": stats["memory"],
        "timings_s": dict(timings),
    }


def generate(config: GenConfig, progress: ProgressHook | None = None,
             check_layout: Callable[[DeviceLayout], None] | None = None) -> GenResult:
    """Read, split, estimate and write traces and stats (see the module docstring).

    ``check_layout`` sees the device layout as soon as it is known, before anything is written
    (e.g. that a machine to simulate on has as many NPUs); it raises to stop the run. Python's
    cyclic garbage collector is paused meanwhile (`gc_paused`).
    """
    with gc_paused():
        return _generate(config, progress, check_layout)


def _generate(config: GenConfig, progress: ProgressHook | None,
              check_layout: Callable[[DeviceLayout], None] | None) -> GenResult:
    check_target(config.output_dir, config.clean)
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(phase: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[phase] = now - clock
        clock = now

    module = load_module(config.mlir_file, module=config.module)
    lap("read")
    memory_later = background(
        functools.partial(memory_of, module, config.hardware, config.combine_threshold),
        worth_it=sum(len(f.ops) for f in module.functions.values()) >= _BACKGROUND_MEMORY_OPS
    ) if config.memory else (lambda: None)
    graph = split(module, config.split_strategy, loop_trips=config.loop_trips,
                  **config.split_options())
    layout = DeviceLayout.for_module(module, config.num_npus,
                                     (b.ops[0] for b in graph.blocks if b.collective))
    if check_layout is not None:
        check_layout(layout)
    graph = dataclasses.replace(graph, num_devices=layout.num_devices)
    lap("split")
    log.info("read %s: %d top-level ops, %d devices", module.path, len(module.ops),
             layout.num_devices)
    log.info("split (%s): %d blocks", config.split_strategy, len(graph.blocks))
    _warn_assumed_trips(graph, config.loop_trips)

    estimator = _estimator(config)
    estimates = with_dispatch(graph, _estimate_all(graph, estimator, progress),
                              estimator.dispatch(entry_buffers(module)))
    estimator.close()
    lap("estimate")
    out = config.output_dir
    with staged(out, config.clean) as staging:
        cache = estimator.stats.as_dict() if hasattr(estimator, "stats") else None
        stats_of = background(functools.partial(module_stats, graph, estimates, config.hardware,
                                                config.estimator, cache),
                              worth_it=len(graph.blocks) >= _BACKGROUND_STATS_BLOCKS)
        traces = write_traces(staging, graph, estimates, layout)
        stats = stats_of()
        lap("write")
        memory = memory_later()
        lap("memory")
        stats["devices"] = layout.as_json()
        if estimator.measured_on:
            stats["measured_on"] = estimator.measured_on
        stats["memory"] = memory
        if config.combine_threshold:
            stats["combine_threshold"] = config.combine_threshold.as_json()
        if config.collective_rewrites:
            stats["collective_rewrites"] = dict(graph.rewrites)
        stats["traces"] = {"files": traces.files, "comm_groups": len(traces.comm_groups),
                           "nodes_per_device": {str(d): n for d, n in traces.nodes.items()},
                           "compute_micros": traces.total_micros}
        stats["timings_s"] = timings
        (staging / STATS_FILE).write_text(json.dumps(stats, indent=1) + "\n")
    log.info("wrote %s", out)
    return GenResult(output_dir=out, stats=stats,
                     summary=_summary(config, module.path, stats, traces, timings),
                     graph=graph, estimates=tuple(estimates), layout=layout)
