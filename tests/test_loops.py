"""Loops and branches holding collectives, expanded into the traces (split stage).

The modules are small JAX programs lowered as they are (scripts/loop_test_modules.py): scans,
fori_loops, while_loops and conds around collectives inside ``sdy.manual_computation``, with
their bodies behind ``func.call``s, plus one hand-written module carrying XLA's
``known_trip_count``.
"""

from __future__ import annotations

import json
import logging
import sys
from collections import Counter
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.mlir.ops import Op, TensorType
from hespas_py.mlir.reader import load_module
from hespas_py.run import build_config
from hespas_py.split import individual_split, linear_split, split
from hespas_py.split.blocks import BlockGraph
from hespas_py.split.loops import iteration_order

DATA = Path(__file__).parent / "data" / "mlir"
SPLITS = [("linear_split", {}), ("individual_split", {"merge": True}),
          ("individual_split", {"merge": False})]


def graph_of(name: str, strategy: str = "linear_split", **options) -> BlockGraph:
    return split(load_module(DATA / f"{name}.mlir"), strategy, **options)


def collectives(graph: BlockGraph) -> Counter:
    return Counter(b.ops[0].short_name for b in graph.blocks if b.collective)


def iterations(graph: BlockGraph, scope: int) -> list[list[int]]:
    """Block ids of each iteration of the loop of ``scope`` (first instance of each block starts
    an iteration's count over)."""
    per = graph.loops[scope - 1].blocks_per_iteration
    ids = [b.id for b in graph.blocks if b.scope == scope]
    return [ids[i:i + per] for i in range(0, len(ids), per)]


@pytest.mark.parametrize("strategy,options", SPLITS)
def test_scan_in_manual_computation_becomes_its_iterations(strategy, options):
    graph = graph_of("loops_scan_fsdp", strategy, **options)
    # 3 layers: a weight all-gather per layer forward and backward, a gradient reduce-scatter.
    assert collectives(graph) == {"all_gather": 6, "reduce_scatter": 3}
    assert [(loop.trips, loop.trips_from, loop.executions, loop.parent) for loop in graph.loops] \
        == [(3, "static", 1, 0), (3, "static", 1, 0)]
    assert graph.loops[0].where.startswith("@main op 0 > op ")  # inside the manual computation
    assert graph.assumptions == ()
    for scope in (1, 2):
        first, *later = iterations(graph, scope)
        assert all(graph.blocks[b].repeats == -1 for b in first)
        for iteration in later:  # each later iteration repeats the first, block for block
            assert [graph.blocks[b].repeats for b in iteration] == first
            assert [graph.blocks[b].ops for b in iteration] == [graph.blocks[b].ops for b in first]
    for block in graph.blocks:
        assert all(d < block.id for d in block.deps)


def test_iterations_run_in_order():
    graph = graph_of("loops_scan_fsdp")
    for scope in (1, 2):
        runs = iterations(graph, scope)
        for i, iteration in enumerate(runs):
            gather = next(b for b in iteration if graph.blocks[b].collective)
            # The weight slice and its all-gather read only the stacked weights (passed through)
            # and the induction variable (a known constant), yet wait, as XLA runs a while, for
            # all of the iteration before: its collectives and its last compute.
            upstream = _ancestors(graph, gather)
            assert upstream.issuperset(runs[i - 1] if i else ())
            assert not upstream & {b for later in runs[i + 1:] for b in later}
            if i and scope == 1:  # the activation is carried: iteration i computes on i - 1's
                assert runs[i - 1][-1] in graph.blocks[iteration[-1]].deps
    # What reads the forward loop's results (the backward loop) waits for its last iteration.
    forward = iterations(graph, 1)
    readers = [b for b in graph.blocks if b.id > forward[-1][-1]
               and _ancestors(graph, b.id) & set(forward[-1])]
    assert readers and all(_ancestors(graph, b.id).issuperset(forward[-1]) for b in readers)


def test_nested_loop_iterations_run_in_order():
    """Every block of a microbatch, inner loops' included, runs after all of the microbatch
    before it."""
    graph = graph_of("loops_nested_scan")
    per = graph.loops[0].blocks_per_iteration
    first = [b.id for b in graph.blocks if b.scope and b.id <= per]
    second = [b.id for b in graph.blocks if b.scope and per < b.id <= 2 * per]
    assert len(first) == len(second) == per
    assert all(_ancestors(graph, b).issuperset(first) for b in second)


