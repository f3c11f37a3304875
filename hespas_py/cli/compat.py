"""Entry points named like the published Hespas tools, with their flags and config files."""

from __future__ import annotations

import typer

from hespas_py.cli.errors import run_guarded


def chakra_gen() -> None:
    """``hespas_chakra_gen CONFIG [options]``: the same command as ``hespas gen``."""
    from hespas_py.cli.gen import gen

    tool = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    tool.command(help=gen.__doc__)(gen)
    run_guarded(lambda: tool(standalone_mode=False))
