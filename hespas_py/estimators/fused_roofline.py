"""The fused roofline: a roofline per *kernel* XLA would launch, not per op.

`fusion.plan_kernels` (the `hespas_py.kernels` package) groups a block's ops into the kernels XLA's GPU compiler would emit and
counts memory traffic at kernel boundaries only. Each kernel then costs (XLA's GPU performance
model, ``gpu_performance_model_base``)::

    time = launch_overhead + compute + memory - overlap * min(compute, memory)

with *achievable* rather than peak rates:

- ``memory = bytes / (memory_bandwidth * memory_efficiency)``;
- ``compute`` = tensor-unit FLOPs / (per-dtype peak * ``tensor_efficiency`` * wave quantization)
  + vector FLOPs / (``vector_flops`` * ``vector_efficiency``). Wave quantization: a dot or
  convolution with output M x N runs ceil(M/tile) * ceil(N/tile) tiles (split along K when that
  is too few to fill the chip, as cuBLAS/cuDNN split-K kernels do, with the split count the
  autotuner would pick: the one that idles the fewest cores) on ``num_cores`` cores, so
  the last partial wave idles cores (XLA's ``gpu_dot_fusion_cost_model``);
  ``num_cores = 0`` turns it off. Matrix-unit padding (``mxu_size``, TPUs): a systolic array of
  that side holds a tile of the stationary operand, so a dot's contracted dimension and the free
  dimension of its stationary operand round up to multiples of it (the compiler picks the
  operand that wastes less); a flash kernel's matmuls all have the head dimension there
  (`mxu_fill`); ``mxu_size = 0`` turns it off.

Params read from ``Hardware.params`` (declared with their defaults in `hespas_py.hardware.params`;
each preset's values, with their public sources in a ``<param>_source`` string next to them, are
in ``configs/nodes/<HW>/fused_roofline``):
``launch_overhead_s``, ``memory_efficiency``, ``tensor_efficiency``, ``vector_efficiency``,
``compute_memory_overlap``, ``scatter_efficiency`` (the share of the bandwidth a scatter
kernel's atomic read-modify-writes reach; default ``memory_efficiency``), ``num_cores``,
``gemm_tile``, ``mxu_size``, ``conv_channel_padding``
(time f16 convolutions with the channels XLA pads them to for tensor cores,
`fusion.conv_channel_padding`; XLA does this on CUDA GPUs from Volta on),
``conv_channel_efficiency`` (measured share of the tensor rate by a convolution's smaller
channel count, `fusion.convolution.channel_efficiency`), ``tensor_efficiency_by_dtype``
(measured ``tensor_efficiency`` per element type of the rate, e.g. ``tf32`` or ``f8E4M3FN``;
a type it lacks takes ``tensor_efficiency``; written by ``hespas calibrate``), ``vector_op_cycles``
(the key of an XLA op profile, e.g. ``sm_90``: vector work weighted by each elementwise op's
measured cycles, `fusion.op_cycles`; absent: one FLOP per element), ``spanning_row_tile_s``
(seconds a Triton row kernel's tile costs beyond its bytes when the tile spans one row of
several broadcast rows, by what the kernel computes, `fusion.row_tiles`: each wave of
``num_cores`` tiles adds it), ``loop_element_rate`` (elements per second a loop kernel
processes at most: its time is at least its elements over that, `hespas_py.estimators.loop_rate`;
0: no floor), ``launch_gap_s`` (the GPU's idle time at the boundaries of XLA's command
buffers, around the cuDNN convolutions launched alone, `hespas_py.estimators.launch_gaps`;
absent: none), plus roofline's ``f32_matmul_as_tf32``.

XLA's GPU-only rewrites, each switched on by a bool param of the GPU presets (`GpuRules`; which
presets set which is in ``configs/nodes/README.md``):
``triton_normalization`` (softmax-like row normalizations as one Triton kernel,
`fusion.normalization`), ``select_and_scatter_expansion`` (``select_and_scatter`` as
SelectAndScatterExpander's fill, ``reduce_window`` and scatter kernels,
`fusion.select_and_scatter`), ``cublas_gemm_operands`` (a ``convert`` feeding a dot runs
outside the GEMM, which reads operands as stored), ``tree_reduction`` (a reduction too large
for one race-free kernel runs as partial reductions and a reduction of the partials,
`fusion.tree_reduction`), ``conv_input_pads`` (a forward convolution with uneven padding or
padded channels reads a padded copy of its input, `fusion.convolution.padded_input`),
``cublas_operand_layouts`` (a dot operand stored in a layout cuBLAS cannot read is rewritten by a
transpose kernel, `fusion.operand_layout`), ``duplication_cone`` (priority fusion weighs
duplicating a producer with its operand cone) and ``cheap_gpu_math`` (f32/f16 ``exp``, ``sqrt``,
``rsqrt``, ``divide`` may be recomputed in several kernels).
cuBLAS and cuDNN custom calls are GEMM, convolution and flash-attention kernels
(`hespas_py.kernels.library_calls`).

Attention. ``fused_attention`` (default false: XLA's GPU compiler does not rewrite plain attention
into a flash kernel by default) models the run as using fused attention kernels: each attention
pattern of the step becomes one flash-attention kernel forward and one backward
(`fusion.attention`), whose score matrix never reaches memory. A flash kernel's compute is its
matmul FLOPs (causal: the blocks it computes) at the per-dtype peak times
``attention_efficiency`` (forward) or ``attention_backward_efficiency`` (backward), both measured
in the flash-attention benchmarks' own FLOP count, so they cover the softmax work too (default:
``tensor_efficiency``), with the wave quantization of one thread block per 128 rows and the
matrix-unit padding of its head dimension.

Whole-step fusion. XLA fuses over the dataflow graph of the whole step, not over program order: a
forward op is fused into the backward kernel that consumes it however many collectives lie
between them in the text. `prepare` plans the kernels once over the whole step (every block's ops,
in program order; a collective is never inside a kernel) and charges each kernel's time to the
block holding its last op (the kernel cannot run before that block's inputs exist); a block then
costs the kernels charged to it. An expanded loop's body is a scope of its own, planned once
(the blocks of its first iteration; later iterations repeat them): XLA compiles a while body as
a computation of its own and never fuses across iterations or across the loop's boundary; its
loop-invariant constants are folded (`fusion.sunk_arguments`). Blocks `prepare` did not see are
planned on their own (fusion stays inside the block). Estimates thus depend on the step, so the
estimator is ``context_dependent`` and its fingerprint names the step.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable, Mapping

from hespas_py.errors import HespasError
from hespas_py.estimators.base import Estimate, OpCost, register
from hespas_py.estimators.cache import canonical_block_text
from hespas_py.estimators.launch_gaps import with_launch_gaps
from hespas_py.estimators.loop_rate import loop_elements
from hespas_py.estimators.roofline import Roofline
from hespas_py.hardware import Hardware
from hespas_py.kernels import (
    FLASH_BACKWARD,
    FLASH_FORWARD,
    PROFILES,
    SCATTER,
    GpuRules,
    Kernel,
    Kind,
    block_outputs,
    channel_efficiency,
    constant_values,
    plan_kernels,
    sunk_arguments,
    vector_work,
)
from hespas_py.mlir.ops import Op
from hespas_py.split.blocks import Block, BlockGraph

#: K elements one split-K slice keeps at least (a slice smaller than this is not worth a CTA).
_MIN_SPLIT_K = 512


@register
class FusedRoofline(Roofline):
    """Roofline over the kernels XLA's GPU fusion would form, with achievable rates."""

    name = "fused_roofline"
    context_dependent = True

    def __init__(self, hardware: Hardware) -> None:
        super().__init__(hardware)
        params = hardware.params
        self.launch_s = params.launch_overhead_s
        self.bandwidth = hardware.memory_bandwidth * params.memory_efficiency
        #: Achievable bandwidth of scatter kernels (atomic read-modify-writes).
        self.scatter_bandwidth = hardware.memory_bandwidth * _or(params.scatter_efficiency,
                                                                 params.memory_efficiency)
        self.tensor_eff = params.tensor_efficiency
        #: Rate dtype -> its own tensor efficiency (others: ``tensor_eff``).
        self.dtype_eff = dict(params.tensor_efficiency_by_dtype)
        self.vector_rate = self._vector_rate * params.vector_efficiency
        self.overlap = params.compute_memory_overlap
        self.cores = params.num_cores
        self.tile = params.gemm_tile
        self.mxu = params.mxu_size
        self.conv_padding = params.conv_channel_padding
        #: Smaller channel count measured -> share of the tensor rate (`channel_efficiency`).
        self.conv_channel_eff = dict(params.conv_channel_efficiency)
        self.fused_attention = params.fused_attention
        #: Idle seconds at command-buffer boundaries, by `hespas_py.hardware.params.LAUNCH_GAPS` key.
        self.launch_gaps = dict(params.launch_gap_s)
        #: Elements per second a loop kernel processes at most (0: no floor, `loop_rate`).
        self.loop_rate = params.loop_element_rate
        #: `row_tiles` class -> seconds per wave of spanning tiles.
        self.row_tile_s = dict(params.spanning_row_tile_s)
        profile = params.vector_op_cycles
        if profile is not None and profile not in PROFILES:
            raise HespasError(f"vector_op_cycles: unknown op profile {profile!r} "
                              f"(known: {', '.join(sorted(PROFILES))})")
        #: (op, dtype) -> cycles per element weighting vector work (None: one FLOP per element).
        self.op_cycles = PROFILES.get(profile) if profile is not None else None
        self.rules = GpuRules.of(params)
        #: Flash kernel efficiency by `Kernel.gemm_kind`.
        self.attention_eff = {
            FLASH_FORWARD: _or(params.attention_efficiency, self.tensor_eff),
            FLASH_BACKWARD: _or(params.attention_backward_efficiency, self.tensor_eff),
        }
        self.step_digest = ""
        #: op key -> kernels charged to the block holding that op (whole-step plan).
        self.charged: dict[Hashable, list[Kernel]] = {}
        self.planned_ops: set[Hashable] = set()

    def prepare(self, graph: BlockGraph) -> None:
        scopes: dict[int, list[Op]] = {}
        digest = hashlib.sha256()
        for block in graph.blocks:
            if block.repeats >= 0:  # another iteration of a body: planned with its first one
                digest.update(f"{block.repeats}".encode())
                continue
            scopes.setdefault(block.scope, []).extend(block.ops)
            digest.update(repr([_op_key(op) for op in block.ops]).encode())
            digest.update(canonical_block_text(block).encode())
        # The step's content (types and attributes included) and its wiring (op keys), so an
        # edited module never reuses another step's cross-block charges from a cache.
        self.step_digest = digest.hexdigest()[:16]
        self.planned_ops = set()
        self.charged = {}
        sunk: dict[int, list[int]] = {}  # loop body scope -> its sunk loop-invariant constants
        for scope in range(len(graph.loops) + 1):  # a loop's scope comes after its parent's
            ops = scopes.get(scope, [])
            folded = sunk.get(scope, [])
            constants = constant_values(ops, folded)
            for number, loop in enumerate(graph.loops, 1):
                if loop.parent == scope:
                    positions = sunk_arguments(loop.op.operands, loop.args, loop.yielded, constants)
                    sunk[number] = [loop.args[k] for k in positions]
            position = {_op_key(op): i for i, op in enumerate(ops)}
            self.planned_ops.update(position)
            planned = plan_kernels(ops, _scope_outputs(graph, scope, sunk), self.fused_attention,
                                   folded, self.rules, entry=scope == 0)
            for kernel in with_launch_gaps(planned, self.launch_gaps):
                last = max((op for op in kernel.anchors if _op_key(op) in position),
                           key=lambda op: position[_op_key(op)], default=None)
                if last is not None:
                    self.charged.setdefault(_op_key(last), []).append(kernel)

    def fingerprint(self) -> str:
        return f"{super().fingerprint()}:{self.step_digest}"

    def wave_efficiency(self, mnk: tuple[int, int, int] | None) -> float:
        """Fraction of the cores busy over a dot/convolution's waves of output tiles."""
        if not mnk or self.cores <= 0:
            return 1.0
        m, n, k = mnk
        tiles = math.ceil(m / self.tile) * math.ceil(n / self.tile)
        most_splits = 1
        if tiles < self.cores:
            most_splits = max(1, min(k // _MIN_SPLIT_K, math.ceil(self.cores / tiles)))
        return max(_busy_fraction(tiles * s, self.cores) for s in range(1, most_splits + 1))

    def flash_waves(self, mnk: tuple[int, int, int] | None) -> float:
        """Fraction of the cores busy over a flash kernel's waves: one thread block per
        ``gemm_tile`` rows (FlashAttention-2 §3.2), no split along the swept sequence."""
        if not mnk or self.cores <= 0:
            return 1.0
        return _busy_fraction(math.ceil(mnk[0] / self.tile), self.cores)

    def mxu_fill(self, kernel: Kernel) -> float:
        """Fraction of the matrix unit ``kernel``'s matmuls keep busy once their operands are
        padded to its ``mxu_size`` x ``mxu_size`` systolic array (1.0 with none).

        The array holds a tile of the stationary ("weight") operand: its contracted dimension K
        and its free dimension fill ``mxu_size`` rows and columns, the other operand streams
        through (How to Scale Your Model, "How to Think About TPUs": weight matrices are padded
        to the MXU size in both dimensions). XLA picks which operand of a dot is stationary, so
        a dot keeps the better of its lhs (M) and rhs (N) free sizes. A flash kernel is a
        Pallas kernel whose every matmul has the head dimension as K or as the stationary free
        dimension (splash attention's ``q k^T``, ``s v``, ``p^T dO``, ``dO v^T``, ``ds q``,
        ``ds^T k``), with sequence blocks of whole tiles on the other side.
        """
        if self.mxu <= 0:
            return 1.0
        if kernel.kind is Kind.ATTENTION:
            return _padded_share(kernel.gemm_mnk[1], self.mxu) if kernel.gemm_mnk else 1.0
        if kernel.dot_mnk is None:
            return 1.0
        m, n, k = kernel.dot_mnk
        return _padded_share(k, self.mxu) * max(_padded_share(m, self.mxu),
                                                 _padded_share(n, self.mxu))

    def vector_flops(self, kernel: Kernel) -> float:
        """``kernel``'s vector-unit work: its FLOPs off the tensor unit, weighted by the op
        profile's cycles (`fusion.op_cycles`) when the preset names one. A kernel running part
        of an expanded op keeps the count of its part."""
        if self.op_cycles is None or kernel.part:
            return kernel.flops - kernel.tensor_flops
        return vector_work(kernel.ops, self.op_cycles)

    def kernel_cost(self, kernel: Kernel) -> tuple[float, str, tuple[str, ...]]:
        """(seconds per launch, dtype of its compute rate, notes) of ``kernel``."""
        notes = dict.fromkeys(kernel.notes)
        flash = kernel.kind is Kind.ATTENTION
        compute_s = 0.0 if flash else self.vector_flops(kernel) / self.vector_rate
        dtype = kernel.ops[0].result_types[0].dtype if kernel.ops[0].result_types else ""
        if kernel.tensor_flops:
            rate, dtype, note = self.rate("tensor", kernel.tensor_dtype)
            if note:
                notes[note] = None
            rate *= self.mxu_fill(kernel)
            if flash:
                compute_s += kernel.tensor_flops / (
                    rate * self.attention_eff[kernel.gemm_kind] * self.flash_waves(kernel.gemm_mnk))
            else:
                padding = kernel.channel_padding if self.conv_padding else 1.0
                channels = channel_efficiency(self.conv_channel_eff, kernel.conv_channels)
                compute_s += kernel.tensor_flops * padding / (
                    rate * self.dtype_eff.get(dtype, self.tensor_eff) * channels
                    * self.wave_efficiency(kernel.gemm_mnk))
        scatter = kernel.part == SCATTER or (kernel.kind is Kind.OPAQUE and any(
            op.short_name == "scatter" for op in kernel.ops))
        memory_s = kernel.bytes / (self.scatter_bandwidth if scatter else self.bandwidth)
        if self.loop_rate > 0:
            memory_s = max(memory_s, loop_elements(kernel) / self.loop_rate)
        time_s = (self.launch_s + compute_s + memory_s
                  - self.overlap * min(compute_s, memory_s) + kernel.gap_s)
        if kernel.row_tiles is not None and kernel.row_tiles[0] in self.row_tile_s:
            kind, tiles = kernel.row_tiles
            time_s += math.ceil(tiles / max(self.cores, 1)) * self.row_tile_s[kind]
        return time_s, dtype, tuple(notes)

    def estimate_kernels(self, kernels: list[Kernel]) -> Estimate:
        """The estimate of a planned kernel list: one `OpCost` row per kernel."""
        rows: list[OpCost] = []
        for kernel in kernels:
            time_s, dtype, notes = self.kernel_cost(kernel)
            rows.append(OpCost(kernel.label, dtype, kernel.flops * kernel.count,
                               kernel.bytes * kernel.count, time_s * kernel.count,
                               kernel.fallback, notes))
        flops = sum(r.flops for r in rows)
        peak = max([self.hardware.peak_flops, self._vector_rate,
                    *self.hardware.per_dtype_flops.values()])
        return Estimate(time_s=sum(r.time_s for r in rows), flops=flops,
                        bytes=sum(r.bytes for r in rows), per_op=tuple(rows), peak_flops=peak)

    def block_kernels(self, block: Block) -> list[Kernel]:
        """The kernels ``block`` costs: those of the whole-step plan charged to it, or its own
        plan when `prepare` did not see it."""
        keys = [_op_key(op) for op in block.ops]
        if self.planned_ops and all(k in self.planned_ops for k in keys):
            return [k for key in keys for k in self.charged.get(key, ())]
        return plan_kernels(block.ops, block_outputs(block), self.fused_attention, (),
                            self.rules)

    def estimate(self, block: Block) -> Estimate:
        return self.estimate_kernels(self.block_kernels(block))


def _scope_outputs(graph: BlockGraph, scope: int, sunk: Mapping[int, list[int]]) -> set[int]:
    """Values defined in ``scope`` and read after it: the step's outputs at the top level, what an
    iteration yields in a loop body, and what the loops it holds read (their operands, but for
    their ``sunk`` loop-invariant constants, and captured values)."""
    outputs = set(graph.returned) if scope == 0 else set(graph.loops[scope - 1].yielded)
    for number, loop in enumerate(graph.loops, 1):
        if loop.parent == scope:
            dropped = set(sunk.get(number, ()))
            outputs.update(v for v, arg in zip(loop.op.operands, loop.args, strict=True)
                           if arg not in dropped)
            outputs.update(loop.op.captures)
    return outputs


def _or(value: float | None, default: float) -> float:
    """A param left unset (None) stands for ``default``, another param's value."""
    return default if value is None else value


def _padded_share(size: int, tile: int) -> float:
    """``size`` over ``size`` rounded up to a multiple of ``tile``."""
    return size / (math.ceil(size / tile) * tile) if size > 0 else 1.0


def _busy_fraction(ctas: int, cores: int) -> float:
    """Fraction of core-time busy when ``ctas`` equal work items run in waves on ``cores``."""
    return ctas / (math.ceil(ctas / cores) * cores)


def _op_key(op: Op) -> Hashable:
    """Identifies an op of one per-device program (its SSA ids are unique there)."""
    return (op.name, op.index, op.results, op.operands)
