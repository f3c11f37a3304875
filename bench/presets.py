"""Prints the built-in simulator's time for one 64 MiB all-reduce on the largest machine presets
(target: well under a second for 1,024 NPUs).

Run: ``python3 bench/presets.py [--min-npus N] [--repeat N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hespas_py.chakra.nodes import collective  # noqa: E402
from hespas_py.chakra.schema import CollectiveCommType  # noqa: E402
from hespas_py.sim import load_system_dir, preset_names, simulate  # noqa: E402
from hespas_py.sim.config import PRESETS_DIR  # noqa: E402
from hespas_py.sim.synthetic import write_identical_trace_set  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-npus", type=int, default=1024,
                        help="time the presets with at least this many NPUs")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        for name in preset_names():
            setup = load_system_dir(PRESETS_DIR / name)
            if setup.network.num_npus < args.min_npus:
                continue
            prefix = Path(scratch) / name
            write_identical_trace_set(prefix, [collective(0, CollectiveCommType.ALL_REDUCE,
                                                          64 << 20)], setup.network.num_npus)
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                result = simulate(prefix, setup.system, setup.network)
                times.append(time.perf_counter() - start)
            print(f"{name}: {setup.network.num_npus} NPUs {list(setup.network.npus_count)}, "
                  f"all-reduce 64 MiB simulated in {statistics.median(times):.3f} s "
                  f"(step {result.step_time_ns / 1e3:,.1f} us)")


if __name__ == "__main__":
    main()
