"""cuDNN convolution rules XLA's GPU compiler applies (call kind, channel padding), the share of
the tensor rate a convolution of few channels reaches, and the GEMM shape of a dot or
convolution, for wave quantization and matrix-unit padding."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from hespas_py.kernels.costs import op_work
from hespas_py.mlir.ops import Op, TensorType


def gemm_mnk(op: Op) -> tuple[int, int, int] | None:
    """(M, N, K) of a dot/convolution: N = output features (dot: rhs free dims), M = the rest of
    the output, K = FLOPs / (2 M N)."""
    if not op.result_types:
        return None
    out = op.result_types[0]
    elements = max(out.num_elements, 1)
    if op.short_name == "convolution":
        numbers = op.attrs.get("dimension_numbers") or {}
        dim = numbers.get("output_feature_dimension")
        n = out.shape[dim] if dim is not None and out.shape else 1
    elif op.short_name == "dot_general":
        numbers = op.attrs.get("dot_dimension_numbers") or {}
        rhs = op.operand_types[1]
        skip = set(numbers.get("rhs_batching_dimensions", ())) | set(
            numbers.get("rhs_contracting_dimensions", ()))
        n = math.prod(d for i, d in enumerate(rhs.shape) if i not in skip)
    else:
        n = out.shape[-1] if out.shape else 1
    n = max(n, 1)
    k = max(round(op_work(op).total_flops / (2 * elements)), 1)
    return elements // n, n, k


def dot_mnk(op: Op) -> tuple[int, int, int] | None:
    """(M, N, K) of a dot_general per batch element: the lhs free, rhs free and contracted
    element counts (the batch dimensions left out); None for any other op."""
    if op.short_name != "dot_general" or len(op.operand_types) != 2:
        return None
    numbers = op.attrs.get("dot_dimension_numbers") or {}

    def size(side: int, kinds: tuple[str, ...], keep: bool) -> int:
        listed = {d for kind in kinds for d in numbers.get(f"{('lhs', 'rhs')[side]}_{kind}", ())}
        shape = op.operand_types[side].shape
        return math.prod(d for i, d in enumerate(shape) if (i in listed) == keep)

    free = ("batching_dimensions", "contracting_dimensions")
    return size(0, free, False), size(1, free, False), size(0, ("contracting_dimensions",), True)


#: cuDNN call kinds of a convolution (XLA's ``CudnnConvKind``).
CONV_FORWARD = "conv_forward"
CONV_BACKWARD_INPUT = "conv_backward_input"
CONV_BACKWARD_FILTER = "conv_backward_filter"

#: XLA pads an f16 convolution's channels only when no operand grows by more than this
#: (``kMaxBytesTouchedBound`` in ``cudnn_pad_for_convolutions.cc``).
_MAX_PADDING_GROWTH = 1.35
#: Channel multiple f16 tensor-core convolutions need (``cudnn_pad_for_convolutions.cc``; NVIDIA
#: Convolutional Layers User's Guide, "Channels In And Out").
_F16_CHANNEL_ALIGN = 8


def _all_one(values: Sequence[int] | None) -> bool:
    return all(v == 1 for v in values or ())


def conv_kind(op: Op, reversed_kernel: bool) -> str:
    """The cuDNN call XLA's ``conv_rewriter`` turns a ``convolution`` into.

    Backward filter (tried first): not forward-looking (a forward convolution keeps the batch
    and output-feature sizes and has a kernel no larger than its output), unit strides, no input
    dilation, and a kernel larger than the output in every spatial dimension or a dilated
    window. Backward input: unit strides, no window dilation, one feature group, and a reversed
    kernel (``reversed_kernel``) or a 1x1 kernel with input dilation. Anything else is forward.
    """
    numbers = op.attrs.get("dimension_numbers") or {}
    if not numbers or len(op.operand_types) < 2 or not op.result_types:
        return CONV_FORWARD
    lhs, rhs, out = op.operand_types[0], op.operand_types[1], op.result_types[0]
    kernel_dims = tuple(rhs.shape[d] for d in numbers["kernel_spatial_dimensions"])
    out_dims = tuple(out.shape[d] for d in numbers["output_spatial_dimensions"])
    unit_strides = _all_one(op.attrs.get("window_strides"))
    input_dilated = not _all_one(op.attrs.get("lhs_dilation"))
    window_dilated = not _all_one(op.attrs.get("rhs_dilation"))
    grouped = (op.attrs.get("feature_group_count") or 1) > 1
    looks_forward = (
        lhs.shape[numbers["input_batch_dimension"]] == out.shape[numbers["output_batch_dimension"]]
        and rhs.shape[numbers["kernel_output_feature_dimension"]]
        == out.shape[numbers["output_feature_dimension"]]
        and all(k <= o for k, o in zip(kernel_dims, out_dims, strict=True)))
    small_kernel = sum(k <= o for k, o in zip(kernel_dims, out_dims, strict=True))
    if (not grouped and not looks_forward and unit_strides and not input_dilated
            and (window_dilated or (kernel_dims and small_kernel == 0))):
        return CONV_BACKWARD_FILTER
    if (not grouped and unit_strides and not window_dilated
            and (reversed_kernel or (input_dilated and all(k == 1 for k in kernel_dims)))):
        return CONV_BACKWARD_INPUT
    return CONV_FORWARD


def padded_input(op: Op, kind: str) -> TensorType | None:
    """The padded copy of its input a forward convolution's cuDNN call reads, when XLA writes
    one; None when the call reads its input as it is.

    - Uneven padding. cuDNN takes symmetric, non-negative window padding only: XLA's
      ``ConvPaddingLegalization`` (xla/service/gpu/transforms/conv_padding_legalization.cc)
      gives a forward convolution with uneven padding or input (base) dilation a ``pad`` of its
      input applying all its positive padding and the dilation. A stride-2 3x3 convolution of
      an even-sized image, padded (0, 1), reads a 57x57 copy of its 56x56 input (the optimized
      HLO of the measured ResNet steps: ``loop_pad_fusion`` of ``f16[256,57,57,64]``,
      ``[256,29,29,128]``, ``[256,15,15,256]``). Negative padding (a slice) is left out.
    - Channels. XLA's ``CudnnPadForConvolutions`` pads the input channels it pads for tensor
      cores (`padded_channels`) with a ``pad`` of the input: the ResNet stem's 3-channel
      images become ``f16[256,224,224,4]`` (``loop_pad_fusion`` there).
    """
    numbers = op.attrs.get("dimension_numbers") or {}
    if kind != CONV_FORWARD or not numbers or not op.operand_types:
        return None
    padding = [tuple(row) for row in op.attrs.get("padding") or ()]
    dilation = list(op.attrs.get("lhs_dilation") or ())
    shape = list(op.operand_types[0].shape)
    if any(lo != hi for lo, hi in padding) or not _all_one(dilation):
        for i, dim in enumerate(numbers["input_spatial_dimensions"]):
            lo, hi = padding[i] if i < len(padding) else (0, 0)
            d = dilation[i] if i < len(dilation) else 1
            shape[dim] += max(lo, 0) + max(hi, 0) + (shape[dim] - 1) * (d - 1)
    channels = padded_channels(op, kind)
    if channels is not None:
        shape[numbers["input_feature_dimension"]] = channels[0]
    if tuple(shape) == op.operand_types[0].shape:
        return None
    return TensorType(tuple(shape), op.operand_types[0].dtype)


def conv_channels(op: Op, kind: str) -> tuple[int, int] | None:
    """(input, output) channels of the forward convolution a ``convolution`` of cuDNN call
    ``kind`` computes or differentiates; None without dimension numbers."""
    numbers = op.attrs.get("dimension_numbers") or {}
    if not numbers or not op.result_types or not op.operand_types:
        return None
    lhs, out = op.operand_types[0], op.result_types[0]
    if kind == CONV_BACKWARD_INPUT:
        return (out.shape[numbers["output_feature_dimension"]],
                lhs.shape[numbers["input_feature_dimension"]])
    if kind == CONV_BACKWARD_FILTER:
        return (out.shape[numbers["output_batch_dimension"]],
                out.shape[numbers["output_feature_dimension"]])
    return (lhs.shape[numbers["input_feature_dimension"]],
            out.shape[numbers["output_feature_dimension"]])


def conv_channel_padding(op: Op, kind: str) -> float:
    """Tensor-unit work of an f16 convolution after XLA pads its channels for tensor cores,
    relative to the unpadded work (``cudnn_pad_for_convolutions.cc``).

    With C input and K output channels of the forward convolution it computes: C = 3 with
    K = 32 or 64 pads C to 4 (cuDNN has a kernel for it); otherwise C and K round up to
    multiples of 8 unless that grows an operand by more than 35% (then no padding). Other
    element types and grouped convolutions are not padded.
    """
    padded = padded_channels(op, kind)
    if padded is None:
        return 1.0
    channels = conv_channels(op, kind)
    assert channels is not None, "padded channels come from the convolution's channels"
    cin, cout = channels
    return padded[0] * padded[1] / max(cin * cout, 1)


def padded_channels(op: Op, kind: str) -> tuple[int, int] | None:
    """(input, output) channels of the forward convolution once XLA pads them for tensor cores
    (`conv_channel_padding`); None when it pads nothing."""
    channels = conv_channels(op, kind)
    if (channels is None or op.result_types[0].dtype != "f16"
            or (op.attrs.get("feature_group_count") or 1) > 1
            or (op.attrs.get("batch_group_count") or 1) > 1):
        return None
    return padded_f16_channels(*channels)


def padded_f16_channels(cin: int, cout: int) -> tuple[int, int] | None:
    """(input, output) channels of an ungrouped f16 convolution of ``cin`` and ``cout`` channels
    once XLA pads them for tensor cores (`conv_channel_padding`); None when it pads nothing."""
    channels = cin, cout
    if cin == 3 and cout in (32, 64):
        return 4, cout

    def align(c: int) -> int:
        return -(-c // _F16_CHANNEL_ALIGN) * _F16_CHANNEL_ALIGN

    padded = align(cin), align(cout)
    if padded == channels or padded[0] * padded[1] > _MAX_PADDING_GROWTH * cin * cout:
        return None
    return padded


def channel_efficiency(table: Mapping[int, float], channels: tuple[int, int] | None) -> float:
    """The share of its tensor-unit rate a convolution reaches, by the smaller of its channel
    counts ``c``: ``table[k]`` for the least measured count ``k >= c`` when ``c > k / 2``; 1.0
    where nothing measured applies (no table, no channels, ``c`` far below or above every ``k``).

    A convolution's implicit GEMM has the channel counts as its N (output) and part of its K
    (input x window) dimension: with few channels a tensor-core tile does little work per byte
    it loads, and the measured rates fall (the presets' ``conv_channel_efficiency`` and its
    source: a microbenchmark of each convolution of ResNet-18 alone, the 3-channel stem
    included).
    """
    if not table or channels is None:
        return 1.0
    smaller = min(channels)
    fits = [k for k in table if k >= smaller and smaller * 2 > k]
    return table[min(fits)] if fits else 1.0
