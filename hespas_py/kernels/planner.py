"""The fusion decisions: which ops of a scope share a kernel (loop, input, epilogue and
multi-output fusion; see the package docstring for the rules and their XLA sources)."""

from __future__ import annotations

from collections.abc import Collection

from hespas_py.kernels.attention import FlashPlan
from hespas_py.kernels.convolution import CONV_FORWARD, conv_kind
from hespas_py.kernels.cpu_fusion import dot_convert, reused_expensive
from hespas_py.kernels.kernel import Kind
from hespas_py.kernels.kernel_groups import Group, Grouping
from hespas_py.kernels.multi_output import merge_siblings
from hespas_py.kernels.normalization import normalization_kernels
from hespas_py.kernels.rules import FusionPasses, GpuRules
from hespas_py.kernels.scope import IN_PLACE, Node, OpClass, Scope
from hespas_py.mlir.ops import Op

#: Ops XLA never duplicates into several consumers (instruction_fusion's IsExpensive, plus ops
#: that re-read operand elements).
_EXPENSIVE = frozenset({
    "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "tanh", "sine",
    "cosine", "tan", "power", "atan2", "erf", "erf_inv", "erfc", "lgamma", "digamma", "cbrt",
    "sqrt", "rsqrt", "remainder", "reduce_window", "gather", "dynamic_slice",
})
#: Ops XLA's GPU priority fusion does not count as expensive for f32/f16 results (single
#: hardware instructions or short sequences: ``GpuPriorityFusion::IsExpensive``,
#: xla/service/gpu/transforms/priority_fusion.cc; `GpuRules.cheap_gpu_math`).
CHEAP_ON_GPU = frozenset({"exponential", "sqrt", "rsqrt", "divide"})
CHEAP_ON_GPU_TYPES = frozenset({"f32", "f16"})
#: Ops a dot/convolution epilogue can hold (cuBLASLt / cuDNN fused epilogues, Triton GEMM fusion).
_EPILOGUE = frozenset({
    "add", "subtract", "multiply", "maximum", "minimum", "convert", "broadcast_in_dim", "select",
    "compare", "negate", "clamp", "tanh", "logistic", "exponential", "divide",
})
#: Ops cuDNN's fused forward conv-bias-activation holds (``cudnn_fused_conv_rewriter``: alpha
#: scale, bias and side-input adds, ReLU as max(x, 0), type converts; ELU/ReLU6/leaky ReLU need
#: cuDNN runtime fusion, off by default in XLA).
_CONV_EPILOGUE = frozenset({"add", "multiply", "maximum", "convert", "broadcast_in_dim"})
#: Cheap producers whose own inputs a consumer kernel reads instead of their result.
_LOOKED_THROUGH = frozenset({"broadcast_in_dim", "broadcast", "iota", "convert"})
#: Producers that fold into a dot operand (XLA's Triton GEMM fusions take operand transposes and
#: type converts).
_OPERAND_FOLDABLE = frozenset({"transpose", "reverse", "convert"})
#: Producers that fold into a convolution operand. A cuDNN convolution reads its operands in its
#: own element type: ``conv_rewriter`` absorbs a kernel ``reverse`` into a backward-input call,
#: but ``cudnn_fused_conv_rewriter`` fuses converts only on the output side
#: (``FuseConvertTypeIntoConv``), so an operand convert is computed, and its narrower result
#: written, by its producer's kernel.
_CONV_OPERAND_FOLDABLE = frozenset({"transpose", "reverse"})

_KIND_OF = {
    OpClass.LOOP: Kind.LOOP, OpClass.REDUCE: Kind.REDUCTION, OpClass.GEMM: Kind.GEMM,
    OpClass.OPAQUE: Kind.OPAQUE, OpClass.FUSION: Kind.FUSION, OpClass.CONTROL: Kind.OPAQUE,
    OpClass.COLLECTIVE: Kind.OPAQUE,
}

#: Index types a Triton GEMM fusion takes for a dynamic slice of its operand.
_SLICE_INDEX_TYPES = frozenset({"i8", "i16", "i32"})


