"""``hespas calibrate``: time the local accelerator's kernel classes and write a node preset
(and, with several local devices, a system preset) whose measured values each say where they
come from. What each kind measures and how: `hespas_py.calibrate`, docs/calibration.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from hespas_py.cli.main import app
from hespas_py.errors import HespasError


def _reference_and_base(info: dict[str, Any], base: str | None):
    """(reference preset, base preset) of a run on this machine: the reference is the local
    chip's preset (by ``device_kind``), else the base itself."""
    from hespas_py.calibrate.preset import load_base
    from hespas_py.calibrate.run import device_preset

    own = device_preset(info["device_kind"])
    name = base or own
    if name is None:
        raise HespasError(f"no node preset is a {info['device_kind']!r}: pass --base PRESET "
                          "(the datasheet the measured shares are taken of)")
    chosen = load_base(name)
    return (load_base(own) if own and own != chosen.name else chosen), chosen


def _from_file(path: Path, base: str | None):
    """(document, reference, base) of ``--from``: the earlier run's reference datasheet."""
    from hespas_py.calibrate.preset import load_base, reference_preset
    from hespas_py.calibrate.run import read_calibration

    doc = read_calibration(path)
    ref = doc["reference"]
    reference = reference_preset(ref["name"], ref.get("datasheet", ""), ref["hardware"],
                                 path.parent)
    return doc, reference, (load_base(base) if base else reference)


def _measure(kinds: list[str], budget, reference) -> tuple[dict[str, Any], float]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from hespas_py.calibrate.preset import REFERENCE_METHOD
    from hespas_py.calibrate.run import planned, run

    hardware = reference.hardware_for(REFERENCE_METHOD)
    total = sum(planned(kinds, budget, hardware).values())
    with Progress(TextColumn("{task.description:<36}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("calibrating", total=total)
        started = [0]

        def tick(label: str) -> None:  # called as each case starts
            bar.update(task, description=label, completed=started[0])
            started[0] += 1
        raw, seconds = run(kinds, budget, hardware, tick)
        bar.update(task, completed=total)
    return raw, seconds


def _cells(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "-" if value is None else str(value).lower()
    return f"{value:.4g}" if isinstance(value, (int, float)) else str(value)


def print_outcome(outcome, base, out: Path) -> None:
    """The preset value, measured value and ratio of every measured param; the other figures."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from hespas_py.calibrate.preset import REFERENCE_METHOD

    console = Console()
    info, base_name = outcome.calibration["run"], base.name
    table = Table(title=f"{out}: {base_name} calibrated on {info['device_kind']}",
                  title_justify="left")
    for column in ("param", base_name, "measured", "ratio", "in the preset"):
        left = column in ("param", "in the preset")
        table.add_column(column, justify="left" if left else "right",
                         overflow="fold" if left else "ellipsis")
    base_hw = base.section(REFERENCE_METHOD)
    for entry in outcome.entries:
        m = entry.measured
        old = base_hw.get(m.param)
        rows = ([(f"{m.param}[{k}]", (old or {}).get(k), v) for k, v in m.value.items()]
                if isinstance(m.value, dict) else [(m.param, old, m.value)])
        for name, before, after in rows:
            ratio = (f"{after / before:.3f}" if isinstance(after, (int, float))
                     and isinstance(before, (int, float)) and not isinstance(after, bool)
                     and before else "")
            table.add_row(escape(name), _cells(before), _cells(after), ratio,
                          entry.status if entry.applied else f"[dim]{entry.status}[/dim]")
    console.print(table)
    if outcome.observations:
        other = Table(title="other figures (not preset params): measured vs the calibrated model",
                      title_justify="left")
        for column in ("figure", "measured", "model", "unit"):
            other.add_column(column, justify="left" if column == "figure" else "right")
        for o in outcome.observations:
            other.add_row(o.label, _cells(o.measured), _cells(o.modelled), o.unit)
        console.print(other)
    network = outcome.calibration.get("network")
    if network:
        console.print(f"system preset {out / 'system'}: {network['npus']} devices, "
                      f"{network['bandwidth_gb_s']:,.1f} GB/s (2^30) per link, "
                      f"{network['latency_ns']:,.0f} ns per hop (from the all-reduce)")
    console.print(f"carried from {base_name} unmeasured: {', '.join(outcome.carried)}")
    console.print(f"measured in {outcome.calibration['measure_seconds']:.1f} s "
                  f"({outcome.calibration['mode']}); raw figures: {out / 'calibration.json'}")


@app.command("calibrate")
def calibrate(
    base: str | None = typer.Option(
        None, "--base", help="Node preset (name or directory) to write the measured values "
        "over: the local chip's by default; another chip's datasheet carries the measured "
        "efficiencies over to that chip."),
    out: Path | None = typer.Option(
        None, "--out", help="Preset directory to write (default: calibrated_<BASE>)."),
    quick: bool = typer.Option(False, "--quick", help="Smaller sizes: under a minute on a GPU."),
    only: str | None = typer.Option(
        None, "--only", metavar="KIND,...",
        help="Kinds to run: launch, stream, gemm, conv, row, elementwise, collective."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out."),
    source: Path | None = typer.Option(
        None, "--from", help="Derive from an earlier run's calibration.json instead of "
        "measuring (with --base: for another chip)."),
) -> None:
    """Measure the local accelerator and write a node preset from what it measured."""
    from hespas_py.calibrate.preset import write
    from hespas_py.calibrate.run import apply, parse_kinds
    from hespas_py.calibrate.timing import Budget, run_info
    from hespas_py.hardware.presets import preset_of
    from hespas_py.output_dir import check_target, staged

    kinds = parse_kinds(only)
    if source is not None:
        doc, reference, chosen = _from_file(source, base)
        info, mode = doc["run"], doc["mode"]
    else:
        info = run_info()
        reference, chosen = _reference_and_base(info, base)
        mode = "quick" if quick else "full"
    target = out if out is not None else Path(f"calibrated_{chosen.name}")
    check_target(target, force, "--force")
    with staged(target, force, "--force") as staging:
        if source is not None:
            raw = {k: v for k, v in doc["kinds"].items() if k in kinds}
            seconds = float(doc.get("measure_seconds", 0.0))
        else:
            raw, seconds = _measure(kinds, Budget.of(info["platform"], quick), reference)
        outcome = apply(raw, info, reference, chosen, mode, seconds)
        preset_of(outcome.document, target)  # checked, naming the folder written
        write(staging, outcome.document, outcome.calibration, outcome.system)
    print_outcome(outcome, chosen, target)
