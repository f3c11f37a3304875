"""The per-device program: the flat op sequences every splitter cuts into blocks.

Why and how: docs/split.md.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from hespas_py.errors import HespasError
from hespas_py.mlir.ops import TERMINATORS, Module, Op, Region
from hespas_py.split import loops
from hespas_py.split.blocks import Assumption, is_collective

_MANUAL = "sdy.manual_computation"
_CALL = "func.call"


@dataclass(frozen=True)
class Flat:
    """One flat op sequence: the step's top level or the body of an expanded loop.

    Attributes:
        ops: the ops in program order, terminators excluded.
        yielded: what the sequence returns: the step's outputs, or the values an iteration
            hands to the next one (one per argument).
        args: a loop body's block arguments (what one iteration receives); empty at top level.
        loops: position in ``ops`` of each expanded loop's ``while`` -> the loop.
    """

    ops: tuple[Op, ...]
    yielded: tuple[int, ...]
    args: tuple[int, ...] = ()
    loops: Mapping[int, Loop] = field(default_factory=dict)


@dataclass(frozen=True)
class Loop:
    """A ``while`` whose iterations become blocks (its body holds a collective).

    Attributes:
        op: the ``while`` op as it stands in its enclosing sequence.
        body: the body, opened up; stack writes last (`loops.iteration_order`).
        trips: iterations.
        trips_from: ``static``, ``xla`` or ``assumed`` (`loops.trips`).
        where: its place in the module (``@main op 12``, ``@main op 3 > @f op 7`` inside a call).
    """

    op: Op
    body: Flat
    trips: int
    trips_from: str
    where: str


@dataclass(frozen=True)
class PerDeviceProgram:
    """The per-device program of a module.

    Attributes:
        top: the entry function's body, opened up.
        assumptions: what was assumed where the module does not say (`BlockGraph.assumptions`).
    """

    top: Flat
    assumptions: tuple[Assumption, ...] = ()


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
    """Builds the per-device program of one module (see the module docstring)."""

    def __init__(self, module: Module, loop_trips: int) -> None:
        self.module = module
        self.loop_trips = loop_trips
        self.assumptions: list[Assumption] = []
        self._has_collective: dict[str, bool] = {}
        self._fresh: Iterator[int] | None = None
        self._has_control: bool | None = None

    def callee_has_collective(self, name: str, visiting: frozenset[str] = frozenset()) -> bool:
        """Whether function ``name`` or anything it calls holds a collective."""
        if name not in self._has_collective:
            if name in visiting:
                raise HespasError(f"{self.module.path}: recursive call to @{name}")
            self._has_collective[name] = self.holds_collective(self._function(name).ops,
                                                               visiting | {name})
        return self._has_collective[name]

    def holds_collective(self, ops: Iterable[Op], visiting: frozenset[str] = frozenset()) -> bool:
        """Whether ``ops`` (nested regions and called functions included) hold a collective."""
        for op in ops:
            if is_collective(op):
                return True
            if op.name == _CALL:
                if self.callee_has_collective(op.attrs["callee"], visiting):
                    return True
            elif any(self.holds_collective(r.ops, visiting) for r in op.regions):
                return True
        return False

    def _function(self, name: str):
        try:
            return self.module.functions[name]
        except KeyError:
            raise HespasError(f"{self.module.path}: call to undefined function @{name}") from None

    def fresh_ids(self) -> Iterator[int]:
        if self._fresh is None:
            self._fresh = itertools.count(_max_value_id(self.module) + 1)
        return self._fresh

    def has_control_flow(self) -> bool:
        """Whether the module holds a ``while``, ``case`` or ``if`` anywhere (checked once)."""
        if self._has_control is None:
            self._has_control = False
            pending = [function.ops for function in self.module.functions.values()]
            while pending and not self._has_control:
                for op in pending.pop():
                    if op.name in loops.CONTROL_FLOW:
                        self._has_control = True
                        break
                    if op.regions and op.name != _CALL:  # a callee is a function of its own
                        pending.extend(region.ops for region in op.regions)
        return self._has_control

    def emit(self, ops: Iterable[Op], subst: dict[int, int], out: list[Op],
             expanded: dict[int, Loop], where: str) -> tuple[int, ...]:
        """Append ``ops`` (a body) to ``out`` with ids rewritten by ``subst``, expanded loops
        registered in ``expanded``; return what its terminator yields. ``where`` names the body
        in messages (``@main``)."""
        yielded: tuple[int, ...] = ()
        control = self.has_control_flow()
        for op in ops:
            if op.name in TERMINATORS:
                yielded = tuple(subst.get(v, v) for v in op.operands)
                continue
            op = _rewrite(op, subst) if subst else op
            if op.name == _MANUAL and op.regions:
                self._inline(op, op.regions[0], subst, out, expanded, f"{where} op {op.index} >")
            elif op.name == _CALL and self.callee_has_collective(op.attrs["callee"]):
                self._inline_call(op, subst, out, expanded,
                                  f"{where} op {op.index} > @{op.attrs['callee']}")
            elif not control or not op.regions:
                out.append(op)
            elif loops.is_while(op) and self.holds_collective(op.regions[1].ops):
                expanded[len(out)] = self._loop(op, subst, f"{where} op {op.index}")
                out.append(op)
            elif loops.is_branching(op) and any(self.holds_collective(r.ops) for r in op.regions):
                self._branch(op, subst, out, expanded, f"{where} op {op.index}")
            else:
                out.append(loops.with_trip_counts(op, f"{where} op {op.index}", self.loop_trips,
                                                  self.assumptions))
        return yielded

    def _inline(self, op: Op, body: Region, subst: dict[int, int], out: list[Op],
                expanded: dict[int, Loop], where: str) -> None:
        for arg, operand in zip(body.args, op.operands, strict=True):
            subst[arg] = operand
        yielded = self.emit(body.ops, subst, out, expanded, where)
        for result, value in zip(op.results, yielded, strict=True):
            subst[result] = value

    def _inline_call(self, op: Op, subst: dict[int, int], out: list[Op],
                     expanded: dict[int, Loop], where: str) -> None:
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
        passed = dict(zip(function.args, op.operands, strict=True))
        yielded = self.emit(body, passed, out, expanded, where)
        for result, value in zip(op.results, yielded, strict=True):
            subst[result] = value

    def _loop(self, op: Op, subst: dict[int, int], where: str) -> Loop:
        """The expanded loop of the while ``op`` (operands already rewritten)."""
        trips, source = loops.trips(op, self.loop_trips)
        if source == loops.ASSUMED:
            self.assumptions.append(loops.assumed_trips(where, op, self.loop_trips))
        body = op.regions[1]
        ops: list[Op] = []
        inner: dict[int, Loop] = {}
        yielded = self.emit(body.ops, dict(subst), ops, inner, f"{where} >")
        ordered = loops.iteration_order(ops, body.args, yielded)
        if inner and ordered is not ops:  # the whiles did not move, but ops before them may have
            position = {id(o): p for p, o in enumerate(ordered)}
            inner = {position[id(ops[p])]: loop for p, loop in inner.items()}
        return Loop(op, Flat(tuple(ordered), yielded, body.args, inner), trips, source, where)

    def _branch(self, op: Op, subst: dict[int, int], out: list[Op], expanded: dict[int, Loop],
                where: str) -> None:
        """Inline the costliest branch of the ``case``/``if`` ``op``; record the choice."""
        weights = [loops.branch_weight(r.ops, _walk) for r in op.regions]
        taken, note = loops.taken_branch(where, op, weights)
        self.assumptions.append(note)
        yielded = self.emit(op.regions[taken].ops, subst, out, expanded, f"{where} >")
        for result, value in zip(op.results, yielded, strict=True):
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


def per_device_program(module: Module, loop_trips: int = 1) -> PerDeviceProgram:
    """The per-device program of ``module``; a ``while`` whose trip count the module does not
    give runs ``loop_trips`` times (at least 1)."""
    if loop_trips < 1:
        raise HespasError(f"--loop-trips must be at least 1, not {loop_trips}")
    flattener = _Flattener(module, loop_trips)
    out: list[Op] = []
    expanded: dict[int, Loop] = {}
    returned = flattener.emit(module.ops, {}, out, expanded, f"@{module.entry}")
    return PerDeviceProgram(Flat(tuple(out), returned, (), expanded), tuple(flattener.assumptions))


def program_ops(module: Module) -> tuple[tuple[Op, ...], tuple[int, ...]]:
    """The per-device op sequence of ``module`` (terminators excluded) and the values it returns."""
    top = per_device_program(module).top
    return top.ops, top.yielded
