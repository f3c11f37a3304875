"""Splitters on hand-built op lists and modules."""

from __future__ import annotations

import pytest

from hespas_py.errors import HespasError
from hespas_py.mlir.ops import Function, Module, Op, Region, TensorType
from hespas_py.split import individual_split, linear_split, split
from hespas_py.split.program import program_ops

F32 = TensorType((4,), "f32")


def op(name: str, results=(), operands=(), **kw) -> Op:
    """An op with f32[4] values; ``name`` without a dialect means stablehlo."""
    full = name if "." in name else f"stablehlo.{name}"
    return Op(name=full, results=tuple(results), operands=tuple(operands),
              result_types=(F32,) * len(results), operand_types=(F32,) * len(operands), **kw)


def ret(*values: int) -> Op:
    return op("func.return", (), values)


def labels(graph) -> list[str]:
    return [b.label for b in graph.blocks]


def deps(graph) -> list[tuple[int, ...]]:
    return [b.deps for b in graph.blocks]


# %1 = constant; %2 = add(%0, %1); %3 = multiply(%2, %2); %4 = all_reduce(%3);
# %5 = exp(%0); %6 = add(%4, %5); return %6
DIAMOND = [
    op("constant", [1]), op("add", [2], [0, 1]), op("multiply", [3], [2, 2]),
    op("all_reduce", [4], [3]), op("exponential", [5], [0]), op("add", [6], [4, 5]), ret(6),
]


def test_individual_one_block_per_nonconstant_op():
    graph = individual_split(DIAMOND)
    assert labels(graph) == ["add", "multiply", "all_reduce", "exponential", "add"]
    assert deps(graph) == [(), (0,), (1,), (), (2, 3)]
    assert [b.collective for b in graph.blocks] == [False, False, True, False, False]
    # The constant travels with its (only) user; func.return is not a block.
    assert [o.name for o in graph.blocks[0].ops] == ["stablehlo.constant", "stablehlo.add"]
    assert graph.blocks[0].inputs == (F32,)          # %0, a graph input
    assert graph.blocks[4].outputs == (F32,)         # %6 is returned
    assert graph.num_devices == 1


def test_individual_merge_fuses_compute_chains_never_collectives():
    graph = individual_split(DIAMOND, merge=True)
    assert labels(graph) == ["add+multiply", "all_reduce", "exponential", "add"]
    assert deps(graph) == [(), (0,), (), (1, 2)]


def test_merge_keeps_every_edge_and_leaves_nothing_disconnected():
    # a -> b, a -> c, b -> d, c -> d (diamond of compute): nothing fuses but d's tail e.
    ops = [op("exponential", [1], [0]), op("negate", [2], [1]), op("abs", [3], [1]),
           op("add", [4], [2, 3]), op("sqrt", [5], [4]), ret(5)]
    graph = individual_split(ops, merge=True)
    assert labels(graph) == ["exponential", "negate", "abs", "add+sqrt"]
    assert deps(graph) == [(), (0,), (0,), (1, 2)]


def test_constant_shared_by_two_users_sits_in_the_earliest_block_without_edges():
    ops = [op("constant", [1]), op("broadcast_in_dim", [2], [1]), op("add", [3], [0, 2]),
           op("exponential", [4], [0]), op("multiply", [5], [4, 2]), ret(3, 5)]
    graph = individual_split(ops)
    assert labels(graph) == ["broadcast_in_dim+add", "exponential", "multiply"]
    assert [len(b.ops) for b in graph.blocks] == [3, 1, 1]
    assert deps(graph) == [(), (), (1,)]              # no edge for the shared constant
    assert graph.blocks[2].inputs == (F32, F32)


def test_dead_constant_is_dropped():
    graph = individual_split([op("constant", [1]), op("exponential", [2], [0]), ret(2)])
    assert [o.short_name for b in graph.blocks for o in b.ops] == ["exponential"]


def test_captures_are_dependencies():
    body = Region(args=(), arg_types=(), ops=(op("exponential", [10], [1]), op("return", (), [10])))
    ops = [op("negate", [1], [0]), op("while", [2], [0], regions=(body,), captures=(1,)), ret(2)]
    assert deps(individual_split(ops)) == [(), (0,)]


