"""``hespas gen``: StableHLO -> per-device Chakra traces (also the ``hespas_chakra_gen`` tool).

Why and how: docs/commands.md.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from hespas_py.errors import HespasError
from hespas_py.hardware.config import param_values
from hespas_py.hardware.describe import param_help

_LOG_LEVELS = ("debug", "info", "warning", "error")


def _setup_logging(level: str, path: Path | None) -> None:
    if level.lower() not in _LOG_LEVELS:
        raise HespasError(f"--log-level must be one of {', '.join(_LOG_LEVELS)}, not {level!r}")
    handler: logging.Handler
    try:
        handler = logging.FileHandler(path) if path else logging.StreamHandler(sys.stderr)
    except OSError as exc:
        raise HespasError(f"{path}: cannot write log ({exc.strerror})") from None
    handler.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    logger = logging.getLogger("hespas_py")
    logger.handlers[:] = [handler]
    logger.setLevel(level.upper())
    logger.propagate = False


def _progress_bar():
    """A rich progress display and the pipeline hook that drives it."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # Redrawn by the hook, not by rich's refresh thread: a process with a thread does not fork
    # (`hespas_py.forking`), and the reader and writer do on big modules.
    progress = Progress(TextColumn("{task.description:>9}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), transient=True, auto_refresh=False)
    tasks: dict[str, Any] = {}

    def hook(phase: str, done: int, total: int) -> None:
        if phase not in tasks:
            tasks[phase] = progress.add_task(phase, total=total or None)
        progress.update(tasks[phase], completed=done, total=total or None, refresh=True)

    return progress, hook


def print_summary(summary: Mapping[str, Any]) -> None:
    """The human-readable summary: headline figures and the top ops by time; rich tables on a
    terminal, plain aligned text otherwise (a pipe or a log file gets no box characters, and
    a scripted run does not load rich)."""
    rows = _headline(summary)
    columns = ("op", "count", "time (ms)", "share")
    top = [(entry["op"], str(entry["count"]), f"{entry['time_s'] * 1e3:,.3f}",
            f"{entry['time_share']:.1%}") for entry in summary["top_ops"]]
    if not sys.stdout.isatty():
        key_width = max(len(key) for key, _ in rows)
        print("\n".join(f"{key:<{key_width}}  {value}" for key, value in rows))
        widths = [max(len(row[k]) for row in (columns, *top)) for k in range(len(columns))]
        print("top ops by estimated time")
        for row in (columns, *top):
            print("  ".join([row[0].ljust(widths[0]),
                             *(cell.rjust(w)
                               for cell, w in zip(row[1:], widths[1:], strict=True))]))
        return
    from rich.console import Console
    from rich.table import Table

    head = Table(show_header=False, box=None, pad_edge=False)
    head.add_column(style="bold")
    head.add_column()
    for key, value in rows:
        head.add_row(key, value)
    table = Table(title="top ops by estimated time")
    for column in columns:
        table.add_column(column, justify="left" if column == "op" else "right")
    for row in top:
        table.add_row(*row)
    console = Console()
    console.print(head)
    console.print(table)


def _headline(summary: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The summary's headline figures, as (label, text) rows."""
    from hespas_py.units import memory_line

    nodes = summary["nodes_per_device"]
    split = summary["split"]
    rows = [
        ("module", summary["mlir_file"]),
        ("hardware", summary["hardware"]),
        ("estimator", summary["estimator"]
         + (f" (times measured on {summary['measured_on']})" if "measured_on" in summary else "")),
        ("split", " ".join([split["strategy"], *(f"{k}={v}" for k, v in split.items()
                                                  if k != "strategy")])),
        ("devices", str(summary["num_devices"])),
        ("compute estimate", f"{summary['compute_estimate_s'] * 1e3:,.3f} ms per step"
         + (f" (host dispatch {summary['host_dispatch_s'] * 1e3:,.3f} ms)"
            if summary["host_dispatch_s"] else "")),
        ("FLOPS utilisation", f"{summary['flops_utilization']:.3f}"),
        ("memory BW utilisation", f"{summary['memory_bandwidth_utilization']:.3f}"),
        ("peak memory", memory_line(summary["memory"])),
        ("nodes per device", ", ".join(f"{n} {k}" for k, n in nodes.items()) or "none"),
        ("trace files", f"{summary['num_devices']} ({summary['trace_files']} distinct)"),
        ("comm groups", json.dumps(summary["comm_groups"]) if summary["comm_groups"] else "none"),
        ("output", summary["output_dir"]),
    ]
    simulation = summary.get("simulation")
    if simulation:
        worst = max(simulation["devices"], key=lambda d: d["wall_time_ns"])
        rows.append(("simulated step", f"{simulation['step_time_s'] * 1e3:,.3f} ms on "
                     f"{simulation['system']} (exposed comm "
                     f"{worst['exposed_comm_ns'] / 1e6:,.3f} ms)"))
    if summary["loops"]:
        rows.append(("expanded loops", ", ".join(
            f"{loop['where']} x{loop['trips']} ({loop['trips_from']})" for loop in summary["loops"])))
    for assumption in summary["assumptions"]:
        rows.append(("assumed", f"{assumption['where']}: {assumption['detail']}"))
    if summary["fallback_ops"]:
        rows.append(("fallback ops", ", ".join(f"{k} x{n}"
                                               for k, n in summary["fallback_ops"].items())))
    return rows


@dataclass(frozen=True)
class Param:
    """One command-line parameter of ``gen``.

    Attributes:
        name: the keyword `run` takes it as.
        flags: its flags, an on/off pair written ``--merge/--no-merge``; none for the positional
            CONFIG.
        type: its value's type: str, int, Path, bool (a flag or an on/off pair) or list (a
            repeatable str option).
        default: its value when not given (None: not given).
        help: one line of help.
        metavar: how the help names its value ("": after its type).
    """

    name: str
    flags: tuple[str, ...]
    type: type
    default: Any
    help: str
    metavar: str = ""


#: The parameters of ``gen``, in help order: `hespas_py.cli.gen_command` makes them typer's
#: ``hespas gen``, `parse_args` the ``hespas_chakra_gen`` command line.
PARAMS: tuple[Param, ...] = (
    Param("config", (), str, None, "Config file (JSON) or node preset name."),
    Param("mlir_file", ("--mlir_file", "--mlir-file"), Path, None,
          "StableHLO module (overrides the config)."),
    Param("output", ("--output", "-o"), Path, None, "Output directory (overrides the config)."),
    Param("split_fn", ("--split_fn", "--split-fn"), str, None,
          "individual_split or linear_split."),
    Param("merge", ("--merge/--no-merge",), bool, None, "individual_split: fuse compute chains."),
    Param("block_lim", ("--block_lim", "--block-lim"), int, None,
          "linear_split: most ops per compute block."),
    Param("num_npus", ("--num_npus", "--num-npus"), int, None,
          "Devices, for a module that declares one."),
    Param("module", ("--module",), int, None,
          "Which module (from 1) of a file that holds several ('// -----' separated)."),
    Param("loop_trips", ("--loop-trips", "--loop_trips"), int, None,
          "Iterations of a while loop whose trip count the module does not give (default 1; "
          "reported as an assumption)."),
    Param("combine_threshold", ("--combine-threshold", "--combine_threshold"), str, None,
          "Merge independent collectives of one kind and group up to BYTES each, as XLA's "
          "collective combiners do (GPU default 31457280); per kind: all_reduce=B,all_gather=B,"
          "reduce_scatter=B (kinds left out: off); 0 or unset: off.", "BYTES"),
    Param("estimator", ("--estimator",), str, None,
          "Estimator (roofline, fused_roofline, xla_cost, xla_profile); default: the config's "
          "method, or fused_roofline for a preset name."),
    Param("params", ("--param",), list, None, param_help(), "KEY=VALUE"),
    Param("allow_other_device", ("--allow-other-device",), bool, False,
          "xla_profile: time the blocks on this machine although the preset names another chip "
          "(the param allow_other_device=true)."),
    Param("collective_rewrites", ("--collective-rewrites/--no-collective-rewrites",), bool, None,
          "Apply XLA's collective rewrites (all-reduce + dynamic-slice by device id -> "
          "reduce-scatter); default: the config's collective_rewrites, else on for GPU presets "
          "(hardware compiler xla_gpu)."),
    Param("memory", ("--memory/--no-memory",), bool, None,
          "Analyse the per-device peak memory (a second fusion plan of the step); default: the "
          "config's memory, else on (hespas_chakra_gen: off, as the published tool)."),
    Param("clean", ("--clean",), bool, False, "Replace an existing output directory."),
    Param("cache_dir", ("--cache-dir",), Path, None, "Estimate cache directory (shared by runs)."),
    Param("json_out", ("--json",), bool, False, "Print the summary as JSON on stdout."),
    Param("system_config", ("--system-config",), str, None,
          "Machine to simulate on after writing: a folder with system.json and network.yml (or "
          "astra-sim/ inside it), or a configs/systems preset."),
    Param("threads", ("--threads",), int, -1,
          "Accepted for Hespas compatibility; generation is serial."),
    Param("log_level", ("--log-level",), str, "info", "debug, info, warning or error."),
    Param("log_path", ("--log-path",), Path, None, "Log to this file."),
)


class _OneLineErrors(argparse.ArgumentParser):
    """An argparse parser whose usage errors are `HespasError` (one ``error:`` line, exit 2)."""

    def error(self, message: str) -> NoReturn:
        raise HespasError(message)


def parse_args(prog: str, argv: Sequence[str]) -> dict[str, Any]:
    """`run`'s keyword arguments from a command line of `PARAMS` (argparse: no typer needed)."""
    parser = _OneLineErrors(prog=prog, description=run.__doc__, allow_abbrev=False)
    for param in PARAMS:
        extra = {"help": param.help, "default": param.default, "dest": param.name}
        if not param.flags:
            parser.add_argument(param.name, help=param.help)
        elif param.type is bool and "/" in param.flags[0]:
            on, off = param.flags[0].split("/")
            parser.add_argument(on, action="store_true", **extra)
            parser.add_argument(off, action="store_false", **{**extra, "help": None})
        elif param.type is bool:
            parser.add_argument(*param.flags, action="store_true", **extra)
        else:
            typed = {"action": "append"} if param.type is list else {"type": param.type}
            parser.add_argument(*param.flags, metavar=param.metavar or None, **typed, **extra)
    return vars(parser.parse_args(argv))


def run(config: str, mlir_file: Path | None, output: Path | None, split_fn: str | None,
        merge: bool | None, block_lim: int | None, num_npus: int | None,
        module: int | None, loop_trips: int | None, combine_threshold: str | None,
        estimator: str | None, params: list[str] | None, allow_other_device: bool,
        collective_rewrites: bool | None, memory: bool | None, clean: bool, cache_dir: Path | None,
        json_out: bool, system_config: str | None, threads: int, log_level: str,
        log_path: Path | None) -> None:
    """Generate per-device Chakra traces and module_stats.json from a StableHLO step."""
    from hespas_py.run import Split, build_config, generate_and_simulate

    _setup_logging(log_level, log_path)
    if allow_other_device:
        params = [*(params or ()), "allow_other_device=true"]
    machine = None
    if system_config:  # the simulator's modules load only for a run that simulates
        from hespas_py.sim.config import Machine

        machine = Machine.load(system_config)
    split = Split(split_strategy=split_fn.strip().lower() if split_fn else None,
                  block_lim=block_lim, merge=merge, combine_threshold=combine_threshold,
                  collective_rewrites=collective_rewrites)
    settings = build_config(
        config, mlir_file=mlir_file, output_dir=output, estimator=estimator,
        params=param_values(params or []), split=split, num_npus=num_npus, module=module,
        loop_trips=loop_trips, memory=memory, clean=clean or None, cache_dir=cache_dir)
    if sys.stdout.isatty() and not json_out:
        progress, hook = _progress_bar()
        with progress:
            run_ = generate_and_simulate(settings, machine, hook)
    else:
        run_ = generate_and_simulate(settings, machine)
    summary = run_.summary
    if machine is not None:
        logging.getLogger("hespas_py").info("simulated on %s", machine.label)
    if json_out:
        print(json.dumps(summary, indent=1))
    else:
        print_summary(summary)
