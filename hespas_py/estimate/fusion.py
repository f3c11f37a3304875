"""A model of the kernel fusion XLA's GPU compiler applies, run on plain (unoptimized) StableHLO.

`plan_kernels` groups ops into the kernels XLA would launch and counts device-memory traffic at
kernel boundaries only: a value produced and consumed inside one kernel never reaches HBM; a value
crossing a boundary is written once by its producer's kernel and read once by every kernel that
consumes it. The rules follow XLA's GPU fusion passes (``instruction_fusion``/``priority_fusion``,
``multi_output_fusion``, the cuBLAS/cuDNN epilogue rewriters), simplified:

- *Loop fusion.* Elementwise ops, ``convert``, ``broadcast_in_dim``, ``iota``, ``transpose``,
  ``slice``/``dynamic_slice``, ``pad``, ``concatenate``, ``reverse``, ``gather`` and
  ``reduce_window`` fuse into their consumers when every consumer can take them. A producer with
  several consumers is duplicated into each of them (recomputed) unless it is expensive (a
  transcendental, ``reduce_window``, ``gather``, ...), which XLA never duplicates.
- *Input (reduction) fusion.* ``reduce`` roots a kernel that takes loop-fusible producers.
- *Epilogue fusion.* A dot whose single consumer kernel is a pure elementwise chain (bias add,
  activation, convert, residual add) writes only the chain's result. A convolution takes an
  epilogue only when it is a *forward* convolution and the chain holds only what cuDNN's fused
  conv-bias-activation runs (scale, bias/side-input add, ReLU, convert): XLA's
  ``cudnn_fused_conv_rewriter`` matches forward cuDNN calls only, so backward-input and
  backward-filter convolutions (`conv_kind`, XLA's ``conv_rewriter``) always write their result.
  ``transpose``, ``reverse`` and ``convert`` producers feeding only dots fold into their
  operands; a convolution takes only ``transpose`` and ``reverse`` (cuDNN reads its operands in
  its own element type, so an operand ``convert`` ends its producer's kernel).
- *Multi-output fusion.* A loop kernel whose result a reduction kernel reads merges into it, and
  sibling loop/reduction kernels over the same iteration space that read one large value merge
  (each joins the first sibling group it can), when no other kernel lies on a path between them
  (XLA's cycle check) and neither uses a reduction result of the other.
- *Boundaries.* Collectives, control flow (``while``/``case``/``if``), ``mhlo.fusion`` (already one
  kernel), ``sort``, ``scatter``, custom calls and every other op are kernels of their own.
  ``func.call`` bodies are inlined (XLA inlines calls before fusing); ``reshape``/``bitcast`` and
  tuple plumbing are views; scalar and splat constants are folded into their users.

Nested regions (``while`` body and condition, ``case`` branches) are planned as scopes of their
own; a ``while`` repeats its kernels ``trip_count`` times, a ``case`` keeps its costliest branch.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Collection, Iterable, Iterator, Sequence

from hespas_py.estimate.costs import TENSOR, op_work
from hespas_py.mlir.ops import Op, Region, TensorType
from hespas_py.split.blocks import Block, is_collective


class Kind(enum.Enum):
    """What a kernel does; sets which rate bounds its compute."""

    GEMM = "gemm"            #: a dot/convolution (library call), with its fused epilogue
    LOOP = "loop"            #: an elementwise loop fusion
    REDUCTION = "reduction"  #: a reduction (input) fusion, possibly multi-output
    OPAQUE = "opaque"        #: an unfusible op, costed as `costs.op_work` counts it
    FUSION = "fusion"        #: an ``mhlo.fusion`` of an XLA-optimized module


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
        gemm_mnk: (M, N, K) of its dot/convolution, for tile quantization; None otherwise.
        gemm_kind: ``dot``, or the cuDNN kind of its convolution (`conv_kind`); '' when none.
        channel_padding: tensor-unit work of its convolution once cuDNN pads the channels
            (`conv_channel_padding`), relative to the unpadded work; 1.0 when not padded.
        anchors: the ops of the planned sequence its ops belong to (an op inside an inlined call
            or a loop body belongs to the call or loop op), in program order.
        count: how many times it is launched (the trip counts of enclosing loops).
        fallback: whether an op in it is unknown to `costs` and got the memory-bound fallback.
        notes: approximations made while costing it, once each.
    """

    kind: Kind
    ops: tuple[Op, ...]
    flops: float
    bytes: float
    tensor_flops: float = 0.0
    tensor_dtype: str = ""
    gemm_mnk: tuple[int, int, int] | None = None
    gemm_kind: str = ""
    channel_padding: float = 1.0
    anchors: tuple[Op, ...] = ()
    count: float = 1.0
    fallback: bool = False
    notes: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """Distinct op kinds it holds, in order, e.g. ``convolution+add+maximum``."""
        return "+".join(dict.fromkeys(op.short_name for op in self.ops)) or self.kind.value


