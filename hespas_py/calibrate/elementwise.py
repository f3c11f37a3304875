"""Elementwise and transcendental ops: the cost per element the vector units take ->
``vector_efficiency`` (how fast the preset's op weights run, `hespas_py.kernels.op_cycles`).

Why and how: docs/calibration.md.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from hespas_py.calibrate.model import (
    Context,
    Measured,
    Observation,
    compute_seconds,
    share,
)
from hespas_py.calibrate.timing import Budget
from hespas_py.hardware import Hardware

#: op (StableHLO short name) -> the helper op each step adds (None: none).
OPS = {"exponential": "negate", "sine": None, "tanh": None, "log": "add", "rsqrt": None,
       "divide": "add", "multiply": None}


def _step(op: str) -> Callable:
    import jax
    import jax.numpy as jnp

    return {"exponential": lambda x, y: jnp.exp(-x), "sine": lambda x, y: jnp.sin(x),
            "tanh": lambda x, y: jnp.tanh(x), "log": lambda x, y: jnp.log(x + 2.0),
            "rsqrt": lambda x, y: jax.lax.rsqrt(x), "divide": lambda x, y: y / (x + 1.0),
            "multiply": lambda x, y: x * y}[op]


def sizes(budget: Budget, op: str) -> tuple[int, int]:
    """(elements, steps R) of an op's case."""
    elements = budget.pick(1 << 16, 1 << 26, 1 << 26)
    return elements, budget.pick(4, 16, 16) * (8 if op == "multiply" else 1)


def program(op: str, elements: int, steps: int) -> tuple[Callable, tuple[Any, ...]]:
    import jax.numpy as jnp

    from hespas_py.calibrate.timing import random_array

    x = jnp.abs(random_array((elements,), jnp.float32, 1)) * 0.5 + 0.5  # in [0.5, ...)
    y = 1.0 + random_array((elements,), jnp.float32, 2, 1e-4)
    step = _step(op)

    def run(x, y):
        for _ in range(steps):
            x = step(x, y)
        return x
    return run, (x, y)


def moved_bytes(op: str, elements: int) -> int:
    """Bytes the kernel moves: x (and y where the step reads it) in, x out, f32."""
    return 4 * elements * (3 if op in ("divide", "multiply") else 2)


def count(budget: Budget, reference: Hardware) -> int:
    return len(OPS)


def measure(budget: Budget, reference: Hardware, tick: Callable[[str], None]) -> dict[str, Any]:
    from hespas_py.calibrate.timing import steady_seconds

    found = []
    for op in OPS:
        elements, steps = sizes(budget, op)
        tick(f"elementwise {op}")
        found.append({"op": op, "helper": OPS[op], "elements": elements, "steps": steps,
                      "bytes": moved_bytes(op, elements),
                      "timing": steady_seconds(*program(op, elements, steps), budget).as_json()})
    return {"cases": found}


def model_cycles(case: dict[str, Any], ctx: Context) -> int:
    """Cycles per element and step the estimator charges a case (op + helper)."""
    from hespas_py.kernels import PROFILES, cycles

    profile = PROFILES.get(ctx.params.vector_op_cycles or "")
    ops = [case["op"]] + ([case["helper"]] if case["helper"] else [])
    return sum(cycles(op, "f32", profile) if profile else 1 for op in ops)


def measured_compute_s(case: dict[str, Any], ctx: Context) -> float | None:
    return compute_seconds(case["timing"]["seconds"], ctx.memory_s(case["bytes"]), ctx.launch_s,
                           ctx.overlap)


def op_efficiency(case: dict[str, Any], ctx: Context) -> float | None:
    """Model compute time at full vector rate / measured compute time (None: memory-bound)."""
    measured = measured_compute_s(case, ctx)
    if measured is None:
        return None
    work = case["steps"] * case["elements"] * model_cycles(case, ctx)
    return work / ctx.reference.vector_flops / measured


def derive(raw: dict[str, Any], ctx: Context) -> list[Measured]:
    ratios = {c["op"]: op_efficiency(c, ctx) for c in raw["cases"]}
    known = {op: r for op, r in ratios.items() if r is not None}
    if not known:
        return []
    profile = ctx.params.vector_op_cycles or "one FLOP per element"
    return [Measured("vector_efficiency", share(statistics.median(known.values())),
                     f"f32 ops applied repeatedly in one kernel, model time ({profile}) / "
                     "measured compute time, median of " + ", ".join(
                         f"{op} {r:.2f}" for op, r in known.items()))]


def observations(raw: dict[str, Any], ctx: Context) -> list[Observation]:
    """Each op's cycles per element (its helper op's model cycles taken off) beside the
    profile's."""
    found = []
    for c in raw["cases"]:
        measured = measured_compute_s(c, ctx)
        if measured is None:
            continue
        helper = model_cycles({**c, "helper": None}, ctx)
        per_element = measured * ctx.reference.vector_flops / (c["steps"] * c["elements"])
        found.append(Observation(f"f32 {c['op']} per element", per_element
                                 - (model_cycles(c, ctx) - helper), helper, "cycles"))
    return found
