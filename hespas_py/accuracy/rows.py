"""Measured step times, grouped: what was measured and how each row is to be reproduced.

Why and how: docs/accuracy.md.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hespas_py.accuracy.work import Decoder, Work
from hespas_py.errors import HespasError
from hespas_py.resources import shipped
from hespas_py.split.combine import Thresholds

#: Hespas rows whose workload configuration was not published (its README: "The configs of the
#: larger sizes were not published"); the shipped exports guess them.
UNPUBLISHED_CONFIGS = frozenset({"llama3-200m_train", "llama3-500m_train", "llama3-1b_train",
                                 "llama3-2b_train", "llama3-3b_train"})
ATTENTION_KINDS = ("flash", "materialized")


@dataclass(frozen=True)
class Row:
    """One measured step time.

    Attributes:
        group: name of the group it belongs to.
        name: what ran (``resnet50_train``; ``llama3.1-8b xla-bf16 8xv6e``).
        system: machine, ``<node>_x<devices>``.
        workload: name of the StableHLO step that rebuilds it.
        measured_s: measured seconds per step.
        trend_keys: rows sharing any key at the same position are compared by the trend error.
        node: node preset; None: found from ``system`` by rule.
        system_preset: system preset; None: found from ``system`` by rule; '': one device, no
            network.
        attention: how the run computed attention (`ATTENTION_KINDS`).
        counted: whether the row counts toward the accuracy goal.
        reason: why it does not count ("" when it does).
        note: how the rebuilt workload differs from the run ("" when it does not).
        guessed: the workload's configuration is our guess (evaluated only on request).
        combine_threshold: bytes up to which the run's collectives were combined, per kind.
        measured_peak_bytes: the run's per-device peak memory (XLA's buffer assignment on the
            device), when measured; None otherwise.
        work: the step's work as the published rate counts it, for a row published as a FLOP
            rate (its ``measured_s`` derived from that rate); None otherwise.
    """

    group: str
    name: str
    system: str
    workload: str
    measured_s: float
    trend_keys: tuple[str, ...]
    node: str | None = None
    system_preset: str | None = None
    attention: str = "materialized"
    counted: bool = True
    reason: str = ""
    note: str = ""
    guessed: bool = False
    combine_threshold: Thresholds = Thresholds()
    measured_peak_bytes: int | None = None
    work: Work | None = None


@dataclass(frozen=True)
class Group:
    """One measured table and how its rows are evaluated.

    Attributes:
        name: ``--group`` name.
        title: one line saying what it holds.
        table: the packaged table (``hespas_py/data/<table>``).
        parse: ``parse(text, source, group) -> rows``.
        flash_params: per estimator, the params that make it model a fused attention kernel; added
            to the hardware params of every ``flash`` row when the estimator accepts them.
        default: evaluated when no ``--group`` is given.
    """

    name: str
    title: str
    table: str
    parse: Callable[[str, str, str], list[Row]]
    flash_params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    default: bool = False

    def rows(self, path: Path | None = None) -> list[Row]:
        """The group's rows: from the packaged table, or from ``path`` in the same format."""
        if path is None:
            text = shipped("data", self.table).read_text()
            return self.parse(text, self.table, self.name)
        try:
            text = path.read_text()
        except OSError as exc:
            raise HespasError(f"{path}: cannot read ({exc.strerror or exc})") from None
        return self.parse(text, str(path), self.name)


def _records(text: str, source: str, columns: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in columns if c not in (reader.fieldnames or ())]
    if missing:
        raise HespasError(f"{source}: missing columns {', '.join(missing)} (expected {','.join(columns)})")
    return [(line, {k: (v or "").strip() for k, v in record.items() if k})
            for line, record in enumerate(reader, start=2)]


def _bytes(value: str, source: str, line: int) -> int | None:
    """An optional byte count (``measured_peak_bytes``): None when the cell is empty."""
    if not value:
        return None
    if not value.isdigit():
        raise HespasError(f"{source}: line {line}: measured_peak_bytes must be a byte count, "
                          f"got {value!r}")
    return int(value)


def _seconds(value: str, source: str, line: int) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise HespasError(f"{source}: line {line}: step time must be a number > 0, got {value!r}")
    return seconds


def parse_hespas(text: str, source: str, group: str) -> list[Row]:
    """Rows of a ``system,workload,runtime_s[,note]`` table (the Hespas paper's format)."""
    rows = []
    for line, r in _records(text, source, ("system", "workload", "runtime_s")):
        guessed = r["workload"] in UNPUBLISHED_CONFIGS
        rows.append(Row(
            group, r["workload"], r["system"], r["workload"], _seconds(r["runtime_s"], source, line),
            trend_keys=(r["workload"], r["system"]), guessed=guessed, counted=not guessed,
            reason="model configuration not published; the export guesses its shape" if guessed else ""))
    return rows


SCALE_COLUMNS = ("row", "model", "kernels", "system", "workload", "node", "system_preset", "attention",
                 "counted", "reason", "note", "measured_s")


