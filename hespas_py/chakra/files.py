"""File names of an output folder, in one place for the writers and the readers."""

from __future__ import annotations

#: Trace files are ``<TRACE_PREFIX>.<device>.et``: ASTRA-sim's ``--workload-configuration`` prefix.
TRACE_PREFIX = "dev"
#: Communicator groups, ASTRA-sim's ``--comm-group-configuration`` file.
COMM_GROUP_FILE = "comm_group.json"
#: The stats document (`hespas_py.chakra.stats`).
STATS_FILE = "module_stats.json"


def trace_name(device: int) -> str:
    """File name of ``device``'s trace."""
    return f"{TRACE_PREFIX}.{device}.et"
#: A symmetric trace set's manifest: NPU 0's trace stands for every device's, whose groups and
#: peers it lists (`hespas_py.chakra.symmetric`).
SYMMETRIC_FILE = "symmetric.json"
