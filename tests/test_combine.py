"""XLA's collective combiners in the split stage (`hespas_py.split.combine`): which collectives
merge, how the blocks around them are cut, loop bodies, the traces, and the option's plumbing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hespas_py.accuracy.rows import parse_scale
from hespas_py.chakra.summary import summarize_trace, trace_files
from hespas_py.errors import HespasError
from hespas_py.mlir.reader import load_module
from hespas_py.pipeline import generate
from hespas_py.run import Split, build_config
from hespas_py.split import split
from hespas_py.split.combine import Thresholds

REPO = Path(__file__).resolve().parents[1]
NODE = REPO / "configs" / "nodes" / "H100_80GB" / "fused_roofline" / "config.json"
#: Replica groups (dense attribute text) and their attribute shape.
GROUP = ("[[0, 1, 2, 3]]", "1x4")
PAIRS = ("[[0, 1], [2, 3]]", "2x2")


def all_reduce(result: str, operand: str, dtype: str = "f32", groups: tuple[str, str] = GROUP,
               reduction: str = "add", n: int = 1024) -> str:
    """One ``stablehlo.all_reduce`` of a ``tensor<n x dtype>``."""
    groups, shape = groups
    return f'''
    {result} = "stablehlo.all_reduce"({operand}) <{{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<{groups}> : tensor<{shape}xi64>, use_global_device_ids}}> ({{
    ^bb0(%x: tensor<{dtype}>, %y: tensor<{dtype}>):
      %r = stablehlo.{reduction} %x, %y : tensor<{dtype}>
      stablehlo.return %r : tensor<{dtype}>
    }}) : (tensor<{n}x{dtype}>) -> tensor<{n}x{dtype}>'''


def module(tmp_path: Path, body: str, results: list[tuple[str, str]], n: int = 1024) -> Path:
    """A 4-device module of ``body`` over arguments %a..%d (f32) and %h (bf16)."""
    args = ", ".join(f"%{a}: tensor<{n}xf32>" for a in "abcd") + f", %h: tensor<{n}xbf16>"
    types = ", ".join(t for _, t in results)
    values = ", ".join(v for v, _ in results)
    path = tmp_path / "combine.mlir"
    path.write_text(f'''module @combine attributes {{mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func public @main({args}) -> ({types}) {{{body}
    return {values} : {types}
  }}
}}
''')
    return path


def collective_blocks(path: Path, threshold: int, strategy: str = "linear_split"):
    graph = split(load_module(path), strategy, combine_threshold=threshold)
    for block in graph.blocks:
        assert all(d < block.id for d in block.deps)  # still a DAG in block order
    return graph, [b for b in graph.blocks if b.collective]


F32 = "tensor<1024xf32>"


def test_independent_collectives_of_one_key_combine_others_do_not(tmp_path):
    body = "".join([
        all_reduce("%0", "%a"), all_reduce("%1", "%b"), all_reduce("%2", "%c"),
        all_reduce("%3", "%d", groups=PAIRS),               # other groups
        all_reduce("%4", "%a", reduction="maximum"),        # other reduction
        all_reduce("%5", "%h", dtype="bf16"),               # other element type
        "\n    %6 = stablehlo.exponential %0 : tensor<1024xf32>",
        all_reduce("%7", "%6"),                             # waits for %0
    ])
    path = module(tmp_path, body, [(f"%{i}", F32) for i in (1, 2, 3, 4, 7)]
                  + [("%5", "tensor<1024xbf16>")])
    _, before = collective_blocks(path, 0)
    graph, after = collective_blocks(path, 1 << 20)
    assert [len(b.ops) for b in before] == [1] * 7
    assert sorted(len(b.ops) for b in after) == [1, 1, 1, 1, 3]
    combined = next(b for b in after if len(b.ops) == 3)
    assert [op.operands for op in combined.ops] == [b.ops[0].operands for b in before[:3]]
    waiting = after[-1]  # the all-reduce of exp(%0): alone, after the exponential's block
    assert len(waiting.ops) == 1 and waiting.id > combined.id
    exponential = next(b for b in graph.blocks if b.label == "exponential")
    assert exponential.deps == (combined.id,) and waiting.deps == (exponential.id,)


def test_threshold_and_oversize(tmp_path):
    body = "".join(all_reduce(f"%{i}", f"%{a}") for i, a in enumerate("abcd"))
    path = module(tmp_path, body, [(f"%{i}", F32) for i in range(4)])
    size = 1024 * 4
    assert [len(b.ops) for b in collective_blocks(path, 2 * size)[1]] == [2, 2]
    assert [len(b.ops) for b in collective_blocks(path, 3 * size)[1]] == [3, 1]
    assert [len(b.ops) for b in collective_blocks(path, size - 1)[1]] == [1, 1, 1, 1]
    # per kind: only the kinds given combine (the command line's form)
    assert [len(b.ops) for b in collective_blocks(path, Thresholds.of("all_gather=65536"))[1]] \
        == [1, 1, 1, 1]
    assert [len(b.ops) for b in collective_blocks(
        path, Thresholds.of("all_reduce=8192, reduce_scatter=1"))[1]] == [2, 2]


def test_work_between_is_cut_around_the_combined_collective(tmp_path):
    # %1 feeds the second all-reduce, %4 neither waits nor is waited for, %3 needs the first
    # one's result: a compute block before the combined all-reduce (with the work it does not
    # wait for), then a block with what waits for it.
    body = "".join([
        all_reduce("%0", "%a"),
        "\n    %1 = stablehlo.multiply %b, %b : tensor<1024xf32>",
        "\n    %3 = stablehlo.add %0, %c : tensor<1024xf32>",
        "\n    %4 = stablehlo.negate %d : tensor<1024xf32>",
        all_reduce("%2", "%1"),
    ])
    path = module(tmp_path, body, [("%2", F32), ("%3", F32), ("%4", F32)])
    graph, blocks = collective_blocks(path, 1 << 20)
    assert len(blocks) == 1 and len(blocks[0].ops) == 2
    labels = [b.label for b in graph.blocks]
    assert labels == ["multiply+negate", "all_reduce", "add"]
    _, individual = collective_blocks(path, 1 << 20, "individual_split")
    assert [len(b.ops) for b in individual] == [2]


@pytest.fixture(scope="module")
def scan_graphs():
    scan = load_module(REPO / "workloads" / "llama3_100m_scan_train_4dev.mlir")
    return (split(scan, "linear_split", block_lim=100_000),
            split(scan, "linear_split", block_lim=100_000, combine_threshold=30 << 20))


def test_loop_bodies_combine_once_and_every_iteration_repeats_it(scan_graphs):
    plain, combined = scan_graphs
    assert [loop.trips for loop in combined.loops] == [loop.trips for loop in plain.loops]
    per_iteration = [loop.blocks_per_iteration for loop in combined.loops]
    assert per_iteration[1] < plain.loops[1].blocks_per_iteration
    body = [b for b in combined.blocks if b.scope == 2 and b.collective]
    first = {b.id: b for b in body if b.repeats < 0}
    assert any(len(b.ops) > 1 for b in first.values())
    for block in body:
        if block.repeats >= 0:
            assert block.ops == first[block.repeats].ops
    ops = lambda g: sorted(op.name for b in g.blocks if b.collective for op in b.ops)  # noqa: E731
    assert ops(plain) == ops(combined)  # the same collectives, fewer nodes


def test_traces_carry_the_summed_size_and_default_off_is_unchanged(tmp_path):
    workload = REPO / "workloads" / "mlp_dp_4dev.mlir"
    runs = {}
    for name, threshold in (("default", None), ("zero", 0), ("on", 30 << 20)):
        runs[name] = generate(build_config(NODE, mlir_file=workload, output_dir=tmp_path / name,
                                           split=Split(combine_threshold=threshold)))
    read = {name: [p.read_bytes() for p in trace_files(tmp_path / name)] for name in runs}
    assert read["default"] == read["zero"]
    plain = summarize_trace(trace_files(tmp_path / "default")[0]).collectives["ALL_REDUCE"]
    combined = summarize_trace(trace_files(tmp_path / "on")[0]).collectives["ALL_REDUCE"]
    assert plain["count"] == 5 and combined["count"] == 1
    assert combined["bytes"] == plain["bytes"]
    stats = runs["on"].stats
    assert stats["combine_threshold"] == 30 << 20
    assert stats["collectives"]["all_reduce"] == {"count": 1, "bytes": plain["bytes"], "combined_ops": 5}
    assert "combine_threshold" not in runs["default"].stats
    assert runs["on"].summary["split"]["combine_threshold"] == 30 << 20


def test_bad_thresholds_are_input_errors(tmp_path):
    workload = REPO / "workloads" / "mlp_dp_4dev.mlir"
    for bad, message in ((-1, "--combine-threshold must be 0"), ("lots", "must be 0"),
                         ("all_reduce=1k", "--combine-threshold.all_reduce must be 0"),
                         ("everything=5", "unknown collective kind 'everything'")):
        with pytest.raises(HespasError, match=message):
            build_config(NODE, mlir_file=workload, output_dir=tmp_path,
                         split=Split(combine_threshold=bad))
    config = json.loads(NODE.read_text())
    config["combine_threshold"] = "big"
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    with pytest.raises(HespasError, match="combine_threshold must be an integer >= 0 or an object"):
        build_config(path, mlir_file=workload, output_dir=tmp_path / "o")
    table = ("row,model,kernels,system,workload,node,system_preset,attention,counted,reason,note,"
             "measured_s,combine_threshold\nr,m,k,s,w,n,p,flash,true,,,1.0,{}\n")
    row = parse_scale(table.format(33554432), "t.csv", "scale")[0]
    assert row.combine_threshold == Thresholds(33554432, 33554432, 33554432)
    assert not parse_scale(table.format(""), "t.csv", "scale")[0].combine_threshold
    per_kind = parse_scale(table.format('"all_reduce=64,reduce_scatter=8"'), "t.csv", "scale")[0]
    assert per_kind.combine_threshold == Thresholds(all_reduce=64, reduce_scatter=8)
    with pytest.raises(HespasError, match="line 2: combine_threshold must be 0"):
        parse_scale(table.format("-5"), "t.csv", "scale")
    with pytest.raises(HespasError, match="unknown collective kind 'all_to_all'"):
        parse_scale(table.format("all_to_all=5"), "t.csv", "scale")
