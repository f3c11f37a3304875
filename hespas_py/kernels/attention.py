"""Scaled-dot-product attention recognised on a scope's dataflow and planned as the flash-attention
kernels a fused run launches (FlashAttention-2, cuDNN, Pallas splash attention) instead of the
kernels that materialise the score matrix.

Rules and sources: docs/kernels.md."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from hespas_py.kernels.axes import KEY, ScoreAxes, dot_numbers
from hespas_py.kernels.dataflow import Dataflow
from hespas_py.kernels.kernel import (
    CAUSAL_FRACTION,
    FLASH_BACKWARD,
    FLASH_FORWARD,
    Kernel,
)
from hespas_py.kernels.scope import OpClass
from hespas_py.mlir.ops import Op, TensorType

#: Bytes per row of the logsumexp a flash forward saves for its backward (f32).
_LSE_BYTES = 4
#: Producers a flash kernel reads through at a q/k/v operand: a layout transpose (strided loads)
#: and a GQA head repeat (the kernel indexes the shared head, FlashAttention-2 §3.1.2).
_OPERAND_FOLDABLE = frozenset({"transpose", "broadcast_in_dim", "broadcast"})
_ORDERING = frozenset({"LT", "LE", "GT", "GE"})
#: Largest region searched (score-shaped ops of one attention, forward and backward: ~60).
_MAX_REGION = 1000
#: Longest producer chain of a mask computed in the kernel (an iota comparison, a select and a
#: few broadcasts in practice).
_MAX_MASK_DEPTH = 64


@dataclass(frozen=True, slots=True)
class Pattern:
    """One flash kernel recognised in a scope.

    Attributes:
        kind: `FLASH_FORWARD` or `FLASH_BACKWARD`.
        members: indices of the scope's nodes it computes.
        dots: its dot nodes (QK and PV; or the backward's five).
        causal: whether its mask is causal (an iota ordering comparison): the kernel computes
            `CAUSAL_FRACTION` of the score blocks.
        rows: rows its thread blocks split: batch x heads x queries (forward) or keys (backward;
            FlashAttention-2 §3.2 gives a forward thread block a block of rows, a backward one a
            block of columns).
        head_dim: contracted size of the QK dot.
        sweep: the sequence each row block sweeps (keys forward, queries backward).
        extra_bytes: traffic beyond its boundary values: the logsumexp written (forward); O and
            the logsumexp read (backward).
    """

    kind: str
    members: frozenset[int]
    dots: frozenset[int]
    causal: bool
    rows: int
    head_dim: int
    sweep: int
    extra_bytes: float


def flash_kernel(kernel: Kernel, pattern: Pattern) -> Kernel:
    """``kernel`` (planned from ``pattern``'s group) as the flash kernel computes it."""
    share = CAUSAL_FRACTION if pattern.causal else 1.0
    return dataclasses.replace(
        kernel, flops=kernel.flops * share, tensor_flops=kernel.tensor_flops * share,
        bytes=kernel.bytes + pattern.extra_bytes, gemm_kind=pattern.kind,
        gemm_mnk=(pattern.rows, pattern.head_dim, pattern.sweep), dot_mnk=None,
        channel_padding=1.0)


class FlashPlan:
    """The flash kernels of one scope (`find`) and the producers they absorb."""

    def __init__(self, planner: Dataflow) -> None:
        self.planner = planner
        self._free: dict[int, tuple[bool, bool]] = {}
        self.patterns = find(planner, self.mask)
        #: group index -> its pattern (filled by the planner as it makes the groups).
        self.groups: dict[int, Pattern] = {}

    def absorbs(self, g: int, consumer: int, producer: int) -> bool:
        """Whether flash kernel ``g`` computes ``producer``, which its node ``consumer`` reads: a
        loop op computed from iotas and constants only (a mask, a scale), or a transpose or head
        repeat at a q/k/v operand."""
        node = self.planner.nodes[producer]
        if node.cls is not OpClass.LOOP:
            return False
        if self.mask(producer)[0]:
            return True
        pattern = self.groups[g]
        at_operand = consumer in pattern.dots or consumer not in pattern.members
        return at_operand and node.op.short_name in _OPERAND_FOLDABLE

    def mask(self, i: int, depth: int = 0) -> tuple[bool, bool]:
        """(computed from iotas and constants only, holds an iota ordering comparison) of node
        i's results; a producer chain deeper than `_MAX_MASK_DEPTH` counts as not input-free."""
        cached = self._free.get(i)
        if cached is not None:
            return cached
        planner, node = self.planner, self.planner.nodes[i]
        result = (False, False)
        if node.cls is OpClass.LOOP and depth < _MAX_MASK_DEPTH:
            ordered = node.op.short_name == "compare" and (
                node.op.attrs.get("comparison_direction") in _ORDERING)
            for key in node.inputs:
                if key in planner.scope.constants or planner.elements(key) == 1:
                    continue  # a constant, or a scalar the kernel takes as an argument
                producer = planner.producer.get(key)
                inner = self.mask(producer, depth + 1) if producer is not None else (False, False)
                if not inner[0]:
                    break
                ordered = ordered or inner[1]
            else:
                result = (True, ordered)
        self._free[i] = result
        return result


#: `FlashPlan.mask`: (computed from iotas and constants only, holds an ordering comparison).
MaskTest = Callable[[int], tuple[bool, bool]]


def find(planner: Dataflow, mask: MaskTest) -> list[Pattern]:
    """The flash kernels of ``planner``'s scope (see the module docstring), in region order."""
    regions = [_grow(planner, s) for s, node in enumerate(planner.nodes) if _score_dot(node.op)]
    sinks = {t for region in regions for t in region.sinks}  # a P v dot is no source of scores
    regions = [region for region in regions if not region.sources & sinks]
    patterns: list[Pattern] = []
    for region in _merged(regions):
        patterns.extend(_kernels(planner, region, mask))
    return patterns


@dataclass(slots=True)
class _Region:
    """Nodes reachable from score dots through score-shaped values and row statistics."""

    score: int  # elements of a score matrix
    sources: set[int]
    sinks: set[int]
    members: set[int]  # sources, sinks and the ops between them
    valid: bool = True


def _free(op: Op, side: int) -> tuple[int, ...]:
    """Free (neither batch nor contracting) dimensions of a dot_general's operand ``side``."""
    numbers = dot_numbers(op)
    prefix = ("lhs", "rhs")[side]
    used = set(numbers.get(f"{prefix}_batching_dimensions", ())) | set(
        numbers.get(f"{prefix}_contracting_dimensions", ()))
    return tuple(d for d in range(len(op.operand_types[side].shape)) if d not in used)


def _score_dot(op: Op) -> bool:
    """A dot_general with batch dimensions (heads) and free dimensions on both sides."""
    return (op.short_name == "dot_general" and len(op.operand_types) == 2
            and bool(dot_numbers(op).get("lhs_batching_dimensions"))
            and bool(_free(op, 0)) and bool(_free(op, 1)))


def _grow(planner: Dataflow, s: int) -> _Region:
    """The region reachable from source ``s``; not valid when a score-shaped value escapes it."""
    nodes = planner.nodes
    op = nodes[s].op
    score = op.result_types[0].num_elements
    sizes = {score} | {score // max(1, math.prod(op.operand_types[side].shape[d]
                                                 for d in _free(op, side))) for side in (0, 1)}
    region = _Region(score, {s}, set(), {s})
    stack = [s]
    while stack:
        n = stack.pop()
        for key in nodes[n].outputs:
            if key in planner.outputs and planner.elements(key) == score:
                region.valid = False
            for user in planner.users.get(key, ()):
                if user in region.members:
                    continue
                unode = nodes[user]
                out = [planner.elements(k) for k in unode.outputs]
                if unode.op.short_name == "dot_general":
                    region.valid = region.valid and score not in out
                    region.sinks.add(user)
                    region.members.add(user)
                elif unode.cls in (OpClass.LOOP, OpClass.REDUCE) and out and set(out) <= sizes:
                    region.members.add(user)
                    stack.append(user)
                    if len(region.members) > _MAX_REGION:
                        region.valid = False
                        return region
                elif planner.elements(key) == score:
                    region.valid = False
    return region


