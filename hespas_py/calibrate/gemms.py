"""GEMMs: the tensor-unit rate per element type and precision -> ``tensor_efficiency``,
``tensor_efficiency_by_dtype``, ``f32_matmul_as_tf32``; skinny shapes check the tile and wave rule.

Why and how: docs/calibration.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hespas_py.calibrate.model import Context, Measured, Observation, compute_seconds, share
from hespas_py.calibrate.timing import Budget
from hespas_py.hardware import Hardware

#: (case type, input element type (MLIR), precision, result element type).
TYPES = (("bf16", "bf16", "default", "bf16"), ("f16", "f16", "default", "f16"),
         ("f32_default", "f32", "default", "f32"), ("f32_highest", "f32", "highest", "f32"),
         ("fp8", "f8E4M3FN", "default", "bf16"))
_BYTES = {"bf16": 2, "f16": 2, "f32": 4, "f8E4M3FN": 1}
_NUMPY = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "f8E4M3FN": "float8_e4m3fn"}
#: An f32 default-precision GEMM this much faster than the f32 peak ran on TF32 tensor cores.
TF32_EVIDENCE = 1.5


def gemm_flops(m: int, n: int, k: int) -> int:
    return 2 * m * n * k


def gemm_bytes(m: int, n: int, k: int, dtype: str, out_dtype: str) -> int:
    """Bytes a GEMM reads (both operands once) and writes (its result)."""
    return (m * k + k * n) * _BYTES[dtype] + m * n * _BYTES[out_dtype]


def shapes(budget: Budget) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(square sides, skinny Ms, skinny K = N)."""
    return budget.pick(((128,), (1, 16), 256), ((8192,), (1, 64), 16384),
                       ((4096, 8192), (1, 2, 4, 8, 16, 32, 64), 16384))


def cases(budget: Budget, reference: Hardware) -> list[dict[str, Any]]:
    """Every case: its type, precision and (M, N, K); fp8 where the datasheet has its peak."""
    sides, ms, kn = shapes(budget)
    types = [t for t in TYPES if t[1] in reference.per_dtype_flops or t[0] != "fp8"]
    found = [{"type": t, "dtype": d, "precision": p, "out_dtype": o, "shape": "square",
              "mnk": [s, s, s]} for t, d, p, o in types for s in sides]
    found += [{"type": "bf16", "dtype": "bf16", "precision": "default", "out_dtype": "bf16",
               "shape": "skinny", "mnk": [m, kn, kn]} for m in ms]
    return found


def program(case: dict[str, Any]) -> tuple[Callable, tuple[Any, ...]]:
    import jax
    import jax.numpy as jnp

    from hespas_py.calibrate.timing import random_array

    m, n, k = case["mnk"]
    dtype, out = (jnp.dtype(_NUMPY[case[key]]) for key in ("dtype", "out_dtype"))
    precision = jax.lax.Precision.HIGHEST if case["precision"] == "highest" else None
    a, b = random_array((m, k), dtype, 1), random_array((k, n), dtype, 2)
    return (lambda x, y: jnp.dot(x, y, precision=precision, preferred_element_type=out)), (a, b)


def measure(budget: Budget, reference: Hardware, tick: Callable[[str], None]) -> dict[str, Any]:
    from hespas_py.calibrate.timing import steady_seconds

    found = []
    for case in cases(budget, reference):
        m, n, k = case["mnk"]
        tick(f"gemm {case['type']} {m}x{n}x{k}")
        figures = {**case, "flops": gemm_flops(m, n, k),
                   "bytes": gemm_bytes(m, n, k, case["dtype"], case["out_dtype"])}
        try:
            figures["timing"] = steady_seconds(*program(case), budget).as_json()
        except Exception as exc:  # noqa: BLE001  (a type this backend cannot compile, e.g. fp8)
            figures["error"] = repr(exc)[:300]
        found.append(figures)
    return {"cases": found}


def achieved_share(case: dict[str, Any], ctx: Context, dtype: str) -> float | None:
    """The case's compute rate / (``dtype`` peak x waves); None when memory-bound or no peak."""
    peak = ctx.peak(dtype)
    compute_s = compute_seconds(case["timing"]["seconds"], ctx.memory_s(case["bytes"]),
                                ctx.launch_s, ctx.overlap)
    if peak is None or compute_s is None:
        return None
    return case["flops"] / (compute_s * peak * ctx.waves(tuple(case["mnk"])))


