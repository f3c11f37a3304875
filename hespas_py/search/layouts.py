"""The layouts of a search: every way to assign N devices to the named axes, times the ``--set``
lists."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from hespas_py.errors import HespasError


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def assignments(devices: int, axes: Sequence[str]) -> list[dict[str, int]]:
    """Every ``{axis: size}`` with sizes >= 1 whose product is ``devices``, later axes varying
    fastest (``dp, fsdp, tp`` on 8 devices: 10 assignments)."""
    if devices < 1:
        raise HespasError(f"--devices must be at least 1, not {devices}")
    if not axes:
        raise HespasError("--axes must name at least one axis")
    for axis in axes:
        if not axis.isidentifier():
            raise HespasError(f"--axes {axis}: an axis is a keyword argument name of the factory")
    if len(set(axes)) != len(axes):
        raise HespasError(f"--axes {','.join(axes)}: an axis is named twice")
    found: list[dict[str, int]] = []

    def place(left: int, i: int, chosen: dict[str, int]) -> None:
        if i == len(axes) - 1:
            found.append({**chosen, axes[i]: left})
            return
        for size in _divisors(left):
            place(left // size, i + 1, {**chosen, axes[i]: size})

    place(devices, 0, {})
    return found


def layouts(devices: int, axes: Sequence[str],
            settings: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Every device assignment crossed with every combination of the ``--set`` values (a key may
    not also be an axis)."""
    for key in settings:
        if key in axes:
            raise HespasError(f"--set {key}: {key} is an axis (its sizes are enumerated)")
    combos = [dict(zip(settings, values, strict=True))
              for values in itertools.product(*settings.values())]
    return [{**sizes, **combo} for sizes in assignments(devices, axes) for combo in combos]
