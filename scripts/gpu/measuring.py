"""What the GPU scripts share beyond `hespas_py.calibrate.timing` (the run's facts and timed
calls, which ``hespas calibrate`` uses too): a profile's kernel times. Importing this module puts
the repository root on ``sys.path``, so the scripts run from a checkout without installing it."""
import glob
import gzip
import json
import os
import statistics
import sys
import tempfile

import jax

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def kernel_durations(compiled, *args):
    """(count, total µs) per device stream and kernel name per step, from a profile of 3 steps."""
    folder = tempfile.mkdtemp()
    jax.profiler.start_trace(folder, create_perfetto_trace=True)
    for _ in range(3):
        jax.block_until_ready(compiled(*args))
    jax.profiler.stop_trace()
    paths = glob.glob(os.path.join(folder, "**", "perfetto_trace.json.gz"), recursive=True)
    if not paths:
        return None
    trace = json.load(gzip.open(paths[0]))
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    process = {e["pid"]: e.get("args", {}).get("name", "") for e in events
               if e.get("ph") == "M" and e.get("name") == "process_name"}
    thread = {(e["pid"], e.get("tid")): e.get("args", {}).get("name", "") for e in events
              if e.get("ph") == "M" and e.get("name") == "thread_name"}
    lines: dict[str, list[float]] = {}
    for e in events:
        if e.get("ph") == "X" and not process.get(e["pid"], "").startswith("/host"):
            stream = f"{process.get(e['pid'], e['pid'])} | {thread.get((e['pid'], e.get('tid')), '')}"
            name = f"{stream} | {e.get('name', '')}"
            lines.setdefault(name, []).append(e.get("dur", 0.0))
    return {name: {"events_per_step": len(d) / 3, "us_per_step": sum(d) / 3,
                   "median_us": statistics.median(d)} for name, d in lines.items()}


def gpu_time(compiled, *args):
    """(`kernel_durations` lines, their GPU µs per step, None) of a program, or (None, None,
    the error) where the profiler fails (a result stands without it)."""
    try:
        lines = kernel_durations(compiled, *args) or {}
    except Exception as exc:  # noqa: BLE001
        return None, None, repr(exc)[:300]
    return lines, sum(v["us_per_step"] for v in lines.values()), None


def record(result, path, label, case, hidden=("profile_large",)):
    """Print ``case`` (less its ``hidden`` entries) after ``label`` and write ``result``, which
    holds it, to ``path`` (partial results survive a timeout)."""
    print(label, json.dumps({k: v for k, v in case.items() if k not in hidden}), flush=True)
    with open(path, "w") as f:
        json.dump(result, f, indent=1)
