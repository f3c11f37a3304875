"""Shared by the sweep tests: writing specs and running ``hespas`` in this process."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from hespas_py.cli.main import main

#: A small sweep: a 4-device and an 8-device workload, two nodes, a 4- and an 8-NPU system.
SMALL_SPEC = {
    "workloads": ["mlp_dp_4dev", "mesh2x4_8dev"],
    "nodes": ["A100_SXM_40GB", "H100_80GB"],
    "systems": ["H100_80GB_4GPU", "H100_80GB_8GPU"],
    "estimator": "roofline",
    "variants": {"bandwidth_scale": [1, 0.5]},
}


def write_spec(folder: Path, spec: dict | str, name: str = "spec.yaml") -> Path:
    """Write a spec (a mapping, or raw text) into ``folder``."""
    path = folder / name
    path.write_text(spec if isinstance(spec, str) else yaml.safe_dump(spec))
    return path


def hespas(capsys, monkeypatch, *args) -> tuple[int, str, str]:
    """Run ``hespas ARGS`` as the console script does: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["hespas", *map(str, args)])
    with pytest.raises(SystemExit) as info:
        main()
    out, err = capsys.readouterr()
    return info.value.code, out, err
