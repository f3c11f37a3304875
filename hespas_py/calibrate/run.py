"""The calibration driver: run the chosen kinds on the local devices, derive the preset params,
and apply them to a base preset (the measured chip's own datasheet, or another chip's).

Each kind is a module of this package with ``count(budget, reference)``, ``measure(budget,
reference, tick)`` -> raw JSON, and optionally ``derive(raw, context)`` -> `Measured` params and
``observations(raw, context)`` -> `Observation` figures. Kinds derive in `KINDS` order, each seeing
the params the earlier ones measured (`model.Context`): launch before the rates that subtract
it, streams before the compute rates that subtract memory time, GEMMs before convolutions.
"""

from __future__ import annotations

import dataclasses
import importlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hespas_py.calibrate.model import Context, Measured, Observation
from hespas_py.calibrate.preset import (
    REFERENCE_METHOD,
    carried,
    entries,
    node_document,
    system_files,
)
from hespas_py.calibrate.timing import Budget
from hespas_py.errors import HespasError
from hespas_py.hardware import NodePreset, read_config

#: Kind name -> module, in derivation order.
KINDS: Mapping[str, str] = {
    "launch": "hespas_py.calibrate.launch",
    "stream": "hespas_py.calibrate.streams",
    "gemm": "hespas_py.calibrate.gemms",
    "conv": "hespas_py.calibrate.convolutions",
    "row": "hespas_py.calibrate.rows",
    "elementwise": "hespas_py.calibrate.elementwise",
    "collective": "hespas_py.calibrate.collectives",
}

#: (text in ``device_kind``, node preset), first match wins: the preset of the local chip.
DEVICE_PRESETS = (
    ("H200", "H200_141GB"), ("H100", "H100_80GB"), ("B200", "B200_180GB"),
    ("A100-SXM4-80GB", "A100_SXM_80GB"), ("A100-SXM4-40GB", "A100_SXM_40GB"),
    ("A100 80GB PCIe", "A100_PCIe_80GB"), ("A100-PCIE-40GB", "A100_PCIe_40GB"),
    ("V100", "V100_32GB"), ("MI300X", "MI300X"), ("TPU v3", "TPUv3"), ("TPU v4", "TPUv4"),
    ("TPU v5 lite", "TPUv5e"), ("TPU v5e", "TPUv5e"), ("TPU v5", "TPUv5p"),
    ("TPU v6", "TPUv6e"), ("TPU7x", "TPU7x"),
)


def device_preset(device_kind: str) -> str | None:
    """The node preset of a JAX ``device_kind`` (None when no preset is that chip)."""
    return next((preset for text, preset in DEVICE_PRESETS if text in device_kind), None)


def parse_kinds(text: str | None) -> list[str]:
    """The kinds of ``--only a,b`` in `KINDS` order (all when None)."""
    if text is None:
        return list(KINDS)
    wanted = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in wanted if k not in KINDS]
    if unknown or not wanted:
        raise HespasError(f"--only {text!r}: unknown calibration kind "
                          f"{(unknown or [''])[0]!r} (known: {', '.join(KINDS)})")
    return [k for k in KINDS if k in wanted]


def _module(kind: str):
    return importlib.import_module(KINDS[kind])


def planned(kinds: list[str], budget: Budget, reference) -> dict[str, int]:
    """Timed cases per kind (what the progress bar counts)."""
    return {kind: _module(kind).count(budget, reference) for kind in kinds}


def measure(kinds: list[str], budget: Budget, reference,
            tick: Callable[[str], None]) -> dict[str, Any]:
    """Raw results per kind, each with the ``seconds`` it took (kinds with no case on this
    machine are left out)."""
    raw = {}
    for kind, cases in planned(kinds, budget, reference).items():
        if cases:
            start = time.perf_counter()
            raw[kind] = {**_module(kind).measure(budget, reference, tick),
                         "seconds": time.perf_counter() - start}
    return raw


