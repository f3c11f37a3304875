"""cuDNN convolution rules of the fusion model: the call kind XLA picks, which convolutions take
an epilogue, channel padding for tensor cores, the measured rate of convolutions with few
channels, and the split-K choice of wave quantization."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.estimators.base import get_estimator
from hespas_py.hardware import Hardware, Params, load_hardware
from hespas_py.kernels import (
    CONV_BACKWARD_FILTER,
    CONV_BACKWARD_INPUT,
    CONV_FORWARD,
    GpuRules,
    Kind,
    conv_channel_padding,
    plan_kernels,
)
from hespas_py.kernels.classes import kernel_class
from hespas_py.kernels.convolution import channel_efficiency
from hespas_py.mlir.reader import load_module
from hespas_py.split.program import program_ops

NHWC = "[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]"
#: JAX's weight-gradient layout: the activation's channels act as the batch, its batch is summed.
WGRAD = "[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]"
PAD1 = "stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]"
GROUPS = "{batch_group_count = 1 : i64, feature_group_count = 1 : i64}"
X = "tensor<8x16x16x64xf16>"      # activation: N=8, 16x16, C=64
DY = "tensor<8x16x16x32xf16>"     # its gradient after a 64 -> 32 channel 3x3 convolution
W = "tensor<3x3x64x32xf16>"


def conv(result: str, lhs: str, rhs: str, numbers: str, types: str, window: str = PAD1) -> str:
    return (f"%{result} = stablehlo.convolution(%{lhs}, %{rhs}) dim_numbers = {numbers}, "
            f"window = {{{window}}} {GROUPS} : {types}")


def plan(tmp_path: Path, body: str, args: str, results: str, rules: GpuRules = GpuRules()):
    path = tmp_path / "m.mlir"
    path.write_text(f"module @m {{\n  func.func public @main({args}) -> ({results}) {{\n"
                    f"{body}\n  }}\n}}\n")
    ops, returned = program_ops(load_module(path))
    return plan_kernels(ops, set(returned), rules=rules)


FORWARD = conv("y", "x", "w", NHWC, f"({X}, {W}) -> {DY}")
BACKWARD_INPUT = ("%r = stablehlo.reverse %w, dims = [0, 1] : " + W + "\n    "
                  + conv("y", "dy", "r", "[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]",
                         f"({DY}, {W}) -> {X}"))
BACKWARD_FILTER = conv("y", "x", "dy", WGRAD, f"({X}, {DY}) -> {W}")


@pytest.mark.parametrize("body, args, result, kind", [
    (FORWARD, f"%x: {X}, %w: {W}", DY, CONV_FORWARD),
    (BACKWARD_INPUT, f"%dy: {DY}, %w: {W}", X, CONV_BACKWARD_INPUT),
    (BACKWARD_FILTER, f"%x: {X}, %dy: {DY}", W, CONV_BACKWARD_FILTER),
])
def test_conv_kind_follows_xla_conv_rewriter(tmp_path, body, args, result, kind):
    (k,) = plan(tmp_path, f"    {body}\n    return %y : {result}", args, result)
    assert k.kind is Kind.GEMM and k.gemm_kind == kind


def test_a_reverse_of_size_one_dimensions_leaves_a_1x1_gradient_a_forward_conv(tmp_path):
    """JAX reverses the spatial dims of a 1x1 kernel too; XLA's simplifier drops that reverse, so
    ``conv_rewriter`` sees a forward convolution (the measured H100 ResNet-50's HLO: 19 cuDNN
    backward-input calls, one per 3x3 or strided convolution)."""
    w1 = "tensor<1x1x64x32xf16>"
    body = ("%r = stablehlo.reverse %w, dims = [0, 1] : " + w1 + "\n    "
            + conv("y", "dy", "r", "[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]",
                   f"({DY}, {w1}) -> {X}", "stride = [1, 1], pad = [[0, 0], [0, 0]], "
                   "lhs_dilate = [1, 1], rhs_dilate = [1, 1]"))
    (k,) = plan(tmp_path, f"    {body}\n    return %y : {X}", f"%dy: {DY}, %w: {w1}", X)
    assert k.gemm_kind == CONV_FORWARD


def test_forward_conv_takes_a_bias_relu_epilogue(tmp_path):
    (k,) = plan(tmp_path, f"""
    {FORWARD}
    %b = stablehlo.broadcast_in_dim %bias, dims = [3] : (tensor<32xf16>) -> {DY}
    %s = stablehlo.add %y, %b : {DY}
    %0 = stablehlo.maximum %s, %s : {DY}
    return %0 : {DY}""", f"%x: {X}, %w: {W}, %bias: tensor<32xf16>", DY)
    assert k.kind is Kind.GEMM
    # x, w and bias read, only the activation written: 8*16*16*(64+32)*2 + 3*3*64*32*2 + 32*2
    assert k.bytes == 393216 + 36864 + 64


def test_forward_conv_keeps_ops_cudnn_cannot_fuse_out_of_its_epilogue(tmp_path):
    kernels = plan(tmp_path, f"""
    {FORWARD}
    %0 = stablehlo.subtract %y, %m : {DY}
    return %0 : {DY}""", f"%x: {X}, %w: {W}, %m: {DY}", DY)
    assert [k.kind for k in kernels] == [Kind.GEMM, Kind.LOOP]


def test_backward_input_conv_takes_no_epilogue(tmp_path):
    gemm, loop = plan(tmp_path, f"""
    {BACKWARD_INPUT}
    %0 = stablehlo.add %y, %x : {X}
    return %0 : {X}""", f"%dy: {DY}, %w: {W}, %x: {X}", X)
    assert (gemm.kind, loop.kind) == (Kind.GEMM, Kind.LOOP)
    assert gemm.bytes == 8 * 16 * 16 * (32 + 64) * 2 + 3 * 3 * 64 * 32 * 2  # dy, w read; dx written
    assert loop.bytes == 3 * 8 * 16 * 16 * 64 * 2  # dx and x read, sum written


def test_operand_convert_is_written_by_its_producer_not_read_by_the_conv(tmp_path):
    # BN-backward style: dy is computed in f32, converted to f16 and fed to a backward-input
    # convolution. cuDNN reads f16: the f32 -> f16 convert ends the producer's loop kernel.
    dy32 = "tensor<8x16x16x32xf32>"
    loop, gemm = plan(tmp_path, f"""
    %g = stablehlo.multiply %a, %b : {dy32}
    %dy = stablehlo.convert %g : ({dy32}) -> {DY}
    {BACKWARD_INPUT}
    return %y : {X}""", f"%a: {dy32}, %b: {dy32}, %w: {W}", X)
    assert loop.kind is Kind.LOOP
    assert [op.short_name for op in loop.ops] == ["multiply", "convert"]
    assert loop.bytes == 8 * 16 * 16 * 32 * (4 + 4 + 2)  # a, b read in f32; dy written in f16
    assert gemm.gemm_kind == CONV_BACKWARD_INPUT
    assert gemm.bytes == 8 * 16 * 16 * (32 + 64) * 2 + 3 * 3 * 64 * 32 * 2  # f16 dy, w; dx


@pytest.mark.parametrize("cin, cout, dtype, expected", [
    (3, 64, "f16", 4 / 3),          # cuDNN's special C=4 kernel
    (3, 128, "f16", 1.0),           # padding 3 -> 8 would grow the input 2.7x: not padded
    (60, 64, "f16", 64 / 60),       # 60 -> 64 (+6.7%)
    (64, 64, "f16", 1.0),
    (3, 64, "bf16", 1.0),           # XLA pads only f16 convolutions
])
def test_channel_padding_of_f16_convolutions(tmp_path, cin, cout, dtype, expected):
    x, w = f"tensor<8x16x16x{cin}x{dtype}>", f"tensor<3x3x{cin}x{cout}x{dtype}>"
    y = f"tensor<8x16x16x{cout}x{dtype}>"
    (k,) = plan(tmp_path, f"    {conv('y', 'x', 'w', NHWC, f'({x}, {w}) -> {y}')}\n"
                          f"    return %y : {y}", f"%x: {x}, %w: {w}", y)
    assert k.channel_padding == pytest.approx(expected)
    assert conv_channel_padding(k.ops[-1], k.gemm_kind) == pytest.approx(expected)


def test_weight_gradient_of_the_first_layer_is_padded_like_its_forward(tmp_path):
    x, dy, dw = "tensor<8x32x32x3xf16>", "tensor<8x16x16x64xf16>", "tensor<7x7x3x64xf16>"
    window = "stride = [1, 1], pad = [[3, 2], [3, 2]], lhs_dilate = [1, 1], rhs_dilate = [2, 2]"
    (k,) = plan(tmp_path, f"    {conv('y', 'x', 'dy', WGRAD, f'({x}, {dy}) -> {dw}', window)}\n"
                          f"    return %y : {dw}", f"%x: {x}, %dy: {dy}", dw)
    assert k.gemm_kind == CONV_BACKWARD_FILTER
    assert k.channel_padding == pytest.approx(4 / 3)


def test_split_k_count_fills_the_last_wave():
    hw = Hardware(name="t", peak_flops=1e12, per_dtype_flops={"f16": 1e12}, memory_bandwidth=1e12,
                  params=Params(num_cores=108, gemm_tile=128))
    estimator = get_estimator("fused_roofline", hw)
    # 5 output tiles of a 576 x 64 weight gradient, K = 802816: 21 K-slices -> 105 CTAs in one
    # wave of 108 cores (22 slices would spill 2 CTAs into a second wave: 110/216 busy).
    assert estimator.wave_efficiency((576, 64, 802816)) == pytest.approx(105 / 108)
    # K too short to split (< 2 x 512): 5 tiles on 108 cores.
    assert estimator.wave_efficiency((576, 64, 1000)) == pytest.approx(5 / 108)
    # Enough tiles for several waves: no split; 4 x 64 = 256 tiles in 3 waves.
    assert estimator.wave_efficiency((512, 8192, 4096)) == pytest.approx(256 / 324)


def test_padding_slows_the_tensor_work_only_where_the_preset_says_xla_pads(tmp_path):
    x, w, y = "tensor<8x16x16x3xf16>", "tensor<3x3x3x64xf16>", "tensor<8x16x16x64xf16>"
    (k,) = plan(tmp_path, f"    {conv('y', 'x', 'w', NHWC, f'({x}, {w}) -> {y}')}\n"
                          f"    return %y : {y}", f"%x: {x}, %w: {w}", y)
    times = []
    for padded in (False, True):
        hw = Hardware(name="t", peak_flops=1e12, per_dtype_flops={"f16": 1e12},
                      memory_bandwidth=1e15,
                      params=Params(launch_overhead_s=0.0, conv_channel_padding=padded))
        times.append(get_estimator("fused_roofline", hw).kernel_cost(k)[0])
    # Compute-bound (memory at 1e15 B/s is 0.95-overlapped): 4/3 the tensor time once padded.
    memory = k.bytes / (1e15 * 0.8)
    assert times[0] == pytest.approx(k.tensor_flops / 1e12 + 0.05 * memory)
    assert times[1] == pytest.approx(k.tensor_flops * 4 / 3 / 1e12 + 0.05 * memory)


@pytest.mark.parametrize("channels, expected", [
    ((64, 64), 0.54), ((64, 128), 0.54), ((40, 512), 0.54),   # the smaller count decides
    ((128, 256), 0.83), ((65, 65), 0.83),
    ((3, 64), 1.0), ((32, 32), 1.0),    # at most half the least measured count: not derated
    ((256, 256), 1.0), ((512, 64), 0.54), (None, 1.0),
])
def test_channel_efficiency_takes_the_least_measured_count_at_or_above(channels, expected):
    assert channel_efficiency({64: 0.54, 128: 0.83}, channels) == expected
    assert channel_efficiency({}, channels) == 1.0


@pytest.mark.parametrize("cin, cout, share", [(64, 64, 0.5), (64, 256, 0.5), (256, 256, 1.0),
                                              (3, 64, 1.0)])
def test_few_channels_slow_the_tensor_work_by_the_measured_share(tmp_path, cin, cout, share):
    x, w = f"tensor<8x16x16x{cin}xf16>", f"tensor<3x3x{cin}x{cout}xf16>"
    y = f"tensor<8x16x16x{cout}xf16>"
    (k,) = plan(tmp_path, f"    {conv('y', 'x', 'w', NHWC, f'({x}, {w}) -> {y}')}\n"
                          f"    return %y : {y}", f"%x: {x}, %w: {w}", y)
    assert k.conv_channels == (cin, cout)
    times = []
    for table in ({}, {"64": 0.5}):
        hw = Hardware(name="t", peak_flops=1e12, per_dtype_flops={"f16": 1e12},
                      memory_bandwidth=1e15, params=Params().updated(
                          {"launch_overhead_s": 0.0, "conv_channel_efficiency": table}))
        times.append(get_estimator("fused_roofline", hw).kernel_cost(k)[0])
    memory = 0.05 * k.bytes / (1e15 * 0.8)    # compute-bound: memory 0.95-overlapped
    assert times[0] == pytest.approx(k.tensor_flops / 1e12 + memory)
    assert times[1] == pytest.approx(k.tensor_flops / share / 1e12 + memory)


@pytest.mark.parametrize("table", [{"64": 1.5}, {"64": 0}, {"x": 0.5}, {}, [0.5], {"0": 0.5}])
def test_a_bad_channel_table_is_one_line(table):
    from hespas_py.hardware import parse_params

    with pytest.raises(HespasError, match="conv_channel_efficiency must be an object of positive"):
        parse_params([f"conv_channel_efficiency={json.dumps(table)}"], "fused_roofline")


def test_the_h100_preset_times_the_stem_convolution_as_measured_alone(tmp_path):
    """The 7x7 stride-2 stem of ResNet on 224x224 RGB images at batch 256 (3 channels, padded to
    4): the H100 preset's time matches its microbenchmark (``conv_shapes.json``: 464.6 us
    forward), where full tensor-unit efficiency would make it memory-bound at about 190 us."""
    x, w = "tensor<256x224x224x3xf16>", "tensor<7x7x3x64xf16>"
    y = "tensor<256x112x112x64xf16>"
    window = "stride = [2, 2], pad = [[3, 3], [3, 3]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]"
    stem = conv('y', 'x', 'w', NHWC, f'({x}, {w}) -> {y}', window)
    (k,) = plan(tmp_path, f"    {stem}\n    return %y : {y}", f"%x: {x}, %w: {w}", y)
    assert k.conv_channels == (3, 64)
    hardware = load_hardware("H100_80GB", "fused_roofline")
    assert hardware.params.conv_channel_efficiency[3] == 0.22
    time_s = get_estimator("fused_roofline", hardware).kernel_cost(k)[0]
    assert time_s == pytest.approx(464.6e-6, rel=0.03)


@pytest.mark.parametrize("pad, padded_side", [("[[0, 1], [0, 1]]", 17), ("[[1, 1], [1, 1]]", None)])
def test_uneven_padding_reads_a_padded_copy_of_the_input(tmp_path, pad, padded_side):
    """A stride-2 3x3 convolution of a 16x16 image padded (0, 1): cuDNN takes symmetric padding
    only, so XLA's ConvPaddingLegalization pads the input to 17x17 in a kernel of its own and
    the call reads that copy; padded (1, 1) it reads its input as it is."""
    y = "tensor<8x8x8x32xf16>"
    window = f"stride = [2, 2], pad = {pad}, lhs_dilate = [1, 1], rhs_dilate = [1, 1]"
    body = f"    {conv('y', 'x', 'w', NHWC, f'({X}, {W}) -> {y}', window)}\n    return %y : {y}"
    (whole,) = plan(tmp_path, body, f"%x: {X}, %w: {W}", y)
    kernels = plan(tmp_path, body, f"%x: {X}, %w: {W}", y,
                   GpuRules(conv_input_pads=True))
    if padded_side is None:
        assert kernels == [whole]
        return
    pad_kernel, conv_kernel = kernels
    unpadded, padded = 8 * 16 * 16 * 64 * 2, 8 * padded_side * padded_side * 64 * 2
    assert kernel_class(pad_kernel) == "copy" and pad_kernel.flops == 0
    assert pad_kernel.bytes == unpadded + padded
    assert conv_kernel.bytes == whole.bytes - unpadded + padded
    assert conv_kernel.tensor_flops == whole.tensor_flops


def test_padded_channels_read_a_padded_copy_of_the_input(tmp_path):
    """3-channel f16 images into 64 channels: XLA's CudnnPadForConvolutions pads the input to 4
    channels with a pad kernel (the ResNet stem's ``f16[256,224,224,4]``)."""
    x, w, y = "tensor<8x16x16x3xf16>", "tensor<3x3x3x64xf16>", "tensor<8x16x16x64xf16>"
    body = f"    {conv('y', 'x', 'w', NHWC, f'({x}, {w}) -> {y}')}\n    return %y : {y}"
    (whole,) = plan(tmp_path, body, f"%x: {x}, %w: {w}", y)
    pad_kernel, conv_kernel = plan(tmp_path, body, f"%x: {x}, %w: {w}", y,
                                   GpuRules(conv_input_pads=True))
    unpadded, padded = 8 * 16 * 16 * 3 * 2, 8 * 16 * 16 * 4 * 2
    assert kernel_class(pad_kernel) == "copy"
    assert pad_kernel.bytes == unpadded + padded
    assert conv_kernel.bytes == whole.bytes - unpadded + padded
