"""Speed of issue 28's calibration: wall time of ``hespas calibrate --quick`` (or the full run) in a
fresh process, JAX's start included, as a user runs it, and the seconds each kind measured for.
Goals on one GPU: ``--quick`` under 60 s, the full run under 5 minutes.

    python3 bench/calibrate.py [--full] [--base PRESET] [--repeat N]   (a CPU needs --base)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def once(full: bool, base: str | None) -> tuple[float, dict]:
    """(wall seconds, calibration.json) of one run."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "preset"
        args = [sys.executable, "-c", "from hespas_py.cli.main import main; main()", "calibrate",
                "--out", str(out), *([] if full else ["--quick"]), *(["--base", base] if base else [])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True, env=env)
        return time.perf_counter() - start, json.loads((out / "calibration.json").read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the full run instead of --quick")
    parser.add_argument("--base", help="node preset (required on a CPU)")
    parser.add_argument("--repeat", type=int, default=3, help="runs (the median is printed)")
    args = parser.parse_args()
    runs = [once(args.full, args.base) for _ in range(args.repeat)]
    walls = [wall for wall, _ in runs]
    doc = runs[-1][1]
    print(f"hespas calibrate {'(full)' if args.full else '--quick'} on {doc['run']['device_kind']}, "
          f"jax {doc['run']['jax']}: median {statistics.median(walls):.1f} s wall "
          f"(runs {', '.join(f'{w:.1f}' for w in walls)}; load {os.getloadavg()[0]:.1f})")
    for kind, raw in doc["kinds"].items():
        print(f"  {kind:12s} {raw['seconds']:6.1f} s")


if __name__ == "__main__":
    main()
