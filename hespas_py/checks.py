"""Numbers read from inputs, checked in one place: the right type, finite, in range.

Every reader of numbers (node configs and ``--param``, ASTRA-sim system folders, sweep specs,
estimate caches) states each number's rule as a `Number`; a value that breaks it is one
`HespasError` naming the file and the key. JSON and YAML both read ``NaN`` and ``Infinity``, so
"it parsed as a number" is not enough.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from hespas_py.errors import HespasError


@dataclass(frozen=True)
class Number:
    """What one number must be.

    Attributes:
        low: the least value allowed (None: no lower bound).
        high: the largest value allowed (None: no upper bound, but always finite).
        low_open: ``low`` itself is not allowed (the value must be ``> low``).
        integer: only integers (an integral float such as ``4.0`` is not one).
        why_high: what sets ``high``, appended to the message (e.g. "the simulator's limit").
    """

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    integer: bool = False
    why_high: str = ""

    def describe(self) -> str:
        """The rule in words: ``an integer >= 1 and <= 131072``."""
        bounded = self.low is not None or self.high is not None
        parts = ["an integer" if self.integer else "a number" if bounded else "a finite number"]
        if self.low is not None:
            parts.append(f"{'>' if self.low_open else '>='} {self._bound(self.low)}")
        if self.high is not None:
            parts.append(f"{'and ' if self.low is not None else ''}<= {self._bound(self.high)}"
                         + (f" ({self.why_high})" if self.why_high else ""))
        return " ".join(parts)

    def _bound(self, bound: float) -> str:
        return str(int(bound)) if self.integer else f"{bound:g}"

    def problem(self, value: Any) -> str | None:
        """``must be <rule>`` when ``value`` breaks the rule, else None."""
        kinds = (int,) if self.integer else (int, float)
        ok = (isinstance(value, kinds) and not isinstance(value, bool)
              and math.isfinite(value)
              and (self.low is None or (value > self.low if self.low_open else value >= self.low))
              and (self.high is None or value <= self.high))
        return None if ok else f"must be {self.describe()}"

    def check(self, value: Any, where: str, key: str) -> Any:
        """``value`` when it keeps the rule; otherwise `HespasError` ``<where>: <key> must be
        ..., got <value>``."""
        problem = self.problem(value)
        if problem:
            raise HespasError(f"{where}: {key} {problem}, got {shown(value)}")
        return value


@dataclass(frozen=True)
class Table:
    """What a table of numbers must be: at least one entry, each value kept by ``value``, keyed
    by positive integers (a JSON object's keys, e.g. channel counts) or, where ``keys`` names
    them, by some of those names."""

    value: Number
    keys: tuple[str, ...] = ()

    def describe(self) -> str:
        keys = f"keys among {', '.join(self.keys)}" if self.keys else "positive integer keys"
        return f"an object of {keys} to {self.value.describe()}"

    def _key_ok(self, key: Any) -> bool:
        if self.keys:
            return key in self.keys
        return isinstance(key, str) and key.isdigit() and int(key) > 0

    def problem(self, value: Any) -> str | None:
        """``must be <rule>`` when ``value`` breaks the rule, else None."""
        ok = (isinstance(value, dict) and bool(value)
              and all(self._key_ok(k) and self.value.problem(v) is None
                      for k, v in value.items()))
        return None if ok else f"must be {self.describe()}"


def shown(value: Any) -> str:
    """A value as an error message quotes it (JSON where it can be, so NaN reads ``NaN``)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: The largest integer a Chakra trace field holds (``num_ops``, ``comm_size``: int64).
TRACE_INT_MAX = (1 << 63) - 1

#: A time, delay or count that may be zero.
NON_NEGATIVE = Number(0)
#: A share of a peak: above zero, at most one.
FRACTION = Number(0, 1, low_open=True)
#: A share that may be zero.
SHARE = Number(0, 1)
