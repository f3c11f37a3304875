"""``hespas_py.estimate``: a JAX step in, a `Report` out, in one call from Python.

The step is exported where its device count can be set: a factory (``FILE.py:FACTORY`` or a
module-level function) runs in a fresh Python process, exactly as ``hespas export FACTORY
--devices N --set KEY=VALUE ...`` (`hespas_py.export.export_in_subprocess`), so the calling
process may have imported JAX with any devices. That costs a Python start, a JAX import, the
factory, its lowering and XLA's compile up to the SPMD partitioner: about 1.5 s for a small
step, a few seconds for an 8B-parameter one on 256 devices. The exported module then goes
through ``hespas gen NODE --system-config SYSTEM`` in this process; the report's figures are
that command's.
"""

from __future__ import annotations

import dataclasses
import html
import inspect
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hespas_py.errors import HespasError
from hespas_py.estimators.base import DEFAULT_ESTIMATOR
from hespas_py.export import export_in_subprocess
from hespas_py.export.partition import compile_with_dump, dumped_stablehlo
from hespas_py.export.step import partitions
from hespas_py.pipeline import DEFAULT_SPLIT
from hespas_py.run import Split, build_config, generate_and_simulate
from hespas_py.sim.config import Machine
from hespas_py.sim.timeline import write_timeline
from hespas_py.sweep.tasks import Figures
from hespas_py.units import memory_line


@dataclass(frozen=True)
class Report:
    """An estimated training step.

    Attributes:
        step_time_s: simulated step time (the slowest device's wall time); None without a system.
        compute_s: the slowest device's GPU time (union of its compute intervals); without a
            system, the summed compute estimate of one device.
        comm_s: the slowest device's communication time; None without a system.
        exposed_comm_s: the slowest device's communication not hidden behind compute; None
            without a system.
        devices: devices the step runs on.
        node: the node preset or config file.
        system: the system preset or folder; None when not simulated.
        estimator: the estimator name.
        collectives: per collective kind, count and bytes (``module_stats.json``'s
            ``collectives``).
        memory: per-device memory (``peak_bytes``, ``capacity_bytes``, ``fits``, ...) when the
            memory analysis gives it, else None.
        top_ops: the ops of most estimated time (op, count, time_s, time_share).
        summary: ``hespas gen --json``'s whole summary, ``simulation`` included.
    """

    step_time_s: float | None
    compute_s: float
    comm_s: float | None
    exposed_comm_s: float | None
    devices: int
    node: str
    system: str | None
    estimator: str
    collectives: Mapping[str, Any]
    memory: Mapping[str, Any] | None
    top_ops: tuple[Mapping[str, Any], ...]
    summary: Mapping[str, Any] = field(repr=False)
    simulation: Any = field(default=None, repr=False, compare=False)

    @property
    def fits(self) -> bool | None:
        """Whether the step fits in one device's memory; None when unknown."""
        return None if self.memory is None else self.memory.get("fits")

    def to_dict(self) -> dict[str, Any]:
        """Every field but the simulation, as JSON-encodable values."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name != "simulation"}

    def timeline(self, path: str | Path) -> Path:
        """Write the simulated step as Chrome/Perfetto trace-event JSON (ui.perfetto.dev) to
        ``path`` (its folder made if missing); the path."""
        if self.simulation is None:
            raise HespasError("no timeline: the step was not simulated (pass system=)")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_timeline(self.simulation, path)
        return path

    def _lines(self) -> list[tuple[str, str]]:
        ms = lambda s: "-" if s is None else f"{s * 1e3:,.3f} ms"  # noqa: E731
        lines = [("step time", ms(self.step_time_s)), ("compute", ms(self.compute_s)),
                 ("exposed comm", ms(self.exposed_comm_s)),
                 ("machine", f"{self.devices} devices, {self.node} ({self.estimator})"
                  + (f" on {self.system}" if self.system else ""))]
        if self.memory is not None:
            lines.append(("memory", memory_line(self.memory)))
        for kind, entry in self.collectives.items():
            lines.append(("collective", f"{kind}: {entry['count']} x, "
                          f"{entry['bytes'] / 1e6:,.1f} MB"))
        for op in self.top_ops:
            lines.append(("top op", f"{op['op']}: {op['count']} x, {op['time_s'] * 1e3:,.3f} ms "
                          f"({op['time_share']:.1%})"))
        return lines

    def __str__(self) -> str:
        width = max(len(k) for k, _ in self._lines())
        return "\n".join(f"{k:<{width}}  {v}" for k, v in self._lines())

    def __rich__(self) -> Any:
        from rich.table import Table

        table = Table(show_header=False, title="hespas estimate", title_justify="left")
        table.add_column(style="bold")
        table.add_column()
        for key, value in self._lines():
            table.add_row(key, value)
        return table

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th>"
                       f"<td style='text-align:left'>{html.escape(v)}</td></tr>"
                       for k, v in self._lines())
        return f"<table><caption>hespas estimate</caption>{rows}</table>"


def _factory_spec(step: Callable) -> str:
    """``FILE.py:NAME`` of a module-level function."""
    name = getattr(step, "__qualname__", "")
    try:
        source = inspect.getsourcefile(step)
    except TypeError:
        source = None
    if not source or not name or "." in name or "<" in name:
        raise HespasError(f"{getattr(step, '__name__', step)!r}: a step function must be defined "
                          "at the top level of a .py file (it is loaded from there in a fresh "
                          "process); pass 'FILE.py:FACTORY' otherwise")
    return f"{source}:{name}"


def _lowered_text(lowered: Any, scratch: Path) -> str:
    """StableHLO of the per-device program of a ``jax.stages.Lowered``: its own module on one
    device; on several, XLA's module after the SPMD partitioner, compiled in this process."""
    devices = partitions(lowered)
    if devices == 1:
        return lowered.as_text()
    dump = scratch / "dump"
    compile_with_dump(lowered, dump, "lowered step")
    return dumped_stablehlo(dump, devices, "lowered step")


