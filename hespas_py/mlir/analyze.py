"""Op histogram of a module, printed in the published Hespas analyzer's layout.

The top-level histogram counts the entry function's own ops (``func.call`` and ``mhlo.fusion``
count as one op each, the final ``func.return`` included). Operators are sorted by count,
descending; ties keep the order in which the operators first appear in the function.

Expanded counting (``expand=True``, ``hespas_mlir_analyzer -e``, ``hespas analyze --expand``)
counts what runs:

* every ``func.call`` is replaced by its callee's ops, once per call site (nested calls too);
* every ``mhlo.fusion`` and ``sdy.manual_computation`` is replaced by the ops of its body;
* ``while``, ``case`` and ``if`` are counted themselves, followed by the ops of their bodies
  (once each, not multiplied by a trip count);
* the terminators of expanded bodies (``func.return``, ``stablehlo.return``, ``mhlo.return``,
  ``sdy.return``) are not counted; reducer bodies (of ``reduce``, ``all_reduce``, ``sort``, ...)
  are part of their op and are not expanded.

How the published tool's ``-e`` differs: it splices in each called function's ops walked
recursively, so reducer bodies inside called functions (and their ``stablehlo.return``) are
counted while those of the entry function are not; it expands neither control-flow nor
``sdy.manual_computation`` bodies (a Shardy module stays at two ops). Its documented defect is
that a called body is counted once per definition rather than per call; on the shared ResNet-50
step its expansion is per call site and the totals differ only by those reducer-body ops: Hespas
10215, hespas_py 10191 (the 24 ops in the reducer bodies of called functions).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any
from collections.abc import Sequence

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
