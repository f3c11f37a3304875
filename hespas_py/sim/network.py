"""ASTRA-sim's analytical backend: the global event queue and the congestion-unaware network.

The queue holds time-stamped callback lists, and an event scheduled for the tick being processed
joins its list, as in the analytical backend's EventQueue (each NPU's system layer,
`hespas_py.sim.system`, adds its own level on top). The network prices a message by the first
dimension in which its endpoints differ and matches sends to receives.
"""

from __future__ import annotations

import heapq

from hespas_py.sim.errors import Rejected
from hespas_py.sim.machine import NetworkConfig


class EventQueue:
    """Time-ordered callback lists; callbacks scheduled for the current tick run in this tick."""

    __slots__ = ("now", "_times", "_lists")

    def __init__(self) -> None:
        self.now = 0
        self._times: list[int] = []
        self._lists: dict[int, list] = {}

    def schedule(self, time: int, callback, arg) -> None:
        """Run ``callback(arg)`` at ``time`` (>= now), after those already scheduled for it."""
        events = self._lists.get(time)
        if events is None:
            events = self._lists[time] = []
            heapq.heappush(self._times, time)
        events.append((callback, arg))

    def run(self) -> None:
        """Process events until none is left."""
        times, lists = self._times, self._lists
        while times:
            time = heapq.heappop(times)
            if time <= self.now:
                raise Rejected("ASTRA-sim aborts: an event is scheduled at tick 0, before the "
                               "simulation starts (a 0 ns endpoint-delay or compute time at the "
                               "start of a trace)")
            self.now = time
            events = lists[time]
            i = 0
            while i < len(events):
                callback, arg = events[i]
                i += 1
                callback(arg)
            del lists[time]


class Network:
    """The analytical congestion-unaware network: a message crosses only the first dimension in
    which its endpoints differ, costing ``hops * latency + bytes / bandwidth`` (floored to ns).

    Sends and receives match by (tag, src, dst, size) in issue order; a receive completes when the
    message has arrived and the receive is posted, whichever is later.
    """

    __slots__ = ("queue", "_dims", "_send_ids", "_recv_ids", "_entries", "_delays")

    def __init__(self, config: NetworkConfig, queue: EventQueue) -> None:
        self.queue = queue
        dims = []
        stride = 1
        for kind, count, bandwidth, latency in zip(config.topology, config.npus_count,
                                                   config.bandwidth, config.latency, strict=True):
            bytes_per_ns = bandwidth * (1 << 30) / 1_000_000_000
            dims.append((kind, count, stride, latency, bytes_per_ns))
            stride *= count
        self._dims = tuple(dims)
        self._send_ids: dict[tuple, int] = {}
        self._recv_ids: dict[tuple, int] = {}
        self._entries: dict[tuple, list] = {}
        self._delays: dict[tuple, int] = {}

    def route(self, src: int, dst: int) -> tuple[int, int]:
        """(dimension, hops) of a message from ``src`` to ``dst``: what its time depends on
        besides its size."""
        for dim, (kind, count, stride, _, _) in enumerate(self._dims):
            a, b = (src // stride) % count, (dst // stride) % count
            if a == b:
                continue
            if kind == "Ring":
                clockwise = (b - a) % count
                return dim, min(clockwise, count - clockwise)
            return dim, 2 if kind == "Switch" else 1
        raise Rejected(f"ASTRA-sim exits: NPU {src} sends a message to itself")

    def delay(self, src: int, dst: int, size: int) -> int:
        """Nanoseconds a ``size``-byte message takes from ``src`` to ``dst``."""
        key = (src, dst, size)
        cached = self._delays.get(key)
        if cached is not None:
            return cached
        if size <= 0:
            raise Rejected("ASTRA-sim aborts: a 0-byte message (collective too small to split)")
        dim, hops = self.route(src, dst)
        _, _, _, latency, bytes_per_ns = self._dims[dim]
        result = self._delays[key] = int(hops * latency + size / bytes_per_ns)
        return result

    def send(self, src: int, dst: int, size: int, tag: int, handler) -> None:
        """Send; ``handler()`` (if any) runs when the message has arrived."""
        key = _numbered(self._send_ids, (tag, src, dst, size))
        entry = self._entries.get(key)
        if entry is None:
            self._entries[key] = [handler, None, False]
        else:
            entry[0] = handler
        self.queue.schedule(self.queue.now + self.delay(src, dst, size), self._arrive, key)

    def recv(self, dst: int, src: int, size: int, tag: int, handler) -> None:
        """Post a receive; ``handler()`` runs once the matching message has arrived."""
        if size <= 0:
            raise Rejected("ASTRA-sim aborts: a 0-byte receive")
        key = _numbered(self._recv_ids, (tag, src, dst, size))
        entry = self._entries.get(key)
        if entry is None:
            self._entries[key] = [None, handler, False]
        elif entry[2]:
            del self._entries[key]
            self.queue.schedule(self.queue.now, _call, handler)
        else:
            entry[1] = handler

    def _arrive(self, key: tuple) -> None:
        entry = self._entries[key]
        if entry[0] is not None:
            entry[0]()
        if entry[1] is not None:
            del self._entries[key]
            entry[1]()
        else:
            entry[2] = True


def _numbered(seen: dict[tuple, int], base: tuple) -> tuple:
    """``base`` plus how many times it was seen before: the n-th send (or receive) of one tag,
    pair of NPUs and size matches the n-th receive (or send)."""
    count = seen[base] = seen.get(base, -1) + 1
    return (*base, count)


def _call(handler) -> None:
    handler()
