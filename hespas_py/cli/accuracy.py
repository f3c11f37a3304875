"""``hespas accuracy``: predicted step times against measured hardware.

For every row of the measured table (``hespas_py/data/step_times.csv``: published step times of
real machines) whose workload we have as StableHLO, the step is split (``linear_split`` with no
block limit: one compute block per stretch between collectives, so fusion is modelled across the
whole stretch), each block estimated on the row's node preset (``configs/nodes/<node>``), Chakra
traces written and the traces simulated on the row's system preset (``configs/systems``); the
predicted step time is the slowest device's simulated wall time.

Row names map to presets and workloads by rule: system ``<node>_x<N>`` uses node preset
``<node>`` and the system preset ``<node>_<N>GPU`` (or ``<node>_x<N>`` / ``<node>_<N>``);
workload ``<name>`` (``resnet50_train``, ``llama3-100m_train``) uses the shipped workload, or a
``.mlir`` file in a ``--workloads`` folder, named ``<name>`` or ``<name>_<suffix>``, ``-`` read
as ``_`` (e.g. ``--workloads ../shared/workloads`` for the published pmap ResNet-50 step).

Rows whose workload configuration was never published (`UNPUBLISHED_CONFIGS`) have no exact
reproduction: the shipped exports of them guess the model shape. They are skipped unless
``--approximate`` asks for them, and then marked ``≈`` and counted like the others.

Errors: ``error = estimated / measured - 1``. Trend error: the median, over every ordered pair
(a, b) of distinct evaluated rows that share a workload (a system comparison) or share a system
(a workload comparison), of ``|(est_a / est_b) / (meas_a / meas_b) - 1|``: how far the predicted
speed-up of a over b is from the measured one. None when no such pair exists.
"""

from __future__ import annotations

import csv
import io
import json
import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

import typer

from hespas_py.cli.main import app
from hespas_py.errors import HespasError
from hespas_py.resources import shipped

SYSTEMS_DIR = shipped("configs", "systems")
DEFAULT_ESTIMATOR = "fused_roofline"
#: Measured workloads whose configuration was not published (the measured table's README: "The
#: configs of the larger sizes were not published"); the shipped exports guess them
#: (workloads/README.md), so their error measures the guess as much as the estimator.
UNPUBLISHED_CONFIGS = frozenset({"llama3-200m_train", "llama3-500m_train", "llama3-1b_train",
                                 "llama3-2b_train", "llama3-3b_train"})
#: linear_split block limit that never cuts a stretch of compute ops.
_NO_LIMIT = 1 << 40


@dataclass(frozen=True)
class Measured:
    """One measured step time.

    Attributes:
        system: machine, ``<node>_x<devices>`` (``A100_SXM_40GB_x4``).
        workload: training step (``resnet50_train``).
        runtime_s: measured seconds per step.
    """

    system: str
    workload: str
    runtime_s: float


@dataclass(frozen=True)
class Case:
    """A measured row we can reproduce.

    Attributes:
        measured: the row.
        node: node preset name.
        system_dir: system preset folder.
        workload_file: the StableHLO step.
        approximate: whether the workload's configuration is our guess (`UNPUBLISHED_CONFIGS`).
    """

    measured: Measured
    node: str
    system_dir: Path
    workload_file: Path
    approximate: bool = False


@dataclass(frozen=True)
class Result:
    """One prediction.

    Attributes:
        case: what was predicted.
        estimator: estimator name.
        estimated_s: simulated step time.
    """

    case: Case
    estimator: str
    estimated_s: float

    @property
    def error(self) -> float:
        """Relative error of the prediction (positive: too slow)."""
        return self.estimated_s / self.case.measured.runtime_s - 1

    def as_json(self) -> dict:
        m = self.case.measured
        return {"system": m.system, "workload": m.workload, "estimator": self.estimator,
                "measured_s": m.runtime_s, "estimated_s": self.estimated_s, "error": self.error}


def read_measured(path: Optional[Path] = None) -> list[Measured]:
    """The measured table (the packaged one unless ``path`` is given)."""
    if path is None:
        text = shipped("data", "step_times.csv").read_text()
        source = "step_times.csv"
    else:
        try:
            text, source = path.read_text(), str(path)
        except OSError as exc:
            raise HespasError(f"{path}: cannot read ({exc.strerror or exc})") from None
    rows = []
    for line, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        try:
            rows.append(Measured(row["system"].strip(), row["workload"].strip(),
                                 float(row["runtime_s"])))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise HespasError(f"{source}: line {line}: expected system,workload,runtime_s") \
                from None
    return rows