def _merged(regions: list[_Region]) -> list[_Region]:
    """Regions sharing a node merged into one (a backward meets its forward or its dP side)."""
    merged: list[_Region] = []
    for region in regions:
        overlapping = [m for m in merged if m.members & region.members]
        for other in overlapping:
            merged.remove(other)
            region = _Region(region.score, region.sources | other.sources,
                             region.sinks | other.sinks, region.members | other.members,
                             region.valid and other.valid and region.score == other.score)
        merged.append(region)
    return [m for m in merged if m.valid]


def _reachable(planner: Dataflow, starts: Iterable[int], within: set[int],
               forward: bool) -> set[int]:
    """Nodes of ``within`` reachable from ``starts`` along (or against) the dataflow, the starts
    included."""
    seen = set(starts)
    stack = list(seen)
    while stack:
        n = stack.pop()
        node = planner.nodes[n]
        if forward:
            nxt = (u for k in node.outputs for u in planner.users.get(k, ()))
        else:
            nxt = (planner.producer[k] for k in node.inputs if k in planner.producer)
        for m in nxt:
            if m in within and m not in seen:
                seen.add(m)
                stack.append(m)
    return seen


def _reduces(planner: Dataflow, region: _Region, body: str) -> list[int]:
    """Reductions in the region of a score-shaped value whose computation is ``body``."""
    found = []
    for n in region.members:
        op = planner.nodes[n].op
        if (op.short_name == "reduce" and op.regions and op.operand_types
                and op.operand_types[0].num_elements == region.score
                and any(o.short_name == body for o in op.regions[0].ops)):
            found.append(n)
    return found


