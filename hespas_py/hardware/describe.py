"""The parameter registry in words: the table of ``configs/nodes/README.md``, ``--param``'s help,
and the rows of ``hespas presets --describe NAME``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hespas_py.hardware.params import DATASHEET, SPECS, Spec, params_specs
from hespas_py.hardware.presets import NodePreset
from hespas_py.hardware.rules import as_json

#: Marks around the generated tables in ``configs/nodes/README.md``.
TABLE_START = "<!-- {} table: made by hespas_py.hardware.describe, do not edit -->"
TABLE_END = "<!-- end of {} table -->"


def read_by(spec: Spec) -> str:
    """Who reads a key: its estimators (or "every estimator") and what else, or, for a key that
    is not an estimator setting, what reads it."""
    if not spec.estimators:
        return spec.reader or "every estimator"
    return ", ".join(spec.estimators) + (f"; {spec.reader}" if spec.reader else "")


def default_text(spec: Spec) -> str:
    """A key's default in words ("required" when it has none)."""
    if spec.required:
        return "required"
    if spec.shown_default:
        return spec.shown_default
    if spec.default is None or spec.default == {}:
        return "absent"
    return json.dumps(as_json(spec.default))


def source_text(spec: Spec) -> str:
    """Where a preset states a key's source ("" for none)."""
    if spec.source == DATASHEET:
        return "the preset's datasheet"
    return f"`{spec.source}`" if spec.source else ""


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows)]


def parameter_table() -> list[str]:
    """The Markdown table of every hardware key."""
    return _table(["key", "value", "unit", "default", "read by", "source", "meaning"],
                  [[f"`{spec.key}`", spec.rule.describe(), spec.unit, default_text(spec),
                    read_by(spec), source_text(spec), spec.help] for spec in SPECS.values()])


def _peaks(rates: dict[str, float]) -> str:
    """``f32 19.5, bf16/f16 312``: dense TFLOP/s per element type, equal rates named together."""
    groups: dict[float, list[str]] = {}
    for dtype, rate in rates.items():
        groups.setdefault(rate, []).append(dtype)
    return ", ".join(f"{'/'.join(names)} {rate / 1e12:g}" for rate, names in groups.items())


def preset_table(presets: list[NodePreset]) -> list[str]:
    """The Markdown table of the node presets' datasheet figures and their source."""
    rows = []
    for preset in presets:
        if preset.alias_of:
            rows.append([preset.name, f"another name for {preset.alias_of}", "", "", "", ""])
            continue
        hw = preset.hardware
        rows.append([preset.name, _peaks(hw.get("per_datatype_flops", {})),
                     f"{hw['vector_flops'] / 1e12:g}" if "vector_flops" in hw else "-",
                     f"{hw['memory_bandwidth'] / 1e9:g}",
                     f"{hw['hbm_bytes'] / 2**30:g}" if "hbm_bytes" in hw else "-",
                     preset.datasheet])
    return _table(["preset", "dense tensor peaks (TFLOP/s)", "vector", "HBM (GB/s)",
                   "`hbm_bytes` (GiB)", "datasheet"], rows)


def param_keys(estimator: str | None = None) -> list[str]:
    """The keys ``--param`` sets (those ``estimator`` reads, when given), in declaration order."""
    return [s.key for s in params_specs().values()
            if s.key != "num_npus" and (estimator is None or s.accepted_by(estimator))]


def param_help() -> str:
    """``--param``'s help."""
    return ("Estimator param, as in the config's hardware section (repeatable; e.g. "
            "fused_attention=true); KEY one of " + ", ".join(param_keys()) + ".")


def preset_rows(section: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per registry key, in declaration order: its value in the ``hardware`` section of a
    preset (or its default, ``"set": False``), unit, readers, meaning and source text."""
    rows = []
    for spec in SPECS.values():
        given = spec.key in section
        source = section.get(spec.source, "") if spec.source != DATASHEET else \
            section.get(DATASHEET, "")
        rows.append({"key": spec.key, "value": section[spec.key] if given else
                     default_text(spec), "set": given, "unit": spec.unit,
                     "read_by": read_by(spec), "meaning": spec.help, "source": source})
    return rows


def with_tables(readme: str, presets: list[NodePreset]) -> str:
    """``readme`` with its ``preset`` and ``parameter`` tables (between `TABLE_START` and
    `TABLE_END`) made afresh; `ValueError` when the markers are missing."""
    for name, lines in (("preset", preset_table(presets)), ("parameter", parameter_table())):
        start_mark, end_mark = TABLE_START.format(name), TABLE_END.format(name)
        start, end = readme.find(start_mark), readme.find(end_mark)
        if start < 0 or end < start:
            raise ValueError(f"the {name} table's markers are missing")
        readme = "\n".join([readme[:start] + start_mark, "", *lines, "",
                            end_mark + readme[end + len(end_mark):]])
    return readme
