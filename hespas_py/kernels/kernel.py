"""What a planned kernel is: its kind and the work and traffic it stands for."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hespas_py.mlir.ops import Op

#: `OpCost.name` of the rows of flash-attention kernels (``fused_roofline``), forward and backward.
FLASH_FORWARD = "flash_attention"
FLASH_BACKWARD = "flash_attention_bwd"
#: Share of a causal attention's score blocks a flash kernel computes. FlashAttention-2 skips
#: every block whose column indices all exceed its row indices, "approximately half of the blocks
#: for large sequence length" (Dao 2023, arXiv:2307.08691, §3.1.1), and flash-attention's
#: benchmark counts causal FLOPs as half the full count (benchmarks/benchmark_flash_attention.py);
#: the efficiencies of the node presets were measured with that count.
CAUSAL_FRACTION = 0.5


class Kind(enum.Enum):
    """What a kernel does; sets which rate bounds its compute."""

    GEMM = "gemm"            #: a dot/convolution (library call), with its fused epilogue
    LOOP = "loop"            #: an elementwise loop fusion
    REDUCTION = "reduction"  #: a reduction (input) fusion, possibly multi-output
    OPAQUE = "opaque"        #: an unfusible op, costed as `costs.op_work` counts it
    FUSION = "fusion"        #: an ``mhlo.fusion`` of an XLA-optimized module
    ATTENTION = "attention"  #: a flash-attention kernel (`attention`): scores never in memory


@dataclass(frozen=True, slots=True)
class Kernel:
    """One kernel launch.

    Attributes:
        kind: what it does.
        ops: the ops it computes, in program order (an op recomputed by several kernels appears
            in each).
        flops: operations it performs, recomputation included.
        bytes: device-memory bytes it reads and writes.
        tensor_flops: the part of ``flops`` that runs on the tensor unit.
        tensor_dtype: element type setting the tensor-unit rate ('' when none).
        gemm_mnk: (M, N, K) of its dot/convolution, for tile quantization; of a flash kernel,
            (rows its thread blocks split, head dim, sequence each row block sweeps); else None.
        gemm_kind: ``dot``, or the cuDNN kind of its convolution (`conv_kind`), or the flash
            kernel of an attention pattern (`FLASH_FORWARD`, `FLASH_BACKWARD`); '' when none.
        dot_mnk: (lhs free, rhs free, contracted) element counts of its dot_general per batch
            element, for the padding of a matrix unit's systolic array (`dot_mnk`); None when
            it holds no dot_general (a flash kernel keeps None: its head dim is in ``gemm_mnk``).
        channel_padding: tensor-unit work of its convolution once cuDNN pads the channels
            (`conv_channel_padding`), relative to the unpadded work; 1.0 when not padded.
        conv_channels: (input, output) channels of the forward convolution it computes or
            differentiates (`conv_channels`); None when it holds no convolution.
        anchors: the ops of the planned sequence its ops belong to (an op inside an inlined call
            or a loop body belongs to the call or loop op), in program order.
        count: how many times it is launched (the trip counts of enclosing loops).
        fallback: whether an op in it is unknown to `costs` and got the memory-bound fallback.
        notes: approximations made while costing it, once each.
        part: the part it runs of an op XLA's GPU compiler expands into several kernels (the
            kernel class of that part: ``copy``, ``reduce_window``, ``scatter`` for a
            ``select_and_scatter``, `select_and_scatter`); '' when it runs whole ops.
        row_tiles: (class, tiles) of a Triton row kernel whose tile spans one row of several
            broadcast rows (`row_tiles.spanning_tiles`); None for any other kernel.
        gap_s: seconds the GPU idles around it, per launch, where it runs outside XLA's command
            buffers (`hespas_py.estimators.launch_gaps`); 0 for any other kernel.
    """

    kind: Kind
    ops: tuple[Op, ...]
    flops: float
    bytes: float
    tensor_flops: float = 0.0
    tensor_dtype: str = ""
    gemm_mnk: tuple[int, int, int] | None = None
    gemm_kind: str = ""
    dot_mnk: tuple[int, int, int] | None = None
    channel_padding: float = 1.0
    conv_channels: tuple[int, int] | None = None
    anchors: tuple[Op, ...] = ()
    count: float = 1.0
    fallback: bool = False
    notes: tuple[str, ...] = ()
    part: str = ""
    row_tiles: tuple[str, int] | None = None
    gap_s: float = 0.0

    @property
    def label(self) -> str:
        """Distinct op kinds it holds, in order, e.g. ``convolution+add+maximum``; a flash kernel
        is named by its kind (``flash_attention``, ``flash_attention_bwd``)."""
        if self.kind is Kind.ATTENTION:
            return self.gemm_kind
        label = "+".join(dict.fromkeys(op.short_name for op in self.ops)) or self.kind.value
        return f"{label}:{self.part}" if self.part else label
