"""How long `hespas export` takes for the LLaMA-3 100M training step (goal: under 2 minutes).

    python bench/export.py

Each export runs in a fresh process, as `hespas export` does; the time includes starting Python,
tracing, lowering, XLA's compile on the CPU and the StableHLO conversion.
"""

from __future__ import annotations

import time
from pathlib import Path

from hespas_py.export import export_in_subprocess

FACTORY = str(Path(__file__).resolve().parents[1] / "scripts" / "models" / "llama.py") + ":llama3_100m_step"
GOAL_S = 120.0


def main() -> None:
    for optimized in (False, True):
        start = time.perf_counter()
        text = export_in_subprocess(FACTORY, 4, optimized=optimized)
        seconds = time.perf_counter() - start
        form = "XLA-optimized" if optimized else "post-SPMD"
        verdict = "ok" if seconds < GOAL_S else "TOO SLOW"
        print(f"llama3-100m, 4 devices, {form:13s}: {seconds:6.1f} s  "
              f"({len(text.splitlines()):,} lines, {len(text) / 1e6:.1f} MB)  goal < {GOAL_S:.0f} s: {verdict}")


if __name__ == "__main__":
    main()
