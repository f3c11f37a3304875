"""Microbenchmark of the GEMM class on a GPU: one matmul per operand layout and precision, alone.

The H200's f32 MLP (``workloads/gpu_h200/mlp_f32_tf32``) runs its TF32 GEMMs at 265 TFLOP/s
for the weight gradient (``x^T dy``, cuBLAS ``nt`` kernels) and 410-416 TFLOP/s for the other
two layouts, and the H200's 8192^3 bf16 calibration GEMM at 0.66 of the dense peak where the
transformer programs' GEMMs reach about 0.8: the presets' single ``tensor_efficiency`` fits
neither. This times ``a @ b`` for each of the four transpositions (``a`` or ``a.T``, ``b`` or
``b.T``, so XLA's GEMM reads them as stored), in bf16 and in f32 at default precision (TF32),
at the MLP's shape (8192 x 4096 x 4096) and at 8192^3, from the kernels' GPU time in a profile
(no host time), plus back-to-back calls for the clock under sustained load.

    python3 scripts/gpu/gemm_layouts.py OUT.json        (one GPU; SMALL=1: 256, a CPU test)
Writes OUT.json: device, date, jax version, and per case the FLOPs, kernels, GPU us and TFLOP/s.
"""
import json
import os
import sys

import jax
import jax.numpy as jnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measuring import gpu_time  # noqa: E402

from hespas_py.calibrate.timing import median_call, run_info  # noqa: E402

SMALL = os.environ.get("SMALL") == "1"
#: (m, n, k) of the cases: the f32 MLP's layer, and the calibration GEMM.
SHAPES = [(256, 256, 256)] if SMALL else [(8192, 4096, 4096), (8192, 8192, 8192)]
DTYPES = {"bf16": jnp.bfloat16, "f32": jnp.float32}
#: Operand transpositions: whether ``a`` is stored as [k, m] and ``b`` as [n, k].
LAYOUTS = {"nn": (False, False), "tn": (True, False), "nt": (False, True), "tt": (True, True)}


def gemm(m, n, k, dtype, trans_a, trans_b):
    a = jnp.full((k, m) if trans_a else (m, k), 0.01, dtype)
    b = jnp.full((n, k) if trans_b else (k, n), 0.01, dtype)

    def f(a, b):
        return (a.T if trans_a else a) @ (b.T if trans_b else b)
    return jax.jit(f).lower(a, b).compile(), (a, b)


def main(path):
    result = {**run_info(), "cases": []}
    for m, n, k in SHAPES:
        for dname, dtype in DTYPES.items():
            for lname, (ta, tb) in LAYOUTS.items():
                compiled, args = gemm(m, n, k, dtype, ta, tb)
                case = {"m": m, "n": n, "k": k, "dtype": dname, "layout": lname,
                        "flops": 2 * m * n * k, "call_s": median_call(compiled, *args, iters=10)}
                lines, us, error = gpu_time(compiled, *args)
                if error is None:
                    case.update(kernels={name.rsplit(" | ", 1)[-1]: v for name, v in lines.items()},
                                gpu_us=us, tflops=case["flops"] / us * 1e-6 if us else None)
                else:
                    case["profile_error"] = error
                result["cases"].append(case)
                print(json.dumps({k: v for k, v in case.items() if k != "kernels"}), flush=True)
                with open(path, "w") as f:
                    json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "gemm_layouts.json")