def _module_file(step: Any, devices: int | None, kwargs: Mapping[str, Any],
                 scratch: Path) -> Path:
    """A StableHLO file of the step's per-device program."""
    if hasattr(step, "compiler_ir") and hasattr(step, "compile"):  # jax.stages.Lowered
        text = _lowered_text(step, scratch)
    elif isinstance(step, str) and ("func.func" in step or step.lstrip().startswith("module")):
        text = step  # StableHLO text
    elif isinstance(step, (str, Path)) and str(step).endswith((".mlir", ".mlir.gz", ".mlirbc")):
        return Path(step)
    else:
        spec = _factory_spec(step) if callable(step) else str(step)
        if devices is None:
            raise HespasError(f"{spec}: devices= is needed to export a factory")
        text = export_in_subprocess(spec, devices, kwargs=kwargs)
    path = scratch / "step.mlir"
    path.write_text(text)
    return path


def estimate(step: Any, devices: int | None = None, node: str = "H100_80GB",
             system: str | None = None, *, estimator: str = DEFAULT_ESTIMATOR,
             split_strategy: str = DEFAULT_SPLIT, block_lim: int | None = None,
             combine_threshold: int | str | None = None, out: str | Path | None = None,
             **factory_kwargs: Any) -> Report:
    """Estimate one training step on ``devices`` x ``node`` connected as ``system``.

    Args:
      step: ``"FILE.py:FACTORY"`` or a module-level factory function (exported in a fresh
        process, called with ``factory_kwargs``); a ``jax.stages.Lowered`` (on one device its
        module is used as it is; on several it is compiled in this process up to XLA's SPMD
        partitioner, with XLA's whole CPU pipeline running after it); StableHLO text; or a
        ``.mlir`` file.
      devices: the device count a factory's step runs on (others carry their own).
      node: node preset, preset folder or config file (``hespas gen CONFIG``).
      system: system preset or ASTRA-sim folder to simulate on; None: compute only.
      estimator, split_strategy, block_lim, combine_threshold: as ``hespas gen``'s
        (``--estimator``, ``--split_fn``, ...).
      out: keep the traces and ``module_stats.json`` in this folder (replaced if it exists).
      **factory_kwargs: keyword arguments of the factory (a layout: ``dp=2, tp=4``, ...).

    Raises:
      HespasError: bad input (the one line ``hespas`` would print).
    """
    with tempfile.TemporaryDirectory(prefix="hespas_estimate_") as scratch_dir:
        scratch = Path(scratch_dir)
        machine = Machine.load(system) if system else None
        mlir = _module_file(step, devices, factory_kwargs, scratch)
        config = build_config(
            node, estimator=estimator, mlir_file=mlir,
            output_dir=Path(out) if out else scratch / "traces",
            split=Split(split_strategy=split_strategy, block_lim=block_lim,
                        combine_threshold=combine_threshold), clean=True)
        run = generate_and_simulate(config, machine)
    summary = run.summary
    figures = (dataclasses.asdict(Figures.of(run.simulation)) if run.simulation is not None else
               {**dict.fromkeys(f.name for f in dataclasses.fields(Figures)),
                "compute_s": summary["compute_estimate_s"]})
    return Report(**figures, devices=run.result.layout.num_devices, node=node, system=system,
                  estimator=config.estimator, collectives=summary["collectives"],
                  memory=summary.get("memory"), top_ops=tuple(summary["top_ops"]),
                  summary=summary, simulation=run.simulation)
