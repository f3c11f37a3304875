"""Microbenchmark of one runtime cost on a GPU: the idle time at the boundaries of XLA's command
buffers (``launch_gap_s`` of the node presets, `hespas_py.estimators.launch_gaps`).

A cuDNN convolution is not a command-buffer command in XLA, so a program that alternates a
convolution and a run of elementwise kernels (at least ``xla_gpu_graph_min_graph_size`` = 5,
which XLA puts in a command buffer) switches into and out of a CUDA graph at every step. Three
chains, each ``x = barrier(step(x))`` unrolled N times under ``jax.jit`` (`kernel_chain.chain`):

- ``conv``: a convolution long enough (tens of microseconds) that the host stays ahead; the
  slope less the convolution's kernel time is the gap *between* two convolutions;
- ``elementwise``: RUN elementwise kernels (one command buffer);
- ``switch``: a convolution then RUN elementwise kernels; the slope less the kernels' time is
  two switches (into and out of the command buffer).

Per case the step-time slope between N_SMALL and N_LARGE steps, the kernel time per step from
one profiled run with the command buffers kept (``XLA_FLAGS=--xla_enable_command_buffers_during_
profiling=true`` is set here unless given), and the idle time per step beside it.

    [SMALL=1] python3 scripts/gpu/graph_boundaries.py OUT.json   (one GPU; SMALL=1: tiny, a CPU test)
"""
import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_enable_command_buffers_during_profiling=true")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_chain import chain_slope  # noqa: E402
from measuring import record  # noqa: E402

from hespas_py.calibrate.timing import run_info  # noqa: E402

SMALL = os.environ.get("SMALL") == "1"
N_SMALL, N_LARGE, ITERS = (2, 6, 3) if SMALL else (16, 128, 20)
#: Elementwise kernels per command buffer (XLA forms one from 5 consecutive commands).
RUN = 6
#: NHWC image of the convolution: 64 channels at 56x56, batch 32 (about 30 us on an H100).
IMAGE = (2, 8, 8, 16) if SMALL else (32, 56, 56, 64)


def _conv(x):
    w = jnp.full((3, 3, x.shape[-1], x.shape[-1]), 0.01, x.dtype)
    return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _elementwise(x):
    for _ in range(RUN):  # barriers keep each one a kernel of its own
        x = jax.lax.optimization_barrier(jnp.sin(x) * 0.5)
    return x


STEPS = {"conv": _conv, "elementwise": _elementwise, "switch": lambda x: _elementwise(_conv(x))}


def busy_us(profile):
    """GPU kernel time per step of a `kernel_durations` profile (None without one)."""
    return sum(v["us_per_step"] for v in profile.values()) if profile else None


def main(path):
    result = {**run_info(), "n_small": N_SMALL, "n_large": N_LARGE, "run": RUN,
              "image": list(IMAGE), "cases": {}}
    x = jnp.full(IMAGE, 0.5, jnp.bfloat16)
    for name, step in STEPS.items():
        case = chain_slope(step, x, N_SMALL, N_LARGE, ITERS)
        case["per_step_s"] = case.pop("slope_s")
        busy = busy_us(case.get("profile_large"))
        if busy is not None:
            case["kernel_s_per_step"] = busy * 1e-6 / N_LARGE
            case["idle_s_per_step"] = case["per_step_s"] - case["kernel_s_per_step"]
        result["cases"][name] = case
        record(result, path, name, case)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "graph_boundaries.json")