# ------------------------------------------------------------------------------ op classes

#: Views and bookkeeping: results alias operands (no kernel, no traffic).
_VIEWS = frozenset({
    "reshape", "bitcast", "get_tuple_element", "tuple", "optimization_barrier",
    "dynamic_reshape", "sharding_constraint", "reshard", "add_dependency", "domain",
})
#: Loop-fusible ops that are not elementwise arithmetic.
_LOOP_MEMORY = frozenset({
    "broadcast_in_dim", "broadcast", "iota", "transpose", "slice", "dynamic_slice",
    "real_dynamic_slice", "pad", "concatenate", "reverse", "gather", "reduce_window",
    "bitcast_convert",
})
#: Loop-fusible ops that read only part of an operand (their traffic is what they keep).
_SLICING = frozenset({"slice", "dynamic_slice", "real_dynamic_slice", "gather"})
#: Ops XLA never duplicates into several consumers (instruction_fusion's IsExpensive, plus ops
#: that re-read operand elements).
_EXPENSIVE = frozenset({
    "exponential", "exponential_minus_one", "log", "log_plus_one", "logistic", "tanh", "sine",
    "cosine", "tan", "power", "atan2", "erf", "erf_inv", "erfc", "lgamma", "digamma", "cbrt",
    "sqrt", "rsqrt", "remainder", "reduce_window", "gather", "dynamic_slice",
})
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
_GEMMS = frozenset({"dot", "dot_general", "convolution"})
_CONTROL = frozenset({"while", "case", "if"})
_CALLS = frozenset({"call", "manual_computation"})
_TERMINATORS = frozenset({"return", "yield"})


class _Class(enum.Enum):
    LOOP = 1
    REDUCE = 2
    GEMM = 3
    OPAQUE = 4
    FUSION = 5
    CONTROL = 6
    COLLECTIVE = 7


def _classify(op: Op) -> _Class:
    name = op.short_name
    if is_collective(op):
        return _Class.COLLECTIVE
    if name in _GEMMS:
        return _Class.GEMM
    if name == "reduce":
        return _Class.REDUCE
    if name == "fusion":
        return _Class.FUSION
    if name in _CONTROL:
        return _Class.CONTROL
    if name in _LOOP_MEMORY or op_work(op).family == "elementwise":
        return _Class.LOOP
    return _Class.OPAQUE


def _is_folded_constant(op: Op) -> bool:
    """Scalar and splat constants (and device ids): folded into every user, never stored."""
    if op.short_name in ("partition_id", "replica_id"):
        return True
    return op.short_name == "constant" and (
        "value" in op.attrs or all(t.num_elements <= 1 for t in op.result_types))


# ------------------------------------------------------------------------------ scope graph


@dataclass(slots=True)
class _Node:
    op: Op
    cls: _Class
    inputs: tuple[int, ...]   # value keys read (operands, then captures)
    outputs: tuple[int, ...]  # value keys defined
    anchor: Op                # the op of the planned sequence it belongs to


@dataclass(slots=True)
class _Group:
    kind: Kind
    members: set[int] = field(default_factory=set)  # node indices
    inputs: set[int] = field(default_factory=set)   # keys its members read
    produced: set[int] = field(default_factory=set)  # keys its members define


