"""``hespas simulate``: per-device step time of a Chakra trace set on an ASTRA-sim machine model."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from hespas_py.cli.main import app
from hespas_py.errors import HespasError

if TYPE_CHECKING:  # the simulator is imported when the command runs, not with the CLI
    from hespas_py.sim.result import SimResult

BACKENDS = ("builtin", "astra-sim")


def _comm_groups(prefix: str, comm_groups: Path | None) -> Path | None:
    if comm_groups is not None:
        return comm_groups
    from hespas_py.chakra.files import COMM_GROUP_FILE

    beside = Path(prefix).parent / COMM_GROUP_FILE
    return beside if beside.is_file() else None


def _print_table(result: SimResult) -> None:
    from rich.console import Console
    from rich.table import Table

    cpu_ops = any(d.cpu_time_ns for d in result.devices)
    table = Table(title=f"Simulated step ({result.backend} backend, ns)")
    columns = ("NPU", "wall", "GPU", *(("CPU",) if cpu_ops else ()), "comm", "exposed comm",
               "overlap")
    for column in columns:
        table.add_column(column, justify="right")
    for d in result.devices:
        figures = (d.wall_time_ns, d.gpu_time_ns, *((d.cpu_time_ns,) if cpu_ops else ()),
                   d.comm_time_ns, d.exposed_comm_ns, d.overlap_ns)
        table.add_row(str(d.id), *(f"{v:,}" for v in figures))
    console = Console()
    console.print(table)
    console.print(f"step time: {result.step_time_ns:,} ns ({result.step_time_ns / 1e6:.3f} ms)")
    if result.timed_collectives:
        console.print("Each distinct collective was simulated once and timed from its last "
                      "member's issue (traces differ only in sends and receives); --full "
                      "simulates them all.")
    if cpu_ops:
        console.print("CPU ops (is_cpu_op) ran beside GPU compute; exposed comm counts their time. "
                      "For an NPU that ran one, ASTRA-sim 518bd51 prints only the finish time and "
                      "exposed comm (its statistics step throws), and aborts if that NPU ends on a "
                      "send or receive.")


def _run_astra_sim(binary: str | None, prefix: str, files: dict, groups: Path | None,
                   num_npus: int) -> SimResult:
    from hespas_py.sim.astra import AstraSimInputs, run_astra_sim
    from hespas_py.sim.machine import RemoteMemoryConfig

    if binary is None:
        raise HespasError(f"{prefix}: --backend astra-sim needs --astra-sim BIN")
    with tempfile.TemporaryDirectory() as scratch:
        remote = files["remote_memory.json"]
        if remote is None:
            remote = Path(scratch) / "remote_memory.json"
            remote.write_text(json.dumps({"memory-type": RemoteMemoryConfig().memory_type}))
        inputs = AstraSimInputs(Path(prefix), files["system.json"], files["network.yml"], remote,
                                groups)
        return run_astra_sim(binary, inputs, num_npus)


@app.command("simulate")
def simulate_command(
    prefix: str = typer.Argument(..., help="Trace prefix: reads PREFIX.<npu>.et for every NPU."),
    system: str = typer.Option(..., "--system", help="system.json, a folder with the ASTRA-sim "
                               "files, or a preset name from configs/systems."),
    network: Path | None = typer.Option(None, "--network", help="network.yml (default: the "
                                           "one in the --system folder)."),
    remote_memory: Path | None = typer.Option(None, "--remote-memory",
                                                 help="remote_memory.json."),
    comm_groups: Path | None = typer.Option(None, "--comm-groups", help="comm_group.json "
                                               "(default: PREFIX's folder's comm_group.json)."),
    as_json: bool = typer.Option(False, "--json", help="Print the per-device report as JSON."),
    timeline: Path | None = typer.Option(None, "--timeline", help="Write a Chrome/Perfetto "
                                            "trace-event JSON of the run."),
    backend: str = typer.Option("builtin", "--backend", help="builtin or astra-sim."),
    astra_sim: str | None = typer.Option(None, "--astra-sim", help="ASTRA-sim analytical "
                                            "congestion-unaware binary (for --backend astra-sim)."),
    full: bool = typer.Option(False, "--full", help="Simulate every NPU and every collective: "
                              "no replicated NPUs, no collective timed once (slower)."),
) -> None:
    """Simulate a Chakra trace set with ASTRA-sim's analytical network semantics."""
    from hespas_py.sim.config import load_setup, resolve_system_files
    from hespas_py.sim.simulate import simulate
    from hespas_py.sim.timeline import write_timeline

    if backend not in BACKENDS:
        raise HespasError(f"--backend {backend}: use one of {', '.join(BACKENDS)}")
    files = resolve_system_files(system, network, remote_memory)
    setup = load_setup(files)
    groups = _comm_groups(prefix, comm_groups)
    if backend == "builtin":
        result = simulate(prefix, setup.system, setup.network, comm_groups=groups,
                          replicate=not full)
    else:
        result = _run_astra_sim(astra_sim, prefix, files, groups, setup.network.num_npus)
    if timeline is not None:
        write_timeline(result, timeline)
    if as_json:
        typer.echo(json.dumps(result.as_json()))
    else:
        _print_table(result)
