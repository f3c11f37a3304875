"""One scope of the fusion model (a block, a function body, a loop body) as a flat dataflow of
fusion nodes, and the class of every op: calls are inlined, views alias their operand, scalar
constants fold into their users.

Rules and sources: docs/kernels.md."""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

from hespas_py.kernels.costs import op_work
from hespas_py.mlir.ops import Op, TensorType
from hespas_py.split.blocks import is_collective

#: Views and bookkeeping: results alias operands (no kernel, no traffic).
_VIEWS = frozenset({
    "reshape", "bitcast", "get_tuple_element", "tuple", "optimization_barrier",
    "dynamic_reshape", "sharding_constraint", "reshard", "add_dependency", "domain",
})
#: Loop-fusible ops that are not elementwise arithmetic. A ``dynamic_update_slice`` is a loop
#: kernel's root only, written in place (`IN_PLACE`).
_LOOP_MEMORY = frozenset({
    "broadcast_in_dim", "broadcast", "iota", "transpose", "slice", "dynamic_slice",
    "real_dynamic_slice", "pad", "concatenate", "reverse", "gather", "reduce_window",
    "bitcast_convert", "dynamic_update_slice",
})
#: Ops XLA's GPU backend emits in place (``InPlaceDynamicUpdateSliceFusion``,
#: xla/service/gpu/fusions/in_place_dynamic_update_slice.cc): the result aliases operand 0, only
#: the update is written, and the op is the root of a loop kernel that computes its update.
IN_PLACE = frozenset({"dynamic_update_slice"})
_GEMMS = frozenset({"dot", "dot_general", "convolution"})
_CONTROL = frozenset({"while", "case", "if"})
_CALLS = frozenset({"call", "manual_computation"})
_TERMINATORS = frozenset({"return", "yield"})


class OpClass(enum.Enum):
    """How the fusion rules treat an op."""

    LOOP = 1
    REDUCE = 2
    GEMM = 3
    OPAQUE = 4
    FUSION = 5
    CONTROL = 6
    COLLECTIVE = 7


def classify(op: Op) -> OpClass:
    """The class of ``op`` (`OpClass`)."""
    name = op.short_name
    if is_collective(op):
        return OpClass.COLLECTIVE
    if name in _GEMMS:
        return OpClass.GEMM
    if name == "reduce":
        return OpClass.REDUCE
    if name == "fusion":
        return OpClass.FUSION
    if name in _CONTROL:
        return OpClass.CONTROL
    if name in _LOOP_MEMORY or op_work(op).family == "elementwise":
        return OpClass.LOOP
    return OpClass.OPAQUE


def _is_folded_constant(op: Op) -> bool:
    """Scalar and splat constants (and device ids): folded into every user, never stored."""
    if op.short_name in ("partition_id", "replica_id"):
        return True
    return op.short_name == "constant" and (
        "value" in op.attrs or all(t.num_elements <= 1 for t in op.result_types))


@dataclass(slots=True)
class Node:
    """One op of a scope with the value keys it reads and defines."""

    op: Op
    cls: OpClass
    inputs: tuple[int, ...]   # value keys read (operands, then captures)
    outputs: tuple[int, ...]  # value keys defined
    anchor: Op                # the op of the planned sequence it belongs to
    sunk: tuple[int, ...] = ()  # a while's loop-invariant constant operands (`sunk_arguments`)
    #: keys of the values it waits for without reading them: every operand of an
    #: ``optimization_barrier`` whose result it reads (`Scope.gates`)
    after: tuple[int, ...] = ()


def _computes_constant(op: Op) -> bool:
    """Whether ``op``'s results are constants when its operands are (it has no other input)."""
    if op.captures or op.regions:
        return False
    return (_is_folded_constant(op) or op.short_name in _VIEWS
            or (op.short_name != "constant" and classify(op) is OpClass.LOOP))


def constant_values(ops: Iterable[Op], known: Iterable[int] = ()) -> set[int]:
    """SSA ids of the values ``ops`` define (top level only) that are computable from constants
    alone (scalar or splat constants, ``iota``, and loop-fusible ops of such values), with
    ``known`` (values already known to be)."""
    values = set(known)
    for op in ops:
        if _computes_constant(op) and values.issuperset(op.operands):
            values.update(op.results)
    return values


def sunk_arguments(operands: Sequence[int], args: Sequence[int], yielded: Sequence[int],
                   constants: Collection[int]) -> list[int]:
    """Positions of a while's loop-invariant constants: carried values the body passes on
    unchanged whose initial value (``operands``) is in ``constants``."""
    return [k for k, (operand, arg, out) in enumerate(zip(operands, args, yielded, strict=False))
            if out == arg and operand in constants]


