"""The generation pipeline: config reading, atomic output, stats, counts on the shared step."""

from __future__ import annotations

import json

import pytest

from hespas_py import pipeline
from hespas_py.chakra.io import read_trace
from hespas_py.errors import HespasError
from hespas_py.pipeline import generate
from hespas_py.run import Split, build_config

#: A 4-replica pmap-style step whose all-reduce has two groups.
TINY_MLIR = """
module @tiny attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 4 : i32} {
  func.func public @main(%arg0: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = stablehlo.exponential %arg0 : tensor<256x256xf32>
    %1 = "stablehlo.all_reduce"(%0) <{replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<256x256xf32>) -> tensor<256x256xf32>
    %2 = stablehlo.dot_general %1, %arg0, contracting_dims = [1] x [0] : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    %3 = stablehlo.add %2, %0 : tensor<256x256xf32>
    return %3 : tensor<256x256xf32>
  }
}
"""

HARDWARE = {"peak_flops": 1e12, "memory_bandwidth": 1e11, "per_datatype_flops": {"f32": 1e13}}


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.mlir"
    path.write_text(TINY_MLIR)
    return path


def config_file(tmp_path, **extra) -> str:
    data = {"perf_estimator": {"method": "roofline", "hardware": HARDWARE}, **extra}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_generate_writes_traces_stats_and_summary(tmp_path, tiny):
    out = tmp_path / "out"
    config = build_config(config_file(tmp_path, mlir_file=str(tiny), output_dir=str(out),
                                               split_strategy="individual_split"))
    result = generate(config)
    assert sorted(p.name for p in out.iterdir()) == [
        "comm_group.json", "dev.0.et", "dev.1.et", "dev.2.et", "dev.3.et", "module_stats.json"]
    assert json.loads((out / "comm_group.json").read_text()) == {"1": [0, 1], "2": [2, 3]}
    stats = json.loads((out / "module_stats.json").read_text())
    # exp (256x256 f32: 256 KiB in + out), dot (2 * 256^3 FLOPs), add: all memory bound here.
    assert stats["flops"] == pytest.approx(2 * 256 ** 3 + 2 * 256 * 256)
    assert stats["collectives"] == {"all_reduce": {"count": 1, "bytes": 262144}}
    assert set(stats["per_op"]) == {"stablehlo.exponential", "stablehlo.dot_general",
                                    "stablehlo.add"}
    assert 0 < stats["flops_utilization"] <= 1 + 1e-12
    assert 0 < stats["memory_bandwidth_utilization"] <= 1 + 1e-12
    assert result.summary["nodes_per_device"] == {"COMP_NODE": 3, "COMM_COLL_NODE": 1}
    assert result.summary["trace_files"] == 2
    micros = sum(n.duration_micros for n in read_trace(out / "dev.0.et")[1])
    assert micros == round(stats["runtime_s"] * 1e6) == stats["traces"]["compute_micros"]


def test_failure_midway_leaves_no_output(tmp_path, tiny, monkeypatch):
    out = tmp_path / "out"

    def broken(out_dir, *args):
        (out_dir / "dev.0.et").write_bytes(b"partial")
        raise RuntimeError("disk full")

    monkeypatch.setattr(pipeline, "write_traces", broken)
    config = build_config(config_file(tmp_path), mlir_file=str(tiny), output_dir=str(out))
    with pytest.raises(RuntimeError):
        generate(config)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json", "tiny.mlir"]


def test_existing_output_needs_clean_and_clean_replaces_it(tmp_path, tiny):
    out = tmp_path / "out"
    out.mkdir()
    (out / "stale.txt").write_text("old")
    config = build_config(config_file(tmp_path), mlir_file=str(tiny), output_dir=str(out))
    with pytest.raises(HespasError, match="--clean"):
        generate(config)
    generate(build_config(config_file(tmp_path), mlir_file=str(tiny),
                                   output_dir=str(out), clean=True))
    assert not (out / "stale.txt").exists() and (out / "dev.3.et").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.json", "out", "tiny.mlir"]


def test_cache_dir_is_used_and_reported(tmp_path, tiny, monkeypatch):
    import time

    from hespas_py.estimators.cache import CachedEstimator

    store = CachedEstimator._store

    def slow_store(self, target, entry):  # a slow filesystem: generate must wait for writes
        time.sleep(0.2)
        store(self, target, entry)

    monkeypatch.setattr(CachedEstimator, "_store", slow_store)
    cache = tmp_path / "cache"
    for run in ("a", "b"):
        result = generate(build_config(
            config_file(tmp_path), mlir_file=str(tiny), output_dir=str(tmp_path / run),
            cache_dir=str(cache)))
    assert result.stats["cache"]["hits"] == result.stats["cache"]["lookups"] > 0


@pytest.mark.parametrize("extra, message", [
    ({"mlir_file": "x.mlir", "outptu_dir": "o"}, "unknown key outptu_dir"),
    ({"block_lim": "many"}, "block_lim must be an integer"),
    ({"split_strategy": "random_split"}, "split_strategy must be one of"),
])
def test_bad_configs_name_the_file_and_key(tmp_path, extra, message):
    with pytest.raises(HespasError, match=message) as info:
        build_config(config_file(tmp_path, **extra), output_dir="o", mlir_file="m")
    assert str(info.value).startswith(str(tmp_path / "config.json"))
    assert "\n" not in str(info.value)


