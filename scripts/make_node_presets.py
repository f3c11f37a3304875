"""Write what configs/nodes/ derives from each chip's node.json and the parameter registry.

    python3 scripts/make_node_presets.py           # rewrite the generated files
    python3 scripts/make_node_presets.py --check   # exit 1 if a committed file differs

Per preset folder, ``<method>/config.json`` (the published tool's format) for every estimator its
``node.json`` gives params of its own (`hespas_py.hardware.presets.generated_configs`; an alias
gets the files of the preset it names); in configs/nodes/README.md, the preset table (datasheet
figures) and the parameter table (`hespas_py.hardware.describe`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hespas_py.hardware.describe import with_tables  # noqa: E402
from hespas_py.hardware.presets import NODE_FILE, generated_configs, read_preset  # noqa: E402

NODES = REPO / "configs" / "nodes"
README = NODES / "README.md"


def wanted() -> dict[Path, str]:
    """Every generated file under configs/nodes and its text."""
    folders = sorted(p.parent for p in NODES.glob(f"*/{NODE_FILE}"))
    files = {path: text for folder in folders for path, text in generated_configs(folder).items()}
    files[README] = with_tables(README.read_text(), [read_preset(f) for f in folders])
    return files


def stale() -> list[Path]:
    """Generated files that differ from what they are made from, and config files nothing
    generates."""
    files = wanted()
    found = [path for path, text in files.items()
             if not path.is_file() or path.read_text() != text]
    return found + sorted(set(NODES.glob("*/*/config.json")) - set(files))


def write() -> None:
    """Write every generated file; remove the config files nothing generates."""
    files = wanted()
    for path in sorted(set(NODES.glob("*/*/config.json")) - set(files)):
        path.unlink()
    for path, text in files.items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    if not parser.parse_args().check:
        write()
        return
    found = stale()
    if found:
        raise SystemExit("stale (run python3 scripts/make_node_presets.py): "
                         + ", ".join(str(p.relative_to(REPO)) for p in found))


if __name__ == "__main__":
    main()
