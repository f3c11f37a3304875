"""One run, however it is asked for: every entry point (``hespas gen`` and ``hespas_chakra_gen``,
`hespas_py.estimate`, sweeps and searches, ``hespas accuracy``) turns a node, an estimator, params,
split settings and a system into a `GenConfig` with `build_config`, and generates (and simulates)
it with `generate_and_simulate`.

Precedence, the published tool's: what the caller gives (None: not given) wins over the config
file, which wins over the defaults. The estimator is the caller's, else a config file's
``perf_estimator.estimator``, else (a node preset named alone) `DEFAULT_ESTIMATOR`. The published
tool's names (``perf_estimator.estimator``, ``split_strategy``, ``--split_fn``) are read here and
in the CLI; inside, the estimator is ``estimator`` and the split strategy ``split_strategy``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from hespas_py.errors import HespasError
from hespas_py.estimators.base import DEFAULT_ESTIMATOR, estimator_class
from hespas_py.hardware import Hardware
from hespas_py.hardware.config import check_params, declared_estimator
from hespas_py.hardware.presets import hardware_from_config, resolve_config
from hespas_py.pipeline import (
    DEFAULT_SPLIT,
    GenConfig,
    GenResult,
    ProgressHook,
    generate,
    rewrites_by_default,
)
from hespas_py.split import splitter
from hespas_py.split.combine import Thresholds

if TYPE_CHECKING:  # the simulator loads only for a run that simulates
    from hespas_py.sim.config import Machine
    from hespas_py.sim.result import SimResult


class Split(NamedTuple):
    """Split settings as given (None: the config file's, else the default; `GenConfig`).

    Attributes:
        split_strategy: ``linear_split`` or ``individual_split``.
        block_lim: linear_split's most ops per block.
        merge: individual_split's chain fusion.
        combine_threshold: bytes up to which independent collectives combine (a byte count, a
            ``{kind: bytes}`` mapping, ``kind=BYTES,...`` text or `Thresholds`).
        collective_rewrites: XLA's collective rewrites (default: the hardware's compiler's).
    """

    split_strategy: str | None = None
    block_lim: int | None = None
    merge: bool | None = None
    combine_threshold: Any = None
    collective_rewrites: bool | None = None


def build_config(config: str | Path, *, mlir_file: str | Path | None = None,
                 output_dir: str | Path | None = None, estimator: str | None = None,
                 params: Mapping[str, Any] | None = None, split: Split = Split(),
                 num_npus: int | None = None, module: int | None = None,
                 loop_trips: int | None = None, memory: bool | None = None,
                 clean: bool | None = None, cache_dir: str | Path | None = None,
                 disable_cache: bool | None = None) -> GenConfig:
    """The run of ``config`` (a published-format config file, a node preset's name or a preset
    folder) with the given settings over the file's (see the module docstring); ``params``:
    hardware params by key (``--param``'s `hespas_py.hardware.config.param_values`), checked
    for the estimator and added to the hardware's."""
    data, source, estimator, hardware = _resolve(config, estimator, params, "config file")
    perf = data["perf_estimator"]
    given = {"mlir_file": mlir_file, "output_dir": output_dir, "split_strategy":
             split.split_strategy, "merge": split.merge, "block_lim": split.block_lim,
             "num_npus": num_npus, "module": module, "loop_trips": loop_trips,
             "combine_threshold": split.combine_threshold,
             "collective_rewrites": split.collective_rewrites, "memory": memory, "clean": clean,
             "cache_dir": cache_dir, "disable_cache": disable_cache}
    settings = {**_file_settings(data, perf, hardware),
                **{k: v for k, v in given.items() if v is not None}}
    _check(settings, source)
    return GenConfig(
        mlir_file=Path(settings["mlir_file"]), output_dir=Path(settings["output_dir"]),
        hardware=hardware, estimator=estimator, split_strategy=settings["split_strategy"],
        merge=bool(settings["merge"]), block_lim=int(settings["block_lim"]),
        separator=settings["separator"], separator_policy=settings["separator_policy"],
        num_npus=settings["num_npus"], module=settings["module"],
        loop_trips=int(settings["loop_trips"]),
        combine_threshold=Thresholds.of(settings["combine_threshold"], "--combine-threshold"),
        collective_rewrites=bool(settings["collective_rewrites"]),
        memory=bool(settings["memory"]), clean=bool(settings["clean"]),
        cache_dir=Path(settings["cache_dir"]) if settings["cache_dir"] else None,
        disable_cache=bool(settings["disable_cache"]), source=source)


def node_hardware(config: str | Path, estimator: str | None = None,
                  params: Mapping[str, Any] | None = None) -> Hardware:
    """The `Hardware` a run of ``config`` models (as `build_config` resolves it)."""
    return _resolve(config, estimator, params, "hardware config file")[3]


def _resolve(config: str | Path, estimator: str | None, params: Mapping[str, Any] | None,
             what: str) -> tuple[dict[str, Any], str, str, Hardware]:
    """(config document, its source, the estimator, the hardware with ``params``) of a run."""
    estimator = estimator.strip().lower() if estimator else None
    data, source, preset = resolve_config(config, estimator or DEFAULT_ESTIMATOR, what)
    declared = declared_estimator(data, source)
    estimator = estimator or (DEFAULT_ESTIMATOR if preset else declared)
    estimator_class(estimator)  # an unknown name fails before the hardware section is read
    hardware = hardware_from_config(data, source, estimator, name=preset)
    if params:
        hardware = hardware.with_params(check_params(params, estimator))
    return data, source, estimator, hardware


def _file_settings(data: Mapping[str, Any], perf: Mapping[str, Any],
                   hardware: Hardware) -> dict[str, Any]:
    """A config file's settings, the defaults where it gives none (its published keys read)."""
    return {
        "mlir_file": data.get("mlir_file"),
        "output_dir": data.get("output_dir"),
        "split_strategy": data.get("split_strategy", DEFAULT_SPLIT).strip().lower(),
        "merge": data.get("merge", GenConfig.merge),
        "block_lim": data.get("block_lim", GenConfig.block_lim),
        "separator": data.get("separator", GenConfig.separator),
        "separator_policy": data.get("separator_policy",
                                     GenConfig.separator_policy).strip().lower(),
        "num_npus": hardware.params.num_npus,
        "module": None,
        "loop_trips": data.get("loop_trips", GenConfig.loop_trips),
        "combine_threshold": data.get("combine_threshold", 0),
        "collective_rewrites": data.get("collective_rewrites", rewrites_by_default(hardware)),
        "memory": data.get("memory", GenConfig.memory),
        "clean": data.get("clean", GenConfig.clean),
        "cache_dir": data.get("cache_dir", perf.get("cache_dir")),
        "disable_cache": data.get("disable_cache", perf.get("disable_cache",
                                                            GenConfig.disable_cache)),
    }


def _check(settings: Mapping[str, Any], source: str) -> None:
    """The settings no config schema checks (command-line values), before any work."""
    splitter(settings["split_strategy"])  # an unknown name fails here
    for key, flag in (("mlir_file", "--mlir_file"), ("output_dir", "--output")):
        if not settings[key]:
            raise HespasError(f"{source}: missing required key {key} (or pass {flag})")
    for key, flag in (("num_npus", "--num_npus"), ("module", "--module"),
                      ("block_lim", "--block_lim"), ("loop_trips", "--loop-trips")):
        if settings[key] is not None and settings[key] < 1:
            raise HespasError(f"{flag} must be at least 1, not {settings[key]}")


class Run(NamedTuple):
    """A generated step, simulated when a machine was given (`Split` and `Run` are named
    tuples: every run imports them, and a dataclass costs most of a millisecond to create).

    Attributes:
        result: what `hespas_py.pipeline.generate` produced.
        machine: the machine simulated on, or None.
        simulation: the simulated step, or None.
        summary: ``hespas gen --json``'s summary (``simulation`` added when simulated).
    """

    result: GenResult
    machine: Machine | None
    simulation: SimResult | None
    summary: Mapping[str, Any]


def generate_and_simulate(config: GenConfig, machine: Machine | None = None,
                          progress: ProgressHook | None = None) -> Run:
    """Generate ``config``'s traces and, given a ``machine`` (checked to have an NPU per device
    before anything is written), simulate them on it."""
    result = generate(config, progress, machine.check_layout if machine is not None else None)
    summary = dict(result.summary)
    simulation = None
    if machine is not None:
        simulation = machine.simulate(result.output_dir)
        summary["simulation"] = machine.summary(simulation)
    return Run(result, machine, simulation, summary)
