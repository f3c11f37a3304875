"""Convolutions: the share of the tensor rate a convolution reaches by its channel count ->
``conv_channel_efficiency`` (`hespas_py.kernels.convolution.channel_efficiency`).

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
from hespas_py.kernels import padded_f16_channels

#: (key, input side, in channels, out channels, kernel side, stride, groups).
CLASSES = (("3", 224, 3, 64, 7, 2, 1), ("64", 56, 64, 64, 3, 1, 1),
           ("128", 28, 128, 128, 3, 1, 1), ("256", 14, 256, 256, 3, 1, 1))
DEPTHWISE = ("depthwise", 56, 144, 144, 3, 1, 144)
PASSES = ("forward", "backward_input", "backward_filter")


def out_side(side: int, k: int, stride: int) -> int:
    """Output side with ``k // 2`` padding on each side."""
    return (side + 2 * (k // 2) - k) // stride + 1


def conv_figures(batch: int, side: int, cin: int, cout: int, k: int, stride: int,
                 groups: int = 1) -> dict[str, Any]:
    """FLOPs, bytes (f16) and the implicit GEMM's (M, N) per pass of one convolution."""
    o = out_side(side, k, stride)
    flops = 2 * batch * o * o * cout * cin * k * k // groups
    nbytes = 2 * (batch * side * side * cin + k * k * cin // groups * cout + batch * o * o * cout)
    mn = {"forward": (batch * o * o, cout), "backward_input": (batch * side * side, cin),
          "backward_filter": (k * k * cin // groups, cout)}
    return {"flops": flops, "bytes": nbytes,
            "mnk": {p: [m, n, max(flops // (2 * m * n), 1)] for p, (m, n) in mn.items()}}


def passes(batch: int, side: int, cin: int, cout: int, k: int, stride: int, groups: int = 1,
           seed: int = 0, dtype: Any = None) -> dict[str, tuple[Callable, tuple[Any, ...]]]:
    """pass -> (function, arguments): the forward convolution and its two gradients, in
    ``dtype`` (default f16)."""
    import jax
    import jax.numpy as jnp

    from hespas_py.calibrate.timing import random_array

    dtype = jnp.float16 if dtype is None else dtype
    pad = [(k // 2, k // 2)] * 2
    x = random_array((batch, side, side, cin), dtype, seed, 0.1)
    w = random_array((k, k, cin // groups, cout), dtype, seed + 1, 0.1)

    def forward(x, w):
        return jax.lax.conv_general_dilated(x, w, (stride, stride), pad,
                                            dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                            feature_group_count=groups)
    dy = random_array(jax.eval_shape(forward, x, w).shape, dtype, seed + 2, 0.1)
    return {"forward": (forward, (x, w)),
            "backward_input": (lambda dy, x, w: jax.vjp(forward, x, w)[1](dy)[0], (dy, x, w)),
            "backward_filter": (lambda dy, x, w: jax.vjp(forward, x, w)[1](dy)[1], (dy, x, w))}


def cases(budget: Budget) -> list[tuple[tuple, str]]:
    """(shape, pass) of every case: forward only on a CPU and in ``--quick``."""
    chosen = PASSES if not budget.quick and not budget.tiny else PASSES[:1]
    return [(shape, p) for shape in (*CLASSES, DEPTHWISE) for p in chosen
            if not (shape[2] == 3 and p == "backward_input")]  # images need no gradient


def _sized(budget: Budget, shape: tuple) -> tuple[int, tuple]:
    """(batch, shape) for the budget: 256 images on an accelerator; 2 images a quarter the side
    on a CPU."""
    key, side, *rest = shape
    return budget.pick((2, (key, max(side // 4, 7), *rest)), (256, shape), (256, shape))


def count(budget: Budget, reference: Hardware) -> int:
    return len(cases(budget))


def measure(budget: Budget, reference: Hardware, tick: Callable[[str], None]) -> dict[str, Any]:
    from hespas_py.calibrate.timing import steady_seconds

    found = []
    for shape, name in cases(budget):
        batch, (key, side, cin, cout, k, stride, groups) = _sized(budget, shape)
        tick(f"conv {key} {name}")
        fn, args = passes(batch, side, cin, cout, k, stride, groups)[name]
        found.append({"key": key, "pass": name, "batch": batch, "side": side, "cin": cin,
                      "cout": cout, "k": k, "stride": stride, "groups": groups,
                      **conv_figures(batch, side, cin, cout, k, stride, groups),
                      "timing": steady_seconds(fn, args, budget).as_json()})
    return {"cases": found}


def _padding(case: dict[str, Any], ctx: Context) -> tuple[float, float]:
    """(work factor of XLA's channel padding, seconds of its pad kernel) for a case."""
    padded = (padded_f16_channels(case["cin"], case["cout"])
              if ctx.params.conv_channel_padding and case["groups"] == 1 else None)
    if padded is None:
        return 1.0, 0.0
    factor = padded[0] * padded[1] / (case["cin"] * case["cout"])
    pad_s = 0.0
    if ctx.params.conv_input_pads and case["pass"] == "forward":
        pixels = case["batch"] * case["side"] ** 2
        pad_s = ctx.launch_s + ctx.memory_s(2 * pixels * (case["cin"] + padded[0]))
    return factor, pad_s


def case_share(case: dict[str, Any], ctx: Context) -> float | None:
    """The case's tensor rate / (f16 peak x f16 efficiency x waves); None if memory-bound."""
    peak = ctx.peak("f16")
    factor, pad_s = _padding(case, ctx)
    compute_s = compute_seconds(case["timing"]["seconds"] - pad_s, ctx.memory_s(case["bytes"]),
                                ctx.launch_s, ctx.overlap)
    if peak is None or compute_s is None:
        return None
    return case["flops"] * factor / (compute_s * peak * ctx.tensor_efficiency("f16")
                                     * ctx.waves(tuple(case["mnk"][case["pass"]])))


def derive(raw: dict[str, Any], ctx: Context) -> list[Measured]:
    """``conv_channel_efficiency``: per key, the mean share of its passes."""
    table, whats = {}, []
    for key, *_ in CLASSES:
        shares = {c["pass"]: case_share(c, ctx) for c in raw["cases"] if c["key"] == key}
        known = [v for v in shares.values() if v is not None]
        if known:
            table[key] = share(statistics.mean(known))
            whats.append(f"{key} channels: " + ", ".join(
                f"{p} {v:.3f}" for p, v in shares.items() if v is not None))
    if not table:
        return []
    return [Measured("conv_channel_efficiency", table,
                     "f16 convolutions alone, share of the f16 tensor rate beyond "
                     "tensor_efficiency, after launch, memory, channel padding and waves: "
                     + "; ".join(whats))]


def observations(raw: dict[str, Any], ctx: Context) -> list[Observation]:
    """Each depthwise case's time beside the model's."""
    from hespas_py.kernels import channel_efficiency

    table = dict(ctx.params.conv_channel_efficiency)
    found = []
    for c in raw["cases"]:
        if c["key"] != "depthwise":
            continue
        rate = ((ctx.peak("f16") or ctx.reference.peak_flops) * ctx.tensor_efficiency("f16")
                * channel_efficiency(table, (c["cin"], c["cout"]))
                * ctx.waves(tuple(c["mnk"][c["pass"]])))
        compute_s, memory_s = c["flops"] / rate, ctx.memory_s(c["bytes"])
        modelled = ctx.launch_s + compute_s + memory_s - ctx.overlap * min(compute_s, memory_s)
        found.append(Observation(f"depthwise conv {c['cin']} ch {c['pass']}",
                                 c["timing"]["seconds"], modelled))
    return found