class _Scope:
    """One op sequence (a block, a function body, a loop body) flattened into fusion nodes."""

    def __init__(self, ops: Sequence[Op], arg_keys: dict[int, int], fresh: Iterator[int]) -> None:
        self.nodes: list[_Node] = []
        self.types: dict[int, TensorType] = {}
        self.folded: set[int] = set()  # keys of folded constants
        self.fresh = fresh
        #: SSA id -> key of the scope's top-level values.
        self.env: dict[int, int] = dict(arg_keys)
        self.returned = self._flatten(ops, self.env)

    # -- flattening: calls inlined, views aliased
    def _key(self, env: dict[int, int], value: int, vtype: TensorType | None = None) -> int:
        if value not in env:
            env[value] = next(self.fresh)
            if vtype is not None:
                self.types[env[value]] = vtype
        return env[value]

    def _flatten(self, ops: Iterable[Op], env: dict[int, int],
                 anchor: Op | None = None) -> tuple[int, ...]:
        returned: tuple[int, ...] = ()
        for op in ops:
            ins = tuple(self._key(env, v, t) for v, t in zip(op.operands, op.operand_types))
            ins += tuple(self._key(env, v) for v in op.captures)
            name = op.short_name
            if name in _TERMINATORS:
                returned = ins[:len(op.operands)]
            elif name in _CALLS and op.regions:
                body = op.regions[0]
                inner = dict(env)
                inner.update(zip(body.args, ins))
                yielded = self._flatten(body.ops, inner, anchor or op)
                env.update(zip(op.results, yielded))
            elif name in _VIEWS and len(op.results) == 1 and len(op.operands) == 1:
                env[op.results[0]] = ins[0]
            elif name in _VIEWS:  # tuple plumbing: results stand for the operands' traffic
                for result, rtype in zip(op.results, op.result_types):
                    self._define(env, result, rtype)
                    self.folded.add(env[result])
            else:
                outs = tuple(self._define(env, r, t) for r, t in zip(op.results, op.result_types))
                if _is_folded_constant(op):
                    self.folded.update(outs)
                elif name != "constant":  # a dense constant is an input read from memory
                    self.nodes.append(_Node(op, _classify(op), ins, outs, anchor or op))
        return returned

    def _define(self, env: dict[int, int], value: int, vtype: TensorType) -> int:
        key = next(self.fresh)
        env[value] = key
        self.types[key] = vtype
        return key


# ------------------------------------------------------------------------------ planning


