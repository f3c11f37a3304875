"""Block extraction and the estimators that hand blocks to XLA (tiny blocks, XLA:CPU)."""

from __future__ import annotations

import math

import pytest

from hespas_py.errors import HespasError
from hespas_py.estimators.base import get_estimator
from hespas_py.estimators.xla_profile import index_bounds, robust_median
from hespas_py.hardware import Hardware, Params
from hespas_py.mlir.bindings import ir, make_context
from hespas_py.mlir.extract import BlockExtractor, block_inputs
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
HW = Hardware(name="test", peak_flops=1e12, per_dtype_flops={"f32": 1e12}, memory_bandwidth=1e11,
              vector_flops=1e12, params=Params(repeats=3, warmup=1))


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


def test_xla_profile_back_to_back_times_a_run_of_the_block(source):
    hardware = Hardware(name="test", peak_flops=1e12, per_dtype_flops={"f32": 1e12},
                        memory_bandwidth=1e11, vector_flops=1e12,
                        params=Params(repeats=4, warmup=1, back_to_back=True))
    estimator = get_estimator("xla_profile", hardware)
    estimator.prepare(step(source))
    time_s = estimator.estimate(compute_blocks(source)[0]).time_s
    assert math.isfinite(time_s) and 0 < time_s < 1


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


# Token ids through jnp.take's wrap of negative ids (in a called function), a gather of the
# embedding rows, and a scatter of row gradients; %n is an integer no gather or scatter reads.
INDEXED = """module @m {
  func.func public @main(%table: tensor<1000x8xf32>, %ids: tensor<16xi32>, %rows: tensor<16x8xf32>, %n: tensor<16xi32>) -> (tensor<16x8xf32>, tensor<1000x8xf32>, tensor<16xi32>) {
    %w = call @wrap(%ids) : (tensor<16xi32>) -> tensor<16xi32>
    %i = stablehlo.reshape %w : (tensor<16xi32>) -> tensor<16x1xi32>
    %g = "stablehlo.gather"(%table, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<1000x8xf32>, tensor<16x1xi32>) -> tensor<16x8xf32>
    %z = stablehlo.constant dense<0.0> : tensor<1000x8xf32>
    %s = "stablehlo.scatter"(%z, %i, %rows) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<1000x8xf32>, tensor<16x1xi32>, tensor<16x8xf32>) -> tensor<1000x8xf32>
    %m = stablehlo.multiply %n, %n : tensor<16xi32>
    return %g, %s, %m : tensor<16x8xf32>, tensor<1000x8xf32>, tensor<16xi32>
  }
  func.func private @wrap(%x: tensor<16xi32>) -> tensor<16xi32> {
    %c = stablehlo.constant dense<1000> : tensor<16xi32>
    %zero = stablehlo.constant dense<0> : tensor<16xi32>
    %neg = stablehlo.compare LT, %x, %zero : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %up = stablehlo.add %x, %c : tensor<16xi32>
    %y = stablehlo.select %neg, %up, %x : tensor<16xi1>, tensor<16xi32>
    return %y : tensor<16xi32>
  }
}
"""


def test_gather_and_scatter_indices_are_bounded_by_the_dimension_they_index(tmp_path):
    path = tmp_path / "indexed.mlir"
    path.write_text(INDEXED)
    (block,) = compute_blocks(path)
    ids, table, rows, n = block_inputs(block.ops)  # in order of first use
    bounds = index_bounds(block.ops)
    assert bounds.get(ids) == 1000  # through the call's select and add, then the reshape
    assert n not in bounds and table not in bounds and rows not in bounds


def test_xla_profile_feeds_spread_ids_and_zeros_elsewhere(tmp_path, monkeypatch):
    import hespas_py.estimators.xla_profile as xla_profile

    path = tmp_path / "indexed.mlir"
    path.write_text(INDEXED)
    fed = []
    original = xla_profile._buffer
    monkeypatch.setattr(xla_profile, "_buffer",
                        lambda *args: fed.append(original(*args)) or fed[-1])
    estimator = get_estimator("xla_profile", HW)
    estimator.prepare(step(path))
    assert estimator.estimate(compute_blocks(path)[0]).time_s > 0
    ids, n = fed[0], fed[3]  # `block_inputs` order
    assert ids.min() >= 0 and ids.max() < 1000 and len(set(ids.tolist())) > 8
    assert not n.any()
