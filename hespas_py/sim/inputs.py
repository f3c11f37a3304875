"""ASTRA-sim's input files, read and validated into `hespas_py.sim.machine`'s dataclasses:
network.yml, system.json, remote_memory.json and comm_group.json.

Keys and defaults follow ASTRA-sim's analytical backend and system layer. Keys that only switch its
logging (``trace-enabled``, ``track-local-mem``, ``local-mem-trace-filename``, ``boost-mode``) are
accepted and ignored; features this simulator does not model (the LogGP shared bus, custom
collective algorithms) are rejected with a `HespasError` instead of being silently mis-simulated.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from hespas_py.checks import Number, shown
from hespas_py.errors import HespasError
from hespas_py.mlir.meshes import MAX_DEVICES
from hespas_py.sim.machine import (
    ALGORITHMS,
    IMPLEMENTATION_KEYS,
    TOPOLOGIES,
    Algorithm,
    NetworkConfig,
    RemoteMemoryConfig,
    SystemConfig,
)

_UNSUPPORTED_SYSTEM_KEYS = (
    "all-reduce-implementation-custom", "all-gather-implementation-custom",
    "reduce-scatter-implementation-custom", "all-to-all-implementation-custom",
    "per-node-custom-implementation",
)


#: What system.json leaves out takes these values.
_DEFAULTS = SystemConfig()


def read_input(path: Path) -> bytes:
    """A whole input file; a missing or unreadable one is a `HespasError`."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise HespasError(f"{path}: no such file") from None
    except OSError as exc:
        raise HespasError(f"{path}: cannot read ({exc.strerror})") from None


def _read_text(path: Path) -> str:
    try:
        return read_input(path).decode()
    except UnicodeDecodeError:
        raise HespasError(f"{path}: not a text file") from None


def _read_json(path: Path) -> Any:
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as exc:
        raise HespasError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None


#: NPUs per dimension; their product is bounded by `MAX_DEVICES` (`check_network`).
NPUS = Number(2, MAX_DEVICES, integer=True)
#: Link bandwidth (GB/s): below 1 kB/s, one message could take longer than a trace can say.
BANDWIDTH = Number(1e-6, 1e9)
#: Per-hop latency (ns): up to 1,000 s.
LATENCY = Number(0, 1e12)
#: Per-key rules of system.json's numbers.
SYSTEM_NUMBERS: Mapping[str, Number] = {
    "endpoint-delay": Number(0, 1e12),
    "active-chunks-per-dimension": Number(1, 1 << 16, integer=True),
    # Every collective becomes this many chunks on every NPU (0, ASTRA-sim's default, crashes it
    # on the first collective: the key is required); 4,096 took ResNet-50's step on 4 NPUs 2 min.
    "preferred-dataset-splits": Number(1, 1 << 8, integer=True,
                                       why_high="chunks per collective, bounded to keep the "
                                                "simulation's work in check"),
    "local-mem-bw": Number(0, 1e9),
    "peak-perf": Number(0, 1e9),
    # Read by ASTRA-sim as numbers (a string aborts it), unused by its analytical backend here.
    "local-reduction-delay": Number(0, 1e12),
    **{key: Number(0, 1e12) for key in ("L", "o", "g", "G")},
}
#: Keys ASTRA-sim reads as on/off with ``value != 0`` (nlohmann::json: every value but the number
#: 0 is "on", JSON ``false`` included); accepted as 0, 1 or true.
SYSTEM_FLAGS = ("roofline-enabled", "replay-only", "trace-enabled")
#: Keys a system.json must give: ASTRA-sim's default for each crashes it on first use (an empty
#: algorithm list, 0 dataset splits).
REQUIRED_SYSTEM_KEYS = (*IMPLEMENTATION_KEYS.values(), "preferred-dataset-splits")


def _number_list(path: Path, doc: Mapping, key: str, rule: Number) -> tuple:
    value = doc.get(key)
    if not isinstance(value, list) or not value:
        raise HespasError(f"{path}: '{key}' must be a non-empty list")
    for i, item in enumerate(value):
        rule.check(item, str(path), f"{key}[{i}]")
    return tuple(value)


