"""Write what configs/nodes/ derives from the parameter registry: the parameter table of its README.

    python3 scripts/make_node_presets.py           # rewrite the table
    python3 scripts/make_node_presets.py --check   # exit 1 if the committed README differs

The table is made from `hespas_py.hardware.params` (`hespas_py.hardware.describe`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hespas_py.hardware.describe import with_parameter_table  # noqa: E402

README = REPO / "configs" / "nodes" / "README.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args()
    text = README.read_text()
    wanted = with_parameter_table(text)
    if args.check:
        if wanted != text:
            raise SystemExit(f"{README} is stale: run python3 scripts/make_node_presets.py")
        return
    README.write_text(wanted)


if __name__ == "__main__":
    main()
