"""The per-device program: the flat op sequence every splitter cuts into blocks.

It is the entry function's body with two kinds of ops opened up:

* ``sdy.manual_computation``: its region *is* the per-device program (per-device shapes), so its
  body replaces it. Region arguments alias the op's operands; the op's results alias the values
  its ``sdy.return`` yields.
* ``func.call`` whose callee (transitively) holds a collective: the callee body is inlined with
  fresh SSA ids at every call site, so collectives become top-level blocks. A call whose callee
  holds no collective stays one op; its region (the callee body) is costed with it.

Aliasing is resolved by rewriting operand and capture ids, so the result only refers to values
defined by earlier ops in the sequence or by the entry function's arguments.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Iterable, Iterator, Mapping

from hespas_py.errors import HespasError
from hespas_py.mlir.ops import TERMINATORS, Module, Op, Region
from hespas_py.split.blocks import is_collective


_MANUAL = "sdy.manual_computation"
_CALL = "func.call"


def _walk(ops: Iterable[Op]) -> Iterator[Op]:
    """Every op, nested regions included, depth first."""
    for op in ops:
        yield op
        for region in op.regions:
            yield from _walk(region.ops)


def _max_value_id(module: Module) -> int:
    ids = [0]
    for function in module.functions.values():
        ids.extend(function.args)
        for op in _walk(function.ops):
            ids.extend(op.results)
            for region in op.regions:
                ids.extend(region.args)
    return max(ids)


class _Flattener:
    """Builds the per-device op sequence of one module (see the module docstring)."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.out: list[Op] = []
        self._has_collective: dict[str, bool] = {}
        self._fresh: Iterator[int] | None = None

    def callee_has_collective(self, name: str, visiting: frozenset[str] = frozenset()) -> bool:
        """Whether function ``name`` or anything it calls holds a collective."""
        if name not in self._has_collective:
            if name in visiting:
                raise HespasError(f"{self.module.path}: recursive call to @{name}")
            function = self._function(name)
            found = False
            for op in _walk(function.ops):
                if is_collective(op) or (op.name == _CALL and self.callee_has_collective(
                        op.attrs["callee"], visiting | {name})):
                    found = True
                    break
            self._has_collective[name] = found
        return self._has_collective[name]

    def _function(self, name: str):
        try:
            return self.module.functions[name]
        except KeyError:
            raise HespasError(f"{self.module.path}: call to undefined function @{name}") from None

    def fresh_ids(self) -> Iterator[int]:
        if self._fresh is None:
            self._fresh = itertools.count(_max_value_id(self.module) + 1)
        return self._fresh

    def emit(self, ops: Iterable[Op], subst: dict[int, int]) -> tuple[int, ...]:
        """Append ``ops`` (a body) with ids rewritten by ``subst``; return what its terminator yields."""
        yielded: tuple[int, ...] = ()
        for op in ops:
            if op.name in TERMINATORS:
                yielded = tuple(subst.get(v, v) for v in op.operands)
                continue
            op = _rewrite(op, subst) if subst else op
            if op.name == _MANUAL and op.regions:
                self._inline(op, op.regions[0], subst)
            elif op.name == _CALL and self.callee_has_collective(op.attrs["callee"]):
                self._inline_call(op, subst)
            else:
                self.out.append(op)
        return yielded

    def _inline(self, op: Op, body: Region, subst: dict[int, int]) -> None:
        for arg, operand in zip(body.args, op.operands):
            subst[arg] = operand
        yielded = self.emit(body.ops, subst)
        for result, value in zip(op.results, yielded):
            subst[result] = value

    def _inline_call(self, op: Op, subst: dict[int, int]) -> None:
        function = self._function(op.attrs["callee"])
        fresh = self.fresh_ids()
        renamed: dict[int, int] = {}
        for callee_op in _walk(function.ops):
            for value in callee_op.results:
                renamed[value] = next(fresh)
            for region in callee_op.regions:
                for value in region.args:
                    renamed[value] = next(fresh)
        body = [_rename_deep(callee_op, renamed) for callee_op in function.ops]
        yielded = self.emit(body, dict(zip(function.args, op.operands)))
        for result, value in zip(op.results, yielded):
            subst[result] = value


def _rewrite(op: Op, subst: Mapping[int, int]) -> Op:
    """``op`` with its operand and capture ids passed through ``subst`` (same object if unchanged)."""
    operands = tuple(subst.get(v, v) for v in op.operands)
    captures = tuple(subst.get(v, v) for v in op.captures)
    if operands == op.operands and captures == op.captures:
        return op
    return dataclasses.replace(op, operands=operands, captures=captures)


def _rename_deep(op: Op, renamed: Mapping[int, int]) -> Op:
    """``op`` with every id it defines or reads, nested regions included, renamed."""
    def get(v: int) -> int:
        return renamed.get(v, v)

    regions = tuple(
        Region(args=tuple(map(get, r.args)), arg_types=r.arg_types,
               ops=tuple(_rename_deep(inner, renamed) for inner in r.ops))
        for r in op.regions)
    return dataclasses.replace(
        op, results=tuple(map(get, op.results)), operands=tuple(map(get, op.operands)),
        captures=tuple(map(get, op.captures)), regions=regions)


def program_ops(module: Module) -> tuple[tuple[Op, ...], tuple[int, ...]]:
    """The per-device op sequence of ``module`` (terminators excluded) and the values it returns."""
    flattener = _Flattener(module)
    returned = flattener.emit(module.ops, {})
    return tuple(flattener.out), returned
