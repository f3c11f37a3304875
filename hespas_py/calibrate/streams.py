"""Streams: the device-memory rate of a kernel that only moves bytes -> ``memory_efficiency``.

Why and how: docs/calibration.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hespas_py.calibrate.model import Context, Measured, share
from hespas_py.calibrate.timing import Budget
from hespas_py.hardware import Hardware

MODES = ("read", "write", "read_write")
_MiB = 1 << 20


def sizes(budget: Budget) -> tuple[int, ...]:
    """Bytes of the array, smallest first."""
    return budget.pick((_MiB, 4 * _MiB), (64 * _MiB, 1024 * _MiB),
                       (16 * _MiB, 64 * _MiB, 256 * _MiB, 1024 * _MiB))


def moved_bytes(mode: str, nbytes: int) -> int:
    """Bytes a ``mode`` kernel over an array of ``nbytes`` moves (read + write)."""
    return 2 * nbytes if mode == "read_write" else nbytes


def program(mode: str, nbytes: int) -> tuple[Callable, tuple[Any, ...]]:
    """(function, arguments) of one stream over a bf16 array of ``nbytes``."""
    import jax.numpy as jnp

    from hespas_py.calibrate.timing import random_array

    shape = (nbytes // 2,)
    if mode == "write":
        return (lambda s: jnp.broadcast_to(s, shape)), (jnp.asarray(0.5, jnp.bfloat16),)
    x = random_array(shape, jnp.bfloat16)
    if mode == "read":
        return (lambda v: jnp.sum(v, dtype=jnp.float32)), (x,)
    return (lambda v: v * 0.5 + 1), (x,)


def count(budget: Budget, reference: Hardware) -> int:
    return len(MODES) * len(sizes(budget))


def measure(budget: Budget, reference: Hardware, tick: Callable[[str], None]) -> dict[str, Any]:
    """Time every mode at every size."""
    from hespas_py.calibrate.timing import steady_seconds

    cases = []
    for nbytes in sizes(budget):
        for mode in MODES:
            tick(f"stream {mode} {nbytes // _MiB} MiB")
            timing = steady_seconds(*program(mode, nbytes), budget)
            cases.append({"mode": mode, "array_bytes": nbytes,
                          "moved_bytes": moved_bytes(mode, nbytes), "timing": timing.as_json()})
    return {"cases": cases}


def rate(case: dict[str, Any], launch_s: float) -> float:
    """Bytes per second of a case, its launch cost taken off."""
    return case["moved_bytes"] / max(case["timing"]["seconds"] - launch_s, 1e-12)


def derive(raw: dict[str, Any], ctx: Context) -> list[Measured]:
    """``memory_efficiency`` from the largest ``read_write`` case."""
    cases = [c for c in raw["cases"] if c["mode"] == "read_write"]
    if not cases:
        return []
    case = max(cases, key=lambda c: c["array_bytes"])
    achieved = rate(case, ctx.launch_s)
    peak = ctx.reference.memory_bandwidth
    return [Measured("memory_efficiency", share(achieved / peak),
                     f"x*0.5+1 over {case['array_bytes'] / _MiB:g} MiB of bf16 (read + write) "
                     f"at {achieved / 1e9:,.0f} GB/s / datasheet {peak / 1e9:,.0f} GB/s")]
