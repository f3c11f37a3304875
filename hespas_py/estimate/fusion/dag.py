"""The kernel DAG multi-output fusion edits: which kernel's results which kernels read, whether a
merge of two kernels would close a cycle, and the merge itself.

Reachability is the hot question (asked for every pair of sibling candidates), so every kernel
keeps a level that grows strictly along every edge: a search for a path to ``dst`` never enters
a kernel whose level is not below ``dst``'s. Without that bound a search walked everything
downstream, which made an 80-layer unrolled step's plan quadratic.
"""

from __future__ import annotations

from collections.abc import Iterable


class KernelDag:
    """Writer kernel -> reader kernel edges over kernels numbered ``0 .. count - 1``.

    Attributes:
        succ: per kernel, the kernels that read one of its results.
        pred: per kernel, the kernels whose results it reads.
        level: per kernel, a number strictly smaller than every successor's.
    """

    def __init__(self, count: int, edges: Iterable[tuple[int, int]]) -> None:
        self.succ: dict[int, set[int]] = {g: set() for g in range(count)}
        self.pred: dict[int, set[int]] = {g: set() for g in range(count)}
        for writer, reader in edges:
            self.succ[writer].add(reader)
            self.pred[reader].add(writer)
        self.level: dict[int, int] = {}
        waiting = {g: len(p) for g, p in self.pred.items()}
        ready = [g for g, n in waiting.items() if n == 0]
        while ready:
            g = ready.pop()
            self.level[g] = 1 + max((self.level[p] for p in self.pred[g]), default=-1)
            for s in self.succ[g]:
                waiting[s] -= 1
                if waiting[s] == 0:
                    ready.append(s)

    def reaches_via_other(self, src: int, dst: int) -> bool:
        """Whether a path leads from ``src`` to ``dst`` through at least one other kernel."""
        bound = self.level[dst]
        stack = [g for g in self.succ[src] if g != dst and self.level[g] < bound]
        seen = set(stack)
        while stack:
            for nxt in self.succ[stack.pop()]:
                if nxt == dst:
                    return True
                if nxt not in seen and self.level[nxt] < bound:
                    seen.add(nxt)
                    stack.append(nxt)
        return False

    def merge(self, keep: int, drop: int) -> None:
        """Make ``drop``'s edges ``keep``'s (the caller checked that no cycle results)."""
        for s in self.succ.pop(drop):
            self.pred[s].discard(drop)
            if s != keep:
                self.succ[keep].add(s)
                self.pred[s].add(keep)
        for p in self.pred.pop(drop):
            self.succ[p].discard(drop)
            if p != keep:
                self.pred[keep].add(p)
                self.succ[p].add(keep)
        self._raise_levels(keep, max(self.level[keep], self.level.pop(drop)))

    def _raise_levels(self, start: int, level: int) -> None:
        """Give ``start`` ``level`` and push its descendants up until levels grow along edges."""
        self.level[start] = level
        stack = [start]
        while stack:
            g = stack.pop()
            for s in self.succ[g]:
                if self.level[s] <= self.level[g]:
                    self.level[s] = self.level[g] + 1
                    stack.append(s)
