"""The axes of an attention region's score-shaped values: which dimensions are the key axis (the
softmax reduces over it), so that a dot consuming scores can be told to contract keys (``P v``,
``dS k``) or queries (``P^T dO``, ``dS^T q``) whatever transposes lie between them."""

from __future__ import annotations

from hespas_py.kernels.costs import op_work
from hespas_py.kernels.dataflow import Dataflow
from hespas_py.mlir.ops import Op, TensorType

#: Labels of a score dimension.
KEY, OTHER = "key", "other"


def dot_numbers(op: Op) -> dict[str, tuple[int, ...]]:
    """The ``dot_dimension_numbers`` of a dot_general ({} when absent)."""
    return op.attrs.get("dot_dimension_numbers") or {}


def dim_map(view: TensorType, canonical: TensorType) -> list[int | None] | None:
    """Dimension of ``canonical`` behind each dimension of ``view`` (a reshape that only adds or
    drops unit dimensions); None when the two differ otherwise."""
    if view.shape == canonical.shape:
        return list(range(len(view.shape)))
    wide = [i for i, d in enumerate(view.shape) if d != 1]
    kept = [i for i, d in enumerate(canonical.shape) if d != 1]
    if [view.shape[i] for i in wide] != [canonical.shape[i] for i in kept]:
        return None
    mapped: list[int | None] = [None] * len(view.shape)
    for v, c in zip(wide, kept, strict=False):
        mapped[v] = c
    return mapped


class ScoreAxes:
    """Which dimensions of a region's score-shaped values are the key axis.

    Union-find over (value, dimension): elementwise ops, transposes and broadcasts tie the
    dimensions they carry over; a reduction marks the dimensions it reduces as keys and the rest
    as others; a broadcast of row statistics marks the dimensions it expands as keys.
    """

    def __init__(self, planner: Dataflow, members: set[int], score: int) -> None:
        self.planner = planner
        self.members = members
        self.score = score
        self.parent: dict[tuple[int, int], tuple[int, int]] = {}
        self.label: dict[tuple[int, int], str] = {}
        self.consistent = True
        for n in sorted(members):
            node = planner.nodes[n]
            if node.op.short_name != "dot_general":
                self._tie(node.op, node.inputs, node.outputs)

    def contracted(self, sink: int) -> str | None:
        """`KEY` or `OTHER`: the axis of the scores a sink dot contracts; None if unknown."""
        node = self.planner.nodes[sink]
        sides = [j for j, k in enumerate(node.inputs[:2])
                 if self.planner.producer.get(k) in self.members]
        if not self.consistent or len(sides) != 1:
            return None
        side = sides[0]
        dims = dot_numbers(node.op).get(("lhs", "rhs")[side] + "_contracting_dimensions", ())
        labels = {self._label(node.inputs[side], node.op.operand_types[side], d) for d in dims}
        return labels.pop() if len(labels) == 1 and None not in labels else None

    # -- building
    def _scored(self, key: int) -> bool:
        return self.planner.elements(key) == self.score

    def _slot(self, key: int, view: TensorType, dim: int) -> tuple[int, int] | None:
        """The union-find element of dimension ``dim`` of value ``key`` seen as ``view``."""
        canonical = self.planner.scope.types.get(key)
        mapped = dim_map(view, canonical) if canonical is not None else None
        slot = mapped[dim] if mapped is not None else None
        return (key, slot) if slot is not None else None

    def _tie(self, op: Op, inputs: tuple[int, ...], outputs: tuple[int, ...]) -> None:
        name = op.short_name
        if not outputs or not op.result_types:
            return
        out, out_type = outputs[0], op.result_types[0]
        if name == "reduce" and self._scored(inputs[0]):
            reduced = set(op.attrs.get("dimensions", ()))
            for d in range(len(op.operand_types[0].shape)):
                self._mark(self._slot(inputs[0], op.operand_types[0], d),
                           KEY if d in reduced else OTHER)
            return
        if not self._scored(out):
            return
        rank = len(out_type.shape)
        if name == "transpose":
            for i, p in enumerate(op.attrs.get("dimensions", ())):
                self._union(self._slot(out, out_type, i),
                            self._slot(inputs[0], op.operand_types[0], p))
        elif name in ("broadcast_in_dim", "broadcast"):
            dims = tuple(op.attrs.get("dimensions", ()))
            operand = op.operand_types[0]
            for i in range(rank):
                if self._scored(inputs[0]) and i in dims:
                    self._union(self._slot(out, out_type, i),
                                self._slot(inputs[0], operand, dims.index(i)))
                elif not self._scored(inputs[0]) and out_type.shape[i] > 1:
                    expanded = i not in dims or operand.shape[dims.index(i)] == 1
                    self._mark(self._slot(out, out_type, i), KEY if expanded else OTHER)
        elif op_work(op).family == "elementwise":
            for j, key in enumerate(inputs[:len(op.operand_types)]):
                if self._scored(key) and op.operand_types[j].shape == out_type.shape:
                    for i in range(rank):
                        self._union(self._slot(out, out_type, i),
                                    self._slot(key, op.operand_types[j], i))

    def _find(self, slot: tuple[int, int]) -> tuple[int, int]:
        root = slot
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        while slot != root:
            self.parent[slot], slot = root, self.parent.get(slot, root)
        return root

    def _mark(self, slot: tuple[int, int] | None, label: str) -> None:
        if slot is None:
            return
        root = self._find(slot)
        if self.label.setdefault(root, label) != label:
            self.consistent = False

    def _union(self, a: tuple[int, int] | None, b: tuple[int, int] | None) -> None:
        if a is None or b is None:
            return
        ra, rb = self._find(a), self._find(b)
        if ra == rb:
            return
        self.parent[rb] = ra
        if rb in self.label:
            self._mark(ra, self.label.pop(rb))

    def _label(self, key: int, view: TensorType, dim: int) -> str | None:
        slot = self._slot(key, view, dim)
        return self.label.get(self._find(slot)) if slot is not None else None
