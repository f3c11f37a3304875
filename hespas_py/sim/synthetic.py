"""Synthetic Chakra trace sets on disk, for tests and benchmarks (nodes: `hespas_py.chakra.nodes`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from hespas_py.chakra.io import write_trace
from hespas_py.chakra.schema import Node


def write_trace_set(prefix: str | Path, per_npu: Sequence[Sequence[Node]]) -> list[Path]:
    """Write ``<prefix>.<npu>.et`` for each NPU's node list."""
    paths = []
    for npu, nodes in enumerate(per_npu):
        path = Path(f"{prefix}.{npu}.et")
        with path.open("wb") as stream:
            write_trace(stream, nodes)
        paths.append(path)
    return paths


def write_identical_trace_set(prefix: str | Path, nodes: Sequence[Node],
                              num_npus: int) -> list[Path]:
    """Write one trace and hard-link it as every NPU's trace (as SPMD generators can)."""
    first = write_trace_set(prefix, [nodes])[0]
    paths = [first]
    for npu in range(1, num_npus):
        path = Path(f"{prefix}.{npu}.et")
        path.unlink(missing_ok=True)
        os.link(first, path)
        paths.append(path)
    return paths