def test_linear_split_cuts_at_collectives_and_limit_edges_forward():
    ops = [op("exponential", [i + 1], [i]) for i in range(5)]
    ops += [op("all_reduce", [6], [5]), op("negate", [7], [6]), op("abs", [8], [0]), ret(7, 8)]
    graph = linear_split(ops, block_lim=2)
    assert [len(b.ops) for b in graph.blocks] == [2, 2, 1, 1, 2]
    assert deps(graph) == [(), (0,), (1,), (2,), (3,)]
    assert graph.blocks[3].collective


def test_linear_split_non_collective_separator_policies():
    ops = [op("exponential", [1], [0]), op("dot_general", [2], [1, 1]), op("negate", [3], [2]),
           ret(3)]
    sizes = {policy: [len(b.ops) for b in linear_split(
        ops, separator="is_dot_general_op", policy=policy).blocks]
        for policy in ("isolated", "END_BLOCK", "start-block")}
    assert sizes == {"isolated": [1, 1, 1], "END_BLOCK": [2, 1], "start-block": [1, 2]}
    # With collectives as separators every policy gives the same blocks.
    same = {tuple(labels(linear_split(DIAMOND, policy=p)))
            for p in ("isolated", "end_block", "start_block")}
    assert same == {("add+multiply", "all_reduce", "exponential+add")}


def test_bad_inputs_raise_one_line_errors():
    with pytest.raises(HespasError, match="block_lim"):
        linear_split(DIAMOND, block_lim=0)
    with pytest.raises(HespasError, match="separator policy"):
        linear_split(DIAMOND, policy="sideways")
    with pytest.raises(HespasError, match="separator"):
        linear_split(DIAMOND, separator="is_magic")
    with pytest.raises(HespasError, match="defined after"):
        individual_split([op("negate", [1], [2]), op("exponential", [2], [0]), ret(1)])


def _module(functions: dict[str, Function], **kw) -> Module:
    return Module(path="m.mlir", entry="main", functions=functions, **kw)


def test_manual_computation_body_is_the_program():
    body = Region(args=(10,), arg_types=(F32,), ops=(
        op("negate", [11], [10]), op("all_gather", [12], [11]),
        op("sdy.return", (), [12])))
    main = Function("main", True, (0,), (F32,), (
        op("sdy.manual_computation", [1], [0], regions=(body,)), op("exponential", [2], [1]),
        ret(2)), (F32,))
    module = _module({"main": main}, num_partitions=8)
    ops, returned = program_ops(module)
    assert [o.short_name for o in ops] == ["negate", "all_gather", "exponential"]
    assert ops[0].operands == (0,) and ops[2].operands == (12,) and returned == (2,)
    graph = individual_split(module)
    assert deps(graph) == [(), (0,), (1,)] and graph.num_devices == 8


def test_calls_with_collectives_are_inlined_per_call_site_others_kept():
    callee = Function("step", False, (20,), (F32,), (
        op("all_reduce", [21], [20]), op("exponential", [22], [21]), ret(22)), (F32,))
    pure = Function("pure", False, (30,), (F32,), (op("negate", [31], [30]), ret(31)), (F32,))

    def call(result, operand, name, fn):
        return op("func.call", [result], [operand], attrs={"callee": name},
                  regions=(Region(fn.args, fn.arg_types, fn.ops),))

    main = Function("main", True, (0,), (F32,), (
        call(1, 0, "step", callee), call(2, 1, "step", callee), call(3, 2, "pure", pure),
        ret(3)), (F32,))
    module = _module({"main": main, "step": callee, "pure": pure})
    graph = split(module, "individual_split")
    assert labels(graph) == ["all_reduce", "exponential", "all_reduce", "exponential", "call"]
    assert deps(graph) == [(), (0,), (1,), (2,), (3,)]
    first, second = graph.blocks[0].ops[0], graph.blocks[2].ops[0]
    assert first.results != second.results                     # fresh ids per call site
    assert not {*first.results, *second.results} & {21, 22}


def test_unknown_strategy():
    with pytest.raises(HespasError, match="split strategy"):
        split(_module({"main": Function("main", True, (), (), (ret(),), ())}), "random_split")
