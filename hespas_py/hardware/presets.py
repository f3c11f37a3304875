"""Node presets: ``configs/nodes/NAME/<method>/config.json``, shipped with the package.

A preset named for a method without a config of its own reads its ``roofline`` file (the
hardware numbers are the same).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from hespas_py.errors import HespasError, unknown_preset
from hespas_py.hardware.config import config_method, read_config, validate_config
from hespas_py.hardware.params import Hardware, build_hardware
from hespas_py.resources import shipped

#: The node presets (``configs/nodes``, shipped with the package).
PRESETS_DIR = shipped("configs", "nodes")
#: Method whose preset file any method falls back to.
FALLBACK_METHOD = "roofline"


def preset_names() -> list[str]:
    """Names of the repository's node presets, sorted."""
    if not PRESETS_DIR.is_dir():
        return []
    return sorted({p.parent.parent.name for p in PRESETS_DIR.glob("*/*/config.json")})


def preset_methods(name: str) -> list[str]:
    """The methods preset ``name`` has a config file of its own for, sorted."""
    return sorted(p.parent.name for p in (PRESETS_DIR / name).glob("*/config.json"))


def preset_path(name: str, method: str = FALLBACK_METHOD) -> Path:
    """The config file of preset ``name`` for ``method`` (see the module docstring)."""
    for candidate in (PRESETS_DIR / name / method / "config.json",
                      PRESETS_DIR / name / FALLBACK_METHOD / "config.json"):
        if candidate.is_file():
            return candidate
    raise unknown_preset(name, "no such hardware config file or node preset", preset_names())


def config_file(path_or_preset: str | Path, method: str = FALLBACK_METHOD,
                what: str = "hardware config file") -> tuple[Path, str]:
    """The config file an argument names (a file, or the preset of that name for ``method``) and
    the hardware name a preset gives ("" for a file); `HespasError` naming ``what`` otherwise."""
    path = Path(path_or_preset)
    if path.is_file():
        return path, ""
    if path.suffix or len(path.parts) > 1:
        raise HespasError(f"{path_or_preset}: no such {what}")
    return preset_path(str(path_or_preset), method), str(path_or_preset)


def hardware_from_config(config: Mapping[str, Any], source: str, method: str | None = None,
                         name: str = "") -> Hardware:
    """The `Hardware` of a parsed config (checked first, `validate_config`) for estimator
    ``method`` (default: the config's own); ``name`` names it (default: from ``source``, the
    config's path). A ``hardware`` naming a preset loads that preset."""
    validate_config(config, source, method)
    method = method or config_method(config, source)
    hardware = config["perf_estimator"]["hardware"]
    if isinstance(hardware, str):
        return load_hardware(hardware, method)
    return build_hardware(hardware, name or _config_name(Path(source)))


def _config_name(path: Path) -> str:
    """A readable hardware name: the preset directory for ``.../NAME/<method>/config.json``."""
    return path.parent.parent.name if path.name == "config.json" and path.parent.parent.name \
        else path.stem


def load_preset(name: str, method: str = FALLBACK_METHOD) -> Hardware:
    """The `Hardware` of preset ``name`` for estimator ``method``."""
    path = preset_path(name, method)
    return hardware_from_config(read_config(path), str(path), method, name=name)


def load_hardware(path_or_preset: str | Path, method: str = FALLBACK_METHOD) -> Hardware:
    """Read a hardware config file, or the preset of that name, for estimator ``method``."""
    path, name = config_file(path_or_preset, method)
    return hardware_from_config(read_config(path), str(path), method, name=name)


def preset_section(name: str) -> dict:
    """Preset ``name``'s ``hardware`` keys over all its methods' files (each method's keys in
    its own file's order, the fused file's extra keys after the shared ones)."""
    section: dict = {}
    for method in [FALLBACK_METHOD, *preset_methods(name)]:
        section.update(read_config(preset_path(name, method))["perf_estimator"]["hardware"])
    return section
