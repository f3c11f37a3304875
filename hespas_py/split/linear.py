"""``linear_split``: runs of consecutive ops in program order, cut at separators and at a size limit.

Why and how: docs/split.md.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence

from hespas_py.errors import HespasError
from hespas_py.mlir.ops import Module, Op
from hespas_py.split.blocks import BlockGraph, is_collective
from hespas_py.split.build import build_graph
from hespas_py.split.combine import Thresholds
from hespas_py.split.graph import Program, unread_constants

#: Separator predicates by the names configs use (Hespas' classifier names, plus ``is_collective``).
SEPARATORS: dict[str, Callable[[Op], bool]] = {
    "is_communication_op": is_collective,
    "is_collective": is_collective,
    "is_convolution_op": lambda op: op.short_name == "convolution",
    "is_dot_general_op": lambda op: op.short_name == "dot_general",
    "is_reduce_op": lambda op: op.short_name == "reduce",
}


class SeparatorPolicy(enum.Enum):
    """Where a non-collective separator op goes."""

    ISOLATED = "isolated"
    END_BLOCK = "end_block"
    START_BLOCK = "start_block"

    @classmethod
    def parse(cls, value: SeparatorPolicy | str) -> SeparatorPolicy:
        """Accept a policy or its name in any case (``ISOLATED``, ``end_block``, ``start-block``)."""
        if isinstance(value, cls):
            return value
        try:
            return cls(str(value).strip().lower().replace("-", "_"))
        except ValueError:
            raise HespasError(f"unknown separator policy {value!r} "
                              f"(known: {', '.join(p.value for p in cls)})") from None


def _separator(separator: str | Callable[[Op], bool]) -> Callable[[Op], bool]:
    if callable(separator):
        return separator
    try:
        return SEPARATORS[separator.strip()]
    except KeyError:
        raise HespasError(f"unknown separator {separator!r} "
                          f"(known: {', '.join(sorted(SEPARATORS))})") from None


def linear_split(source: Module | Sequence[Op], block_lim: int = 1024,
                 separator: str | Callable[[Op], bool] = "is_communication_op",
                 policy: SeparatorPolicy | str = SeparatorPolicy.ISOLATED,
                 loop_trips: int = 1, combine_threshold: Thresholds | int = 0,
                 collective_rewrites: bool = False) -> BlockGraph:
    """Split into compute runs of at most ``block_lim`` ops, collectives alone (module docstring).

    Args:
        source: a module (its per-device program is split) or a plain op list (one device).
        block_lim: most ops per compute block (constants included); at least 1.
        separator: a predicate name from `SEPARATORS` or any ``Op -> bool``.
        policy: where a non-collective separator goes.
        loop_trips: iterations of a ``while`` whose trip count the module does not give.
        combine_threshold: bytes up to which independent collectives merge, for every kind
            or per kind (0: none merge; `hespas_py.split.combine.Thresholds`).
        collective_rewrites: apply XLA's collective rewrites first (`hespas_py.split.rewrites`).
    """
    if block_lim < 1:
        raise HespasError(f"block_lim must be at least 1, not {block_lim}")
    grouping = functools.partial(_groups, block_lim=block_lim, is_separator=_separator(separator),
                                 policy=SeparatorPolicy.parse(policy))
    return build_graph(Program.of(source, loop_trips, collective_rewrites), grouping,
                       combine_threshold)


def _groups(program: Program, block_lim: int, is_separator: Callable[[Op], bool],
            policy: SeparatorPolicy) -> list[list[int]]:
    """The runs of one program; a collective or an expanded loop is a group of its own."""
    groups: list[list[int]] = []
    current: list[int] = []

    def flush() -> None:
        nonlocal current
        if current:
            groups.append(current)
            current = []

    by_collective_only = is_separator is is_collective
    loops = program.loops
    unread = unread_constants(program)
    for position, op in enumerate(program.ops):
        if position in unread:
            continue
        if program.collective[position] or position in loops:
            flush()
            groups.append([position])
            continue
        separates = not by_collective_only and is_separator(op)
        if separates and policy is SeparatorPolicy.ISOLATED:
            flush()
            groups.append([position])
            continue
        if separates and policy is SeparatorPolicy.START_BLOCK:
            flush()
        current.append(position)
        if len(current) >= block_lim or (separates and policy is SeparatorPolicy.END_BLOCK):
            flush()
    flush()
    return groups
