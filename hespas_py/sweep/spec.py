"""A sweep spec (YAML): what to sweep, read and checked before any work starts.

Why and how: docs/sweeps.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from hespas_py.checks import Number, shown
from hespas_py.errors import HespasError
from hespas_py.estimators.base import DEFAULT_ESTIMATOR, estimator_class
from hespas_py.export.workloads import workload_path
from hespas_py.hardware import Hardware
from hespas_py.hardware.presets import find_preset, is_preset_folder
from hespas_py.pipeline import DEFAULT_SPLIT
from hespas_py.run import Split, node_hardware
from hespas_py.sim.config import load_setup, resolve_system_files, system_files
from hespas_py.sim.machine import SystemSetup
from hespas_py.split import splitter
from hespas_py.split.combine import Thresholds
from hespas_py.sweep.variants import check_dimensions, check_variants

SPEC_KEYS = ("workloads", "nodes", "systems", "estimator", "split", "variants", "fits_only")
_REQUIRED = ("workloads", "nodes", "systems")
_SPLIT_KEYS = ("strategy", "block_lim", "merge", "combine_threshold", "collective_rewrites")

T = TypeVar("T")


@dataclass(frozen=True)
class Workload:
    """A workload of the spec.

    Attributes:
        file: its StableHLO file here.
        shipped: the shipped workload's name, which a worker elsewhere resolves in its own
            installation; None for a file given by path (every worker reads it at ``file``).
    """

    file: Path
    shipped: str | None = None


@dataclass(frozen=True)
class NodeConfig:
    """A node for one estimator.

    Attributes:
        file: the node config file or preset folder.
        hardware: the hardware it describes, read for that estimator.
    """

    file: Path
    hardware: Hardware


@dataclass(frozen=True)
class SweepSpec:
    """A checked sweep spec; every mapping keeps the spec's order and is keyed by the name the
    spec gives (the label rows carry).

    Attributes:
        source: the spec file.
        workloads: per workload, where it is.
        nodes: per node, per estimator, its config.
        systems: per system, its ASTRA-sim files.
        estimators: estimator names.
        split: the split settings (the strategy always given: the spec's, else
            `DEFAULT_SPLIT`; the others None where the spec leaves them to each node config).
        variants: per variant key, its values (`hespas_py.sweep.variants`), in the spec's order.
        fits_only: leave out the points whose peak memory exceeds their node's capacity.
    """

    source: Path
    workloads: Mapping[str, Workload]
    nodes: Mapping[str, Mapping[str, NodeConfig]]
    systems: Mapping[str, SystemSetup]
    estimators: tuple[str, ...]
    split: Split
    variants: Mapping[str, list]
    fits_only: bool = False


def _names(doc: Mapping, key: str, source: str, default: Any = None) -> list[str]:
    value = doc.get(key, default)
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n
                                                          for n in names):
        raise HespasError(f"{source}: {key} must be a name or a non-empty list of names")
    return list(dict.fromkeys(names))


def _resolved(key: str, names: list[str], resolve: Callable[[str], T],
              source: str) -> dict[str, T]:
    """``{name: resolve(name)}``; a `HespasError` gains the spec file and key in front."""
    resolved = {}
    for name in names:
        try:
            resolved[name] = resolve(name)
        except HespasError as exc:
            raise HespasError(f"{source}: {key}: {exc}") from None
    return resolved


def _workload(base: Path) -> Callable[[str], Workload]:
    def resolve(name: str) -> Workload:
        path = base / name
        return Workload(path) if path.is_file() else Workload(workload_path(name), name)
    return resolve


def _node(base: Path, estimators: tuple[str, ...]) -> Callable[[str], dict[str, NodeConfig]]:
    def resolve(name: str) -> dict[str, NodeConfig]:
        given = base / name
        where = given if given.is_file() or is_preset_folder(given) else name
        hardware = {estimator: node_hardware(where, estimator) for estimator in estimators}
        file = Path(where) if Path(where).is_file() else find_preset(where).folder
        return {estimator: NodeConfig(file, hw) for estimator, hw in hardware.items()}
    return resolve


def _system(base: Path) -> Callable[[str], SystemSetup]:
    def resolve(name: str) -> SystemSetup:
        folder = base / name
        return load_setup(system_files(folder) if folder.is_dir() else resolve_system_files(name))
    return resolve


def _estimators(doc: Mapping, source: str) -> tuple[str, ...]:
    names = tuple(n.strip().lower() for n in _names(doc, "estimator", source, DEFAULT_ESTIMATOR))
    for name in names:
        try:
            estimator_class(name)
        except HespasError as exc:
            raise HespasError(f"{source}: estimator: {exc}") from None
    return names


def _split(value: Any, source: str) -> Split:
    """The spec's ``split`` (its ``strategy`` key is the split strategy)."""
    settings: dict[str, Any] = {"strategy": value} if isinstance(value, str) else value
    if not isinstance(settings, dict):
        raise HespasError(f"{source}: split must be a strategy name or a mapping with "
                          f"{', '.join(_SPLIT_KEYS)}")
    for key in settings:
        if key not in _SPLIT_KEYS:
            raise HespasError(f"{source}: unknown key split.{key} "
                              f"(known: {', '.join(_SPLIT_KEYS)})")
    if settings.get("combine_threshold") is not None:
        settings = {**settings, "combine_threshold": Thresholds.of(
            settings["combine_threshold"], f"{source}: split.combine_threshold")}
    settings = {**settings, "split_strategy": settings.get("strategy", DEFAULT_SPLIT)}
    del settings["strategy"]
    split = Split(**settings)
    if not isinstance(split.split_strategy, str):
        raise HespasError(f"{source}: split.strategy must be a strategy name, got "
                          f"{shown(split.split_strategy)}")
    try:
        splitter(split.split_strategy)
    except HespasError as exc:
        raise HespasError(f"{source}: split: {exc}") from None
    if split.block_lim is not None:
        Number(1, integer=True).check(split.block_lim, source, "split.block_lim")
    for key in ("merge", "collective_rewrites"):
        if getattr(split, key) is not None:
            _check_flag(getattr(split, key), source, f"split.{key}")
    return split


