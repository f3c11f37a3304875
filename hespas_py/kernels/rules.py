"""Switches of the fusion model: the rewrites only XLA's GPU compiler applies (`GpuRules`; each is
a bool param of the GPU node presets, with its source in ``configs/nodes/README.md``), and where
another compiler's fusion passes differ from XLA:GPU's (`FusionPasses`, for the memory analysis
of its programs: `hespas_py.memory.backend`)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from hespas_py.hardware import Params


@dataclass(frozen=True, slots=True)
class GpuRules:
    """Rewrites only XLA's GPU compiler applies, on for the GPU node presets that get them.

    Attributes:
        triton_normalization: row normalizations become Triton kernels (`normalization`;
            ``SoftmaxRewriterTriton``, CUDA from Ampere on), recomputed in the row kernels that
            read them where that moves fewer bytes (XLA's priority fusion).
        select_and_scatter_expansion: ``select_and_scatter`` runs as XLA's
            ``SelectAndScatterExpander`` rewrites it (`select_and_scatter`).
        cublas_gemm_operands: dots run as cuBLAS calls, which read their operands as stored:
            a ``convert`` feeding a dot is computed (and its narrower result written) by its
            producer's kernel or a kernel of its own, never inside the GEMM.
        tree_reduction: a reduction too large for one race-free kernel runs as a reduction to
            partial results and kernels reducing the partials (`tree_reduction`;
            ``TreeReductionRewriter``).
        conv_input_pads: a forward convolution whose input XLA pads for cuDNN (uneven window
            padding or input dilation: ``ConvPaddingLegalization``; channels padded for tensor
            cores: ``CudnnPadForConvolutions``) reads that copy, written by a pad kernel
            (`convolution.padded_input`).
        cublas_operand_layouts: a dot operand stored in a layout its GEMM cannot read (batch,
            row and column dimensions not each physically sequential, batch not most minor:
            ``MatrixLayout::For``) is rewritten by a transpose kernel, unless a loop or reduction
            kernel computes it for that GEMM alone and writes the layout itself
            (`operand_layout`).
        duplication_cone: a producer with several consumer kernels is weighed for duplication
            with its single-consumer operand cone (`Planner._cone_inputs`), as XLA's priority
            fusion, which has fused that cone into it first, weighs it.
        cheap_gpu_math: f32/f16 ``exponential``, ``sqrt``, ``rsqrt`` and ``divide`` may be
            recomputed in several kernels (`Planner._expensive`): XLA's GPU priority fusion
            does not count them as expensive (``GpuPriorityFusion::IsExpensive``), so a
            softmax's ``exp`` is recomputed from the logits where that moves fewer bytes.
    """

    triton_normalization: bool = False
    select_and_scatter_expansion: bool = False
    cublas_gemm_operands: bool = False
    tree_reduction: bool = False
    conv_input_pads: bool = False
    cublas_operand_layouts: bool = False
    duplication_cone: bool = False
    cheap_gpu_math: bool = False

    @classmethod
    def of(cls, params: Params) -> GpuRules:
        """The rules a hardware's params switch on (each a bool param of its field's name)."""
        return cls(**{f.name: getattr(params, f.name) for f in fields(cls)})


@dataclass(frozen=True, slots=True)
class FusionPasses:
    """Where a compiler's fusion passes differ from XLA:GPU's (the defaults).

    Attributes:
        multi_output: it merges sibling kernels that read one large value into one kernel
            (`multi_output.merge_siblings`); without it each sibling is a kernel of its own.
        barriers: it keeps ``optimization_barrier`` through fusion and scheduling: a barrier's
            operands are written to memory (the barrier is a user no producer fuses into), and
            a kernel reading a barrier's result runs only once all the barrier's operands exist
            (`Node.after`). XLA:GPU removes barriers first (``OptimizationBarrierExpander``).
        dot_converts: a ``convert`` to f32 of a 16-bit dot's result fuses into the dot, whose
            kernel writes f32, instead of into the convert's readers.
        expensive_reuse: an expensive elementwise producer does not fuse into a kernel that
            broadcasts it to more elements (``CpuInstructionFusion::ShouldFuse``'s "expensive
            producer, consumer reuses operand elements" test with ``IsExpensive``'s list,
            ``xla/service/cpu/cpu_instruction_fusion.cc``; XLA:GPU's priority fusion weighs
            fusions by its cost model instead).
        dot_operands_as_stored: its dots read their operands as stored, so a ``convert``
            feeding a dot is written by its producer's kernel (as
            `GpuRules.cublas_gemm_operands` has it for cuBLAS).
    """

    multi_output: bool = True
    barriers: bool = False
    dot_converts: bool = False
    expensive_reuse: bool = False
    dot_operands_as_stored: bool = False
