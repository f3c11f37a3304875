"""What an XLA backend's compiler does that changes which buffers are live when, for
`hespas_py.memory.liveness`: the order it schedules kernels in, the element type it
computes 16-bit float dots in, and how its fusion passes differ from XLA:GPU's. XLA:CPU changed
between jaxlib 0.10 and 0.11; ``"cpu"`` is the installed jaxlib's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from hespas_py.estimate.fusion.rules import FusionPasses
from hespas_py.estimate.fusion.scope import Node, Scope
from hespas_py.jaxcompat import JAXLIB_RELEASE

#: Ops a backend with `Backend.f32_dots` computes in f32 when their result is a 16-bit float.
WIDENED = frozenset({"dot_general", "dot", "convolution"})
#: The 16-bit float types it widens.
NARROW_FLOATS = frozenset({"bf16", "f16"})


@dataclass(frozen=True, slots=True)
class Backend:
    """What an XLA backend's compiler does that changes which buffers are live when.

    Attributes:
        breadth_first: it schedules each computation breadth-first, every kernel as soon as
            its operands exist, rather than close to program order (``BFSMemoryScheduler``,
            ``xla/service/hlo_memory_scheduler.cc``: a first-in first-out queue, seeded with the
            instructions that wait for nothing, in program order, and taking each once its last
            operand's writer ran: `hespas_py.dag.Dag.order` without a priority).
        f32_dots: it computes dots and convolutions of 16-bit floats in f32, so their result
            buffers are f32.
        fusion: where its fusion passes differ from XLA:GPU's (`FusionPasses`).
        dot_operands_as_stored: its dots read their operands as stored, so a ``convert``
            feeding a dot is written by its producer's kernel (`GpuRules.cublas_gemm_operands`).
        gpu_buffers: its rewrites add the buffers of `hespas_py.memory.gpu_buffers` (cuDNN's
            padded convolution inputs, the expanded ``select_and_scatter``'s shared init).
    """

    breadth_first: bool = False
    f32_dots: bool = False
    fusion: FusionPasses = FusionPasses()
    dot_operands_as_stored: bool = False
    gpu_buffers: bool = False


#: XLA:GPU: kernels in program order (XLA:GPU's schedulers minimize memory, and the program
#: order of a JAX step is close to their choice: the peaks of ``bench/memory.py gpu``) and
#: 16-bit dots in their own type (cuBLAS and cuDNN take bf16 and f16); cuDNN's padded inputs and
#: the expanded ``select_and_scatter``'s init.
XLA_GPU = Backend(gpu_buffers=True)
#: XLA:CPU as jaxlib 0.10 builds it (``xla/service/cpu/cpu_compiler.cc``): the
#: concurrency-optimized scheduler (``xla_cpu_enable_concurrency_optimized_scheduler``, default
#: true, picks ``BFSMemoryScheduler``); 16-bit dots and convolutions run in f32
#: (``FloatNormalization`` with ``CpuFloatSupport`` for bf16, ``ChangeOpDataType`` for f16: its
#: optimized HLO of a bf16 dot writes f32); no multi-output fusion (``CpuMultiOutputFusion`` runs
#: only with ``xla_cpu_use_multi_output_fusion``, off by default: ``cpu_options.cc``; no fusion
#: of its optimized LLaMA step has a tuple root); its instruction fusion's expensive-producer
#: test; and ``OptimizationBarrierExpander`` before scheduling. So a sibling that is ready early
#: runs early: the probabilities a remat'd attention backward recomputes, f32 and ready once
#: the scores are, wait in memory for the dO-dependent dot of every layer at once.
XLA_CPU_0_10 = Backend(breadth_first=True, f32_dots=True, fusion=FusionPasses(
    multi_output=False, expensive_reuse=True))
#: XLA:CPU from jaxlib 0.11 on, as its optimized HLO of the shipped LLaMA step shows: the same
#: scheduler and fusion, but barriers kept until after scheduling (the expander runs after it),
#: so each layer's recomputed attention waits for its gradient; 16-bit dots in their own type,
#: as YNNPACK fusions (``__ynn_fusion``) that read their operands as stored and take a
#: ``convert`` of their result to f32 (they write f32).
XLA_CPU_0_11 = Backend(breadth_first=True, dot_operands_as_stored=True, fusion=FusionPasses(
    multi_output=False, barriers=True, dot_converts=True, expensive_reuse=True))
#: XLA:CPU as the installed jaxlib builds it.
XLA_CPU = XLA_CPU_0_11 if JAXLIB_RELEASE >= (0, 11) else XLA_CPU_0_10
#: Backends by the name `hespas_py.memory.analyze` takes.
BACKENDS = {"gpu": XLA_GPU, "cpu": XLA_CPU}


def sliced_state(node: Node, fresh: Iterator[int]) -> set[int]:
    """The keys of ``node``'s (a ``while``'s) operands whose state element its body passes on
    unchanged and reads only as the operand of ``dynamic_slice``: a `Backend.f32_dots` backend
    carries them in f32 (``dynamic_slice`` of 16-bit floats is normalized to f32 too, which
    converts its whole operand, and ``WhileLoopInvariantCodeMotion`` hoists that convert of a
    loop-invariant value out of the loop). ``fresh``: the walk's key counter."""
    body = node.op.regions[1]
    keys = {a: next(fresh) for a in body.args}
    scope = Scope(body.ops, keys, fresh)
    readers: dict[int, list[tuple[str, int]]] = {}
    for inner in scope.nodes:
        for i, k in enumerate(inner.inputs):
            readers.setdefault(k, []).append((inner.op.short_name, i))
    positions = [k for k in range(len(node.op.operands)) if k not in node.sunk]
    sliced = set()
    for key, k in zip(node.inputs, positions):
        arg = keys[body.args[k]]
        if k < len(scope.returned) and scope.returned[k] == arg and readers.get(arg) \
                and all(r == ("dynamic_slice", 0) for r in readers[arg]):
            sliced.add(key)
    return sliced
