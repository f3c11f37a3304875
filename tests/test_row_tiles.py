"""Triton row kernels whose tile spans one query row of several heads (`fusion.row_tiles`)."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.estimators.base import get_estimator
from hespas_py.hardware import find_preset, load_hardware, parse_params, preset_names
from hespas_py.kernels import GpuRules, Kind, plan_kernels
from hespas_py.kernels.row_tiles import GIVEN_SUM, REGISTER_TILE, ROW_SUM, SOFTMAX
from hespas_py.mlir.reader import load_module
from hespas_py.split.program import program_ops

RULES = GpuRules(triton_normalization=True)


def scores_module(tmp_path: Path, heads: int, seq: int, result: str, masked: bool = True,
                  unit_head_dim: bool = False) -> Path:
    """``[heads, seq, seq]`` bf16 scores, causally masked (an iota compare ``[seq, seq]``
    broadcast over the heads; with ``unit_head_dim`` reshaped to ``[1, seq, seq]`` first), then
    ``result``: ``softmax`` (probabilities), ``row_sum`` (the row sums of ``exp(x - max)``) or
    ``given_sum`` (probabilities from a saved sum ``%t``)."""
    s = f"{heads}x{seq}x{seq}"
    row = f"{heads}x{seq}"
    square = f"tensor<{seq}x{seq}xi1>"
    broadcast = (f"""%c1 = stablehlo.reshape %c : ({square}) -> tensor<1x{seq}x{seq}xi1>
    %cb = stablehlo.broadcast_in_dim %c1, dims = [0, 1, 2] : (tensor<1x{seq}x{seq}xi1>) -> tensor<{s}xi1>"""
                 if unit_head_dim else
                 f"%cb = stablehlo.broadcast_in_dim %c, dims = [1, 2] : ({square}) -> tensor<{s}xi1>")
    mask = f"""
    %i = stablehlo.iota dim = 0 : tensor<{seq}x{seq}xi32>
    %j = stablehlo.iota dim = 1 : tensor<{seq}x{seq}xi32>
    %c = stablehlo.compare GE, %i, %j : (tensor<{seq}x{seq}xi32>, tensor<{seq}x{seq}xi32>) -> {square}
    {broadcast}
    %lo = stablehlo.constant dense<-1.0e30> : tensor<{s}xf32>
    %x = stablehlo.select %cb, %x0, %lo : tensor<{s}xi1>, tensor<{s}xf32>""" if masked else """
    %x = stablehlo.add %x0, %x0 : tensor<{s}xf32>""".replace("{s}", s)
    body = f"""
    %x0 = stablehlo.convert %a : (tensor<{s}xbf16>) -> tensor<{s}xf32>{mask}
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [2] : (tensor<{s}xf32>, tensor<f32>) -> tensor<{row}xf32>
    %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<{row}xf32>) -> tensor<{s}xf32>
    %d = stablehlo.subtract %x, %mb : tensor<{s}xf32>
    %e = stablehlo.exponential %d : tensor<{s}xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>"""
    if result == "row_sum":
        body += f"""
    %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<{s}xf32>, tensor<f32>) -> tensor<{row}xf32>
    return %sum : tensor<{row}xf32>"""
        out = f"tensor<{row}xf32>"
    else:
        total = "%t" if result == "given_sum" else "%sum"
        if result == "softmax":
            body += f"""
    %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<{s}xf32>, tensor<f32>) -> tensor<{row}xf32>"""
        body += f"""
    %sb = stablehlo.broadcast_in_dim {total}, dims = [0, 1] : (tensor<{row}xf32>) -> tensor<{s}xf32>
    %p = stablehlo.divide %e, %sb : tensor<{s}xf32>
    %out = stablehlo.convert %p : (tensor<{s}xf32>) -> tensor<{s}xbf16>
    return %out : tensor<{s}xbf16>"""
        out = f"tensor<{s}xbf16>"
    path = tmp_path / f"scores_{heads}_{seq}_{result}_{masked}_{unit_head_dim}.mlir"
    path.write_text(f"module @m {{\n  func.func public @main(%a: tensor<{s}xbf16>, "
                    f"%t: tensor<{row}xf32>) -> {out} {{{body}\n  }}\n}}\n")
    return path


def row_kernel(path: Path, rules: GpuRules = RULES):
    ops, returned = program_ops(load_module(path))
    (kernel,) = [k for k in plan_kernels(ops, set(returned), rules=rules)
                 if k.kind is Kind.REDUCTION]
    return kernel


@pytest.mark.parametrize("heads,seq,spanned", [
    (32, 4096, 4), (12, 4096, 4), (4, 4096, 4), (32, 2048, 8), (32, 1024, 16)])
def test_a_mask_shared_by_heads_makes_xla_span_heads_up_to_the_register_tile(
        tmp_path, heads, seq, spanned):
    """The tiles XLA chose for these shapes on an H100 (`row_kernels*.json`): [4,1,4096],
    [8,1,2048], [16,1,1024]: one query row of as many heads as 16,384 elements allow."""
    assert REGISTER_TILE == 16384
    kernel = row_kernel(scores_module(tmp_path, heads, seq, "softmax"))
    assert kernel.row_tiles == (SOFTMAX, heads * seq // spanned)


@pytest.mark.parametrize("heads", [1, 2, 6, 9, 10])
def test_heads_that_a_full_tile_would_pad_keep_query_rows_in_the_tile(tmp_path, heads):
    """9 heads: [1,1,4096]; 2, 6, 10 heads: [2,2,4096] (measured at the stream rate)."""
    assert row_kernel(scores_module(tmp_path, heads, 4096, "softmax")).row_tiles is None


def test_a_mask_with_a_unit_head_dimension_is_shared_by_the_heads_too(tmp_path):
    kernel = row_kernel(scores_module(tmp_path, 32, 4096, "softmax", unit_head_dim=True))
    assert kernel.row_tiles == (SOFTMAX, 32 * 4096 // 4)


def test_without_a_mask_every_tiling_costs_alike_and_keeps_one_row(tmp_path):
    path = scores_module(tmp_path, 32, 4096, "softmax", masked=False)
    assert row_kernel(path).row_tiles is None


@pytest.mark.parametrize("result,kind", [
    ("softmax", SOFTMAX), ("row_sum", ROW_SUM), ("given_sum", GIVEN_SUM)])
def test_the_class_is_what_the_kernel_computes_after_its_row_reductions(tmp_path, result, kind):
    kernel = row_kernel(scores_module(tmp_path, 32, 4096, result))
    assert kernel.row_tiles == (kind, 32 * 4096 // 4)


def test_a_vector_broadcast_along_query_rows_too_does_not_span_heads(tmp_path):
    """A layer norm's scale ``[d]`` over ``[batch, seq, d]``: every tiling reads it alike."""
    shape, rows = "4x2048x4096", "4x2048"
    path = tmp_path / "norm.mlir"
    path.write_text(f"""module @m {{
  func.func public @main(%a: tensor<{shape}xf32>, %w: tensor<4096xf32>) -> tensor<{shape}xf32> {{
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<{shape}xf32>, tensor<f32>) -> tensor<{rows}xf32>
    %sb = stablehlo.broadcast_in_dim %sum, dims = [0, 1] : (tensor<{rows}xf32>) -> tensor<{shape}xf32>
    %c = stablehlo.subtract %a, %sb : tensor<{shape}xf32>
    %wb = stablehlo.broadcast_in_dim %w, dims = [2] : (tensor<4096xf32>) -> tensor<{shape}xf32>
    %y = stablehlo.multiply %c, %wb : tensor<{shape}xf32>
    return %y : tensor<{shape}xf32>
  }}
}}
""")
    assert row_kernel(path).row_tiles is None


