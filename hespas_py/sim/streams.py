"""A collective's chunks on one NPU (ASTRA-sim's streams): the collective they belong to, their
phases, and the per-dimension queues that hand phases their queue and ring direction.

`hespas_py.sim.system` creates the chunks and schedules them through the queues.
"""

from __future__ import annotations

from collections import deque
from typing import Protocol

from hespas_py.sim.event_kinds import GENERAL, PACKET_RECEIVED, STREAM_INIT
from hespas_py.sim.topology import ANTICLOCKWISE, CLOCKWISE


class StreamOwner(Protocol):
    """The NPU a chunk runs on (`hespas_py.sim.system.Sys`), as its phases call it."""

    def collective_send(self, size: int, dst: int, tag: int) -> None: ...

    def collective_recv(self, size: int, src: int, tag: int, stream: Stream) -> None: ...

    def proceed_to_next_phase(self, stream: Stream) -> None: ...


class DataSet:
    """One collective on one NPU: done when all of its chunks (streams) are done."""

    __slots__ = ("total_streams", "finished_streams", "active", "on_finish")

    def __init__(self, on_finish) -> None:
        self.total_streams = 0
        self.finished_streams = 0
        self.active = True
        self.on_finish = on_finish

    def stream_finished(self) -> None:
        """Count a finished chunk; the last one reports the collective finished."""
        self.finished_streams += 1
        if self.finished_streams == self.total_streams:
            self.on_finish()


class Phase:
    """One step of a chunk: an algorithm run on one queue (one network dimension)."""

    __slots__ = ("queue_id", "algorithm", "final_data_size")

    def __init__(self, queue_id: int, algorithm) -> None:
        self.queue_id = queue_id
        self.algorithm = algorithm
        self.final_data_size = algorithm.final_data_size


class Stream:
    """One chunk of a collective moving through its phases (ASTRA-sim's StreamBaseline)."""

    __slots__ = ("stream_id", "owner", "dataset", "phases", "priority", "queue_id", "phase",
                 "initialized")

    phase: Phase  # the phase running, from the first `Sys.proceed_to_next_phase` on

    def __init__(self, owner: StreamOwner, dataset: DataSet, stream_id: int, phases: list[Phase],
                 priority: int) -> None:
        self.stream_id = stream_id
        self.owner = owner
        self.dataset = dataset
        self.phases = deque(phases)
        self.priority = priority
        self.queue_id = -1
        self.initialized = False
        for phase in phases:
            phase.algorithm.stream = self

    def init(self) -> None:
        """The stream got a running slot in its queue: start the current phase."""
        self.initialized = True
        self.phase.algorithm.run(STREAM_INIT, None)

    def call(self, data) -> None:
        """A packet came back from the memory interface."""
        self.phase.algorithm.run(GENERAL, data)

    def consume(self) -> None:
        """A message from a peer arrived."""
        self.phase.algorithm.run(PACKET_RECEIVED, None)


class QueueLevel:
    """The queues of one network dimension and the round-robin pointers that hand them out."""

    __slots__ = ("queues", "allocator", "first_allocator", "last_allocator")

    def __init__(self, queues: list[int]) -> None:
        self.queues = queues
        self.allocator = 0
        self.first_allocator = 0
        self.last_allocator = len(queues) // 2

    def next(self) -> tuple[int, int]:
        """Next queue (and ring direction) for a phase of any collective."""
        queues = self.queues
        direction = (ANTICLOCKWISE if len(queues) > 1 and self.allocator >= len(queues) // 2
                     else CLOCKWISE)
        queue = queues[self.allocator]
        self.allocator = (self.allocator + 1) % len(queues)
        return queue, direction

    def next_first(self) -> tuple[int, int]:
        """Next queue of the first half (reduce-scatter/all-reduce phases of localBWAware)."""
        queue = self.queues[self.first_allocator]
        self.first_allocator += 1
        if self.first_allocator >= len(self.queues) // 2:
            self.first_allocator = 0
        return queue, CLOCKWISE

    def next_last(self) -> tuple[int, int]:
        """Next queue of the second half (all-gather phases of localBWAware)."""
        queue = self.queues[self.last_allocator]
        self.last_allocator += 1
        if self.last_allocator >= len(self.queues):
            self.last_allocator = len(self.queues) // 2
        return queue, ANTICLOCKWISE
