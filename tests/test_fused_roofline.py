"""The fusion model and the fused_roofline estimator on small hand-written modules."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from hespas_py.estimators.base import get_estimator
from hespas_py.hardware import Hardware, Params, load_hardware, preset_names
from hespas_py.kernels import Kind, plan_kernels
from hespas_py.kernels.rules import GpuRules
from hespas_py.mlir.reader import load_module
from hespas_py.split import split
from hespas_py.split.program import program_ops

MiB = 1 << 20
#: 512 x 512 f32 = 1 MiB; f16 = 0.5 MiB.
T = "tensor<512x512xf32>"
H = "tensor<512x512xf16>"
I32 = "tensor<i32>"


def module(tmp_path: Path, body: str, args: str, results: str, extra: str = "") -> Path:
    path = tmp_path / "m.mlir"
    path.write_text(f"module @m attributes {{mhlo.num_replicas = 4 : i32}} {{\n"
                    f"  func.func public @main({args}) -> ({results}) {{\n{body}\n  }}\n{extra}}}\n")
    return path


def kernels(path: Path):
    ops, returned = program_ops(load_module(path))
    return plan_kernels(ops, set(returned))


def test_elementwise_chain_is_one_kernel_reading_and_writing_once(tmp_path):
    path = module(tmp_path, f"""
    %0 = stablehlo.add %a, %b : {T}
    %1 = stablehlo.multiply %0, %a : {T}
    %2 = stablehlo.negate %1 : {T}
    %3 = stablehlo.convert %2 : ({T}) -> {H}
    return %3 : {H}""", f"%a: {T}, %b: {T}", H)
    (k,) = kernels(path)
    assert k.kind is Kind.LOOP
    assert k.bytes == 2 * MiB + MiB // 2  # a and b read once, the f16 result written once
    assert k.flops == 4 * 512 * 512


def test_broadcast_and_splat_constant_fuse_for_free(tmp_path):
    path = module(tmp_path, f"""
    %c = stablehlo.constant dense<2.0> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> {T}
    %1 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<512xf32>) -> {T}
    %2 = stablehlo.multiply %a, %0 : {T}
    %3 = stablehlo.add %2, %1 : {T}
    return %3 : {T}""", f"%a: {T}, %v: tensor<512xf32>", T)
    (k,) = kernels(path)
    assert k.bytes == 2 * MiB + 512 * 4


def test_epilogue_fuses_into_dot(tmp_path):
    path = module(tmp_path, f"""
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : ({T}, {T}) -> {T}
    %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<512xf32>) -> {T}
    %2 = stablehlo.add %0, %1 : {T}
    %c = stablehlo.constant dense<0.0> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> {T}
    %4 = stablehlo.maximum %2, %3 : {T}
    return %4 : {T}""", f"%x: {T}, %w: {T}, %bias: tensor<512xf32>", T)
    (k,) = kernels(path)
    assert k.kind is Kind.GEMM
    assert k.tensor_flops == 2 * 512 ** 3
    assert k.bytes == 3 * MiB + 512 * 4  # x, w, bias read; only the activation written
    assert k.gemm_mnk == (512, 512, 512)


def test_dot_result_used_twice_is_written_and_read(tmp_path):
    path = module(tmp_path, f"""
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : ({T}, {T}) -> {T}
    %1 = stablehlo.exponential %0 : {T}
    %2 = stablehlo.add %0, %1 : {T}
    return %2 : {T}""", f"%x: {T}, %w: {T}", T)
    gemm, loop = kernels(path)
    assert (gemm.kind, loop.kind) == (Kind.GEMM, Kind.LOOP)
    assert gemm.bytes == 3 * MiB  # x, w read, product written
    assert loop.bytes == 2 * MiB  # product read once (exp fused), sum written


def test_collective_breaks_fusion(tmp_path):
    path = module(tmp_path, f"""
    %0 = stablehlo.add %a, %a : {T}
    %1 = "stablehlo.all_reduce"(%0) <{{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}}> ({{
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }}) : ({T}) -> {T}
    %2 = stablehlo.multiply %1, %1 : {T}
    return %2 : {T}""", f"%a: {T}", T)
    before, after = kernels(path)
    assert before.bytes == after.bytes == 2 * MiB
    assert [op.short_name for op in before.ops] == ["add"]


_COLUMN_SUM = ("stablehlo.reduce({x} init: %z) applies stablehlo.add across dimensions = [0] : "
               f"({T}, tensor<f32>) -> tensor<512xf32>")
#: Column sums of %a (%0) and of %a * %a (%1): the statistics of a batch norm.
STATISTICS = f"""
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %sq = stablehlo.multiply %a, %a : {T}
    %0 = {_COLUMN_SUM.format(x="%a")}
    %1 = {_COLUMN_SUM.format(x="%sq")}"""


def test_sibling_reductions_share_one_read(tmp_path):
    path = module(tmp_path, STATISTICS + """
    return %0, %1 : tensor<512xf32>, tensor<512xf32>""", f"%a: {T}",
                  "tensor<512xf32>, tensor<512xf32>")
    (k,) = kernels(path)
    assert k.kind is Kind.REDUCTION
    assert k.bytes == MiB + 2 * 512 * 4


def test_batch_norm_statistics_share_one_read_and_normalize_stays_apart(tmp_path):
    # Synchronised batch norm: mean(a) and mean(a*a) feed an all_reduce whose result normalizes
    # a. The normalize kernel cannot merge with either reduction (it needs their finished
    # results), but the two reductions still merge with each other: one read of a.
    path = module(tmp_path, STATISTICS + f"""
    %r0 = stablehlo.reshape %0 : (tensor<512xf32>) -> tensor<1x512xf32>
    %r1 = stablehlo.reshape %1 : (tensor<512xf32>) -> tensor<1x512xf32>
    %2 = stablehlo.concatenate %r0, %r1, dim = 0 : (tensor<1x512xf32>, tensor<1x512xf32>) -> tensor<2x512xf32>
    %3 = "stablehlo.all_reduce"(%2) <{{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}}> ({{
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }}) : (tensor<2x512xf32>) -> tensor<2x512xf32>
    %4 = stablehlo.slice %3 [0:1, 0:512] : (tensor<2x512xf32>) -> tensor<1x512xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x512xf32>) -> tensor<512xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [1] : (tensor<512xf32>) -> {T}
    %7 = stablehlo.subtract %a, %6 : {T}
    return %7 : {T}""", f"%a: {T}", T)
    stats, concat, normalize = kernels(path)
    assert stats.kind is Kind.REDUCTION
    assert [op.short_name for op in stats.ops].count("reduce") == 2
    assert stats.bytes == MiB + 2 * 512 * 4  # a read once, both sums written
    assert [op.short_name for op in concat.ops] == ["concatenate"]
    assert normalize.kind is Kind.LOOP and normalize.bytes == 2 * MiB + 512 * 4  # a, mean row


CENTRE = """
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [{dim}] : ({T}, tensor<f32>) -> tensor<512xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [{kept}] : (tensor<512xf32>) -> {T}
    %2 = stablehlo.subtract %a, %1 : {T}
    return %2 : {T}"""


@pytest.mark.parametrize("dim, kept", [(0, 1), (1, 0)])
def test_kernel_using_a_reduction_result_never_merges_with_it(tmp_path, dim, kept):
    # sum(a) and a - sum(a) both read a, but the subtraction needs the finished sum.
    total, centred = kernels(module(tmp_path, CENTRE.format(dim=dim, kept=kept, T=T),
                                    f"%a: {T}", T))
    assert (total.kind, centred.kind) == (Kind.REDUCTION, Kind.LOOP)
    assert total.bytes == MiB + 512 * 4
    assert centred.bytes == 2 * MiB + 512 * 4


def test_mhlo_fusion_is_one_kernel(tmp_path):
    path = module(tmp_path, f"""
    %0 = "mhlo.fusion"(%a, %b) ({{
    ^bb0(%p: {T}, %q: {T}):
      %s = mhlo.add %p, %q : {T}
      %t = mhlo.multiply %s, %p : {T}
      mhlo.return %t : {T}
    }}) : ({T}, {T}) -> {T}
    %1 = "mhlo.fusion"(%0) ({{
    ^bb0(%p: {T}):
      %s = mhlo.negate %p : {T}
      mhlo.return %s : {T}
    }}) : ({T}) -> {T}
    return %1 : {T}""", f"%a: {T}, %b: {T}", T)
    first, second = kernels(path)
    assert first.kind is second.kind is Kind.FUSION
    assert first.bytes == 3 * MiB and second.bytes == 2 * MiB
    assert first.flops == 2 * 512 * 512


def test_while_repeats_its_body_kernels(tmp_path):
    path = module(tmp_path, f"""
    %i0 = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%i = %i0, %x = %a) : tensor<i32>, {T}
      cond {{
        %n = stablehlo.constant dense<5> : tensor<i32>
        %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %c : tensor<i1>
      }} do {{
        %one = stablehlo.constant dense<1> : tensor<i32>
        %j = stablehlo.add %i, %one : tensor<i32>
        %y = stablehlo.exponential %x : {T}
        stablehlo.return %j, %y : tensor<i32>, {T}
      }}
    return %0#1 : {T}""", f"%a: {T}", T)
    body = [k for k in kernels(path) if any(op.short_name == "exponential" for op in k.ops)]
    assert len(body) == 1 and body[0].count == 5 and body[0].bytes == 2 * MiB


