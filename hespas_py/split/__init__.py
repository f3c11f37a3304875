"""Splitting a module into blocks (compute runs and single collectives) with their dependency DAG.

Splitters take a `Module` (its per-device program, see `program`) or a plain op list and return a
`BlockGraph` in program order: every block's deps are ascending and smaller than its id. A loop
whose body holds a collective is expanded into its iterations, run in order (`program`, `build`).
Options every splitter takes: XLA's collective rewrites of the per-device program
(``collective_rewrites``, `rewrites`) and its collective combiners (``combine_threshold``,
`combine`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hespas_py.errors import HespasError
from hespas_py.mlir.ops import Module
from hespas_py.split.blocks import Block, BlockGraph
from hespas_py.split.individual import individual_split
from hespas_py.split.linear import SEPARATORS, SeparatorPolicy, linear_split

#: Splitters by the names configs and the command line use.
SPLITTERS: dict[str, Callable[..., BlockGraph]] = {
    "individual_split": individual_split,
    "linear_split": linear_split,
}


def splitter(strategy: str) -> Callable[..., BlockGraph]:
    """The splitter named ``strategy``; `HespasError` listing the known ones otherwise."""
    try:
        return SPLITTERS[strategy]
    except KeyError:
        raise HespasError(f"unknown split strategy {strategy!r} "
                          f"(known: {', '.join(SPLITTERS)})") from None


def split(module: Module, strategy: str, **options: Any) -> BlockGraph:
    """Run the splitter named ``strategy`` with its keyword ``options``."""
    if module.outline:
        raise HespasError(f"{module.path}: read in outline mode (names only); split needs a full read")
    return splitter(strategy)(module, **options)


__all__ = ["Block", "BlockGraph", "SEPARATORS", "SPLITTERS", "SeparatorPolicy",
           "individual_split", "linear_split", "split", "splitter"]
