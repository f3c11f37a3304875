"""Row normalizations (softmax and its backward, layer norms) as one kernel: XLA's Triton
normalization fusions.

Rules and sources: docs/kernels.md."""

from __future__ import annotations

from hespas_py.kernels.costs import ELEMENTWISE_OPS
from hespas_py.kernels.dataflow import Dataflow
from hespas_py.kernels.scope import OpClass
from hespas_py.mlir.ops import Op

#: Most elements a Triton tensor may hold (``kMaxTensorNumElements``).
MAX_TILE_ELEMENTS = 1 << 20
#: 32-bit registers one thread block may use: 64 K on every compute capability from 5.0 to 10.0
#: (CUDA C++ Programming Guide, "Technical Specifications per Compute Capability"). A Triton
#: program is one thread block and keeps its row tile in f32 registers.
MAX_BLOCK_REGISTERS = 1 << 16


def _along_last(op: Op) -> bool:
    """Whether broadcast ``op`` replicates its operand along its result's last dimension (the
    last result dimension is not an operand dimension, or one of size 1: XLA's simplifier
    folds the reshape that keeps a reduced dimension as 1 into the broadcast)."""
    shape = op.result_types[0].shape
    if len(shape) < 2 or shape[-1] <= 1:
        return False
    dims = tuple(op.attrs.get("dimensions", ()))
    last = len(shape) - 1
    return last not in dims or op.operand_types[0].shape[dims.index(last)] == 1


def reduces_last(op: Op) -> bool:
    """Whether ``op`` is a single-operand reduce over exactly its operand's last dimension, with
    a row that fits one Triton tile (`MAX_TILE_ELEMENTS`, `MAX_BLOCK_REGISTERS`)."""
    if len(op.operand_types) != 2:
        return False
    operand = op.operand_types[0]
    if (not operand.shape
            or tuple(op.attrs.get("dimensions", ())) != (len(operand.shape) - 1,)):
        return False
    padded_row = 1 << max(operand.shape[-1] - 1, 0).bit_length()
    return padded_row <= min(MAX_TILE_ELEMENTS, MAX_BLOCK_REGISTERS)


class _Matcher:
    """Diamond matching over one planner's nodes."""

    def __init__(self, planner: Dataflow, taken: set[int]) -> None:
        self.p = planner
        self.taken = taken  # nodes already in a kernel (flash attention)

    def varying(self, i: int) -> list[int]:
        """Keys node i reads that are not computable from constants alone."""
        constant = self.p.scope.from_constants
        return [k for k in dict.fromkeys(self.p.nodes[i].inputs) if k not in constant]

    def single_use(self, i: int) -> bool:
        """Node i defines one value, read by one node and not after the scope."""
        outputs = self.p.nodes[i].outputs
        return (len(outputs) == 1 and outputs[0] not in self.p.outputs
                and len(self.p.users.get(outputs[0], ())) == 1)

    def _elementwise(self, i: int) -> bool:
        node = self.p.nodes[i]
        return (node.cls is OpClass.LOOP and node.op.short_name in ELEMENTWISE_OPS
                and i not in self.taken)

    def unary(self, i: int) -> bool:
        """An elementwise node with one operand that is not computable from constants, or a
        broadcast that only adds size-1 dimensions or a reduce over size-1 dimensions only
        (bitcasts once XLA's algebraic simplifier has run)."""
        op = self.p.nodes[i].op
        if op.short_name in ("broadcast_in_dim", "reduce") and i not in self.taken:
            return (op.result_types[0].num_elements == op.operand_types[0].num_elements
                    and len(self.varying(i)) == 1)
        return self._elementwise(i) and len(self.varying(i)) == 1

    def trivially_fusible(self, i: int) -> bool:
        return self.unary(i) and self.single_use(i)

    def walk_up(self, key: int) -> tuple[int, list[int]]:
        """From ``key`` back through the producers that are trivially fusible: (the first key
        whose producer is not one, the nodes passed)."""
        passed: list[int] = []
        while (node := self.p.producer.get(key)) is not None and node not in self.taken:
            if not self.trivially_fusible(node):
                break
            passed.append(node)
            key = self.varying(node)[0]
        return key, passed

    def _node(self, key: int, name: str) -> int | None:
        node = self.p.producer.get(key)
        if node is None or node in self.taken or self.p.nodes[node].op.short_name != name:
            return None
        return node

    def _single_use_above(self, value: int, name: str) -> tuple[int | None, list[int]]:
        """(the single-use ``name`` node that ``value`` comes from through trivially fusible
        nodes, or None; those nodes)."""
        key, chain = self.walk_up(value)
        node = self._node(key, name)
        return (node if node is not None and self.single_use(node) else None), chain

    def diamond(self, r: int) -> tuple[int, set[int]] | None:
        """(the producer's key, member nodes) of the diamond rooted at node r, or None."""
        p = self.p
        root = p.nodes[r]
        if len(root.inputs) != 2 or len(set(root.inputs)) != 2 or not self._elementwise(r):
            return None
        b, chain_b = self._single_use_above(root.inputs[1], "broadcast_in_dim")
        if b is None or not _along_last(p.nodes[b].op):
            return None
        d, chain_d = self._single_use_above(p.nodes[b].inputs[0], "reduce")
        if d is None or not reduces_last(p.nodes[d].op):
            return None
        source, chain_in = self.walk_up(p.nodes[d].inputs[0])
        other, chain_root = self.walk_up(root.inputs[0])
        if other != source:
            return None
        return source, {r, b, d, *chain_b, *chain_d, *chain_in, *chain_root}


def normalization_kernels(planner: Dataflow, taken: set[int]) -> list[set[int]]:
    """Node sets of the scope's Triton normalization kernels (chained diamonds merged, unary
    consumers of the last root taken), none of them in ``taken``."""
    if not any(node.cls is OpClass.REDUCE and reduces_last(node.op) for node in planner.nodes):
        return []
    matcher = _Matcher(planner, taken)
    kernels: dict[int, set[int]] = {}  # root of the kernel's last diamond -> members
    owner: dict[int, int] = {}
    for r in range(len(planner.nodes)):
        match = matcher.diamond(r)
        if match is None or match[1] & owner.keys():
            continue  # no diamond, or one overlapping a kernel already formed
        source, members = match
        producer, passed = planner.producer.get(source), []
        while producer is not None and producer not in kernels and matcher.unary(producer):
            passed.append(producer)  # exp(x - max): read by the sum and by the root
            producer = planner.producer.get(matcher.varying(producer)[0])
        if producer in kernels and not set(passed) & owner.keys():
            kernel = kernels.pop(producer) | members | set(passed)
        else:
            kernel = set(members)
        kernels[r] = kernel
        owner.update(dict.fromkeys(kernel, r))
    result = []
    for root, kernel in kernels.items():
        node = root
        while matcher.single_use(node):
            consumer = planner.users[planner.nodes[node].outputs[0]][0]
            if consumer in owner or not matcher.unary(consumer):
                break
            kernel.add(consumer)
            node = consumer
        result.append(kernel)
    return result