HW = Hardware(name="test", peak_flops=1e12, per_dtype_flops={"f32": 1e12}, memory_bandwidth=1e12,
              vector_flops=1e12, params=Params(launch_overhead_s=5e-6, memory_efficiency=0.5,
                                               compute_memory_overlap=1.0))


def test_kernel_time_adds_launch_overhead_and_uses_achievable_bandwidth(tmp_path):
    path = module(tmp_path, f"""
    %0 = stablehlo.negate %a : {T}
    return %0 : {T}""", f"%a: {T}", T)
    estimator = get_estimator("fused_roofline", HW)
    block = next(b for b in split(load_module(path), "linear_split").blocks if not b.collective)
    estimate = estimator.estimate(block)
    # 2 MiB at 0.5 TB/s achievable; compute (0.26 us) fully hidden; 5 us launch.
    assert estimate.time_s == pytest.approx(5e-6 + 2 * MiB / 0.5e12)
    assert estimate.flops / (estimate.time_s * estimate.peak_flops) <= 1


def test_whole_step_plan_fuses_across_blocks(tmp_path):
    # exp(a) is consumed only after the all_reduce: fused with the consumer, never stored.
    path = module(tmp_path, f"""
    %e = stablehlo.exponential %a : {T}
    %1 = "stablehlo.all_reduce"(%b) <{{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}}> ({{
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }}) : ({T}) -> {T}
    %2 = stablehlo.multiply %1, %e : {T}
    return %2 : {T}""", f"%a: {T}, %b: {T}", T)
    graph = split(load_module(path), "linear_split")
    compute = [b for b in graph.blocks if not b.collective]
    alone = get_estimator("fused_roofline", HW)
    whole = get_estimator("fused_roofline", HW)
    whole.prepare(graph)
    per_block = [whole.estimate(b) for b in compute]
    assert sum(e.bytes for e in per_block) == 3 * MiB
    assert sum(alone.estimate(b).bytes for b in compute) == 5 * MiB
    assert whole.fingerprint() != alone.fingerprint()


