"""Static trip counts of ``while`` loops whose bound is a constant.

Recognised: a condition ``compare DIR, iv, bound`` (either side), ``iv`` starting at a constant
and stepped by a constant ``add``/``subtract`` in the body, ``bound`` a constant or a loop-carried
value the body passes through unchanged whose initial value is a constant. This covers JAX's
``fori_loop``/``scan`` lowering and XLA's optimized form, where the compare, the step and the
initial value sit inside ``mhlo.fusion`` bodies or behind ``mhlo.copy``.
"""

from __future__ import annotations

from collections.abc import Mapping

from hespas_py.mlir.ops import Op, Region, scalar_int

#: Ops the analysis looks through or evaluates; the reader records where each result came from.
TRACKED: frozenset[str] = frozenset(
    f"{dialect}.{name}"
    for dialect in ("stablehlo", "mhlo")
    for name in ("constant", "copy", "bitcast", "convert", "reshape", "fusion", "compare", "add",
                 "subtract")
)
_PASS_THROUGH = ("copy", "bitcast", "convert", "reshape")
_FLIPPED = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE", "EQ": "EQ", "NE": "NE"}

Definitions = Mapping[int, Op]  # SSA id -> the tracked op that defines it


def trip_count(operands: tuple[int, ...], cond: Region, body: Region, defs: Definitions) -> int | None:
    """Iterations of a while loop with initial values ``operands``, or `None` if not static."""
    if not cond.ops or len(cond.ops[-1].operands) != 1:
        return None
    compare = _producer(cond.ops[-1].operands[0], defs)
    if compare is None or compare[0].short_name != "compare":
        return None
    compare_op, (lhs, rhs) = compare[0], compare[1][:2]
    direction = compare_op.attrs.get("comparison_direction")
    for iv, bound, relation in ((lhs, rhs, direction), (rhs, lhs, _FLIPPED.get(direction or ""))):
        if iv not in cond.args:
            continue
        k = cond.args.index(iv)
        start = _constant(operands[k], defs)
        step = _step(body, k, defs)
        limit = _invariant(bound, operands, cond, body, defs)
        if start is not None and step is not None and limit is not None and relation:
            return _count(start, limit, step, relation)
    return None


def _count(start: int, limit: int, step: int, relation: str) -> int | None:
    """Iterations of ``for (i = start; i <relation> limit; i += step)``; `None` if unbounded."""
    if relation == "NE":
        distance = limit - start
        return distance // step if step and distance % step == 0 and distance // step >= 0 else None
    if relation in ("LE", "GE"):
        limit += 1 if relation == "LE" else -1
        relation = "LT" if relation == "LE" else "GT"
    if relation == "LT":
        return 0 if start >= limit else (-(-(limit - start) // step) if step > 0 else None)
    if relation == "GT":
        return 0 if start <= limit else (-(-(start - limit) // -step) if step < 0 else None)
    return None


def _invariant(
    value: int, operands: tuple[int, ...], cond: Region, body: Region, defs: Definitions
) -> int | None:
    """A constant, or a loop-carried value that never changes and starts as a constant."""
    if value in cond.args:
        j = cond.args.index(value)
        if body.ops and body.ops[-1].operands[j] == body.args[j]:
            return _constant(operands[j], defs)
        return None
    return _constant(value, defs)


def _step(body: Region, k: int, defs: Definitions) -> int | None:
    """The constant the body adds to loop-carried value ``k`` each iteration."""
    if not body.ops:
        return None
    update = _producer(body.ops[-1].operands[k], defs)
    if update is None or len(update[1]) != 2:
        return None
    op, (a, b) = update[0], update[1]
    iv = body.args[k]
    if op.short_name == "add" and iv in (a, b):
        return _constant(b if a == iv else a, defs)
    if op.short_name == "subtract" and a == iv:
        amount = _constant(b, defs)
        return None if amount is None else -amount
    return None


def _constant(value: int, defs: Definitions) -> int | None:
    """The integer a value always holds (a scalar constant, possibly copied or fused), else `None`."""
    found = _producer(value, defs)
    if found is None:
        return None
    op, operands = found
    if op.short_name == "constant":
        return scalar_int(op)
    if op.short_name in _PASS_THROUGH:
        return _constant(operands[0], defs)
    return None


def _producer(value: int, defs: Definitions) -> tuple[Op, tuple[int, ...]] | None:
    """The op computing ``value`` and its operands, looking inside ``mhlo.fusion`` wrappers.

    The operands of an op found inside a fusion body are translated back to the fusion's own
    operands where they are the body's arguments.
    """
    op = defs.get(value)
    if op is None:
        return None
    if op.short_name != "fusion" or not op.regions:
        return op, op.operands
    region = op.regions[0]
    outer_of = dict(zip(region.args, op.operands, strict=True))
    inner = region.ops[-1].operands[op.results.index(value)]
    if inner in outer_of:
        return _producer(outer_of[inner], defs)
    found = _producer(inner, defs)
    if found is None:
        return None
    inner_op, operands = found
    return inner_op, tuple(outer_of.get(i, i) for i in operands)
