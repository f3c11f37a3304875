"""Property test: every splitter on random DAG-shaped op lists gives a valid block graph."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hespas_py.mlir.ops import Op, Region, TensorType
from hespas_py.split import individual_split, linear_split
from hespas_py.split.blocks import is_collective

F32 = TensorType((8,), "f32")
NUM_ARGS = 3
KINDS = ("add", "multiply", "exponential", "constant", "all_reduce", "all_gather",
         "dot_general", "while", "broadcast_in_dim")


@st.composite
def programs(draw) -> list[Op]:
    """Op lists in SSA order: values 0..NUM_ARGS-1 are arguments, op i defines 100 + i."""
    ops: list[Op] = []
    available = list(range(NUM_ARGS))
    for i in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from(KINDS))
        if kind == "constant":
            operands = ()
        elif kind == "broadcast_in_dim" and ops and ops[-1].short_name == "constant":
            operands = ops[-1].results                    # constant subexpressions
        else:
            arity = 1 if kind in ("exponential", "all_reduce", "all_gather", "while") else 2
            operands = tuple(draw(st.sampled_from(available)) for _ in range(arity))
        captures, regions = (), ()
        if kind == "while":
            captured = draw(st.sampled_from(available))
            captures = (captured,)
            regions = (Region((), (), (Op("stablehlo.negate", (10_000 + i,), (captured,),
                                           (F32,), (F32,)),)),)
        result = 100 + i
        ops.append(Op(f"stablehlo.{kind}", (result,), operands, (F32,), (F32,) * len(operands),
                      regions=regions, captures=captures))
        available.append(result)
    returned = draw(st.lists(st.sampled_from(available), max_size=3))
    ops.append(Op("func.return", (), tuple(returned), (), (F32,) * len(returned)))
    return ops


def _reads(op: Op) -> tuple[int, ...]:
    return op.operands + op.captures


def _constant_like(ops: list[Op]) -> set[int]:
    """Ids of constant-like ops, as the splitters define them: no regions, not read by a
    collective, every operand constant-like."""
    read_by_collective = {v for op in ops if is_collective(op) for v in op.operands}
    const_values: set[int] = set()
    found = set()
    for op in ops:
        if (op.results and not op.regions and not is_collective(op)
                and read_by_collective.isdisjoint(op.results)
                and all(v in const_values for v in _reads(op))):
            const_values.update(op.results)
            found.add(id(op))
    return found


def _read_by_a_block(ops: list[Op], constants: set[int]) -> set[int]:
    """Constant-like ops some non-constant op reads, directly or through other constants."""
    producer = {v: op for op in ops for v in op.results}
    live: set[int] = set()
    for op in reversed(ops):
        if op.name == "func.return" or (id(op) in constants and id(op) not in live):
            continue
        for value in _reads(op):
            if value in producer and id(producer[value]) in constants:
                live.add(id(producer[value]))
    return live


def check(graph, ops: list[Op]) -> None:
    body = [op for op in ops if op.name != "func.return"]
    constants = _constant_like(body)
    expected = {id(op) for op in body} - (constants - _read_by_a_block(body, constants))
    placed = [id(op) for block in graph.blocks for op in block.ops]
    assert sorted(placed) == sorted(expected), "every op in exactly one block"
    where = {id(op): (block.id, k) for block in graph.blocks for k, op in enumerate(block.ops)}
    producer = {v: op for op in body for v in op.results}
    for block in graph.blocks:
        assert list(block.deps) == sorted(set(block.deps)), "deps ascending and unique"
        assert all(d < block.id for d in block.deps), "deps in program order (acyclic)"
        if block.collective:
            assert len(block.ops) == 1 and is_collective(block.ops[0])
        else:
            assert not any(is_collective(op) for op in block.ops)
        for k, op in enumerate(block.ops):
            for value in _reads(op):
                if value not in producer:
                    continue
                def_block, def_k = where[id(producer[value])]
                assert (def_block, def_k) < (block.id, k), "every use after its def"
                if def_block != block.id and id(producer[value]) not in constants:
                    assert def_block in block.deps, "every cross-block def-use edge is a dep"


@settings(max_examples=150, deadline=None)
@given(programs(), st.booleans())
def test_individual_split_properties(ops, merge):
    check(individual_split(ops, merge=merge), ops)


@settings(max_examples=150, deadline=None)
@given(programs(), st.integers(1, 6),
       st.sampled_from(["isolated", "end_block", "start_block"]),
       st.sampled_from(["is_communication_op", "is_dot_general_op"]))
def test_linear_split_properties(ops, block_lim, policy, separator):
    graph = linear_split(ops, block_lim=block_lim, policy=policy, separator=separator)
    check(graph, ops)
    assert all(len(b.ops) <= block_lim for b in graph.blocks)
