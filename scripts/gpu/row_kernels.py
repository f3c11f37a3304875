"""Microbenchmark of XLA's row (Triton normalization) kernels on a GPU: the attention softmax
kernels of the LLaMA steps (``bf16[H, S, S]`` scores, causal mask, rows of S), compiled alone,
each shape with 0, 1 or 2 row reductions and with or without a score-sized result, beside a
plain elementwise pass over the same bytes. The GPU time of each case's kernels comes from a
profile of 3 calls (no host time); the tile XLA chose (``block_level_fusion_config``) is kept.

What it separates: in the LLaMA-3 1B profile (``workloads/gpu_h100``), the forward softmax
(2 reductions, a bf16 result) and the score gradient run at 1.1-1.5 TB/s, the recomputation
that divides by a saved sum (1 reduction) at 2.25 TB/s and the row sum (2 reductions, no
score-sized result) at 1.7 TB/s, against 2.72 TB/s for a stream; the cost model gives all
of them the stream's rate. XLA also tiles the 1B step's 32 heads ``[4, 1, 4096]`` (4 heads of
one query row) and the 100M step's 9 heads ``[1, 4, 4096]`` or ``[1, 1, 4096]``, and the same
kernels run 1.5-2x slower per element on 1B. Each case and shape isolates one difference.

    python3 scripts/gpu/row_kernels.py OUT.json      (one GPU; SMALL=1: tiny shapes, for a CPU test;
                                                      SHAPES=HEADSxSEQ,...: other shapes)
Writes OUT.json: device, date, jax version, and per case its shape, the bytes its kernels must
move, the GPU us of its kernels (per profile line, and in all), the Triton tiles and the median
call time.
"""
import json
import os
import sys

import jax

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measuring import gpu_time  # noqa: E402

from hespas_py.calibrate.rows import cases, triton_tiles  # noqa: E402
from hespas_py.calibrate.timing import median_call, run_info  # noqa: E402

SMALL = bool(os.environ.get("SMALL"))
#: (heads, sequence) of the scores: LLaMA-3 100M (9 heads) and 1B (32), both at 4096 tokens;
#: 1, 4 and 16 heads at 4096 (where XLA's tile changes); 32 heads at 2048 and 1024 (shorter rows).
#: ``SHAPES=6x4096,10x4096`` replaces them.
SHAPES = ([tuple(int(n) for n in shape.split("x")) for shape in os.environ["SHAPES"].split(",")]
          if os.environ.get("SHAPES") else [(2, 128)] if SMALL
          else [(9, 4096), (32, 4096), (1, 4096), (4, 4096), (16, 4096), (32, 2048), (32, 1024)])


def main(path):
    result = {**run_info(), "small": SMALL, "cases": []}
    for heads, seq in SHAPES:
        for name, (fn, args, nbytes) in cases(heads, seq).items():
            compiled = jax.jit(fn).lower(*args).compile()
            row = {"case": name, "heads": heads, "seq": seq, "min_bytes": nbytes,
                   "triton": triton_tiles(compiled.as_text()),
                   "call_s": median_call(compiled, *args, iters=5 if SMALL else 20)}
            lines, us, error = gpu_time(compiled, *args)
            row.update({"kernels": lines, "gpu_us": us} if error is None
                       else {"kernels_error": error})
            result["cases"].append(row)
            print(json.dumps({k: v for k, v in row.items() if k != "kernels"}), flush=True)
    with open(path, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
