"""``hespas sweep --plot``: step time per node x system, one heatmap per workload.

A cell shows the best (smallest) step time over the sweep's estimators and variants for that
node and system; an empty cell has no row (skipped or not swept). Needs the ``[plot]`` extra.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hespas_py.errors import HespasError
from hespas_py.plotting import pyplot, save_figure


def _grid(rows: Sequence[Mapping[str, Any]], workload: str, nodes: list[str],
          systems: list[str]) -> list[list[float]]:
    grid = [[math.nan] * len(systems) for _ in nodes]
    for row in rows:
        if row["workload"] == workload:
            i, j = nodes.index(row["node"]), systems.index(row["system"])
            if math.isnan(grid[i][j]) or row["step_time_s"] < grid[i][j]:
                grid[i][j] = row["step_time_s"]
    return grid


def plot_step_times(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    """Draw the heatmaps of ``rows`` into ``path`` (format from its suffix)."""
    plt = pyplot()
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    nodes = list(dict.fromkeys(r["node"] for r in rows))
    systems = list(dict.fromkeys(r["system"] for r in rows))
    if not workloads:
        raise HespasError(f"{path}: nothing to plot (every point was skipped)")
    fig, axes = plt.subplots(1, len(workloads), squeeze=False,
                             figsize=(1.6 + 1.4 * len(systems) * len(workloads),
                                      1.4 + 0.5 * len(nodes)))
    for ax, workload in zip(axes[0], workloads, strict=True):
        grid = _grid(rows, workload, nodes, systems)
        image = ax.imshow([[v * 1e3 for v in line] for line in grid], cmap="viridis_r",
                          aspect="auto")
        for i, line in enumerate(grid):
            for j, value in enumerate(line):
                if not math.isnan(value):  # dark text on the light (fast) end of the scale
                    ax.text(j, i, f"{value * 1e3:.3g}", ha="center", va="center", fontsize=7,
                            color="black" if image.norm(value * 1e3) < 0.5 else "white")
        ax.set_xticks(range(len(systems)), systems, rotation=30, ha="right", fontsize=7)
        ax.set_yticks(range(len(nodes)), nodes, fontsize=7)
        ax.set_title(workload, fontsize=8)
        fig.colorbar(image, ax=ax, label="step time (ms)")
    fig.tight_layout()
    save_figure(fig, path)
