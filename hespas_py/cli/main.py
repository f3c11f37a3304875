"""The ``hespas`` command: one subcommand per pipeline stage."""

from __future__ import annotations

import typer

from hespas_py.cli.errors import run_guarded

app = typer.Typer(
    name="hespas",
    help="Estimate how fast a distributed training step runs: StableHLO in, step time out.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)



@app.callback()
def _root() -> None:
    """Keeps ``hespas`` a group of subcommands even while a single one is registered."""


# Subcommands register themselves on `app` when their module is imported.
from hespas_py.cli import commands  # noqa: E402,F401


def main() -> None:
    """Console-script entry point."""
    run_guarded(lambda: app(standalone_mode=False))
