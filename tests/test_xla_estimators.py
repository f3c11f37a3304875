"""Block extraction and the estimators that hand blocks to XLA (tiny blocks, XLA:CPU)."""

from __future__ import annotations

import math

import pytest

from hespas_py.errors import HespasError
from hespas_py.estimate.base import Hardware, get_estimator
from hespas_py.estimate.xla_profile import robust_median
from hespas_py.mlir.bindings import ir, make_context
from hespas_py.mlir.extract import BlockExtractor
from hespas_py.mlir.reader import load_module
from hespas_py.split import split

# dot (64x32 @ 32x16), then a call and an all_reduce; the first compute block is dot+exp+call.
MODULE = """module @m attributes {mhlo.num_replicas = 2 : i32} {
  func.func public @main(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
    %1 = stablehlo.exponential %0 : tensor<64x16xf32>
    %2 = call @twice(%1) : (tensor<64x16xf32>) -> tensor<64x16xf32>
    %3 = "stablehlo.all_reduce"(%2) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<64x16xf32>) -> tensor<64x16xf32>
    %4 = stablehlo.add %3, %0 : tensor<64x16xf32>
    return %4 : tensor<64x16xf32>
  }
  func.func private @twice(%x: tensor<64x16xf32>) -> tensor<64x16xf32> {
    %0 = stablehlo.add %x, %x : tensor<64x16xf32>
    return %0 : tensor<64x16xf32>
  }
}
"""
HW = Hardware("test", peak_flops=1e12, per_dtype_flops={"f32": 1e12}, memory_bandwidth=1e11,
              vector_flops=1e12, params={"repeats": 3, "warmup": 1})


@pytest.fixture()
def source(tmp_path):
    path = tmp_path / "m.mlir"
    path.write_text(MODULE)
    return path


def step(path):
    return split(load_module(path), "linear_split")


def compute_blocks(path):
    return [b for b in step(path).blocks if not b.collective]


def test_extracted_block_parses_with_the_block_signature(source):
    first, second = compute_blocks(source)
    text = BlockExtractor(source).extract(first.ops)
    with make_context():
        module = ir.Module.parse(text)
        names = [ir.StringAttr(op.attributes["sym_name"]).value for op in module.body.operations]
        main = module.body.operations[0]
        signature = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
        assert names == ["main", "twice"]
        assert [str(t) for t in signature.inputs] == ["tensor<64x32xf32>", "tensor<32x16xf32>"]
        # The call result feeds the all_reduce, the dot result the final add: both leave.
        assert [str(t) for t in signature.results] == ["tensor<64x16xf32>"] * 2
    text = BlockExtractor(source).extract(second.ops)
    assert "stablehlo.add" in text and "dot_general" not in text


def test_xla_cost_counts_2mnk_for_a_dot(source):
    estimator = get_estimator("xla_cost", HW)
    estimator.prepare(step(source))
    analysis = estimator.analysis(compute_blocks(source)[0])
    dot_flops = 2 * 64 * 16 * 32
    assert dot_flops <= analysis["flops"] <= dot_flops + 3 * 64 * 16
    estimate = estimator.estimate(compute_blocks(source)[0])
    assert math.isfinite(estimate.time_s) and estimate.time_s > 0
    assert not estimate.notes


def test_xla_profile_times_a_block(source):
    estimator = get_estimator("xla_profile", HW)
    estimator.prepare(step(source))
    estimate = estimator.estimate(compute_blocks(source)[0])
    assert math.isfinite(estimate.time_s) and 0 < estimate.time_s < 1
    assert not estimate.notes
    assert estimate.flops / (estimate.time_s * estimate.peak_flops) <= 1


def test_without_source_they_fall_back_to_roofline_and_say_so(source):
    estimator = get_estimator("xla_cost", HW)
    estimate = estimator.estimate(compute_blocks(source)[0])
    assert estimate.time_s > 0
    assert any("fell back to roofline" in note for note in estimate.notes)


def test_op_missing_from_the_source_is_an_error(source, tmp_path):
    other = tmp_path / "other.mlir"
    other.write_text(MODULE.replace("stablehlo.exponential", "stablehlo.negate"))
    with pytest.raises(HespasError, match="not found"):
        BlockExtractor(other).extract(compute_blocks(source)[0].ops)


def test_robust_median_drops_outliers():
    assert robust_median([1.0, 1.1, 0.9, 1.0, 50.0]) == pytest.approx(1.0)
