"""Blocks: what the splitters produce and every later stage consumes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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
        repeats: id of the earlier block this one repeats (the same block of an earlier iteration
            of an expanded loop: same ops, same estimate), or -1.
        scope: where its ops come from: 0 for the step's top level, k for the body of
            ``BlockGraph.loops[k - 1]`` (XLA compiles a loop body as a computation of its own).
    """

    id: int
    ops: tuple[Op, ...]
    deps: tuple[int, ...]
    collective: bool
    inputs: tuple[TensorType, ...] = ()
    outputs: tuple[TensorType, ...] = ()
    repeats: int = -1
    scope: int = 0

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
class Assumption:
    """Something the split assumed where the module does not say.

    Attributes:
        where: the op's place in the module (``@main op 12``).
        op: the op's name.
        kind: ``trip_count`` (a ``while`` run ``--loop-trips`` times) or ``branch`` (the branch
            of a ``case``/``if`` holding a collective that was taken).
        detail: what was assumed, in words.
    """

    where: str
    op: str
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.where} ({self.op}): {self.detail}"


@dataclass(frozen=True)
class ExpandedLoop:
    """A ``while`` loop whose iterations are blocks of the graph (its body holds a collective).

    Attributes:
        where: the loop's place in the module (``@main op 12``; a nested loop names its parents).
        op: the ``while`` op, as it stands in its enclosing scope.
        args: the body's block arguments (the values one iteration receives).
        yielded: the values an iteration hands to the next one (and the last one to the loop's
            results), per argument.
        trips: iterations per execution.
        trips_from: where ``trips`` came from: ``static`` (the induction-variable pattern of
            `hespas_py.mlir.loops`), ``xla`` (XLA's ``known_trip_count``) or ``assumed``
            (``--loop-trips``).
        parent: the scope holding the loop (0: the top level, k: the body of loop k).
        executions: times the loop runs in one step (the trips of the loops around it).
        blocks_per_iteration: blocks each iteration has.
    """

    where: str
    op: Op
    args: tuple[int, ...]
    yielded: tuple[int, ...]
    trips: int
    trips_from: str
    parent: int = 0
    executions: int = 1
    blocks_per_iteration: int = 0


@dataclass(frozen=True)
class BlockGraph:
    """A step split into blocks, in program order, with its dependency DAG.

    Attributes:
        blocks: every block; ``blocks[i].id == i``.
        num_devices: devices the step runs on (replicas x partitions of the module).
        source: the module file the blocks came from (for messages and stats).
        returned: SSA ids of the values the step returns (written to memory at its end).
        loops: every expanded loop, in order of first expansion; ``Block.scope`` k is the body of
            ``loops[k - 1]``.
        assumptions: what the split assumed where the module does not say (a trip count taken
            from ``--loop-trips``, the branch of a ``case``/``if`` taken).
        rewrites: how many ops each of XLA's collective rewrites changed
            (`hespas_py.split.rewrites`; a loop body counted once); empty when not applied.
    """

    blocks: tuple[Block, ...]
    num_devices: int
    source: str = ""
    returned: frozenset[int] = frozenset()
    loops: tuple[ExpandedLoop, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    rewrites: Mapping[str, int] = field(default_factory=dict)
