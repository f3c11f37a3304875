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

import jax
import jax.numpy as jnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measuring import kernel_durations, median_call, record, run_info  # noqa: E402

N_SMALL, N_LARGE, ITERS = 32, 512, 30


def _conv(x):
    """A 3x3 bf16 convolution (a cuDNN call on XLA:GPU) of an 8x8x64 NHWC image, then ReLU."""
    w = jnp.full((3, 3, 64, 64), 0.01, x.dtype)
    y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jax.nn.relu(y)


#: (case, input shape, element type, step): one elementwise kernel, a row reduction (XLA's loop
#: and reduction emitters), a small cuBLAS GEMM and a small cuDNN convolution per step.
CASES = [
    ("elementwise_1k_f32", (1 << 10,), jnp.float32, lambda x: jnp.sin(x) + 1.0),
    ("reduction_1k_f32", (1 << 10,), jnp.float32,
     lambda x: x - jnp.mean(x.reshape(32, 32), axis=1).repeat(32)),
    ("elementwise_4M_f32", (1 << 22,), jnp.float32, lambda x: jnp.sin(x) + 1.0),
    ("gemm_256_bf16", (256, 256), jnp.bfloat16, lambda x: x @ x),
    ("conv3x3_8x8x64_bf16", (8, 8, 8, 64), jnp.bfloat16, _conv),
]


def chain(step, n):
    def run(x):
        for _ in range(n):
            x = jax.lax.optimization_barrier(step(x))
        return x
    return jax.jit(run)


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
    for name, shape, dtype, step in CASES:
        if only and name not in only:
            continue
        measured = chain_slope(step, jnp.full(shape, 0.5, dtype), N_SMALL, N_LARGE, ITERS)
        case = {"shape": list(shape), "dtype": str(jnp.dtype(dtype)),
                "per_kernel_s": measured.pop("slope_s"), **measured}
        result["cases"][name] = case
        record(result, path, name, case)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "kernel_chain.json")
