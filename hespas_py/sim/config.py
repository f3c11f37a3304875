"""Where a machine's ASTRA-sim files come from: a bundled preset (``configs/systems``), a folder
(Hespas' ``astra-sim/`` layout included) or explicit paths; and reading them into one
`SystemSetup` (`hespas_py.sim.inputs` reads each file).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hespas_py.chakra.files import COMM_GROUP_FILE, TRACE_PREFIX
from hespas_py.errors import HespasError, unknown_preset
from hespas_py.resources import shipped
from hespas_py.sim.inputs import check_setup, load_network, load_remote_memory, load_system
from hespas_py.sim.machine import RemoteMemoryConfig, SystemSetup
from hespas_py.sim.result import SimResult
from hespas_py.sim.simulate import simulate


def system_files(folder: str | Path) -> dict[str, Path | None]:
    """The network.yml, system.json and remote_memory.json (None if absent) of a preset folder.

    The folder may hold them directly or in an ``astra-sim/`` subfolder (Hespas' layout).
    """
    folder = Path(folder)
    base = folder / "astra-sim" if (folder / "astra-sim").is_dir() else folder
    if not base.is_dir():
        raise HespasError(f"{folder}: no such folder")
    found = {name: base / name for name in ("network.yml", "system.json", "remote_memory.json")}
    for name in ("network.yml", "system.json"):
        if not found[name].is_file():
            raise HespasError(f"{base}: no {name}")
    files: dict[str, Path | None] = dict(found)
    if not found["remote_memory.json"].is_file():
        files["remote_memory.json"] = None
    return files


def load_setup(files: Mapping[str, Path | None]) -> SystemSetup:
    """Read the network.yml, system.json and remote_memory.json named in ``files`` (as
    `system_files` or `resolve_system_files` give them); an absent remote_memory.json means no
    memory expansion."""
    remote, network_file, system_file = (files[name] for name in (
        "remote_memory.json", "network.yml", "system.json"))
    assert network_file is not None and system_file is not None, "only remote memory is optional"
    network, system = load_network(network_file), load_system(system_file)
    check_setup(system, network, str(system_file))
    return SystemSetup(network, system,
                       load_remote_memory(remote) if remote is not None else RemoteMemoryConfig(),
                       system_file.parent)


def load_system_dir(folder: str | Path) -> SystemSetup:
    """Read a machine's ASTRA-sim configuration from ``folder`` (or ``folder/astra-sim``)."""
    return load_setup(system_files(folder))


#: The bundled machine presets (``configs/systems/<name>/astra-sim/...``, shipped with the package).
PRESETS_DIR = shipped("configs", "systems")


def preset_names() -> list[str]:
    """Names of the bundled machine presets."""
    if not PRESETS_DIR.is_dir():
        return []
    return sorted(p.name for p in PRESETS_DIR.iterdir() if (p / "astra-sim").is_dir())


def resolve_system_files(system: str | Path, network: str | Path | None = None,
                         remote_memory: str | Path | None = None) -> dict[str, Path | None]:
    """The system.json, network.yml and remote_memory.json (None if absent) to use.

    ``system`` is a system.json file, a folder holding the three files (directly or under
    ``astra-sim/``), or a preset name; explicit ``network``/``remote_memory`` paths win.
    """
    spec = Path(system)
    if spec.is_file():
        files: dict[str, Path | None] = {"system.json": spec, "network.yml": None,
                                         "remote_memory.json": None}
    else:
        folder = spec if spec.is_dir() else PRESETS_DIR / str(system)
        if not folder.is_dir():
            raise unknown_preset(str(system), "not a system.json, a folder or a system preset",
                                 preset_names())
        files = system_files(folder)
    if network is not None:
        files["network.yml"] = Path(network)
    if remote_memory is not None:
        files["remote_memory.json"] = Path(remote_memory)
    if files["network.yml"] is None:
        raise HespasError(f"{system}: a system.json alone needs --network")
    return files


class LayoutMismatch(HespasError):
    """A step runs on another number of devices than a machine has NPUs."""

    def __init__(self, label: str, npus: int, devices: int) -> None:
        super().__init__(f"{label}: the machine has {npus} NPUs but the module runs on "
                         f"{devices} devices")
        self.npus, self.devices = npus, devices


@dataclass(frozen=True)
class Machine:
    """A machine to simulate a generated step on (``hespas gen --system-config``, the API).

    Attributes:
        label: how messages and summaries name it (the preset name or folder given).
        setup: its configuration files.
    """

    label: str
    setup: SystemSetup

    @classmethod
    def load(cls, system: str | Path) -> Machine:
        """The machine of a system folder or preset (`resolve_system_files`)."""
        return cls(str(system), load_setup(resolve_system_files(system)))

    def check_layout(self, layout) -> None:
        """`LayoutMismatch` unless the machine has an NPU per device of ``layout`` (a
        `hespas_py.pipeline.generate` layout check: it runs before any output is written)."""
        npus = self.setup.network.num_npus
        if npus != layout.num_devices:
            raise LayoutMismatch(self.label, npus, layout.num_devices)

    def simulate(self, out_dir: Path) -> SimResult:
        """Simulate the traces ``generate`` wrote to ``out_dir``."""
        return simulate(out_dir / TRACE_PREFIX, self.setup.system, self.setup.network,
                        comm_groups=out_dir / COMM_GROUP_FILE)

    def summary(self, result: SimResult) -> dict[str, Any]:
        """The ``simulation`` entry of a gen summary: the machine, the step time, per device."""
        return {"system": self.label, "step_time_s": result.step_time_ns * 1e-9,
                **result.as_json()}
