"""Read a StableHLO module (text, MLIR bytecode or VHLO portable artifact) into plain-Python ops.

`load_module` parses with jaxlib's MLIR bindings (`hespas_py.mlir.source`) and walks the module
once (`hespas_py.mlir.walk`), producing the frozen dataclasses of `hespas_py.mlir.ops`; no live
MLIR object leaks out.

What each op carries:

* ``name``, SSA ``results``/``operands`` as small integers unique in the module (function and
  region arguments included), their types (tuples, tokens and ``!stablehlo.future`` included).
* ``attrs`` for the op kinds later stages read: the keys `hespas_py.mlir.attrs` lists
  (``replica_groups`` as tuples of device ids, the ``#stablehlo.replica_group_mesh_axes`` form
  expanded against its mesh; ``value`` for scalar and splat constants only), plus ``trip_count``
  (``while`` with a constant bound, `hespas_py.mlir.loops`). Ops of other kinds carry an empty
  mapping; treat ``attrs`` as read-only.
* ``regions``: while = (cond, body); case/if = one per branch; fusion, reducers and
  ``sdy.manual_computation`` = their body (the latter with per-device shapes). A ``func.call``
  gets its callee's body as its single region (the same `Region` object at every call site,
  its ``args`` being the callee's argument ids).
* ``captures``: ids defined outside an op's regions and read inside them.

The entry function is ``main``, else the single public function; anything else is a `HespasError`.
Module ``N`` of a file that holds several is read with ``load_module(path, module=N)``, each in
turn with `load_modules`. Ops of dialects outside `MODELED_DIALECTS` (another toolchain's) are
read like any other, and warned about once per dialect.

``load_module(path, outline=True)`` reads only what an op histogram needs: names, ``index``, call
targets (``attrs`` holds ``callee`` for ``func.call`` and nothing else) and the regions the
histogram expands (`analyze.EXPANDED`: calls, fusions, manual computations, control flow; reducer
bodies are left out). SSA ids, types and captures stay empty, so the walk costs a fraction of a
full read; `Module.outline` marks such a module and the splitter refuses it.
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
    """Read one module and print its warnings; one the parser fails on (or any, once it failed in
    this process) is read in a fresh process (`hespas_py.mlir.isolated`)."""
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
