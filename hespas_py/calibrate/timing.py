"""Timing compiled JAX programs on the local device without the known traps, and the facts of a
run (device, date, versions) kept beside every figure. Shared with ``scripts/gpu``.

Why and how: docs/calibration.md.
"""

from __future__ import annotations

import datetime
import functools
import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: Most calls in one timed burst.
MAX_CALLS = 512
#: Most bytes of outputs and temporaries the calls of a burst may hold at once (calls are
#: dispatched ahead of the device, each with its own buffers).
IN_FLIGHT_BYTES = 8 << 30


def run_info() -> dict[str, Any]:
    """The device, device count, date, jax/jaxlib versions and XLA_FLAGS of this run."""
    import jax
    import jaxlib

    device = jax.devices()[0]
    return {"device_kind": device.device_kind, "platform": device.platform,
            "devices": jax.local_device_count(), "jax": jax.__version__,
            "jaxlib": jaxlib.__version__, "date": datetime.date.today().isoformat(),
            "xla_flags": os.environ.get("XLA_FLAGS", "")}


@dataclass(frozen=True)
class Budget:
    """How much work a calibration spends: sizes by device platform and mode, timing rounds.

    Attributes:
        platform: ``jax.devices()[0].platform`` (``cpu``: tiny sizes, for tests and CPU users).
        quick: the ``--quick`` sizes (under a minute on one GPU).
        repeats: timed rounds per case (the median is kept).
        min_round_s: least wall time of the shorter burst of a round.
        warmup_s: least wall time of the warm-up calls of a case.
    """

    platform: str
    quick: bool
    repeats: int
    min_round_s: float
    warmup_s: float

    @classmethod
    def of(cls, platform: str, quick: bool) -> Budget:
        """The budget of a run on ``platform``."""
        if platform == "cpu":
            return cls(platform, quick, 2 if quick else 3, 0.002, 0.0)
        return cls(platform, quick, 3 if quick else 5, 0.02 if quick else 0.08,
                   0.1 if quick else 0.4)

    @property
    def tiny(self) -> bool:
        """Whether sizes are the CPU's tiny ones."""
        return self.platform == "cpu"

    def pick(self, tiny: Any, quick: Any, full: Any) -> Any:
        """The value for this budget: CPU, accelerator ``--quick``, accelerator full run."""
        return tiny if self.tiny else quick if self.quick else full


@dataclass(frozen=True)
class Timing:
    """The steady time per call of one case.

    Attributes:
        seconds: median over rounds of the time per call.
        calls: calls in the shorter burst of a round.
        rounds: each round's time per call.
        host_bound: the time is within twice the host's back-to-back floor (not device time).
    """

    seconds: float
    calls: int
    rounds: tuple[float, ...]
    host_bound: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "calls": self.calls, "rounds": list(self.rounds),
                "host_bound": self.host_bound}


def _burst(compiled: Callable, args: Sequence[Any], calls: int) -> float:
    """Wall seconds of ``calls`` back-to-back calls, waited on once at the end (in-order device)."""
    import jax

    start = time.perf_counter()
    out = None
    for _ in range(calls):
        out = compiled(*args)
    jax.block_until_ready(out)
    return time.perf_counter() - start


def slope(short_s: Sequence[float], long_s: Sequence[float], extra: int) -> float:
    """Seconds per unit from timed rounds of a short and a long run ``extra`` units apart: the
    difference of their medians over ``extra`` (the shared fixed cost cancels); when noise makes
    it not positive, the long run's median per unit (an upper bound) instead."""
    difference = statistics.median(long_s) - statistics.median(short_s)
    return difference / extra if difference > 0 else statistics.median(long_s) / (2 * extra)


