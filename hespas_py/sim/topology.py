"""The logical topologies ASTRA-sim's collective algorithms run on, as one NPU sees them.

Per network dimension, a ring of the NPUs that differ only in that dimension or a double binary
tree over them (``doubleBinaryTree``); a ``one*`` algorithm runs on one ring over the whole
machine, and a communicator group smaller than the machine on one local ring of its members.
"""

from __future__ import annotations

import math

from hespas_py.sim.errors import Rejected

# Ring directions.
CLOCKWISE, ANTICLOCKWISE = 0, 1


class LogicalRing:
    """A logical ring of NPU ids, walked clockwise (ascending index) or anticlockwise.

    ``local`` marks a communicator group's ring: its packets use the NPU's fast 10 ns path
    instead of the endpoint delay, and direct (all-to-all style) algorithms send to every peer.
    """

    __slots__ = ("members", "position", "index_in_ring", "local")

    def __init__(self, members: list[int], npu: int, local: bool) -> None:
        self.members = members
        self.position = {m: i for i, m in enumerate(members)}
        self.index_in_ring = self.position[npu]
        self.local = local

    @property
    def nodes(self) -> int:
        """Ring size."""
        return len(self.members)

    def receiver(self, npu: int, direction: int) -> int:
        """The NPU after ``npu`` in ``direction``."""
        step = 1 if direction == CLOCKWISE else -1
        return self.members[(self.position[npu] + step) % len(self.members)]

    def sender(self, npu: int, direction: int) -> int:
        """The NPU before ``npu`` in ``direction``."""
        step = -1 if direction == CLOCKWISE else 1
        return self.members[(self.position[npu] + step) % len(self.members)]


def dimension_ring(npu: int, size: int, stride: int) -> LogicalRing:
    """The ring of ``npu``'s neighbours along one network dimension (ids ``stride`` apart)."""
    index = (npu % (stride * size)) // stride
    base = npu - index * stride
    return LogicalRing([base + k * stride for k in range(size)], npu, local=False)


class BinaryTree:
    """A complete binary tree over ids ``start, start+stride, ...`` numbered in-order.

    Its root has a single child; with ``root_min`` the root takes the smallest id, else the
    largest. Only the largest power of two not above the node count takes part.
    """

    __slots__ = ("nodes", "links")

    def __init__(self, size: int, start: int, stride: int, root_min: bool) -> None:
        depth = 1
        remaining = size
        while remaining > 1:
            depth += 1
            remaining //= 2
        # Node = [id, parent, left, right]; the sentinel root is built like every other node.
        root: list = [-1, None, None, None]
        subtree = self._grow(depth - 1, root)
        root[3 if root_min else 2] = subtree
        self.links: dict[int, tuple[int, int, int]] = {}
        counter = [start]

        def number(node: list) -> None:
            if node[2] is not None:
                number(node[2])
            node[0] = counter[0]
            counter[0] += stride
            if node[3] is not None:
                number(node[3])

        number(root)
        self.nodes = size

        def record(node: list) -> None:
            ids = [n[0] if n is not None else -1 for n in (node[1], node[2], node[3])]
            self.links[node[0]] = (ids[0], ids[1], ids[2])
            for child in (node[2], node[3]):
                if child is not None:
                    record(child)

        record(root)

    @classmethod
    def _grow(cls, depth: int, parent: list) -> list:
        node: list = [-1, parent, None, None]
        if depth > 1:
            node[2] = cls._grow(depth - 1, node)
            node[3] = cls._grow(depth - 1, node)
        return node

    def role(self, npu: int) -> tuple[int, int, int]:
        """(parent, left child, right child) of ``npu``, -1 where absent."""
        links = self.links.get(npu)
        if links is None:
            raise Rejected(f"doubleBinaryTree over {self.nodes} NPUs leaves NPU {npu} out of the "
                           "tree (ASTRA-sim crashes); use a power-of-two dimension")
        return links


class DoubleBinaryTree:
    """Two binary trees (root at the largest id, root at the smallest) used alternately."""

    __slots__ = ("trees", "counter", "nodes")

    def __init__(self, size: int, start: int, stride: int) -> None:
        self.trees = (BinaryTree(size, start, stride, root_min=False),
                      BinaryTree(size, start, stride, root_min=True))
        self.counter = 0
        self.nodes = size

    def next_tree(self) -> BinaryTree:
        """The tree for the next phase: max-rooted and min-rooted in turn."""
        tree = self.trees[self.counter % 2]
        self.counter += 1
        return tree


class LogicalTopology:
    """Per logical dimension a ring or a double binary tree (ASTRA-sim's GeneralComplexTopology,
    or a communicator group's single local ring)."""

    __slots__ = ("dims",)

    def __init__(self, dims: list) -> None:
        self.dims = dims

    def nodes(self, dim: int) -> int:
        """NPUs in logical dimension ``dim``."""
        return self.dims[dim].nodes

    def basic(self, dim: int):
        """The ring, or the next tree, a phase in ``dim`` runs on."""
        topo = self.dims[dim]
        return topo.next_tree() if isinstance(topo, DoubleBinaryTree) else topo


def machine_topology(npu: int, npus_count: tuple[int, ...], algorithms) -> LogicalTopology:
    """The logical topology of one collective type on the whole machine, as seen by ``npu``."""
    dims: list = []
    stride = 1
    for dim, algorithm in enumerate(algorithms):
        size = npus_count[dim]
        if algorithm.spans_all_npus:
            total = math.prod(npus_count)
            dims.append(LogicalRing(list(range(total)), npu, local=False))
            break
        if algorithm.name == "doubleBinaryTree":
            if dim == len(algorithms) - 1:
                start = npu % stride
            else:
                start = npu - npu % (stride * size) + npu % stride
            dims.append(DoubleBinaryTree(size, start, stride))
        else:
            dims.append(dimension_ring(npu, size, stride))
        stride *= size
    return LogicalTopology(dims)
