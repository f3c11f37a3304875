"""Row kernels: the latency per wave of tiles of XLA's Triton row kernels beyond their bytes ->
``spanning_row_tile_s`` (`hespas_py.kernels.row_tiles`).

Why and how: docs/calibration.md.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Callable
from typing import Any

from hespas_py.calibrate.model import Context, Measured
from hespas_py.calibrate.timing import Budget
from hespas_py.hardware import Hardware
from hespas_py.kernels import GIVEN_SUM, ROW_SUM, SOFTMAX, spanned_rows

#: Case -> the `row_tiles` class it measures (``stream`` measures none).
CLASS_OF = {"softmax": SOFTMAX, "softmax_grad": SOFTMAX, "row_sum": ROW_SUM,
            "given_sum": GIVEN_SUM, "softmax_unmasked": None, "stream": None}


def _masked(s):
    """The scores as the steps mask them: scaled, -inf above the diagonal, in f32."""
    import jax.numpy as jnp

    n = s.shape[-1]
    causal = jnp.tril(jnp.ones((n, n), bool))
    return jnp.where(causal, s.astype(jnp.float32) / 8.0, -jnp.inf)


def cases(heads: int, seq: int) -> dict[str, tuple[Callable, tuple[Any, ...], int]]:
    """name -> (function, arguments, bytes its kernels must read and write at least)."""
    import jax
    import jax.numpy as jnp

    from hespas_py.calibrate.timing import random_array

    score = random_array((heads, seq, seq), jnp.bfloat16, 1)
    grad = random_array((heads, seq, seq), jnp.bfloat16, 2, 0.02)
    row = jnp.abs(random_array((heads, seq), jnp.float32, 3)) + 1.0
    tile, rows = score.size * 2, row.size * 4

    def softmax(s):  # 2 reductions (max, sum), bf16 result
        return jax.nn.softmax(_masked(s), axis=-1).astype(jnp.bfloat16)

    def row_sum(s):  # 2 reductions, a row-sized result
        x = _masked(s)
        return jnp.sum(jnp.exp(x - jnp.max(x, -1, keepdims=True)), -1)

    def given_sum(s, total):  # 1 reduction (max), bf16 result
        x = _masked(s)
        return (jnp.exp(x - jnp.max(x, -1, keepdims=True)) / total[..., None]).astype(jnp.bfloat16)

    def softmax_grad(s, dp):  # 2 reductions, 2 score-sized inputs
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


def triton_tiles(hlo_text: str) -> list[dict[str, Any]]:
    """The output tile sizes and warps of each Triton fusion in an optimized HLO text."""
    tiles = []
    for match in re.finditer(r'"block_level_fusion_config":\{', hlo_text):
        config = hlo_text[match.end():match.end() + 600]
        sizes = re.search(r'"sizes":\[([^\]]*)\]', config)
        warps = re.search(r'"num_warps":"?(\d+)', config)
        tiles.append({"sizes": [int(x) for x in re.findall(r"\d+", sizes.group(1))] if sizes
                      else None, "num_warps": int(warps.group(1)) if warps else None})
    return tiles


def plan(budget: Budget) -> list[tuple[int, int, tuple[str, ...]]]:
    """(heads, sequence, case names) to run."""
    quick = ("softmax", "row_sum", "given_sum", "stream")
    return budget.pick([(64, 256, quick)], [(32, 4096, quick)],
                       [(32, 4096, (*quick, "softmax_grad")), (12, 4096, (*quick, "softmax_grad"))])


def tiles(heads: int, seq: int) -> int | None:
    """Tiles of a row kernel over ``[heads, seq, seq]`` scores (None: its tile does not span
    heads, `row_tiles.spanned_rows`)."""
    spanned = spanned_rows(heads, seq)
    return None if spanned is None else heads * seq // spanned


def count(budget: Budget, reference: Hardware) -> int:
    return sum(len(names) for _, _, names in plan(budget))


def measure(budget: Budget, reference: Hardware, tick: Callable[[str], None]) -> dict[str, Any]:
    import jax

    from hespas_py.calibrate.timing import host_floor_seconds, time_compiled

    found = []
    for heads, seq, names in plan(budget):
        built = cases(heads, seq)
        for name in names:
            tick(f"row {name} {heads}x{seq}")
            fn, args, nbytes = built[name]
            compiled = jax.jit(fn).lower(*args).compile()
            timing = time_compiled(compiled, args, budget, host_floor_seconds(budget))
            found.append({"case": name, "heads": heads, "seq": seq, "min_bytes": nbytes,
                          "tiles": tiles(heads, seq),
                          "triton": triton_tiles(compiled.as_text() or ""),
                          "timing": timing.as_json()})
    return {"cases": found}


def excess_per_wave(case: dict[str, Any], stream: dict[str, Any], cores: int) -> float:
    """Seconds per wave of tiles ``case`` takes beyond a stream of its bytes."""
    per_byte = stream["timing"]["seconds"] / stream["min_bytes"]
    excess = case["timing"]["seconds"] - per_byte * case["min_bytes"]
    return max(excess, 0.0) / math.ceil(case["tiles"] / max(cores, 1))


def derive(raw: dict[str, Any], ctx: Context) -> list[Measured]:
    cores = ctx.params.num_cores
    streams = {(c["heads"], c["seq"]): c for c in raw["cases"] if c["case"] == "stream"}
    per_class: dict[str, list[float]] = {}
    for c in raw["cases"]:
        stream = streams.get((c["heads"], c["seq"]))
        kind = CLASS_OF.get(c["case"])
        if kind and stream and c["tiles"]:
            per_class.setdefault(kind, []).append(excess_per_wave(c, stream, cores))
    if not per_class:
        return []
    table = {k: float(f"{statistics.median(v):.3g}") for k, v in per_class.items()}
    shapes = sorted({f"{c['heads']}x{c['seq']}" for c in raw["cases"] if c["tiles"]})
    return [Measured("spanning_row_tile_s", table,
                     f"Triton row kernels over bf16[heads, S, S] causal scores ({', '.join(shapes)}"
                     f" heads x S) alone: seconds per wave of {cores} tiles beyond a stream of "
                     "their bytes timed beside them", per_chip=True)]
