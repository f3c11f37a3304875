"""Per-device peak memory of a module's program (stage after `hespas_py.kernels`: it plans kernels
as ``fused_roofline`` does; nothing imports it back but the pipeline and the CLI).

`analyze` counts a module, `peak_of_file` a module file;
`liveness` walks one scope (`intervals`: its buffers over kernel positions and their peak);
`backend` says what XLA:GPU and XLA:CPU do differently.
"""

from hespas_py.memory.analysis import MemoryReport, analyze, memory_rules, peak_of_file
from hespas_py.memory.intervals import Buffer

__all__ = ["Buffer", "MemoryReport", "analyze", "memory_rules", "peak_of_file"]