def _kernels(planner: Dataflow, region: _Region, mask: MaskTest) -> list[Pattern]:
    """The forward and backward flash kernels of a region, or none when it is not attention."""
    maxes = _reduces(planner, region, "maximum")
    if not maxes or not _reduces(planner, region, "add") or not any(
            planner.nodes[n].op.short_name == "exponential"
            and planner.elements(planner.nodes[n].outputs[0]) == region.score
            for n in region.members):
        return []
    reach = {s: _reachable(planner, [s], region.members, True) for s in region.sources}
    qk = [s for s in region.sources if any(m in reach[s] for m in maxes)]
    others = [s for s in region.sources if s not in qk]
    if len(qk) != 1 or len(others) > 1:
        return []
    roles = ScoreAxes(planner, region.members, region.score)
    axes = {t: roles.contracted(t) for t in region.sinks}
    if None in axes.values():
        return []
    from_dp = reach[others[0]] if others else set()
    forward = [t for t in region.sinks if t not in from_dp and axes[t] == KEY]
    backward = [t for t in region.sinks if t not in forward]
    if len(forward) > 1 or bool(others) != bool(backward):
        return []
    qk_op = planner.nodes[qk[0]].op
    reduced = planner.nodes[maxes[0]].op
    keys = math.prod(reduced.operand_types[0].shape[d] for d in reduced.attrs.get("dimensions", ()))
    batch = math.prod(qk_op.operand_types[0].shape[d]
                      for d in dot_numbers(qk_op).get("lhs_batching_dimensions", ()))
    queries = region.score // max(1, batch * keys)
    head_dim = math.prod(qk_op.operand_types[0].shape[d]
                         for d in dot_numbers(qk_op).get("lhs_contracting_dimensions", ()))
    causal = _causal(planner, region, mask)
    lse = batch * queries * _LSE_BYTES
    patterns = []
    bwd_members = _reachable(planner, backward, region.members, False) if backward else set()
    if forward:
        fwd_members = (_reachable(planner, forward, region.members, False)
                       | (region.members - bwd_members))
        patterns.append(Pattern(FLASH_FORWARD, frozenset(fwd_members),
                                frozenset(fwd_members & (region.sources | region.sinks)),
                                causal, batch * queries, head_dim, keys, float(lse)))
    elif backward:
        bwd_members = set(region.members)
    if backward:
        d_out = _d_out(planner.nodes[others[0]].op, queries)
        patterns.append(Pattern(FLASH_BACKWARD, frozenset(bwd_members),
                                frozenset(bwd_members & (region.sources | region.sinks)),
                                causal, batch * keys, head_dim, queries,
                                float(d_out.nbytes + lse)))
    return patterns


def _d_out(dp: Op, queries: int) -> TensorType:
    """The dO operand of ``dP = dO v^T`` (its free dimensions span the queries): O, which a flash
    backward reads, has its size."""
    lhs = math.prod(dp.operand_types[0].shape[d] for d in _free(dp, 0))
    return dp.operand_types[0 if lhs == queries else 1]


def _causal(planner: Dataflow, region: _Region, mask: MaskTest) -> bool:
    """Whether a mask the region reads is computed from iotas with an ordering comparison."""
    for n in region.members:
        for key in planner.nodes[n].inputs:
            producer = planner.producer.get(key)
            if producer is not None and producer not in region.members:
                free, ordered = mask(producer)
                if free and ordered:
                    return True
    return False
