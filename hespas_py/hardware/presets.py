"""Node presets: one folder per chip holding ``node.json`` (format: ``docs/presets.md``).

``node.json`` holds the chip's datasheet figures and their sources once (``datasheet``,
``hardware``) and each estimator's extra params (``estimators``); an estimator it does not list
reads ``hardware`` alone. An alias (``{"alias_of": "OTHER"}``) is another name for the sibling folder
``OTHER``. A preset is named by its folder's name when shipped (``configs/nodes/NAME``) or by the
folder's path anywhere else. ``<estimator>/config.json`` beside ``node.json``, the published tool's
format, is generated from it (`config_document`, ``scripts/make_node_presets.py``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from hespas_py.errors import HespasError, unknown_preset
from hespas_py.hardware.config import declared_estimator, read_config, validate_config
from hespas_py.hardware.params import DATASHEET, Hardware, build_hardware, check_hardware
from hespas_py.resources import shipped

#: The node presets (``configs/nodes``, shipped with the package).
PRESETS_DIR = shipped("configs", "nodes")
#: A preset folder's own file.
NODE_FILE = "node.json"
_KEYS = (DATASHEET, "hardware", "estimators")


class NodePreset(NamedTuple):
    """One chip's preset, as ``node.json`` gives it (unchecked values; `section` checks). A named
    tuple: every run reads one, and a dataclass costs most of a millisecond to create.

    Attributes:
        name: the name its hardware is reported by (the folder's name; an alias's own).
        folder: the folder it was named by.
        path: its ``node.json`` (an alias: the file of the preset it names).
        datasheet: the public source of its datasheet figures.
        hardware: the ``hardware`` keys every estimator reads, with their source keys.
        estimators: per estimator with params of its own, those params and their sources.
        alias_of: the preset it is another name for, or "".
    """

    name: str
    folder: Path
    path: Path
    datasheet: str = ""
    hardware: Mapping[str, Any] = MappingProxyType({})
    estimators: Mapping[str, Mapping[str, Any]] = MappingProxyType({})
    alias_of: str = ""

    @property
    def estimator_names(self) -> list[str]:
        """The estimators with params of their own (a generated config file each), sorted."""
        return sorted(self.estimators)

    def section(self, estimator: str) -> dict[str, Any]:
        """The checked ``hardware`` section for ``estimator`` (`HespasError` naming
        ``node.json`` and the key otherwise)."""
        check_hardware(self.hardware, "", str(self.path), "hardware.")
        own = self.estimators.get(estimator, {})
        check_hardware(own, estimator, str(self.path), f"estimators.{estimator}.", required=False)
        return {**self.hardware, **own}

    def hardware_for(self, estimator: str) -> Hardware:
        """The `Hardware` this preset describes for ``estimator``."""
        return build_hardware(self.section(estimator), self.name)

    def every_key(self) -> dict[str, Any]:
        """Every key it sets, over all its estimators, and its ``datasheet``."""
        keys = dict(self.hardware)
        for params in self.estimators.values():
            keys.update(params)
        return {**keys, DATASHEET: self.datasheet}


def config_document(preset: NodePreset, estimator: str) -> dict[str, Any]:
    """The published tool's config of ``preset`` for ``estimator`` (a generated file's content)."""
    return {"perf_estimator": {"method": estimator, "hardware": preset.section(estimator)}}


def config_text(preset: NodePreset, estimator: str) -> str:
    """The text of ``<estimator>/config.json`` generated beside ``preset``'s ``node.json``."""
    return json.dumps(config_document(preset, estimator), indent=4) + "\n"


def _document(path: Path) -> Mapping[str, Any]:
    return _checked(read_config(path), path)


def _checked(doc: Mapping[str, Any], path: Path) -> Mapping[str, Any]:
    """``doc`` when it has node.json's shape (its sections' keys are checked by
    `NodePreset.section`); `HespasError` naming ``path`` otherwise."""
    allowed = ("alias_of",) if "alias_of" in doc else _KEYS
    for key in doc:
        if key not in allowed:
            raise HespasError(f"{path}: unknown key {key} (known: {', '.join(allowed)})")
    if "alias_of" in doc:
        if not isinstance(doc["alias_of"], str) or not doc["alias_of"]:
            raise HespasError(f"{path}: alias_of must be a preset name")
        return doc
    if not isinstance(doc.get("hardware"), dict):
        raise HespasError(f"{path}: missing required key hardware (an object)")
    estimators = doc.get("estimators", {})
    if not isinstance(estimators, dict) or not all(isinstance(v, dict)
                                                   for v in estimators.values()):
        raise HespasError(f"{path}: estimators must map estimator names to objects")
    if not isinstance(doc.get(DATASHEET, ""), str):
        raise HespasError(f"{path}: {DATASHEET} must be a string")
    return doc


