"""The device scripts of `scripts/gpu` run (on the CPU here) and write what their results hold."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

GPU_SCRIPTS = Path(__file__).resolve().parent.parent / "scripts" / "gpu"


@pytest.fixture
def scripts(monkeypatch):
    monkeypatch.syspath_prepend(str(GPU_SCRIPTS))
    yield
    for name in ("kernel_chain", "dispatch_cost", "row_kernels", "measuring",
                 "graph_boundaries", "conv_shapes", "gemm_layouts"):
        sys.modules.pop(name, None)


def test_dispatch_cost_writes_a_slope_per_buffer(scripts, tmp_path, monkeypatch):
    import dispatch_cost

    monkeypatch.setattr(dispatch_cost, "COUNTS", (1, 8))
    dispatch_cost.main(str(tmp_path / "d.json"))
    result = json.loads((tmp_path / "d.json").read_text())
    assert [c["inputs"] for c in result["cases"]] == [1, 8]
    assert result["per_buffer_s"] == pytest.approx(
        (result["cases"][1]["call_s"] - result["cases"][0]["call_s"]) / 14)
    assert {"device_kind", "jax", "date", "xla_flags"} <= set(result)


def test_kernel_chain_writes_a_slope_per_kernel(scripts, tmp_path, monkeypatch):
    import kernel_chain

    monkeypatch.setattr(kernel_chain, "N_SMALL", 2)
    monkeypatch.setattr(kernel_chain, "N_LARGE", 6)
    monkeypatch.setattr(kernel_chain, "ITERS", 3)
    monkeypatch.setenv("CASES", "elementwise_1k_f32")
    kernel_chain.main(str(tmp_path / "k.json"))
    case = json.loads((tmp_path / "k.json").read_text())["cases"]["elementwise_1k_f32"]
    assert case["per_kernel_s"] == pytest.approx(
        (case["step_s_large"] - case["step_s_small"]) / 4)


def test_row_kernels_writes_a_time_and_the_bytes_per_case(scripts, tmp_path, monkeypatch):
    import row_kernels

    monkeypatch.setattr(row_kernels, "SHAPES", [(2, 64)])
    row_kernels.main(str(tmp_path / "r.json"))
    result = json.loads((tmp_path / "r.json").read_text())
    cases = {c["case"]: c for c in result["cases"]}
    assert set(cases) == {"softmax", "row_sum", "given_sum", "softmax_grad", "softmax_unmasked",
                          "stream"}
    assert cases["softmax_grad"]["min_bytes"] == 3 * 2 * 64 * 64 * 2
    assert all(c["call_s"] > 0 for c in cases.values())
    assert {"device_kind", "jax", "date", "xla_flags"} <= set(result)


def test_row_kernels_reads_the_triton_tiles_of_an_optimized_module(scripts):
    import row_kernels

    hlo = ('%f = fusion(%p), backend_config={"fusion_backend_config":{"block_level_fusion_config"'
           ':{"num_warps":"8","output_tiles":[{"sizes":["4","1","4096"]}]},"kind":"__triton"}}')
    assert row_kernels.triton_tiles(hlo) == [{"sizes": [4, 1, 4096], "num_warps": 8}]


def test_graph_boundaries_writes_a_slope_per_chain(scripts, tmp_path, monkeypatch):
    monkeypatch.setenv("SMALL", "1")
    import graph_boundaries

    graph_boundaries.main(str(tmp_path / "g.json"))
    result = json.loads((tmp_path / "g.json").read_text())
    assert set(result["cases"]) == {"conv", "elementwise", "switch"}
    for case in result["cases"].values():
        assert case["per_step_s"] == pytest.approx(
            (case["step_s_large"] - case["step_s_small"]) / (result["n_large"] - result["n_small"]))
    assert graph_boundaries.busy_us({"a": {"us_per_step": 2.0}, "b": {"us_per_step": 3.0}}) == 5.0
    assert {"device_kind", "jax", "date", "xla_flags", "run", "image"} <= set(result)


def test_conv_shapes_times_the_three_passes_of_depthwise_and_pointwise_shapes(
        scripts, tmp_path, monkeypatch):
    monkeypatch.setenv("SMALL", "1")
    monkeypatch.setenv("MODEL", "mobilenetv2")
    import conv_shapes

    assert conv_shapes.DTYPE == conv_shapes.jnp.bfloat16 and conv_shapes.BATCH == 2
    assert len(conv_shapes.MODELS["mobilenetv2"][2]) == 30
    monkeypatch.setattr(conv_shapes, "SHAPES", [(8, 16, 16, 3, 1, 16), (8, 16, 24, 1, 1, 1)])
    conv_shapes.main(str(tmp_path / "c.json"))
    result = json.loads((tmp_path / "c.json").read_text())
    depthwise, pointwise = result["shapes"]
    assert result["model"] == "mobilenetv2" and result["dtype"] == "bfloat16"
    assert depthwise["shape"]["groups"] == 16
    assert depthwise["flops"] == 2 * 2 * 8 * 8 * 16 * 1 * 9  # one input channel per group
    assert pointwise["flops"] == 2 * 2 * 8 * 8 * 24 * 16
    assert {"forward", "backward_input", "backward_filter"} <= set(depthwise)


def test_gemm_layouts_times_each_transposition_and_precision(scripts, tmp_path, monkeypatch):
    monkeypatch.setenv("SMALL", "1")
    import gemm_layouts

    gemm_layouts.main(str(tmp_path / "g.json"))
    cases = json.loads((tmp_path / "g.json").read_text())["cases"]
    assert {(c["dtype"], c["layout"]) for c in cases} == {
        (d, l) for d in ("bf16", "f32") for l in ("nn", "tn", "nt", "tt")}
    assert all(c["flops"] == 2 * 256 ** 3 and c["call_s"] > 0 for c in cases)
