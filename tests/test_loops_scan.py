"""A step written with ``jax.lax.scan`` over its layers and the same step unrolled give the same
traces: per-device collectives (count and bytes per type, read back from the traces), compute
estimate and simulated step time within 5% (fused_roofline on H100 presets).

Pairs: `llama_scan.SMALL` (three layers of the 100m model), FSDP (collectives inside the loops:
expanded into the traces) and data parallel (no collective inside: the loops stay one node each
and the fused model costs their bodies), exported by scripts/loop_test_modules.py; and the shipped
LLaMA-3 100M pair (workloads/llama3_100m_{scan_,}train_4dev).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hespas_py.chakra.summary import summarize_trace, trace_files
from hespas_py.pipeline import generate
from hespas_py.run import Split, build_config
from hespas_py.sim.config import load_setup, resolve_system_files
from hespas_py.sim.simulate import simulate

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "mlir"
NODE = REPO / "configs" / "nodes" / "H100_80GB" / "fused_roofline" / "config.json"
SYSTEM = "H100_80GB_4GPU"
PAIRS = {
    "small_fsdp": (DATA / "llama3_small_scan_4dev.mlir.gz",
                   DATA / "llama3_small_unrolled_4dev.mlir.gz"),
    "small_dp": (DATA / "llama3_small_dp_scan_4dev.mlir.gz",
                 DATA / "llama3_small_dp_unrolled_4dev.mlir.gz"),
    "100m_fsdp": (REPO / "workloads" / "llama3_100m_scan_train_4dev.mlir",
                  REPO / "workloads" / "llama3_100m_train_4dev.mlir.gz"),
}


def run(path: Path, out: Path) -> dict:
    """Generate and simulate one step: its compute estimate, step time and per-device
    collectives as the traces hold them."""
    result = generate(build_config(NODE, mlir_file=path, output_dir=out,
                                   split=Split(split_strategy="linear_split", block_lim=100_000)))
    setup = load_setup(resolve_system_files(SYSTEM))
    simulated = simulate(out / "dev", setup.system, setup.network,
                         comm_groups=out / "comm_group.json")
    collectives = [summarize_trace(trace).collectives for trace in trace_files(out)]
    return {"compute_s": result.stats["runtime_s"], "step_ns": simulated.step_time_ns,
            "collectives": collectives, "loops": result.graph.loops, "graph": result.graph}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[dict, dict]]:
    out = tmp_path_factory.mktemp("scan")
    return {name: (run(scan, out / f"{name}_scan"), run(unrolled, out / f"{name}_unrolled"))
            for name, (scan, unrolled) in PAIRS.items()}


@pytest.mark.parametrize("pair", ["small_fsdp", "100m_fsdp"])
def test_fsdp_scan_and_unrolled_have_the_same_collectives_per_device(runs, pair):
    scan, unrolled = runs[pair]
    assert [loop.trips for loop in scan["loops"]] == [3, 3] if pair == "small_fsdp" else [7, 7]
    assert len(scan["collectives"]) == len(unrolled["collectives"]) == 4
    assert scan["collectives"] == unrolled["collectives"]
    assert scan["collectives"][0]["ALL_GATHER"]["count"] > 0
    assert scan["collectives"][0]["REDUCE_SCATTER"]["count"] > 0


@pytest.mark.parametrize("pair", list(PAIRS))
def test_scan_and_unrolled_compute_and_step_time_agree_within_5_percent(runs, pair):
    scan, unrolled = runs[pair]
    assert scan["compute_s"] == pytest.approx(unrolled["compute_s"], rel=0.05)
    assert scan["step_ns"] == pytest.approx(unrolled["step_ns"], rel=0.05)


def test_loops_without_collectives_stay_one_node(runs):
    scan, unrolled = runs["small_dp"]
    assert scan["loops"] == ()
    # The gradients are all-reduced after the loops: stacked in the scan (one per parameter
    # kind), one per layer unrolled; the same bytes either way.
    total = [sum(c["bytes"] for c in run["collectives"][0].values()) for run in (scan, unrolled)]
    assert total[0] == total[1]


@pytest.mark.parametrize("pair", ["small_fsdp", "100m_fsdp"])
def test_no_matmul_of_a_layer_waits_for_a_gradient_reduce_scatter(runs, pair):
    """In a backward iteration a gradient's reduce-scatter is read only by its write into the
    stacked gradients, which runs last (`split.loops.iteration_order`): the layer's other
    matmuls never wait for it, as in the unrolled step (where only the optimizer reads it)."""
    blocks = runs[pair][0]["graph"].blocks
    waiting = [b.id for b in blocks if b.scope and not b.collective
               and any(op.short_name == "dot_general" for op in b.ops)
               and any(blocks[d].collective and blocks[d].ops[0].short_name == "reduce_scatter"
                       for d in b.deps)]
    assert waiting == []
