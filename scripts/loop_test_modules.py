"""Regenerate the loop test modules in ../tests/data/mlir from small JAX programs.

    python scripts/loop_test_modules.py            # every module
    python scripts/loop_test_modules.py --small    # only the exported LLaMA steps (a minute or two)
    python scripts/loop_test_modules.py --lowered  # only the lowered toy programs (seconds)

Two kinds:

- *lowered* (``loops_*.mlir``): tiny jitted ``jax.shard_map`` programs with ``jax.lax.scan``,
  ``fori_loop``, ``while_loop`` and ``cond`` around collectives, lowered by JAX as they are
  (``sdy.manual_computation`` holding the per-device program, ``func.call`` bodies) and saved as
  text;
- *exported* (``llama3_small_*.mlir.gz``): the per-device programs of `llama_scan.SMALL`, scanned
  and unrolled, FSDP and data parallel (``hespas export``), for the scan-vs-unrolled tests.

``loops_xla_trip_count.mlir`` is written by hand: no tool at hand keeps XLA's
``known_trip_count`` backend config in StableHLO text (jaxlib's converter drops it).
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "mlir"
MODELS = REPO / "scripts" / "models"
DEVICES = 4
#: Exported steps: file stem -> factory in llama_scan.py.
EXPORTED = {
    "llama3_small_scan_4dev": "llama3_small_scan_step",
    "llama3_small_unrolled_4dev": "llama3_small_step",
    "llama3_small_dp_scan_4dev": "llama3_small_dp_scan_step",
    "llama3_small_dp_unrolled_4dev": "llama3_small_dp_step",
}


def lowered_programs() -> dict[str, str]:
    """StableHLO text of each toy program, by file stem."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P

    jax.config.update("jax_platforms", "cpu")
    jax.config.update("jax_num_cpu_devices", DEVICES)
    mesh = jax.make_mesh((DEVICES,), ("d",), axis_types=(jax.sharding.AxisType.Auto,))
    f32 = jnp.float32

    def layer(x, w):
        """One FSDP layer: all-gather the weight shard, then compute."""
        return jnp.tanh(x @ jax.lax.all_gather(w, "d", tiled=True))

    def layers(ws, x):
        return jax.lax.scan(lambda x, w: (jax.checkpoint(layer)(x, w), None), x, ws)[0]

    def scan_train(ws, x):
        """Layers scanned, remat, and their gradient (reduce-scatters in the backward scan)."""
        return jax.grad(lambda ws: jnp.sum(layers(ws, x)))(ws)

    def nested_train(ws, xs):
        """Gradient accumulation: a scan over microbatches around the layer scans."""
        def microbatch(acc, x):
            return acc + jax.grad(lambda ws: jnp.sum(layers(ws, x)))(ws), None
        return jax.lax.scan(microbatch, jnp.zeros_like(ws), xs)[0]

    def fori_static(w, x):
        """A fori_loop with constant bounds around an all-reduce."""
        return jax.lax.fori_loop(0, 4, lambda i, x: x + jax.lax.psum(jnp.tanh(x @ w), "d"), x)

    def while_dynamic(w, x, n):
        """A while_loop whose bound is an argument: no static trip count."""
        def body(carry):
            i, x = carry
            return i + 1, x + jax.lax.psum(jnp.tanh(x @ w), "d")
        return jax.lax.while_loop(lambda c: c[0] < n, body, (0, x))[1]

    def cond_collective(w, x, flag):
        """A cond whose first branch holds the collective; plus a scan without collectives."""
        x = jax.lax.cond(flag > 0, lambda x: x + jax.lax.psum(x @ w, "d"), lambda x: x * 2.0, x)
        return jax.lax.scan(lambda x, _: (jnp.tanh(x @ w), None), x, None, length=3)[0]

    def program(fn, in_specs, out_specs, *args):
        sharded = jax.shard_map(fn, mesh=mesh, in_specs=in_specs, out_specs=out_specs)
        return jax.jit(sharded).lower(*args).as_text()

    stacked = jax.ShapeDtypeStruct((3, 16, 16), f32)
    x = jax.ShapeDtypeStruct((8, 16), f32)
    w = jax.ShapeDtypeStruct((16, 16), f32)
    scalar = jax.ShapeDtypeStruct((), jnp.int32)
    return {
        "loops_scan_fsdp": program(scan_train, (P(None, "d"), P("d")), P(None, "d"), stacked, x),
        "loops_nested_scan": program(nested_train, (P(None, "d"), P(None, "d")), P(None, "d"),
                                     stacked, jax.ShapeDtypeStruct((2, 8, 16), f32)),
        "loops_fori": program(fori_static, (P(), P("d")), P("d"), w, x),
        "loops_while_dynamic": program(while_dynamic, (P(), P("d"), P()), P("d"), w, x, scalar),
        "loops_cond": program(cond_collective, (P(), P("d"), P()), P("d"), w, x, scalar),
    }


def export_steps() -> dict[str, str]:
    """Per-device StableHLO of the exported steps, by file stem (each in its own process)."""
    sys.path.insert(0, str(REPO))
    from hespas_py.export import export_in_subprocess

    return {stem: export_in_subprocess(f"{MODELS / 'llama_scan.py'}:{factory}", DEVICES)
            for stem, factory in EXPORTED.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="only the exported LLaMA steps")
    parser.add_argument("--lowered", action="store_true", help="only the lowered toy programs")
    args = parser.parse_args()
    both = not (args.small or args.lowered)
    if args.lowered or both:
        for stem, text in lowered_programs().items():
            (OUT / f"{stem}.mlir").write_text(text)
            print(f"wrote tests/data/mlir/{stem}.mlir", flush=True)
    if args.small or both:
        for stem, text in export_steps().items():
            (OUT / f"{stem}.mlir.gz").write_bytes(gzip.compress(text.encode(), 9, mtime=0))
            print(f"wrote tests/data/mlir/{stem}.mlir.gz", flush=True)


if __name__ == "__main__":
    main()
