"""Write the accuracy tables of docs/accuracy.md (and README.md's copy of the gpu group's):
`hespas accuracy --markdown`'s block per group.

    python3 scripts/make_accuracy_tables.py            # the hespas, scale and gpu groups (minutes)
    python3 scripts/make_accuracy_tables.py --group llama3 --workloads out/llama3/workloads
    python3 scripts/make_accuracy_tables.py --check    # exit 1 if a committed block differs

The llama3 rows need their exported steps (`python3 bench/llama3_405b.py --out out/llama3`).
Only the blocks of groups with a row evaluated are replaced.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hespas_py.accuracy.evaluate import evaluate  # noqa: E402
from hespas_py.accuracy.markdown import blocks, render, replace_blocks  # noqa: E402
from hespas_py.accuracy.rows import groups  # noqa: E402
from hespas_py.estimators.base import DEFAULT_ESTIMATOR  # noqa: E402

DOC = REPO / "docs" / "accuracy.md"
#: README.md holds the gpu group's block.
README = REPO / "README.md"
#: The groups whose workloads ship with the project.
SHIPPED_GROUPS = ["hespas", "scale", "gpu"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--group", action="append", help="group to evaluate (repeatable; "
                        f"default {', '.join(SHIPPED_GROUPS)})")
    parser.add_argument("--workloads", action="append", type=Path, default=[],
                        help="extra folder of <workload>.mlir files (repeatable)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args()
    evaluation = evaluate(groups(args.group or SHIPPED_GROUPS), [DEFAULT_ESTIMATOR],
                          workloads=args.workloads)
    rendered = blocks(render(evaluation, DEFAULT_ESTIMATOR))
    for path in (DOC, README):
        current = path.read_text()
        present = blocks(current)
        held = [block for group, block in rendered.items() if path == DOC or group in present]
        wanted = replace_blocks(current, "\n".join(held), str(path))
        if args.check and wanted != current:
            sys.exit(f"{path.relative_to(REPO)} is stale: run python3 scripts/make_accuracy_tables.py")
        if not args.check:
            path.write_text(wanted)


if __name__ == "__main__":
    main()