def _leading_dynamic_slice(op: Op) -> bool:
    """Whether ``op`` is a ``dynamic_slice`` that a dot's Triton GEMM fusion reads in place: it
    cuts only the major-most (leading, in XLA's default layout) dimension, with 8- to 32-bit
    signed indices (``legacy_triton::IsTritonSupportedDynamicSlice``, XLA's triton_support.cc).
    A scan's per-layer slice of its stacked weights is one."""
    if op.short_name != "dynamic_slice" or not op.result_types:
        return False
    source, result = op.operand_types[0].shape, op.result_types[0].shape
    return (len(source) == len(result) and source[1:] == result[1:]
            and all(t.dtype in _SLICE_INDEX_TYPES for t in op.operand_types[1:]))


def _loop_fusible(node: Node) -> bool:
    """Whether ``node`` may fuse into the kernels that read it (a loop-class op, not in place)."""
    return node.cls is OpClass.LOOP and node.op.short_name not in IN_PLACE


class Planner(Grouping):
    """Groups one scope's nodes into kernels and counts their traffic."""

    def __init__(self, scope: Scope, outputs: Collection[int], fused_attention: bool = False,
                 rules: GpuRules = GpuRules(), passes: FusionPasses = FusionPasses()) -> None:
        """``rules``: XLA:GPU's rewrites that apply; ``passes``: another compiler's fusion
        (XLA:GPU's by default)."""
        super().__init__(scope, outputs, passes.barriers)
        self.rules = rules
        self.passes = passes
        self.prologue: set[int] = set()  # nodes folded into a dot/convolution operand
        self._read_costs: dict[int, int] = {}
        #: The scope's flash-attention kernels, when attention is fused (`attention`).
        self.flash = FlashPlan(self) if fused_attention else None

    # -- greedy consumer-first fusion (XLA visits producers after their consumers)
    def fuse(self) -> None:
        """Plan the scope's kernels."""
        passes = self.passes
        if (plan := self.flash) is not None:
            for pattern in plan.patterns:
                plan.groups[len(self.groups)] = pattern
                self.groups.append(Group(Kind.ATTENTION))
                for i in sorted(pattern.members):
                    self.join(len(self.groups) - 1, i)
        normalizations: list[int] = []
        if self.rules.triton_normalization:
            flash = {i for i, groups in enumerate(self.node_groups) if groups}
            for members in normalization_kernels(self, flash):
                normalizations.append(len(self.groups))
                self.groups.append(Group(Kind.REDUCTION))
                for i in sorted(members):
                    self.join(len(self.groups) - 1, i)
        for i in reversed(range(len(self.nodes))):
            node = self.nodes[i]
            if self.node_groups[i]:
                continue  # computed by a flash-attention or normalization kernel
            if _loop_fusible(node) and not (passes.dot_converts and dot_convert(self, i)) \
                    and not (passes.expensive_reuse and reused_expensive(self, i)) \
                    and self._fuse_into_consumers(i):
                continue
            if node.cls is OpClass.GEMM and self._fuse_epilogue(i):
                continue
            self._new_group(i, _KIND_OF[node.cls])
        for g in normalizations:
            self._recompute_in_consumers(g)
        if passes.multi_output:
            merge_siblings(self)

    def _fuse_into_consumers(self, i: int) -> bool:
        consumers = self.consumers(i)
        if not consumers:
            return False
        targets: set[int] = set()
        for c in consumers:
            for g in self.node_groups[c]:
                if not self._accepts(g, c, i):
                    return False
                targets.add(g)
        operand = [self.nodes[c].cls is OpClass.GEMM or c in self.prologue for c in consumers]
        # Every GEMM fusion takes its own copy of an operand producer (XLA's GemmFusion clones
        # producers into each Triton fusion); other kernels share one only where it pays.
        if len(targets) > 1 and not all(operand) and (
                self._expensive(i) or not self._duplication_pays(i, targets)):
            return False
        for g in targets:
            self.join(g, i)
            if self.groups[g].kind is Kind.GEMM and any(operand):
                self.prologue.add(i)
        return True

    def _expensive(self, i: int) -> bool:
        """Whether node ``i`` is too costly to recompute in several kernels (XLA's
        ``InstructionFusion::IsExpensive``), less the ops XLA's GPU priority fusion calls cheap
        (`GpuRules.cheap_gpu_math`)."""
        op = self.nodes[i].op
        if op.short_name not in _EXPENSIVE:
            return False
        return not (self.rules.cheap_gpu_math and op.short_name in CHEAP_ON_GPU
                    and op.result_types[0].dtype in CHEAP_ON_GPU_TYPES)

    def _duplication_pays(self, i: int, targets: set[int]) -> bool:
        """XLA's priority-fusion test for a producer with several consumer kernels: recomputing it
        in each of them must move no more bytes than storing it once and reading it back (at a
        tie fusing still wins: it saves the producer's kernel launch, which XLA's
        ``GpuPerformanceModel::EstimateRunTimes`` charges to the unfused side). The producer is
        weighed alone, or with its operand cone (`GpuRules.duplication_cone`)."""
        node = self.nodes[i]
        inputs = (self._cone_inputs(i) if self.rules.duplication_cone
                  else [k for k in dict.fromkeys(node.inputs) if k not in self.scope.folded])
        stored = sum(self.nbytes(k) for k in node.outputs)
        unfused = sum(self._read_cost(k) for k in inputs) + (1 + len(targets)) * stored
        fused = sum(self._read_cost(k) for g in targets for k in inputs
                    if k not in self.groups[g].inputs and k not in self.groups[g].produced)
        return fused <= unfused

    def _cone_inputs(self, i: int) -> list[int]:
        """What a kernel computing node ``i`` reads: the inputs of ``i`` and of its operand cone,
        the loop-fusible producers whose every result only the cone reads.

        XLA's priority fusion fuses producers most-beneficial first (``PriorityFusionQueue``,
        xla/service/gpu/transforms/priority_fusion.cc): a single-consumer chain saves the write
        and read of each intermediate, so it is fused before a producer with several consumers
        is weighed for duplication, and duplicating it then means recomputing the whole chain
        from the chain's inputs (a ReLU backward ``select`` with its BatchNorm forward
        recomputation reads the convolution output and the gradient, not one mask)."""
        cone = {i}
        inputs: list[int] = []
        stack = list(reversed(self.nodes[i].inputs))
        while stack:
            key = stack.pop()
            if key in self.scope.folded or key in inputs:
                continue
            p = self.producer.get(key)
            if (p is not None and p not in cone and _loop_fusible(self.nodes[p])
                    and (consumers := self.consumers(p)) is not None and set(consumers) <= cone):
                cone.add(p)
                stack.extend(reversed(self.nodes[p].inputs))
            elif p not in cone:
                inputs.append(key)
        return inputs

    def _recompute_in_consumers(self, g: int) -> None:
        """Recompute Triton normalization kernel ``g`` in every kernel that reads its result, when
        that moves fewer bytes than writing the result once and reading it back in each.

        XLA's priority fusion fuses a producer only into all of its users at once
        (``CanFuseWithAllNonBitcastUsers``), a Triton normalization fusion into any fusible
        consumer (``CanFuseTriton``), when its cost model finds the fused kernels faster
        (``GpuPerformanceModel::EstimateRunTimesForPriorityFusion``, xla/service/gpu/transforms/
        priority_fusion.cc); here the test is on bytes, as in `_duplication_pays`. A softmax
        backward that recomputes the forward (a remat'd LLaMA step) reads ``exp(x - max)`` in
        the row sum, the probabilities and the score gradient: each of those kernels recomputes
        the max and the exponential from the bf16 scores instead of reading an f32 ``exp``."""
        group = self.groups[g]
        results = [k for k in group.produced if self.materialized(k)]
        if not results or any(k in self.outputs for k in results):
            return
        targets = set().union(*(self.reader_groups(k) for k in results))
        if any(self.groups[t].kind not in (Kind.LOOP, Kind.REDUCTION) for t in targets):
            return
        inputs = [k for k in group.inputs if k not in group.produced]
        stored = sum(self.nbytes(k) for k in results)
        unfused = sum(self._read_cost(k) for k in inputs) + (1 + len(targets)) * stored
        fused = sum(self._read_cost(k) for t in targets for k in inputs
                    if k not in self.groups[t].inputs and k not in self.groups[t].produced)
        if fused > unfused:
            return
        for t in targets:
            self.groups[t].kind = Kind.REDUCTION  # a Triton row kernel, as ``g`` was
        for m in group.members:
            self.node_groups[m].discard(g)
            for t in targets:
                self.join(t, m)
        group.members.clear()

    def _read_cost(self, key: int) -> int:
        """Bytes a kernel reads to obtain ``key``, looking through the cheap producers (broadcast,
        convert, iota) that would fuse into it."""
        if key in self.scope.folded:
            return 0
        cached = self._read_costs.get(key)
        if cached is None:
            producer = self.producer.get(key)
            node = self.nodes[producer] if producer is not None else None
            if node is not None and node.op.short_name in _LOOKED_THROUGH:
                cached = sum(self._read_cost(k) for k in dict.fromkeys(node.inputs))
            else:
                cached = self.nbytes(key)
            self._read_costs[key] = cached
        return cached

    def _accepts(self, g: int, consumer: int, producer: int) -> bool:
        """Whether kernel ``g`` can compute node ``producer``, which ``consumer`` (in g) reads."""
        kind = self.groups[g].kind
        name = self.nodes[producer].op.short_name
        if kind in (Kind.LOOP, Kind.REDUCTION):
            return True
        if kind is Kind.ATTENTION:
            assert self.flash is not None, "attention groups come from a flash plan"
            return self.flash.absorbs(g, consumer, producer)
        if kind is not Kind.GEMM:
            return False
        if self.nodes[consumer].cls is OpClass.GEMM or consumer in self.prologue:
            if any(self.nodes[m].op.short_name == "convolution" for m in self.groups[g].members):
                return name in _CONV_OPERAND_FOLDABLE
            if name == "convert" and (self.rules.cublas_gemm_operands
                                      or self.passes.dot_operands_as_stored):
                return False
            return name in _OPERAND_FOLDABLE or _leading_dynamic_slice(self.nodes[producer].op)
        return name in _EPILOGUE

    def _fuse_epilogue(self, i: int) -> bool:
        consumers = self.consumers(i)
        if not consumers or len(set(consumers)) != 1:
            return False
        groups = self.node_groups[consumers[0]]
        if len(groups) != 1:
            return False
        (g,) = groups
        group = self.groups[g]
        allowed = _EPILOGUE
        op = self.nodes[i].op
        if op.short_name == "convolution":
            if conv_kind(op, self.reversed_kernel(i)) != CONV_FORWARD:
                return False
            allowed = _CONV_EPILOGUE
        if group.kind is not Kind.LOOP or any(
                self.nodes[m].op.short_name not in allowed for m in group.members):
            return False
        group.kind = Kind.GEMM
        self.join(g, i)
        return True

    def reversed_kernel(self, i: int) -> bool:
        """Whether node i's kernel operand is a ``reverse`` (looking through converts) of a
        dimension longer than 1: XLA's algebraic simplifier drops a reverse of size-1 dimensions
        only (a 1x1 kernel's), before ``conv_rewriter`` classifies the convolution."""
        key = self.nodes[i].inputs[1]
        while (producer := self.producer.get(key)) is not None:
            op = self.nodes[producer].op
            name = op.short_name
            if name == "reverse":
                shape = op.operand_types[0].shape
                return any(shape[d] > 1 for d in op.attrs.get("dimensions", range(len(shape))))
            if name != "convert":
                return False
            key = self.nodes[producer].inputs[0]
        return False

    def _new_group(self, i: int, kind: Kind) -> None:
        self.groups.append(Group(kind))
        self.join(len(self.groups) - 1, i)
