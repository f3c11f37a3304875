"""XLA's CPU compile of a step, stopped once its SPMD partitioner has run.

XLA has no entry point that runs only the partitioner, and the rest of a CPU compile (layout
assignment, fusion, LLVM code generation of every kernel) is nearly all of its time. So the
compile runs in a child process (``python -m hespas_py.export.partition SPEC N DIR KWARGS_JSON``,
the last the factory's keyword arguments) that has XLA dump the module after the
``spmd-partitioning`` pass into DIR. XLA writes that dump before it runs the next pass; once the dump after the next pass (``control-dep-rewriter`` in jaxlib 0.10) is
there too, the first is complete and the child is killed. Should that second dump never come (a
jaxlib with another pass order), the child compiles to the end and the first dump is read then:
the pass name only decides how soon the child stops, never which module is read.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hespas_py.errors import HespasError

#: The pass after which XLA's module is per-device, and the pass XLA runs next.
PARTITIONER_PASS = "spmd-partitioning"
NEXT_PASS = "control-dep-rewriter"
#: Dump options of the child's compile; LLVM's expensive passes off in case it runs to the end.
DUMP_OPTIONS = {"xla_dump_hlo_pass_re": f"^({PARTITIONER_PASS}|{NEXT_PASS})$",
                "xla_dump_hlo_as_text": True, "xla_backend_optimization_level": 0,
                "xla_llvm_disable_expensive_passes": True}
POLL_S = 0.02
#: The step's mesh axes, written by the child next to the dumps.
MESH_FILE = "mesh.json"


def post_spmd_hlo(spec: str, num_devices: int, kwargs: Mapping[str, Any] | None = None) -> str:
    """HLO text of the step ``FILE.py:FACTORY(**kwargs)`` right after XLA's SPMD partitioner (on
    one device, where nothing is partitioned, the module before XLA's optimizations)."""
    return post_spmd(spec, num_devices, kwargs)[0]


def post_spmd(spec: str, num_devices: int, kwargs: Mapping[str, Any] | None = None
              ) -> tuple[str, list[tuple[str, int]]]:
    """`post_spmd_hlo`, and the axes (name, size) of the step's device mesh (empty for a step
    without a named mesh)."""
    with tempfile.TemporaryDirectory(prefix="hespas_spmd_") as scratch:
        dump_dir = Path(scratch) / "dump"
        command = [sys.executable, "-m", __name__, spec, str(num_devices), str(dump_dir),
                   json.dumps(dict(kwargs or {}))]
        run_until_dumped(command, dump_dir, Path(scratch) / "stderr.txt", spec)
        mesh = dump_dir / MESH_FILE
        axes = [tuple(a) for a in json.loads(mesh.read_text())] if mesh.is_file() else []
        return read_dump(dump_dir, num_devices > 1, spec), axes


def compile_with_dump(lowered: Any, dump_dir: Path | str, spec: str) -> None:
    """Compile ``lowered`` with XLA dumping the modules around its partitioner into
    ``dump_dir``."""
    from hespas_py.export.step import compile_step

    compile_step(lowered, {"xla_dump_to": str(dump_dir), **DUMP_OPTIONS}, spec)


def dump_complete(dump_dir: Path) -> bool:
    """Whether the post-partitioner dump in ``dump_dir`` is complete: the next pass's is there."""
    return any(dump_dir.glob(f"*.after_{NEXT_PASS}.*"))


def dumped_stablehlo(dump_dir: Path, num_devices: int, spec: str) -> str:
    """StableHLO of the per-device module a compile in this process dumped into ``dump_dir``
    (`read_dump`)."""
    from hespas_py.export.stablehlo import hlo_text_to_stablehlo

    return hlo_text_to_stablehlo(read_dump(dump_dir, num_devices > 1, spec),
                                 num_devices=num_devices, drop_copies=True)


def run_until_dumped(command: list[str], dump_dir: Path, errors: Path, spec: str) -> None:
    """Run the child compile ``command`` until the post-partitioner dump in ``dump_dir`` is
    complete (or the child ended), then kill it; a failed child is bad input, its ``error:``
    line (stderr, kept in ``errors``) the message."""
    with errors.open("w") as stderr:
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            status = _wait_for_dump(child, dump_dir)
        finally:
            child.kill()
            child.wait()
    if status != 0:
        lines = [line for line in errors.read_text().splitlines() if line.startswith("error: ")]
        raise HespasError(lines[-1].removeprefix("error: ") if lines else
                          f"{spec}: XLA's compile ended with status {status}")


def _wait_for_dump(child: subprocess.Popen, dump_dir: Path) -> int:
    """0 once the post-partitioner dump is complete, else the child's exit status when it ends."""
    while True:
        if dump_complete(dump_dir):
            return 0
        status = child.poll()
        if status is not None:
            return status
        time.sleep(POLL_S)


def read_dump(dump_dir: Path, partitioned: bool, spec: str) -> str:
    pattern = f"*.after_{PARTITIONER_PASS}.*.txt" if partitioned else "*.before_optimizations.txt"
    dumps = sorted(dump_dir.glob(pattern))
    if not dumps:
        raise HespasError(f"{spec}: XLA left no dump matching {pattern}")
    return dumps[0].read_text()


def _dump_post_spmd(spec: str, num_devices: int, dump_dir: str,
                   kwargs: Mapping[str, Any] | None = None) -> None:
    """The child: lower the step, write its mesh axes, and compile it with the dump options."""
    from hespas_py.export.step import lower_step
    from hespas_py.mlir.meshes import read_meshes

    lowered = lower_step(spec, num_devices, kwargs)
    meshes = read_meshes(lowered.compiler_ir("stablehlo"))
    if meshes:
        Path(dump_dir).mkdir(parents=True, exist_ok=True)
        (Path(dump_dir) / MESH_FILE).write_text(json.dumps(next(iter(meshes.values())).axes))
    compile_with_dump(lowered, dump_dir, spec)


if __name__ == "__main__":
    spec_arg, devices_arg, dir_arg, kwargs_arg = sys.argv[1:]
    try:
        _dump_post_spmd(spec_arg, int(devices_arg), dir_arg, json.loads(kwargs_arg))
    except HespasError as exc:  # the parent reads this line back (`run_until_dumped`)
        sys.exit(f"error: {exc}")
