"""``hespas presets [--json]``: the shipped node presets (accelerators) and system presets
(machines: network and collective algorithms), with the figures that tell them apart."""

from __future__ import annotations

import json
from typing import Any

import typer

from hespas_py.cli.main import app


def node_rows() -> list[dict[str, Any]]:
    """One row per node preset: the estimators it runs with (every one: a method without a
    preset file of its own reads the roofline file's hardware), the one it runs by default, its
    dense bf16 peak and memory bandwidth."""
    from hespas_py.estimate.base import estimator_names
    from hespas_py.estimate.hardware import PRESET_METHOD, load_hardware, preset_names

    methods = estimator_names()
    rows = []
    for name in preset_names():
        hardware = load_hardware(name)
        rows.append({"name": name, "methods": methods, "default_method": PRESET_METHOD,
                     "bf16_tflops": hardware.per_dtype_flops.get("bf16", hardware.peak_flops) / 1e12,
                     "memory_gb_s": hardware.memory_bandwidth / 1e9})
    return rows


def system_rows() -> list[dict[str, Any]]:
    """One row per system preset: NPU count and, per network dimension (innermost first), its
    size, topology and link bandwidth (ASTRA-sim's GB/s, 2**30 bytes)."""
    from hespas_py.sim.config import PRESETS_DIR, load_system_dir, preset_names

    rows = []
    for name in preset_names():
        network = load_system_dir(PRESETS_DIR / name).network
        rows.append({"name": name, "npus": network.num_npus,
                     "dimensions": [{"npus": n, "topology": t, "bandwidth_gb_s": b}
                                    for n, t, b in zip(network.npus_count, network.topology,
                                                       network.bandwidth)]})
    return rows


def _print(nodes: list[dict[str, Any]], systems: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    methods = sorted({m for row in nodes for m in row["methods"]})
    default = nodes[0]["default_method"] if nodes else ""
    node_table = Table(title="node presets (CONFIG of hespas gen)", title_justify="left")
    for column in ("name", "bf16 TFLOP/s", "HBM GB/s"):
        node_table.add_column(column, justify="right" if "/s" in column else "left")
    for row in nodes:
        node_table.add_row(row["name"], f"{row['bf16_tflops']:,.0f}", f"{row['memory_gb_s']:,.0f}")
    system_table = Table(title="system presets (--system-config, --system)", title_justify="left")
    for column in ("name", "NPUs", "network (innermost first)"):
        system_table.add_column(column, justify="right" if column == "NPUs" else "left")
    for row in systems:
        system_table.add_row(row["name"], str(row["npus"]), " x ".join(
            f"{d['npus']} {d['topology']} @ {d['bandwidth_gb_s']:g} GB/s" for d in row["dimensions"]))
    console = Console()
    console.print(node_table)
    console.print("every node preset runs with --estimator "
                  + ", ".join(f"{m} (default)" if m == default else m for m in methods)
                  + " (xla_profile times this machine's device)", soft_wrap=True)
    console.print(system_table)


@app.command("presets")
def presets(json_out: bool = typer.Option(False, "--json", help="Print the presets as JSON.")) -> None:
    """List the shipped node presets and system presets."""
    nodes, systems = node_rows(), system_rows()
    if json_out:
        typer.echo(json.dumps({"nodes": nodes, "systems": systems}, indent=2))
    else:
        _print(nodes, systems)
