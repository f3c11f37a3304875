"""The ``hespas`` command: one subcommand per pipeline stage, each imported only when it runs
(or ``--help`` lists them): `hespas_py.cli.commands` names the module that defines each.

Inside a command module, the stages the command runs and rich are imported in the command's
function, deliberately: ``--help``, the other commands and a summary printed to a pipe load none
of them (`tests/test_cli_lazy.py`)."""

from __future__ import annotations

import importlib

import typer
from typer.core import TyperGroup

from hespas_py.cli.commands import COMMANDS
from hespas_py.cli.errors import run_guarded


class _LazyCommands(TyperGroup):
    """The root group: a subcommand's module (`COMMANDS`) is imported when the command is looked
    up, and the command it registers on `app` is built then."""

    def list_commands(self, ctx) -> list[str]:
        return list(dict.fromkeys([*COMMANDS, *super().list_commands(ctx)]))

    def get_command(self, ctx, name: str):
        command = super().get_command(ctx, name)
        if command is None and name in COMMANDS:
            importlib.import_module(COMMANDS[name])
            single = typer.Typer()
            single.registered_commands = [c for c in app.registered_commands if c.name == name]
            single.registered_groups = [g for g in app.registered_groups if g.name == name]
            command = typer.main.get_group(single).commands[name]
            self.add_command(command, name)
        return command


app = typer.Typer(
    name="hespas",
    cls=_LazyCommands,
    help="Estimate how fast a distributed training step runs: StableHLO in, step time out.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Keeps ``hespas`` a group of subcommands even while a single one is registered."""


def main() -> None:
    """Console-script entry point."""
    run_guarded(lambda: app(standalone_mode=False))