def flag(path: Path, doc: Mapping, key: str) -> bool:
    """``doc[key]`` (off when absent) of a `SYSTEM_FLAGS` key: 0, 1 or true; `HespasError`
    otherwise (``false`` included, which ASTRA-sim reads as on)."""
    value = doc.get(key, 0)
    if value is True or (type(value) is int and value in (0, 1)):
        return bool(value)
    if value is False:
        raise HespasError(f"{path}: '{key}': false turns it ON in ASTRA-sim (it tests value != 0); "
                          "write 0 or 1")
    raise HespasError(f"{path}: '{key}' must be 0 or 1, got {shown(value)}")


def check_setup(system: SystemConfig, network: NetworkConfig, source: str) -> None:
    """`HespasError` naming ``source`` when a collective's algorithm list is longer than the
    network has dimensions (ASTRA-sim asserts): checked as a system folder is read, before gen
    writes anything, and again by `hespas_py.sim.simulate.simulate` for configurations built
    in code."""
    dims = len(network.npus_count)
    for collective, algorithms in system.implementations.items():
        if len(algorithms) > dims:
            raise HespasError(f"{source}: '{IMPLEMENTATION_KEYS[collective]}' lists "
                              f"{len(algorithms)} algorithms for a {dims}-dimensional network "
                              "(ASTRA-sim asserts)")


def check_network(network: NetworkConfig, source: str) -> NetworkConfig:
    """``network`` when its per-dimension lists agree with its topology and its NPUs number at
    most `MAX_DEVICES` (each number was checked against its rule as it was read, `_number_list`);
    `HespasError` naming ``source`` otherwise."""
    dims = len(network.topology)
    for key in ("npus_count", "bandwidth", "latency"):
        values = getattr(network, key)
        if len(values) != dims:
            raise HespasError(f"{source}: length of {key} ({len(values)}) doesn't match the "
                              f"{dims} dimension(s) of topology")
    if math.prod(network.npus_count) > MAX_DEVICES:
        raise HespasError(f"{source}: npus_count {list(network.npus_count)} makes more than "
                          f"{MAX_DEVICES:,} NPUs, the most supported")
    return network