def test_step_fingerprint_follows_content_not_path(tmp_path):
    def fingerprint(folder: str, shape: str) -> str:
        (tmp_path / folder).mkdir(exist_ok=True)
        path = module(tmp_path / folder, f"""
    %0 = stablehlo.exponential %a : {shape}
    return %0 : {shape}""", f"%a: {shape}", shape)
        estimator = get_estimator("fused_roofline", HW)
        estimator.prepare(split(load_module(path), "linear_split"))
        return estimator.fingerprint()

    # The same file edited: same op structure, other shapes, so another step.
    assert fingerprint("a", T) != fingerprint("a", "tensor<4x4xf32>")
    # Same content in another place: the same step.
    assert fingerprint("c", T) == fingerprint("d", T)


def test_every_node_preset_has_a_fused_config_with_sources(repo_dir):
    for name in preset_names():
        config = repo_dir / "configs" / "nodes" / name / "fused_roofline" / "config.json"
        hw = json.loads(config.read_text())["perf_estimator"]["hardware"]
        roofline = load_hardware(name, "roofline")
        fused = load_hardware(name, "fused_roofline")
        assert fused.memory_bandwidth == roofline.memory_bandwidth
        assert dict(fused.per_dtype_flops) == dict(roofline.per_dtype_flops)
        for key in ("memory_efficiency", "tensor_efficiency", "launch_overhead_s"):
            assert 0 < hw[key] <= 1 and hw[f"{key}_source"], (name, key)
    assert math.isclose(load_hardware("A100_SXM_40GB", "fused_roofline").params.tensor_efficiency,
                        267.9 / 312, rel_tol=1e-3)


