"""Op histogram of a module, printed in the published Hespas analyzer's layout.

Why and how: docs/mlir.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hespas_py.mlir.ops import TERMINATORS, Module, Op, Region

#: Ops replaced by the ops of their regions when expanding.
CONTAINERS = frozenset({"func.call", "mhlo.fusion", "sdy.manual_computation"})
#: Ops counted themselves and followed by the ops of their regions when expanding.
CONTROL_FLOW = frozenset({"stablehlo.while", "stablehlo.case", "stablehlo.if", "mhlo.while",
                          "mhlo.case", "mhlo.if"})
#: Ops whose regions an expanded histogram reads.
EXPANDED = CONTAINERS | CONTROL_FLOW

_RULE = "-" * 35
_NAME_WIDTH = 30


@dataclass(frozen=True)
class Histogram:
    """How often each operator occurs in a module.

    Attributes:
        path: the module's file (``<file>#N`` for module ``N`` of a file that holds several).
        expanded: whether calls, fusions and control-flow bodies were expanded.
        counts: ``(operator, count)`` sorted by count, descending; ties in order of first use.
        name: the module's symbol name, or ``""``.
    """

    path: str
    expanded: bool
    counts: tuple[tuple[str, int], ...]
    name: str = ""

    @property
    def unique(self) -> int:
        """Number of distinct operators."""
        return len(self.counts)

    @property
    def total(self) -> int:
        """Number of ops counted."""
        return sum(count for _, count in self.counts)


def histogram(module: Module, expand: bool = False) -> Histogram:
    """The op histogram of ``module``'s entry function."""
    if expand:
        counts = _expanded(module.ops, {})
    else:
        counts = Counter(op.name for op in module.ops)
    ordered = sorted(counts.items(), key=lambda item: item[1], reverse=True)  # stable: ties stay
    return Histogram(module.path, expand, tuple(ordered), module.name)


def _expanded(ops: tuple[Op, ...], memo: dict[int, Counter[str]]) -> Counter[str]:
    """Expanded counts of ``ops``; ``memo`` holds each region's counts by ``id(region)``."""
    counts: Counter[str] = Counter()
    for op in ops:
        name = op.name
        if name in CONTAINERS:
            for region in op.regions:
                counts.update(_region_counts(region, memo))
            if not op.regions:
                counts[name] += 1
        elif name in CONTROL_FLOW:
            counts[name] += 1
            for region in op.regions:
                counts.update(_region_counts(region, memo))
        else:
            counts[name] += 1
    return counts


def _region_counts(region: Region, memo: dict[int, Counter[str]]) -> Counter[str]:
    """Expanded counts of a region's ops, its terminator left out; computed once per region."""
    counts = memo.get(id(region))
    if counts is None:
        body = region.ops[:-1] if region.ops and region.ops[-1].name in TERMINATORS else region.ops
        counts = memo[id(region)] = _expanded(body, memo)
    return counts


def render_text(result: Histogram, csv: bool = False) -> str:
    """The histogram as the published analyzer prints it (``csv``: its ``-f csv`` rows)."""
    lines = ["MLIR Analysis Results:", _RULE, f"Unique Operators   : {result.unique}", "",
             "Operator Histogram:"]
    for name, count in result.counts:
        lines.append(f"{name},{count}" if csv else f"  {name:.<{_NAME_WIDTH}}: {count:>5}")
    lines += [_RULE, f"  {'Total Operators':.<{_NAME_WIDTH}}: {result.total:>5}", ""]
    return "\n".join(lines)


def to_json(result: Histogram) -> dict[str, Any]:
    """The histogram as a JSON-ready dict (operators in histogram order)."""
    return {
        "file": result.path,
        "expanded": result.expanded,
        "unique_operators": result.unique,
        "total_operators": result.total,
        "histogram": dict(result.counts),
    }


def render_modules(results: Sequence[Histogram], csv: bool = False) -> str:
    """`render_text` of a file's one module; of several, each after a line naming it
    (``Module 2 of 3: <file>#2 (@name)``)."""
    if len(results) == 1:
        return render_text(results[0], csv)
    return "\n".join(
        f"Module {i} of {len(results)}: {r.path}{f' (@{r.name})' if r.name else ''}\n"
        + render_text(r, csv) for i, r in enumerate(results, 1))


def modules_json(results: Sequence[Histogram]) -> dict[str, Any] | list[dict[str, Any]]:
    """`to_json` of a file's one module; a list of them, in file order, for several."""
    return to_json(results[0]) if len(results) == 1 else [to_json(r) for r in results]
