"""XLA's GPU-only kernel rules and library custom calls on small hand-written modules: cuBLAS /
cuDNN calls costed as their kernels, Triton normalization fusions, select_and_scatter as
SelectAndScatterExpander runs it, cuBLAS reading dot operands as stored, large reductions split as
TreeReductionRewriter splits them, and kernel classes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hespas_py.estimators.base import get_estimator
from hespas_py.hardware import find_preset, load_hardware
from hespas_py.kernels import GpuRules, Kind, plan_kernels
from hespas_py.kernels.classes import kernel_class
from hespas_py.kernels.costs import op_work
from hespas_py.kernels.library_calls import library_call
from hespas_py.kernels.tree_reduction import partial_counts
from hespas_py.mlir.reader import load_module
from hespas_py.split.program import program_ops
from snippets import select_and_scatter

MiB = 1 << 20
ALL = GpuRules(triton_normalization=True, select_and_scatter_expansion=True,
               cublas_gemm_operands=True)


def module(tmp_path: Path, body: str, args: str, results: str) -> Path:
    path = tmp_path / "m.mlir"
    path.write_text(f"module @m {{\n  func.func public @main({args}) -> ({results}) {{\n{body}\n"
                    f"  }}\n}}\n")
    return path


def plan(path: Path, rules: GpuRules = GpuRules()):
    ops, returned = program_ops(load_module(path))
    return plan_kernels(ops, set(returned), rules=rules)


def backend_config(config: dict) -> str:
    """A custom call's backend_config attribute holding ``config`` as JSON text."""
    return json.dumps(json.dumps(config))


FMHA = {"cudnn_fmha_backend_config": {
    "intermediate_tensor_shape": {"dimensions": ["2", "8", "1024", "1024"]},
    "mask_type": "CAUSAL",
    "bmm1_dot_dimension_numbers": {"lhs_contracting_dimensions": ["3"]}}}
Q = "tensor<2x1024x8x128xbf16>"


def fmha_module(tmp_path: Path, config: dict = FMHA) -> Path:
    cfg = backend_config(config)
    return module(tmp_path, f"""
    %f:3 = stablehlo.custom_call @__cudnn$fmhaSoftmax(%q, %k, %v) {{backend_config = {cfg}}} : ({Q}, {Q}, {Q}) -> (tensor<2x8x1024x128xbf16>, tensor<2x8x1024xf32>, tensor<0xui8>)
    %b:4 = stablehlo.custom_call @__cudnn$fmhaSoftmaxBackward(%q, %k, %v, %f#1, %do, %f#0) {{backend_config = {cfg}}} : ({Q}, {Q}, {Q}, tensor<2x8x1024xf32>, {Q}, tensor<2x8x1024x128xbf16>) -> ({Q}, {Q}, {Q}, tensor<0xui8>)
    return %b#0 : {Q}""", f"%q: {Q}, %k: {Q}, %v: {Q}, %do: {Q}", Q)


def test_cudnn_flash_attention_calls_are_flash_kernels_at_the_attention_efficiencies(tmp_path):
    forward, backward = plan(fmha_module(tmp_path))
    causal_fwd = 4 * 2 * 8 * 1024 * 1024 * 128 * 0.5
    assert (forward.kind, forward.gemm_kind) == (Kind.ATTENTION, "flash_attention")
    assert (backward.kind, backward.gemm_kind) == (Kind.ATTENTION, "flash_attention_bwd")
    assert forward.tensor_flops == causal_fwd and backward.tensor_flops == 2.5 * causal_fwd
    assert forward.gemm_mnk == (2 * 8 * 1024, 128, 1024)
    assert not forward.fallback and not backward.fallback
    q = 2 * 1024 * 8 * 128 * 2
    assert forward.bytes == 4 * q + 2 * 8 * 1024 * 4  # q, k, v, O and the f32 logsumexp

    hardware = load_hardware("H100_80GB", "fused_roofline")
    estimator = get_estimator("fused_roofline", hardware)
    peak = hardware.per_dtype_flops["bf16"]
    waves = 128 / 132  # one thread block per 128 rows: 128 blocks on 132 SMs
    compute = causal_fwd / (peak * hardware.params.attention_efficiency * waves)
    assert estimator.kernel_cost(forward)[0] == pytest.approx(
        hardware.params.launch_overhead_s + compute
        + forward.bytes / (hardware.memory_bandwidth * 0.8) * 0.05, rel=1e-6)


def test_a_non_causal_fmha_without_config_reads_the_bshd_query(tmp_path):
    forward, _ = plan(fmha_module(tmp_path, {"cudnn_fmha_backend_config": {}}))
    assert forward.tensor_flops == 4 * 2 * 8 * 1024 * 1024 * 128