def test_optimization_barrier_is_an_identity_its_reader_fuses_through(tmp_path):
    """A remat barrier passes its operands on unchanged (XLA expands it away before fusing): the
    kernel after it reads what went in, and a loop op before it fuses into that kernel."""
    path = module(tmp_path, f"""
    %0 = stablehlo.negate %a : {T}
    %1:2 = stablehlo.optimization_barrier %0, %b : {T}, {T}
    %2 = stablehlo.add %1#0, %1#1 : {T}
    return %2 : {T}""", f"%a: {T}, %b: {T}", T)
    (k,) = kernels(path)
    assert k.kind is Kind.LOOP
    assert k.bytes == 3 * MiB  # a and b read, the sum written


def test_dynamic_update_slice_is_written_in_place_by_the_kernel_of_its_update(tmp_path):
    """XLA's in-place dynamic-update-slice fusion: the update's loop producer and the DUS are one
    kernel that writes only the update into the aliased buffer (never reads or copies it)."""
    stack = "tensor<8x512x512xf32>"
    row = "tensor<1x512x512xf32>"
    path = module(tmp_path, f"""
    %0 = stablehlo.multiply %x, %x : {row}
    %1 = stablehlo.dynamic_update_slice %s, %0, %i, %z, %z
        : ({stack}, {row}, {I32}, {I32}, {I32}) -> {stack}
    return %1 : {stack}""", f"%s: {stack}, %x: {row}, %i: tensor<i32>, %z: tensor<i32>", stack)
    (k,) = kernels(path)
    assert k.kind is Kind.LOOP
    assert [op.short_name for op in k.ops] == ["multiply", "dynamic_update_slice"]
    assert k.bytes == MiB + 8 + MiB  # x and two i32 indices read; the 1 MiB update written


def test_dynamic_update_slice_of_a_library_result_is_a_kernel_of_its_own(tmp_path):
    """A DUS never fuses into its consumers, and a dot's result reaches it through memory."""
    stack = "tensor<8x512x512xf32>"
    path = module(tmp_path, f"""
    %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({T}, {T}) -> {T}
    %1 = stablehlo.reshape %0 : ({T}) -> tensor<1x512x512xf32>
    %2 = stablehlo.dynamic_update_slice %s, %1, %i, %i, %i
        : ({stack}, tensor<1x512x512xf32>, {I32}, {I32}, {I32}) -> {stack}
    %3 = stablehlo.negate %2 : {stack}
    return %3 : {stack}""", f"%s: {stack}, %a: {T}, %b: {T}, %i: tensor<i32>", stack)
    dot, update, negate = kernels(path)
    assert (dot.kind, update.kind, negate.kind) == (Kind.GEMM, Kind.LOOP, Kind.LOOP)
    assert update.bytes == MiB + 4 + MiB  # the dot's result and one index read, the update written
    assert negate.bytes == 2 * 8 * MiB


