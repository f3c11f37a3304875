"""cuBLAS and cuDNN custom calls costed as the kernels they are.

Rules and sources: docs/kernels.md."""

from __future__ import annotations

import math
from dataclasses import dataclass

from hespas_py.kernels.kernel import CAUSAL_FRACTION, FLASH_BACKWARD, FLASH_FORWARD
from hespas_py.mlir.ops import Op, TensorType

GEMM_TARGETS = ("__cublas$gemm", "__cublas$lt$matmul")
CONV_TARGETS = {
    "__cudnn$convForward": "conv_forward",
    "__cudnn$convBiasActivationForward": "conv_forward",
    "__cudnn$convBackwardInput": "conv_backward_input",
    "__cudnn$convBackwardFilter": "conv_backward_filter",
}
FMHA_PREFIX = "__cudnn$fmha"

#: Matmul FLOPs of a flash backward per forward FLOP: five matmuls against two, as
#: flash-attention's benchmark counts them (benchmarks/benchmark_flash_attention.py).
BACKWARD_FLOP_RATIO = 2.5


@dataclass(frozen=True, slots=True)
class LibraryCall:
    """What one library custom call computes.

    Attributes:
        kind: ``dot``, a convolution kind (``conv_forward``, ``conv_backward_input``,
            ``conv_backward_filter``), `FLASH_FORWARD` or `FLASH_BACKWARD`.
        flops: tensor-unit FLOPs (a causal flash kernel's share only).
        bytes: operand and result bytes, workspace left out.
        dtype: element type setting its tensor-unit rate.
        mnk: (M, N, K) for wave quantization; a flash kernel's (rows its thread blocks split,
            head dim, sequence each row block sweeps).
    """

    kind: str
    flops: float
    bytes: float
    dtype: str
    mnk: tuple[int, int, int]


def _traffic(op: Op) -> float:
    return float(sum(t.nbytes for t in (*op.operand_types, *op.result_types)
                     if t.is_array and t.dtype not in ("ui8", "u8")))


def _features(activations: TensorType, filt: TensorType) -> int:
    shape = activations.shape
    if shape and shape[-1] in filt.shape:
        return shape[-1]
    return shape[1] if len(shape) > 1 else 1


def _gemm(op: Op) -> LibraryCall:
    lhs, out = op.operand_types[0], op.result_types[0]
    config = (op.attrs.get("backend_config") or {}).get("gemm_backend_config") or {}
    dims = (config.get("dot_dimension_numbers") or {}).get("lhs_contracting_dimensions")
    k = math.prod(lhs.shape[int(d)] for d in dims) if dims else (lhs.shape[-1] if lhs.shape else 1)
    n = out.shape[-1] if out.shape else 1
    flops = 2.0 * out.num_elements * k
    return LibraryCall("dot", flops, _traffic(op), lhs.dtype, (out.num_elements // max(n, 1), n, k))


def _conv(op: Op, kind: str) -> LibraryCall:
    a, b, out = op.operand_types[0], op.operand_types[1], op.result_types[0]
    # (filter, output gradient or output) of each call: x, w -> y; dy, w -> dx; x, dy -> dw
    filt, dy = {"conv_forward": (b, out), "conv_backward_input": (b, a)}.get(kind, (out, b))
    features = _features(dy, filt)
    if kind == "conv_backward_filter":
        flops = 2.0 * filt.num_elements * dy.num_elements / features
    else:
        flops = 2.0 * dy.num_elements * filt.num_elements / features
    n = features if kind != "conv_backward_filter" else out.shape[-1] if out.shape else 1
    m = max(out.num_elements // max(n, 1), 1)
    k = max(round(flops / (2 * m * max(n, 1))), 1)
    return LibraryCall(kind, flops, _traffic(op), a.dtype, (m, n, k))


def _fmha(op: Op, target: str) -> LibraryCall:
    config = (op.attrs.get("backend_config") or {}).get("cudnn_fmha_backend_config") or {}
    query = op.operand_types[0]
    scores = [int(d) for d in (config.get("intermediate_tensor_shape") or {}).get("dimensions", ())]
    numbers = config.get("bmm1_dot_dimension_numbers") or {}
    contracted = [int(d) for d in numbers.get("lhs_contracting_dimensions", ())]
    head_dim = math.prod(query.shape[d] for d in contracted) if contracted else query.shape[-1]
    if len(scores) == 4:
        batch, heads, queries, keys = scores
    else:  # B x S x H x D query, self-attention
        batch, queries, heads = query.shape[0], query.shape[1], query.shape[2]
        keys = queries
    share = CAUSAL_FRACTION if "CAUSAL" in str(config.get("mask_type", "")) else 1.0
    flops = 4.0 * batch * heads * queries * keys * head_dim * share
    if "Backward" in target:
        return LibraryCall(FLASH_BACKWARD, flops * BACKWARD_FLOP_RATIO, _traffic(op),
                           query.dtype, (batch * heads * keys, head_dim, queries))
    return LibraryCall(FLASH_FORWARD, flops, _traffic(op), query.dtype,
                       (batch * heads * queries, head_dim, keys))


def library_call(op: Op) -> LibraryCall | None:
    """What ``op`` computes when it is a cuBLAS/cuDNN custom call (else None)."""
    if op.short_name != "custom_call" or len(op.operand_types) < 2 or not op.result_types:
        return None
    target = str(op.attrs.get("call_target_name", ""))
    if target in GEMM_TARGETS:
        return _gemm(op)
    if target in CONV_TARGETS:
        return _conv(op, CONV_TARGETS[target])
    if target.startswith(FMHA_PREFIX):
        return _fmha(op, target)
    return None
