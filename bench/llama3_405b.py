"""Llama 3 405B on 8,192 and 16,384 H100s end to end: export, gen and simulate each configuration
of the Llama 3 report's Table 4 (goal: under 5 minutes per configuration on a 2-core machine).

    python bench/llama3_405b.py                 # the three rows of `hespas accuracy --group llama3`
    python bench/llama3_405b.py --out out/llama3 --only 128k

Each row's layout comes from ``hespas_py/data/llama3_405b.csv``; its step is
``scripts/models/llama_4d.py:llama_4d_step`` exported with ``hespas export`` (partitioned on a
smaller mesh and widened, hespas_py/export/widen.py), generated with ``hespas gen H100_80GB
--param fused_attention=true`` (a symmetric trace set, hespas_py/chakra/symmetric.py) and
simulated with ``hespas simulate`` on the row's system preset, each a fresh process as a user
runs them. It prints each stage's wall and CPU seconds, the simulated step, the TFLOP/s per GPU
it counts (the report's count, hespas_py/accuracy/work.py) beside the published one, and the
per-device peak memory against the H100's 80 GB. The exports are kept in ``OUT/workloads``, so
``hespas accuracy --group llama3 --workloads OUT/workloads`` evaluates the same rows.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hespas_py.accuracy.rows import GROUPS  # noqa: E402

FACTORY = REPO / "scripts" / "models" / "llama_4d.py"
GOAL_S = 300.0
HESPAS = [sys.executable, "-c", "from hespas_py.cli.main import main; main()"]


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(*args: str) -> tuple[str, float, float]:
    """``hespas ARGS`` in a fresh process: its stdout, wall and CPU seconds."""
    start, cpu = time.perf_counter(), children_cpu_s()
    done = subprocess.run([*HESPAS, *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"hespas {' '.join(args)} failed: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout, time.perf_counter() - start, children_cpu_s() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="keep exports and traces here (default: a "
                        "temporary folder)")
    parser.add_argument("--only", help="rows whose name contains this")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hespas-llama3-") as scratch:
        out = args.out or Path(scratch)
        (out / "workloads").mkdir(parents=True, exist_ok=True)
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
              f"({os.cpu_count()} CPUs)", flush=True)
        for row in GROUPS["llama3"].rows():
            if args.only and args.only not in row.name:
                continue
            layout = row.work.layout
            mlir, traces = out / "workloads" / f"{row.workload}.mlir", out / row.workload
            settings = [f"{k}={layout[k]}" for k in ("dp", "pp", "cp", "tp", "virtual", "seq")]
            settings.append(f"batch={layout['batch_per_dp']}")
            times = {}
            _, *times["export"] = run("export", f"{FACTORY}:llama_4d_step", "--devices",
                                      str(row.work.devices), "--out", str(mlir),
                                      *[a for s in settings for a in ("--set", s)])
            gen, *times["gen"] = run("gen", "H100_80GB", "--mlir_file", str(mlir), "--output",
                                     str(traces), "--clean", "--param", "fused_attention=true",
                                     "--json")
            sim, *times["simulate"] = run("simulate", str(traces / "dev"), "--system",
                                          row.system_preset, "--json")
            step_s = max(d["wall_time_ns"] for d in json.loads(sim)["devices"]) * 1e-9
            memory = json.loads(gen)["memory"]
            total = sum(wall for wall, _ in times.values())
            published = row.work.tflops_per_device(row.measured_s)
            ours = row.work.tflops_per_device(step_s)
            stages = ", ".join(f"{k} {wall:.1f} s (CPU {cpu:.1f} s)" for k, (wall, cpu) in times.items())
            print(f"{row.name}: {stages}; total {total:.1f} s "
                  f"(goal < {GOAL_S:.0f} s: {'ok' if total < GOAL_S else 'TOO SLOW'})")
            print(f"  step {step_s:.3f} s, {row.work.tokens:,} tokens; {ours:.0f} TFLOP/s per GPU "
                  f"(published {published:.0f}: {ours / published - 1:+.1%}); peak "
                  f"{memory['peak_bytes'] / 2**30:.2f} GiB of {memory['capacity_bytes'] / 2**30:.2f} "
                  f"GiB per device ({'fits' if memory['fits'] else 'DOES NOT FIT'})", flush=True)


if __name__ == "__main__":
    main()
