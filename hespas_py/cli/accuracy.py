"""``hespas accuracy``: predicted step times against measured hardware, group by group.

The groups (`hespas_py.accuracy.rows.GROUPS`): ``hespas`` (the default; single-node rows, fast)
and ``scale`` (multi-node runs on up to 256 devices; slower). How rows become cases and
predictions, and what the trend error is: `hespas_py.accuracy.cases`,
`hespas_py.accuracy.evaluate`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from hespas_py.accuracy.cases import SYSTEMS_DIR
from hespas_py.accuracy.evaluate import DEFAULT_ESTIMATOR, Evaluation, evaluate
from hespas_py.accuracy.rows import GROUPS, groups
from hespas_py.cli.main import app


def as_json(evaluation: Evaluation, estimator: str) -> dict:
    """The ``--json`` document: rows, per-group figures and skipped rows, for ``estimator``."""
    return {
        "rows": [r.as_json() for r in evaluation.results if r.estimator == estimator],
        "groups": {group: {"counted": s.counted, "within_15": s.within_15, "trend_error": s.trend_error}
                   for (group, name), s in evaluation.summaries.items() if name == estimator},
        "skipped": [{"group": row.group, "row": row.name, "system": row.system, "reason": reason}
                    for row, reason in evaluation.skipped],
    }


def print_table(evaluation: Evaluation) -> None:
    """The human-readable report: one row per prediction, group figures, skipped rows."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="estimated vs measured step time")
    for column in ("group", "row", "system", "estimator", "counted", "measured (s)", "estimated (s)",
                   "error"):
        table.add_column(column, justify="right" if "(" in column or column == "error" else "left")
    for r in evaluation.results:
        counted = "yes" if r.row.counted else f"no: {r.row.reason}"
        name = r.row.name + (f" [dim]({r.unmodelled})[/dim]" if r.unmodelled else "")
        table.add_row(r.row.group, name, r.row.system, r.estimator, counted, f"{r.row.measured_s:.4g}",
                      f"{r.estimated_s:.4g}", f"{r.error:+.1%}")
    console = Console()
    console.print(table)
    for (group, estimator), s in evaluation.summaries.items():
        trend = "n/a (no related rows)" if s.trend_error is None else f"{s.trend_error:.1%}"
        console.print(f"{group} ({estimator}): {s.within_15}/{s.counted} counted rows within 15%, "
                      f"trend error {trend}")
    for row, reason in evaluation.skipped:
        console.print(f"[dim]skipped: {row.group} {row.name} {row.system}: {reason}[/dim]")


@app.command("accuracy")
def accuracy(
    json_out: bool = typer.Option(False, "--json",
                                  help="Print rows, group figures and skipped rows as JSON."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Draw measured vs estimated here."),
    group_names: Optional[list[str]] = typer.Option(
        None, "--group", help=f"Group to evaluate (repeatable; {', '.join(GROUPS)} or all; default hespas)."),
    estimators: Optional[list[str]] = typer.Option(
        None, "--estimator", help=f"Estimator to evaluate (repeatable; default {DEFAULT_ESTIMATOR})."),
    params: Optional[list[str]] = typer.Option(
        None, "--param", metavar="KEY=VALUE", help="Estimator param for every row, as in a node "
        "config's hardware section (repeatable; e.g. fused_attention=true)."),
    measured: Optional[Path] = typer.Option(
        None, "--measured", help="Measured table of the one group evaluated (default: the packaged one)."),
    workloads: Optional[list[Path]] = typer.Option(
        None, "--workloads", help="Extra folder of <workload>.mlir files (repeatable)."),
    systems: Path = typer.Option(SYSTEMS_DIR, "--systems", help="Folder of system presets."),
    approximate: bool = typer.Option(
        False, "--approximate", help="Also rows whose model configuration was never published "
                                     "(evaluated on our guessed export, not counted)."),
) -> None:
    """Compare predicted step times with measured hardware, row by row."""
    names = list(dict.fromkeys(estimators or [DEFAULT_ESTIMATOR]))
    evaluation = evaluate(groups(group_names), names, measured, workloads or [], systems, approximate,
                          params or [])
    if plot is not None:
        from hespas_py.accuracy.plot import plot as draw

        draw(evaluation.results, plot)
    if json_out:
        print(json.dumps(as_json(evaluation, names[0]), indent=1))
    else:
        print_table(evaluation)
