"""Built-in network simulator with ASTRA-sim's analytical congestion-unaware semantics.

``simulate(prefix_or_traces, system, network, comm_groups=..., remote_memory=...) -> SimResult``
replays per-device Chakra traces; ``load_system_dir(dir)`` reads a machine's network.yml,
system.json and remote_memory.json (from ``dir`` or ``dir/astra-sim``).
"""

from hespas_py.sim.config import load_system_dir, preset_names
from hespas_py.sim.inputs import load_comm_groups, load_network, load_remote_memory, load_system
from hespas_py.sim.machine import NetworkConfig, RemoteMemoryConfig, SystemConfig, SystemSetup
from hespas_py.sim.result import DeviceResult, SimResult
from hespas_py.sim.simulate import simulate
from hespas_py.sim.timeline import trace_events, write_timeline

__all__ = ["DeviceResult", "NetworkConfig", "RemoteMemoryConfig", "SimResult", "SystemConfig",
           "SystemSetup", "load_comm_groups", "load_network", "load_remote_memory", "load_system",
           "load_system_dir", "preset_names", "simulate", "trace_events", "write_timeline"]
