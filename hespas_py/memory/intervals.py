"""Buffers over kernel positions, as `hespas_py.memory.liveness` finds them: which temporaries
borrow an output's allocation, and the position where the rest are largest together.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Buffers of a scope's peak kept for the report, largest first.
TOP_BUFFERS = 10


@dataclass(frozen=True, slots=True)
class Buffer:
    """One buffer in device memory.

    Attributes:
        op: the op that writes it (``parameter`` for an entry argument), dialect included.
        shape: its dimensions.
        dtype: its element type.
        bytes: its size.
        kind: ``argument``, ``output`` or ``temporary``.
    """

    op: str
    shape: tuple[int, ...]
    dtype: str
    bytes: int
    kind: str

    def as_json(self) -> dict:
        return {"op": self.op, "shape": list(self.shape), "dtype": self.dtype,
                "bytes": self.bytes, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class ScopePeak:
    """The most temporary bytes one scope holds at once.

    Attributes:
        bytes: that figure, nested control flow included.
        live: the largest temporaries live then (at most `TOP_BUFFERS`), largest first.
    """

    bytes: int
    live: tuple[Buffer, ...] = ()


@dataclass(slots=True)
class Interval:
    """One buffer over kernel positions (values that reuse it extend it).

    Attributes:
        birth, death: the positions of its first writer and last reader.
        nbytes: its size.
        key: the first planned value stored in it (-1 for none).
        shown: how the report shows it, when no planned value does (a buffer a backend's
            rewrite adds).
    """

    birth: int
    death: int
    nbytes: int
    key: int
    shown: Buffer | None = None


class _Allocation:
    """An output's allocation: its size and the disjoint intervals it is busy, by start."""

    def __init__(self, size: int, written: int) -> None:
        self.size = size
        self.starts: list[float] = [written]
        self.stops: list[float] = [float("inf")]

    def take(self, birth: int, death: int) -> bool:
        """Hold a buffer live over [birth, death] if nothing else is then; whether it did."""
        i = bisect.bisect_right(self.starts, birth)
        if (i and self.stops[i - 1] >= birth) or (i < len(self.starts)
                                                   and self.starts[i] <= death):
            return False
        self.starts.insert(i, birth)
        self.stops.insert(i, death)
        return True


def borrow_output_buffers(intervals: list[Interval],
                          slots: Sequence[tuple[int, int]]) -> list[Interval]:
    """The temporaries left for the temporary block once others borrow output buffers.

    XLA's buffer assignment (``BufferAssigner::AssignBuffersForComputations``,
    ``xla/service/buffer_assignment.cc``) visits buffers largest first, an output before a
    temporary of its size, and puts a temporary into an existing allocation, output allocations
    included, that is at least as large and holds nothing live at the same time; only the
    temporaries that find none go to the heap-simulated temporary block. An output allocation
    is busy from the kernel that writes the output (``slots``: size, that position) to the end.
    """
    allocations = sorted((_Allocation(size, written) for size, written in slots),
                         key=lambda a: -a.size)
    left: list[Interval] = []
    for buffer in sorted(intervals, key=lambda b: -b.nbytes):
        if not any(a.size >= buffer.nbytes and a.take(buffer.birth, buffer.death)
                   for a in allocations):
            left.append(buffer)
    return left


def sweep(intervals: list[Interval], extra: dict[int, ScopePeak],
          shown: Callable[[Interval], Buffer]) -> ScopePeak:
    """The position where live buffers (plus ``extra``, nested peaks by position) are largest,
    and what is live there (each interval as ``shown`` shows it)."""
    births = sorted(intervals, key=lambda b: b.birth)
    ending: list[tuple[int, int]] = []  # (death, index in births)
    times = sorted({b.birth for b in intervals} | set(extra))
    live, best, best_t = 0, -1, None
    i = 0
    for t in times:
        while i < len(births) and births[i].birth <= t:
            live += births[i].nbytes
            heapq.heappush(ending, (births[i].death, i))
            i += 1
        while ending and ending[0][0] < t:
            live -= births[heapq.heappop(ending)[1]].nbytes
        total = live + (extra[t].bytes if t in extra else 0)
        if total > best:
            best, best_t = total, t
    if best_t is None:
        return ScopePeak(0)
    at_peak = [shown(b) for b in intervals if b.birth <= best_t <= b.death]
    nested = extra[best_t].live if best_t in extra else ()
    live_buffers = sorted([*at_peak, *nested], key=lambda b: -b.bytes)[:TOP_BUFFERS]
    return ScopePeak(best, tuple(live_buffers))
