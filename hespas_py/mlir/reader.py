"""Read a StableHLO module (text, MLIR bytecode or VHLO portable artifact) into plain-Python ops.

Why and how: docs/mlir.md.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from hespas_py.mlir import ahead
from hespas_py.mlir.ops import Module
from hespas_py.mlir.parsed_reader import read_parsed
from hespas_py.mlir.source import (
    ModuleSource,
    ParsedModule,
    ParserFailed,
    module_sources,
    parse,
    pick_source,
)


def load_module(path: str | Path, *, outline: bool = False, module: int | None = None) -> Module:
    """Read the module in ``path`` (module ``module``, from 1, of a file that holds several:
    `hespas_py.mlir.source`); raise `HespasError` ("<file>: <problem>") for bad input.

    ``outline``: read op names and nesting only (see the module docstring). A parse of the
    module started ahead (`hespas_py.mlir.ahead`) is taken over.
    """
    started = ahead.take(path, module)
    if started is not None:
        return _load(started.source(), outline, started.parsed)
    source = pick_source(path, module)
    return _load(source, outline, functools.partial(parse, source))


def load_modules(path: str | Path, *, outline: bool = False) -> Iterator[Module]:
    """Every module of ``path`` in file order (one for most files), each read when asked for."""
    for source in module_sources(path):
        yield _load(source, outline, functools.partial(parse, source))


def _load(source: ModuleSource, outline: bool, parsed_module: Callable[[], ParsedModule]) -> Module:
    """Read one module (``parsed_module()`` parses ``source``) and print its warnings; one the
    parser fails on (or any, once it failed in this process) is read in a fresh process
    (`hespas_py.mlir.isolated`)."""
    try:
        parsed = parsed_module()
    except ParserFailed:
        from hespas_py.mlir.isolated import read_isolated

        module = read_isolated(source, outline)
    else:
        module = read_parsed(parsed, outline)
    for warning in module.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return module
