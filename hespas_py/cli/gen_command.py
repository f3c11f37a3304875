"""``hespas gen`` as a typer command: `hespas_py.cli.gen.PARAMS` as its parameters, running
`hespas_py.cli.gen.run`."""

from __future__ import annotations

import inspect
from typing import Any

import typer

from hespas_py.cli import gen as _gen
from hespas_py.cli.main import app


def _parameter(param: _gen.Param) -> inspect.Parameter:
    """``param`` as typer reads a parameter: its default a ``typer.Argument`` or ``typer.Option``,
    its annotation the value's type (optional where the default is None)."""
    if not param.flags:
        return inspect.Parameter(param.name, inspect.Parameter.KEYWORD_ONLY,
                                 default=typer.Argument(..., help=param.help),
                                 annotation=param.type)
    value_type: Any = list[str] if param.type is list else param.type
    return inspect.Parameter(
        param.name, inspect.Parameter.KEYWORD_ONLY,
        default=typer.Option(param.default, *param.flags, help=param.help,
                             metavar=param.metavar or None),
        annotation=value_type | None if param.default is None else value_type)


def gen(**options: Any) -> None:
    """Typer's entry to `hespas_py.cli.gen.run`."""
    _gen.run(**options)


gen.__signature__ = inspect.Signature([_parameter(p) for p in _gen.PARAMS])  # type: ignore[attr-defined]
app.command("gen", help=_gen.run.__doc__)(gen)
