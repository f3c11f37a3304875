"""A DAG whose nodes merge: reachability questions answered fast, edges kept through merges.

Both the fusion model (sibling kernels merged into multi-output kernels) and the collective
combiner (independent collectives merged into one) ask, for many pairs, whether one node reaches
another, and merge nodes when it does not. Every node keeps a level that grows strictly along
every edge, so a search for a path to ``dst`` never enters a node whose level is not below
``dst``'s: without that bound a search walked everything downstream, which made an 80-layer
unrolled step's kernel plan quadratic.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Sequence


class Dag:
    """Edges from a producer node to its consumers over nodes numbered ``0 .. count - 1``.

    Attributes:
        succ: per node, the nodes that consume one of its results.
        pred: per node, the nodes whose results it consumes.
        level: per node, a number strictly smaller than every successor's.
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

    def order(self, priority: Callable[[int], int] | None = None) -> list[int]:
        """Every node in a topological order: of the nodes whose predecessors all came, the
        one of least ``priority`` next, or without one the one that became ready first (nodes
        that become ready together in ascending order: a breadth-first order). Nodes on a
        cycle, and those after one, are left out (a caller can tell by the length)."""
        waiting = {node: len(pred) for node, pred in self.pred.items()}
        sequence = itertools.count()
        key = priority or (lambda _: next(sequence))
        ready = [(key(node), node) for node in sorted(waiting) if waiting[node] == 0]
        heapq.heapify(ready)
        order = []
        while ready:
            _, node = heapq.heappop(ready)
            order.append(node)
            for succ in sorted(self.succ[node]):
                waiting[succ] -= 1
                if waiting[succ] == 0:
                    heapq.heappush(ready, (key(succ), succ))
        return order

    def reaches(self, src: int, dst: int) -> bool:
        """Whether ``dst`` depends on ``src``, directly or through other nodes."""
        return dst in self.succ[src] or self.reaches_via_other(src, dst)

    def linked(self, nodes: Sequence[int], other: int) -> bool:
        """Whether ``other`` depends on one of ``nodes`` or one of them on ``other``."""
        if not nodes:
            return False
        targets = set(nodes)
        low = min(self.level[n] for n in nodes)
        high = max(self.level[n] for n in nodes)
        return (self._search(other, self.pred, targets, lambda g: self.level[g] >= low)
                or self._search(other, self.succ, targets, lambda g: self.level[g] <= high))

    @staticmethod
    def _search(start: int, edges: dict[int, set[int]], targets: set[int],
                inside: Callable[[int], bool]) -> bool:
        """Whether following ``edges`` from ``start`` through nodes ``inside`` hits a target."""
        stack = [start]
        seen = {start}
        while stack:
            for nxt in edges[stack.pop()]:
                if nxt in targets:
                    return True
                if nxt not in seen and inside(nxt):
                    seen.add(nxt)
                    stack.append(nxt)
        return False

    def reaches_via_other(self, src: int, dst: int) -> bool:
        """Whether a path leads from ``src`` to ``dst`` through at least one other node."""
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
