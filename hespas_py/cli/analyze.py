"""``hespas analyze FILE [--expand] [--json]``: the op histogram of a StableHLO module (of each
module of a file that holds several, ``// -----`` separated)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from hespas_py.cli.main import app


@app.command("analyze")
def analyze(
    file: Path = typer.Argument(..., help="StableHLO module: .mlir text, MLIR bytecode or a VHLO artifact."),
    expand: bool = typer.Option(
        False, "--expand", "-e",
        help="Count the ops inside calls (per call site), fusions, Shardy and control-flow bodies.",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print the histogram as JSON."),
) -> None:
    """Print how often each op occurs, in the published Hespas analyzer's layout (per module)."""
    from hespas_py.mlir.analyze import histogram, modules_json, render_modules
    from hespas_py.mlir.reader import load_modules

    results = [histogram(module, expand=expand) for module in load_modules(file, outline=True)]
    if json_out:
        print(json.dumps(modules_json(results), indent=2))
    else:
        print(render_modules(results))