class _Planner:
    """Groups one scope's nodes into kernels and counts their traffic."""

    def __init__(self, scope: _Scope, outputs: Collection[int]) -> None:
        self.scope = scope
        self.nodes = scope.nodes
        self.outputs = set(outputs)
        self.producer: dict[int, int] = {}
        self.users: dict[int, list[int]] = {}
        for i, node in enumerate(self.nodes):
            for key in node.outputs:
                self.producer[key] = i
            for key in dict.fromkeys(node.inputs):
                self.users.setdefault(key, []).append(i)
        self.groups: list[_Group] = []
        self.node_groups: list[set[int]] = [set() for _ in self.nodes]
        self.prologue: set[int] = set()  # nodes folded into a dot/convolution operand
        self._read_costs: dict[int, int] = {}
        self.succ: dict[int, set[int]] = {}
        self.pred: dict[int, set[int]] = {}

    # -- greedy consumer-first fusion (XLA visits producers after their consumers)
    def fuse(self) -> None:
        for i in reversed(range(len(self.nodes))):
            node = self.nodes[i]
            if node.cls is _Class.LOOP and self._fuse_into_consumers(i):
                continue
            if node.cls is _Class.GEMM and self._fuse_epilogue(i):
                continue
            self._new_group(i, _KIND_OF[node.cls])
        self._multi_output()

    def _consumers(self, i: int) -> list[int] | None:
        """Consumer nodes of node i's results; None when a result leaves the scope or is unused."""
        consumers: list[int] = []
        for key in self.nodes[i].outputs:
            if key in self.outputs or key not in self.users:
                return None
            consumers.extend(self.users[key])
        return consumers

    def _fuse_into_consumers(self, i: int) -> bool:
        consumers = self._consumers(i)
        if not consumers:
            return False
        name = self.nodes[i].op.short_name
        targets: set[int] = set()
        for c in consumers:
            for g in self.node_groups[c]:
                if not self._accepts(g, c, name):
                    return False
                targets.add(g)
        if len(targets) > 1 and (name in _EXPENSIVE or not self._duplication_pays(i, targets)):
            return False
        for g in targets:
            self._join(g, i)
            if self.groups[g].kind is Kind.GEMM and any(
                    self.nodes[c].cls is _Class.GEMM or c in self.prologue for c in consumers):
                self.prologue.add(i)
        return True

    def _duplication_pays(self, i: int, targets: set[int]) -> bool:
        """XLA's priority-fusion test for a producer with several consumer kernels: recomputing it
        in each of them must move no more bytes than storing it once and reading it back (at a
        tie fusing still wins: it saves the producer's kernel launch, which XLA's
        ``GpuPerformanceModel::EstimateRunTimes`` charges to the unfused side)."""
        node = self.nodes[i]
        inputs = [k for k in dict.fromkeys(node.inputs) if k not in self.scope.folded]
        stored = sum(self._nbytes(k) for k in node.outputs)
        unfused = sum(self._read_cost(k) for k in inputs) + (1 + len(targets)) * stored
        fused = sum(self._read_cost(k) for g in targets for k in inputs
                    if k not in self.groups[g].inputs and k not in self.groups[g].produced)
        return fused <= unfused

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
                cached = self._nbytes(key)
            self._read_costs[key] = cached
        return cached

    def _accepts(self, g: int, consumer: int, name: str) -> bool:
        """Whether kernel ``g`` can compute a producer ``name`` that ``consumer`` (in g) reads."""
        kind = self.groups[g].kind
        if kind in (Kind.LOOP, Kind.REDUCTION):
            return True
        if kind is not Kind.GEMM:
            return False
        if self.nodes[consumer].cls is _Class.GEMM or consumer in self.prologue:
            convolution = any(self.nodes[m].op.short_name == "convolution"
                              for m in self.groups[g].members)
            return name in (_CONV_OPERAND_FOLDABLE if convolution else _OPERAND_FOLDABLE)
        return name in _EPILOGUE

    def _fuse_epilogue(self, i: int) -> bool:
        consumers = self._consumers(i)
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
            if conv_kind(op, self._reversed_kernel(i)) != CONV_FORWARD:
                return False
            allowed = _CONV_EPILOGUE
        if group.kind is not Kind.LOOP or any(
                self.nodes[m].op.short_name not in allowed for m in group.members):
            return False
        group.kind = Kind.GEMM
        self._join(g, i)
        return True

    def _reversed_kernel(self, i: int) -> bool:
        """Whether node i's kernel operand is a ``reverse`` (looking through converts)."""
        key = self.nodes[i].inputs[1]
        while (producer := self.producer.get(key)) is not None:
            name = self.nodes[producer].op.short_name
            if name == "reverse":
                return True
            if name != "convert":
                return False
            key = self.nodes[producer].inputs[0]
        return False

    def _new_group(self, i: int, kind: Kind) -> None:
        self.groups.append(_Group(kind))
        self._join(len(self.groups) - 1, i)

    def _join(self, g: int, i: int) -> None:
        group, node = self.groups[g], self.nodes[i]
        group.members.add(i)
        group.inputs.update(k for k in node.inputs if k not in self.scope.folded)
        group.produced.update(node.outputs)
        self.node_groups[i].add(g)

    # -- multi-output fusion
    def _multi_output(self) -> None:
        shared = [k for k in self.users if self._nbytes(k) >= _MIN_SHARED_BYTES]
        if not shared:
            return
        self.succ, self.pred = self._group_edges()
        for key in sorted(shared, key=lambda k: -self._nbytes(k)):
            candidates = {g for g in self._reader_groups(key)
                          if self.groups[g].kind in (Kind.LOOP, Kind.REDUCTION)}
            writer = self._writer_group(key)
            if writer is not None and self.groups[writer].kind is Kind.LOOP:
                candidates.add(writer)
            by_space: dict[int, list[int]] = {}
            for g in sorted(candidates):
                by_space.setdefault(self._iteration_space(g), []).append(g)
            for groups in by_space.values():
                merged: list[int] = []
                for g in groups:
                    base = next((b for b in merged if self._can_merge(b, g)), None)
                    if base is None:
                        merged.append(g)
                    else:
                        self._merge(base, g)

    def _iteration_space(self, g: int) -> int:
        """Elements a kernel iterates over: a reduction's input, else its largest result."""
        best = 0
        for m in self.groups[g].members:
            node = self.nodes[m]
            if node.cls is _Class.REDUCE:
                return self._elements(node.inputs[0])
            best = max([best, *(self._elements(k) for k in node.outputs)])
        return best

    def _group_edges(self) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
        """Kernel DAG: writer kernel -> reader kernel of every value crossing a boundary."""
        succ: dict[int, set[int]] = {g: set() for g in range(len(self.groups))}
        pred: dict[int, set[int]] = {g: set() for g in range(len(self.groups))}
        for key in self.users:
            writer = self._writer_group(key)
            if writer is None:
                continue
            for g in self._reader_groups(key) - {writer}:
                succ[writer].add(g)
                pred[g].add(writer)
        return succ, pred

    def _can_merge(self, a: int, b: int) -> bool:
        """No path between a and b through a third kernel (merging would make a cycle), and
        neither uses a reduction result of the other (`_reads_reduction_of`)."""
        return not (self._reaches_via_other(a, b) or self._reaches_via_other(b, a)
                    or self._reads_reduction_of(a, b) or self._reads_reduction_of(b, a))

    def _reads_reduction_of(self, src: int, dst: int) -> bool:
        """Whether kernel ``dst`` reads a result of reduction kernel ``src``. XLA never fuses a
        reduce into a consumer (it is not loop-fusible; the reduction emitters write it as a
        fusion root), so a kernel cannot both compute a reduction and use its result. Not
        modelled: Triton normalization fusions (``SoftmaxRewriterTriton``), which may."""
        return self.groups[src].kind is Kind.REDUCTION and dst in self.succ[src]

    def _reaches_via_other(self, src: int, dst: int) -> bool:
        stack = [g for g in self.succ[src] if g != dst]
        seen = set(stack)
        while stack:
            for nxt in self.succ[stack.pop()]:
                if nxt == dst:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        return False

    def _merge(self, keep: int, drop: int) -> None:
        kept, dropped = self.groups[keep], self.groups[drop]
        if dropped.kind is Kind.REDUCTION:
            kept.kind = Kind.REDUCTION
        for m in dropped.members:
            self.node_groups[m].discard(drop)
            self._join(keep, m)
        dropped.members.clear()  # a merged-away group has no members
        for s in self.succ.pop(drop):
            self.pred[s].discard(drop)
            if s != keep:
                self.succ[keep].add(s)
                self.pred[s].add(keep)
        for p in self.pred.pop(drop):
            self.succ[p].discard(drop)
            if p != keep:
                self.pred[keep].add(p)
                self.succ[p].add(keep)

    # -- traffic accounting
    def _nbytes(self, key: int) -> int:
        vtype = self.scope.types.get(key)
        return vtype.nbytes if vtype is not None else 0

    def _elements(self, key: int) -> int:
        vtype = self.scope.types.get(key)
        return vtype.num_elements if vtype is not None else 0

    def _writer_group(self, key: int) -> int | None:
        node = self.producer.get(key)
        if node is None or not self.node_groups[node]:
            return None
        return min(self.node_groups[node])

    def _reader_groups(self, key: int) -> set[int]:
        """Kernels that read ``key`` from memory (they consume it but do not compute it)."""
        node = self.producer.get(key)
        readers: set[int] = set()
        for user in self.users.get(key, ()):
            for g in self.node_groups[user]:
                if node is None or node not in self.groups[g].members:
                    readers.add(g)
        return readers

    def _materialized(self, key: int) -> bool:
        return key in self.outputs or bool(self._reader_groups(key))

    def kernels(self, repeat: float) -> list[Kernel]:
        """The planned kernels, in program order of their first op."""
        planned: list[tuple[int, list[Kernel]]] = []
        for g, group in enumerate(self.groups):
            if not group.members:
                continue
            members = sorted(group.members)
            planned.append((members[0], self._kernels_of(g, members, repeat)))
        planned.sort(key=lambda item: item[0])
        return [k for _, ks in planned for k in ks]

    def _kernels_of(self, g: int, members: list[int], repeat: float) -> list[Kernel]:
        group = self.groups[g]
        first = self.nodes[members[0]]
        if first.cls is _Class.COLLECTIVE:
            return []
        if first.cls is _Class.CONTROL:
            return [dataclasses.replace(k, anchors=(first.anchor,))
                    for k in _control_kernels(first.op, self.scope.fresh, repeat)]
        ops = tuple(self.nodes[m].op for m in members)
        works = [op_work(op) for op in ops]
        tensor = [(d, f) for w in works for unit, d, f in w.flops if unit == TENSOR]
        notes = tuple(dict.fromkeys(n for w in works for n in w.notes))
        if group.kind in (Kind.OPAQUE, Kind.FUSION):
            nbytes = float(sum(w.bytes for w in works))
        else:
            nbytes = float(self._group_bytes(g, members))
        gemm_node = next((m for m in members if self.nodes[m].cls is _Class.GEMM), None)
        gemm = self.nodes[gemm_node].op if gemm_node is not None else None
        gemm_kind = ""
        if gemm is not None:
            gemm_kind = (conv_kind(gemm, self._reversed_kernel(gemm_node))
                         if gemm.short_name == "convolution" else "dot")
        return [Kernel(
            kind=group.kind, ops=ops, flops=sum(w.total_flops for w in works), bytes=nbytes,
            tensor_flops=sum(f for _, f in tensor),
            tensor_dtype=max(tensor, key=lambda t: t[1])[0] if tensor else "",
            gemm_mnk=_gemm_mnk(gemm) if gemm is not None else None,
            gemm_kind=gemm_kind,
            channel_padding=(conv_channel_padding(gemm, gemm_kind)
                             if gemm_kind.startswith("conv") else 1.0),
            anchors=tuple({id(self.nodes[m].anchor): self.nodes[m].anchor
                           for m in members}.values()), count=repeat,
            fallback=any(w.fallback for w in works), notes=notes)]

    def _group_bytes(self, g: int, members: list[int]) -> int:
        member_set = self.groups[g].members
        reads: dict[int, list[int]] = {}
        total = 0
        for m in members:
            node = self.nodes[m]
            for key in dict.fromkeys(node.inputs):
                if key in self.scope.folded:
                    continue
                producer = self.producer.get(key)
                if producer is None or producer not in member_set:
                    reads.setdefault(key, []).append(m)
            for key in node.outputs:
                if self._writer_group(key) == g and self._materialized(key):
                    total += self._nbytes(key)
        for key, readers in reads.items():
            full = self._nbytes(key)
            if all(self.nodes[r].op.short_name in _SLICING for r in readers):
                kept = sum(self._nbytes(k) for r in readers for k in self.nodes[r].outputs)
                total += min(full, kept)
            else:
                total += full
        return total