def test_cublas_and_cudnn_convolution_calls_cost_like_their_stablehlo_forms(tmp_path):
    gemm_cfg = backend_config({"gemm_backend_config": {"dot_dimension_numbers": {
        "lhs_contracting_dimensions": ["1"], "rhs_contracting_dimensions": ["0"]}}})
    path = module(tmp_path, f"""
    %g:2 = stablehlo.custom_call @__cublas$lt$matmul(%a, %b) {{backend_config = {gemm_cfg}}} : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> (tensor<256x1024xbf16>, tensor<1024xui8>)
    %y:2 = stablehlo.custom_call @__cudnn$convForward(%x, %w) : (tensor<8x32x32x64xf16>, tensor<128x3x3x64xf16>) -> (tensor<8x32x32x128xf16>, tensor<0xui8>)
    %dx:2 = stablehlo.custom_call @__cudnn$convBackwardInput(%y#0, %w) : (tensor<8x32x32x128xf16>, tensor<128x3x3x64xf16>) -> (tensor<8x32x32x64xf16>, tensor<0xui8>)
    %dw:2 = stablehlo.custom_call @__cudnn$convBackwardFilter(%x, %y#0) : (tensor<8x32x32x64xf16>, tensor<8x32x32x128xf16>) -> (tensor<128x3x3x64xf16>, tensor<0xui8>)
    return %g#0, %dx#0, %dw#0 : tensor<256x1024xbf16>, tensor<8x32x32x64xf16>, tensor<128x3x3x64xf16>""",
        "%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>, %x: tensor<8x32x32x64xf16>, "
        "%w: tensor<128x3x3x64xf16>",
        "tensor<256x1024xbf16>, tensor<8x32x32x64xf16>, tensor<128x3x3x64xf16>")
    gemm, fwd, bwd_in, bwd_filter = plan(path)
    assert (gemm.kind, gemm.gemm_kind, gemm.tensor_flops) == (Kind.GEMM, "dot", 2 * 256 * 1024 * 512)
    assert gemm.bytes == (256 * 512 + 512 * 1024 + 256 * 1024) * 2  # the u8 workspace left out
    conv = 2 * (8 * 32 * 32 * 128) * (3 * 3 * 64)  # output elements x taps x input features
    assert [k.gemm_kind for k in (fwd, bwd_in, bwd_filter)] == [
        "conv_forward", "conv_backward_input", "conv_backward_filter"]
    assert fwd.tensor_flops == bwd_in.tensor_flops == bwd_filter.tensor_flops == conv
    assert all(kernel_class(k) == k.gemm_kind for k in (fwd, bwd_in, bwd_filter))
    # The plain roofline counts them on the tensor unit too (no memory-bound fallback).
    work = op_work(load_module(path).ops[0])
    assert not work.fallback and work.flops[0][0] == "tensor"


def test_an_unknown_custom_call_keeps_the_fallback(tmp_path):
    path = module(tmp_path, """
    %0 = stablehlo.custom_call @my_kernel(%a, %a) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %0 : tensor<64xf32>""", "%a: tensor<64xf32>", "tensor<64xf32>")
    assert library_call(load_module(path).ops[0]) is None
    (kernel,) = plan(path)
    assert kernel.fallback


SOFTMAX = """
    %x = stablehlo.convert %s : (tensor<64x512x512xbf16>) -> tensor<64x512x512xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [2] : (tensor<64x512x512xf32>, tensor<f32>) -> tensor<64x512xf32>
    %m1 = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x1xf32>
    %mb = stablehlo.broadcast_in_dim %m1, dims = [0, 1, 2] : (tensor<64x512x1xf32>) -> tensor<64x512x512xf32>
    %d = stablehlo.subtract %x, %mb : tensor<64x512x512xf32>
    %e = stablehlo.exponential %d : tensor<64x512x512xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<64x512x512xf32>, tensor<f32>) -> tensor<64x512xf32>
    %sb = stablehlo.broadcast_in_dim %sum, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x512xf32>
    %p = stablehlo.divide %e, %sb : tensor<64x512x512xf32>
    %out = stablehlo.convert %p : (tensor<64x512x512xf32>) -> tensor<64x512x512xbf16>
    %y = stablehlo.dot_general %out, %v, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<64x512x512xbf16>, tensor<64x512x64xbf16>) -> tensor<64x512x64xbf16>
    return %y : tensor<64x512x64xbf16>"""
SCORES = 64 * 512 * 512 * 2  # bf16 bytes


