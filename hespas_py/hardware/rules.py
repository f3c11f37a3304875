"""What a config value must be, beyond `hespas_py.checks.Number` and `Table`: a kind (true/false,
text, object), one of a few names, a table of rates per element type.

Every rule has ``problem(value)`` (``"must be ..."`` or None) and ``describe()`` (the rule in
words, for help and the parameter table); `typed` turns a checked value into the type its
field holds. They are plain classes, not dataclasses: every run imports them, and a dataclass
costs most of a millisecond to create.
"""

from __future__ import annotations

from typing import Any

from hespas_py.checks import Number, Table, shown


class Kind:
    """A value of one JSON kind: ``bool`` (true or false), ``str`` or ``dict`` (an object)."""

    __slots__ = ("kind",)

    def __init__(self, kind: type) -> None:
        self.kind = kind

    def describe(self) -> str:
        return {bool: "true or false", str: "a string", dict: "an object"}[self.kind]

    def problem(self, value: Any) -> str | None:
        return None if isinstance(value, self.kind) else f"must be {self.describe()}"


class Choice:
    """One of a few names (case and surrounding blanks ignored)."""

    __slots__ = ("choices",)

    def __init__(self, choices: tuple[str, ...]) -> None:
        self.choices = choices

    def describe(self) -> str:
        return f"one of {', '.join(self.choices)}"

    def problem(self, value: Any) -> str | None:
        if isinstance(value, str) and value.strip().lower() in self.choices:
            return None
        return f"must be {self.describe()}"


class Rates:
    """An object mapping element types (``bf16``, ``f8E4M3FN``, ...) to rates kept by ``rate``."""

    __slots__ = ("rate",)

    def __init__(self, rate: Number) -> None:
        self.rate = rate

    def describe(self) -> str:
        return "an object mapping element types to FLOP/s"

    def problem(self, value: Any) -> str | None:
        if not isinstance(value, dict):
            return f"must be {self.describe()}"
        for dtype, rate in value.items():
            problem = self.rate.problem(rate)
            if problem:
                return f"[{dtype!r}] {problem}, got {shown(rate)}"
        return None


#: Any rule a config key can have.
Rule = Number | Table | Kind | Choice | Rates

FLAG = Kind(bool)
TEXT = Kind(str)
OBJECT = Kind(dict)


def with_value(problem: str, value: Any) -> str:
    """A rule's ``problem`` with the ``value`` it refused (one entry's problem, ``[key] ...``,
    quotes that entry, not the whole value)."""
    return problem if problem.startswith("[") else f"{problem}, got {shown(value)}"


def typed(rule: Rule, value: Any) -> Any:
    """``value`` (already kept by ``rule``) as its field holds it: floats for numbers, integers
    for integer numbers, integer keys for a `Table` keyed by counts."""
    if value is None:
        return None
    if isinstance(rule, Number):
        return int(value) if rule.integer else float(value)
    if isinstance(rule, Table):
        return {(k if rule.keys else int(k)): float(v) for k, v in value.items()}
    if isinstance(rule, Rates):
        return {k: float(v) for k, v in value.items()}
    return value


def as_json(value: Any) -> Any:
    """A typed value back in its config form (a table's keys as strings)."""
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    return value
