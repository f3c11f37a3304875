"""The one place a calibration becomes preset files: the base preset's configs with the measured
params written over them, each with its ``<param>_source``, and the system preset of the local
devices.

Today's node preset format: a directory holding ``<method>/config.json`` for ``roofline`` and
``fused_roofline`` (`hespas_py.estimate.hardware`); any command that takes a preset name takes
that directory. A measured value lands in every method whose params accept it. Values not
measured are the base's; their existing sources are prefixed ``carried from <base>`` and the
run's ``calibration.json`` lists them. The system preset (`network_files`) is ASTRA-sim's three
files under ``system/astra-sim/``, as in ``configs/systems``.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from hespas_py.calibrate.model import Measured

#: The methods a calibrated preset holds a config for.
METHODS = ("roofline", "fused_roofline")
#: The method whose hardware section is the reference (all params).
REFERENCE_METHOD = "fused_roofline"
#: Where the system preset goes inside the preset directory.
SYSTEM_DIR = "system"


@dataclass(frozen=True)
class Base:
    """A preset a calibration starts from: its name and each method's parsed config."""

    name: str
    configs: Mapping[str, dict[str, Any]]

    @classmethod
    def load(cls, preset: str) -> "Base":
        """A preset name or directory (`HespasError` naming it otherwise)."""
        from hespas_py.estimate.hardware import config_file, hardware_from_config, read_config

        configs, name = {}, Path(preset).name
        for method in METHODS:
            path, _ = config_file(preset, method, what="node preset")
            configs[method] = read_config(path)
            hardware_from_config(configs[method], str(path), method)  # checked once, here
        return cls(name, configs)

    def hardware(self, method: str = REFERENCE_METHOD) -> dict[str, Any]:
        return self.configs[method]["perf_estimator"]["hardware"]

    def reference(self):
        """The `Hardware` of its fused_roofline config (what a calibration measures against)."""
        from hespas_py.estimate.hardware import hardware_from_config

        return hardware_from_config(self.configs[REFERENCE_METHOD], self.name, REFERENCE_METHOD,
                                    name=self.name)


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


def _accepted(method: str) -> set[str]:
    from hespas_py.estimate.base import estimator_class

    return set(estimator_class(method).param_types)


def node_configs(base: Base, chosen: list[Entry], stamp: str) -> dict[str, dict[str, Any]]:
    """Each method's config: the base's, with the applied entries and their sources; the
    base's other sources marked carried. ``stamp`` says where and when it was measured."""
    applied = [e for e in chosen if e.applied]
    sources = {e.measured.source_key for e in applied}
    configs = {}
    for method, config in base.configs.items():
        config = copy.deepcopy(config)
        hardware = config["perf_estimator"]["hardware"]
        accepted = _accepted(method)
        for key, value in list(hardware.items()):
            if key.endswith("_source") and key not in sources:
                hardware[key] = f"carried from {base.name} (not measured): {value}"
        for entry in applied:
            m = entry.measured
            if m.param not in accepted:
                continue
            old = hardware.get(m.param)
            both_tables = isinstance(old, dict) and isinstance(m.value, dict)
            hardware[m.param] = {**old, **m.value} if both_tables else m.value
            if m.source_key in accepted:
                what = "; ".join(dict.fromkeys(e.measured.what for e in applied
                                               if e.measured.source_key == m.source_key))
                hardware[m.source_key] = f"{stamp}, {entry.status}: {what}"
        configs[method] = config
    return configs


def carried(base: Base, chosen: list[Entry]) -> list[str]:
    """The base's hardware keys (sources aside) no applied measurement replaced."""
    written = {e.measured.param for e in chosen if e.applied}
    keys = dict.fromkeys(k for method in METHODS for k in base.hardware(method))
    return [k for k in keys if not k.endswith("_source") and k not in written]


def check(configs: Mapping[str, dict[str, Any]], where: Path) -> None:
    """Every config passes the schema a preset is read with (`HespasError` otherwise)."""
    from hespas_py.estimate.hardware import hardware_from_config

    for method, config in configs.items():
        hardware_from_config(config, str(where / method / "config.json"), method)


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


def write(folder: Path, configs: Mapping[str, dict[str, Any]], calibration: Mapping[str, Any],
          system: Mapping[str, str] | None) -> None:
    """Write the preset into ``folder`` (a fresh staging directory)."""
    for method, config in configs.items():
        (folder / method).mkdir()
        (folder / method / "config.json").write_text(json.dumps(config, indent=4) + "\n")
    (folder / "calibration.json").write_text(json.dumps(calibration, indent=1) + "\n")
    if system:
        target = folder / SYSTEM_DIR / "astra-sim"
        target.mkdir(parents=True)
        for name, text in system.items():
            (target / name).write_text(text)
