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
import re
import sys

import jax
import jax.numpy as jnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measuring import gpu_time, median_call, run_info  # noqa: E402

SMALL = bool(os.environ.get("SMALL"))
#: (heads, sequence) of the scores: LLaMA-3 100M (9 heads) and 1B (32), both at 4096 tokens;
#: 1, 4 and 16 heads at 4096 (where XLA's tile changes); 32 heads at 2048 and 1024 (shorter rows).
#: ``SHAPES=6x4096,10x4096`` replaces them.
SHAPES = ([tuple(int(n) for n in shape.split("x")) for shape in os.environ["SHAPES"].split(",")]
          if os.environ.get("SHAPES") else [(2, 128)] if SMALL
          else [(9, 4096), (32, 4096), (1, 4096), (4, 4096), (16, 4096), (32, 2048), (32, 1024)])


def _masked(s):
    """The scores as the steps mask them: scaled, -inf above the diagonal, in f32."""
    n = s.shape[-1]
    causal = jnp.tril(jnp.ones((n, n), bool))
    return jnp.where(causal, s.astype(jnp.float32) / 8.0, -jnp.inf)


def cases(heads, seq):
    """name -> (function, arguments, bytes its kernels must read and write at least)."""
    score = jnp.full((heads, seq, seq), 0.01, jnp.bfloat16)
    grad = jnp.full((heads, seq, seq), 0.02, jnp.bfloat16)
    row = jnp.ones((heads, seq), jnp.float32)
    tile, rows = score.size * 2, row.size * 4

    def softmax(s):  # 2 reductions (max, sum), bf16 result: fusion_1530 of the 1B step
        return jax.nn.softmax(_masked(s), axis=-1).astype(jnp.bfloat16)

    def row_sum(s):  # 2 reductions, a row-sized result: fusion_1562
        x = _masked(s)
        return jnp.sum(jnp.exp(x - jnp.max(x, -1, keepdims=True)), -1)

    def given_sum(s, total):  # 1 reduction (max), bf16 result: fusion_1497
        x = _masked(s)
        return (jnp.exp(x - jnp.max(x, -1, keepdims=True)) / total[..., None]).astype(jnp.bfloat16)

    def softmax_grad(s, dp):  # 2 reductions, 2 score-sized inputs: fusion_1528
        p = jax.nn.softmax(_masked(s), axis=-1)
        d = dp.astype(jnp.float32)
        return (p * (d - jnp.sum(p * d, -1, keepdims=True))).astype(jnp.bfloat16)

    def softmax_unmasked(s):  # the forward softmax without the mask
        return jax.nn.softmax(s.astype(jnp.float32), axis=-1).astype(jnp.bfloat16)

    def stream(s):  # no reduction: the elementwise rate over the same bytes
        return (s.astype(jnp.float32) * 1.5 + 1.0).astype(jnp.bfloat16)

    return {"softmax": (softmax, (score,), 2 * tile),
            "row_sum": (row_sum, (score,), tile + rows),
            "given_sum": (given_sum, (score, row), 2 * tile + rows),
            "softmax_grad": (softmax_grad, (score, grad), 3 * tile),
            "softmax_unmasked": (softmax_unmasked, (score,), 2 * tile),
            "stream": (stream, (score,), 2 * tile)}


def triton_tiles(hlo_text):
    """The output tile sizes and warps of each Triton fusion in an optimized HLO text."""
    tiles = []
    for match in re.finditer(r'"block_level_fusion_config":\{', hlo_text):
        config = hlo_text[match.end():match.end() + 600]
        sizes = re.search(r'"sizes":\[([^\]]*)\]', config)
        warps = re.search(r'"num_warps":"?(\d+)', config)
        tiles.append({"sizes": [int(x) for x in re.findall(r"\d+", sizes.group(1))] if sizes
                      else None, "num_warps": int(warps.group(1)) if warps else None})
    return tiles


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
