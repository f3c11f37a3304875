"""JAX jitted sharded step → per-device StableHLO on a CPU machine, and the workloads shipped that way."""

from hespas_py.export.exporter import export_file, export_in_subprocess
from hespas_py.export.step import load_factory
from hespas_py.export.workloads import workload_names, workload_path

__all__ = [
    "export_file",
    "export_in_subprocess",
    "load_factory",
    "workload_names",
    "workload_path",
]
