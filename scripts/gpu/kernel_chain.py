"""Microbenchmark of one kernel class on a GPU: a chain of dependent kernels, each too small to
matter, so that the time per kernel is the fixed cost of a launch in an XLA program (launch, the
wait on the previous kernel, the kernel's own ramp-up and drain).

Each program is ``x = barrier(f(x))`` unrolled N times under ``jax.jit``: the optimization
barrier keeps XLA from fusing two steps, so the program is N kernels in a row, each reading the
last one's output. The per-kernel cost is the slope of the step time between N_SMALL and N_LARGE
(the step's fixed dispatch cost cancels). Kernel durations come from one profiled run
(``jax.profiler``), so the idle time between kernels is given too.

    [CASES=a,b] python3 scripts/gpu/kernel_chain.py OUT.json   (one GPU; a CPU runs it too, as a test)
Writes OUT.json: device, date, jax version, XLA_FLAGS and per case the step times and slope.
"""
import os
import sys

import jax.numpy as jnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measuring import kernel_durations, record  # noqa: E402

from hespas_py.calibrate.launch import chain, chain_cases  # noqa: E402
from hespas_py.calibrate.timing import median_call, run_info  # noqa: E402

N_SMALL, N_LARGE, ITERS = 32, 512, 30


def chain_slope(step, x, n_small, n_large, iters):
    """Step times of ``n_small`` and ``n_large`` chained steps from ``x``, their slope per step
    (``slope_s``), and the large chain's profile (or why there is none)."""
    small = chain(step, n_small).lower(x).compile()
    large = chain(step, n_large).lower(x).compile()
    t_small, t_large = median_call(small, x, iters=iters), median_call(large, x, iters=iters)
    case = {"step_s_small": t_small, "step_s_large": t_large,
            "slope_s": (t_large - t_small) / (n_large - n_small)}
    try:
        case["profile_large"] = kernel_durations(large, x)
    except Exception as exc:  # noqa: BLE001  (the slope stands without the profile)
        case["profile_error"] = repr(exc)[:300]
    return case


def main(path):
    result = {**run_info(), "n_small": N_SMALL, "n_large": N_LARGE, "cases": {}}
    only = set(os.environ.get("CASES", "").split(",")) - {""}
    for name, shape, dtype, step in chain_cases():
        if only and name not in only:
            continue
        measured = chain_slope(step, jnp.full(shape, 0.5, dtype), N_SMALL, N_LARGE, ITERS)
        case = {"shape": list(shape), "dtype": str(jnp.dtype(dtype)),
                "per_kernel_s": measured.pop("slope_s"), **measured}
        result["cases"][name] = case
        record(result, path, name, case)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "kernel_chain.json")
