"""``hespas sweep``: a design-space sweep (workloads x nodes x systems x estimators x variants).

The spec is read and checked, and Ray reached, before anything is written: a bad spec is one line
and exit 2 with DIR untouched. Work is kept by content in ``DIR/store`` (a rerun does only what
is missing); ``DIR/results.csv`` and ``DIR/results.json`` are written whole at the end. A progress
bar with ETA goes to stderr when it is a terminal; the summary (or ``--json``) to stdout.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer

from hespas_py.cli.main import app
from hespas_py.errors import HespasError
from hespas_py.units import gib

if TYPE_CHECKING:  # the sweep machinery is imported when the command runs
    from rich.progress import Progress

    from hespas_py.sweep.runner import ProgressHook, SweepResult

STORE = "store"
R = TypeVar("R")


def _progress_bar(phases: tuple[str, ...]) -> tuple[Progress, ProgressHook]:
    """A rich progress display on stderr (one bar per phase, with ETA) and its hook."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    width = max(map(len, phases))
    progress = Progress(TextColumn(f"{{task.description:>{width}}}"), BarColumn(),
                        MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                        TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    tasks = {phase: progress.add_task(phase, total=None) for phase in phases}

    def hook(phase: str, done: int, total: int) -> None:
        progress.update(tasks[phase], completed=done, total=total)

    return progress, hook


def run_stored(out: Path, backend: str, jobs: int | None, address: str | None,
               phases: tuple[str, ...], work: Callable[..., R]) -> R:
    """``work(store, runner, hook)`` on the store under ``out`` and the chosen backend, with a
    progress display of ``phases`` when stderr is a terminal (``hook`` None otherwise)."""
    from hespas_py.sweep.backends import make_backend
    from hespas_py.sweep.store import Store

    if out.exists() and not out.is_dir():
        raise HespasError(f"{out}: exists and is not a directory")
    with make_backend(backend, jobs, address) as runner:
        store = Store(out / STORE)
        if not sys.stderr.isatty():
            return work(store, runner, None)
        progress, hook = _progress_bar(phases)
        with progress:
            return work(store, runner, hook)


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.3f}"


def print_summary(result: SweepResult, variant_keys: tuple[str, ...], out: Path) -> None:
    """The best point per workload that fits in memory, then what was done and skipped."""
    from rich.console import Console
    from rich.table import Table

    from hespas_py.sweep.results import best_per_workload

    table = Table(title="best point per workload (of those that fit in memory)")
    for column in ("workload", "node", "system", "estimator", *variant_keys):
        table.add_column(column)
    for column in ("step (ms)", "compute (ms)", "exposed comm (ms)", "peak memory (GiB)"):
        table.add_column(column, justify="right")
    best = best_per_workload(result.rows)
    for row in best:
        table.add_row(*(str(row[k]) for k in ("workload", "node", "system", "estimator",
                                               *variant_keys)),
                      _ms(row["step_time_s"]), _ms(row["compute_s"]), _ms(row["exposed_comm_s"]),
                      gib(row["peak_bytes"]))
    shown = {r["workload"] for r in best}
    unfit = [w for w in dict.fromkeys(r["workload"] for r in result.rows) if w not in shown]
    work = result.work
    console = Console()
    if not console.is_terminal:  # a file or pipe gets the whole table, not 80 columns
        console.width = max(console.width, console.measure(
            table, options=console.options.update_width(10_000)).maximum)
    console.print(table)
    console.print(f"{len(result.rows)} rows, {len(result.skipped)} skipped; traces: "
                  f"{work.traces_made} made, {work.traces_reused} reused; points: "
                  f"{work.points_simulated} simulated, {work.points_reused} reused; results in "
                  f"{out}", highlight=False)
    for workload in unfit:
        console.print(f"{workload}: no point fits in memory", markup=False, highlight=False)
    for reason in dict.fromkeys(s["reason"] for s in result.skipped):
        console.print(f"skipped: {reason}", markup=False, highlight=False)


#: Options of every command that runs on the sweep engine (``sweep``, ``search``).
JSON_OPTION = typer.Option(False, "--json", help="Print results.json's object on stdout.")
BACKEND_OPTION = typer.Option("local", "--backend", help="local (a process pool) or ray.")
ADDRESS_OPTION = typer.Option(None, "--address", help="Ray cluster to use (auto, "
                              "ray://HOST:10001); default: a local Ray.")
JOBS_OPTION = typer.Option(None, "--jobs", help="Workers (default: this machine's CPUs; with "
                           "Ray, the CPUs of the local Ray it starts).")


@app.command("sweep")
def sweep_command(
    spec: Path = typer.Argument(..., help="Sweep spec (YAML): workloads, nodes, systems, "
                                "estimator, split, variants."),
    out: Path = typer.Option(..., "--out", help="Results folder: results.csv, results.json and "
                             "the store of finished work (a rerun resumes from it)."),
    as_json: bool = JSON_OPTION,
    backend: str = BACKEND_OPTION,
    address: str | None = ADDRESS_OPTION,
    jobs: int | None = JOBS_OPTION,
    plot: Path | None = typer.Option(None, "--plot", help="Draw step time per node x system "
                                        "here (needs matplotlib: the plot extra)."),
) -> None:
    """Sweep workloads x nodes x systems x estimators x system variants."""
    from hespas_py.plotting import pyplot
    from hespas_py.sweep.plan import make_plan
    from hespas_py.sweep.plot import plot_step_times
    from hespas_py.sweep.results import write_results
    from hespas_py.sweep.runner import run_sweep
    from hespas_py.sweep.spec import load_spec

    if plot is not None:
        pyplot()  # fail before any work when matplotlib is missing
    plan = make_plan(load_spec(spec))
    result = run_stored(out, backend, jobs, address, ("traces", "points"),
                        lambda store, runner, hook: run_sweep(plan, store, runner, hook))
    write_results(out, result, plan.variant_keys)
    if plot is not None:
        plot_step_times(result.rows, plot)
    if as_json:
        print(json.dumps(result.as_json(), indent=1))
    else:
        print_summary(result, plan.variant_keys, out)