def _ancestors(graph: BlockGraph, block: int) -> set[int]:
    seen: set[int] = set()
    pending = [block]
    while pending:
        for dep in graph.blocks[pending.pop()].deps:
            if dep not in seen:
                seen.add(dep)
                pending.append(dep)
    return seen


def test_nested_scans_in_called_functions():
    graph = graph_of("loops_nested_scan")
    # 2 microbatches x (3 layers: forward and backward all-gathers, backward reduce-scatters).
    assert collectives(graph) == {"all_gather": 12, "reduce_scatter": 6}
    outer, forward, backward = graph.loops
    assert (outer.trips, outer.executions, outer.parent) == (2, 1, 0)
    assert [(loop.trips, loop.executions, loop.parent) for loop in (forward, backward)] \
        == [(3, 2, 1), (3, 2, 1)]
    assert "@closed_call" in forward.where and forward.where.startswith(outer.where)
    # The second microbatch's inner iterations repeat the first microbatch's first iteration.
    inner = [b for b in graph.blocks if b.scope == 2]
    assert len(inner) == 2 * 3 * forward.blocks_per_iteration
    assert sum(b.repeats < 0 for b in inner) == forward.blocks_per_iteration


def test_fori_loop_with_constant_bounds():
    graph = graph_of("loops_fori")
    assert collectives(graph) == {"all_reduce": 4}
    assert [(loop.trips, loop.trips_from) for loop in graph.loops] == [(4, "static")]


def test_dynamic_trip_count_is_assumed_and_recorded():
    assert collectives(graph_of("loops_while_dynamic")) == {"all_reduce": 1}
    graph = graph_of("loops_while_dynamic", loop_trips=5)
    assert collectives(graph) == {"all_reduce": 5}
    assert [(loop.trips, loop.trips_from) for loop in graph.loops] == [(5, "assumed")]
    (assumed,) = graph.assumptions
    assert assumed.kind == "trip_count" and assumed.op == "stablehlo.while"
    assert "assumed 5 (--loop-trips)" in str(assumed)
    with pytest.raises(HespasError, match="--loop-trips must be at least 1"):
        graph_of("loops_while_dynamic", loop_trips=0)


def test_xla_known_trip_count():
    graph = graph_of("loops_xla_trip_count", "individual_split")
    assert collectives(graph) == {"all_reduce": 5}
    assert [(loop.trips, loop.trips_from) for loop in graph.loops] == [(5, "xla")]
    assert graph.assumptions == ()


def test_xla_known_trip_count_as_a_dictionary(tmp_path):
    text = (DATA / "loops_xla_trip_count.mlir").read_text()
    start = text.index("{backend_config = ")
    json_config = text[start:text.index("} : (tensor<i32>", start)]
    path = tmp_path / "dict_config.mlir"
    path.write_text(text.replace(
        json_config, "{mhlo.backend_config = {known_trip_count = {n = 5 : i64}}"))
    graph = split(load_module(path), "individual_split")
    assert collectives(graph) == {"all_reduce": 5}
    assert [(loop.trips, loop.trips_from) for loop in graph.loops] == [(5, "xla")]


def test_costliest_branch_with_a_collective_is_taken_loops_without_stay_one_op():
    graph = graph_of("loops_cond")
    assert collectives(graph) == {"all_reduce": 1}
    (taken,) = graph.assumptions
    assert taken.kind == "branch" and taken.op == "stablehlo.case"
    assert "branch 1 of 2 taken" in taken.detail
    assert graph.loops == ()  # the scan without collectives is one op, with its trip count
    (loop,) = [op for b in graph.blocks for op in b.ops if op.short_name == "while"]
    assert loop.attrs["trip_count"] == 3


def test_trip_counts_of_loops_kept_whole_are_assumed_too():
    module = load_module(DATA / "control_flow.mlir")
    graph = linear_split(module, loop_trips=5)
    whiles = [op for b in graph.blocks for op in b.ops if op.short_name == "while"]
    assert [op.attrs["trip_count"] for op in whiles] == [7, 3, 5]  # the last one is dynamic
    assert [(a.kind, a.where) for a in graph.assumptions] == [("trip_count", "@main op 6")]


def test_loop_free_modules_have_no_loops_or_repeats(repo_dir):
    graph = individual_split(load_module(repo_dir / "workloads" / "mlp_fsdp_4dev.mlir"), merge=True)
    assert graph.loops == () and graph.assumptions == ()
    assert all(b.repeats == -1 and b.scope == 0 for b in graph.blocks)