_KIND_OF = {
    _Class.LOOP: Kind.LOOP, _Class.REDUCE: Kind.REDUCTION, _Class.GEMM: Kind.GEMM,
    _Class.OPAQUE: Kind.OPAQUE, _Class.FUSION: Kind.FUSION, _Class.CONTROL: Kind.OPAQUE,
    _Class.COLLECTIVE: Kind.OPAQUE,
}

#: Sibling kernels merge only around a shared value at least this large (XLA merges siblings to
#: save reads; for tiny values the extra kernel inputs are not worth it).
_MIN_SHARED_BYTES = 1 << 16


def _gemm_mnk(op: Op) -> tuple[int, int, int] | None:
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
        and all(k <= o for k, o in zip(kernel_dims, out_dims)))
    small_kernel = sum(k <= o for k, o in zip(kernel_dims, out_dims))
    if (not grouped and not looks_forward and unit_strides and not input_dilated
            and (window_dilated or (kernel_dims and small_kernel == 0))):
        return CONV_BACKWARD_FILTER
    if (not grouped and unit_strides and not window_dilated
            and (reversed_kernel or (input_dilated and all(k == 1 for k in kernel_dims)))):
        return CONV_BACKWARD_INPUT
    return CONV_FORWARD


def conv_channel_padding(op: Op, kind: str) -> float:
    """Tensor-unit work of an f16 convolution after XLA pads its channels for tensor cores,
    relative to the unpadded work (``cudnn_pad_for_convolutions.cc``).

    With C input and K output channels of the forward convolution it computes: C = 3 with
    K = 32 or 64 pads C to 4 (cuDNN has a kernel for it); otherwise C and K round up to
    multiples of 8 unless that grows an operand by more than 35% (then no padding). Other
    element types and grouped convolutions are not padded.
    """
    numbers = op.attrs.get("dimension_numbers") or {}
    if (not numbers or not op.result_types or op.result_types[0].dtype != "f16"
            or (op.attrs.get("feature_group_count") or 1) > 1
            or (op.attrs.get("batch_group_count") or 1) > 1):
        return 1.0
    lhs, out = op.operand_types[0], op.result_types[0]
    if kind == CONV_BACKWARD_INPUT:
        cin = out.shape[numbers["output_feature_dimension"]]
        cout = lhs.shape[numbers["input_feature_dimension"]]
    elif kind == CONV_BACKWARD_FILTER:
        cin = out.shape[numbers["output_batch_dimension"]]
        cout = out.shape[numbers["output_feature_dimension"]]
    else:
        cin = lhs.shape[numbers["input_feature_dimension"]]
        cout = out.shape[numbers["output_feature_dimension"]]
    if cin == 3 and cout in (32, 64):
        return 4 / 3

    def align(c: int) -> int:
        return -(-c // _F16_CHANNEL_ALIGN) * _F16_CHANNEL_ALIGN

    growth = align(cin) * align(cout) / max(cin * cout, 1)
    return growth if growth <= _MAX_PADDING_GROWTH else 1.0


def _control_kernels(op: Op, fresh: Iterator[int], repeat: float) -> list[Kernel]:
    """Kernels of a while (condition and body, x trip count) or of a case's costliest branch."""
    if op.short_name == "while":
        trip = float(op.attrs.get("trip_count") or 1)
        kernels: list[Kernel] = []
        for region in op.regions:
            kernels += _plan_region(region, fresh, repeat * trip)
        return kernels
    branches = [_plan_region(r, fresh, repeat) for r in op.regions]
    return max(branches, key=lambda ks: (sum(k.bytes for k in ks), sum(k.flops for k in ks)),
               default=[])


def _plan_region(region: Region, fresh: Iterator[int], repeat: float) -> list[Kernel]:
    keys = {a: next(fresh) for a in region.args}
    scope = _Scope(region.ops, keys, fresh)
    scope.types.update((keys[a], t) for a, t in zip(region.args, region.arg_types))
    planner = _Planner(scope, scope.returned)
    planner.fuse()
    return planner.kernels(repeat)


def plan_kernels(ops: Sequence[Op], outputs: Collection[int]) -> list[Kernel]:
    """The kernels XLA's GPU backend would launch for ``ops`` (one scope, program order).

    ``outputs`` are the SSA ids of values read after the scope (they are written to memory even
    when every in-scope consumer fuses them); values the ops read but do not define are inputs.
    """
    scope = _Scope(ops, {}, itertools.count())
    keys = {scope.env[v] for v in outputs if v in scope.env}
    planner = _Planner(scope, keys | set(scope.returned))
    planner.fuse()
    return planner.kernels(1.0)


def block_outputs(block: Block) -> set[int]:
    """SSA ids of the values ``block`` hands to later blocks.

    Values defined in the block and not read inside it are outputs; the remaining entries of
    ``block.outputs`` (values read both inside and after the block) are matched by type, latest
    definition first.
    """
    defined: list[tuple[int, TensorType]] = [
        (v, t) for op in block.ops for v, t in zip(op.results, op.result_types)]
    read = {v for op in block.ops for v in (*op.operands, *op.captures)}
    outputs = {v for v, _ in defined if v not in read}
    wanted = Counter(block.outputs)
    wanted.subtract(Counter(t for v, t in defined if v in outputs))
    for v, t in reversed(defined):
        if v not in outputs and wanted[t] > 0:
            outputs.add(v)
            wanted[t] -= 1
    return outputs
