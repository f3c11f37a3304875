"""Costs of ops read from real MLIR text (through the reader), and of the shared ResNet-50 step."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from hespas_py.estimators import get_estimator
from hespas_py.hardware import load_hardware
from hespas_py.kernels.costs import op_work
from hespas_py.split.blocks import Block

reader = pytest.importorskip("hespas_py.mlir.reader")

# jax.jit(lax.conv_general_dilated(..., padding 1, ("NCHW", "OIHW", "NCHW"),
# feature_group_count=2)).lower(...).as_text()
GROUPED_NCHW_CONV = """
module @jit_conv attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4x8x8xf32>, %arg1: tensor<6x2x3x3xf32>) -> (tensor<2x6x8x8xf32>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x8x8xf32>
    return %0 : tensor<2x6x8x8xf32>
  }
}
"""

# jax.jit(lambda x: lax.fori_loop(0, 7, lambda i, v: v * 2.0 + 1.0, x)).lower(f32[16]).as_text()
FORI_LOOP = """
module @jit_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>) -> (tensor<16xf32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<16xf32>
    cond {
      %c_1 = stablehlo.constant dense<7> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = func.call @closed_call(%iterArg_0) : (tensor<16xf32>) -> tensor<16xf32>
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      stablehlo.return %2, %1 : tensor<i32>, tensor<16xf32>
    }
    return %0#1 : tensor<16xf32>
  }
  func.func private @closed_call(%arg0: tensor<16xf32>) -> tensor<16xf32> {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<16xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %3 = stablehlo.add %1, %2 : tensor<16xf32>
    return %3 : tensor<16xf32>
  }
}
"""

BATCHED_DOT_AND_FUSION = """
module @m {
  func.func @main(%a: tensor<3x4x5xbf16>, %b: tensor<3x5x6xbf16>, %c: tensor<10xf32>) -> tensor<2x5xf32> {
    %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x4x5xbf16>, tensor<3x5x6xbf16>) -> tensor<3x4x6xbf16>
    %1 = "mhlo.fusion"(%c, %c) ({
    ^bb0(%x: tensor<10xf32>, %y: tensor<10xf32>):
      %2 = mhlo.multiply %x, %y : tensor<10xf32>
      %3 = mhlo.add %2, %y : tensor<10xf32>
      mhlo.return %3 : tensor<10xf32>
    }) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %4 = mhlo.bitcast %1 : (tensor<10xf32>) -> tensor<2x5xf32>
    %5 = "foo.mystery"(%4) : (tensor<2x5xf32>) -> tensor<2x5xf32>
    return %5 : tensor<2x5xf32>
  }
}
"""


def works(tmp_path: Path, text: str) -> dict[str, object]:
    path = tmp_path / "m.mlir"
    path.write_text(text)
    return {op.name: op_work(op) for op in reader.load_module(path).ops}


def test_grouped_nchw_convolution_from_mlir(tmp_path: Path) -> None:
    w = works(tmp_path, GROUPED_NCHW_CONV)["stablehlo.convolution"]
    # 2 x (batch 2 x 6 out features) x 2 in features per group x (8*3-2)^2 valid taps
    assert w.total_flops == 2 * 12 * 2 * 22 * 22
    assert w.bytes == 4 * (512 + 108 + 768)


def test_fori_loop_from_mlir(tmp_path: Path) -> None:
    w = works(tmp_path, FORI_LOOP)["stablehlo.while"]
    # 7 iterations x (compare + counter add on i32, multiply + add on 16 f32)
    assert w.flops == (("vector", "i32", 14.0), ("vector", "f32", 224.0))
    # per iteration: compare 9 B, two broadcasts 2x68 B, multiply and add 2x192 B, counter 12 B
    assert w.bytes == 7 * (9 + 136 + 384 + 12)
    assert w.notes == ()


def test_batched_dot_fusion_bitcast_unknown_from_mlir(tmp_path: Path) -> None:
    w = works(tmp_path, BATCHED_DOT_AND_FUSION)
    assert w["stablehlo.dot_general"].total_flops == 2 * 3 * 4 * 6 * 5
    assert (w["mhlo.fusion"].total_flops, w["mhlo.fusion"].bytes) == (20, 120)
    assert w["mhlo.bitcast"].bytes == 0
    assert w["foo.mystery"].fallback and w["foo.mystery"].bytes == 80


def test_resnet50_step_totals(shared_dir: Path) -> None:
    module = reader.load_module(shared_dir / "workloads" / "resnet50_train_4dev_pmap.mlir")
    compute = tuple(op for op in module.ops if op.short_name != "all_reduce")
    est = get_estimator("roofline", load_hardware("A100_SXM_40GB")).estimate(
        Block(id=0, ops=compute, deps=(), collective=False))
    assert est.flops == 6079263612796.0  # Hespas: 7.755e12, of which 1.675e12 is DEFECT 2
    assert est.bytes == 708522249914.0
    assert est.time_s == pytest.approx(0.46185, rel=1e-4)
    assert est.fallback_ops == ()
    conv = defaultdict(float)
    for op in compute:
        if op.short_name == "convolution":
            numbers = op.attrs["dimension_numbers"]
            conv[numbers["kernel_input_feature_dimension"]] += op_work(op).total_flops
    forward, weight_grad = conv[2], conv[0]  # [0,1,i,o] forward, [i,0,1,o] weight gradient
    assert forward == weight_grad == 2020456398848.0
