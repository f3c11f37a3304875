"""A sweep's results: ``results.csv`` and ``results.json``, and the best point per workload.

``results.json`` is ``{"rows": [...], "skipped": [...]}`` (`SweepResult.as_json`);
``results.csv`` has one line per row, columns `columns`, a list-valued variant written as JSON.
Both are written under temporary names and renamed into place.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hespas_py.sweep.plan import LABELS
from hespas_py.sweep.runner import SweepResult
from hespas_py.sweep.store import write_atomically
from hespas_py.sweep.tasks import Figures

RESULTS_CSV = "results.csv"
RESULTS_JSON = "results.json"
FIGURES = tuple(f.name for f in dataclasses.fields(Figures))
#: A row's memory columns: the workload's per-device peak and whether it fits the node (None:
#: the node states no capacity).
MEMORY = ("peak_bytes", "fits")


def columns(variant_keys: Sequence[str]) -> tuple[str, ...]:
    """The columns of a row: labels, figures, memory, variant keys."""
    return (*LABELS, *FIGURES, *MEMORY, *variant_keys)


def _cell(value: Any) -> Any:
    return json.dumps(value) if isinstance(value, (list, dict)) else value


def write_tables(out: Path, header: Sequence[str], rows: Sequence[Mapping[str, Any]],
                 document: Mapping[str, Any]) -> None:
    """Write ``rows`` as ``results.csv`` (columns ``header``) and ``document`` as
    ``results.json`` into ``out``."""
    text = io.StringIO()
    writer = csv.DictWriter(text, header, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(v) for k, v in row.items()})
    write_atomically(out / RESULTS_CSV, text.getvalue())
    write_atomically(out / RESULTS_JSON, json.dumps(document, indent=1) + "\n")


def write_results(out: Path, result: SweepResult, variant_keys: Sequence[str]) -> None:
    """Write ``results.csv`` and ``results.json`` into ``out``."""
    write_tables(out, columns(variant_keys), result.rows, result.as_json())


def best_per_workload(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The row of smallest step time of each workload among those that fit in memory (or whose
    node states no capacity), in the workloads' order."""
    best: dict[str, Mapping[str, Any]] = {}
    for row in rows:
        if row.get("fits") is False:
            continue
        current = best.get(row["workload"])
        if current is None or row["step_time_s"] < current["step_time_s"]:
            best[row["workload"]] = row
    return list(best.values())
