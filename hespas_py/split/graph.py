"""What every splitter shares: the analysed program, and turning op groups into a `BlockGraph`.

Dependencies are SSA def-use edges (operands and region captures). Constant-like values (see
`Program.constant`) carry no dependency: they can be materialised anywhere, so a block that reads
a constant defined in another block does not wait for that block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from hespas_py.errors import HespasError
from hespas_py.mlir.ops import Module, Op, TensorType
from hespas_py.split.blocks import Block, BlockGraph, is_collective
from hespas_py.split.program import TERMINATORS, program_ops

#: Ops that never count as constant-like even with constant operands (they may be costly or
#: have effects the splitter must keep visible).
_NEVER_CONSTANT: frozenset[str] = frozenset({"custom_call", "rng", "rng_bit_generator",
                                             "infeed", "outfeed", "send", "recv"})


@dataclass(frozen=True)
class Program:
    """A per-device op sequence with its def-use facts, ready to split.

    Attributes:
        ops: the ops in program order, terminators excluded.
        uses: per op, the SSA ids it reads (operands, then captures).
        producer: SSA id -> position in ``ops`` of the op defining it (arguments are absent).
        constant: per op, whether it is constant-like: no regions or captures, not a collective
            or effectful op, not read by a collective (a collective block holds only itself),
            and every operand is itself constant-like (``constant``, ``iota``, a broadcast of
            a constant, ...). Such ops travel with their users.
        returned: the values the program returns (the step's outputs).
        value_types: types of values whose type no reading op records (captured arguments).
        num_devices: devices the step runs on.
        source: the module file, for messages.
    """

    ops: tuple[Op, ...]
    uses: tuple[tuple[int, ...], ...]
    producer: Mapping[int, int]
    constant: tuple[bool, ...]
    returned: frozenset[int]
    value_types: Mapping[int, TensorType]
    num_devices: int
    source: str

    @classmethod
    def of(cls, source: Module | Sequence[Op]) -> "Program":
        """Analyse a module (its per-device program) or a plain op list (one device)."""
        if isinstance(source, Module):
            ops, returned = program_ops(source)
            entry = source.functions[source.entry]
            arg_types = dict(zip(entry.args, entry.arg_types))
            num_devices, path = source.num_devices, source.path
        else:
            ops = tuple(op for op in source if op.name not in TERMINATORS)
            returned = tuple(v for op in source if op.name in TERMINATORS for v in op.operands)
            arg_types, num_devices, path = {}, 1, ""
        read_by_collective = {v for op in ops if is_collective(op) for v in op.operands}
        producer: dict[int, int] = {}
        uses = []
        constant = []
        for position, op in enumerate(ops):
            reads = op.operands + op.captures if op.captures else op.operands
            uses.append(reads)
            constant.append(
                bool(op.results) and not op.regions and not op.captures
                and not is_collective(op) and op.short_name not in _NEVER_CONSTANT
                and read_by_collective.isdisjoint(op.results)
                and all(v in producer and constant[producer[v]] for v in reads))
            for value in op.results:
                producer[value] = position
        return cls(ops=ops, uses=tuple(uses), producer=producer, constant=tuple(constant),
                   returned=frozenset(returned), value_types=arg_types, num_devices=num_devices,
                   source=path)

    def type_of(self, value: int) -> TensorType | None:
        """The type of ``value`` when known."""
        position = self.producer.get(value)
        if position is None:
            return self.value_types.get(value)
        op = self.ops[position]
        return op.result_types[op.results.index(value)]


def block_deps(program: Program, groups: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """Per group, the ascending ids of the groups it depends on (ops outside every group ignored)."""
    block_of = _block_of(program, groups)
    result = []
    for block_id, group in enumerate(groups):
        deps = set()
        for position in group:
            for value in program.uses[position]:
                producer = program.producer.get(value)
                if producer is not None and not program.constant[producer]:
                    deps.add(block_of[producer])
        deps.discard(block_id)
        deps.discard(-1)
        result.append(tuple(sorted(deps)))
    return result


def _block_of(program: Program, groups: Sequence[Sequence[int]]) -> list[int]:
    block_of = [-1] * len(program.ops)
    for block_id, group in enumerate(groups):
        for position in group:
            block_of[position] = block_id
    return block_of


def build_graph(program: Program, groups: Sequence[Sequence[int]]) -> BlockGraph:
    """Blocks from op groups (each in program order, groups in block order), with deps and types.

    Raises `HespasError` when a block would read a value defined in a later block (an op list
    that is not in SSA order, or a grouping that is not a topological order).
    """
    block_of = _block_of(program, groups)
    escaping = set(program.returned)
    all_deps = block_deps(program, groups)
    inputs_of = []
    for block_id, group in enumerate(groups):
        inputs: dict[int, TensorType | None] = {}
        for position in group:
            op = program.ops[position]
            typed = zip(op.operands, op.operand_types)
            for value, vtype in (*typed, *((c, None) for c in op.captures)):
                producer = program.producer.get(value)
                if producer is None or block_of[producer] != block_id:
                    inputs.setdefault(value, vtype)
                    escaping.add(value)
        inputs_of.append(inputs)
    blocks = []
    for block_id, group in enumerate(groups):
        deps = all_deps[block_id]
        if deps and deps[-1] >= block_id:
            op = program.ops[group[0]]
            raise HespasError(f"{program.source or '<ops>'}: {op.name} (op {group[0]}) reads a "
                              f"value defined after it")
        ops = tuple(program.ops[p] for p in group)
        outputs = tuple(t for op in ops for v, t in zip(op.results, op.result_types)
                        if v in escaping)
        inputs = tuple(t if t is not None else program.type_of(v)
                       for v, t in inputs_of[block_id].items())
        blocks.append(Block(
            id=block_id, ops=ops, deps=deps,
            collective=len(ops) == 1 and is_collective(ops[0]),
            inputs=tuple(t for t in inputs if t is not None), outputs=outputs))
    return BlockGraph(blocks=tuple(blocks), num_devices=program.num_devices, source=program.source)