def _largest(raw: dict[str, Any], kind: str) -> dict[str, Any] | None:
    found = [c for c in raw["cases"]
             if c["type"] == kind and c["shape"] == "square" and "timing" in c]
    return max(found, key=lambda c: c["mnk"][0]) if found else None


def _what(case: dict[str, Any], dtype: str, value: float) -> str:
    m, n, k = case["mnk"]
    rate = case["flops"] / case["timing"]["seconds"] / 1e12
    return (f"{case['type']} GEMM {m}x{n}x{k}: {rate:.4g} TFLOP/s, {value:.3f} of the "
            f"{dtype} peak after launch, memory and wave quantization")


def tf32_used(case: dict[str, Any], ctx: Context) -> Measured | None:
    """Whether an f32 default-precision GEMM ran on TF32 units (faster than `TF32_EVIDENCE` x
    the f32 peak); None without a TF32 and an f32 peak to tell them apart."""
    f32, tf32 = ctx.peak("f32"), ctx.peak("tf32")
    if f32 is None or tf32 is None:
        return None
    rate = case["flops"] / case["timing"]["seconds"]
    used = rate > TF32_EVIDENCE * f32
    return Measured("f32_matmul_as_tf32", used,
                    f"f32 GEMM at default precision ran at {rate / 1e12:.4g} TFLOP/s "
                    f"({'above' if used else 'not above'} {TF32_EVIDENCE} x the f32 peak "
                    f"{f32 / 1e12:,.1f})")


def _shares(raw: dict[str, Any], ctx: Context, types: dict[str, str]) -> dict[str, tuple]:
    """rate dtype -> (share, what) of the largest square case of each case type."""
    found = {}
    for kind, dtype in types.items():
        case = _largest(raw, kind)
        value = achieved_share(case, ctx, dtype) if case else None
        if case and value is not None:
            found[dtype] = (share(value), _what(case, dtype, value))
    return found


def derive(raw: dict[str, Any], ctx: Context) -> list[Measured]:
    found: list[Measured] = []
    bf16 = _shares(raw, ctx, {"bf16": "bf16"}).get("bf16")
    if bf16:
        found.append(Measured("tensor_efficiency", *bf16))
    default = _largest(raw, "f32_default")
    tf32 = tf32_used(default, ctx) if default else None
    types = {"f16": "f16", "f32_highest": "f32", "fp8": "f8E4M3FN"}
    if tf32 is not None:
        found.append(tf32)
        if tf32.value:
            types["f32_default"] = "tf32"
    shares = _shares(raw, ctx, types)
    if shares:
        found.append(Measured("tensor_efficiency_by_dtype", {k: v for k, (v, _) in shares.items()},
                              "; ".join(what for _, what in shares.values())))
    return found


def modelled_seconds(case: dict[str, Any], ctx: Context) -> float:
    """The fused roofline's time for a case with the derived params."""
    dtype = case["dtype"]
    if dtype == "f32" and ctx.params.f32_matmul_as_tf32 and case["precision"] == "default":
        dtype = "tf32"
    peak = ctx.peak(dtype) or ctx.reference.peak_flops
    compute_s = case["flops"] / (peak * ctx.tensor_efficiency(dtype)
                                 * ctx.waves(tuple(case["mnk"])))
    memory_s = ctx.memory_s(case["bytes"])
    return ctx.launch_s + compute_s + memory_s - ctx.overlap * min(compute_s, memory_s)


def observations(raw: dict[str, Any], ctx: Context) -> list[Observation]:
    """Every skinny case's time beside the model's: the tile and wave check."""
    return [Observation(f"bf16 GEMM M={c['mnk'][0]} K=N={c['mnk'][1]}", c["timing"]["seconds"],
                        modelled_seconds(c, ctx)) for c in raw["cases"]
            if c["shape"] == "skinny" and "timing" in c]


def count(budget: Budget, reference: Hardware) -> int:
    return len(cases(budget, reference))
