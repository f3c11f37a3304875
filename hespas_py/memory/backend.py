"""What an XLA backend's compiler does that changes which buffers are live when, for
`hespas_py.memory.liveness`: the order it schedules kernels in, which 16-bit float ops it
computes in f32, and how its fusion passes differ from XLA:GPU's. XLA:CPU changed
between jaxlib 0.10 and 0.11; ``"cpu"`` is the installed jaxlib's."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from hespas_py.jaxcompat import JAXLIB_RELEASE
from hespas_py.kernels import FusionPasses, Node, Scope

#: The op families of `Backend.f32_ops`, by op name.
FAMILY = {"dot_general": "dot", "dot": "dot", "convolution": "convolution"}


def _pairs(families: str, dtypes: str) -> frozenset[tuple[str, str]]:
    return frozenset((f, d) for f in families.split() for d in dtypes.split())


@dataclass(frozen=True, slots=True)
class Backend:
    """What an XLA backend's compiler does that changes which buffers are live when.

    Attributes:
        breadth_first: it schedules each computation breadth-first, every kernel as soon as
            its operands exist, rather than close to program order (``BFSMemoryScheduler``,
            ``xla/service/hlo_memory_scheduler.cc``: a first-in first-out queue, seeded with the
            instructions that wait for nothing, in program order, and taking each once its last
            operand's writer ran: `hespas_py.dag.Dag.order` without a priority).
        f32_ops: the (op family, 16-bit float type) pairs it computes in f32 (float
            normalization): such an op's result buffer is f32 and each of its 16-bit operands
            is converted to f32 (`FAMILY` names the families: ``dot``, ``convolution``).
        f32_slices: the 16-bit float types whose ``dynamic_slice`` it computes in f32, which
            converts the whole operand (a loop's sliced state: `sliced_state`).
        fusion: where its fusion passes differ from XLA:GPU's (`FusionPasses`).
        gpu_buffers: its rewrites add the buffers of `hespas_py.memory.gpu_buffers` (cuDNN's
            padded convolution inputs, the expanded ``select_and_scatter``'s shared init).
    """

    breadth_first: bool = False
    f32_ops: frozenset[tuple[str, str]] = frozenset()
    f32_slices: frozenset[str] = frozenset()
    fusion: FusionPasses = FusionPasses()
    gpu_buffers: bool = False

    @property
    def widened_types(self) -> frozenset[str]:
        """The 16-bit float types some op of it computes in f32 (`f32_ops`, `f32_slices`)."""
        return frozenset(dtype for _, dtype in self.f32_ops) | self.f32_slices


#: XLA:GPU: kernels in program order (XLA:GPU's schedulers minimize memory, and the program
#: order of a JAX step is close to their choice: the peaks of ``bench/memory.py gpu``) and
#: 16-bit dots in their own type (cuBLAS and cuDNN take bf16 and f16); cuDNN's padded inputs and
#: the expanded ``select_and_scatter``'s init.
XLA_GPU = Backend(gpu_buffers=True)
#: XLA:CPU as jaxlib 0.10 builds it (``xla/service/cpu/cpu_compiler.cc``): the
#: concurrency-optimized scheduler (``xla_cpu_enable_concurrency_optimized_scheduler``, default
#: true, picks ``BFSMemoryScheduler``); no multi-output fusion (``CpuMultiOutputFusion`` runs only
#: with ``xla_cpu_use_multi_output_fusion``, off by default: ``cpu_options.cc``; no fusion of its
#: optimized LLaMA step has a tuple root); its instruction fusion's expensive-producer test
#: (`FusionPasses.expensive_reuse`); optimization barriers removed before scheduling. Float
#: normalization (``FloatNormalization`` with ``CpuFloatSupport`` for bf16, ``ChangeOpDataType``
#: for f16): bf16 and f16 dots and convolutions, and bf16 ``dynamic_slice``, run in f32 (its
#: optimized HLO of each, jax 0.10.2). So a sibling that is ready early runs early: the
#: probabilities a remat'd attention backward recomputes, f32 and ready once the scores are, wait
#: in memory for the dO-dependent dot of every layer at once.
XLA_CPU_0_10 = Backend(
    breadth_first=True, f32_ops=_pairs("dot convolution", "bf16 f16"), f32_slices=frozenset(
        {"bf16"}), fusion=FusionPasses(multi_output=False, expensive_reuse=True))
#: XLA:CPU from jaxlib 0.11 on, as its optimized HLO shows (jax 0.12: the shipped LLaMA step,
#: and one dot, convolution and scanned ``dynamic_slice`` of each 16-bit type): the same
#: scheduler and fusion, but optimization barriers kept through scheduling (its optimized HLO
#: of the LLaMA step has none left, and each layer's recomputed attention waits for that
#: layer's gradient), and bf16 dots in bf16 as YNNPACK fusions (``__ynn_fusion``) that read
#: their operands as stored and take a ``convert`` of their result to f32 (they write f32 then);
#: f16 dots and 16-bit convolutions still run in f32, ``dynamic_slice`` in its own type.
XLA_CPU_0_11 = Backend(
    breadth_first=True, f32_ops=_pairs("dot", "f16") | _pairs("convolution", "bf16 f16"),
    fusion=FusionPasses(multi_output=False, barriers=True, dot_converts=True,
                        expensive_reuse=True, dot_operands_as_stored=True))
#: XLA:CPU as the installed jaxlib builds it.
XLA_CPU = XLA_CPU_0_11 if JAXLIB_RELEASE >= (0, 11) else XLA_CPU_0_10
#: Backends by the name `hespas_py.memory.analyze` takes.
BACKENDS = {"gpu": XLA_GPU, "cpu": XLA_CPU}


def sliced_state(node: Node, fresh: Iterator[int]) -> set[int]:
    """The keys of ``node``'s (a ``while``'s) operands whose state element its body passes on
    unchanged and reads only as the operand of ``dynamic_slice``: a backend that computes such a
    slice in f32 (`Backend.f32_slices`) carries them in f32 (the normalization converts the
    whole operand, and ``WhileLoopInvariantCodeMotion`` hoists that convert of a loop-invariant
    value out of the loop). ``fresh``: the walk's key counter."""
    body = node.op.regions[1]
    keys = {a: next(fresh) for a in body.args}
    scope = Scope(body.ops, keys, fresh)
    readers: dict[int, list[tuple[str, int]]] = {}
    for inner in scope.nodes:
        for i, k in enumerate(inner.inputs):
            readers.setdefault(k, []).append((inner.op.short_name, i))
    positions = [k for k in range(len(node.op.operands)) if k not in node.sunk]
    sliced = set()
    for key, k in zip(node.inputs, positions, strict=False):
        arg = keys[body.args[k]]
        if k < len(scope.returned) and scope.returned[k] == arg and readers.get(arg) \
                and all(r == ("dynamic_slice", 0) for r in readers[arg]):
            sliced.add(key)
    return sliced
