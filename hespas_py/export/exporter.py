"""Turn a jitted, sharded JAX step into the StableHLO of its per-device program, on the CPU.

Why and how: docs/export.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from hespas_py.errors import HespasError
from hespas_py.export.stablehlo import hlo_proto_to_stablehlo, hlo_text_to_stablehlo
from hespas_py.export.step import (
    FactoryArgs,
    compile_step,
    load_factory,
    lower_step,
    parse_spec,
)
from hespas_py.jaxcompat import compiled_hlo_proto


def export_file(spec: str, num_devices: int, optimized: bool = False,
                kwargs: FactoryArgs | None = None, max_devices: int | None = None) -> str:
    """StableHLO text of the per-device program of the step ``FILE.py:FACTORY(**kwargs)`` returns.

    ``optimized=False`` gives the module right after SPMD partitioning; ``optimized=True`` the
    module after all of XLA's CPU optimization passes (``mhlo.fusion`` form), compiled in this
    process. Past ``max_devices`` (default: the most XLA:CPU partitions,
    `hespas_py.export.widen.CPU_DEVICE_LIMIT`) the step is partitioned on a smaller mesh and its
    collectives widened (`hespas_py.export.widen`).
    """
    from hespas_py.export.widen import CPU_DEVICE_LIMIT

    if optimized:
        return _optimized_stablehlo(spec, num_devices, kwargs)
    from hespas_py.export.partition import post_spmd, post_spmd_hlo

    parse_spec(spec)  # a mistyped spec fails before the child process starts
    if num_devices <= (CPU_DEVICE_LIMIT if max_devices is None else max_devices):
        return hlo_text_to_stablehlo(post_spmd_hlo(spec, num_devices, kwargs),
                                     num_devices=num_devices, drop_copies=True)
    from hespas_py.export.widen import small_mesh_sizes, widen

    full, small, devices = small_mesh_sizes(load_factory(spec), spec, kwargs or {}, num_devices,
                                            max_devices or CPU_DEVICE_LIMIT)
    hlo, axes = post_spmd(spec, devices, {**(kwargs or {}), "mesh_sizes": small})
    if not axes:
        raise HespasError(f"{spec}: the step names no device mesh to widen")
    return widen(hlo_text_to_stablehlo(hlo, num_devices=devices, drop_copies=True), axes, full)


def _optimized_stablehlo(spec: str, num_devices: int, kwargs: FactoryArgs | None) -> str:
    compiled = compile_step(lower_step(spec, num_devices, kwargs), {}, spec)
    return hlo_proto_to_stablehlo(compiled_hlo_proto(compiled), num_devices=num_devices,
                                  drop_copies=False)


def export_in_subprocess(spec: str, num_devices: int, optimized: bool = False,
                         kwargs: FactoryArgs | None = None) -> str:
    """`export_file` in a fresh Python process (`hespas_py.export.child`), so this process's JAX
    state does not matter."""
    with tempfile.TemporaryDirectory(prefix="hespas_export_") as out_dir:
        out = Path(out_dir) / "step.mlir"
        request = {"spec": spec, "devices": num_devices, "optimized": optimized,
                   "kwargs": dict(kwargs or {}), "out": str(out)}
        done = subprocess.run([sys.executable, "-m", "hespas_py.export.child"],
                              input=json.dumps(request), capture_output=True, text=True)
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines()
            raise HespasError(lines[-1].removeprefix("error: ") if lines else f"{spec}: export failed")
        return out.read_text()