def _norm(name: str) -> str:
    return name.lower().replace("-", "_")


def find_workload(name: str, folders: Iterable[Path]) -> Path | None:
    """The StableHLO file of workload ``name`` (see the module docstring), or None."""
    from hespas_py.export.workloads import workload_names, workload_path

    wanted = _norm(name)

    def matches(candidate: str) -> bool:
        return _norm(candidate) == wanted or _norm(candidate).startswith(wanted + "_")

    for known in workload_names():
        if matches(known):
            return workload_path(known)
    for folder in folders:
        for path in sorted(folder.glob("*.mlir")):
            if matches(path.stem):
                return path
    return None


def find_system(system: str, systems_dir: Path = SYSTEMS_DIR) -> tuple[str, Path] | None:
    """(node preset, system preset folder) of a measured system name, or None."""
    from hespas_py.estimate.hardware import preset_names

    node, _, count = system.rpartition("_x")
    if not node or not count.isdigit() or node not in preset_names():
        return None
    for candidate in (f"{node}_{count}GPU", system, f"{node}_{count}"):
        if (systems_dir / candidate).is_dir():
            return node, systems_dir / candidate
    return None


def plan_cases(rows: Iterable[Measured], folders: Iterable[Path], systems_dir: Path = SYSTEMS_DIR,
               approximate: bool = False) -> tuple[list[Case], list[str]]:
    """The reproducible rows (and, with ``approximate``, those of `UNPUBLISHED_CONFIGS`), and
    one line per row skipped saying why."""
    folders = list(folders)
    cases, skipped = [], []
    for row in rows:
        system = find_system(row.system, systems_dir)
        workload = find_workload(row.workload, folders)
        guessed = row.workload in UNPUBLISHED_CONFIGS
        if system is None:
            skipped.append(f"{row.system} {row.workload}: no node/system preset for {row.system}")
        elif workload is None:
            skipped.append(f"{row.system} {row.workload}: no StableHLO for {row.workload}")
        elif guessed and not approximate:
            skipped.append(f"{row.system} {row.workload}: configuration not published "
                           "(--approximate evaluates our guess)")
        else:
            cases.append(Case(row, system[0], system[1], workload, guessed))
    return cases, skipped


class DeviceCountMismatch(HespasError):
    """The workload runs on another number of devices than the row's system has."""


def predict(case: Case, estimator: str) -> float:
    """Simulated step time of ``case`` with ``estimator`` (seconds)."""
    from hespas_py.chakra.files import COMM_GROUP_FILE, TRACE_PREFIX
    from hespas_py.estimate.hardware import load_hardware
    from hespas_py.pipeline import GenConfig, generate
    from hespas_py.sim.config import load_system_dir
    from hespas_py.sim.simulate import simulate

    setup = load_system_dir(case.system_dir)
    with tempfile.TemporaryDirectory(prefix="hespas-accuracy-") as tmp:
        out = Path(tmp) / "traces"
        result = generate(GenConfig(
            mlir_file=case.workload_file, output_dir=out,
            hardware=load_hardware(case.node, estimator), method=estimator,
            split_strategy="linear_split", block_lim=_NO_LIMIT))
        if result.layout.num_devices != setup.network.num_npus:
            raise DeviceCountMismatch(f"{case.workload_file.name} runs on {result.layout.num_devices} devices, "
                                      f"{case.system_dir.name} has {setup.network.num_npus} NPUs")
        sim = simulate(out / TRACE_PREFIX, setup.system, setup.network,
                       comm_groups=out / COMM_GROUP_FILE)
    return sim.step_time_ns * 1e-9


def trend_error(results: list[Result]) -> float | None:
    """Median speed-up error over related ordered row pairs (see the module docstring)."""
    errors = []
    for a in results:
        for b in results:
            ma, mb = a.case.measured, b.case.measured
            if a is b or (ma.workload != mb.workload and ma.system != mb.system):
                continue
            predicted = a.estimated_s / b.estimated_s
            measured = ma.runtime_s / mb.runtime_s
            errors.append(abs(predicted / measured - 1))
    return statistics.median(errors) if errors else None


