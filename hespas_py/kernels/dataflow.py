"""A scope's dataflow as the fusion passes read it: who produces and who reads each value."""

from __future__ import annotations

from collections.abc import Collection

from hespas_py.kernels.scope import Scope


class Dataflow:
    """Producer and readers of every value of one scope (`Scope`), and the values that leave it.

    The passes that decide kernels (`normalization`, `attention`, `cpu_fusion`) read this and
    return what they found; the planner (`planner.Planner`) builds on it."""

    def __init__(self, scope: Scope, outputs: Collection[int], barriers: bool) -> None:
        """``barriers``: whether the compiler keeps barriers (`FusionPasses.barriers`)."""
        self.scope = scope
        self.nodes = scope.nodes
        self.outputs = set(outputs)
        self.barriers = barriers
        self.producer: dict[int, int] = {}
        self.users: dict[int, list[int]] = {}
        for i, node in enumerate(self.nodes):
            for key in node.outputs:
                self.producer[key] = i
            for key in dict.fromkeys(node.inputs):
                self.users.setdefault(key, []).append(i)

    def consumers(self, i: int) -> list[int] | None:
        """Consumer nodes of node i's results; None when a result leaves the scope, is unused,
        or is an operand of a barrier the compiler keeps (`FusionPasses.barriers`)."""
        consumers: list[int] = []
        for key in self.nodes[i].outputs:
            if key in self.outputs or key not in self.users or (
                    self.barriers and key in self.scope.barrier_operands):
                return None
            consumers.extend(self.users[key])
        return consumers

    def nbytes(self, key: int) -> int:
        """Bytes of the value ``key`` (0 when its type is unknown)."""
        vtype = self.scope.types.get(key)
        return vtype.nbytes if vtype is not None else 0

    def elements(self, key: int) -> int:
        """Elements of the value ``key`` (0 when its type is unknown)."""
        vtype = self.scope.types.get(key)
        return vtype.num_elements if vtype is not None else 0
