"""The kernels of a scope as they form: which nodes each holds, and the kernel graph between
them."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from hespas_py.kernels.dataflow import Dataflow
from hespas_py.kernels.kernel import Kind
from hespas_py.kernels.scope import Scope


@dataclass(slots=True)
class Group:
    """One kernel being formed."""

    kind: Kind
    members: set[int] = field(default_factory=set)  # node indices
    inputs: set[int] = field(default_factory=set)   # keys its members read
    produced: set[int] = field(default_factory=set)  # keys its members define


class Grouping(Dataflow):
    """A scope's dataflow with its nodes grouped into kernels (a node may sit in several: a
    producer recomputed in each consumer kernel)."""

    def __init__(self, scope: Scope, outputs: Collection[int], barriers: bool) -> None:
        super().__init__(scope, outputs, barriers)
        self.groups: list[Group] = []
        self.node_groups: list[set[int]] = [set() for _ in self.nodes]

    def join(self, g: int, i: int) -> None:
        """Put node ``i`` in kernel ``g``."""
        group, node = self.groups[g], self.nodes[i]
        group.members.add(i)
        group.inputs.update(k for k in node.inputs if k not in self.scope.folded)
        group.produced.update(node.outputs)
        self.node_groups[i].add(g)

    def merge(self, keep: int, drop: int) -> None:
        """Move kernel ``drop``'s nodes into kernel ``keep`` (a reduction if either was one);
        ``drop`` is left without members."""
        kept, dropped = self.groups[keep], self.groups[drop]
        if dropped.kind is Kind.REDUCTION:
            kept.kind = Kind.REDUCTION
        for m in dropped.members:
            self.node_groups[m].discard(drop)
            self.join(keep, m)
        dropped.members.clear()

    def writer_group(self, key: int) -> int | None:
        """The kernel that computes ``key`` (None for a scope input)."""
        node = self.producer.get(key)
        if node is None or not self.node_groups[node]:
            return None
        return min(self.node_groups[node])

    def kernel_edges(self) -> Iterator[tuple[int, int]]:
        """Edges (writer kernel, reader kernel) of the kernel graph: for every value crossing a
        kernel boundary, and, where the compiler keeps barriers (`FusionPasses.barriers`), from
        the writer of each barrier operand to every kernel reading a result of the barrier
        (`Node.after`)."""
        for key in self.users:
            writer = self.writer_group(key)
            if writer is not None:
                for g in self.reader_groups(key) - {writer}:
                    yield writer, g
        if self.barriers:
            for i, node in enumerate(self.nodes):
                for key in node.after:
                    writer = self.writer_group(key)
                    if writer is not None:
                        yield from ((writer, g) for g in self.node_groups[i] if g != writer)

    def reader_groups(self, key: int) -> set[int]:
        """Kernels that read ``key`` from memory (they consume it but do not compute it)."""
        node = self.producer.get(key)
        readers: set[int] = set()
        for user in self.users.get(key, ()):
            for g in self.node_groups[user]:
                if node is None or node not in self.groups[g].members:
                    readers.add(g)
        return readers

    def materialized(self, key: int) -> bool:
        """Whether ``key`` is written to memory (read after the scope or by another kernel)."""
        return key in self.outputs or bool(self.reader_groups(key))
