"""The parameter registry in words: the table of ``configs/nodes/README.md``, ``--param``'s help,
and the rows of ``hespas presets --describe NAME``."""

from __future__ import annotations

import json
from typing import Any, Mapping

from hespas_py.hardware.params import DATASHEET, SPECS, Spec, params_specs
from hespas_py.hardware.rules import as_json

#: Marks around the generated table in ``configs/nodes/README.md``.
TABLE_START = "<!-- parameter table: made by hespas_py.hardware.describe, do not edit -->"
TABLE_END = "<!-- end of parameter table -->"


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


def parameter_table() -> str:
    """The Markdown table of every hardware key, between `TABLE_START` and `TABLE_END`."""
    lines = [TABLE_START, "",
             "| key | value | unit | default | read by | source | meaning |",
             "|---|---|---|---|---|---|---|"]
    for spec in SPECS.values():
        cells = [f"`{spec.key}`", spec.rule.describe(), spec.unit, default_text(spec),
                 read_by(spec), source_text(spec), spec.help]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join([*lines, "", TABLE_END])


def param_keys(method: str | None = None) -> list[str]:
    """The keys ``--param`` sets (those ``method`` reads, when given), in declaration order."""
    return [s.key for s in params_specs().values()
            if s.key != "num_npus" and (method is None or s.accepted_by(method))]


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


def with_parameter_table(readme: str) -> str:
    """``readme`` with the text between `TABLE_START` and `TABLE_END` (markers included)
    replaced by `parameter_table`; `ValueError` when the markers are missing."""
    start, end = readme.find(TABLE_START), readme.find(TABLE_END)
    if start < 0 or end < start:
        raise ValueError("the parameter table's markers are missing")
    return readme[:start] + parameter_table() + readme[end + len(TABLE_END):]