def test_stack_writes_move_to_the_end_of_an_iteration():
    t = TensorType((4,), "f32")

    def op(name, results, operands):
        return Op(f"stablehlo.{name}", tuple(results), tuple(operands), (t,) * len(results),
                  (t,) * len(operands))

    # body args 0 (gradient stack), 1 (index); reduce_scatter -> reshape -> dynamic_update_slice
    # into the stack (yielded back), then more compute that does not read the gradient.
    ops = [op("reduce_scatter", [10], [5]), op("reshape", [11], [10]),
           op("dynamic_update_slice", [12], [0, 11, 1]), op("dot_general", [13], [5, 5])]
    ordered = iteration_order(ops, (0, 1), (12, 13))
    assert [o.short_name for o in ordered] == ["reduce_scatter", "dot_general", "reshape",
                                              "dynamic_update_slice"]
    kept = iteration_order(ops, (0, 1), (0, 13))  # the update is not what is yielded: stays
    assert kept is ops


def test_gen_reports_loops_and_assumptions(tmp_path, caplog):
    from hespas_py.pipeline import generate

    config = build_config("A100_SXM_40GB", mlir_file=DATA / "loops_while_dynamic.mlir",
                                   output_dir=tmp_path / "out", loop_trips=3)
    with caplog.at_level(logging.WARNING, logger="hespas_py"):
        result = generate(config)
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "assumed 3 (--loop-trips)" in warning and "@main op 0 > op " in warning
    stats = json.loads((tmp_path / "out" / "module_stats.json").read_text())
    assert stats["loops"] == [{"where": result.graph.loops[0].where, "op": "stablehlo.while",
                               "trips": 3, "trips_from": "assumed", "executions": 1,
                               "blocks_per_iteration": result.graph.loops[0].blocks_per_iteration,
                               "scope": 1, "parent_scope": 0}]
    assert [a["kind"] for a in stats["assumptions"]] == ["trip_count"]
    assert stats["collectives"]["all_reduce"]["count"] == 3


@pytest.mark.parametrize("entry", ["hespas gen", "hespas_chakra_gen"])
def test_loop_trips_flag(entry, tmp_path, capsys, monkeypatch):
    from hespas_py.cli.compat import chakra_gen
    from hespas_py.cli.main import main

    def run(*flags: str) -> tuple[int, str, str]:
        argv = [*(["gen"] if entry == "hespas gen" else []), "A100_SXM_40GB", "--mlir_file",
                str(DATA / "loops_while_dynamic.mlir"), "--output", str(tmp_path / "out"),
                "--clean", "--json", *flags]
        monkeypatch.setattr(sys, "argv", ["prog", *argv])
        with pytest.raises(SystemExit) as info:
            main() if entry == "hespas gen" else chakra_gen()
        out, err = capsys.readouterr()
        return info.value.code, out, err

    code, out, err = run("--loop-trips", "4")
    assert code == 0 and json.loads(out)["collectives"]["all_reduce"]["count"] == 4
    code, out, err = run("--loop-trips", "0")
    assert (code, out) == (2, "")
    assert err == "error: --loop-trips must be at least 1, not 0\n"
    code, out, err = run("--loop-trips", str(2 ** 31))  # refused before its second iteration
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "a loop of 2,147,483,648 iterations (assumed)" in err and "--loop-trips" in err


def test_xla_estimators_cut_blocks_out_of_loop_bodies():
    from hespas_py.mlir.extract import BlockExtractor

    graph = graph_of("loops_nested_scan")
    extractor = BlockExtractor(DATA / "loops_nested_scan.mlir")
    for block in graph.blocks:
        if not block.collective and block.repeats < 0:
            assert "func.func @main" in extractor.extract(block.ops)


def test_loop_trips_config_key(tmp_path):

    config = tmp_path / "config.json"
    preset = json.loads((Path(__file__).parents[1] / "configs" / "nodes" / "A100_SXM_40GB"
                         / "roofline" / "config.json").read_text())
    config.write_text(json.dumps({**preset, "loop_trips": 6}))
    settings = build_config(config, mlir_file="m.mlir", output_dir=tmp_path / "o")
    assert settings.loop_trips == 6
    assert build_config(config, mlir_file="m.mlir", output_dir=tmp_path / "o",
                                 loop_trips=2).loop_trips == 2
    config.write_text(json.dumps({**preset, "loop_trips": "many"}))
    with pytest.raises(HespasError, match="loop_trips must be an integer"):
        build_config(config, mlir_file="m.mlir", output_dir=tmp_path / "o")
