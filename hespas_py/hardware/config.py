"""The published tool's JSON config: ``{"perf_estimator": {"method": ..., "hardware": {...}}}``,
which a generation config extends with top-level keys (``mlir_file``, ``output_dir``,
``split_strategy``, ...).

Why and how: docs/presets.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hespas_py.checks import Number
from hespas_py.errors import HespasError
from hespas_py.hardware.params import accepted, check_hardware, params_specs, source_keys
from hespas_py.hardware.rules import FLAG, OBJECT, TEXT, Choice, with_value


class Field:
    """One config key's rule (anything with ``problem(value) -> str | None``), and whether the
    key must be present."""

    __slots__ = ("rule", "required")

    def __init__(self, rule: Any, required: bool = False) -> None:
        self.rule, self.required = rule, required


class _ByteCounts:
    """One integer >= 0, or an object of them (``combine_threshold``: per collective kind)."""

    def problem(self, value: Any) -> str | None:
        counts = value.values() if isinstance(value, dict) else [value]
        if all(_COUNT.problem(v) is None for v in counts):
            return None
        return "must be an integer >= 0 or an object of integers >= 0 per collective kind"


class _HardwareValue:
    """An object (the hardware section) or a string (a preset name)."""

    def problem(self, value: Any) -> str | None:
        return None if isinstance(value, (dict, str)) else "must be an object or a preset name"


_COUNT = Number(0, integer=True)

#: Top-level keys of a generation config (the published tool's, same meaning; ``loop_trips``,
#: ``combine_threshold``, ``collective_rewrites`` and ``memory`` are ours).
GEN_KEYS: Mapping[str, Field] = {
    "perf_estimator": Field(OBJECT, required=True),
    "mlir_file": Field(TEXT),
    "output_dir": Field(TEXT),
    "cache_dir": Field(TEXT),
    "split_strategy": Field(Choice(("individual_split", "linear_split"))),
    "merge": Field(FLAG),
    "clean": Field(FLAG),
    "disable_cache": Field(FLAG),
    "num_threads": Field(Number(None, integer=True)),
    "block_lim": Field(Number(1, integer=True)),
    "loop_trips": Field(Number(1, integer=True)),
    "combine_threshold": Field(_ByteCounts()),
    "collective_rewrites": Field(FLAG),
    "memory": Field(FLAG),
    "separator": Field(TEXT),
    "separator_policy": Field(Choice(("isolated", "end_block", "start_block"))),
    "separator_node_type": Field(TEXT),
}

#: Keys of ``perf_estimator``.
PERF_ESTIMATOR_KEYS: Mapping[str, Field] = {
    "method": Field(TEXT, required=True),
    "hardware": Field(_HardwareValue(), required=True),
    "cache_dir": Field(TEXT),
    "disable_cache": Field(FLAG),
    "in_memory_only_cache": Field(FLAG),
}


def _check(section: Mapping[str, Any], rules: Mapping[str, Field], source: str,
           path: str) -> None:
    for key, value in section.items():
        rule = rules.get(key)
        if rule is None:
            known = ", ".join(sorted(rules))
            raise HespasError(f"{source}: unknown key {path}{key} (known: {known})")
        problem = rule.rule.problem(value)
        if problem:
            raise HespasError(f"{source}: {path}{key} {with_value(problem, value)}")
    for key, rule in rules.items():
        if rule.required and key not in section:
            raise HespasError(f"{source}: missing required key {path}{key}")


def declared_estimator(config: Mapping[str, Any], source: str) -> str:
    """Check a generation config's top level and ``perf_estimator`` (not its ``hardware``
    section, which depends on the estimator) and return its estimator, lower case."""
    if not isinstance(config, dict):
        raise HespasError(f"{source}: the config must be a JSON object")
    _check(config, GEN_KEYS, source, "")
    _check(config["perf_estimator"], PERF_ESTIMATOR_KEYS, source, "perf_estimator.")
    return config["perf_estimator"]["method"].strip().lower()


def validate_config(config: Mapping[str, Any], source: str, estimator: str | None = None) -> None:
    """Check a whole generation config; ``estimator``: the estimator whose params the hardware
    section may carry (default: the config's own). ``mlir_file`` and ``output_dir`` are not
    required here: the command line may supply them."""
    chosen = declared_estimator(config, source)
    hardware = config["perf_estimator"]["hardware"]
    if isinstance(hardware, dict):
        check_hardware(hardware, estimator or chosen, source, "perf_estimator.hardware.")


def read_config(path: str | Path) -> dict[str, Any]:
    """Parse a JSON config file (no schema check): missing file or bad JSON -> `HespasError`."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise HespasError(f"{path}: cannot read config ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise HespasError(f"{path}: not a JSON text file (not UTF-8 at byte {exc.start})") from None
    try:
        config = json.loads(text)
    except json.JSONDecodeError as exc:
        raise HespasError(
            f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if not isinstance(config, dict):
        raise HespasError(f"{path}: the config must be a JSON object")
    return config


def parse_params(items: Sequence[str], estimator: str) -> dict[str, Any]:
    """Command-line ``KEY=VALUE`` params (``--param``) for ``estimator``, read
    (`param_values`) and checked (`check_params`)."""
    return check_params(param_values(items), estimator)


def param_values(items: Sequence[str]) -> dict[str, Any]:
    """Command-line ``KEY=VALUE`` params (``--param``), each VALUE read as JSON (``true``,
    ``0.5``, ``128``), else as text; not checked yet (`check_params`)."""
    params: dict[str, Any] = {}
    for item in items:
        key, equals, text = item.partition("=")
        key = key.strip()
        if not equals or not key:
            raise HespasError(f"--param {item!r}: expected KEY=VALUE")
        try:
            params[key] = json.loads(text)
        except json.JSONDecodeError:
            params[key] = text
    return params


def check_params(params: Mapping[str, Any], estimator: str) -> dict[str, Any]:
    """``params`` (by key) checked as the same keys of a config file's ``hardware`` section for
    ``estimator`` would be (`HespasError` naming ``--param KEY`` otherwise)."""
    rules = {k: Field(TEXT if s is None else s.rule) for k, s in accepted(estimator).items()
             if k in _SETTABLE}
    try:
        _check(params, rules, "--param", "")
    except HespasError as exc:
        raise HespasError(f"{exc} (estimator {estimator})") from None
    return dict(params)


def _settable() -> frozenset[str]:
    """Keys a ``--param`` may set: every `Params` key but ``num_npus`` (``--num_npus``), and
    their source keys."""
    specs = [s for s in params_specs().values() if s.key != "num_npus"]
    sources = {k for k, of in source_keys().items() if all(s in specs for s in of)}
    return frozenset(s.key for s in specs) | sources


_SETTABLE = _settable()
