"""The one place a calibration becomes preset files: the base preset's ``node.json`` with the
measured params written over it, each with its ``<param>_source``, and the system preset of the
local devices.

Why and how: docs/calibration.md.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hespas_py.calibrate.model import Measured
from hespas_py.hardware import NodePreset, find_preset
from hespas_py.hardware.params import DATASHEET, SPECS, accepted, source_keys
from hespas_py.hardware.presets import preset_of, write_preset

#: The estimator whose hardware section is the reference (all params).
REFERENCE_METHOD = "fused_roofline"
#: Where the system preset goes inside the preset directory.
SYSTEM_DIR = "system"
#: The keys that hold a value's source.
_SOURCES = source_keys()


def load_base(preset: str) -> NodePreset:
    """A preset name or folder a calibration starts from, checked whole (`HespasError` naming it
    otherwise)."""
    found = find_preset(preset)
    for estimator in ["", *found.estimator_names]:
        found.section(estimator)
    return found


def reference_preset(name: str, datasheet: str, section: Mapping[str, Any],
                     where: Path) -> NodePreset:
    """The reference preset a ``calibration.json`` recorded (its ``fused_roofline`` section)."""
    everywhere = accepted("")
    hardware = {k: v for k, v in section.items() if k in everywhere}
    document = {DATASHEET: datasheet, "hardware": hardware, "estimators": {
        REFERENCE_METHOD: {k: v for k, v in section.items() if k not in hardware}}}
    return preset_of(document, where, name)


@dataclass(frozen=True)
class Entry:
    """One measured param as the output preset gets it.

    Attributes:
        measured: the measurement.
        applied: whether it was written (a chip's own latency is not written onto another
            chip's datasheet).
        status: ``measured``, ``efficiency from <chip>`` or ``not applied (...)``.
    """

    measured: Measured
    applied: bool
    status: str


def entries(measured: list[Measured], same_chip: bool, device: str) -> list[Entry]:
    """What becomes of each measured param on the base's datasheet."""
    found = []
    for m in measured:
        if same_chip:
            found.append(Entry(m, True, "measured"))
        elif m.per_chip:
            found.append(Entry(m, False, f"not applied: a latency of {device}"))
        else:
            found.append(Entry(m, True, f"efficiency from {device}"))
    return found


def _sections(document: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The sections of a ``node.json`` document a measured ``key`` is written into."""
    if key in document["hardware"] or SPECS[key].accepted_by(""):
        return [document["hardware"]]
    return [own for estimator, own in document["estimators"].items()
            if SPECS[key].accepted_by(estimator)]


def node_document(base: NodePreset, chosen: list[Entry], stamp: str) -> dict[str, Any]:
    """The calibrated preset's ``node.json``: the base's, with the applied entries and their
    sources; the base's other sources marked carried. ``stamp`` says where and when it was
    measured."""
    applied = [e for e in chosen if e.applied]
    sources = {e.measured.source_key for e in applied}
    document: dict[str, Any] = {
        DATASHEET: base.datasheet, "hardware": copy.deepcopy(dict(base.hardware)),
        "estimators": {k: copy.deepcopy(dict(v)) for k, v in base.estimators.items()}}
    for section in [document["hardware"], *document["estimators"].values()]:
        for key, value in list(section.items()):
            if key in _SOURCES and key not in sources:
                section[key] = f"carried from {base.name} (not measured): {value}"
    for entry in applied:
        m = entry.measured
        what = "; ".join(dict.fromkeys(e.measured.what for e in applied
                                       if e.measured.source_key == m.source_key))
        for section in _sections(document, m.param):
            old = section.get(m.param)
            section[m.param] = ({**old, **m.value}
                                if isinstance(old, dict) and isinstance(m.value, dict) else m.value)
            section[m.source_key] = f"{stamp}, {entry.status}: {what}"
    return document


def carried(base: NodePreset, chosen: list[Entry]) -> list[str]:
    """The base's hardware keys (sources aside) no applied measurement replaced."""
    written = {e.measured.param for e in chosen if e.applied}
    return [k for k in base.every_key() if k != DATASHEET and k not in _SOURCES
            and k not in written]


def system_files(network: Mapping[str, Any], hardware: Mapping[str, Any],
                 stamp: str) -> dict[str, str]:
    """ASTRA-sim's network.yml, system.json and remote_memory.json of the local devices: one
    switch dimension at the measured all-reduce's link bandwidth and latency per hop
    (`collectives.network`); the system layer of the shipped GPU presets; every collective's
    fit in the header."""
    lines = [f"# {stamp}: {network['npus']} local devices, measured with hespas calibrate.",
             "# Link bandwidth and latency per hop from the all-reduce; bus bandwidth and "
             "latency of each collective:"]
    lines += [f"#   {kind}: {fit['bus_bandwidth'] / 1e9:,.1f} GB/s, "
              f"{fit['latency_s'] * 1e6:,.2f} us" for kind, fit in network["fits"].items()]
    lines += ["topology: [ Switch ]", f"npus_count: [ {network['npus']} ]",
              f"bandwidth: [ {network['bandwidth_gb_s']:.3f} ]",
              f"latency: [ {network['latency_ns']:.1f} ]"]
    system = {"scheduling-policy": "LIFO", "endpoint-delay": 1, "active-chunks-per-dimension": 1,
              "preferred-dataset-splits": 1, "collective-optimization": "localBWAware",
              "local-mem-bw": hardware["memory_bandwidth"] / 1e9,
              "peak-perf": hardware["peak_flops"] / 1e12, "roofline-enabled": 0,
              **{f"{kind}-implementation": ["ring"]
                 for kind in ("all-reduce", "all-gather", "reduce-scatter", "all-to-all")}}
    return {"network.yml": "\n".join(lines) + "\n",
            "system.json": json.dumps(system, indent=2) + "\n",
            "remote_memory.json": json.dumps({"memory-type": "NO_MEMORY_EXPANSION"}, indent=2)
            + "\n"}


def write(folder: Path, document: Mapping[str, Any], calibration: Mapping[str, Any],
          system: Mapping[str, str] | None) -> None:
    """Write the preset into ``folder`` (a fresh staging directory)."""
    write_preset(folder, document)
    (folder / "calibration.json").write_text(json.dumps(calibration, indent=1) + "\n")
    if system:
        target = folder / SYSTEM_DIR / "astra-sim"
        target.mkdir(parents=True)
        for name, text in system.items():
            (target / name).write_text(text)
