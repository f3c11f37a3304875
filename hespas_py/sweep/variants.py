"""System variants: what each ``variants`` key of a sweep spec does to a machine's ASTRA-sim files.

Why and how: docs/sweeps.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hespas_py.checks import Number
from hespas_py.errors import HespasError
from hespas_py.sim.inputs import BANDWIDTH, LATENCY, parse_algorithm
from hespas_py.sim.machine import (
    ALGORITHMS,
    IMPLEMENTATION_KEYS,
    TOPOLOGIES,
    NetworkConfig,
    SystemConfig,
)

Machine = tuple[SystemConfig, NetworkConfig]
#: ``bandwidth_scale``: a factor within a million either way.
_SCALE = Number(1e-6, 1e6)


def _topology(value: Any) -> str | None:
    return None if value in TOPOLOGIES else f"must be one of {', '.join(TOPOLOGIES)}"


def _algorithm(value: Any) -> str | None:
    try:
        parse_algorithm(value if isinstance(value, str) else "")
    except ValueError:
        return f"must be one of {', '.join(ALGORITHMS)}"
    return None


def _optimization(value: Any) -> str | None:
    return None if value in ("baseline", "localBWAware") else "must be baseline or localBWAware"


def _per_dimension(value: Any, dims: int) -> tuple:
    return tuple(value) if isinstance(value, list) else (value,) * dims


def _network(field: str, kind: type) -> Callable[[Any, Machine], Machine]:
    def apply(value: Any, machine: Machine) -> Machine:
        system, network = machine
        values = tuple(kind(v) for v in _per_dimension(value, len(network.npus_count)))
        return system, dataclasses.replace(network, **{field: values})
    return apply


def _scale_bandwidth(value: Any, machine: Machine) -> Machine:
    system, network = machine
    return system, dataclasses.replace(network, bandwidth=tuple(b * value
                                                                for b in network.bandwidth))


def _set_algorithm(value: Any, machine: Machine) -> Machine:
    system, network = machine
    algorithms = tuple(map(parse_algorithm, _per_dimension(value, len(network.npus_count))))
    return dataclasses.replace(system, implementations={c: algorithms
                                                        for c in IMPLEMENTATION_KEYS}), network


def _set_optimization(value: Any, machine: Machine) -> Machine:
    system, network = machine
    return dataclasses.replace(system, collective_optimization=value), network


@dataclass(frozen=True)
class VariantKey:
    """One ``variants`` key.

    Attributes:
        check: returns the problem with one (per-dimension: one dimension's) value, or None.
        apply: the machine with the value applied.
        per_dimension: whether a value may be a list with one entry per network dimension.
    """

    check: Callable[[Any], str | None]
    apply: Callable[[Any, Machine], Machine]
    per_dimension: bool = False


#: The keys, in the order they are applied.
VARIANT_KEYS: Mapping[str, VariantKey] = {
    "bandwidth": VariantKey(BANDWIDTH.problem, _network("bandwidth", float), per_dimension=True),
    "latency": VariantKey(LATENCY.problem, _network("latency", float), per_dimension=True),
    "topology": VariantKey(_topology, _network("topology", str), per_dimension=True),
    "algorithm": VariantKey(_algorithm, _set_algorithm, per_dimension=True),
    "collective_optimization": VariantKey(_optimization, _set_optimization),
    "bandwidth_scale": VariantKey(_SCALE.problem, _scale_bandwidth),
}


def _problem(rule: VariantKey, value: Any) -> str | None:
    if not (rule.per_dimension and isinstance(value, list)):
        return rule.check(value)
    if not value:
        return "must not be an empty list"
    return next(filter(None, map(rule.check, value)), None)


def check_variants(variants: Any, source: str) -> dict[str, list]:
    """The ``variants`` mapping of a spec, checked value by value (`HespasError` naming
    ``source`` and the key); per-dimension lengths are checked per system by `check_dimensions`."""
    if not isinstance(variants, dict):
        raise HespasError(f"{source}: variants must map variant keys to lists of values")
    for key, values in variants.items():
        rule = VARIANT_KEYS.get(key)
        if rule is None:
            raise HespasError(f"{source}: unknown variant key {key!r} "
                              f"(known: {', '.join(VARIANT_KEYS)})")
        if not isinstance(values, list) or not values:
            raise HespasError(f"{source}: variants.{key} must be a non-empty list of values")
        for i, value in enumerate(values):
            problem = _problem(rule, value)
            if problem:
                raise HespasError(f"{source}: variants.{key}[{i}] {problem}, got {value!r}")
    return dict(variants)


def check_dimensions(variants: Mapping[str, list], dims: int, system: str, source: str) -> None:
    """Every per-dimension list value has one entry per dimension of ``system``."""
    for key, values in variants.items():
        for i, value in enumerate(values):
            if isinstance(value, list) and len(value) != dims:
                raise HespasError(f"{source}: variants.{key}[{i}] has {len(value)} values but "
                                  f"system {system} has {dims} network dimension(s)")


def apply_variant(variant: Mapping[str, Any], machine: Machine) -> Machine:
    """``machine`` with one value per key applied, in `VARIANT_KEYS` order."""
    for key, rule in VARIANT_KEYS.items():
        if key in variant:
            machine = rule.apply(variant[key], machine)
    return machine
