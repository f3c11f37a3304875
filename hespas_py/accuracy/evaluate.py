"""Predicted against measured step times: one prediction per case and estimator, and the trend
error of each group.

Why and how: docs/accuracy.md.
"""

from __future__ import annotations

import dataclasses
import statistics
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hespas_py.accuracy.cases import SYSTEMS_DIR, Case, plan_cases
from hespas_py.accuracy.rows import Group, Row
from hespas_py.errors import HespasError
from hespas_py.estimators.base import estimator_class
from hespas_py.hardware import parse_params
from hespas_py.hardware.params import accepted
from hespas_py.run import Split, build_config, generate_and_simulate, node_hardware
from hespas_py.sim.config import LayoutMismatch, Machine

#: linear_split block limit that never cuts a stretch of compute ops.
NO_LIMIT = 1 << 40
#: The key of `evaluate`'s ``nodes`` whose preset every row runs on (rows of a preset named
#: there run on that one's).
EVERY_ROW = ""


@dataclass(frozen=True)
class Result:
    """One prediction.

    Attributes:
        case: what was predicted.
        estimator: estimator name.
        estimated_s: simulated step time.
        params: hardware params added for this row (the group's ``flash_params``, then
            ``--param``).
        unmodelled: what the run did that this estimator could not be told ("" when nothing).
        estimated_peak_bytes: the per-device peak memory of the step (`hespas_py.memory`).
    """

    case: Case
    estimator: str
    estimated_s: float
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    unmodelled: str = ""
    estimated_peak_bytes: int | None = None

    @property
    def row(self) -> Row:
        return self.case.row

    @property
    def error(self) -> float:
        """Relative error of the prediction (positive: too slow)."""
        return self.estimated_s / self.row.measured_s - 1

    @property
    def memory_error(self) -> float | None:
        """Relative error of the peak memory (None where the row has no measured peak)."""
        measured = self.row.measured_peak_bytes
        if measured is None or self.estimated_peak_bytes is None:
            return None
        return self.estimated_peak_bytes / measured - 1

    def as_json(self) -> dict:
        r = self.row
        return {"group": r.group, "row": r.name, "system": r.system, "workload": r.workload,
                "estimator": self.estimator, "node": self.case.node,
                "system_preset": self.case.system_dir.name if self.case.system_dir else None,
                "params": dict(self.params), "measured_s": r.measured_s, "estimated_s": self.estimated_s,
                "error": self.error, "measured_peak_bytes": r.measured_peak_bytes,
                "estimated_peak_bytes": self.estimated_peak_bytes, "memory_error": self.memory_error,
                "counted": r.counted, "reason": r.reason or None,
                "combine_threshold": r.combine_threshold.as_json() if r.combine_threshold else None,
                "note": "; ".join(n for n in (r.note, self.unmodelled) if n) or None,
                **({} if r.work is None else {
                    "tokens_per_step": r.work.tokens,
                    "measured_tflops_per_device": r.work.tflops_per_device(r.measured_s),
                    "estimated_tflops_per_device": r.work.tflops_per_device(self.estimated_s)})}


class DeviceCountMismatch(HespasError):
    """The workload runs on another number of devices than the row's system has."""


def row_params(group: Group, row: Row, estimator: str) -> tuple[dict[str, Any], str]:
    """(params to add, what stays unmodelled) for ``row`` under ``estimator``."""
    if row.attention != "flash" or not group.flash_params:
        return {}, ""
    wanted = dict(group.flash_params.get(estimator, {}))
    settable = accepted(estimator)
    if not wanted or any(k not in settable for k in wanted):
        return {}, f"fused attention not modelled by {estimator}"
    return wanted, ""


def predict(case: Case, estimator: str, params: Mapping[str, Any]) -> tuple[float, int]:
    """(simulated step time in seconds, per-device peak memory in bytes) of ``case`` with
    ``estimator`` and extra hardware ``params``."""
    machine = Machine.load(case.system_dir) if case.system_dir is not None else None
    split = Split(split_strategy="linear_split", block_lim=NO_LIMIT,
                  combine_threshold=case.row.combine_threshold)
    with tempfile.TemporaryDirectory(prefix="hespas-accuracy-") as tmp:
        config = build_config(case.node, mlir_file=case.workload_file,
                              output_dir=Path(tmp) / "traces", estimator=estimator, params=params,
                              split=split)
        try:
            run = generate_and_simulate(config, machine)
        except LayoutMismatch as exc:  # only against a machine, so a system preset
            assert case.system_dir is not None
            raise _mismatch(case, exc.devices, case.system_dir.name, exc.npus) from None
    devices = run.result.layout.num_devices
    peak = int(run.result.stats["memory"]["peak_bytes"])
    if run.simulation is not None:
        return run.simulation.step_time_ns * 1e-9, peak
    if devices != 1:
        raise _mismatch(case, devices, "a single-device row", 1)
    return float(run.result.stats["runtime_s"]), peak  # one device, no network: its compute


