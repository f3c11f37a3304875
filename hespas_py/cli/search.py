"""``hespas search``: every parallelism layout of a JAX step factory on N devices, ranked.

Options are checked, and Ray reached, before anything is written. Exports, traces and points are
kept by content in ``DIR/store`` (a rerun does only what is missing); ``DIR/results.csv`` and
``DIR/results.json`` are written whole at the end. A progress bar goes to stderr when it is a
terminal; the ranked table (or ``--json``) to stdout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from hespas_py.cli.main import app
from hespas_py.cli.sweep import ADDRESS_OPTION, BACKEND_OPTION, JOBS_OPTION, JSON_OPTION, run_stored
from hespas_py.errors import HespasError
from hespas_py.estimators.base import DEFAULT_ESTIMATOR
from hespas_py.units import gib

if TYPE_CHECKING:
    from hespas_py.search.run import SearchResult

#: Rows the table shows (results.csv has them all).
_SHOWN = 20


def _gib(value: int | None) -> str:
    return "" if value is None else gib(value)


def print_ranking(result: SearchResult, axes: tuple[str, ...], out: Path) -> None:
    """The ranked layouts (columns: the axes, and the other labels that vary), then what was
    done and skipped."""
    from rich.console import Console
    from rich.table import Table

    from hespas_py.search.results import label_keys

    labels = [*axes, *(k for k in label_keys(result) if k not in axes)]
    table = Table(title=f"layouts by step time ({len(result.rows)})")
    table.add_column("#", justify="right")
    for column in labels:
        table.add_column(column)
    for column in ("step (ms)", "compute (ms)", "exposed comm (ms)", "peak (GiB)", "fits"):
        table.add_column(column, justify="right")
    for i, row in enumerate(result.rows[:_SHOWN], 1):
        fits = row["fits"]
        table.add_row(str(i), *(str(row.get(k, "")) for k in labels),
                      f"{row['step_time_s'] * 1e3:,.3f}", f"{row['compute_s'] * 1e3:,.3f}",
                      f"{row['exposed_comm_s'] * 1e3:,.3f}", _gib(row["peak_bytes"]),
                      "" if fits is None else ("yes" if fits else "no"))
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, console.measure(
            table, options=console.options.update_width(10_000)).maximum)
    console.print(table)
    console.print(f"{len(result.rows)} rows, {len(result.skipped)} skipped; exports: "
                  f"{result.exports_made} made, {result.exports_reused} reused; results in {out}",
                  highlight=False)
    for skip in result.skipped:
        layout = " ".join(f"{k}={skip[k]}" for k in result.layout_keys if k in skip)
        console.print(f"skipped {layout}: {skip['reason']}", markup=False, highlight=False)


def _split_list(text: str, option: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",")))
    if not all(names):
        raise HespasError(f"{option} {text}: empty name in the list")
    return names


@app.command("search")
def search_command(
    factory: str = typer.Argument(..., help="FILE.py:FACTORY; FACTORY(**layout) returns "
                                  "(jitted_fn, args)."),
    devices: int = typer.Option(..., "--devices", "-n", help="Devices every layout runs on."),
    axes: str = typer.Option(..., "--axes", help="Comma-separated axes (keyword arguments of the "
                             "factory); every assignment of the devices to them is searched."),
    node: str = typer.Option(..., "--node", help="Node preset(s) or config file(s), "
                             "comma-separated."),
    system: str = typer.Option(..., "--system", help="System preset(s) or ASTRA-sim folder(s), "
                               "comma-separated."),
    out: Path = typer.Option(..., "--out", help="Results folder: results.csv, results.json and "
                             "the store of finished work (a rerun resumes from it)."),
    settings: list[str] | None = typer.Option(
        None, "--set", metavar="KEY=V1,V2", help="Other keyword arguments of the factory, each "
        "value list crossed with the layouts (repeatable)."),
    variants: list[str] | None = typer.Option(
        None, "--variant", metavar="KEY=V1,V2", help="System variants, as a sweep spec's "
        "variants (bandwidth_scale=0.5,1, algorithm=ring,direct, ...; repeatable)."),
    estimator: str = typer.Option(DEFAULT_ESTIMATOR, "--estimator", help="Estimator(s), "
                                  "comma-separated."),
    as_json: bool = JSON_OPTION,
    backend: str = BACKEND_OPTION,
    address: str | None = ADDRESS_OPTION,
    jobs: int | None = JOBS_OPTION,
    plot: Path | None = typer.Option(None, "--plot", help="Draw step time per layout here "
                                        "(needs matplotlib: the plot extra)."),
) -> None:
    """Search the parallelism layouts of a JAX step on N devices, ranked by simulated step time."""
    from hespas_py.export.factory_args import parse_settings
    from hespas_py.plotting import pyplot
    from hespas_py.search.layouts import layouts as enumerate_layouts
    from hespas_py.search.results import plot_layouts, write_results
    from hespas_py.search.run import SearchSpec, run_search

    if plot is not None:
        pyplot()  # fail before any work when matplotlib is missing
    spec = SearchSpec(factory, devices, _split_list(axes, "--axes"),
                      parse_settings(settings or [], lists=True), _split_list(node, "--node"),
                      _split_list(system, "--system"), _split_list(estimator, "--estimator"),
                      variants=parse_settings(variants or [], lists=True))
    layouts = enumerate_layouts(spec.devices, spec.axes, spec.settings)
    result = run_stored(out, backend, jobs, address, ("exports", "traces", "points"),
                        lambda store, runner, hook: run_search(spec, store, runner, hook, layouts))
    write_results(out, result)
    if plot is not None:
        plot_layouts(result, plot)
    if as_json:
        print(json.dumps(result.as_json(), indent=1))
    else:
        print_ranking(result, spec.axes, out)
