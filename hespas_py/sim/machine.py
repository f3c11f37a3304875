"""A machine as ASTRA-sim's input files describe it, in frozen dataclasses: its analytical
network (network.yml), its system layer (system.json) and its remote memory (remote_memory.json),
with the names their entries may take. `hespas_py.sim.inputs` reads and validates the files.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

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
