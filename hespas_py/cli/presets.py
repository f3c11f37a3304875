"""``hespas presets [--json]``: the shipped node presets (accelerators) and system presets
(machines: network and collective algorithms), with the figures that tell them apart;
``--describe NAME``: every parameter of one node preset, with its unit, meaning and source."""

from __future__ import annotations

import functools
import json
import shutil
import textwrap
from typing import Any

import typer

from hespas_py.cli.main import app
from hespas_py.hardware import find_preset, preset_names
from hespas_py.hardware.describe import preset_rows


def node_rows() -> list[dict[str, Any]]:
    """One row per node preset: the estimators it runs with (every one: an estimator without
    params of its own in the preset reads its ``hardware``), the one it runs by default, its
    dense bf16 peak and memory bandwidth."""
    from hespas_py.estimators.base import DEFAULT_ESTIMATOR, estimator_names

    methods = estimator_names()
    rows = []
    for name in preset_names():
        hardware = find_preset(name).hardware_for("")
        rows.append({"name": name, "methods": methods, "default_method": DEFAULT_ESTIMATOR,
                     "bf16_tflops": hardware.per_dtype_flops.get("bf16",
                                                                 hardware.peak_flops) / 1e12,
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
                                                       network.bandwidth, strict=True)]})
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


def describe(name: str) -> dict[str, Any]:
    """Node preset ``name`` (or a preset folder): its methods and, per registry key, its value
    and source (`hespas_py.hardware.describe.preset_rows`)."""
    preset = find_preset(name)
    return {"name": preset.name, "alias_of": preset.alias_of or None, "datasheet": preset.datasheet,
            "methods": preset.estimator_names, "parameters": preset_rows(preset.every_key())}


def _shown(value: Any) -> str:
    """A parameter's value, short: numbers in ``%g``, tables as ``key value, ...``."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_shown(v)}" for k, v in value.items())
    if isinstance(value, float):
        return f"{value:g}"
    return json.dumps(value)


def _print_description(doc: dict[str, Any]) -> None:
    """One paragraph per parameter: ``key = value unit (read by)``, then its meaning and source;
    the parameters the preset leaves at their defaults after those it sets."""
    width = min(shutil.get_terminal_size().columns, 100)
    wrap = functools.partial(textwrap.fill, width=width, initial_indent="    ",
                             subsequent_indent="    ")
    alias = f" = {doc['alias_of']}" if doc["alias_of"] else ""
    lines = [f"{doc['name']}{alias} (estimators with params of their own: "
             f"{', '.join(doc['methods']) or 'none'})", wrap(f"datasheet: {doc['datasheet']}")]
    for given in (True, False):
        lines.append("" if given else "\nleft at their defaults:")
        for row in (r for r in doc["parameters"] if r["set"] == given):
            value = _shown(row["value"]) if given else row["value"]
            lines.append(f"{row['key']} = {value}{' ' + row['unit'] if row['unit'] else ''}"
                         f"  ({row['read_by']})")
            lines.append(wrap(row["meaning"]))
            if row["source"] and given and row["source"] != doc["datasheet"]:
                lines.append(wrap(f"source: {row['source']}"))
    print("\n".join(lines))


@app.command("presets")
def presets(json_out: bool = typer.Option(False, "--json", help="Print the presets as JSON."),
            name: str | None = typer.Option(
                None, "--describe", metavar="NAME",
                help="Every parameter of node preset NAME (or a preset folder): value (dim: the "
                     "default), unit, what reads it, meaning, source.")) -> None:
    """List the shipped node presets and system presets."""
    if name is not None:
        doc = describe(name)
        if json_out:
            typer.echo(json.dumps(doc, indent=2))
        else:
            _print_description(doc)
        return
    nodes, systems = node_rows(), system_rows()
    if json_out:
        typer.echo(json.dumps({"nodes": nodes, "systems": systems}, indent=2))
    else:
        _print(nodes, systems)
