"""Trace-generation speed of a step whose layers are scanned, against the same step unrolled.

An ``--layers``-layer LLaMA-3 step (`llama_scan.SMALL` widths; 80 layers by default, as
LLaMA-70B) is exported once in both forms (``scripts/models/llama_scan.py``, ``llama.py``;
cached under ``$HESPAS_CACHE_DIR/bench`` or ``~/.cache/hespas_py/bench``), then each goes through
``hespas_chakra_gen`` with fused_roofline on H100_80GB and linear_split, in a fresh process,
``--repeat`` times. Printed per form: the best wall time (median too), peak RSS, phase timings,
nodes per device and the collectives per device (equal in both forms: the scan's loops are
expanded into the traces, the body split and estimated once).

    python3 bench/loops.py [--layers 80] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from gen import REPO, run_once

MODELS = REPO / "scripts" / "models"
FACTORIES = '''"""Factories of the bench step ({layers} layers), written by bench/loops.py."""
import dataclasses, functools, sys
sys.path.insert(0, {models!r})
import llama, llama_scan
CONFIG = dataclasses.replace(llama_scan.SMALL, layers={layers})
scan_step = functools.partial(llama_scan.train_step, CONFIG)
unrolled_step = functools.partial(llama.train_step, CONFIG)
'''


def exported(layers: int) -> dict[str, Path]:
    """The scan and unrolled modules of the bench step, exported when not cached yet."""
    sys.path.insert(0, str(REPO))
    from hespas_py.export import export_in_subprocess

    cache = Path(os.environ.get("HESPAS_CACHE_DIR", Path.home() / ".cache" / "hespas_py"))
    folder = cache / "bench" / f"llama_{layers}_layers"
    folder.mkdir(parents=True, exist_ok=True)
    factories = folder / "factories.py"
    factories.write_text(FACTORIES.format(layers=layers, models=str(MODELS)))
    paths = {}
    for form in ("scan", "unrolled"):
        path = paths[form] = folder / f"{form}.mlir"
        if not path.is_file():
            print(f"exporting the {form} step ({layers} layers) ...", flush=True)
            path.write_text(export_in_subprocess(f"{factories}:{form}_step", 4))
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=80)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    node = REPO / "configs" / "nodes" / "H100_80GB" / "fused_roofline" / "config.json"
    for form, path in exported(options.layers).items():
        out = path.parent / f"out_{form}"
        args = [str(node), "--mlir_file", str(path), "--output", str(out), "--clean",
                "--split_fn", "linear_split", "--block_lim", "100000"]
        runs = [run_once(args) for _ in range(options.repeat)]
        wall, rss, summary = min(runs, key=lambda r: r[0])
        median = statistics.median(r[0] for r in runs)
        phases = ", ".join(f"{k} {v:.3f}" for k, v in summary["timings_s"].items())
        nodes = sum(summary["nodes_per_device"].values())
        collectives = ", ".join(f"{name} {c['count']} ({c['bytes'] / 1e6:,.1f} MB)"
                                for name, c in summary["collectives"].items())
        print(f"{options.layers}-layer {form:<8} wall {wall:6.3f} s (median {median:.3f})  "
              f"peak RSS {rss:5.0f} MB  {nodes} nodes/device  compute "
              f"{summary['compute_estimate_s'] * 1e3:,.2f} ms  [{phases}]  {collectives}")


if __name__ == "__main__":
    main()
