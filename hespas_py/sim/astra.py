"""Running a real ASTRA-sim binary and reading its report into a `SimResult`."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hespas_py.chakra.files import SYMMETRIC_FILE
from hespas_py.errors import HespasError
from hespas_py.sim.result import DeviceResult, SimResult

_FINISHED = re.compile(r"sys\[(\d+)\] finished, (\d+) cycles, exposed communication (\d+) cycles")
_STAT = re.compile(r"sys\[(\d+)\], (Wall time|GPU time|Comm time|"
                   r"Total compute-communication overlap): (\d+)")
_STAT_FIELD = {"Wall time": "wall", "GPU time": "gpu", "Comm time": "comm",
               "Total compute-communication overlap": "overlap"}


@dataclass(frozen=True)
class AstraSimInputs:
    """The files ASTRA-sim's analytical binaries take on their command line.

    Attributes:
      workload: trace prefix (``--workload-configuration``).
      system: system.json.
      network: network.yml.
      remote_memory: remote_memory.json.
      comm_groups: comm_group.json, or None.
    """

    workload: Path
    system: Path
    network: Path
    remote_memory: Path
    comm_groups: Path | None = None

    def arguments(self) -> list[str]:
        """ASTRA-sim's command-line flags for these inputs (absolute paths: it runs elsewhere)."""
        args = [f"--workload-configuration={self.workload.resolve()}",
                f"--system-configuration={self.system.resolve()}",
                f"--network-configuration={self.network.resolve()}",
                f"--remote-memory-configuration={self.remote_memory.resolve()}"]
        if self.comm_groups is not None:
            args.append(f"--comm-group-configuration={self.comm_groups.resolve()}")
        return args


def parse_report(output: str) -> SimResult:
    """Per-NPU figures from ASTRA-sim's log lines (with or without the spdlog prefix); an NPU
    whose statistics (its "Wall time" line on) ASTRA-sim did not print is left out."""
    figures: dict[int, dict[str, int]] = {}
    for line in output.splitlines():
        if match := _FINISHED.search(line):
            entry = figures.setdefault(int(match[1]), {})
            entry["finished"], entry["exposed"] = int(match[2]), int(match[3])
        elif match := _STAT.search(line):
            figures.setdefault(int(match[1]), {})[_STAT_FIELD[match[2]]] = int(match[3])
    devices = []
    for npu in sorted(figures):
        entry = figures[npu]
        if "finished" not in entry or "wall" not in entry:
            continue
        devices.append(DeviceResult(npu, entry["wall"], entry.get("gpu", 0),
                                    entry.get("comm", 0), entry["exposed"],
                                    entry.get("overlap", 0), entry["finished"]))
    return SimResult(tuple(devices), backend="astra-sim")


def run_astra_sim(binary: str | Path, inputs: AstraSimInputs, num_npus: int,
                  timeout_s: float | None = None) -> SimResult:
    """Run ``binary`` on ``inputs`` and read its report; every NPU must report.

    It runs in a scratch directory, where its ``log/`` folder (ASTRA-sim's default logging
    folder) goes and is removed with it.
    """
    manifest = Path(f"{inputs.workload}.0.et").parent / SYMMETRIC_FILE
    if manifest.is_file():
        raise HespasError(f"{inputs.workload}: a symmetric trace set ({manifest.name}: one trace "
                          "for every device) has no trace per NPU for ASTRA-sim; simulate it "
                          "with the built-in simulator")
    command = [str(Path(binary).resolve()) if os.sep in str(binary) else str(binary),
               *inputs.arguments()]
    try:
        with tempfile.TemporaryDirectory(prefix="hespas-astra-sim-") as scratch:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s,
                                  check=False, cwd=scratch)
    except FileNotFoundError:
        raise HespasError(f"{binary}: no such ASTRA-sim binary") from None
    except PermissionError:
        raise HespasError(f"{binary}: not executable") from None
    except subprocess.TimeoutExpired:
        raise HespasError(f"{binary}: ASTRA-sim did not finish in {timeout_s} s") from None
    result = parse_report(done.stdout)
    if done.returncode != 0 or len(result.devices) != num_npus:
        raise HespasError(f"{binary}: ASTRA-sim exit status {done.returncode}, "
                          f"{len(result.devices)}/{num_npus} NPUs reported "
                          f"({_telling_line(done.stderr + done.stdout)})")
    return result


def _telling_line(output: str) -> str:
    """The last line of ASTRA-sim's output that reports a failure, else its last line."""
    lines = [line.strip() for line in output.strip().splitlines()] or ["no output"]
    failures = [line for line in lines if "critical" in line or "what():" in line]
    return (failures or lines)[-1]
