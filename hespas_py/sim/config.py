"""ASTRA-sim's input files, read into frozen dataclasses: network.yml, system.json,
remote_memory.json and comm_group.json.

Keys and defaults follow ASTRA-sim's analytical backend and system layer. Keys that only switch its
logging (``trace-enabled``, ``track-local-mem``, ``local-mem-trace-filename``, ``boost-mode``) are
accepted and ignored; features this simulator does not model (the LogGP shared bus, custom
collective algorithms) are rejected with a `HespasError` instead of being silently mis-simulated.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import yaml

from hespas_py.errors import HespasError
from hespas_py.resources import shipped

#: Physical building blocks of one network dimension.
TOPOLOGIES = ("Ring", "Switch", "FullyConnected")

#: Collective algorithms a dimension can use; ``direct<W>`` / ``oneDirect<W>`` add a window.
ALGORITHMS = ("ring", "oneRing", "direct", "oneDirect", "halvingDoubling", "oneHalvingDoubling",
              "doubleBinaryTree")

#: system.json key of each collective's per-dimension algorithm list.
IMPLEMENTATION_KEYS = {
    "ALL_REDUCE": "all-reduce-implementation",
    "ALL_GATHER": "all-gather-implementation",
    "REDUCE_SCATTER": "reduce-scatter-implementation",
    "ALL_TO_ALL": "all-to-all-implementation",
}

_UNSUPPORTED_SYSTEM_KEYS = (
    "all-reduce-implementation-custom", "all-gather-implementation-custom",
    "reduce-scatter-implementation-custom", "all-to-all-implementation-custom",
    "per-node-custom-implementation",
)


@dataclass(frozen=True)
class NetworkConfig:
    """An analytical network: one entry per dimension, dimension 0 innermost.

    Attributes:
      topology: building block per dimension, one of `TOPOLOGIES`.
      npus_count: NPUs per dimension (each > 1); the machine has their product.
      bandwidth: link bandwidth per dimension in GB/s, where ASTRA-sim's GB is 2**30 bytes.
      latency: per-hop latency per dimension in ns.
    """

    topology: tuple[str, ...]
    npus_count: tuple[int, ...]
    bandwidth: tuple[float, ...]
    latency: tuple[float, ...]

    @property
    def num_npus(self) -> int:
        """Total NPUs: the product of `npus_count`."""
        return math.prod(self.npus_count)

    def to_yaml(self) -> str:
        """The network.yml text ASTRA-sim reads."""
        return yaml.safe_dump({"topology": list(self.topology), "npus_count": list(self.npus_count),
                               "bandwidth": list(self.bandwidth), "latency": list(self.latency)},
                              default_flow_style=None, sort_keys=False)


@dataclass(frozen=True)
class Algorithm:
    """One dimension's collective algorithm.

    Attributes:
      name: one of `ALGORITHMS` (without a window suffix).
      window: ``direct``/``oneDirect`` window (packets in flight); -1 means "all peers".
    """

    name: str
    window: int = -1

    @property
    def spans_all_npus(self) -> bool:
        """The ``one*`` variants run a single phase over every NPU of the machine."""
        return self.name.startswith("one")

    @property
    def base(self) -> str:
        """The algorithm without its ``one`` prefix: ring, direct or halvingDoubling."""
        return self.name[3].lower() + self.name[4:] if self.spans_all_npus else self.name


@dataclass(frozen=True)
class SystemConfig:
    """ASTRA-sim's system layer (system.json).

    Attributes:
      scheduling_policy: order of chunks waiting for a queue: LIFO, FIFO or EXPLICIT.
      collective_optimization: ``baseline`` (one all-reduce per dimension) or ``localBWAware``
        (reduce-scatter up the dimensions, all-reduce on the last, all-gather back down).
      endpoint_delay: ns every message spends in the NPU's memory interface before it is sent.
      active_chunks_per_dimension: chunks that may run at once in one dimension's queue.
      preferred_dataset_splits: chunks a collective is split into.
      implementations: per collective type name (keys of `IMPLEMENTATION_KEYS`), its algorithm
        per dimension.
      local_mem_bw: local memory bandwidth in GB/s (10**9 bytes); also prices reductions.
      peak_perf: peak compute in TFLOPS, used by the roofline.
      roofline_enabled: price GPU COMP nodes with the roofline instead of their duration.
      replay_only: replay every node (communication included) from its recorded duration.
    """

    scheduling_policy: str = "LIFO"
    collective_optimization: str = "baseline"
    endpoint_delay: int = 10
    active_chunks_per_dimension: int = 1
    preferred_dataset_splits: int = 0
    implementations: Mapping[str, tuple[Algorithm, ...]] = field(default_factory=dict)
    local_mem_bw: float = 0.0
    peak_perf: float = 0.0
    roofline_enabled: bool = False
    replay_only: bool = False


#: What system.json leaves out takes these values.
_DEFAULTS = SystemConfig()


@dataclass(frozen=True)
class RemoteMemoryConfig:
    """remote_memory.json: only its memory type matters (MEM_LOAD/STORE nodes are rejected).

    Attributes:
      memory_type: e.g. ``NO_MEMORY_EXPANSION``.
    """

    memory_type: str = "NO_MEMORY_EXPANSION"


@dataclass(frozen=True)
class SystemSetup:
    """The three ASTRA-sim configuration files of one machine.

    Attributes:
      network: the network.yml.
      system: the system.json.
      remote_memory: the remote_memory.json.
      source: the folder they were read from.
    """

    network: NetworkConfig
    system: SystemConfig
    remote_memory: RemoteMemoryConfig
    source: Path


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


def _number_list(path: Path, doc: Mapping, key: str, kind: type) -> tuple:
    value = doc.get(key)
    if not isinstance(value, list) or not value:
        raise HespasError(f"{path}: '{key}' must be a non-empty list")
    try:
        if kind is int and any(isinstance(v, float) and not v.is_integer() for v in value):
            raise ValueError
        return tuple(kind(v) for v in value)
    except (TypeError, ValueError):
        raise HespasError(f"{path}: '{key}' must hold numbers, got {value}") from None


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
    network = NetworkConfig(tuple(topology), _number_list(path, doc, "npus_count", int),
                            _number_list(path, doc, "bandwidth", float),
                            _number_list(path, doc, "latency", float))
    dims = len(network.topology)
    for key in ("npus_count", "bandwidth", "latency"):
        if len(getattr(network, key)) != dims:
            raise HespasError(f"{path}: length of {key} ({len(getattr(network, key))}) doesn't "
                              f"match the {dims} dimension(s) of topology")
    if any(n <= 1 for n in network.npus_count):
        raise HespasError(f"{path}: npus_count {list(network.npus_count)}: each must be larger than 1")
    if any(b <= 0 for b in network.bandwidth):
        raise HespasError(f"{path}: bandwidth {list(network.bandwidth)}: each must be positive")
    if any(lat < 0 for lat in network.latency):
        raise HespasError(f"{path}: latency {list(network.latency)}: each must be non-negative")
    return network


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
    """``doc[key]`` (``default`` when absent), which must be a JSON number."""
    value = doc.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise HespasError(f"{path}: '{key}' must be a number, got {value!r}")
    return value


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
    implementations = {}
    for collective, key in IMPLEMENTATION_KEYS.items():
        if key not in doc:
            continue
        names = doc[key]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise HespasError(f"{path}: '{key}' must be a list of algorithm names")
        try:
            implementations[collective] = tuple(parse_algorithm(n) for n in names)
        except ValueError as exc:
            raise HespasError(f"{path}: '{key}': unknown collective algorithm {exc.args[0]!r} "
                              f"(use {', '.join(ALGORITHMS)})") from None
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
        roofline_enabled=bool(doc.get("roofline-enabled", _DEFAULTS.roofline_enabled)),
        replay_only=bool(doc.get("replay-only", _DEFAULTS.replay_only)),
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


def system_files(folder: str | Path) -> dict[str, Path | None]:
    """The network.yml, system.json and remote_memory.json (None if absent) of a preset folder.

    The folder may hold them directly or in an ``astra-sim/`` subfolder (Hespas' layout).
    """
    folder = Path(folder)
    base = folder / "astra-sim" if (folder / "astra-sim").is_dir() else folder
    if not base.is_dir():
        raise HespasError(f"{folder}: no such folder")
    files: dict[str, Path | None] = {
        name: base / name for name in ("network.yml", "system.json", "remote_memory.json")}
    for name in ("network.yml", "system.json"):
        if not files[name].is_file():
            raise HespasError(f"{base}: no {name}")
    if not files["remote_memory.json"].is_file():
        files["remote_memory.json"] = None
    return files


def load_setup(files: Mapping[str, Path | None]) -> SystemSetup:
    """Read the network.yml, system.json and remote_memory.json named in ``files`` (as
    `system_files` or `resolve_system_files` give them); an absent remote_memory.json means no
    memory expansion."""
    remote = files["remote_memory.json"]
    return SystemSetup(load_network(files["network.yml"]), load_system(files["system.json"]),
                       load_remote_memory(remote) if remote is not None else RemoteMemoryConfig(),
                       files["system.json"].parent)


def load_system_dir(folder: str | Path) -> SystemSetup:
    """Read a machine's ASTRA-sim configuration from ``folder`` (or ``folder/astra-sim``)."""
    return load_setup(system_files(folder))


#: The bundled machine presets (``configs/systems/<name>/astra-sim/...``, shipped with the package).
PRESETS_DIR = shipped("configs", "systems")


def preset_names() -> list[str]:
    """Names of the bundled machine presets."""
    if not PRESETS_DIR.is_dir():
        return []
    return sorted(p.name for p in PRESETS_DIR.iterdir() if (p / "astra-sim").is_dir())


def resolve_system_files(system: str | Path, network: str | Path | None = None,
                         remote_memory: str | Path | None = None) -> dict[str, Path | None]:
    """The system.json, network.yml and remote_memory.json (None if absent) to use.

    ``system`` is a system.json file, a folder holding the three files (directly or under
    ``astra-sim/``), or a preset name; explicit ``network``/``remote_memory`` paths win.
    """
    spec = Path(system)
    if spec.is_file():
        files: dict[str, Path | None] = {"system.json": spec, "network.yml": None,
                                         "remote_memory.json": None}
    else:
        folder = spec if spec.is_dir() else PRESETS_DIR / str(system)
        if not folder.is_dir():
            names = ", ".join(preset_names()) or "none installed"
            raise HespasError(f"{system}: not a system.json, a folder or a preset ({names})")
        files = system_files(folder)
    if network is not None:
        files["network.yml"] = Path(network)
    if remote_memory is not None:
        files["remote_memory.json"] = Path(remote_memory)
    if files["network.yml"] is None:
        raise HespasError(f"{system}: a system.json alone needs --network")
    return files
