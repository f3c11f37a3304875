"""Layout copies of whole buffers: a GEMM operand layout that XLA's layout assignment carries
back through slices and a ``dynamic_update_slice`` chain to an entry parameter, and forward to
an entry result (`GpuRules.cublas_operand_layouts`, at the entry scope).

Rules and sources: docs/kernels.md."""

from __future__ import annotations

from dataclasses import dataclass

from hespas_py.kernels.operand_layout import (
    gemm_operands,
    gemm_readable,
    operand_pieces,
)
from hespas_py.kernels.planner import Planner

#: Ops through which layout assignment carries an operand's layout to their operand 0.
_LAYOUT_PRESERVING = frozenset({"slice", "dynamic_slice", "dynamic_update_slice"})


@dataclass(frozen=True, slots=True)
class ChainCopy:
    """The whole-buffer layout copies of one entry parameter.

    Attributes:
        source: the parameter's key.
        nbytes: its bytes.
        first: the first GEMM kernel (planner group) whose operand layout it carries.
        last: the kernel writing the chain's last value, an entry result (None when the chain
            does not end in one: no copy back).
        readers: every kernel that reads or updates a value of the chain (the copy lives until
            the last of them).
        updated: the chain's ``dynamic_update_slice`` results, updates of the copy in place.
    """

    source: int
    nbytes: int
    first: int
    last: int | None
    readers: frozenset[int]
    updated: frozenset[int]


def _source(planner: Planner, key: int) -> int | None:
    """The scope input that ``key`` comes from through layout-preserving producers (operand 0),
    or None where a producer can write another layout."""
    seen = False
    while (p := planner.producer.get(key)) is not None:
        if planner.nodes[p].op.short_name not in _LAYOUT_PRESERVING:
            return None
        key, seen = planner.nodes[p].inputs[0], True
    return key if seen and key not in planner.scope.folded else None


def _chain_end(planner: Planner, source: int) -> int | None:
    """The group writing the last ``dynamic_update_slice`` of the chain updating ``source`` when
    that value is a scope output, else None."""
    key, writer = source, None
    while True:
        updates = [u for u in planner.users.get(key, ())
                   if planner.nodes[u].op.short_name == "dynamic_update_slice"
                   and planner.nodes[u].inputs[0] == key]
        if len(updates) != 1:
            break
        key = planner.nodes[updates[0]].outputs[0]
        writer = planner.writer_group(key)
    return writer if writer is not None and key in planner.outputs else None


def _readers(planner: Planner, source: int) -> tuple[frozenset[int], frozenset[int]]:
    """(the kernels reading ``source`` or a value layout-preserving ops derive from it, the
    ``dynamic_update_slice`` results among those values)."""
    groups: set[int] = set()
    updated: set[int] = set()
    stack = [source]
    while stack:
        key = stack.pop()
        groups |= planner.reader_groups(key)
        for u in planner.users.get(key, ()):
            node = planner.nodes[u]
            if node.op.short_name in _LAYOUT_PRESERVING and node.inputs[0] == key:
                stack.extend(node.outputs)
                if node.op.short_name == "dynamic_update_slice":
                    updated.update(node.outputs)
    return frozenset(groups), frozenset(updated)


def chain_copies(planner: Planner) -> list[ChainCopy]:
    """The whole-buffer layout copies of a fused entry-scope ``planner`` (module docstring), one
    per parameter, in the order their first GEMM appears."""
    gemms: dict[int, list[int]] = {}  # source -> GEMM kernels whose operand layout it takes
    for g, dot, side in gemm_operands(planner):
        operand = operand_pieces(planner, g, dot, side)
        if operand is None or gemm_readable(operand[1], operand[2]):
            continue
        source = _source(planner, operand[0])
        if source is not None:
            gemms.setdefault(source, []).append(g)

    def program_order(g: int) -> int:
        return max(planner.groups[g].members)

    copies = [ChainCopy(source, planner.nbytes(source), min(groups, key=program_order),
                        _chain_end(planner, source), *_readers(planner, source))
              for source, groups in gemms.items()]
    return sorted(copies, key=lambda c: program_order(c.first))
