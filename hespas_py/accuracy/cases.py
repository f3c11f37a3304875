"""From measured rows to reproducible cases: the StableHLO step and the presets of each row.

Why and how: docs/accuracy.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from hespas_py.accuracy.rows import Row
from hespas_py.errors import HespasError
from hespas_py.export.workloads import workload_names, workload_path
from hespas_py.hardware import preset_names
from hespas_py.resources import shipped

SYSTEMS_DIR = shipped("configs", "systems")


@dataclass(frozen=True)
class Case:
    """A measured row we can reproduce.

    Attributes:
        row: the row.
        node: node preset name (or a preset folder standing in for it).
        system_dir: system preset folder; None for a single-device program (no network).
        workload_file: the StableHLO step.
    """

    row: Row
    node: str
    system_dir: Path | None
    workload_file: Path


def _norm(name: str) -> str:
    return name.lower().replace("-", "_")


def find_workload(name: str, folders: Iterable[Path]) -> Path | None:
    """The StableHLO file of workload ``name`` (see the module docstring), or None."""
    if "/" in name:  # a file under the shipped workloads folder, e.g. gpu_h100/resnet18_1dev
        try:
            return workload_path(name)
        except HespasError:
            return None
    wanted = _norm(name)

    def matches(candidate: str) -> bool:
        return _norm(candidate) == wanted or _norm(candidate).startswith(wanted + "_")

    names = workload_names()
    found = [n for n in names if _norm(n) == wanted] or [n for n in names if matches(n)]
    if found:
        return workload_path(found[0])
    for folder in folders:
        for path in sorted(folder.glob("*.mlir")):
            if matches(path.stem):
                return path
    return None


def find_system(system: str, systems_dir: Path = SYSTEMS_DIR) -> tuple[str, Path] | None:
    """(node preset, system preset folder) of a system name by rule, or None."""
    node, _, count = system.rpartition("_x")
    if not node or not count.isdigit() or node not in preset_names():
        return None
    for candidate in (f"{node}_{count}GPU", system, f"{node}_{count}"):
        if (systems_dir / candidate).is_dir():
            return node, systems_dir / candidate
    return None


def _presets(row: Row, systems_dir: Path) -> tuple[str, Path | None] | str:
    """(node preset, system folder; None for one device) of ``row``, or why there is none."""
    if row.node is not None and row.system_preset == "":
        return (row.node, None) if row.node in preset_names() else f"no node preset {row.node}"
    if row.node is None or row.system_preset is None:
        return find_system(row.system, systems_dir) or f"no node/system preset for {row.system}"
    if row.node not in preset_names():
        return f"no node preset {row.node}"
    if not (systems_dir / row.system_preset).is_dir():
        return f"no system preset {row.system_preset}"
    return row.node, systems_dir / row.system_preset


def plan_cases(rows: Iterable[Row], folders: Iterable[Path], systems_dir: Path = SYSTEMS_DIR,
               approximate: bool = False) -> tuple[list[Case], list[tuple[Row, str]]]:
    """The reproducible rows (guessed configurations only with ``approximate``), and each row
    skipped with the reason."""
    folders = list(folders)
    cases, skipped = [], []
    for row in rows:
        presets = _presets(row, systems_dir)
        workload = find_workload(row.workload, folders)
        if isinstance(presets, str):
            skipped.append((row, presets))
        elif workload is None:
            skipped.append((row, f"no StableHLO for {row.workload}"))
        elif row.guessed and not approximate:
            skipped.append((row, "configuration not published (--approximate evaluates our guess)"))
        else:
            cases.append(Case(row, presets[0], presets[1], workload))
    return cases, skipped