def read_preset(folder: Path, name: str = "") -> NodePreset:
    """The preset in ``folder`` (its ``node.json``), named ``name`` (default: the folder's)."""
    path = folder / NODE_FILE
    doc = _document(path)
    name = name or folder.resolve().name
    if "alias_of" in doc:
        target = folder.parent / doc["alias_of"] / NODE_FILE
        if not target.is_file():
            raise HespasError(f"{path}: alias_of names no preset beside it ({doc['alias_of']})")
        real = _document(target)
        if "alias_of" in real:
            raise HespasError(f"{path}: alias_of names another alias ({doc['alias_of']})")
        return NodePreset(name, folder, target, real.get(DATASHEET, ""), real["hardware"],
                          real.get("estimators", {}), alias_of=doc["alias_of"])
    return NodePreset(name, folder, path, doc.get(DATASHEET, ""), doc["hardware"],
                      doc.get("estimators", {}))


def preset_names() -> list[str]:
    """Names of the shipped node presets, sorted."""
    if not PRESETS_DIR.is_dir():
        return []
    return sorted(p.parent.name for p in PRESETS_DIR.glob(f"*/{NODE_FILE}"))


def is_preset_folder(path: str | Path) -> bool:
    """Whether ``path`` is a folder holding a ``node.json``."""
    return (Path(path) / NODE_FILE).is_file()


def find_preset(name_or_folder: str | Path) -> NodePreset:
    """The preset a folder holds, or the shipped preset of that name (`HespasError` naming the
    closest shipped names otherwise)."""
    if is_preset_folder(name_or_folder):
        return read_preset(Path(name_or_folder))
    name = str(name_or_folder)
    if name in preset_names():
        return read_preset(PRESETS_DIR / name, name)
    raise unknown_preset(name, "no such hardware config file or node preset", preset_names())


def resolve_config(config: str | Path, estimator: str,
                   what: str = "hardware config file") -> tuple[dict[str, Any], str, str]:
    """(config document, its source for messages, the hardware name it gives: "" for a file) of
    a config file, a preset folder or a shipped preset's name, for ``estimator``."""
    path = Path(config)
    if path.is_file():
        return read_config(path), str(path), ""
    if not is_preset_folder(path) and (path.suffix or len(path.parts) > 1):
        raise HespasError(f"{config}: no such {what}")
    preset = find_preset(config)
    return config_document(preset, estimator), str(preset.path), preset.name


def hardware_from_config(config: Mapping[str, Any], source: str, estimator: str | None = None,
                         name: str = "") -> Hardware:
    """The `Hardware` of a parsed config (checked first, `validate_config`) for estimator
    ``estimator`` (default: the config's own); ``name`` names it (default: from ``source``, the
    config's path). A ``hardware`` naming a preset (or a config file) loads that."""
    validate_config(config, source, estimator)
    estimator = estimator or declared_estimator(config, source)
    hardware = config["perf_estimator"]["hardware"]
    if isinstance(hardware, str):
        return load_hardware(hardware, estimator)
    return build_hardware(hardware, name or _config_name(Path(source)))


def _config_name(path: Path) -> str:
    """A readable hardware name: the preset folder for ``.../NAME/<estimator>/config.json`` or
    ``.../NAME/node.json``, else the file's stem."""
    if path.name == NODE_FILE:
        return path.parent.name
    return path.parent.parent.name if path.name == "config.json" and path.parent.parent.name \
        else path.stem


def load_hardware(config: str | Path, estimator: str = "") -> Hardware:
    """The `Hardware` of a config file, a preset folder or a shipped preset's name, for
    ``estimator`` (default: a file's own estimator; a preset's figures alone)."""
    doc, source, name = resolve_config(config, estimator)
    return hardware_from_config(doc, source, estimator or None, name=name)


def generated_configs(folder: Path) -> dict[Path, str]:
    """The published tool's config files generated beside ``folder``'s ``node.json``: path ->
    text, one per estimator with params of its own (each checked)."""
    preset = read_preset(folder)
    return {folder / estimator / "config.json": config_text(preset, estimator)
            for estimator in preset.estimator_names}


def preset_of(document: Mapping[str, Any], folder: Path, name: str = "") -> NodePreset:
    """The preset ``document`` (the ``node.json`` format, not an alias) describes as
    ``folder``'s ``node.json``, named ``name`` (default: the folder's), checked whole (every
    estimator's section: `HespasError` naming that file otherwise); nothing is written."""
    path = folder / NODE_FILE
    doc = _checked(document, path)
    if "alias_of" in doc:
        raise HespasError(f"{path}: a written preset holds its figures (not alias_of)")
    preset = NodePreset(name or folder.resolve().name, folder, path, doc.get(DATASHEET, ""),
                        doc["hardware"], doc.get("estimators", {}))
    for estimator in ["", *preset.estimator_names]:
        preset.section(estimator)
    return preset


def write_preset(folder: Path, document: Mapping[str, Any], configs: bool = True) -> NodePreset:
    """Write ``document`` (the ``node.json`` format) into ``folder`` (made if missing) and, with
    ``configs``, the config files generated from it; the preset. A document that does not check
    (`preset_of`) leaves ``folder`` as it was."""
    preset = preset_of(document, folder)
    texts = {folder / m / "config.json": config_text(preset, m) for m in preset.estimator_names}
    folder.mkdir(parents=True, exist_ok=True)
    staged = folder / f".{NODE_FILE}.tmp"
    staged.write_text(json.dumps(document, indent=4) + "\n")
    staged.replace(folder / NODE_FILE)
    if configs:
        for path, text in texts.items():
            path.parent.mkdir(exist_ok=True)
            path.write_text(text)
    return read_preset(folder)