def test_off_without_the_triton_normalization_rule(tmp_path):
    path = scores_module(tmp_path, 32, 4096, "softmax")
    ops, returned = program_ops(load_module(path))
    assert all(k.row_tiles is None for k in plan_kernels(ops, set(returned)))


def test_each_wave_of_spanning_tiles_adds_the_presets_latency(tmp_path):
    kernel = row_kernel(scores_module(tmp_path, 32, 4096, "softmax"))
    hardware = load_hardware("H100_80GB", "fused_roofline")
    estimator = get_estimator("fused_roofline", hardware)
    without = dataclasses.replace(kernel, row_tiles=None)
    waves = math.ceil(32 * 4096 / 4 / hardware.params.num_cores)
    latency = hardware.params.spanning_row_tile_s[SOFTMAX]
    assert estimator.kernel_cost(kernel)[0] - estimator.kernel_cost(without)[0] == \
        pytest.approx(waves * latency)
    # a preset without the measurement (A100) keeps the stream time
    a100 = get_estimator("fused_roofline", load_hardware("A100_SXM_40GB", "fused_roofline"))
    assert a100.kernel_cost(kernel)[0] == a100.kernel_cost(without)[0]


def test_the_latencies_are_checked_by_class_name():
    params = parse_params(['spanning_row_tile_s={"softmax": 4e-6}'], "fused_roofline")
    assert params["spanning_row_tile_s"] == {SOFTMAX: 4e-6}
    with pytest.raises(HespasError, match="keys among softmax, row_sum, given_sum"):
        parse_params(['spanning_row_tile_s={"flash": 4e-6}'], "fused_roofline")
    with pytest.raises(HespasError, match="spanning_row_tile_s"):
        parse_params(['spanning_row_tile_s={"softmax": -1}'], "fused_roofline")


def test_only_presets_of_measured_chips_carry_the_latencies_each_with_its_measurement():
    carrying = {}
    for name in preset_names():
        params = find_preset(name).every_key()
        if "spanning_row_tile_s" in params:
            carrying[name] = params["spanning_row_tile_s_source"]
    assert set(carrying) == {"H100_80GB", "H100_SXM_80GB", "H200_141GB"}
    assert "row_kernels_h200.json" in carrying["H200_141GB"]
    assert all("row_kernels.json" in carrying[name] for name in ("H100_80GB", "H100_SXM_80GB"))
