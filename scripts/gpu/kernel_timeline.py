"""Where a step's GPU time goes between kernels: profile shipped model steps and keep every
device-side kernel event (stream, start, duration, kernel, HLO op) of one step, so the idle time
between kernels can be attributed to the kernels on either side of it.

    python3 scripts/gpu/kernel_timeline.py OUT_DIR resnet18 [llama3_100m ...]
Writes OUT_DIR/CASE.timeline.csv.gz (stream,start_us,dur_us,hlo_op,kernel) and OUT_DIR/CASE.json
(device, date, jax version, XLA_FLAGS, step wall time under the profiler).
"""
import csv
import glob
import gzip
import json
import os
import sys
import tempfile
import time

import jax

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measuring  # noqa: E402,F401  (the repository root on sys.path)
from step_time import build, inputs  # noqa: E402

from hespas_py.calibrate.timing import run_info  # noqa: E402


def timeline(name, out_dir):
    step, abstract = build(name)
    args = inputs(abstract)
    compiled = step.lower(*args).compile()
    for _ in range(3):
        jax.block_until_ready(compiled(*args))
    folder = tempfile.mkdtemp()
    jax.profiler.start_trace(folder, create_perfetto_trace=True)
    walls = []
    for _ in range(3):
        start = time.perf_counter()
        jax.block_until_ready(compiled(*args))
        walls.append(time.perf_counter() - start)
    jax.profiler.stop_trace()
    path = glob.glob(os.path.join(folder, "**", "perfetto_trace.json.gz"), recursive=True)[0]
    trace = json.load(gzip.open(path))
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    process = {e["pid"]: e.get("args", {}).get("name", "") for e in events
               if e.get("ph") == "M" and e.get("name") == "process_name"}
    thread = {(e["pid"], e.get("tid")): e.get("args", {}).get("name", "") for e in events
              if e.get("ph") == "M" and e.get("name") == "thread_name"}
    rows = [(f"{process.get(e['pid'])}|{thread.get((e['pid'], e.get('tid')), e.get('tid'))}",
             e["ts"], e.get("dur", 0.0), e.get("args", {}).get("hlo_op", ""), e["name"][:100])
            for e in events if e.get("ph") == "X" and not process.get(e["pid"], "").startswith("/host")]
    rows.sort(key=lambda r: r[1])
    with gzip.open(os.path.join(out_dir, f"{name}.timeline.csv.gz"), "wt", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["stream", "start_us", "dur_us", "hlo_op", "kernel"])
        writer.writerows(rows)
    with open(os.path.join(out_dir, f"{name}.json"), "w") as f:
        json.dump({"case": name, **run_info(), "profiled_steps": 3, "wall_s": walls}, f, indent=1)
    print(name, "events", len(rows), "wall", [round(w * 1e3, 2) for w in walls], flush=True)


if __name__ == "__main__":
    os.makedirs(sys.argv[1], exist_ok=True)
    for case in sys.argv[2:]:
        timeline(case, sys.argv[1])
