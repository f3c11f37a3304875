"""What every splitter shares: the analysed program (`Program`), one per flat op sequence.

Dependencies are SSA def-use edges (operands and region captures). Constant-like values (see
`Program.constant`) carry no dependency: they can be materialised anywhere, so a block that reads
a constant defined in another block does not wait for that block. In a loop body, a loop-carried
value that starts constant-like and is stepped by constant-like ops (the induction variable, a
bound passed through) is constant-like too: in iteration i it is a known constant.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hespas_py.mlir.ops import TERMINATORS, Module, Op, TensorType
from hespas_py.split.blocks import Assumption, is_collective
from hespas_py.split.program import Flat, Loop, per_device_program
from hespas_py.split.rewrites import rewrite_program

#: Ops that never count as constant-like even with constant operands (they may be costly or
#: have effects the splitter must keep visible).
_NEVER_CONSTANT: frozenset[str] = frozenset({"custom_call", "rng", "rng_bit_generator",
                                             "infeed", "outfeed", "send", "recv"})


@dataclass(frozen=True)
class Program:
    """A per-device op sequence (the step's top level or a loop body) with its def-use facts.

    Attributes:
        ops: the ops in program order, terminators excluded.
        uses: per op, the SSA ids it reads (operands, then captures).
        producer: SSA id -> position in ``ops`` of the op defining it (arguments are absent).
        constant: per op, whether it is constant-like: no regions or captures, not a collective
            or effectful op, not read by a collective (a collective block holds only itself),
            and every operand is itself constant-like (``constant``, ``iota``, a broadcast of
            a constant, ...). Such ops travel with their users.
        collective: per op, whether it is a collective.
        returned: the values the program returns (the step's outputs; a body's yielded values).
        value_types: types of values whose type no reading op records (captured arguments).
        num_devices: devices the step runs on.
        source: the module file, for messages.
        loops: position of each expanded loop's ``while`` -> the loop (`program.Loop`).
        bodies: position of each expanded loop's ``while`` -> its body's program.
        nested: whether this is a loop body: values it reads but does not define are its
            arguments or come from the programs around it.
        constant_values: every constant-like value the program can read (its own, its constant
            arguments, those of the programs around it).
        assumptions: what the per-device program assumed (`BlockGraph.assumptions`).
        rewrites: how many ops each of XLA's collective rewrites changed
            (`hespas_py.split.rewrites`); empty when they were not applied.
    """

    ops: tuple[Op, ...]
    uses: tuple[tuple[int, ...], ...]
    producer: Mapping[int, int]
    constant: tuple[bool, ...]
    collective: tuple[bool, ...]
    returned: frozenset[int]
    value_types: Mapping[int, TensorType]
    num_devices: int
    source: str
    loops: Mapping[int, Loop] = field(default_factory=dict)
    bodies: Mapping[int, Program] = field(default_factory=dict)
    nested: bool = False
    constant_values: frozenset[int] = frozenset()
    assumptions: tuple[Assumption, ...] = ()
    rewrites: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, source: Module | Sequence[Op], loop_trips: int = 1,
           collective_rewrites: bool = False) -> Program:
        """Analyse a module (its per-device program, a ``while`` of unknown trip count taken to
        run ``loop_trips`` times, with XLA's collective rewrites when ``collective_rewrites``) or
        a plain op list (one device, nothing opened up)."""
        if isinstance(source, Module):
            per_device = per_device_program(source, loop_trips)
            rewrites: dict[str, int] = {}
            if collective_rewrites:
                per_device, rewrites = rewrite_program(per_device, source.num_replicas or 1,
                                                       source.num_partitions or 1)
            entry = source.functions[source.entry]
            arg_types = dict(zip(entry.args, entry.arg_types, strict=True))
            program = cls._analyse(per_device.top, arg_types,
                                   source.num_devices, source.path, per_device.assumptions)
            return dataclasses.replace(program, rewrites=rewrites) if rewrites else program
        ops = tuple(op for op in source if op.name not in TERMINATORS)
        returned = tuple(v for op in source if op.name in TERMINATORS for v in op.operands)
        return cls._analyse(Flat(ops, returned), {}, 1, "")

    @classmethod
    def _analyse(cls, flat: Flat, value_types: Mapping[int, TensorType], num_devices: int,
                 path: str, assumptions: tuple[Assumption, ...] = (), nested: bool = False,
                 outer_constant: frozenset[int] = frozenset()) -> Program:
        ops = flat.ops
        by_name: dict[str, bool] = {}
        collective = [by_name[op.name] if op.name in by_name
                      else by_name.setdefault(op.name, is_collective(op)) for op in ops]
        read_by_collective = {v for op, coll in zip(ops, collective, strict=True) if coll
                              for v in op.operands}
        never_constant = {name for name, coll in by_name.items()
                          if coll or name.rpartition(".")[2] in _NEVER_CONSTANT}
        producer: dict[int, int] = {}
        constant_values: set[int] = set(outer_constant)
        uses = []
        constant = []
        for position, op in enumerate(ops):
            results, captures = op.results, op.captures
            reads = op.operands + captures if captures else op.operands
            uses.append(reads)
            is_constant = (bool(results) and not captures and not op.regions
                           and op.name not in never_constant
                           and constant_values.issuperset(reads)
                           and read_by_collective.isdisjoint(results))
            constant.append(is_constant)
            if is_constant:
                constant_values.update(results)
            for value in results:
                producer[value] = position
        frozen = frozenset(constant_values)
        bodies = {position: cls._body(loop, frozen, num_devices, path)
                  for position, loop in flat.loops.items()}
        return cls(ops=ops, uses=tuple(uses), producer=producer, constant=tuple(constant),
                   collective=tuple(collective), returned=frozenset(flat.yielded),
                   value_types=value_types, num_devices=num_devices, source=path,
                   loops=flat.loops, bodies=bodies, nested=nested, constant_values=frozen,
                   assumptions=assumptions)

    @classmethod
    def _body(cls, loop: Loop, outer_constant: frozenset[int], num_devices: int,
              path: str) -> Program:
        """The program of ``loop``'s body; its constant-like arguments are found by narrowing
        those that start constant-like until each one's yielded value is constant-like too."""
        body = loop.body
        constant_args = {arg for arg, initial in zip(body.args, loop.op.operands, strict=True)
                         if initial in outer_constant}
        while True:
            arg_types = dict(zip(body.args, loop.op.regions[1].arg_types, strict=True))
            program = cls._analyse(body, arg_types,
                                   num_devices, path, nested=True,
                                   outer_constant=outer_constant | constant_args)
            kept = {arg for arg, value in zip(body.args, body.yielded, strict=True)
                    if arg in constant_args and value in program.constant_values}
            if kept == constant_args:
                return program
            constant_args = kept

    def type_of(self, value: int) -> TensorType | None:
        """The type of ``value`` when known."""
        position = self.producer.get(value)
        if position is None:
            return self.value_types.get(value)
        op = self.ops[position]
        return op.result_types[op.results.index(value)]


def unread_constants(program: Program) -> set[int]:
    """Positions of the constant-like ops that no other op reads, directly or through other
    constant-like ops (dead, or only returned or yielded). They do no work: XLA folds and drops
    them, and no splitter puts them in a block (`individual_split` places every other one with
    its earliest reader, which these lack; `linear_split` skips them)."""
    read: set[int] = set()
    unread = set()
    constant, producer = program.constant, program.producer
    for position in range(len(program.ops) - 1, -1, -1):
        if constant[position] and position not in read:
            unread.add(position)
            continue
        for value in program.uses[position]:
            source = producer.get(value)
            if source is not None and constant[source]:
                read.add(source)
    return unread


def block_index(program: Program, groups: Sequence[Sequence[int]]) -> list[int]:
    """Per op position, the id of the group holding it (-1 for none); a fresh list."""
    block_of = [-1] * len(program.ops)
    for block_id, group in enumerate(groups):
        for position in group:
            block_of[position] = block_id
    return block_of