def _mismatch(case: Case, devices: int, where: str, npus: int) -> DeviceCountMismatch:
    return DeviceCountMismatch(f"{case.workload_file.name} runs on {devices} devices, "
                               f"{where} has {npus} NPUs")


def trend_error(results: list[Result]) -> float | None:
    """Median speed-up error over related ordered row pairs (docs/accuracy.md)."""
    errors = []
    for a in results:
        for b in results:
            # rows share a key at a position both have (a shorter key tuple has fewer)
            if a is b or not any(x == y for x, y in zip(a.row.trend_keys, b.row.trend_keys,
                                                        strict=False)):
                continue
            predicted = a.estimated_s / b.estimated_s
            measured = a.row.measured_s / b.row.measured_s
            errors.append(abs(predicted / measured - 1))
    return statistics.median(errors) if errors else None


@dataclass(frozen=True)
class Summary:
    """The figures of one group under one estimator (counted rows only).

    Attributes:
        counted: counted rows evaluated.
        within_15: those within 15% of the measured time.
        trend_error: their trend error (None without related rows).
        memory_rows: those with a measured peak memory.
        memory_within_10: those whose estimated peak is within 10% of it.
    """

    counted: int
    within_15: int
    trend_error: float | None
    memory_rows: int = 0
    memory_within_10: int = 0

    @classmethod
    def of(cls, results: list[Result]) -> Summary:
        counted = [r for r in results if r.row.counted]
        memory = [r.memory_error for r in counted if r.memory_error is not None]
        return cls(len(counted), sum(abs(r.error) <= 0.15 for r in counted), trend_error(counted),
                   len(memory), sum(abs(e) <= 0.10 for e in memory))


@dataclass(frozen=True)
class Evaluation:
    """Every prediction of one accuracy run.

    Attributes:
        results: one per reproducible row and estimator, groups and rows in table order.
        summaries: per (group, estimator) figures.
        skipped: every measured row not evaluated, with the reason.
    """

    results: list[Result]
    summaries: dict[tuple[str, str], Summary]
    skipped: list[tuple[Row, str]]


def evaluate(groups: Iterable[Group], estimators: Iterable[str], measured: Path | None = None,
             workloads: Iterable[Path] = (), systems: Path = SYSTEMS_DIR,
             approximate: bool = False, params: Iterable[str] = (),
             nodes: Mapping[str, str] = {}) -> Evaluation:
    """Predict every reproducible row of ``groups`` with each estimator (``measured``: the table of
    the one group given, instead of the packaged one; ``approximate``: also rows of guessed
    configurations; ``params``: ``KEY=VALUE`` estimator params for every row, over the group's,
    checked for each estimator as `hespas_py.hardware.parse_params` does; ``nodes``: the node
    preset (a name or a preset folder, e.g. one ``hespas calibrate`` wrote) rows run on instead
    of their own: per node preset name, or under `EVERY_ROW` for every row)."""
    groups, names = list(groups), list(dict.fromkeys(estimators))
    for name in names:
        estimator_class(name)
        for node in nodes.values():
            node_hardware(node, name)  # a bad preset fails here, before any row runs
    given = {name: parse_params(list(params), name) for name in names}
    if measured is not None and len(groups) != 1:
        raise HespasError("--measured replaces the table of one group: name it with --group")
    workloads = list(workloads)
    results: list[Result] = []
    skipped: list[tuple[Row, str]] = []
    for group in groups:
        cases, left_out = plan_cases(group.rows(measured), workloads, systems, approximate)
        skipped.extend(left_out)
        for case in cases:
            case = dataclasses.replace(case, node=nodes.get(case.node,
                                                            nodes.get(EVERY_ROW, case.node)))
            try:
                for name in names:
                    row, unmodelled = row_params(group, case.row, name)
                    chosen = {**row, **given[name]}
                    step_s, peak = predict(case, name, chosen)
                    results.append(Result(case, name, step_s, chosen, unmodelled, peak))
            except DeviceCountMismatch as exc:
                skipped.append((case.row, str(exc)))
    if not results:
        raise HespasError("no measured row has a workload and presets to reproduce it")
    summaries = {(g.name, name): Summary.of([r for r in results
                                             if r.row.group == g.name and r.estimator == name])
                 for g in groups for name in names}
    return Evaluation(results, summaries, skipped)
