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
import json
import os
import sys

import jax.numpy as jnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measuring import kernel_durations  # noqa: E402
from hespas_py.calibrate.launch import chain, chain_cases  # noqa: E402
from hespas_py.calibrate.timing import median_call, run_info  # noqa: E402

N_SMALL, N_LARGE, ITERS = 32, 512, 30


def main(path):
    result = {**run_info(), "n_small": N_SMALL, "n_large": N_LARGE, "cases": {}}
    only = set(os.environ.get("CASES", "").split(",")) - {""}
    for name, shape, dtype, step in chain_cases():
        if only and name not in only:
            continue
        x = jnp.full(shape, 0.5, dtype)
        small, large = chain(step, N_SMALL).lower(x).compile(), chain(step, N_LARGE).lower(x).compile()
        t_small = median_call(small, x, iters=ITERS)
        t_large = median_call(large, x, iters=ITERS)
        case = {"shape": list(shape), "dtype": str(jnp.dtype(dtype)),
                "step_s_small": t_small, "step_s_large": t_large,
                "per_kernel_s": (t_large - t_small) / (N_LARGE - N_SMALL)}
        try:
            case["profile_large"] = kernel_durations(large, x)
        except Exception as exc:  # noqa: BLE001  (the slope stands without the profile)
            case["profile_error"] = repr(exc)[:300]
        result["cases"][name] = case
        print(name, json.dumps({k: v for k, v in case.items() if k != "profile_large"}), flush=True)
        with open(path, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "kernel_chain.json")
