"""Blocks: what the splitters produce and every later stage consumes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

from hespas_py.mlir.ops import Op, TensorType

#: Short names (dialect dropped) of ops that move data between devices.
COLLECTIVES: frozenset[str] = frozenset({
    "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "collective_permute",
    "collective_broadcast",
})


def is_collective(op: Op) -> bool:
    """Whether ``op`` is a cross-device collective (any dialect)."""
    return op.short_name in COLLECTIVES


@dataclass(frozen=True, slots=True)
class Block:
    """A unit of work on one device: a run of compute ops, or a single collective.

    Attributes:
        id: position in program order, 0-based; the block graph's node id.
        ops: the ops it holds, in program order (a collective block holds exactly one op).
        deps: ids of the blocks whose results this block reads, ascending; all smaller than ``id``.
        collective: whether this is a collective block.
        inputs: types of the values read from outside the block (graph inputs included), once each.
        outputs: types of the values the block defines that something outside it reads.
    """

    id: int
    ops: tuple[Op, ...]
    deps: tuple[int, ...]
    collective: bool
    inputs: tuple[TensorType, ...] = ()
    outputs: tuple[TensorType, ...] = ()

    @property
    def label(self) -> str:
        """Short human name listing the distinct op kinds in order, e.g. ``convolution+add``."""
        return _label(tuple(map(_NAME, self.ops)))


_NAME = attrgetter("name")


@lru_cache(maxsize=4096)
def _label(names: tuple[str, ...]) -> str:
    """`Block.label` of a block whose ops have these names (blocks repeat, labels are cached)."""
    kinds = dict.fromkeys(name.rpartition(".")[2] for name in names)
    return "+".join([k for k in kinds if k not in ("constant", "return")] or kinds)


@dataclass(frozen=True)
class BlockGraph:
    """A step split into blocks, in program order, with its dependency DAG.

    Attributes:
        blocks: every block; ``blocks[i].id == i``.
        num_devices: devices the step runs on (replicas x partitions of the module).
        source: the module file the blocks came from (for messages and stats).
        returned: SSA ids of the values the step returns (written to memory at its end).
    """

    blocks: tuple[Block, ...]
    num_devices: int
    source: str = ""
    returned: frozenset[int] = frozenset()
