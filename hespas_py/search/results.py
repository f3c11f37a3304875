"""A search's results: ``results.csv`` and ``results.json``, and ``--plot``'s bar chart.

``results.json`` is ``{"rows": [...], "skipped": [...]}`` (`SearchResult.as_json`), rows ranked;
``results.csv`` has one line per row: layout keys, node, system, estimator, the figures,
``peak_bytes``, ``fits`` (empty when unknown), then variant keys.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hespas_py.errors import HespasError
from hespas_py.search.run import SearchResult
from hespas_py.sweep.results import FIGURES, write_tables

LABELS = ("node", "system", "estimator")
MEMORY = ("peak_bytes", "fits")


def columns(result: SearchResult) -> tuple[str, ...]:
    """The columns of a row."""
    return (*result.layout_keys, *LABELS, *FIGURES, *MEMORY, *result.variant_keys)


def write_results(out: Path, result: SearchResult) -> None:
    """Write ``results.csv`` and ``results.json`` into ``out``."""
    write_tables(out, columns(result), result.rows, result.as_json())


def varying(rows: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> list[str]:
    """The ``keys`` whose value is not the same in every row."""
    return [k for k in keys if len({json.dumps(r.get(k)) for r in rows}) > 1]


def label_keys(result: SearchResult) -> list[str]:
    """The columns that tell the rows apart: layout keys, node, system, estimator and variant
    keys that vary (all layout keys when none does)."""
    keys = varying(result.rows, (*result.layout_keys, *LABELS, *result.variant_keys))
    return keys or list(result.layout_keys)


def plot_layouts(result: SearchResult, path: Path) -> None:
    """Step time per layout as horizontal bars, fastest on top (one bar per row; bars of layouts
    that do not fit hatched). Needs the ``[plot]`` extra."""
    from hespas_py.plotting import pyplot, save_figure

    if not result.rows:
        raise HespasError(f"{path}: nothing to plot (every layout was skipped)")
    plt = pyplot()
    rows = list(result.rows)
    keys = label_keys(result)
    labels = [" ".join(f"{k}={r.get(k)}" for k in keys) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 1 + 0.28 * len(rows)))
    bars = ax.barh(range(len(rows)), [r["step_time_s"] * 1e3 for r in rows], color="tab:blue")
    for bar, row in zip(bars, rows, strict=True):
        if row.get("fits") is False:
            bar.set_hatch("//")
            bar.set_color("tab:gray")
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("step time (ms)")
    fig.tight_layout()
    save_figure(fig, path)