class Scope:
    """One op sequence (a block, a function body, a loop body) flattened into fusion nodes."""

    def __init__(self, ops: Sequence[Op], arg_keys: dict[int, int], fresh: Iterator[int],
                 folded: Iterable[int] = ()) -> None:
        """``arg_keys``: keys of the scope's arguments; ``folded``: those of them that are
        constants recomputed where they are used (sunk loop-invariant constants)."""
        self.nodes: list[Node] = []
        self.types: dict[int, TensorType] = {}
        self.folded: set[int] = set(folded)  # keys of folded constants and of tuple plumbing
        self.constants: set[int] = set(folded)  # keys of folded constants (and device ids)
        #: keys of values computable from constants alone (folded constants included)
        self.from_constants: set[int] = set(folded)
        #: key -> value of the folded scalar and splat constants whose value the module states
        self.values: dict[int, object] = {}
        self.fresh = fresh
        #: SSA id of an ``optimization_barrier``'s result (or of a view of one) -> the keys of
        #: all that barrier's operands: a compiler that keeps barriers through scheduling runs a
        #: reader of the result only once every operand exists.
        self.gates: dict[int, frozenset[int]] = {}
        #: keys of the operands of the scope's ``optimization_barrier`` ops
        self.barrier_operands: set[int] = set()
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
            ins = tuple(self._key(env, v, t) for v, t in zip(op.operands, op.operand_types, strict=True))
            ins += tuple(self._key(env, v) for v in op.captures)
            name = op.short_name
            if name in _TERMINATORS:
                returned = ins[:len(op.operands)]
            elif name in _CALLS and op.regions:
                body = op.regions[0]
                inner = dict(env)
                inner.update(zip(body.args, ins, strict=False))
                self._pass_gates(op.operands, body.args)
                yielded = self._flatten(body.ops, inner, anchor or op)
                env.update(zip(op.results, yielded, strict=False))
                if body.ops:
                    self._pass_gates(body.ops[-1].operands, op.results)
            elif name in _VIEWS and len(op.results) == 1 and len(op.operands) == 1:
                env[op.results[0]] = ins[0]
                self._pass_gates(op.operands, op.results)
            elif name == "optimization_barrier" and len(op.results) == len(op.operands):
                # An identity on each operand: XLA's GPU pipeline removes it before fusion
                # (OptimizationBarrierExpander turns it into control dependencies); its readers
                # are gated for a compiler that keeps it (`FusionPasses.barriers`).
                env.update(zip(op.results, ins, strict=False))
                self.barrier_operands.update(ins[:len(op.operands)])
                gate = frozenset(ins[:len(op.operands)]).union(
                    *(self.gates.get(v, ()) for v in op.operands))
                self.gates.update((r, gate) for r in op.results)
            elif name in _VIEWS:  # tuple plumbing: results stand for the operands' traffic
                for result, rtype in zip(op.results, op.result_types, strict=True):
                    self._define(env, result, rtype)
                    self.folded.add(env[result])
            else:
                outs = tuple(self._define(env, r, t) for r, t in zip(op.results, op.result_types, strict=True))
                if _is_folded_constant(op):
                    self.folded.update(outs)
                    self.constants.update(outs)
                    self.from_constants.update(outs)
                    if op.attrs.get("value") is not None:
                        self.values.update((k, op.attrs["value"]) for k in outs)
                elif name == "while" and len(op.regions) == 2:
                    self._add(self._while(op, ins, outs, anchor or op))
                elif name != "constant":  # a dense constant is an input read from memory
                    cls = classify(op)
                    if cls is OpClass.LOOP and not op.regions and all(
                            k in self.from_constants for k in ins):
                        self.from_constants.update(outs)
                    self._add(Node(op, cls, ins, outs, anchor or op))
        return returned

    def _add(self, node: Node) -> None:
        """Append ``node``, waiting for the operands of the barriers it reads through."""
        if self.gates and any(v in self.gates for v in node.op.operands):
            node.after = tuple(frozenset().union(
                *(self.gates.get(v, ()) for v in node.op.operands)))
        self.nodes.append(node)

    def _pass_gates(self, sources: Sequence[int], targets: Sequence[int]) -> None:
        """Let each of ``targets`` (SSA ids) stand for the barrier result its source is, or for
        none (a callee's arguments are bound anew at each call)."""
        if self.gates:
            for source, target in zip(sources, targets, strict=False):
                if source in self.gates:
                    self.gates[target] = self.gates[source]
                else:
                    self.gates.pop(target, None)

    def _while(self, op: Op, ins: tuple[int, ...], outs: tuple[int, ...], anchor: Op) -> Node:
        """A while's node: its loop-invariant constants are not read (they are sunk)."""
        body = op.regions[1]
        yielded = body.ops[-1].operands if body.ops else ()
        sunk = sunk_arguments(ins, body.args, yielded, self.from_constants)
        kept = tuple(key for k, key in enumerate(ins) if k not in sunk)
        return Node(op, OpClass.CONTROL, kept, outs, anchor, tuple(sunk))

    def _define(self, env: dict[int, int], value: int, vtype: TensorType) -> int:
        key = next(self.fresh)
        env[value] = key
        self.types[key] = vtype
        return key
