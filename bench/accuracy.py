"""Fidelity figures of issues 6 and 13: estimated vs measured step time of every reproducible row of
every accuracy group (the Hespas paper's single-node rows, guessed configurations included, and the
published multi-node runs of the scale group), per group the counted rows within 15%, their median
|error| and trend error, and the same for the rows that do not count, plus the wall time per group.

    python3 bench/accuracy.py [--group scale] [--estimator roofline] [--systems DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hespas_py.accuracy.cases import SYSTEMS_DIR  # noqa: E402
from hespas_py.accuracy.evaluate import Result, evaluate, trend_error  # noqa: E402
from hespas_py.accuracy.rows import GROUPS, groups  # noqa: E402
from hespas_py.cli import commands  # noqa: E402,F401  (registers the subcommands)
from hespas_py.cli.accuracy import as_json, print_table  # noqa: E402
from hespas_py.estimators.base import DEFAULT_ESTIMATOR  # noqa: E402


def figures(results: list[Result]) -> str:
    within = sum(abs(r.error) <= 0.15 for r in results)
    trend = trend_error(results)
    return (f"{within}/{len(results)} rows within 15%, median |error| "
            f"{statistics.median(abs(r.error) for r in results):.1%}, trend error "
            + ("n/a" if trend is None else f"{trend:.1%}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--group", action="append", default=[], choices=[*GROUPS, "all"],
                        help="group to evaluate (repeatable; default all)")
    parser.add_argument("--estimator", action="append", default=[],
                        help="another estimator to evaluate next to fused_roofline (repeatable)")
    parser.add_argument("--systems", type=Path, default=SYSTEMS_DIR, help="folder of system presets")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    names = [DEFAULT_ESTIMATOR, *args.estimator]
    documents, evaluations, wall = {}, [], {}
    for group in groups(args.group or ["all"]):
        start = time.perf_counter()
        evaluation = evaluate([group], names, systems=args.systems, approximate=True)
        wall[group.name] = time.perf_counter() - start
        evaluations.append(evaluation)
        documents[group.name] = {name: as_json(evaluation, name) for name in names}
    if args.json:
        print(json.dumps({"groups": documents, "wall_s": wall}, indent=1))
        return
    for evaluation in evaluations:
        print_table(evaluation)
        for name in names:
            mine = [r for r in evaluation.results if r.estimator == name]
            for label, counted in (("counted", True), ("not counted", False)):
                rows = [r for r in mine if r.row.counted == counted]
                if rows:
                    print(f"{rows[0].row.group}, {name}, {label}: {figures(rows)}")
    for group, seconds in wall.items():
        print(f"wall time, {group}: {seconds:.1f} s")


if __name__ == "__main__":
    main()
