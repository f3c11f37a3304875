"""Trace-generation speed: wall time and peak RSS of ``hespas_chakra_gen`` runs, end to end,
beside the published tool's when it is installed.

Each case runs the command line in a fresh Python process (imports, reading, splitting,
estimating and writing all count) ``--repeat`` times (``--big-repeat`` on the big module) and
prints the best run's figures and phase timings with the median wall time.
Every case runs the roofline (the published tool's estimator; the preset alone would mean
fused_roofline) unless its label says ``fused``.

Side by side (``--published PATH`` or ``$HESPAS_PUBLISHED``: the published tool's
``hespas_chakra_gen`` in a virtual environment of its own, docs/benchmarking.md): the ResNet-50
step with individual_split --merge (``--published-all``: linear_split and individual_split
without merge too) runs with both tools in turn, on one config file of the roofline numbers of
the A100_SXM_40GB preset that both read, ``--published-repeat`` times after one untimed run of
each; every pair gives a ratio (its wall time / ours), printed with their median and range.
Ours runs in this interpreter, or (``--ours PATH`` or ``$HESPAS_OURS``) as the
``hespas_chakra_gen`` of a virtual environment of its own, as the published tool does.

Goals: on the ResNet-50 step (4 devices, roofline on A100_SXM_40GB), the command as a user runs
it with the published tool's config file (its default split, linear_split, block_lim 1024,
printing its summary to a pipe; the case issue 19 timed) < 0.3 s; every case < 300 MB; side by
side with the published tool, individual_split --merge at least 10x faster (median of the pair
ratios, issue 30); a >= 500k-op module (scripts/gen_big_module.py) at >= 50k ops/s.
individual_split, with and without --merge, is timed beside it (its 4,971 and 7,528 nodes per
device, against 486, to split, estimate and write), and the preset's own estimator
(fused_roofline), for reference.

    python3 bench/gen.py [--repeat 3] [--big-ops 500000] [--big-repeat 3]
                         [--published VENV/bin/hespas_chakra_gen [--published-all]
                          [--published-repeat 5] [--side-by-side-only]
                          [--ours VENV/bin/hespas_chakra_gen]]
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RESNET = REPO.parent / "shared" / "workloads" / "resnet50_train_4dev_pmap.mlir"
#: The ResNet-50 cases: label, split flags (the first is the side-by-side goal's).
SPLITS = (("resnet50 individual_split --merge", ["--split_fn", "individual_split", "--merge"]),
          ("resnet50 linear_split", ["--split_fn", "linear_split"]),
          ("resnet50 individual_split", ["--split_fn", "individual_split", "--no-merge"]))
#: The published tool's A100 roofline figures, ours: the keys both tools read.
SHARED_KEYS = ("peak_flops", "per_datatype_flops", "memory_bandwidth")
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


def bench(label: str, args: list[str], repeat: int, ops: int, as_json: bool = True) -> None:
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


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system, the process and its children) seconds of one run of
    ``command`` (output discarded); `SystemExit` if it fails. On a busy machine the CPU time
    says how much of a wall time was the command's own work."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"failed: {' '.join(command)}\n{stderr.decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def side_by_side(label: str, published: str, ours_tool: str, args: list[str],
                 repeat: int) -> None:
    """Both tools on ``args`` in turn (the first of the two alternating), ``repeat`` pairs after
    one untimed run of each: every pair's times and ratio, and the median and range of the
    ratios. ``ours_tool``: our ``hespas_chakra_gen`` to run ("": this interpreter's)."""
    theirs = [published, *args, "--log-level", "warning"]
    ours = [*([ours_tool] if ours_tool else [sys.executable, "-c", ENTRY]), *args,
            "--log-level", "warning"]
    timed(theirs), timed(ours)
    ratios = []
    for pair in range(repeat):
        # Either tool goes first in every other pair: neither always runs just after the other.
        if pair % 2:
            (our_s, our_cpu), (their_s, their_cpu) = timed(ours), timed(theirs)
        else:
            (their_s, their_cpu), (our_s, our_cpu) = timed(theirs), timed(ours)
        ratios.append(their_s / our_s)
        print(f"{label:<38} pair {pair + 1}: published {their_s:6.2f} s (CPU {their_cpu:5.2f}), "
              f"ours {our_s:6.3f} s (CPU {our_cpu:5.3f}) = {ratios[-1]:5.1f}x  "
              f"(load {os.getloadavg()[0]:.1f})")
    print(f"{label:<38} side by side: {statistics.median(ratios):.1f}x faster (median of "
          f"{repeat} pairs, {min(ratios):.1f}x to {max(ratios):.1f}x)")


def compare(options: argparse.Namespace, tmp: Path) -> None:
    """The side-by-side cases, or a line saying why there are none."""
    if not (options.published and Path(options.published).is_file() and RESNET.is_file()):
        print("side by side: no published tool (--published or $HESPAS_PUBLISHED: its "
              "hespas_chakra_gen; docs/benchmarking.md) or no ResNet-50 step: no figures")
        return
    config = shared_config(tmp)
    print(f"side by side: published {options.published}, ours "
          f"{options.ours or sys.executable + ' (this interpreter)'}")
    for label, extra in SPLITS[:None if options.published_all else 1]:
        side_by_side(label, options.published, options.ours, [
            str(config), "--mlir_file", str(RESNET), "--num_npus", "4", "--output",
            str(tmp / "out"), "--clean", *extra], options.published_repeat)


def shared_config(folder: Path) -> Path:
    """A config file both tools read: the roofline numbers of our A100_SXM_40GB preset."""
    preset = REPO / "configs" / "nodes" / "A100_SXM_40GB" / "roofline" / "config.json"
    hardware = json.loads(preset.read_text())["perf_estimator"]["hardware"]
    path = folder / "a100_roofline.json"
    path.write_text(json.dumps({"perf_estimator": {"method": "roofline", "hardware": {
        key: hardware[key] for key in SHARED_KEYS}}}))
    return path


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
    parser.add_argument("--published", default=os.environ.get("HESPAS_PUBLISHED", ""),
                        help="the published tool's hespas_chakra_gen (default $HESPAS_PUBLISHED)")
    parser.add_argument("--published-repeat", type=int, default=5, help="pairs per case")
    parser.add_argument("--ours", default=os.environ.get("HESPAS_OURS", ""),
                        help="side by side: our hespas_chakra_gen in a venv of its own (default "
                             "$HESPAS_OURS; none: this interpreter)")
    parser.add_argument("--published-all", action="store_true",
                        help="side by side on linear_split and individual_split too")
    parser.add_argument("--side-by-side-only", action="store_true",
                        help="only the side-by-side cases")
    options = parser.parse_args()
    # Time the package as installed, bytecode compiled: under PYTHONDONTWRITEBYTECODE a checkout
    # would recompile every module in every timed run.
    compileall.compile_dir(REPO / "hespas_py", quiet=1)
    if options.side_by_side_only:
        with tempfile.TemporaryDirectory(prefix="hespas-bench-") as tmp:
            compare(options, Path(tmp))
        return
    with_site, bare = interpreter_start_up(max(options.repeat, 5))
    print(f"interpreter start-up: {with_site:.3f} s, of which site hooks {with_site - bare:.3f} s "
          "(part of every wall time below)")
    with tempfile.TemporaryDirectory(prefix="hespas-bench-") as tmp:
        out = str(Path(tmp) / "out")
        common = ["A100_SXM_40GB", "--output", out, "--clean", "--estimator", "roofline"]
        if RESNET.is_file():
            resnet = [*common, "--mlir_file", str(RESNET)]
            # The command as a user runs it with the published tool's config file: its default
            # split (linear_split, block_lim 1024), the summary and log lines to a pipe.
            bench("resnet50 published config, as printed", [
                str(REPO / "configs" / "nodes" / "A100_SXM_40GB" / "roofline" / "config.json"),
                "--mlir_file", str(RESNET), "--output", out, "--clean"], options.repeat, 10023,
                as_json=False)
            for label, extra in SPLITS:
                bench(label, [*resnet, *extra], options.repeat, 10023)
            bench("resnet50 individual_split --merge, fused", [
                *resnet, "--split_fn", "individual_split", "--merge", "--estimator",
                "fused_roofline"], options.repeat, 10023)
            compare(options, Path(tmp))
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
