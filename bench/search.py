"""Prints the speed figures of ``hespas search`` (issue 18) against their goals.

1. 8 devices over dp, fsdp and tp (10 layouts) of the 4-layer, 512-wide LLaMA step
   (scripts/models/llama_layouts.py ``model=small``, 8 sequences of 1,024 tokens per step) on
   H100_80GB / H100_80GB_8GPU: one cold ``hespas search`` command, goal < 60 s.
2. 256 devices over dp, fsdp and tp of the LLaMA-3-8B shape (``model=8b``, 8,192-token sequences,
   256 per step) on H100_80GB / H100_80GB_8GPU_32: 45 assignments, the factory refuses the 15
   with tp above the 8 KV heads, so 30 layouts are exported, generated and simulated; one cold
   command, goal < 300 s for 24 layouts.

Both run with the default ``--backend local`` on every CPU, a fresh store (nothing reused). Printed:
wall time, the CPU time of the command and its workers (on an idle machine the wall time is about
that divided by the CPUs), and the load average. Run: ``python3 bench/search.py [--only 1|2]``.
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
FACTORY = f"{REPO / 'scripts' / 'models' / 'llama_layouts.py'}:llama_step"
CASES = {
    "1": ("8 devices, small LLaMA", 8, "H100_80GB_8GPU", ["model=small", "global_batch=8"], 60),
    "2": ("256 devices, LLaMA-3-8B shape", 256, "H100_80GB_8GPU_32",
          ["model=8b", "seq=8192", "global_batch=256"], 300),
}


def _children_cpu() -> float:
    """User + system CPU seconds of the waited-for child processes (the command and its workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(case: str) -> None:
    title, devices, system, settings, goal = CASES[case]
    with tempfile.TemporaryDirectory(prefix="hespas_bench_search_") as scratch:
        command = [sys.executable, "-c", "from hespas_py.cli.main import main; main()", "search",
                   FACTORY, "--devices", str(devices), "--axes", "dp,fsdp,tp", "--node",
                   "H100_80GB", "--system", system, "--out", str(Path(scratch) / "out"), "--json"]
        for setting in settings:
            command += ["--set", setting]
        start, cpu_start = time.perf_counter(), _children_cpu()
        done = subprocess.run(command, capture_output=True, text=True, cwd=REPO,
                              env={**os.environ, "PYTHONPATH": str(REPO)})
        elapsed, cpu = time.perf_counter() - start, _children_cpu() - cpu_start
    if done.returncode != 0:
        sys.exit(f"hespas search failed: {done.stderr.strip()}")
    doc = json.loads(done.stdout)
    rows, skipped = doc["rows"], doc["skipped"]
    refused = sum("factory raised ValueError" in s["reason"] for s in skipped)
    print(f"{title}: {len(rows) + len(skipped) - refused} layouts searched ({len(rows)} ranked, "
          f"{len(skipped) - refused} skipped by the simulator, {refused} refused by the factory) "
          f"in {elapsed:.1f} s (goal < {goal} s), {cpu:.1f} CPU-seconds, on {os.cpu_count()} "
          f"CPUs, load average {os.getloadavg()[0]:.1f}")
    best = rows[0]
    print(f"  fastest: dp={best['dp']} fsdp={best['fsdp']} tp={best['tp']} "
          f"{best['step_time_s'] * 1e3:,.1f} ms per step")
    for skip in skipped:
        if "factory raised" not in skip["reason"]:
            print(f"  skipped dp={skip['dp']} fsdp={skip['fsdp']} tp={skip['tp']}: {skip['reason']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(CASES))
    args = parser.parse_args()
    for case in [args.only] if args.only else sorted(CASES):
        run(case)


if __name__ == "__main__":
    main()
