"""What every splitter shares: the analysed program, and turning op groups into a `BlockGraph`.

Dependencies are SSA def-use edges (operands and region captures). Constant-like values (see
`Program.constant`) carry no dependency: they can be materialised anywhere, so a block that reads
a constant defined in another block does not wait for that block.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from hespas_py.errors import HespasError
from hespas_py.fast_init import fast_constructor
from hespas_py.mlir.ops import TERMINATORS, Module, Op, TensorType
from hespas_py.split.blocks import Block, BlockGraph, is_collective
from hespas_py.split.program import program_ops

#: Ops that never count as constant-like even with constant operands (they may be costly or
#: have effects the splitter must keep visible).
_NEVER_CONSTANT: frozenset[str] = frozenset({"custom_call", "rng", "rng_bit_generator",
                                             "infeed", "outfeed", "send", "recv"})
#: `Block`'s constructor, positional (id, ops, deps, collective, inputs, outputs), made cheap.
_new_block = fast_constructor(Block)


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
        collective: per op, whether it is a collective.
        returned: the values the program returns (the step's outputs).
        value_types: types of values whose type no reading op records (captured arguments).
        num_devices: devices the step runs on.
        source: the module file, for messages.
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
        by_name: dict[str, bool] = {}
        collective = [by_name[op.name] if op.name in by_name
                      else by_name.setdefault(op.name, is_collective(op)) for op in ops]
        read_by_collective = {v for op, coll in zip(ops, collective) if coll for v in op.operands}
        never_constant = {name for name, coll in by_name.items()
                          if coll or name.rpartition(".")[2] in _NEVER_CONSTANT}
        producer: dict[int, int] = {}
        constant_values: set[int] = set()
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
        return cls(ops=ops, uses=tuple(uses), producer=producer, constant=tuple(constant),
                   collective=tuple(collective), returned=frozenset(returned),
                   value_types=arg_types, num_devices=num_devices, source=path)

    def type_of(self, value: int) -> TensorType | None:
        """The type of ``value`` when known."""
        position = self.producer.get(value)
        if position is None:
            return self.value_types.get(value)
        op = self.ops[position]
        return op.result_types[op.results.index(value)]


def block_deps(program: Program, groups: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """Per group, the ascending ids of the groups it depends on (ops outside every group ignored)."""
    block_of = block_index(program, groups)
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


def block_index(program: Program, groups: Sequence[Sequence[int]]) -> list[int]:
    """Per op position, the id of the group holding it (-1 for none); a fresh list."""
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
    block_of = block_index(program, groups)
    producer, constant, ops = program.producer, program.constant, program.ops
    escaping = set(program.returned)
    reads = []
    for block_id, group in enumerate(groups):
        deps: set[int] = set()
        inputs: dict[int, TensorType | None] = {}
        for position in group:
            op = ops[position]
            pairs = zip(op.operands, op.operand_types)
            for value, vtype in (*pairs, *((c, None) for c in op.captures)) if op.captures \
                    else pairs:
                if value in inputs:
                    continue
                source = producer.get(value, -1)
                if source < 0:
                    inputs[value] = vtype
                elif block_of[source] != block_id:
                    inputs[value] = vtype
                    if not constant[source]:
                        deps.add(block_of[source])
        escaping.update(inputs)
        reads.append((sorted(deps), inputs))
    blocks = []
    for block_id, group in enumerate(groups):
        deps, inputs = reads[block_id]
        if deps and deps[-1] >= block_id:
            raise HespasError(f"{program.source or '<ops>'}: {ops[group[0]].name} (op {group[0]}) "
                              f"reads a value defined after it")
        block_ops = tuple([ops[p] for p in group])
        outputs = []
        for op in block_ops:
            for value, vtype in zip(op.results, op.result_types):
                if value in escaping:
                    outputs.append(vtype)
        types = [t if t is not None else program.type_of(v) for v, t in inputs.items()]
        if None in types:
            types = [t for t in types if t is not None]
        blocks.append(_new_block(block_id, block_ops, tuple(deps),
                                 len(group) == 1 and program.collective[group[0]],
                                 tuple(types), tuple(outputs)))
    return BlockGraph(blocks=tuple(blocks), num_devices=program.num_devices, source=program.source,
                      returned=program.returned)
