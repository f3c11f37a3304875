"""The interleaved one-forward-one-backward pipeline schedule as slots of one SPMD program.

``P`` stages each hold ``V`` model chunks (virtual stages ``r * P + p`` for chunk ``r`` on stage
``p``, Narayanan et al. 2021, "interleaved schedule"); ``M`` microbatches (a multiple of ``P``) go
through them in groups of ``P`` (depth first: a group passes every chunk before the next group
starts). Every stage runs the same program, a sequence of forward and backward *slots*: in its
``k``-th forward slot stage ``p`` runs the forward of item ``k - p``, in its ``k``-th backward
slot the backward of item ``k - (P - 1 - p)`` (an item is one microbatch through one chunk; the
forward order goes chunk by chunk, the backward order chunk by chunk in reverse). So the output
of a forward slot is the next stage's input one slot later, the stage ``P - 1`` -> 0 hop
included (one ring ``ppermute`` per slot), and likewise backward. The program is
``warmup`` forward slots, then ``steady`` pairs of a forward and a backward slot, then the last
``warmup`` backward slots: ``M * V + P - 1`` of each, a bubble of ``(P - 1) / (M * V + P - 1)``
(the report's ``(PP - 1) / (V * M)``, Llama 3 §3.3.2, over the whole schedule). Slots with no
item are the bubble. At most ``V * P + P - 1`` items wait for their backward on a stage at once
(`Schedule.in_flight`): their saved activations take that many buffer slots (`Buffers`).
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Item(NamedTuple):
    """What a stage works on in one slot (traced integers).

    Attributes:
        valid: the slot has an item (else it is a bubble).
        microbatch: its microbatch.
        chunk: the chunk ``r`` of the stage it passes.
        order: its index in forward order (``g * V * P + r * P + j``), which names its buffer.
    """

    valid: jax.Array
    microbatch: jax.Array
    chunk: jax.Array
    order: jax.Array


@dataclasses.dataclass(frozen=True)
class Schedule:
    """The slots of ``stages`` x ``virtual`` chunks over ``microbatches``."""

    stages: int
    virtual: int
    microbatches: int

    def __post_init__(self) -> None:
        if min(self.stages, self.virtual, self.microbatches) < 1:
            raise ValueError("stages, virtual stages and microbatches must be at least 1")
        if self.microbatches % self.stages:
            raise ValueError(f"{self.microbatches} microbatches do not split into groups of "
                             f"{self.stages} (one per stage)")

    @property
    def items(self) -> int:
        """Microbatches times chunks: the forward (and backward) slots each stage fills."""
        return self.microbatches * self.virtual

    @property
    def slots(self) -> int:
        """Forward slots (and backward slots) of the program."""
        return self.items + self.stages - 1

    @property
    def warmup(self) -> int:
        """Forward slots before the first backward slot: the last virtual stage's first forward
        comes ``V * P - 1`` slots after the first."""
        return self.virtual * self.stages - 1

    @property
    def steady(self) -> int:
        """Slots that run a forward and a backward."""
        return self.slots - self.warmup

    @property
    def in_flight(self) -> int:
        """Most items a stage holds saved activations for at once: stage 0, which starts its
        backward slots ``P - 1`` slots after the last stage, runs ``V * P + P - 1`` forwards
        before its first backward (as Megatron's interleaved schedule warms the first stage up)."""
        return self.virtual * self.stages + self.stages - 1

    @property
    def bubble(self) -> float:
        """Share of a stage's slots with no item."""
        return (self.stages - 1) / self.slots

    def _item(self, index: jax.Array, forward: bool) -> Item:
        per_group = self.virtual * self.stages
        valid = (index >= 0) & (index < self.items)
        index = jnp.clip(index, 0, self.items - 1)
        group, rest = index // per_group, index % per_group
        step, j = rest // self.stages, rest % self.stages
        chunk = step if forward else self.virtual - 1 - step
        return Item(valid, group * self.stages + j, chunk,
                    group * per_group + chunk * self.stages + j)

    def forward(self, slot: jax.Array, stage: jax.Array) -> Item:
        """The item of forward slot ``slot`` on ``stage``."""
        return self._item(slot - stage, forward=True)

    def backward(self, slot: jax.Array, stage: jax.Array) -> Item:
        """The item of backward slot ``slot`` on ``stage``."""
        return self._item(slot - (self.stages - 1 - stage), forward=False)

    def first(self, item: Item, stage: jax.Array) -> jax.Array:
        """Whether the item is in virtual stage 0 (the embedding's chunk)."""
        return item.valid & (item.chunk == 0) & (stage == 0)

    def last(self, item: Item, stage: jax.Array) -> jax.Array:
        """Whether the item is in the last virtual stage (the loss's chunk)."""
        return item.valid & (item.chunk == self.virtual - 1) & (stage == self.stages - 1)


class Buffers(NamedTuple):
    """Which buffer slot holds each waiting item's saved activations: a stack of free slots and
    the slot of each item by forward order. Slot `Schedule.in_flight` is a sink for slots that
    save nothing."""

    free: jax.Array  # [in_flight] int32, free slots below ``top``
    top: jax.Array  # int32
    slot_of: jax.Array  # [items] int32

    @classmethod
    def empty(cls, schedule: Schedule) -> Buffers:
        n = schedule.in_flight
        return cls(jnp.arange(n, dtype=jnp.int32), jnp.int32(n),
                   jnp.zeros((schedule.items,), jnp.int32))

    def take(self, keep: jax.Array, order: jax.Array, sink: int) -> tuple[Buffers, jax.Array]:
        """A free slot for the item of forward order ``order`` if ``keep``, else ``sink``."""
        slot = jnp.where(keep, self.free[jnp.maximum(self.top - 1, 0)], sink)
        top = jnp.where(keep, self.top - 1, self.top)
        slot_of = _put(self.slot_of, jnp.where(keep, slot, self.slot_of[order]), order)
        return Buffers(self.free, top, slot_of), slot

    def give_back(self, keep: jax.Array, order: jax.Array, sink: int) -> tuple[Buffers, jax.Array]:
        """The slot of item ``order`` (``sink`` unless ``keep``), freed."""
        slot = jnp.where(keep, self.slot_of[order], sink)
        at = jnp.minimum(self.top, self.free.shape[0] - 1)
        free = _put(self.free, jnp.where(keep, slot, self.free[at]), at)
        return Buffers(free, jnp.where(keep, self.top + 1, self.top), self.slot_of), slot


def _put(array: jax.Array, value: jax.Array, index: jax.Array) -> jax.Array:
    return jax.lax.dynamic_update_index_in_dim(array, value, index, 0)
