"""The split stage's decisions about control flow: trip counts, the order of an expanded
iteration's ops, and which branch of a ``case``/``if`` holding a collective is taken.

Trip counts, in order of preference: ``trip_count`` (the reader's induction-variable pattern,
`hespas_py.mlir.loops`), XLA's ``known_trip_count`` (the while's backend config, in modules XLA
has optimized), else ``--loop-trips`` (an assumption, reported).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from hespas_py.mlir.ops import Op, Region
from hespas_py.split.blocks import Assumption, is_collective

STATIC, XLA, ASSUMED = "static", "xla", "assumed"
#: `Assumption.kind` of an assumed trip count and of a branch taken.
TRIP_COUNT, BRANCH = "trip_count", "branch"

#: Full names of the control-flow ops.
CONTROL_FLOW: frozenset[str] = frozenset(f"{dialect}.{name}" for dialect in ("stablehlo", "mhlo")
                                         for name in ("while", "case", "if"))
#: Ops that only reshape or retype a value on its way into a stacked buffer.
_VIEWS = frozenset({"reshape", "bitcast", "convert", "broadcast_in_dim", "transpose", "copy"})


def is_while(op: Op) -> bool:
    """Whether ``op`` is a ``while`` loop (any dialect)."""
    return op.short_name == "while" and len(op.regions) == 2


def is_branching(op: Op) -> bool:
    """Whether ``op`` is a ``case`` or ``if`` (any dialect)."""
    return op.short_name in ("case", "if") and bool(op.regions)


def trips(op: Op, loop_trips: int) -> tuple[int, str]:
    """Iterations of the while ``op`` and where the count came from (`STATIC`, `XLA`, `ASSUMED`)."""
    if "trip_count" in op.attrs:
        return op.attrs["trip_count"], STATIC
    if "known_trip_count" in op.attrs:
        return op.attrs["known_trip_count"], XLA
    return loop_trips, ASSUMED


def assumed_trips(where: str, op: Op, loop_trips: int) -> Assumption:
    """The assumption made for a while whose trip count the module does not give."""
    return Assumption(where, op.name, TRIP_COUNT,
                      f"trip count not static; assumed {loop_trips} (--loop-trips)")


def with_trip_counts(op: Op, where: str, loop_trips: int, assumed: list[Assumption]) -> Op:
    """``op`` with every ``while`` inside it (itself included) carrying a ``trip_count``; the
    loops whose count was assumed are added to ``assumed``. ``op`` itself when nothing changes."""
    regions = op.regions
    if regions:
        inner = tuple(_region_with_trip_counts(r, f"{where} >", loop_trips, assumed)
                      for r in regions)
        if any(a is not b for a, b in zip(inner, regions, strict=True)):
            regions = inner
    attrs = op.attrs
    if is_while(op) and "trip_count" not in attrs:
        count, source = trips(op, loop_trips)
        if source == ASSUMED:
            assumed.append(assumed_trips(where, op, loop_trips))
        attrs = {**attrs, "trip_count": count}
    if regions is op.regions and attrs is op.attrs:
        return op
    return dataclasses.replace(op, regions=regions, attrs=attrs)


def _region_with_trip_counts(region: Region, prefix: str, loop_trips: int,
                             assumed: list[Assumption]) -> Region:
    ops = tuple(with_trip_counts(o, f"{prefix} op {o.index}", loop_trips, assumed)
                for o in region.ops)
    if all(a is b for a, b in zip(ops, region.ops, strict=True)):
        return region
    return Region(region.args, region.arg_types, ops)


def iteration_order(ops: list[Op], args: Sequence[int], yielded: Sequence[int]) -> list[Op]:
    """The ops of one iteration with its *stack writes* moved to its end (``ops`` itself when
    there are none).

    A stack write is a ``dynamic_update_slice`` (or a call of one) into a loop-carried buffer
    (operand 0 is body argument k) whose result is what the iteration yields as that buffer and
    nothing else reads:
    how a scan stacks its per-iteration outputs (saved activations, per-layer gradients). The
    ops only such writes read (views of the written value) move with them, collectives never.
    Nothing else in the iteration waits for them, so, as XLA's scheduler would, they run last:
    in program order a gradient's write follows its reduce-scatter directly, and a block cut
    there would make the rest of the iteration wait for the communication, which the unrolled
    program (where the gradient is only read by the optimizer) never does.
    """
    slot = {arg: k for k, arg in enumerate(args)}
    users: dict[int, int] = {}
    for op in ops:
        for value in (*op.operands, *op.captures):
            users[value] = users.get(value, 0) + 1
    for value in yielded:
        users[value] = users.get(value, 0) + 1
    moved: set[int] = set()  # positions
    moved_users: dict[int, int] = {}  # value -> readers among the moved ops
    for position in range(len(ops) - 1, -1, -1):
        op = ops[position]
        if _is_stack_write(op, slot, yielded, users) or (
                op.short_name in _VIEWS and not is_collective(op) and op.results and all(
                    moved_users.get(r, 0) == users.get(r, 0) > 0 for r in op.results)):
            moved.add(position)
            for value in op.operands:
                moved_users[value] = moved_users.get(value, 0) + 1
    if not moved:
        return ops
    return ([op for p, op in enumerate(ops) if p not in moved]
            + [op for p, op in enumerate(ops) if p in moved])


def _is_stack_write(op: Op, slot: dict[int, int], yielded: Sequence[int],
                    users: dict[int, int]) -> bool:
    if len(op.results) != 1 or not op.operands or not _updates_first_operand(op):
        return False
    k = slot.get(op.operands[0])
    return k is not None and yielded[k] == op.results[0] and users.get(op.results[0]) == 1


def _updates_first_operand(op: Op) -> bool:
    """Whether ``op`` is a ``dynamic_update_slice``, or a call returning one of its first
    argument (JAX's ``dynamic_update_index_in_dim`` before inlining)."""
    if op.short_name == "dynamic_update_slice":
        return True
    if op.short_name != "call" or not op.regions or not op.regions[0].ops:
        return False
    body = op.regions[0]
    returned = body.ops[-1].operands
    return len(returned) == 1 and any(
        inner.short_name == "dynamic_update_slice" and inner.results == returned
        and inner.operands[:1] == body.args[:1] for inner in body.ops)


def branch_weight(ops: Iterable[Op], walk: Callable[[Iterable[Op]], Iterable[Op]]
                  ) -> tuple[int, int]:
    """How costly a branch is, without an estimator: (bytes its collectives communicate, bytes of
    the values its ops define), nested regions included. Communication comes first: it is what
    taking a branch into the traces is for; the bytes a branch writes stand for its compute."""
    communicated = written = 0
    for op in walk(ops):
        if is_collective(op):
            communicated += sum(t.nbytes for t in op.operand_types)
        written += sum(t.nbytes for t in op.result_types)
    return communicated, written


def taken_branch(where: str, op: Op, weights: Sequence[tuple[int, int]]
                 ) -> tuple[int, Assumption]:
    """The branch of ``op`` taken (the costliest by `branch_weight`) and the assumption made."""
    best = max(range(len(weights)), key=lambda b: (weights[b], -b))
    communicated, written = weights[best]
    return best, Assumption(where, op.name, BRANCH,
                            f"branch {best} of {len(weights)} taken, the costliest "
                            f"({communicated:,} bytes communicated, {written:,} bytes written)")