def test_missing_fields_and_presets(tmp_path):
    with pytest.raises(HespasError, match="missing required key mlir_file"):
        build_config(config_file(tmp_path), output_dir="o")
    preset = build_config("A100_SXM_40GB", mlir_file="m.mlir", output_dir="o",
                          split=Split(split_strategy="individual_split", merge=True))
    assert preset.hardware.name == "A100_SXM_40GB"
    assert preset.split_options() == {"merge": True, "collective_rewrites": True}  # a GPU preset
    with pytest.raises(HespasError, match="no such hardware config"):
        build_config("NO_SUCH_GPU", mlir_file="m.mlir", output_dir="o")


def test_resnet50_counts_match_the_reference(shared_dir, tmp_path):
    """Facts from reference/hespas/README.md: 7528 nodes unmerged, 486 linear (375 of them
    ALL_REDUCE, 102,865,576 bytes, one group of all 4 devices)."""
    mlir = shared_dir / "workloads" / "resnet50_train_4dev_pmap.mlir"
    expected = {("individual_split", False): 7528, ("linear_split", False): 486}
    for (strategy, merge), nodes in expected.items():
        out = tmp_path / strategy
        result = generate(build_config(
            "A100_SXM_40GB", mlir_file=str(mlir), output_dir=str(out),
            split=Split(split_strategy=strategy, merge=merge)))
        per_device = result.summary["nodes_per_device"]
        assert sum(per_device.values()) == nodes
        assert per_device["COMM_COLL_NODE"] == 375
        assert result.stats["collectives"] == {"all_reduce": {"count": 375, "bytes": 102865576}}
        assert result.summary["comm_groups"] == {"1": [0, 1, 2, 3]}
        assert result.summary["trace_files"] == 1


@pytest.mark.parametrize("enabled", [True, False])
def test_gc_paused_restores_the_collector_state(enabled):
    import gc

    from hespas_py.gc_pause import gc_paused

    (gc.enable if enabled else gc.disable)()
    frozen = gc.get_freeze_count()
    try:
        with pytest.raises(RuntimeError), gc_paused():
            built = [[i] for i in range(1000)]
            assert not gc.isenabled()
            raise RuntimeError
        assert gc.isenabled() is enabled
        # What existed when the collector came back is frozen, never rescanned.
        assert (gc.get_freeze_count() >= frozen + len(built)) is enabled
    finally:
        gc.enable()


def test_module_stats_counts_a_shared_cost_row_once_per_op():
    from hespas_py.chakra.stats import module_stats
    from hespas_py.estimators.base import Estimate, OpCost
    from hespas_py.hardware import Hardware
    from hespas_py.split.blocks import Block, BlockGraph

    add = OpCost("stablehlo.add", "f32", 10.0, 100.0, 1e-6)
    dot = OpCost("stablehlo.dot_general", "bf16", 1000.0, 50.0, 3e-6, fallback=True, notes=("guess",))
    other_add = OpCost("stablehlo.add", "bf16", 5.0, 20.0, 2e-6)
    blocks = tuple(Block(id=i, ops=(), deps=(), collective=False) for i in range(2))
    estimates = [Estimate(time_s=5e-6, flops=1020.0, bytes=250.0, per_op=(add, dot, add)),
                 Estimate(time_s=3e-6, flops=15.0, bytes=120.0, per_op=(add, other_add))]
    stats = module_stats(BlockGraph(blocks=blocks, num_devices=1, source="m.mlir"), estimates,
                         Hardware(name="hw", peak_flops=1e12, memory_bandwidth=1e11), "roofline")
    assert stats["per_op"]["stablehlo.add"] == pytest.approx(
        {"count": 4, "flops": 35.0, "bytes": 320.0, "time_s": 5e-6, "time_share": 5 / 8})
    assert stats["per_op"]["stablehlo.dot_general"]["count"] == 1
    assert stats["per_dtype"]["f32"]["count"] == 3 and stats["per_dtype"]["bf16"]["count"] == 2
    assert stats["fallback_ops"] == {"stablehlo.dot_general": 1} and stats["notes"] == ["guess"]


@pytest.mark.fresh_process  # hespas_py forks only a single-threaded process (conftest.py)
def test_stats_and_memory_from_forked_children_equal_those_computed_here(tmp_path, tiny, monkeypatch):
    import hespas_py.pipeline as pipeline
    from hespas_py import forking

    children = []
    real = forking.Forked
    monkeypatch.setattr(forking, "Forked", lambda work: children.append(work) or real(work))
    monkeypatch.setattr(pipeline, "_BACKGROUND_STATS_BLOCKS", 1)
    monkeypatch.setattr(pipeline, "_BACKGROUND_MEMORY_OPS", 1)
    docs = {}
    for jobs in ("1", "2"):
        monkeypatch.setenv("HESPAS_JOBS", jobs)
        out = tmp_path / f"out{jobs}"
        generate(build_config(config_file(tmp_path, mlir_file=str(tiny),
                                                   output_dir=str(out))))
        docs[jobs] = json.loads((out / "module_stats.json").read_text())
        del docs[jobs]["timings_s"]
    assert len(children) == 2  # the memory and the stats children of the second run
    assert docs["2"] == docs["1"] and docs["1"]["memory"]["peak_bytes"] > 0