def time_compiled(compiled: Callable, args: Sequence[Any], budget: Budget,
                  floor_s: float | None = None) -> Timing:
    """The steady seconds per call of a compiled program (see the module docstring)."""
    import jax

    start, warm = time.perf_counter(), 0
    while warm < 2 or time.perf_counter() - start < budget.warmup_s:
        jax.block_until_ready(compiled(*args))
        warm += 1
    one = min(_burst(compiled, args, 1) for _ in range(3))
    calls = max(1, min(MAX_CALLS, math.ceil(budget.min_round_s / max(one, 1e-9)),
                       IN_FLIGHT_BYTES // max(2 * _buffer_bytes(compiled), 1)))
    shorts, longs = [], []
    for _ in range(budget.repeats):
        shorts.append(_burst(compiled, args, calls))
        longs.append(_burst(compiled, args, 2 * calls))
    seconds = slope(shorts, longs, calls)
    rounds = tuple((b - a) / calls for a, b in zip(shorts, longs, strict=True))
    return Timing(seconds, calls, rounds,
                  host_bound=floor_s is not None and seconds < 2 * floor_s)


def _buffer_bytes(compiled: Any) -> int:
    """Bytes of outputs and temporaries one call allocates (0 when XLA does not say)."""
    try:
        analysis = compiled.memory_analysis()
        return int(analysis.output_size_in_bytes + analysis.temp_size_in_bytes)
    except Exception:  # noqa: BLE001  (a backend without memory analysis)
        return 0


@functools.cache
def host_floor_seconds(budget: Budget) -> float:
    """Back-to-back seconds per call of an empty program (``x + 1`` on one element): below twice
    this, a case's time is the host's, not the device's."""
    import jax
    import jax.numpy as jnp

    x = jnp.ones((1,), jnp.float32)
    return time_compiled(jax.jit(lambda v: v + 1).lower(x).compile(), (x,), budget).seconds


def steady_seconds(fn: Callable, args: Sequence[Any], budget: Budget,
                   compiler_options: dict[str, Any] | None = None) -> Timing:
    """Compile ``fn`` for ``args`` (not timed), then `time_compiled` it, flagged against the
    host floor."""
    import jax

    compiled = jax.jit(fn).lower(*args).compile(compiler_options=compiler_options)
    return time_compiled(compiled, args, budget, host_floor_seconds(budget))


def call_times(compiled: Callable, *args: Any, iters: int = 30, warmup: int = 3) -> list[float]:
    """Seconds of each of ``iters`` calls, each waited on (``block_until_ready``) as a caller
    that waits for every step does, after ``warmup`` untimed calls."""
    import jax

    for _ in range(warmup):
        jax.block_until_ready(compiled(*args))
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        jax.block_until_ready(compiled(*args))
        times.append(time.perf_counter() - start)
    return times


def median_call(compiled: Callable, *args: Any, iters: int = 30) -> float:
    """The median of `call_times`."""
    return statistics.median(call_times(compiled, *args, iters=iters))


def random_array(shape: Sequence[int], dtype: Any, seed: int = 0, scale: float = 1.0) -> Any:
    """A device array of normal values times ``scale`` in ``dtype``: no all-zero or constant
    inputs (those take fast paths and draw less power than real data).

    Up to `RANDOM_BLOCK` values are drawn on the host (NumPy: `jax.random` compiles a program per
    shape, seconds each on a CPU); a larger array repeats such a block, filled on the device
    (host-side filling and conversion of a GiB takes seconds)."""
    import jax
    import numpy as np

    size = math.prod(shape)
    values = np.random.default_rng(seed).standard_normal(min(size, RANDOM_BLOCK),
                                                         dtype=np.float32) * np.float32(scale)
    if size <= RANDOM_BLOCK:
        return jax.device_put(values.reshape(tuple(shape)).astype(dtype))
    return _filler(tuple(shape), np.dtype(dtype))(jax.device_put(values))


#: Most distinct values `random_array` draws.
RANDOM_BLOCK = 1 << 22


@functools.cache
def _filler(shape: tuple[int, ...], dtype: Any) -> Callable:
    import jax
    import jax.numpy as jnp

    return jax.jit(lambda block: jnp.resize(block, (math.prod(shape),)).reshape(shape)
                   .astype(dtype))
