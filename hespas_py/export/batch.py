"""Export many layouts of one factory with one JAX start-up: a fresh process that imports JAX once
and forks a child per layout.

Why and how: docs/export.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hespas_py.errors import HespasError, first_line


@dataclass(frozen=True)
class ExportJob:
    """One layout to export.

    Attributes:
        devices: the device count the step runs on.
        kwargs: the factory's keyword arguments (JSON values).
    """

    devices: int
    kwargs: Mapping[str, Any]


def export_many(spec: str, jobs: Sequence[ExportJob]) -> list[str | HespasError]:
    """Per job, the StableHLO text of ``FILE.py:FACTORY(**kwargs)`` on its device count (as
    `hespas_py.export.export_file` gives it), or the error that stopped it."""
    with tempfile.TemporaryDirectory(prefix="hespas_batch_") as scratch:
        request = {"spec": spec, "scratch": scratch,
                   "jobs": [{"devices": j.devices, "kwargs": dict(j.kwargs)} for j in jobs]}
        done = subprocess.run([sys.executable, "-m", __name__], input=json.dumps(request),
                              capture_output=True, text=True)
        outcomes: list[str | HespasError] = []
        for i in range(len(jobs)):
            result, error = Path(scratch) / f"{i}.mlir", Path(scratch) / f"{i}.error"
            if result.is_file():
                outcomes.append(result.read_text())
            elif error.is_file():
                outcomes.append(HespasError(error.read_text().strip()))
            else:
                lines = done.stderr.strip().splitlines()
                outcomes.append(HespasError(f"{spec}: the export process ended with status "
                                            f"{done.returncode}" + (f": {lines[-1]}" if lines else "")))
        return outcomes


def _export_child(spec: str, job: Mapping[str, Any], dump_dir: Path, out: Path) -> None:
    """Lower the job's step, compile it in a thread until the post-partitioner dump is complete,
    write its StableHLO to ``out``."""
    from hespas_py.export.partition import (
        POLL_S,
        compile_with_dump,
        dump_complete,
        dumped_stablehlo,
    )
    from hespas_py.export.step import lower_step

    devices = job["devices"]
    lowered = lower_step(spec, devices, job["kwargs"])
    failure: list[BaseException] = []

    def compile_it() -> None:
        try:
            compile_with_dump(lowered, dump_dir, spec)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            failure.append(exc)

    thread = threading.Thread(target=compile_it, daemon=True)
    thread.start()
    while not dump_complete(dump_dir) and thread.is_alive():
        time.sleep(POLL_S)
    if failure:
        raise failure[0]
    out.write_text(dumped_stablehlo(dump_dir, devices, spec))


def _run_child(spec: str, job: Mapping[str, Any], scratch: Path, index: int) -> None:
    """The forked child of job ``index``: its result or its one-line error, then exit."""
    status = 0
    try:
        _export_child(spec, job, scratch / f"dump{index}", scratch / f"{index}.mlir.part")
        os.replace(scratch / f"{index}.mlir.part", scratch / f"{index}.mlir")
    except HespasError as exc:
        (scratch / f"{index}.error").write_text(str(exc))
        status = 2
    except BaseException as exc:  # noqa: BLE001 - any failure is this job's, in one line

        (scratch / f"{index}.error").write_text(f"{spec}: export failed: {first_line(exc, named=True)}")
        status = 2
    finally:
        os._exit(status)


def _serve(request: Mapping[str, Any]) -> None:
    """Import JAX (no backend), then fork one child per job and wait for it."""
    import jax  # noqa: F401 - imported once here, inherited by every child
    import jax.numpy  # noqa: F401

    import hespas_py.export.stablehlo  # noqa: F401
    import hespas_py.export.step  # noqa: F401

    scratch = Path(request["scratch"])
    for index, job in enumerate(request["jobs"]):
        pid = os.fork()
        if pid == 0:
            _run_child(request["spec"], job, scratch, index)
        _, status = os.waitpid(pid, 0)
        if not any((scratch / f"{index}{suffix}").is_file() for suffix in (".mlir", ".error")):
            reason = (f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
                      else f"ended with status {os.WEXITSTATUS(status)}")
            (scratch / f"{index}.error").write_text(f"{request['spec']}: the export of "
                                                    f"{json.dumps(job['kwargs'])} {reason}")


if __name__ == "__main__":
    _serve(json.loads(sys.stdin.read()))
