"""Fidelity figures of issue 6: estimated vs measured step time per reproducible row of the
measured table, and the trend error, for the default estimator (``fused_roofline``) and any
others named (e.g. the published-style ``roofline`` for comparison), plus the wall time.

Rows whose model configuration was never published are evaluated too (``--approximate``), and
their figures printed apart from the exact reproductions'.

    python3 bench/accuracy.py [--estimator roofline] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hespas_py.cli import commands  # noqa: E402,F401  (registers the subcommands)
from hespas_py.cli.accuracy import DEFAULT_ESTIMATOR, evaluate, print_table, trend_error  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--estimator", action="append", default=[],
                        help="another estimator to evaluate next to fused_roofline (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    start = time.perf_counter()
    evaluation = evaluate([DEFAULT_ESTIMATOR, *args.estimator], approximate=True)
    wall_s = time.perf_counter() - start
    if args.json:
        print(json.dumps({"rows": [r.as_json() for r in evaluation.results],
                          "trend_error": evaluation.trends, "wall_s": wall_s}, indent=1))
        return
    print_table(evaluation)
    for name in evaluation.trends:
        for label, guessed in (("exact reproductions", False), ("guessed configurations", True)):
            rows = [r for r in evaluation.results
                    if r.estimator == name and r.case.approximate == guessed]
            if not rows:
                continue
            within = sum(abs(r.error) <= 0.15 for r in rows)
            trend = trend_error(rows)
            print(f"{name}, {label}: {within}/{len(rows)} rows within 15%, median |error| "
                  f"{sorted(abs(r.error) for r in rows)[len(rows) // 2]:.1%}, trend error "
                  + ("n/a" if trend is None else f"{trend:.1%}"))
    print(f"wall time: {wall_s:.1f} s")


if __name__ == "__main__":
    main()