def test_a_leading_dynamic_slice_is_read_in_place_by_every_dot_it_feeds(tmp_path):
    """A scan's per-layer slice of stacked weights (only the major-most dimension cut) fuses into
    each Triton GEMM that reads it, as XLA's GemmFusion does; a slice of an inner dimension does
    not, and is a kernel of its own."""
    stack = "tensor<8x512x512xf32>"
    path = module(tmp_path, f"""
    %w = stablehlo.dynamic_slice %s, %i, %z, %z, sizes = [1, 512, 512]
        : ({stack}, {I32}, {I32}, {I32}) -> tensor<1x512x512xf32>
    %r = stablehlo.reshape %w : (tensor<1x512x512xf32>) -> {T}
    %0 = stablehlo.dot_general %a, %r, contracting_dims = [1] x [0] : ({T}, {T}) -> {T}
    %1 = stablehlo.dot_general %b, %r, contracting_dims = [1] x [0] : ({T}, {T}) -> {T}
    %c = stablehlo.dynamic_slice %s, %z, %i, %z, sizes = [8, 64, 512]
        : ({stack}, {I32}, {I32}, {I32}) -> tensor<8x64x512xf32>
    return %0, %1, %c : {T}, {T}, tensor<8x64x512xf32>""",
                  f"%s: {stack}, %a: {T}, %b: {T}, %i: {I32}, %z: {I32}",
                  f"{T}, {T}, tensor<8x64x512xf32>")
    gemms = [k for k in kernels(path) if k.kind is Kind.GEMM]
    assert [[op.short_name for op in k.ops] for k in gemms] == [["dynamic_slice", "dot_general"]] * 2
    assert all(k.bytes == 3 * MiB + 8 for k in gemms)  # the 1 MiB slice, an operand, the result
    (inner,) = [k for k in kernels(path) if k.kind is not Kind.GEMM]
    assert [op.short_name for op in inner.ops] == ["dynamic_slice"]


RELU_BACKWARD = f"""
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %zh = stablehlo.constant dense<0.0> : tensor<f16>
    %xf = stablehlo.convert %x : ({H}) -> {T}
    %mb = stablehlo.broadcast_in_dim %m, dims = [1] : (tensor<512xf32>) -> {T}
    %n = stablehlo.subtract %xf, %mb : {T}
    %nh = stablehlo.convert %n : ({T}) -> {H}
    %c = stablehlo.compare GT, %nh, %t : ({H}, {H}) -> tensor<512x512xi1>
    %zb = stablehlo.broadcast_in_dim %zh, dims = [] : (tensor<f16>) -> {H}
    %s = stablehlo.select %c, %dy, %zb : tensor<512x512xi1>, {H}
    %sf = stablehlo.convert %s : ({H}) -> {T}
    %r0 = stablehlo.reduce(%sf init: %zero) applies stablehlo.add across dimensions = [0] : ({T}, tensor<f32>) -> tensor<512xf32>
    %r1 = stablehlo.reduce(%sf init: %zero) applies stablehlo.add across dimensions = [1] : ({T}, tensor<f32>) -> tensor<512xf32>
    %rb = stablehlo.broadcast_in_dim %r0, dims = [1] : (tensor<512xf32>) -> {T}
    %d = stablehlo.add %sf, %rb : {T}
    return %r0, %r1, %d : tensor<512xf32>, tensor<512xf32>, {T}"""


def test_a_producer_is_duplicated_only_when_its_whole_operand_cone_pays(tmp_path):
    """A ReLU backward ``select`` whose mask comes from a recomputed normalization: recomputing
    it in its three consumer kernels reads the conv output, the compared tensor and the
    gradient in each (XLA fuses the single-consumer chain into the select first), more than
    writing the select once and reading it back, so it is computed by one kernel only; judged
    on its own operands (a 1-byte mask and the gradient) it would look cheap to duplicate."""
    path = module(tmp_path, RELU_BACKWARD, f"%x: {H}, %t: {H}, %dy: {H}, %m: tensor<512xf32>",
                  f"tensor<512xf32>, tensor<512xf32>, {T}")
    ops, returned = program_ops(load_module(path))
    planned = plan_kernels(ops, set(returned), rules=GpuRules(duplication_cone=True))
    assert sum(op.short_name == "select" for k in planned for op in k.ops) == 1
    assert sum(op.short_name == "compare" for k in planned for op in k.ops) == 1
    alone = plan_kernels(ops, set(returned))  # without the rule: recomputed in each consumer
    assert sum(op.short_name == "select" for k in alone for op in k.ops) == 2
