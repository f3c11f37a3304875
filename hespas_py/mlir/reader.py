"""Read a StableHLO module (text, MLIR bytecode or VHLO portable artifact) into plain-Python ops.

Why and how: docs/mlir.md.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from hespas_py.mlir.ops import Module
from hespas_py.mlir.parsed_reader import read_parsed
from hespas_py.mlir.source import (
    ModuleSource,
    ParserFailed,
    module_sources,
    parse,
    pick_source,
)


def load_module(path: str | Path, *, outline: bool = False, module: int | None = None) -> Module:
    """Read the module in ``path`` (module ``module``, from 1, of a file that holds several:
    `hespas_py.mlir.source`); raise `HespasError` ("<file>: <problem>") for bad input.

    ``outline``: read op names and nesting only (see the module docstring).
    """
    return _load(pick_source(path, module), outline)


def load_modules(path: str | Path, *, outline: bool = False) -> Iterator[Module]:
    """Every module of ``path`` in file order (one for most files), each read when asked for."""
    for source in module_sources(path):
        yield _load(source, outline)


def _load(source: ModuleSource, outline: bool) -> Module:
    """Read one module and print its warnings; one the parser fails on (or any, once it failed
    in this process) is read in a fresh process (`hespas_py.mlir.isolated`)."""
    try:
        parsed = parse(source)
    except ParserFailed:
        from hespas_py.mlir.isolated import read_isolated

        module = read_isolated(source, outline)
    else:
        module = read_parsed(parsed, outline)
    for warning in module.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return module
