"""``hespas accuracy``: predicted step times against measured hardware, group by group.

Why and how: docs/accuracy.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from hespas_py.accuracy.cases import SYSTEMS_DIR
from hespas_py.accuracy.evaluate import EVERY_ROW, Evaluation, evaluate
from hespas_py.accuracy.markdown import render, summary_line
from hespas_py.accuracy.rows import GROUPS, groups
from hespas_py.cli.main import app
from hespas_py.errors import HespasError
from hespas_py.estimators.base import DEFAULT_ESTIMATOR
from hespas_py.units import gib


def as_json(evaluation: Evaluation, estimator: str) -> dict:
    """The ``--json`` document: rows, per-group figures and skipped rows, for ``estimator``."""
    return {
        "rows": [r.as_json() for r in evaluation.results if r.estimator == estimator],
        "groups": {group: {"counted": s.counted, "within_15": s.within_15, "trend_error": s.trend_error,
                           "memory_rows": s.memory_rows, "memory_within_10": s.memory_within_10}
                   for (group, name), s in evaluation.summaries.items() if name == estimator},
        "skipped": [{"group": row.group, "row": row.name, "system": row.system, "reason": reason}
                    for row, reason in evaluation.skipped],
    }


def kernel_comparisons(evaluation: Evaluation, estimator: str) -> list:
    """Per kernel class, measured beside estimated, for every row whose workload ships a kernel
    profile (`hespas_py.accuracy.kernels`)."""
    from hespas_py.accuracy.kernels import PLANNER, compare

    found = []
    for r in evaluation.results:
        if r.estimator == estimator == PLANNER:
            found.append(compare(r.row.name, r.row.workload, r.case.workload_file, r.case.node,
                                 r.row.measured_s, r.params))
    return [c for c in found if c is not None]


def print_kernels(comparisons: list) -> None:
    """One table per row: each kernel class's measured and estimated launches and time."""
    from rich.console import Console
    from rich.table import Table

    from hespas_py.accuracy.kernels import ORDER, PLANNER, ClassTime

    console = Console()
    for c in comparisons:
        table = Table(title=f"{c.row}: time per kernel class (profile vs {PLANNER})")
        for column in ("class", "launches", "measured (ms)", "est. launches", "estimated (ms)",
                       "difference (ms)"):
            table.add_column(column, justify="left" if column == "class" else "right")
        for cls in ORDER:
            m, e = c.measured.get(cls), c.estimated.get(cls)
            if m is None and e is None:
                continue
            m, e = m or ClassTime(), e or ClassTime()
            table.add_row(cls, f"{m.launches:g}", f"{m.seconds * 1e3:.3f}", f"{e.launches:g}",
                          f"{e.seconds * 1e3:.3f}", f"{(e.seconds - m.seconds) * 1e3:+.3f}")
        console.print(table)


def print_table(evaluation: Evaluation) -> None:
    """The human-readable report: one row per prediction, group figures, skipped rows."""
    from rich.console import Console
    from rich.table import Table

    memory = any(r.memory_error is not None for r in evaluation.results)
    rates = any(r.row.work is not None for r in evaluation.results)
    table = Table(title="estimated vs measured step time"
                  + (" and per-device peak memory" if memory else ""))
    columns = ["group", "row", "system", "estimator", "counted", "measured (s)", "estimated (s)",
               "error"]
    if memory:
        columns += ["measured peak (GiB)", "estimated peak (GiB)", "memory error"]
    if rates:
        columns += ["tokens/step", "measured (TFLOP/s/dev)", "estimated (TFLOP/s/dev)"]
    for column in columns:
        table.add_column(column, justify="right" if "(" in column or "error" in column else "left")
    for r in evaluation.results:
        counted = "yes" if r.row.counted else f"no: {r.row.reason}"
        name = r.row.name + (f" [dim]({r.unmodelled})[/dim]" if r.unmodelled else "")
        cells = [r.row.group, name, r.row.system, r.estimator, counted, f"{r.row.measured_s:.4g}",
                 f"{r.estimated_s:.4g}", f"{r.error:+.1%}"]
        if memory:
            measured, estimated, error = (r.row.measured_peak_bytes, r.estimated_peak_bytes,
                                          r.memory_error)
            cells += ([gib(measured), gib(estimated), f"{error:+.1%}"]
                      if measured is not None and estimated is not None and error is not None
                      else ["", "", ""])
        if rates:
            work = r.row.work
            cells += ["", "", ""] if work is None else [
                f"{work.tokens:,}", f"{work.tflops_per_device(r.row.measured_s):.0f}",
                f"{work.tflops_per_device(r.estimated_s):.0f}"]
        table.add_row(*cells)
    console = Console()
    console.print(table)
    for (group, estimator), s in evaluation.summaries.items():
        console.print(summary_line(group, estimator, s))
    for row, reason in evaluation.skipped:
        console.print(f"[dim]skipped: {row.group} {row.name} {row.system}: {reason}[/dim]")


