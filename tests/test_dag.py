"""`hespas_py.dag.Dag`: level-bounded reachability stays exact across merges."""

from __future__ import annotations

import random

from hespas_py.dag import Dag


def reaches_via_other(succ: dict[int, set[int]], src: int, dst: int) -> bool:
    """Plain search over every kernel downstream (the reference)."""
    stack = [g for g in succ[src] if g != dst]
    seen = set(stack)
    while stack:
        for nxt in succ[stack.pop()]:
            if nxt == dst:
                return True
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


def test_levels_grow_along_edges_and_paths_are_found():
    dag = Dag(5, [(0, 1), (1, 2), (0, 2), (3, 4)])
    assert all(dag.level[a] < dag.level[b] for a in dag.succ for b in dag.succ[a])
    assert dag.reaches_via_other(0, 2)          # 0 -> 1 -> 2
    assert not dag.reaches_via_other(0, 1)      # only the direct edge
    assert dag.reaches(0, 1) and dag.reaches(0, 2) and not dag.reaches(1, 0)
    assert not dag.reaches_via_other(2, 0) and not dag.reaches_via_other(0, 4)


def test_merges_keep_levels_valid_and_answers_exact():
    rng = random.Random(7)
    for _ in range(30):
        count = 40
        edges = [(a, b) for a in range(count) for b in range(a + 1, count) if rng.random() < 0.08]
        dag = Dag(count, edges)
        alive = list(range(count))
        for _ in range(25):
            a, b = rng.sample(alive, 2)
            if dag.reaches_via_other(a, b) or dag.reaches_via_other(b, a):
                continue
            dag.merge(a, b)
            alive.remove(b)
            assert all(dag.level[x] < dag.level[y] for x in dag.succ for y in dag.succ[x])
            for src in alive:
                for dst in alive:
                    if src != dst:
                        assert dag.reaches_via_other(src, dst) == reaches_via_other(dag.succ, src, dst)