@dataclass(frozen=True)
class Derived:
    """What one calibration says about its chip.

    Attributes:
        measured: the params, against the reference datasheet.
        observations: figures measured beside what the calibrated model gives for them.
        network: the local devices' network from the collectives (None without them).
    """

    measured: list[Measured]
    observations: list[Observation]
    network: dict[str, Any] | None


def derive(raw: Mapping[str, Any], reference) -> Derived:
    """Params and observations from raw results, against ``reference`` (a `Hardware`)."""
    from hespas_py.calibrate.collectives import network

    ctx = Context(reference)
    measured: list[Measured] = []
    for kind in KINDS:
        module = _module(kind)
        if kind in raw and hasattr(module, "derive"):
            found = module.derive(raw[kind], ctx)
            ctx.derived.update({m.param: m.value for m in found})
            measured += found
    observations = [o for kind in KINDS if kind in raw and hasattr(_module(kind), "observations")
                    for o in _module(kind).observations(raw[kind], ctx)]
    return Derived(measured, observations,
                   network(raw["collective"]) if "collective" in raw else None)


def run(kinds: list[str], budget: Budget, reference,
        tick: Callable[[str], None]) -> tuple[dict[str, Any], float]:
    """(raw results, seconds the measuring took)."""
    start = time.perf_counter()
    raw = measure(kinds, budget, reference, tick)
    return raw, time.perf_counter() - start


def stamp(info: Mapping[str, Any]) -> str:
    """Where and when a calibration ran, for every source it writes."""
    return (f"hespas calibrate on {info['device_kind']} ({info['devices']} local device"
            f"{'s' if info['devices'] != 1 else ''}), jax {info['jax']}, jaxlib {info['jaxlib']}, "
            f"{info['date']}")


@dataclass(frozen=True)
class Outcome:
    """A calibration applied to a base preset.

    Attributes:
        calibration: the ``calibration.json`` document (raw results, reference, derivation).
        entries: each measured param and what became of it on the base.
        carried: the base's keys kept as they were.
        observations: figures beside the calibrated model's.
        document: the node preset's ``node.json``.
        system: the system preset's files (None without collectives).
    """

    calibration: dict[str, Any]
    entries: list[Any]
    carried: list[str]
    observations: list[Observation]
    document: dict[str, Any]
    system: dict[str, str] | None


def apply(raw: Mapping[str, Any], info: Mapping[str, Any], reference: NodePreset,
          base: NodePreset, mode: str, seconds: float) -> Outcome:
    """Derive the params of ``raw`` against ``reference`` (the measured chip's datasheet preset)
    and write them over ``base`` (the same chip, or another one's datasheet: then only the
    efficiencies carry over)."""
    derived = derive(raw, reference.hardware_for(REFERENCE_METHOD))
    same = reference.name == base.name
    device = info["device_kind"] + ("" if same else f" against {reference.name}")
    chosen = entries(derived.measured, same, device)
    document = node_document(base, chosen, stamp(info))
    system = (system_files(derived.network, base.hardware, stamp(info))
              if derived.network else None)
    doc: dict[str, Any] = {"run": dict(info), "mode": mode, "measure_seconds": seconds,
                          "reference": {"name": reference.name, "datasheet": reference.datasheet,
                                        "hardware": reference.section(REFERENCE_METHOD)},
                          "base": base.name, "kinds": dict(raw),
                          "measured": [{**dataclasses.asdict(e.measured), "applied": e.applied,
                                        "status": e.status} for e in chosen],
                          "carried": carried(base, chosen),
                          "observations": [dataclasses.asdict(o) for o in derived.observations],
                          "network": derived.network}
    return Outcome(doc, chosen, doc["carried"], derived.observations, document, system)


def read_calibration(path) -> dict[str, Any]:
    """An earlier run's ``calibration.json`` (``--from``): `HespasError` naming it if it is
    not one."""
    doc = read_config(path)
    missing = [k for k in ("run", "mode", "reference", "kinds") if k not in doc]
    if missing:
        raise HespasError(f"{path}: not a calibration.json (no {missing[0]!r})")
    return doc
