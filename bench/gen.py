"""Trace-generation speed: wall time and peak RSS of ``hespas_chakra_gen`` runs, end to end.

Each case runs the command line in a fresh Python process (imports, reading, splitting,
estimating and writing all count) ``--repeat`` times (``--big-repeat`` on the big module) and
prints the best run's figures and phase timings with the median wall time.
Every case runs the roofline (the published tool's estimator; the preset alone would mean
fused_roofline) unless its label says ``fused``.
Goals: on the ResNet-50 step (4 devices, roofline on A100_SXM_40GB), the command as a user runs
it with the published tool's config file (its default split, linear_split, block_lim 1024,
printing its summary to a pipe; the case issue 19 timed) < 0.3 s, every case < 300 MB and at
least 10x faster than the published tool on the same split (its wall times on this kind of
machine, read from ../shared/reference/hespas/README.md when present, are printed beside ours,
with the ratio); a >= 500k-op module (scripts/gen_big_module.py) at >= 50k ops/s.
individual_split, with and without --merge, is timed beside it (0.06 to 0.09 s more: its 4,971 and
7,528 nodes per device, against 486, to split, estimate and write), and the preset's own
estimator (fused_roofline), for reference.

    python3 bench/gen.py [--repeat 3] [--big-ops 500000] [--big-repeat 3]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESNET = REPO.parent / "shared" / "workloads" / "resnet50_train_4dev_pmap.mlir"
HESPAS_README = REPO.parent / "shared" / "reference" / "hespas" / "README.md"
BIG_MODULE_SCRIPT = REPO / "scripts" / "gen_big_module.py"
ENTRY = "from hespas_py.cli.compat import chakra_gen; chakra_gen()"


def run_once(args: list[str], as_json: bool = True) -> tuple[float, float, dict | None]:
    """(wall seconds, peak RSS MB, JSON summary) of one command-line run; without ``as_json``
    the run prints its own summary and log lines (to a pipe), and no summary is returned."""
    start = time.perf_counter()
    flags = ["--json", "--log-level", "warning"] if as_json else []
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, *args, *flags], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout = proc.stdout.read()
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"failed: {' '.join(args)}\n{stderr.decode()}")
    return wall, usage.ru_maxrss / 1024, json.loads(stdout) if as_json else None


def hespas_wall_times() -> dict[str, float]:
    """The published Hespas' ``hespas_chakra_gen`` wall time per split, seconds, from the shared
    reference table (rows ``wall time ..., individual+merge | 5.75 s, ...``); empty if absent."""
    if not HESPAS_README.is_file():
        return {}
    found = re.findall(r"^\| wall time[^|]*?, (individual\+merge|linear|individual without merge)"
                       r" \| ([\d.]+) s", HESPAS_README.read_text(), re.MULTILINE)
    return {split: float(seconds) for split, seconds in found}


def bench(label: str, args: list[str], repeat: int, ops: int, hespas_s: float | None = None,
          as_json: bool = True) -> None:
    """Best run's figures and phases, and the median wall time over ``repeat`` runs after one
    untimed run (so that no case pays for files not yet in the page cache; ``as_json``: see
    `run_once`; without it no phases or node counts are known)."""
    run_once(args, as_json)
    runs = [run_once(args, as_json) for _ in range(repeat)]
    wall, rss, summary = min(runs, key=lambda r: r[0])
    median = statistics.median(r[0] for r in runs)
    detail = ""
    if summary is not None:
        phases = ", ".join(f"{k} {v:.3f}" for k, v in summary["timings_s"].items())
        detail = f"  {sum(summary['nodes_per_device'].values())} nodes/device  [{phases}]"
    print(f"{label:<38} wall {wall:6.3f} s (median {median:.3f})  peak RSS {rss:6.0f} MB  "
          f"{ops / wall:9,.0f} ops/s (median {ops / median:,.0f}){detail}")
    if hespas_s:
        print(f"{'':<38} published Hespas {hespas_s:.2f} s: {hespas_s / wall:.1f}x faster "
              f"(median {hespas_s / median:.1f}x)")


def interpreter_start_up(repeat: int) -> tuple[float, float]:
    """Best wall time of a bare ``python -c pass``, with and without ``site`` (-S): the fixed cost
    under every run above, and the part of it this machine's ``.pth`` hooks add."""
    def best(*flags: str) -> float:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run([sys.executable, *flags, "-c", "pass"], check=True)
            times.append(time.perf_counter() - start)
        return min(times)

    return best(), best("-S")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big-ops", type=int, default=500_000)
    parser.add_argument("--big-repeat", type=int, default=3, help="runs on the big module")
    options = parser.parse_args()
    # Time the package as installed, bytecode compiled: under PYTHONDONTWRITEBYTECODE a checkout
    # would recompile every module in every timed run.
    compileall.compile_dir(REPO / "hespas_py", quiet=1)
    with_site, bare = interpreter_start_up(max(options.repeat, 5))
    print(f"interpreter start-up: {with_site:.3f} s, of which site hooks {with_site - bare:.3f} s "
          "(part of every wall time below)")
    with tempfile.TemporaryDirectory(prefix="hespas-bench-") as tmp:
        out = str(Path(tmp) / "out")
        common = ["A100_SXM_40GB", "--output", out, "--clean", "--estimator", "roofline"]
        if RESNET.is_file():
            resnet = [*common, "--mlir_file", str(RESNET)]
            hespas = hespas_wall_times()
            # The command as a user runs it with the published tool's config file: its default
            # split (linear_split, block_lim 1024), the summary and log lines to a pipe.
            bench("resnet50 published config, as printed", [
                str(REPO / "configs" / "nodes" / "A100_SXM_40GB" / "roofline" / "config.json"),
                "--mlir_file", str(RESNET), "--output", out, "--clean"], options.repeat, 10023,
                hespas.get("linear"), as_json=False)
            for label, extra, split in (
                    ("resnet50 individual_split --merge", ["--split_fn", "individual_split",
                                                           "--merge"], "individual+merge"),
                    ("resnet50 linear_split", ["--split_fn", "linear_split"], "linear"),
                    ("resnet50 individual_split", ["--split_fn", "individual_split",
                                                   "--no-merge"], "individual without merge")):
                bench(label, [*resnet, *extra], options.repeat, 10023, hespas.get(split))
            bench("resnet50 individual_split --merge, fused", [
                *resnet, "--split_fn", "individual_split", "--merge", "--estimator",
                "fused_roofline"], options.repeat, 10023)
        else:
            print(f"skipped ResNet-50: {RESNET} not found")
        big = Path(tmp) / "big.mlir"
        subprocess.run([sys.executable, str(BIG_MODULE_SCRIPT), "--ops", str(options.big_ops),
                        "--out", str(big)], check=True, cwd=REPO)
        for label, extra in (("big individual_split --merge", ["--split_fn",
                              "individual_split", "--merge"]),
                             ("big linear_split", ["--split_fn", "linear_split"])):
            bench(f"{label} ({options.big_ops:,} ops)",
                  [*common, "--mlir_file", str(big), *extra], options.big_repeat,
                  options.big_ops)


if __name__ == "__main__":
    main()