def _check_flag(value: Any, source: str, key: str) -> None:
    """A spec's true/false value (`HespasError` naming ``key`` otherwise)."""
    if not isinstance(value, bool):
        raise HespasError(f"{source}: {key} must be true or false")


def read_spec_file(path: Path) -> dict[str, Any]:
    """The spec's YAML mapping with only known keys (`HespasError` otherwise)."""
    try:
        doc = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise HespasError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise HespasError(f"{path}: not a YAML text file (not UTF-8 at byte {exc.start})") from None
    except yaml.YAMLError as exc:
        raise HespasError(f"{path}: not YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(doc, dict):
        raise HespasError(f"{path}: a sweep spec is a mapping with keys {', '.join(SPEC_KEYS)}")
    for key in doc:
        if key not in SPEC_KEYS:
            raise HespasError(f"{path}: unknown key {key!r} (known: {', '.join(SPEC_KEYS)})")
    for key in _REQUIRED:
        if key not in doc:
            raise HespasError(f"{path}: missing required key {key}")
    return doc


def load_spec(path: str | Path) -> SweepSpec:
    """Read and check a sweep spec (see the module docstring)."""
    path = Path(path)
    return spec_from_doc(read_spec_file(path), path)


def spec_from_doc(doc: Mapping[str, Any], path: Path) -> SweepSpec:
    """Check a spec's mapping (as `read_spec_file` returns it); messages name ``path``, relative
    paths are read from its folder."""
    source, base = str(path), path.parent
    estimators = _estimators(doc, source)
    split = _split(doc.get("split", DEFAULT_SPLIT), source)
    variants = check_variants(doc.get("variants", {}), source)
    workloads = _resolved("workloads", _names(doc, "workloads", source), _workload(base), source)
    nodes = _resolved("nodes", _names(doc, "nodes", source), _node(base, estimators), source)
    systems = _resolved("systems", _names(doc, "systems", source), _system(base), source)
    for name, setup in systems.items():
        check_dimensions(variants, len(setup.network.npus_count), name, source)
    fits_only = doc.get("fits_only", False)
    _check_flag(fits_only, source, "fits_only")
    return SweepSpec(path, workloads, nodes, systems, estimators, split, variants, fits_only)
