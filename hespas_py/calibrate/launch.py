"""Launch and dispatch: the fixed cost of one kernel inside and across command buffers, and the
host's cost of one call -> ``launch_overhead_s``, ``dispatch_overhead_s``,
``dispatch_per_buffer_s``.

Why and how: docs/calibration.md.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from hespas_py.calibrate.model import Context, Measured, Observation
from hespas_py.calibrate.timing import Budget
from hespas_py.hardware import Hardware

#: Per-compile XLA option that turns command buffers (CUDA graphs) off.
NO_COMMAND_BUFFERS = {"xla_gpu_enable_command_buffer": ""}


def _conv(x):
    """A 3x3 convolution (a cuDNN call on XLA:GPU) of an 8x8x64 NHWC image, then ReLU."""
    import jax
    import jax.numpy as jnp

    w = jnp.full((3, 3, 64, 64), 0.01, x.dtype)
    y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jax.nn.relu(y)


def chain_cases() -> list[tuple[str, tuple[int, ...], str, Callable]]:
    """(case, input shape, element type, step): one elementwise kernel, a row reduction (XLA's
    loop and reduction emitters), a larger elementwise kernel, a small cuBLAS GEMM and a small
    cuDNN convolution per step."""
    import jax.numpy as jnp

    return [
        ("elementwise_1k_f32", (1 << 10,), "float32", lambda x: jnp.sin(x) + 1.0),
        ("reduction_1k_f32", (1 << 10,), "float32",
         lambda x: x - jnp.mean(x.reshape(32, 32), axis=1).repeat(32)),
        ("elementwise_4M_f32", (1 << 22,), "float32", lambda x: jnp.sin(x) + 1.0),
        ("gemm_256_bf16", (256, 256), "bfloat16", lambda x: x @ x),
        ("conv3x3_8x8x64_bf16", (8, 8, 8, 64), "bfloat16", _conv),
    ]


def chain(step: Callable, n: int) -> Any:
    """``step`` applied ``n`` times, each result behind an optimization barrier, jitted."""
    import jax

    def run(x):
        for _ in range(n):
            x = jax.lax.optimization_barrier(step(x))
        return x
    return jax.jit(run)


def dispatch_program(k: int, elements: int) -> tuple[Callable, list[Any]]:
    """(compiled program of ``k`` inputs and ``k`` outputs, its arguments)."""
    import jax
    import jax.numpy as jnp

    args = [jnp.full((elements,), float(i), jnp.float32) for i in range(k)]
    return jax.jit(lambda *xs: [x + 1.0 for x in xs]).lower(*args).compile(), args


def plan(budget: Budget) -> dict[str, Any]:
    return {"lengths": budget.pick((4, 16), (16, 128), (32, 512)),
            "chains": budget.pick(("elementwise_1k_f32",), ("elementwise_1k_f32",),
                                  tuple(c[0] for c in chain_cases())),
            "buffers": budget.pick((1, 8, 32), (1, 64, 256), (1, 32, 128, 512)),
            "iters": budget.pick(5, 15, 30)}


def _variants(budget: Budget) -> dict[str, dict[str, str] | None]:
    """Compile variants: default, and without command buffers where XLA has them (GPU)."""
    return {"default": None, **({"no_command_buffers": NO_COMMAND_BUFFERS}
                                if budget.platform == "gpu" else {})}


def count(budget: Budget, reference: Hardware) -> int:
    chosen = plan(budget)
    return len(chosen["chains"]) * len(_variants(budget)) + len(chosen["buffers"])


def measure(budget: Budget, reference: Hardware, tick: Callable[[str], None]) -> dict[str, Any]:
    import jax.numpy as jnp

    from hespas_py.calibrate.timing import call_times, slope

    chosen = plan(budget)
    short, long = chosen["lengths"]
    chains = []
    for name, shape, dtype, step in chain_cases():
        if name not in chosen["chains"]:
            continue
        x = jnp.full(shape, 0.5, dtype)
        for variant, options in _variants(budget).items():
            tick(f"launch {name} {variant}")
            case: dict[str, Any] = {"case": name, "variant": variant, "lengths": [short, long]}
            try:
                times = [call_times(chain(step, n).lower(x).compile(compiler_options=options), x,
                                    iters=chosen["iters"]) for n in (short, long)]
            except Exception as exc:  # noqa: BLE001  (an XLA without that option)
                chains.append({**case, "error": repr(exc)[:300]})
                continue
            chains.append({**case, "per_kernel_s": slope(times[0], times[1], long - short),
                           "median_call_s": [statistics.median(t) for t in times]})
    calls = []
    for k in chosen["buffers"]:
        tick(f"dispatch {k} buffers")
        compiled, args = dispatch_program(k, 256)
        calls.append({"inputs": k, "outputs": k,
                      "call_s": statistics.median(call_times(compiled, *args,
                                                             iters=chosen["iters"]))})
    return {"chains": chains, "dispatch": calls}


def fit_line(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """(intercept, slope) of the least-squares line through the points."""
    mx, my = statistics.mean(xs), statistics.mean(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread if spread else 0.0
    return my - b * mx, b


def _kernel_s(raw: dict[str, Any], variant: str) -> float | None:
    found = [c["per_kernel_s"] for c in raw["chains"] if c["case"] == "elementwise_1k_f32"
             and c["variant"] == variant and "per_kernel_s" in c]
    return found[0] if found else None


def derive(raw: dict[str, Any], ctx: Context) -> list[Measured]:
    found = []
    kernel_s = _kernel_s(raw, "default")
    if kernel_s is not None:
        where = ("inside command buffers" if _kernel_s(raw, "no_command_buffers") is not None
                 else "as compiled by default")
        found.append(Measured("launch_overhead_s", float(f"{max(kernel_s, 0.0):.3g}"),
                              f"slope of a chain of dependent 1k-element f32 kernels ({where})",
                              per_chip=True))
    points = raw["dispatch"]
    if len(points) >= 2:
        launch = kernel_s or 0.0
        intercept, per_buffer = fit_line(
            [2 * p["inputs"] for p in points], [p["call_s"] - p["inputs"] * launch for p in points])
        what = (f"a jitted program of K inputs and K outputs (K = "
                f"{', '.join(str(p['inputs']) for p in points)}) called and waited on: "
                "least-squares line of the call time less K kernels over the 2K buffers")
        found += [Measured("dispatch_overhead_s", float(f"{max(intercept, 0.0):.3g}"), what,
                           per_chip=True),
                  Measured("dispatch_per_buffer_s", float(f"{max(per_buffer, 0.0):.3g}"), what,
                           per_chip=True)]
    return found


def observations(raw: dict[str, Any], ctx: Context) -> list[Observation]:
    """Each chain's time per kernel beside ``launch_overhead_s``."""
    return [Observation(f"kernel launch, {c['case']} ({c['variant'].replace('_', ' ')})",
                        c["per_kernel_s"], ctx.launch_s) for c in raw["chains"]
            if "per_kernel_s" in c]
