"""Reader and analyzer speed: prints the figures issue 2 sets goals for.

(a) Wall time of ``hespas_mlir_analyzer`` on the shared ResNet-50 step, interpreter start
    included (goal < 0.5 s; the published tool: 1.19 s), best and median of ``--repeat`` runs.
(b) A module of ``--big-ops`` ops written by scripts/gen_big_module.py: the analyzer's path,
    ``load_module(outline=True)`` + ``histogram`` (goal >= 100k ops/s, peak RSS < 1 GB), next to
    the MLIR parser alone and the full read the pipeline uses, each in a fresh process.

    python3 bench/analyze.py [--repeat 5] [--big-ops 500000]
"""

from __future__ import annotations

import argparse
import compileall
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESNET = REPO.parent / "shared" / "workloads" / "resnet50_train_4dev_pmap.mlir"
ANALYZER = "from hespas_py.cli.compat import mlir_analyzer; mlir_analyzer()"
# Child programs printing JSON figures for one module (argv[1]); ru_maxrss is in KiB on Linux.
END_TO_END = """
import json, resource, sys, time
from hespas_py.mlir.analyze import histogram
from hespas_py.mlir.reader import load_module
def count(ops):
    return sum(1 + sum(count(r.ops) for r in op.regions if op.name != "func.call") for op in ops)
start = time.perf_counter()
module = load_module(sys.argv[1], outline=sys.argv[2] == "outline")
loaded = time.perf_counter()
result = histogram(module)
done = time.perf_counter()
print(json.dumps({"ops": sum(count(f.ops) for f in module.functions.values()), "load_s": loaded - start,
                  "histogram_s": done - loaded, "total_s": done - start,
                  "cpu_s": time.process_time(),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
PARSE_ONLY = """
import json, resource, sys, time
from hespas_py.mlir.bindings import ir, make_context
context = make_context()
text = open(sys.argv[1]).read()
start = time.perf_counter()
ir.Module.parse(text, context)
print(json.dumps({"total_s": time.perf_counter() - start,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def analyzer_wall(repeat: int) -> None:
    """Print best and median wall time of the analyzer on ResNet-50."""
    if not RESNET.is_file():
        print(f"(a) skipped: {RESNET} not present")
        return
    walls = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", ANALYZER, str(RESNET)], cwd=REPO, check=True,
                       stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
    print(f"(a) hespas_mlir_analyzer {RESNET.name}: best {min(walls):.3f} s, "
          f"median {statistics.median(walls):.3f} s over {repeat} runs (goal < 0.5 s)")


def child_figures(program: str, module: Path, *args: str) -> dict:
    completed = subprocess.run([sys.executable, "-c", program, str(module), *args], cwd=REPO, check=True,
                               capture_output=True, text=True)
    return json.loads(completed.stdout.splitlines()[-1])


def big_module(num_ops: int) -> None:
    """Print end-to-end and parser-only figures on a generated module."""
    with tempfile.TemporaryDirectory(prefix="hespas_bench_") as tmp:
        path = Path(tmp) / "big.mlir"
        subprocess.run([sys.executable, str(REPO / "scripts" / "gen_big_module.py"), "--ops",
                        str(num_ops), "--out", str(path)], check=True, stdout=subprocess.DEVNULL)
        parse = child_figures(PARSE_ONLY, path)
        runs = {mode: child_figures(END_TO_END, path, mode) for mode in ("outline", "full")}
    ops = runs["full"]["ops"]
    print(f"(b) generated module: {ops:,} ops")
    print(f"    MLIR parser alone: {parse['total_s']:.2f} s = {ops / parse['total_s'] / 1e3:,.0f}k ops/s, "
          f"peak RSS {parse['rss_mb']:.0f} MB")
    for label, mode, goal in (("analyzer: load_module(outline=True) + histogram", "outline",
                               " (goal >= 100k)"),
                              ("full load_module + histogram (the pipeline's read)", "full", "")):
        end = runs[mode]
        print(f"    {label}: {end['total_s']:.2f} s (load {end['load_s']:.2f} s, histogram "
              f"{end['histogram_s']:.3f} s) = {ops / end['total_s'] / 1e3:,.0f}k ops/s{goal}, "
              f"peak RSS {end['rss_mb']:.0f} MB (goal < 1024), process CPU {end['cpu_s']:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="analyzer runs to time (default 5)")
    parser.add_argument("--big-ops", type=int, default=500_000, help="ops in the generated module")
    options = parser.parse_args()
    # Time the package as installed, bytecode compiled: under PYTHONDONTWRITEBYTECODE a checkout
    # would recompile every module in every timed run.
    compileall.compile_dir(REPO / "hespas_py", quiet=1)
    analyzer_wall(options.repeat)
    big_module(options.big_ops)


if __name__ == "__main__":
    main()
