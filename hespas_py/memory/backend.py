"""What an XLA backend's compiler does that changes which buffers are live when, for
`hespas_py.memory.liveness`: the order it schedules kernels in, the element type it
computes 16-bit float dots in, and whether it merges sibling kernels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from hespas_py.estimate.fusion.scope import Node, Scope

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
        multi_output_fusion: it merges sibling kernels that read one large value into one
            multi-output kernel (`Planner.fuse`), which then runs once all their operands
            exist; without it each sibling is a kernel of its own, scheduled on its own.
        gpu_buffers: its rewrites add the buffers of `hespas_py.memory.gpu_buffers` (cuDNN's
            padded convolution inputs, the expanded ``select_and_scatter``'s shared init).
    """

    breadth_first: bool = False
    f32_dots: bool = False
    multi_output_fusion: bool = True
    gpu_buffers: bool = False


#: XLA:GPU: kernels in program order (XLA:GPU's schedulers minimize memory, and the program
#: order of a JAX step is close to their choice: the peaks of ``bench/memory.py gpu``) and
#: 16-bit dots in their own type (cuBLAS and cuDNN take bf16 and f16); cuDNN's padded inputs and
#: the expanded ``select_and_scatter``'s init.
XLA_GPU = Backend(gpu_buffers=True)
#: XLA:CPU as jaxlib builds it: the concurrency-optimized scheduler
#: (``xla_cpu_enable_concurrency_optimized_scheduler``, default true, picks
#: ``BFSMemoryScheduler`` in ``xla/service/cpu/cpu_compiler.cc``) and 16-bit dots and
#: convolutions run in f32 (``FloatNormalization`` with ``CpuFloatSupport`` for bf16,
#: ``ChangeOpDataType`` for f16, same file: its optimized HLO of a bf16 dot writes f32), and
#: no multi-output fusion (``CpuMultiOutputFusion`` runs only with the backend option
#: ``xla_cpu_use_multi_output_fusion``, off by default: same file and ``cpu_options.cc``; no
#: fusion of its optimized LLaMA step has a tuple root). So a sibling that is ready early runs
#: early: the probabilities a remat'd attention backward recomputes, f32 and ready once the
#: scores are, wait in memory for the dO-dependent dot of every layer at once.
XLA_CPU = Backend(breadth_first=True, f32_dots=True, multi_output_fusion=False)
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
