"""How long `hespas export` takes for each shipped workload (goal: post-SPMD form under 60 s each).

    python bench/export.py                          # every post-SPMD workload + one optimized
    python bench/export.py resnet200_train_4dev     # just these (any shipped name)

Each export runs in a fresh process, as `hespas export` does; the figure includes starting Python,
tracing, lowering, XLA up to its SPMD partitioner and the StableHLO conversion. Beside the wall time
it prints the CPU time of the processes involved, which other work on a shared machine inflates far
less, and whether the text equals the shipped file. The XLA-optimized form runs XLA's whole CPU
pipeline (LLVM code generation included) and has no goal; it is timed for one workload,
llama3_100m_train_4dev_optimized.
"""

from __future__ import annotations

import argparse
import gzip
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from export_workloads import MODELS, WORKLOADS, workloads  # noqa: E402
from hespas_py.export import export_in_subprocess  # noqa: E402

GOAL_S = 60.0
OPTIMIZED_DEFAULT = "llama3_100m_train_4dev_optimized"


def shipped_text(name: str) -> str | None:
    """The shipped file's text, or None when the workload is not shipped."""
    plain, packed = WORKLOADS / f"{name}.mlir", WORKLOADS / f"{name}.mlir.gz"
    if plain.is_file():
        return plain.read_text()
    return gzip.decompress(packed.read_bytes()).decode() if packed.is_file() else None


def children_cpu_s() -> float:
    """CPU seconds used so far by this process's finished child processes (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="workloads to time (default: every post-SPMD "
                        f"one and {OPTIMIZED_DEFAULT})")
    args = parser.parse_args()
    known = {w.name: w for w in workloads()}
    unknown = sorted(set(args.names) - set(known))
    if unknown:
        parser.error(f"unknown workloads {unknown}; known: {sorted(known)}")
    chosen = [known[n] for n in args.names] or [w for w in known.values()
                                                 if not w.optimized or w.name == OPTIMIZED_DEFAULT]
    for w in chosen:
        start, cpu_start = time.perf_counter(), children_cpu_s()
        text = export_in_subprocess(str(MODELS / w.factory), w.devices, w.optimized)
        seconds, cpu = time.perf_counter() - start, children_cpu_s() - cpu_start
        shipped = shipped_text(w.name)
        same = "not shipped" if shipped is None else ("same" if text == shipped else "DIFFERS")
        verdict = ("no goal (whole XLA pipeline)" if w.optimized
                   else f"goal < {GOAL_S:.0f} s: {'ok' if seconds < GOAL_S else 'TOO SLOW'}")
        print(f"{w.name:34s} {seconds:6.1f} s (CPU {cpu:6.1f} s)  {len(text) / 1e6:5.1f} MB, "
              f"{same} as shipped  {verdict}", flush=True)


if __name__ == "__main__":
    main()