def _plot(results: list[Result], path: Path) -> None:
    from hespas_py.plotting import pyplot, save_figure

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(5.5, 5))
    for estimator in dict.fromkeys(r.estimator for r in results):
        mine = [r for r in results if r.estimator == estimator]
        ax.scatter([r.case.measured.runtime_s for r in mine], [r.estimated_s for r in mine],
                   label=estimator)
        for r in mine:
            ax.annotate(f"{r.case.measured.workload}\n{r.case.measured.system}",
                        (r.case.measured.runtime_s, r.estimated_s), fontsize=6)
    values = [v for r in results for v in (r.case.measured.runtime_s, r.estimated_s)]
    low, high = min(values) / 1.5, max(values) * 1.5
    ax.plot([low, high], [low, high], "k-", lw=0.8, label="measured")
    ax.fill_between([low, high], [low * 0.85, high * 0.85], [low * 1.15, high * 1.15],
                    color="grey", alpha=0.2, label="±15%")
    ax.set(xscale="log", yscale="log", xlabel="measured step time (s)",
           ylabel="estimated step time (s)", title="hespas_py accuracy")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save_figure(fig, path)


@dataclass(frozen=True)
class Evaluation:
    """Every prediction of one accuracy run.

    Attributes:
        results: one per reproducible row and estimator, rows in table order.
        trends: trend error per estimator (None without related rows).
        skipped: one line per measured row not evaluated, saying why.
    """

    results: list[Result]
    trends: dict[str, float | None]
    skipped: list[str]


def evaluate(estimators: Iterable[str], measured: Optional[Path] = None,
             workloads: Iterable[Path] = (), systems: Path = SYSTEMS_DIR,
             approximate: bool = False) -> Evaluation:
    """Predict every reproducible row of the measured table with each estimator (``approximate``:
    also the rows of `UNPUBLISHED_CONFIGS`)."""
    from hespas_py.estimate.base import estimator_class

    names = list(dict.fromkeys(estimators))
    for name in names:
        estimator_class(name)
    cases, skipped = plan_cases(read_measured(measured), workloads, systems, approximate)
    if not cases:
        raise HespasError("no measured row has a workload and presets to reproduce it")
    results = []
    for case in cases:
        try:
            results.extend(Result(case, name, predict(case, name)) for name in names)
        except DeviceCountMismatch as exc:
            skipped.append(f"{case.measured.system} {case.measured.workload}: {exc}")
    if not results:
        raise HespasError("no measured row has a workload that runs on its system")
    trends = {name: trend_error([r for r in results if r.estimator == name]) for name in names}
    return Evaluation(results, trends, skipped)


def print_table(evaluation: Evaluation) -> None:
    """The human-readable report: one row per prediction, trend errors, skipped rows."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="estimated vs measured step time")
    for column in ("system", "workload", "estimator", "measured (s)", "estimated (s)", "error"):
        table.add_column(column, justify="right" if "(" in column or column == "error" else "left")
    for r in evaluation.results:
        m = r.case.measured
        workload = f"≈ {m.workload}" if r.case.approximate else m.workload
        table.add_row(m.system, workload, r.estimator, f"{m.runtime_s:.3f}",
                      f"{r.estimated_s:.4f}", f"{r.error:+.1%}")
    console = Console()
    console.print(table)
    for estimator, trend in evaluation.trends.items():
        shown = "n/a (no related rows)" if trend is None else f"{trend:.1%}"
        console.print(f"trend error ({estimator}): {shown}")
    for line in evaluation.skipped:
        console.print(f"[dim]skipped: {line}[/dim]")


@app.command("accuracy")
def accuracy(
    json_out: bool = typer.Option(False, "--json", help="Print rows and trend error as JSON."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Draw measured vs estimated here."),
    estimators: Optional[list[str]] = typer.Option(
        None, "--estimator", help=f"Estimator to evaluate (repeatable; default {DEFAULT_ESTIMATOR})."),
    measured: Optional[Path] = typer.Option(None, "--measured",
                                            help="Measured table (default: the packaged one)."),
    workloads: Optional[list[Path]] = typer.Option(
        None, "--workloads", help="Extra folder of <workload>.mlir files (repeatable)."),
    systems: Path = typer.Option(SYSTEMS_DIR, "--systems", help="Folder of system presets."),
    approximate: bool = typer.Option(
        False, "--approximate", help="Also rows whose model configuration was never published "
                                     "(evaluated on our guessed export, marked ≈)."),
) -> None:
    """Compare predicted step times with measured hardware, row by row."""
    names = list(dict.fromkeys(estimators or [DEFAULT_ESTIMATOR]))
    evaluation = evaluate(names, measured, workloads or [], systems, approximate)
    if plot is not None:
        _plot(evaluation.results, plot)
    if json_out:
        first = names[0]
        print(json.dumps({"rows": [r.as_json() for r in evaluation.results
                                   if r.estimator == first],
                          "trend_error": evaluation.trends[first]}, indent=1))
    else:
        print_table(evaluation)