def test_softmax_is_one_triton_kernel_reading_and_writing_the_scores_once(tmp_path):
    path = module(tmp_path, SOFTMAX, "%s: tensor<64x512x512xbf16>, %v: tensor<64x512x64xbf16>",
                  "tensor<64x512x64xbf16>")
    softmax, dot = plan(path, ALL)
    assert softmax.kind is Kind.REDUCTION and kernel_class(softmax) == "reduction"
    assert sum(op.short_name == "reduce" for op in softmax.ops) == 2
    assert softmax.bytes == 2 * SCORES  # bf16 scores in, bf16 probabilities out
    assert dot.bytes == SCORES + 2 * 64 * 512 * 64 * 2
    # Without the rule: a reduction kernel per statistic and the normalization apart, the
    # convert folded into the dot, which reads f32 probabilities.
    unfused = plan(path)
    assert len(unfused) == 4 and sum(k.bytes for k in unfused) - dot.bytes > 4 * SCORES


def test_a_row_too_long_for_one_thread_blocks_registers_is_not_fused(tmp_path):
    body = SOFTMAX.replace("64x512x512", "1x4x131072").replace("64x512x", "1x4x").replace(
        "64x512xf32", "1x4xf32")
    path = module(tmp_path, body.split("    %y =")[0] + "    return %out : tensor<1x4x131072xbf16>",
                  "%s: tensor<1x4x131072xbf16>", "tensor<1x4x131072xbf16>")
    assert len(plan(path, ALL)) > 1



SOFTMAX_BACKWARD = """
    %x = stablehlo.convert %s : (tensor<64x512x512xbf16>) -> tensor<64x512x512xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [2] : (tensor<64x512x512xf32>, tensor<f32>) -> tensor<64x512xf32>
    %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x512xf32>
    %d = stablehlo.subtract %x, %mb : tensor<64x512x512xf32>
    %e = stablehlo.exponential %d : tensor<64x512x512xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<64x512x512xf32>, tensor<f32>) -> tensor<64x512xf32>
    %sb = stablehlo.broadcast_in_dim %sum, dims = [0, 1] : (tensor<64x512xf32>) -> tensor<64x512x512xf32>
    %g = stablehlo.convert %dy : (tensor<64x512x512xbf16>) -> tensor<64x512x512xf32>
    %ge = stablehlo.multiply %g, %e : tensor<64x512x512xf32>
    %q = stablehlo.divide %ge, %sb : tensor<64x512x512xf32>
    %out = stablehlo.convert %q : (tensor<64x512x512xf32>) -> tensor<64x512x512xbf16>
    return %sum, %out : tensor<64x512xf32>, tensor<64x512x512xbf16>"""


def test_a_softmax_read_by_several_kernels_is_recomputed_in_each(tmp_path):
    """A remat'd softmax backward: ``exp(x - max)`` feeds the row sum and the gradient kernel.
    Each recomputes it from the bf16 scores (XLA's priority fusion of a Triton normalization
    fusion into all its consumers) instead of reading an f32 ``exp`` written once."""
    path = module(tmp_path, SOFTMAX_BACKWARD,
                  "%s: tensor<64x512x512xbf16>, %dy: tensor<64x512x512xbf16>",
                  "tensor<64x512xf32>, tensor<64x512x512xbf16>")
    kernels = plan(path, ALL)
    rows = 64 * 512 * 4  # the f32 row sums
    assert len(kernels) == 2
    assert all(kernel.kind is Kind.REDUCTION for kernel in kernels)
    assert all(sum(op.short_name == "exponential" for op in k.ops) == 1 for k in kernels)
    # scores into both kernels, the row sums out of one and into the other, dy in, gradient out
    assert sum(k.bytes for k in kernels) == 4 * SCORES + 2 * rows

SAS = "\n".join([
    "    %zero = stablehlo.constant dense<0.0> : tensor<f16>",
    select_and_scatter("%0", "%x", "%g", "%zero", "tensor<8x64x64x32xf16>",
                       "tensor<8x32x32x32xf16>", window=3,
                       padding="dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>"),
    "    return %0 : tensor<8x64x64x32xf16>"])


def test_select_and_scatter_runs_as_fill_reduce_window_and_scatter(tmp_path):
    path = module(tmp_path, SAS, "%x: tensor<8x64x64x32xf16>, %g: tensor<8x32x32x32xf16>",
                  "tensor<8x64x64x32xf16>")
    (whole,) = plan(path)
    fill, select, scatter = plan(path, ALL)
    assert [kernel_class(k) for k in (fill, select, scatter)] == ["copy", "reduce_window", "scatter"]
    operand, source = 8 * 64 * 64 * 32, 8 * 32 * 32 * 32
    assert fill.bytes == operand * 2
    assert select.bytes == operand * 2 + source * 2 + 4 * 4 * source  # values + 4 s32 indices
    assert scatter.bytes == 4 * 4 * source + source * 2 + 2 * source * 2
    assert select.flops == whole.flops and fill.flops == scatter.flops == 0
    assert sum(k.bytes for k in (fill, select, scatter)) > whole.bytes