def load_network(path: str | Path) -> NetworkConfig:
    """Read an analytical network.yml (keys topology, npus_count, bandwidth, latency)."""
    path = Path(path)
    try:
        doc = yaml.safe_load(_read_text(path))
    except yaml.YAMLError as exc:
        raise HespasError(f"{path}: not YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(doc, dict):
        raise HespasError(f"{path}: expected a mapping with topology, npus_count, bandwidth, latency")
    topology = doc.get("topology")
    if not isinstance(topology, list) or not topology:
        raise HespasError(f"{path}: 'topology' must be a non-empty list")
    for name in topology:
        if name not in TOPOLOGIES:
            raise HespasError(f"{path}: topology {name!r} not supported (use {', '.join(TOPOLOGIES)})")
    network = NetworkConfig(tuple(topology), _number_list(path, doc, "npus_count", NPUS),
                            tuple(map(float, _number_list(path, doc, "bandwidth", BANDWIDTH))),
                            tuple(map(float, _number_list(path, doc, "latency", LATENCY))))
    return check_network(network, str(path))


def leading_int(text: str) -> int | None:
    """The integer ``text`` starts with (blanks and a sign allowed), as C++'s ``std::stoi``
    reads it; None when it starts with none."""
    match = re.match(r"\s*[+-]?\d+", text)
    return None if match is None else int(match.group())


def parse_algorithm(text: str) -> Algorithm:
    """``ring``, ``direct8``, ``oneHalvingDoubling``... -> `Algorithm` (ValueError if unknown)."""
    for prefix in ("oneDirect", "direct"):
        if text.startswith(prefix):
            suffix = text[len(prefix):]
            if not suffix:
                return Algorithm(prefix)
            digits = leading_int(suffix[:5])
            if digits is None:
                raise ValueError(text)
            return Algorithm(prefix, digits)
    if text in ALGORITHMS:
        return Algorithm(text)
    raise ValueError(text)


def _number(path: Path, doc: Mapping, key: str, default: float) -> float:
    """``doc[key]`` (``default`` when absent), checked by its `SYSTEM_NUMBERS` rule."""
    return SYSTEM_NUMBERS[key].check(doc.get(key, default), str(path), f"'{key}'")


def system_from_dict(doc: Mapping, path: Path) -> SystemConfig:
    """Build a `SystemConfig` from a parsed system.json (``path`` names it in errors)."""
    if not isinstance(doc, Mapping):
        raise HespasError(f"{path}: expected a JSON object")
    for key in _UNSUPPORTED_SYSTEM_KEYS:
        if key in doc:
            raise HespasError(f"{path}: '{key}' (custom collective algorithms) is not supported")
    if doc.get("model-shared-bus", 0) not in (0, False):
        raise HespasError(f"{path}: 'model-shared-bus' 1 (the LogGP bus model) is not supported")
    policy = doc.get("scheduling-policy", _DEFAULTS.scheduling_policy)
    if policy not in ("LIFO", "FIFO", "EXPLICIT"):
        raise HespasError(f"{path}: unknown scheduling-policy {policy!r} (LIFO, FIFO or EXPLICIT)")
    optimization = doc.get("collective-optimization", _DEFAULTS.collective_optimization)
    if optimization not in ("baseline", "localBWAware"):
        raise HespasError(f"{path}: unknown collective-optimization {optimization!r} "
                          "(baseline or localBWAware)")
    for key in SYSTEM_NUMBERS.keys() & doc.keys():  # those only checked, too
        _number(path, doc, key, 0)
    for key in SYSTEM_FLAGS:
        flag(path, doc, key)
    implementations = {}
    for collective, key in IMPLEMENTATION_KEYS.items():
        if key not in doc:
            continue
        names = doc[key]
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise HespasError(f"{path}: '{key}' must be a non-empty list of algorithm names")
        try:
            implementations[collective] = tuple(parse_algorithm(n) for n in names)
        except ValueError as exc:
            raise HespasError(f"{path}: '{key}': unknown collective algorithm {exc.args[0]!r} "
                              f"(use {', '.join(ALGORITHMS)})") from None
    missing = [key for key in REQUIRED_SYSTEM_KEYS if key not in doc]
    if missing:
        raise HespasError(f"{path}: no {', '.join(repr(k) for k in missing)} (ASTRA-sim's default "
                          f"crashes it on the first collective)")
    return SystemConfig(
        scheduling_policy=policy,
        collective_optimization=optimization,
        endpoint_delay=int(_number(path, doc, "endpoint-delay", _DEFAULTS.endpoint_delay)),
        active_chunks_per_dimension=int(_number(path, doc, "active-chunks-per-dimension",
                                                _DEFAULTS.active_chunks_per_dimension)),
        preferred_dataset_splits=int(_number(path, doc, "preferred-dataset-splits",
                                             _DEFAULTS.preferred_dataset_splits)),
        implementations=implementations,
        local_mem_bw=float(_number(path, doc, "local-mem-bw", _DEFAULTS.local_mem_bw)),
        peak_perf=float(_number(path, doc, "peak-perf", _DEFAULTS.peak_perf)),
        roofline_enabled=flag(path, doc, "roofline-enabled"),
        replay_only=flag(path, doc, "replay-only"),
    )


def load_system(path: str | Path) -> SystemConfig:
    """Read an ASTRA-sim system.json."""
    path = Path(path)
    return system_from_dict(_read_json(path), path)


def load_remote_memory(path: str | Path) -> RemoteMemoryConfig:
    """Read an ASTRA-sim remote_memory.json."""
    path = Path(path)
    doc = _read_json(path)
    if not isinstance(doc, dict):
        raise HespasError(f"{path}: expected a JSON object")
    memory_type = doc.get("memory-type", RemoteMemoryConfig.memory_type)
    if not isinstance(memory_type, str):
        raise HespasError(f"{path}: 'memory-type' must be a string")
    return RemoteMemoryConfig(memory_type)


def load_comm_groups(path: str | Path) -> dict[int, tuple[int, ...]]:
    """Read comm_group.json: ``{"1": [0, 1], ...}`` -> ``{1: (0, 1), ...}`` (ids must be > 0)."""
    path = Path(path)
    doc = _read_json(path)
    if not isinstance(doc, dict):
        raise HespasError(f"{path}: expected an object of group id -> rank list")
    groups = {}
    for key, ranks in doc.items():
        number = leading_int(key)
        if number is None or number <= 0:
            raise HespasError(f"{path}: group id {key!r} must be a positive integer")
        if not isinstance(ranks, list) or not all(isinstance(r, int) and not isinstance(r, bool)
                                                  for r in ranks):
            raise HespasError(f"{path}: group {key} must list integer ranks")
        groups[number] = tuple(ranks)
    return groups
