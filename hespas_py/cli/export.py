"""``hespas export``: a JAX step factory → StableHLO of its per-device program."""

from __future__ import annotations

from pathlib import Path

import typer

from hespas_py.cli.main import app
from hespas_py.errors import HespasError


@app.command("export")
def export(
    factory: str = typer.Argument(..., help="FILE.py:FACTORY; FACTORY() returns (jitted_fn, args)."),
    devices: int = typer.Option(..., "--devices", "-n", help="Number of devices the step runs on."),
    out: Path = typer.Option(..., "--out", "-o", help="Where to write the StableHLO text (.mlir)."),
    optimized: bool = typer.Option(
        False, "--optimized", help="Write the module after XLA's CPU optimization passes (mhlo.fusion "
        "form). This runs XLA's whole CPU pipeline, LLVM code generation included: minutes for big "
        "steps (the default form stops XLA after its SPMD partitioner)."
    ),
    settings: list[str] | None = typer.Option(
        None, "--set", metavar="KEY=VALUE", help="Keyword argument of the factory (repeatable); "
        "VALUE is read as JSON when it parses (2, true, \"x\"), else as a string."),
) -> None:
    """Export the per-device program of a jitted, sharded JAX step, after XLA's SPMD partitioner."""
    from hespas_py.export import export_file
    from hespas_py.export.factory_args import parse_settings

    kwargs = {key: values[0] for key, values in parse_settings(settings or [], lists=False).items()}
    text = export_file(factory, devices, optimized, kwargs)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    except OSError as exc:
        raise HespasError(f"{out}: cannot write: {exc.strerror}") from None
    typer.echo(f"wrote {out} ({len(text.splitlines())} lines, {devices} devices)")
