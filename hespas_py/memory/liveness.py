"""Temporaries live over one scope's program: the buffers its planned kernels write, and the most
bytes of them live at once.

Why and how: docs/memory.md.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Collection, Iterator, Sequence

from hespas_py.dag import Dag
from hespas_py.kernels import IN_PLACE, GpuRules, Kind, OpClass, Planner, Scope
from hespas_py.memory.backend import FAMILY, XLA_GPU, Backend, sliced_state
from hespas_py.memory.gpu_buffers import added_buffers
from hespas_py.memory.intervals import (
    Buffer,
    Interval,
    ScopePeak,
    borrow_output_buffers,
    sweep,
)
from hespas_py.mlir.ops import DTYPE_BYTES, Op, Region, TensorType
from hespas_py.split.combine import (
    DEFAULT_COMBINE,
    Thresholds,
    combine_all,
    pending_entry,
    schedule_merged,
)

_log = logging.getLogger(__name__)
#: Ops whose result is their first operand updated in place (XLA's in-place input/output pairs).
_IN_PLACE = IN_PLACE | {"scatter"}


def scope_peak(ops: Sequence[Op], args: Sequence[int], arg_types: Sequence[TensorType],
               outputs: Collection[int], fused_attention: bool = False,
               output_slots: Sequence[int] = (), combine: Thresholds = DEFAULT_COMBINE,
               backend: Backend = XLA_GPU, rules: GpuRules = GpuRules(),
               entry: bool = False) -> ScopePeak:
    """Peak temporaries of ``ops`` (one scope, program order) with arguments ``args`` (SSA ids
    and types); ``outputs``: SSA ids read after the scope (not temporaries; the scope's own
    returned values never are).

    ``output_slots``: the returned values (SSA ids, one per output buffer) whose buffers
    temporaries may borrow before the value is written (`borrow_output_buffers`); ``combine``:
    the collective combiners' thresholds; ``backend``: the compiler's properties; ``rules``:
    XLA:GPU's rewrites that change which values its kernels write (`GpuRules`); ``entry``: the
    scope is the entry function (`added_buffers`)."""
    walk = _Walk(ops, args, arg_types, outputs, fused_attention, itertools.count(), combine,
                 backend, rules, entry)
    return walk.peak(output_slots)


def _single_device(op: Op) -> bool:
    """Whether ``op`` is a collective among single devices only, which XLA removes (its
    result is its operand: ``AllReduceSimplifier``, ``CollectivesSimplifier``)."""
    groups = op.attrs.get("replica_groups")
    return groups is not None and all(len(g) <= 1 for g in groups)


def _expansion(op: Op) -> ScopePeak:
    """The temporaries of a ``select_and_scatter``'s expansion (see the module docstring): per
    element of the source (operand 1), the selected operand value and one s32 index per operand
    dimension."""
    operand, source = op.operand_types[0], op.operand_types[1]
    buffers = (Buffer(op.name, source.shape, operand.dtype,
                      source.num_elements * DTYPE_BYTES.get(operand.dtype, 4), "temporary"),
               *(Buffer(op.name, source.shape, "i32", source.num_elements * 4, "temporary")
                 for _ in operand.shape))
    return ScopePeak(sum(b.bytes for b in buffers), buffers)


class _Walk:
    """Liveness of one scope's materialized values (see the module docstring)."""

    def __init__(self, ops: Sequence[Op], args: Sequence[int], arg_types: Sequence[TensorType],
                 outputs: Collection[int], fused_attention: bool, fresh: Iterator[int],
                 combine: Thresholds, backend: Backend, rules: GpuRules,
                 entry: bool = False) -> None:
        self.fresh = fresh
        self.fused_attention = fused_attention
        self.combine = combine
        self.backend = backend
        self.rules = rules
        self.entry = entry
        self.sliced_state: dict[int, set[int]] = {}  # per while node, `sliced_state`
        keys = {a: next(fresh) for a in args}
        self.scope = Scope(ops, keys, fresh)
        self.scope.types.update((keys[a], t) for a, t in zip(args, arg_types, strict=True))
        self.outputs = {self.scope.env[v] for v in outputs if v in self.scope.env}
        self.outputs.update(self.scope.returned)
        self.planner = Planner(self.scope, self.outputs, fused_attention, rules, backend.fusion)
        self.planner.fuse()

    def peak(self, output_slots: Sequence[int] = ()) -> ScopePeak:
        """The scope's peak temporaries (``output_slots``: see `scope_peak`)."""
        in_order = sorted((g for g in self.planner.groups if g.members), key=lambda g: max(
            g.members))
        self.time_of = {id(g): t for t, g in enumerate(in_order)}
        self._schedule(in_order)
        kernels = sorted(((self.time_of[id(g)], g) for g in in_order), key=lambda k: k[0])
        death = self._deaths()
        buffer_of: dict[int, Interval] = {}
        extra: dict[int, ScopePeak] = {}  # position -> nested or expansion peak there
        # f32 results of widened ops that write an output, f32 copies of their operands
        scratch: list[Interval] = self._f32_operands(death) \
            if self.backend.widened_types else []
        if self.backend.gpu_buffers:
            scratch += self._gpu_buffers(death)
        for t, group in kernels:
            taken: set[int] = set()
            for m in sorted(group.members):
                node = self.planner.nodes[m]
                if node.cls is OpClass.CONTROL:
                    extra[t] = self._control_peak(node.op)
                elif node.op.short_name == "select_and_scatter":
                    extra[t] = _expansion(node.op)
                reusable = group.kind is Kind.LOOP or node.op.short_name in _IN_PLACE \
                    or node.cls is OpClass.CONTROL or _single_device(node.op)
                dying = [k for k in dict.fromkeys(node.inputs)
                         if k in buffer_of and death.get(k) == t] if reusable else []
                for key in node.outputs:
                    if key in self.outputs and self._widened(node.op, key):
                        # an output it writes in f32 first, then converts into the output
                        wide = self._type(node.op, key)
                        assert wide is not None, "a widened value has a type"
                        scratch.append(Interval(t, t, wide.nbytes, key))
                    if key not in death or self._writer(key) is not group:
                        continue
                    vtype = self._type(node.op, key)
                    size = vtype.nbytes if vtype is not None else 0
                    reuse = next((k for k in dying if k not in taken
                                  and buffer_of[k].nbytes == size), None)
                    if reuse is None:
                        buffer_of[key] = Interval(t, death[key], size, key)
                        continue
                    taken.add(reuse)
                    buffer_of[key] = interval = buffer_of[reuse]
                    interval.death = max(interval.death, death[key])
        intervals = [*{id(b): b for b in buffer_of.values()}.values(), *scratch]
        if output_slots:
            end = kernels[-1][0] + 1 if kernels else 0
            intervals = borrow_output_buffers(intervals, [
                (self.planner.nbytes(key) if key is not None else 0, self._written(key, end))
                for key in (self.scope.env.get(v) for v in output_slots)])
        return sweep(intervals, extra, self._buffer)

    def _schedule(self, kernels: list) -> None:
        """Order ``kernels`` (planner groups, in program order) as XLA schedules them, with the
        collectives combined (`combine_all` over the kernel graph): a combined collective runs
        where the last of its members was, the kernels that read one of them after it
        (`schedule_merged`), or, for a breadth-first schedule, each kernel as soon as its
        operands exist (`Backend.breadth_first`); ``time_of`` becomes each kernel's place in that
        order."""
        planner = self.planner
        pending = {}
        for k, group in enumerate(kernels):
            node = planner.nodes[next(iter(group.members))]
            if node.cls is OpClass.COLLECTIVE and not _single_device(node.op):
                entry = pending_entry(node.op, self.combine)
                if entry is not None:
                    pending[k] = entry
        breadth_first = self.backend.breadth_first
        if len(pending) < 2 and not breadth_first:
            return
        index = {id(g): k for k, g in enumerate(kernels)}
        dag = Dag(len(kernels), ((index[id(planner.groups[w])], index[id(planner.groups[r])])
                                 for w, r in planner.kernel_edges()))
        merged = combine_all(dag, pending, self.combine) if len(pending) > 1 else {}
        if not merged and not breadth_first:
            return
        order = dag.order() if breadth_first else schedule_merged(dag, merged)
        placed = [(t, member) for t, k in enumerate(order) for member in merged.get(k, (k,))]
        if len(placed) < len(kernels):  # a cycle, which no fusion rule should make
            _log.warning("memory: the kernel graph of a scope has a cycle; its kernels are "
                         "kept in program order")
            return
        for t, member in placed:
            self.time_of[id(kernels[member])] = t

    def _widened(self, op: Op, key: int) -> bool:
        """Whether the backend computes ``op``'s result ``key`` in f32 though its type is a
        16-bit float (`Backend.f32_ops`)."""
        vtype = self.scope.types.get(key)
        return vtype is not None and (FAMILY.get(op.short_name), vtype.dtype) in \
            self.backend.f32_ops

    def _type(self, op: Op, key: int) -> TensorType | None:
        """The type of the buffer ``op`` writes for value ``key`` (f32 where `_widened`)."""
        vtype = self.scope.types.get(key)
        return TensorType(vtype.shape, "f32") if vtype is not None and self._widened(op, key) \
            else vtype

    def _writer(self, key: int):
        """The kernel (planner group) that writes ``key``."""
        group = self.planner.writer_group(key)
        assert group is not None, "asked only of a value a kernel writes"
        return self.planner.groups[group]

    def _written(self, key: int | None, end: int) -> int:
        """When output value ``key`` is written: its kernel's position (``end`` for a value no
        kernel of the scope writes, such as a returned argument, copied at the end)."""
        if key is None or key not in self.planner.producer or \
                self.planner.writer_group(key) is None:
            return end
        return self.time_of[id(self._writer(key))]

    def _deaths(self) -> dict[int, int]:
        """Per temporary, the position of the last kernel that reads it (its writer's when
        none does)."""
        death: dict[int, int] = {}
        for key in self.planner.users:
            if self._temporary(key):
                readers = [self.time_of[id(self.planner.groups[g])]
                           for g in self.planner.reader_groups(key)]
                death[key] = max([self.time_of[id(self._writer(key))], *readers])
        return death

    def _gpu_buffers(self, death: dict[int, int]) -> list[Interval]:
        """The buffers XLA:GPU's rewrites add (`added_buffers`, which shortens ``death``)."""
        return [Interval(added.birth, added.death, added.type.nbytes, -1,
                         Buffer(added.op, added.type.shape, added.type.dtype, added.type.nbytes,
                                "temporary"))
                for added in added_buffers(self.planner, lambda g: self.time_of[id(
                    self.planner.groups[g])], death, self.entry)]

    def _f32_operands(self, death: dict[int, int]) -> list[Interval]:
        """The f32 copies of the 16-bit float operands of widened ops (`Backend.f32_ops`,
        `Backend.f32_slices`):
        each such value is converted once (XLA's CSE merges the converts its float
        normalization inserts), as soon as it exists (at the scope's start for an argument),
        into a buffer live until its last widened reader; the value itself then lives only
        until its other readers (``death`` is shortened so), and not at all without any (its
        writer writes f32). A widened op's own result is f32 already."""
        planner = self.planner
        narrow = self.backend.widened_types
        copies = []
        for key, users in planner.users.items():
            vtype = self.scope.types.get(key)
            if vtype is None or vtype.dtype not in narrow or key in self.scope.folded \
                    or (key in planner.producer and self._widened(
                        planner.nodes[planner.producer[key]].op, key)):
                continue
            widened: list[int] = []
            plain: list[int] = []
            for g in planner.reader_groups(key):
                group = planner.groups[g]
                (widened if all(self._reads_f32(planner.nodes[u], key, vtype.dtype) for u in users
                                if u in group.members) else plain).append(self.time_of[id(group)])
            if not widened:
                continue
            born = 0
            if key in planner.producer and planner.writer_group(key) is not None:
                born = self.time_of[id(self._writer(key))]
            if key in death and (plain or self._writer(key).kind is not Kind.LOOP):
                death[key] = max([born, *plain])
            elif key in death:  # its loop kernel writes f32 instead (the convert fused in)
                del death[key]
            nbytes = vtype.num_elements * 4
            copies.append(Interval(born, max(widened), nbytes, key,
                                   Buffer("convert", vtype.shape, "f32", nbytes, "temporary")))
        return copies

    def _reads_f32(self, node, key: int, dtype: str) -> bool:
        """Whether ``node`` reads ``key``, a 16-bit float of type ``dtype``, as f32: an op the
        backend widens (`Backend.f32_ops`), or a ``while`` whose body passes ``key``'s state
        element on unchanged and only slices it where the backend widens such slices
        (`Backend.f32_slices`: the normalization converts the whole operand, and
        ``WhileLoopInvariantCodeMotion`` hoists that convert out of the loop: the loop carries
        an f32 copy)."""
        if (FAMILY.get(node.op.short_name), dtype) in self.backend.f32_ops:
            return True
        if dtype not in self.backend.f32_slices or node.op.short_name != "while" \
                or len(node.op.regions) != 2:
            return False
        if id(node) not in self.sliced_state:
            self.sliced_state[id(node)] = sliced_state(node, self.fresh)
        return key in self.sliced_state[id(node)]

    def _temporary(self, key: int) -> bool:
        """Whether ``key`` is a value of this scope written to memory and not an output."""
        planner = self.planner
        return (key in planner.producer and key not in self.outputs
                and key not in self.scope.folded and planner.writer_group(key) is not None
                and planner.materialized(key))

    def _control_peak(self, op: Op) -> ScopePeak:
        """Temporaries a ``while`` (its body or condition) or ``case``/``if`` (its largest
        branch) holds besides its operands and results."""
        return max((self._region_peak(r) for r in op.regions),
                   key=lambda p: p.bytes, default=ScopePeak(0))

    def _region_peak(self, region: Region) -> ScopePeak:
        returned = region.ops[-1].operands if region.ops else ()
        walk = _Walk(region.ops, region.args, region.arg_types, returned,
                     self.fused_attention, self.fresh, self.combine, self.backend, self.rules)
        return walk.peak()

    def _buffer(self, interval: Interval) -> Buffer:
        """How the report shows ``interval``: as the op writing its first value."""
        if interval.shown is not None:
            return interval.shown
        node = self.planner.nodes[self.planner.producer[interval.key]]
        vtype = self._type(node.op, interval.key)
        assert vtype is not None, "a temporary buffer has a type"
        return Buffer(node.op.name, vtype.shape, vtype.dtype, interval.nbytes, "temporary")
