"""``hespas trace show DIR|FILE [--json]``: decode Chakra traces (ours or any tool's) and tally them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import typer

from hespas_py.cli.main import app

trace_app = typer.Typer(help="Inspect Chakra execution traces.", no_args_is_help=True)
app.add_typer(trace_app, name="trace")


def _files_label(files: list[str]) -> str:
    names = [Path(f).name for f in files]
    return ", ".join(names) if len(names) <= 4 else f"{names[0]} .. {names[-1]} ({len(names)})"


def _print(result: Mapping[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if "directory" in result:
        console.print(f"[bold]{result['directory']}[/bold]: {result['ranks']} traces, "
                      f"{len(result['traces'])} distinct")
    if result.get("comm_groups") is not None:
        console.print(f"comm groups: {json.dumps(result['comm_groups'])}")
    stats = result.get("module_stats")
    if isinstance(stats, dict) and "runtime_s" in stats:
        console.print(f"compute estimate: {stats['runtime_s'] * 1e3:,.3f} ms "
                      f"({stats.get('estimator')} on {stats.get('hardware')})")
    for trace in result["traces"]:
        table = Table(title=_files_label(trace["files"]), show_header=False, title_justify="left")
        table.add_column(style="bold")
        table.add_column()
        table.add_row("version", trace["version"])
        table.add_row("nodes", f"{trace['nodes']} ("
                      + ", ".join(f"{n} {k}" for k, n in trace["by_type"].items()) + ")")
        table.add_row("dependencies", str(trace["edges"]))
        table.add_row("compute", f"{trace['compute_micros']:,} us, {trace['flops']:,} FLOPs, "
                      f"{trace['tensor_bytes']:,} bytes")
        for kind, entry in {**trace["collectives"], **trace["point_to_point"]}.items():
            table.add_row(kind, f"{entry['count']} x, {entry['bytes']:,} bytes")
        if trace["pg_names"]:
            table.add_row("pg_name", ", ".join(repr(p) for p in trace["pg_names"]))
        for name, count, micros in trace["top_names"]:
            table.add_row(f"  {name}", f"{count} x, {micros:,} us")
        console.print(table)


@trace_app.command("show")
def show(
    target: Path = typer.Argument(..., help="A trace file, or a directory of <prefix>.<rank>.et"),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    """Decode Chakra traces and print what they hold (node counts, compute time, collectives)."""
    from hespas_py.chakra.summary import summarize

    result = summarize(target)
    if json_out:
        print(json.dumps(result, indent=1))
    else:
        _print(result)