def parse_scale(text: str, source: str, group: str) -> list[Row]:
    """Rows of a table naming each row's workload and presets (`SCALE_COLUMNS`)."""
    return [_scale_row(r, source, line, group, _seconds(r["measured_s"], source, line))
            for line, r in _records(text, source, SCALE_COLUMNS)]


def _scale_row(r: dict[str, str], source: str, line: int, group: str, measured_s: float) -> Row:
    """The row of one record of a scale-format table, measured at ``measured_s``."""
    if r["attention"] not in ATTENTION_KINDS:
        raise HespasError(f"{source}: line {line}: attention must be one of "
                          f"{', '.join(ATTENTION_KINDS)}, got {r['attention']!r}")
    if r["counted"] not in ("true", "false"):
        raise HespasError(f"{source}: line {line}: counted must be true or false, got {r['counted']!r}")
    counted = r["counted"] == "true"
    if not counted and not r["reason"]:
        raise HespasError(f"{source}: line {line}: a row that is not counted needs a reason")
    threshold = Thresholds.of(r.get("combine_threshold") or 0,
                              f"{source}: line {line}: combine_threshold")
    return Row(
        group, r["row"], r["system"], r["workload"], measured_s,
        trend_keys=(f"{r['model']} {r['kernels']}",), node=r["node"], system_preset=r["system_preset"],
        attention=r["attention"], counted=counted, reason="" if counted else r["reason"], note=r["note"],
        combine_threshold=threshold,
        measured_peak_bytes=_bytes(r.get("measured_peak_bytes", ""), source, line))


RATE_COLUMNS = tuple(c for c in SCALE_COLUMNS if c != "measured_s") + (
    "gpus", "tp", "cp", "pp", "dp", "seq", "batch_per_dp", "virtual", "layers", "width", "heads",
    "kv_heads", "head_dim", "mlp", "vocab", "tflops_per_gpu")
_COUNTS = RATE_COLUMNS[len(SCALE_COLUMNS) - 1:-1]


def _count(value: str, what: str, source: str, line: int) -> int:
    if not value.isdigit() or int(value) < 1:
        raise HespasError(f"{source}: line {line}: {what} must be a whole number >= 1, got {value!r}")
    return int(value)


def parse_rates(text: str, source: str, group: str) -> list[Row]:
    """Rows of a table of published TFLOP/s per GPU (`RATE_COLUMNS`): scale rows measured at
    the step time the rate implies (`hespas_py.accuracy.work`)."""
    rows = []
    for line, r in _records(text, source, RATE_COLUMNS):
        n = {k: _count(r[k], k, source, line) for k in _COUNTS}
        if n["tp"] * n["cp"] * n["pp"] * n["dp"] != n["gpus"]:
            raise HespasError(f"{source}: line {line}: tp x cp x pp x dp is not gpus")
        decoder = Decoder(n["layers"], n["width"], n["heads"], n["kv_heads"], n["head_dim"],
                          n["mlp"], n["vocab"])
        work = Work(n["dp"] * n["batch_per_dp"] * n["seq"], decoder.flops_per_token(n["seq"]),
                    n["gpus"], {k: n[k] for k in ("tp", "cp", "pp", "dp", "seq", "batch_per_dp",
                                                  "virtual")})
        try:
            rate = float(r["tflops_per_gpu"])
        except ValueError:
            rate = 0.0
        if not rate > 0:
            raise HespasError(f"{source}: line {line}: tflops_per_gpu must be a number > 0, "
                              f"got {r['tflops_per_gpu']!r}")
        step_s = work.step_s(rate)
        rows.append(dataclasses.replace(_scale_row(r, source, line, group, step_s), work=work))
    return rows


GROUPS: dict[str, Group] = {g.name: g for g in (
    Group("hespas", "the Hespas paper's single-node rows (ResNet, LLaMA-3 on 4 GPUs, TPU v3)",
          "step_times.csv", parse_hespas, default=True),
    Group("scale", "published multi-node runs: Pax GPT on 16-256 H100/A100, MaxText Llama on TPU v6e/7x",
          "scale_step_times.csv", parse_scale,
          flash_params={"fused_roofline": {"fused_attention": True}}),
    Group("gpu", "single-device programs measured on one H100 and one H200 with their "
                 "XLA-optimized HLO and kernel profiles (workloads/gpu_h100, workloads/gpu_h200)",
          "gpu_step_times.csv", parse_scale),
    Group("llama3", "Llama 3 405B pre-training on 8,192 and 16,384 H100s, TFLOP/s per GPU "
                    "(the report's Table 4; workloads from scripts/models/llama_4d.py)",
          "llama3_405b.csv", parse_rates, flash_params={"fused_roofline": {"fused_attention": True}}),
)}


def groups(names: list[str] | None) -> list[Group]:
    """The groups ``names`` selects (``all``: every group; none: the default ones)."""
    if not names:
        return [g for g in GROUPS.values() if g.default]
    if "all" in names:
        return list(GROUPS.values())
    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        raise HespasError(f"unknown accuracy group {unknown[0]!r} (known: {', '.join(GROUPS)}, all)")
    return [GROUPS[n] for n in dict.fromkeys(names)]
