"""Turning a splitter's op groups into a `BlockGraph`, expanded loops included.

Why and how: docs/split.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import cast

from hespas_py.errors import HespasError
from hespas_py.fast_init import fast_constructor
from hespas_py.mlir.ops import Op, TensorType
from hespas_py.split.blocks import Block, BlockGraph, ExpandedLoop
from hespas_py.split.combine import Thresholds, combine_groups
from hespas_py.split.graph import Program, block_index
from hespas_py.split.program import Loop

#: Cuts one program into op groups (positions), each in program order, in block order.
Grouping = Callable[[Program], Sequence[Sequence[int]]]
#: Sources of a value: the blocks that must finish before it exists (none for constants).
Sources = tuple[int, ...]

#: The most blocks an expanded step may have (ten times the largest shipped workload's). Every
#: block costs about 2 kB and 70 us from here through the simulator (the scan step expanded to
#: 1,008,017 blocks: 2 GB, 75 s on 4 devices); a loop expanded past it is refused before its
#: second iteration, not after minutes.
MAX_BLOCKS = 1 << 19

#: `Block`'s constructor, positional (id, ops, deps, collective, inputs, outputs, repeats,
#: scope), made cheap.
_new_block = fast_constructor(Block)


class _Group:
    """What every instance of one group shares.

    Attributes:
        ops: its ops.
        deps: groups of its own program it waits for.
        reads: values it reads whose sources depend on the instance (loop results, arguments,
            values of the programs around).
        collective: whether it is a collective block.
        inputs, outputs: `Block.inputs` and `Block.outputs`.
        loop: position of the ``while`` when the group is an expanded loop, else -1.
    """

    __slots__ = ("ops", "deps", "reads", "collective", "inputs", "outputs", "loop")

    def __init__(self, ops: tuple[Op, ...], deps: list[int], reads: list[int], collective: bool,
                 inputs: tuple[TensorType, ...], outputs: tuple[TensorType, ...],
                 loop: int) -> None:
        self.ops, self.deps, self.reads, self.collective = ops, deps, reads, collective
        self.inputs, self.outputs, self.loop = inputs, outputs, loop


def _analyse(program: Program, groups: Sequence[Sequence[int]]) -> tuple[list[_Group], list[int]]:
    """The groups of ``program`` with their deps and types, and the group of every op."""
    block_of = block_index(program, groups)
    producer, constant, ops = program.producer, program.constant, program.ops
    loop_groups = {block_of[p] for p in program.loops}
    free = program.nested  # values without a producer come from outside: resolve per instance
    constant_values = program.constant_values
    escaping = set(program.returned)
    reads = []
    for block_id, group in enumerate(groups):
        waits: set[int] = set()
        late: list[int] = []
        inputs: dict[int, TensorType | None] = {}  # None: a capture, its type looked up below
        untyped = False
        for position in group:
            op = ops[position]
            # A plain zip: the reader gives every operand its type, and here (an op per
            # iteration) a zip called with a keyword (strict=) costs a twelfth of the split.
            pairs: Iterable[tuple[int, TensorType | None]] = zip(  # noqa: B905 (see above)
                op.operands, op.operand_types)
            if op.captures:
                pairs = (*pairs, *((c, None) for c in op.captures))
                untyped = True
            for value, vtype in pairs:
                if value in inputs:
                    continue
                source = producer.get(value, -1)
                if source < 0:
                    inputs[value] = vtype
                    if free and value not in constant_values:
                        late.append(value)
                elif block_of[source] != block_id:
                    inputs[value] = vtype
                    if not constant[source]:
                        if block_of[source] in loop_groups:
                            late.append(value)
                        else:
                            waits.add(block_of[source])
        escaping.update(inputs)
        reads.append((sorted(waits), late, inputs, untyped))
    analysed = []
    is_collective = program.collective.__getitem__
    for block_id, group in enumerate(groups):
        deps, late, inputs, untyped = reads[block_id]
        if deps and deps[-1] >= block_id:
            raise HespasError(f"{program.source or '<ops>'}: {ops[group[0]].name} (op {group[0]}) "
                              f"reads a value defined after it")
        block_ops = tuple(map(ops.__getitem__, group))
        outputs = []
        for op in block_ops:
            for value, vtype in zip(op.results, op.result_types):  # noqa: B905 (as above)
                if value in escaping:
                    outputs.append(vtype)
        if untyped:
            types = tuple(t for t in (t if t is not None else program.type_of(v)
                                      for v, t in inputs.items()) if t is not None)
        else:
            types = cast("tuple[TensorType, ...]", tuple(inputs.values()))  # no capture: all typed
        loop = group[0] if block_id in loop_groups else -1
        collective = all(map(is_collective, group))
        analysed.append(_Group(block_ops, deps, late, collective, types, tuple(outputs), loop))
    return analysed, block_of


class _Instance:
    """One instance of a program: the top level, or one iteration of a loop body."""

    __slots__ = ("program", "args", "parent", "group_of", "block_of_group", "results")

    def __init__(self, program: Program, args: dict[int, Sources], parent: _Instance | None,
                 group_of: list[int], groups: int) -> None:
        self.program, self.args, self.parent, self.group_of = program, args, parent, group_of
        self.block_of_group: list[int] = [-1] * groups
        self.results: dict[int, Sources] = {}  # results of its expanded loops -> their sources

    def sources(self, value: int) -> Sources:
        """The blocks ``value`` waits for, seen from this instance."""
        position = self.program.producer.get(value)
        if position is None:
            if value in self.args:
                return self.args[value]
            return self.parent.sources(value) if self.parent is not None else ()
        if self.program.constant[position]:
            return ()
        found = self.results.get(value)
        if found is not None:
            return found
        block = self.block_of_group[self.group_of[position]]
        if block < 0:
            raise HespasError(f"{self.program.source or '<ops>'}: {self.program.ops[position].name}"
                              f" (op {position}) is read before it is defined")
        return (block,)


class _Builder:
    """Instantiates programs into one list of blocks (see the module docstring)."""

    def __init__(self, grouping: Grouping, combine: Thresholds, source: str) -> None:
        self.grouping = grouping
        self.source = source
        self.combine = combine
        self.blocks: list[Block] = []
        self.loops: list[ExpandedLoop] = []
        self._analysed: dict[int, tuple[Program, list[_Group], list[int]]] = {}
        self._first: dict[tuple[int, int], int] = {}  # (program, group) -> its first block
        self._scope: dict[int, int] = {}  # body program -> its scope number

    def analysed(self, program: Program) -> tuple[list[_Group], list[int]]:
        """The groups of ``program`` and its op -> group index, worked out once per program."""
        found = self._analysed.get(id(program))
        if found is None:
            groups = self.grouping(program)
            if self.combine:
                groups = combine_groups(program, groups, self.combine)
            analysed, group_of = _analyse(program, groups)
            found = self._analysed[id(program)] = (program, analysed, group_of)
        return found[1], found[2]

    def instantiate(self, program: Program, args: dict[int, Sources], parent: _Instance | None,
                    scope: int, after: Sources = (), since: int = 0) -> _Instance:
        """Blocks for one instance of ``program`` (scope 0: the top level, never repeated);
        a block whose deps are all older than block ``since`` also waits for the blocks
        ``after`` (the end of the iteration before, see the module docstring)."""
        groups, group_of = self.analysed(program)
        instance = _Instance(program, args, parent, group_of, len(groups))
        blocks, first = self.blocks, self._first
        block_of_group = instance.block_of_group
        for g, group in enumerate(groups):
            if group.loop >= 0:
                self.expand(program.loops[group.loop], program.bodies[group.loop], instance,
                            scope, after, since)
                continue
            block_id = len(blocks)
            if group.reads:
                deps = {block_of_group[d] for d in group.deps}
                for value in group.reads:
                    deps.update(instance.sources(value))
                dep_ids = tuple(sorted(deps))
            else:
                dep_ids = tuple([block_of_group[d] for d in group.deps])
            if after and (not dep_ids or max(dep_ids) < since):
                dep_ids = tuple(sorted({*dep_ids, *after}))
            repeats = first.setdefault((id(program), g), block_id) if scope else block_id
            blocks.append(_new_block(block_id, group.ops, dep_ids, group.collective,
                                     group.inputs, group.outputs,
                                     repeats if repeats != block_id else -1, scope))
            block_of_group[g] = block_id
        return instance

    def _ends(self, first: int) -> Sources:
        """The blocks from ``first`` on that no later block waits for."""
        blocks = self.blocks
        awaited = {d for b in range(first, len(blocks)) for d in blocks[b].deps if d >= first}
        return tuple(b for b in range(first, len(blocks)) if b not in awaited)

    def expand(self, loop: Loop, body: Program, around: _Instance, parent: int,
               after: Sources = (), since: int = 0) -> None:
        """Blocks for every iteration of ``loop`` run in the instance ``around`` (``after``,
        ``since``: how that instance's blocks start, `instantiate`)."""
        number = self._scope.get(id(body))
        if number is None:
            self.loops.append(ExpandedLoop(loop.where, loop.op, loop.body.args, loop.body.yielded,
                                           loop.trips, loop.trips_from, parent, 0))
            number = self._scope[id(body)] = len(self.loops)
        entry = self.loops[number - 1]
        start = len(self.blocks)
        args = {arg: around.sources(v)
                for arg, v in zip(loop.body.args, loop.op.operands, strict=True)}
        last: Sources = ()
        for trip in range(loop.trips):
            first = len(self.blocks)
            iteration = self.instantiate(body, args, around, number, after, since)
            args = {arg: iteration.sources(v)
                    for arg, v in zip(loop.body.args, loop.body.yielded, strict=True)}
            if trip == 0:
                _check_size(self.source, loop, start + (len(self.blocks) - start) * loop.trips)
            last = self._ends(first)
            if last:
                after, since = last, len(self.blocks)
        per_iteration = (len(self.blocks) - start) // loop.trips if loop.trips else 0
        self.loops[number - 1] = dataclasses.replace(entry, executions=entry.executions + 1,
                                                     blocks_per_iteration=per_iteration)
        around.results.update(zip(loop.op.results, (tuple(sorted({*args[arg], *last}))
                                                    for arg in loop.body.args), strict=True))


def _check_size(source: str, loop: Loop, blocks: int) -> None:
    """`HespasError` when expanding ``loop`` would make more than `MAX_BLOCKS` blocks."""
    if blocks <= MAX_BLOCKS:
        return
    change = ("lower --loop-trips (config key loop_trips)" if loop.trips_from == "assumed"
              else "export the step with fewer iterations")
    raise HespasError(f"{source}: {loop.where}: a loop of {loop.trips:,} iterations ({loop.trips_from}) "
                      f"would expand to {blocks:,} blocks, more than {MAX_BLOCKS:,}; {change}")


def build_graph(program: Program, grouping: Grouping,
                combine_threshold: Thresholds | int = 0) -> BlockGraph:
    """The blocks of ``program`` cut by ``grouping``, loops expanded, with deps and types;
    with a ``combine_threshold`` (bytes, for every kind or per kind: `Thresholds.of`),
    independent collectives merged as XLA's combiners do (`hespas_py.split.combine`), once per
    distinct program.

    Raises `HespasError` when a block would read a value defined in a later block (an op list
    that is not in SSA order, or a grouping that is not a topological order).
    """
    builder = _Builder(grouping, Thresholds.of(combine_threshold), program.source)
    builder.instantiate(program, {}, None, 0)
    return BlockGraph(blocks=tuple(builder.blocks), num_devices=program.num_devices,
                      source=program.source, returned=program.returned,
                      loops=tuple(builder.loops), assumptions=program.assumptions,
                      rewrites=program.rewrites)
