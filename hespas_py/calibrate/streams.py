"""Streams: the device-memory rate of a kernel that only moves bytes -> ``memory_efficiency``.

Three kernels over one bf16 array, each at several sizes: ``read`` (a sum: reads the array,
writes one number), ``write`` (a scalar argument broadcast to the array: writes it) and
``read_write`` (``x * 0.5 + 1``: reads and writes it, the elementwise kernel every step is full
of). Each is one XLA loop or reduction kernel with negligible arithmetic.

Traps: the sizes reach far past the last-level cache (the largest is 1 GiB on an accelerator;
smaller ones show the ramp and the cache), inputs are random normal values (never constant), the
scalar of ``write`` is an argument (a constant would be folded), and each case is timed by
`timing.steady_seconds` (compile and warm-up excluded, back-to-back calls, median of rounds).

Figure: ``bytes moved / (time - launch)``; ``memory_efficiency`` = that rate of ``read_write`` at
the largest size / the datasheet's ``memory_bandwidth`` (the fused roofline times a kernel's
bytes at exactly that product; a memory-bound kernel's arithmetic is hidden by the overlap).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

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
