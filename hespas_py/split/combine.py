"""XLA's collective combiners, applied to a program's op groups (opt-in: ``combine_threshold``).

Why and how: docs/split.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from hespas_py.dag import Dag
from hespas_py.errors import HespasError
from hespas_py.mlir.ops import Op
from hespas_py.split.graph import Program, block_index

#: Most ops one combined collective takes: the count threshold XLA's GPU compiler passes to every
#: combiner (``combine_threshold_count=256``, xla/service/gpu/gpu_compiler.cc).
COUNT_LIMIT = 256
#: XLA's default combine threshold of each kind on GPU (``--xla_gpu_*_combine_threshold_bytes``:
#: 30 MiB, xla/debug_options_flags.cc).
XLA_DEFAULT_THRESHOLD = 30 * 1024 * 1024
#: Kinds that combine, and the attributes besides the groups that must match.
_KEY_ATTRS = {"all_reduce": (), "reduce_scatter": ("scatter_dimension",),
              "all_gather": ("all_gather_dim",)}


@dataclass(frozen=True)
class Thresholds:
    """Bytes (of results) up to which each kind of collective combines; 0: it never does.

    Attributes:
        all_reduce: XLA's ``--xla_gpu_all_reduce_combine_threshold_bytes``.
        all_gather: ``--xla_gpu_all_gather_combine_threshold_bytes``.
        reduce_scatter: ``--xla_gpu_reduce_scatter_combine_threshold_bytes``.
    """

    all_reduce: int = 0
    all_gather: int = 0
    reduce_scatter: int = 0

    def __bool__(self) -> bool:
        return any(asdict(self).values())

    @classmethod
    def of(cls, value: Any, what: str = "combine_threshold") -> Thresholds:
        """Read ``value``: one byte count for every kind, a ``{kind: bytes}`` mapping, or the
        command line's ``BYTES`` / ``kind=BYTES,kind=BYTES`` (kinds left out never combine).
        A problem is a `HespasError` naming ``what``."""
        if isinstance(value, Thresholds):
            return value
        if isinstance(value, str):
            text = value.replace(" ", "")
            value = dict(p.partition("=")[::2] for p in text.split(",")) if "=" in text else text
            value = {k: _byte_count(v, f"{what}.{k}") for k, v in value.items()} \
                if isinstance(value, dict) else _byte_count(value, what)
        if isinstance(value, Mapping):
            kinds = [f.name for f in fields(cls)]
            unknown = [k for k in value if k not in kinds]
            if unknown:
                raise HespasError(f"{what}: unknown collective kind {unknown[0]!r} "
                                  f"(known: {', '.join(kinds)})")
            return cls(**{k: _byte_count(v, f"{what}.{k}") for k, v in value.items()})
        count = _byte_count(value, what)
        return cls(count, count, count)

    def as_json(self) -> int | dict[str, int]:
        """One number when every kind has the same threshold, else the kinds that combine."""
        values = asdict(self)
        if len(set(values.values())) == 1:
            return self.all_reduce
        return {k: v for k, v in values.items() if v}


#: The combiners' thresholds XLA's GPU compiler uses unless told otherwise.
DEFAULT_COMBINE = Thresholds(XLA_DEFAULT_THRESHOLD, XLA_DEFAULT_THRESHOLD, XLA_DEFAULT_THRESHOLD)


def _byte_count(value: Any, what: str) -> int:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise HespasError(f"{what} must be 0 (off) or more bytes, not {value!r}")
    return value


def combine_key(op: Op) -> tuple | None:
    """What must match for two collectives to combine (see the module docstring); None for an op
    that never combines."""
    kind = op.short_name
    if kind not in _KEY_ATTRS or len(op.operands) != 1 or not op.result_types:
        return None
    key: tuple = (kind, op.attrs.get("replica_groups"), "channel_handle" in op.attrs,
                  bool(op.attrs.get("use_global_device_ids")),
                  *(op.attrs.get(name) for name in _KEY_ATTRS[kind]))
    if kind != "all_gather":
        body = op.regions[0].ops if op.regions else ()
        if len(body) != 2:  # one reduction op and the return
            return None
        key += (body[0].name, op.result_types[0].dtype)
    return key


def combine_groups(program: Program, groups: Sequence[Sequence[int]],
                   thresholds: Thresholds) -> list[list[int]]:
    """``groups`` (op positions of ``program``, in block order) with combinable collectives
    merged into one group each. Independence is decided op by op, as XLA decides it, not block
    by block (a compute block often holds work that waits for one collective beside work that
    another collective waits for); where a merged collective has to run before ops of a block
    that came earlier, that block is cut in two around it."""
    producer = program.producer
    dag = Dag(len(program.ops), ((producer[v], p) for p, used in enumerate(program.uses)
                                 for v in used if v in producer))
    pending = {position: entry for position, op in enumerate(program.ops)
               if program.collective[position]
               and (entry := pending_entry(op, thresholds)) is not None}
    merged = combine_all(dag, pending, thresholds)
    if not merged:
        return [list(group) for group in groups]
    return _recut(block_index(program, groups), schedule_merged(dag, merged), merged)


def pending_entry(op: Op, thresholds: Thresholds) -> tuple[tuple, int] | None:
    """(`combine_key`, result bytes) of a collective ``op`` that ``thresholds`` let combine;
    None otherwise."""
    key = combine_key(op)
    if key is None or not getattr(thresholds, key[0]):
        return None
    return key, sum(t.nbytes for t in op.result_types)


def combine_all(dag: Dag, pending: dict[int, tuple[tuple, int]],
                thresholds: Thresholds) -> dict[int, list[int]]:
    """Combining rounds (`_round`) until ``pending`` (node -> `pending_entry`) is empty, each
    round's members merged into its first node of ``dag``; the combined groups of two or more,
    keyed by that first node."""
    merged: dict[int, list[int]] = {}
    while pending:
        taken = _round(dag, pending, thresholds)
        for node in taken[1:]:
            dag.merge(taken[0], node)
        if len(taken) > 1:
            merged[taken[0]] = taken
    return merged


def _round(dag: Dag, pending: dict[int, tuple[tuple, int]],
                  thresholds: Thresholds) -> list[int]:
    """One round of `CombineInstructionsByKey` (see the module docstring) over ``pending``
    (node of ``dag`` -> (`combine_key`, result bytes), in program order); takes what it visits
    out of ``pending`` and returns the nodes it combines (one or none when nothing combines)."""
    taken: list[int] = []
    visited: list[int] = []  # taken, or too large to combine: out of ``pending`` after the round
    key, threshold, total = None, 0, 0
    for position, (op_key, size) in pending.items():
        if not taken:
            key, threshold = op_key, getattr(thresholds, op_key[0])
        elif op_key != key:
            continue
        if size > threshold:
            visited.append(position)
            continue
        if total + size > threshold or len(taken) >= COUNT_LIMIT or dag.linked(taken, position):
            break
        taken.append(position)
        visited.append(position)
        total += size
    for position in visited:
        del pending[position]
    return taken


def schedule_merged(dag: Dag, merged: dict[int, list[int]]) -> list[int]:
    """The nodes of ``dag`` (numbered in program order; a merged collective by its first member,
    ``merged``: first member -> members) in a topological order that keeps program order where
    it can; a merged collective counts as being where its last member was, so the work the
    others did not wait for stays before it."""
    return dag.order(lambda node: merged[node][-1] if node in merged else node)


def _recut(block_of: Sequence[int], order: list[int], merged: dict[int, list[int]]) -> list[list[int]]:
    """Groups along ``order``: a merged collective alone, every other op with the ops of its
    former group next to it in ``order``; an op of no group (``block_of`` -1: the loop counter's
    ops) stays in none."""
    groups: list[list[int]] = []
    last = None
    for node in order:
        if node in merged:
            groups.append(merged[node])
            last = None
        elif block_of[node] < 0:
            continue
        elif block_of[node] == last:
            groups[-1].append(node)
        else:
            groups.append([node])
            last = block_of[node]
    return groups
