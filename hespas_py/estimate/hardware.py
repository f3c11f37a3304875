"""Hardware configs: the published tool's JSON format, our additions, presets and validation.

A node config is ``{"perf_estimator": {"method": ..., "hardware": {...}}}``; a generation config
adds top-level keys (``mlir_file``, ``output_dir``, ``split_strategy``, ...). Both are checked
against one schema (`GEN_KEYS`, `PERF_ESTIMATOR_KEYS`, `HARDWARE_KEYS` plus the estimator's own
``param_types``): an unknown key, a wrong type, a number that is not finite or out of its range
(a rate below 1e6/s, an efficiency outside (0, 1]) or a missing required field is a `HespasError`
naming the file and the key path, on one line.

``hardware`` keys (rates in FLOP/s, bandwidth in bytes/s):

- ``peak_flops`` (required): the rate for a dtype missing from ``per_datatype_flops`` (such ops
  are reported), and for vector work when ``vector_flops`` is absent;
- ``memory_bandwidth`` (required): device memory (HBM) bandwidth;
- ``per_datatype_flops``: dense tensor-unit peak per element type;
- ``vector_flops``: peak of the general-purpose (non-tensor) units, for elementwise work;
- ``num_npus``: devices to simulate (read by the CLI; not an estimator setting);
- ``hbm_bytes`` (with ``hbm_bytes_source``, its public source): device-memory capacity, against
  which `hespas_py.memory` checks a program's peak; ``hbm_usable_fraction`` (default 1.0): the
  share of it a program may use (what the runtime leaves; not estimator settings);
- ``tdp_W``, ``hbm_power_ratio``, ``warn_on_unknown_type``, ``error_on_unknown_type``: accepted as
  in the published tool (ops on a missing dtype are always reported; ``error_on_unknown_type``
  makes that an error);
- ``compiler`` (with ``compiler_source``): the XLA compiler that builds the device's programs,
  ``xla_gpu`` or ``xla_tpu``; it picks what the split does by default (``xla_gpu``: XLA's
  collective rewrites, `hespas_py.split.rewrites`);
- anything in the estimator's ``param_types`` (e.g. roofline's ``f32_matmul_as_tf32``).

``hardware`` may also be a preset name (``"H100_SXM_80GB"``) instead of a dict.
A preset ``NAME`` is ``configs/nodes/NAME/<method>/config.json`` in the repository, or
``configs/nodes/NAME/roofline/config.json`` when the method has no config of its own (the
hardware numbers are the same). A preset named without a method (``hespas gen H100_80GB``) runs
`PRESET_METHOD`. ``--param KEY=VALUE`` on the command line is checked by the same rules
(`parse_params`); every number's rule is a `hespas_py.checks.Number`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hespas_py.checks import Number, Table, shown
from hespas_py.errors import HespasError, unknown_preset
from hespas_py.estimate.base import Hardware, estimator_class
from hespas_py.resources import shipped

#: The node presets (``configs/nodes``, shipped with the package).
PRESETS_DIR = shipped("configs", "nodes")
#: Method whose preset file any method falls back to.
DEFAULT_METHOD = "roofline"
#: The estimator a node preset named alone (``hespas gen H100_80GB``) runs: the most accurate
#: (`hespas accuracy`).
PRESET_METHOD = "fused_roofline"


@dataclass(frozen=True)
class Field:
    """One config key's rule.

    Attributes:
        check: returns a problem description (``"must be a number > 0"``) or None when valid.
        required: whether the key must be present.
    """

    check: Callable[[Any], str | None]
    required: bool = False


def _number(minimum: float, inclusive: bool = False,
            maximum: float | None = None) -> Callable[[Any], str | None]:
    return Number(minimum, maximum, low_open=not inclusive).problem


def _integer(minimum: int | None) -> Callable[[Any], str | None]:
    return Number(minimum, integer=True).problem


def _of_type(kind: type) -> Callable[[Any], str | None]:
    names = {bool: "true or false", str: "a string", dict: "an object"}

    def check(value: Any) -> str | None:
        return None if isinstance(value, kind) else f"must be {names.get(kind, kind.__name__)}"
    return check


def _one_of(*choices: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if isinstance(value, str) and value.strip().lower() in choices:
            return None
        return f"must be one of {', '.join(choices)}"
    return check


def _dtype_rates(value: Any) -> str | None:
    if not isinstance(value, dict):
        return "must be an object mapping element types to FLOP/s"
    for dtype, rate in value.items():
        problem = _RATE(rate)
        if problem:
            return f"[{dtype!r}] {problem}, got {shown(rate)}"
    return None


def _byte_counts(value: Any) -> str | None:
    """One integer >= 0, or an object of them (``combine_threshold``: per collective kind)."""
    counts = value.values() if isinstance(value, dict) else [value]
    if all(_integer(0)(v) is None for v in counts):
        return None
    return "must be an integer >= 0 or an object of integers >= 0 per collective kind"


def _hardware_value(value: Any) -> str | None:
    return None if isinstance(value, (dict, str)) else "must be an object or a preset name"


#: FLOP/s and bytes/s: a rate below 1 M/s is no accelerator's, and a kernel's time at it could
#: overflow the trace's duration.
_RATE = Number(1e6).problem
_FLAG = _of_type(bool)
_TEXT = _of_type(str)

#: Top-level keys of a generation config (the published tool's, same meaning; ``loop_trips``,
#: ``combine_threshold``, ``collective_rewrites`` and ``memory`` are ours: `GenConfig`).
GEN_KEYS: Mapping[str, Field] = {
    "perf_estimator": Field(_of_type(dict), required=True),
    "mlir_file": Field(_TEXT),
    "output_dir": Field(_TEXT),
    "cache_dir": Field(_TEXT),
    "split_strategy": Field(_one_of("individual_split", "linear_split")),
    "merge": Field(_FLAG),
    "clean": Field(_FLAG),
    "disable_cache": Field(_FLAG),
    "num_threads": Field(_integer(None)),
    "block_lim": Field(_integer(1)),
    "loop_trips": Field(_integer(1)),
    "combine_threshold": Field(_byte_counts),
    "collective_rewrites": Field(_FLAG),
    "memory": Field(_FLAG),
    "separator": Field(_TEXT),
    "separator_policy": Field(_one_of("isolated", "end_block", "start_block")),
    "separator_node_type": Field(_TEXT),
}

#: Keys of ``perf_estimator``.
PERF_ESTIMATOR_KEYS: Mapping[str, Field] = {
    "method": Field(_TEXT, required=True),
    "hardware": Field(_hardware_value, required=True),
    "cache_dir": Field(_TEXT),
    "disable_cache": Field(_FLAG),
    "in_memory_only_cache": Field(_FLAG),
}

#: Keys of ``perf_estimator.hardware`` every method accepts.
HARDWARE_KEYS: Mapping[str, Field] = {
    "peak_flops": Field(_RATE, required=True),
    "memory_bandwidth": Field(_RATE, required=True),
    "per_datatype_flops": Field(_dtype_rates),
    "vector_flops": Field(_RATE),
    "num_npus": Field(_integer(1)),
    "hbm_bytes": Field(_integer(1)),
    "hbm_bytes_source": Field(_TEXT),
    "hbm_usable_fraction": Field(_number(0, maximum=1)),
    "tdp_W": Field(_number(0, inclusive=True)),
    "hbm_power_ratio": Field(_number(0, inclusive=True, maximum=1)),
    "warn_on_unknown_type": Field(_FLAG),
    "error_on_unknown_type": Field(_FLAG),
    "compiler": Field(_one_of("xla_gpu", "xla_tpu")),
    "compiler_source": Field(_TEXT),
}

#: Hardware keys that become `Hardware` fields or are not estimator settings at all.
_NOT_PARAMS = frozenset({"peak_flops", "memory_bandwidth", "per_datatype_flops", "vector_flops",
                         "num_npus", "hbm_bytes", "hbm_bytes_source", "hbm_usable_fraction"})

_PARAM_CHECKS: Mapping[type, Callable[[Any], str | None]] = {
    bool: _FLAG, int: _integer(None), float: Number().problem, str: _TEXT,
}


def _param_rule(kind: type | Number | Table) -> Field:
    """The rule of an estimator param: its `Number` range or `Table`, or any finite value of its
    type."""
    return Field(kind.problem if isinstance(kind, (Number, Table)) else _PARAM_CHECKS[kind])


def _check(section: Mapping[str, Any], rules: Mapping[str, Field], source: str,
           path: str) -> None:
    for key, value in section.items():
        rule = rules.get(key)
        if rule is None:
            known = ", ".join(sorted(rules))
            raise HespasError(f"{source}: unknown key {path}{key} (known: {known})")
        problem = rule.check(value)
        if problem:  # one entry's problem ("[key] ...") quotes that entry, not the whole value
            got = "" if problem.startswith("[") else f", got {shown(value)}"
            raise HespasError(f"{source}: {path}{key} {problem}{got}")
    for key, rule in rules.items():
        if rule.required and key not in section:
            raise HespasError(f"{source}: missing required key {path}{key}")


def _hardware_rules(method: str) -> dict[str, Field]:
    params = estimator_class(method).param_types
    return {**HARDWARE_KEYS, **{k: _param_rule(t) for k, t in params.items()}}


def _check_perf_estimator(perf: Mapping[str, Any], source: str, method: str | None) -> None:
    _check(perf, PERF_ESTIMATOR_KEYS, source, "perf_estimator.")
    chosen = method or perf["method"].strip().lower()
    estimator_class(chosen)  # unknown estimator names fail here, one line
    if isinstance(perf["hardware"], dict):
        _check(perf["hardware"], _hardware_rules(chosen), source, "perf_estimator.hardware.")


def validate_config(config: Mapping[str, Any], source: str, method: str | None = None) -> None:
    """Check a whole generation config (top level, ``perf_estimator``, ``hardware``).

    ``method``: the estimator whose params the hardware section may carry (default: the
    config's own ``perf_estimator.method``). Raises `HespasError("<source>: <problem>")` on the
    first problem. ``mlir_file`` and ``output_dir`` are not required here: the command line may
    supply them.
    """
    if not isinstance(config, dict):
        raise HespasError(f"{source}: the config must be a JSON object")
    _check(config, GEN_KEYS, source, "")
    _check_perf_estimator(config["perf_estimator"], source, method)


def parse_params(items: Sequence[str], method: str) -> dict[str, Any]:
    """Command-line ``KEY=VALUE`` params (``--param``) for estimator ``method``: each VALUE read
    as JSON (``true``, ``0.5``, ``128``), else as text, and checked as the same key of a config
    file's ``hardware`` section would be (`HespasError` naming ``--param KEY`` otherwise)."""
    rules = {k: v for k, v in _hardware_rules(method).items() if k not in _NOT_PARAMS}
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
    try:
        _check(params, rules, "--param", "")
    except HespasError as exc:
        raise HespasError(f"{exc} (estimator {method})") from None
    return params


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


def preset_names() -> list[str]:
    """Names of the repository's node presets, sorted."""
    if not PRESETS_DIR.is_dir():
        return []
    return sorted({p.parent.parent.name for p in PRESETS_DIR.glob("*/*/config.json")})


def preset_path(name: str, method: str = DEFAULT_METHOD) -> Path:
    """The config file of preset ``name`` for ``method`` (see the module docstring)."""
    for candidate in (PRESETS_DIR / name / method / "config.json",
                      PRESETS_DIR / name / DEFAULT_METHOD / "config.json"):
        if candidate.is_file():
            return candidate
    raise unknown_preset(name, "no such hardware config file or node preset", preset_names())


def hardware_from_config(config: Mapping[str, Any], source: str,
                         method: str | None = None, name: str = "") -> Hardware:
    """Build a `Hardware` from a parsed config holding ``perf_estimator`` (validated first,
    `validate_config`).

    ``method`` picks the estimator whose params the hardware section may carry (default: the
    config's own); ``name`` names the hardware (default: from the config's path).
    """
    validate_config(config, source, method)
    perf = config["perf_estimator"]
    method = method or perf["method"].strip().lower()
    hw = perf["hardware"]
    if isinstance(hw, str):
        return load_hardware(hw, method)
    params = {k: v for k, v in hw.items() if k not in _NOT_PARAMS}
    return Hardware(
        name=name or _config_name(Path(source)),
        peak_flops=float(hw["peak_flops"]),
        per_dtype_flops={k: float(v) for k, v in hw.get("per_datatype_flops", {}).items()},
        memory_bandwidth=float(hw["memory_bandwidth"]),
        vector_flops=float(hw.get("vector_flops", hw["peak_flops"])),
        params=params, hbm_bytes=int(hw.get("hbm_bytes", 0)),
        hbm_usable_fraction=float(hw.get("hbm_usable_fraction", 1.0)))


def _config_name(path: Path) -> str:
    """A readable hardware name: the preset directory for ``.../NAME/<method>/config.json``."""
    return path.parent.parent.name if path.name == "config.json" and path.parent.parent.name \
        else path.stem


def config_file(path_or_preset: str | Path, method: str = DEFAULT_METHOD,
                what: str = "hardware config file") -> tuple[Path, str]:
    """The config file an argument names (a file, a preset directory laid out as
    ``configs/nodes/NAME``, e.g. one ``hespas calibrate`` wrote, or the preset of that name for
    ``method``) and the hardware name a preset gives ("" for a file); `HespasError` naming
    ``what`` otherwise."""
    path = Path(path_or_preset)
    if path.is_file():
        return path, ""
    found = [p for p in (path / method / "config.json", path / DEFAULT_METHOD / "config.json")
             if p.is_file()]
    if path.is_dir() and found:
        return found[0], path.resolve().name
    if path.suffix or len(path.parts) > 1:
        raise HespasError(f"{path_or_preset}: no such {what}")
    return preset_path(str(path_or_preset), method), str(path_or_preset)


def load_hardware(path_or_preset: str, method: str = DEFAULT_METHOD) -> Hardware:
    """Read a hardware config file, or the preset of that name, for estimator ``method``."""
    path, name = config_file(path_or_preset, method)
    return hardware_from_config(read_config(path), str(path), method, name=name)