def test_cublas_reads_dot_operands_as_stored(tmp_path):
    path = module(tmp_path, """
    %w16 = stablehlo.convert %w : (tensor<1024x1024xf32>) -> tensor<1024x1024xbf16>
    %y = stablehlo.dot_general %x, %w16, contracting_dims = [1] x [0] : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
    return %y : tensor<1024x1024xbf16>""", "%x: tensor<1024x1024xbf16>, %w: tensor<1024x1024xf32>",
                  "tensor<1024x1024xbf16>")
    (folded,) = plan(path)
    assert folded.bytes == (2 + 4 + 2) * MiB  # the GEMM reads the f32 weight
    convert, gemm = plan(path, ALL)
    assert convert.kind is Kind.LOOP and convert.bytes == (4 + 2) * MiB
    assert gemm.bytes == 3 * 2 * MiB


@pytest.mark.parametrize("preset,on", [("H100_80GB", True), ("A100_SXM_40GB", True),
                                       ("TPUv5p", False), ("TPUv6e", False)])
def test_gpu_rules_are_on_for_nvidia_presets_only(preset, on):
    params = find_preset(preset).every_key()
    for rule in ("triton_normalization", "select_and_scatter_expansion", "cublas_gemm_operands",
                 "cublas_operand_layouts"):
        assert bool(params.get(rule, False)) is on
        assert not on or params[f"{rule}_source"]


def test_kernel_classes_of_planned_kernels(tmp_path):
    path = module(tmp_path, """
    %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<256x256xf32>) -> tensor<256x256xf32>
    %1 = stablehlo.exponential %0 : tensor<256x256xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<256x256xf32>, tensor<f32>) -> tensor<256xf32>
    %3 = stablehlo.transpose %b, dims = [1, 0] : (tensor<256x256xf32>) -> tensor<256x256xf32>
    return %2, %3 : tensor<256xf32>, tensor<256x256xf32>""", "%a: tensor<256x256xf32>, %b: tensor<256x256xf32>",
                  "tensor<256xf32>, tensor<256x256xf32>")
    assert sorted(kernel_class(k) for k in plan(path)) == ["copy", "reduction"]


def test_scatter_kernels_run_at_the_scatter_efficiency(tmp_path):
    path = module(tmp_path, SAS, "%x: tensor<8x64x64x32xf16>, %g: tensor<8x32x32x32xf16>",
                  "tensor<8x64x64x32xf16>")
    fill, _, scatter = plan(path, ALL)
    hardware = load_hardware("H100_80GB", "fused_roofline")
    estimator = get_estimator("fused_roofline", hardware)
    launch = hardware.params.launch_overhead_s
    assert estimator.kernel_cost(scatter)[0] - launch == pytest.approx(
        scatter.bytes / (hardware.memory_bandwidth * hardware.params.scatter_efficiency))
    assert estimator.kernel_cost(fill)[0] - launch == pytest.approx(
        fill.bytes / (hardware.memory_bandwidth * hardware.params.memory_efficiency))


def _reduce_op(tmp_path: Path, shape: str, dims: str, result: str):
    path = module(tmp_path, f"""
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [{dims}] : (tensor<{shape}xf32>, tensor<f32>) -> tensor<{result}xf32>
    return %0 : tensor<{result}xf32>""", f"%x: tensor<{shape}xf32>", f"tensor<{result}xf32>")
    return path, next(op for op in program_ops(load_module(path))[0] if op.short_name == "reduce")


@pytest.mark.parametrize("shape, dims, result, partials", [
    ("256x112x112x64", "0, 1, 2", "64", [1024]),  # ResNet BatchNorm statistics: f32[1024,64]
    ("4096x128256", "1", "4096", [501]),          # LLaMA cross-entropy: f32[4096,501]
    ("4096x16384", "1", "4096", []),              # a row of 16,384 reduces race-free
    ("4096x64", "0", "64", []),                   # a column of 4,096 too
    ("8192x64", "0", "64", [64]),
])
def test_tree_reduction_splits_as_xla_does(tmp_path, shape, dims, result, partials):
    _, op = _reduce_op(tmp_path, shape, dims, result)
    assert partial_counts(op) == partials


def test_a_large_reduction_runs_as_partials_and_their_reduction(tmp_path):
    path, _ = _reduce_op(tmp_path, "256x112x112x64", "0, 1, 2", "64")
    (whole,) = plan(path)
    first, second = plan(path, GpuRules(tree_reduction=True))
    assert [kernel_class(k) for k in (first, second)] == ["reduction", "reduction"]
    assert first.bytes == whole.bytes + 1023 * 64 * 4  # 1,024 partials written, not one result
    assert second.bytes == (1024 + 1) * 64 * 4 and second.flops == 1024 * 64
    assert first.flops == whole.flops
