"""Prints the speed figures of ``hespas sweep`` (issue 12) against their goals.

1. The 12-point sweep (resnet50_train_4dev and llama3_100m_train_4dev x A100_SXM_40GB, H100_80GB
   and H200_141GB with fused_roofline x A100_SXM_40GB_4GPU and H100_80GB_4GPU), cold, against the
   12 single ``hespas gen CONFIG --mlir_file W --system-config S`` runs it replaces: goal < 0.6x.
   Both are timed as commands (fresh processes), and the rows are checked against the gen runs.
2. 1,000 network variants (10 bandwidth scales x 10 latencies x 5 algorithms x 2 collective
   optimizations) of llama3_100m_train_4dev on H100_80GB and H100_80GB_4GPU, one cold
   ``hespas sweep`` command: goal < 60 s.
3. One LLaMA-3-8B-size training step at 1,024 devices simulated on a 3-D system (the
   H100_80GB_8GPU_2_2 preset's network, 8 x 2 x 2, scaled out to 8 x 16 x 8): goal < 10 s for
   loading the traces plus simulating them. The step is a real export: `llama3_8b_1024` below
   gives scripts/models/llama.py the LLaMA-3-8B shape (Meta's published config: width 4096, 32
   layers, 32 query / 8 KV heads of 128, MLP 14336; the 128,256-row vocabulary padded to 131,072
   so it splits over 1,024 devices), FSDP over 1,024 devices. ``hespas export`` writes it once
   (about 40 s, 1 GB of memory, 16 MB of text) into ``$HESPAS_CACHE_DIR/bench`` (default
   ``~/.cache/hespas_py/bench``); traces are generated again on every run (a few seconds, not
   timed).

Run: ``python3 bench/sweep.py [--only 1|2|3]``. Timings on a shared machine are noisy.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hespas_py.export.workloads import workload_path  # noqa: E402

WORKLOADS = ("resnet50_train_4dev", "llama3_100m_train_4dev")
NODES = ("A100_SXM_40GB", "H100_80GB", "H200_141GB")
SYSTEMS = ("A100_SXM_40GB_4GPU", "H100_80GB_4GPU")
ESTIMATOR = "fused_roofline"
VARIANTS = {
    "bandwidth_scale": [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4, 8],
    "latency": [100, 250, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000],
    "algorithm": ["ring", "direct", "direct2", "oneRing", "oneDirect"],
    "collective_optimization": ["baseline", "localBWAware"],
}
BIG_DEVICES = 1024
BIG_SYSTEM = "H100_80GB_8GPU_2_2"
BIG_NPUS = (8, 16, 8)


def hespas(*args: object) -> str:
    """Run the ``hespas`` command; its stdout."""
    done = subprocess.run([sys.executable, "-c", "from hespas_py.cli.main import main; main()",
                           *map(str, args)], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"hespas {' '.join(map(str, args))} failed:\n{done.stderr}")
    return done.stdout


def node_config(node: str) -> Path:
    return REPO / "configs" / "nodes" / node / ESTIMATOR / "config.json"


def timed_sweep(spec: dict, scratch: Path) -> tuple[float, dict]:
    """Seconds of one cold ``hespas sweep --json`` command, and its results."""
    path = scratch / "spec.yaml"
    path.write_text(yaml.safe_dump(spec))
    start = time.perf_counter()
    results = json.loads(hespas("sweep", path, "--out", scratch / "out", "--json"))
    return time.perf_counter() - start, results


def bench_twelve_points() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        single: dict[tuple, float] = {}
        start = time.perf_counter()
        for workload in WORKLOADS:
            for node in NODES:
                for system in SYSTEMS:
                    summary = json.loads(hespas(
                        "gen", node_config(node), "--mlir_file", workload_path(workload),
                        "--output", scratch / "gen", "--clean", "--system-config", system,
                        "--json", "--log-level", "warning"))
                    single[workload, node, system] = summary["simulation"]["step_time_s"]
        gens = time.perf_counter() - start
        spec = {"workloads": list(WORKLOADS), "systems": list(SYSTEMS), "estimator": ESTIMATOR,
                "nodes": [str(node_config(n)) for n in NODES]}
        seconds, results = timed_sweep(spec, scratch)
    names = {str(node_config(n)): n for n in NODES}
    same = all(single[r["workload"], names[r["node"]], r["system"]] == r["step_time_s"]
               for r in results["rows"]) and len(results["rows"]) == 12
    print(f"12-point sweep: {seconds:.1f} s vs 12 single gen runs {gens:.1f} s = "
          f"{seconds / gens:.2f}x (goal < 0.6x); rows equal to gen's: {same}")


def bench_variants() -> None:
    spec = {"workloads": ["llama3_100m_train_4dev"], "nodes": ["H100_80GB"],
            "systems": ["H100_80GB_4GPU"], "estimator": ESTIMATOR, "variants": VARIANTS}
    with tempfile.TemporaryDirectory() as scratch:
        seconds, results = timed_sweep(spec, Path(scratch))
    print(f"1,000 network variants: {len(results['rows'])} rows, {len(results['skipped'])} "
          f"skipped in {seconds:.1f} s (goal < 60 s)")


def llama3_8b_1024():
    """Export factory (``hespas export bench/sweep.py:llama3_8b_1024``): see the docstring."""
    sys.path.insert(0, str(REPO / "scripts" / "models"))
    import llama

    llama.DEVICES = BIG_DEVICES
    return llama.train_step(llama.Config(vocab=131072, embed=4096, heads=32, kv_heads=8,
                                         head_dim=128, layers=32, mlp=14336))


def big_step() -> Path:
    """The exported LLaMA-3-8B-size step, made once into the bench cache."""
    root = os.environ.get("HESPAS_CACHE_DIR")
    path = (Path(root) if root else Path.home() / ".cache" / "hespas_py") / "bench" / \
        f"llama3_8b_train_{BIG_DEVICES}dev.mlir"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        print(f"exporting {path.name} once (about a minute)...", flush=True)
        hespas("export", f"{Path(__file__).resolve()}:llama3_8b_1024", "--devices", BIG_DEVICES,
               "--out", path)
    return path


def bench_big_step() -> None:
    from hespas_py.chakra.files import COMM_GROUP_FILE, TRACE_PREFIX
    from hespas_py.sim.config import PRESETS_DIR, load_system_dir
    from hespas_py.sim.simulate import simulate
    from hespas_py.sim.trace import load_traces, trace_paths

    setup = load_system_dir(PRESETS_DIR / BIG_SYSTEM)
    network = dataclasses.replace(setup.network, npus_count=BIG_NPUS)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "traces"
        hespas("gen", node_config("H100_80GB"), "--mlir_file", big_step(), "--output", out,
               "--log-level", "warning")
        start, cpu = time.perf_counter(), _cpu_seconds()
        traces = load_traces(trace_paths(out / TRACE_PREFIX, network.num_npus))
        result = simulate(traces, setup.system, network, comm_groups=out / COMM_GROUP_FILE)
        seconds, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
        nodes = len(traces[0].nodes)
    print(f"LLaMA-3-8B step, {BIG_DEVICES} NPUs {'x'.join(map(str, BIG_NPUS))} ({nodes} nodes "
          f"per device): simulated in {seconds:.1f} s (goal < 10 s; {cpu:.1f} CPU s over this "
          f"process and its forked helpers), step {result.step_time_ns / 1e6:,.1f} ms")


def _cpu_seconds() -> float:
    """CPU time of this process and its waited-for children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), \
        resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", type=int, choices=(1, 2, 3))
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (figures are wall "
          "time)")
    benches = (bench_twelve_points, bench_variants, bench_big_step)
    for number, bench in enumerate(benches, start=1):
        if args.only in (None, number):
            bench()


if __name__ == "__main__":
    main()