def _node(item: str) -> tuple[str, str]:
    """(preset name or `EVERY_ROW`, preset) of one ``--node [NAME=]PRESET``."""
    name, equals, preset = item.partition("=")
    if not equals:
        return EVERY_ROW, item
    if not name or not preset:
        raise HespasError(f"--node {item!r}: expected [NAME=]PRESET")
    return name, preset


GROUP_HELP = f"Group to evaluate (repeatable; {', '.join(GROUPS)} or all; default hespas)."


@app.command("accuracy")
def accuracy(
    json_out: bool = typer.Option(False, "--json",
                                  help="Print rows, group figures and skipped rows as JSON."),
    markdown: bool = typer.Option(
        False, "--markdown", help="Print each group's table and figures as Markdown, between the "
                                  "markers docs/accuracy.md holds them in."),
    plot: Path | None = typer.Option(None, "--plot", help="Draw measured vs estimated here."),
    group_names: list[str] | None = typer.Option(
        None, "--group", help=GROUP_HELP),
    estimators: list[str] | None = typer.Option(
        None, "--estimator", help=f"Estimator to evaluate (repeatable; default {DEFAULT_ESTIMATOR})."),
    params: list[str] | None = typer.Option(
        None, "--param", metavar="KEY=VALUE", help="Estimator param for every row, as in a node "
        "config's hardware section (repeatable; e.g. fused_attention=true)."),
    measured: Path | None = typer.Option(
        None, "--measured", help="Measured table of the one group evaluated (default: the packaged one)."),
    workloads: list[Path] | None = typer.Option(
        None, "--workloads", help="Extra folder of <workload>.mlir files (repeatable)."),
    systems: Path = typer.Option(SYSTEMS_DIR, "--systems", help="Folder of system presets."),
    nodes: list[str] | None = typer.Option(
        None, "--node", metavar="[NAME=]PRESET", help="Node preset (a name or a preset folder, "
        "e.g. one hespas calibrate wrote) every row runs on instead of its own; with NAME=, "
        "the rows of node preset NAME only (repeatable)."),
    approximate: bool = typer.Option(
        False, "--approximate", help="Also rows whose model configuration was never published "
                                     "(evaluated on our guessed export, not counted)."),
    kernels: bool = typer.Option(
        False, "--kernels", help="Per kernel class, the measured time from the row's kernel "
                                 "profile beside the fused_roofline estimate (rows that ship "
                                 "a profile: the gpu group)."),
) -> None:
    """Compare predicted step times with measured hardware, row by row."""
    if json_out and markdown:
        raise HespasError("--json and --markdown: choose one")
    names = list(dict.fromkeys(estimators or [DEFAULT_ESTIMATOR]))
    evaluation = evaluate(groups(group_names), names, measured, workloads or [], systems, approximate,
                          params or [], dict(_node(item) for item in nodes or []))
    if plot is not None:
        from hespas_py.accuracy.plot import plot as draw

        draw(evaluation.results, plot)
    comparisons = kernel_comparisons(evaluation, names[0]) if kernels else []
    if json_out:
        document = as_json(evaluation, names[0])
        if kernels:
            document["kernels"] = {c.row: c.as_json() for c in comparisons}
        print(json.dumps(document, indent=1))
    elif markdown:
        print(render(evaluation, names[0]), end="")
    else:
        print_table(evaluation)
        print_kernels(comparisons)
