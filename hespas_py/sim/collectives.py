"""ASTRA-sim's native collective algorithms: ring, direct, halvingDoubling, doubleBinaryTree.

Each algorithm runs one phase of one chunk (a "stream") on one NPU, as a small state machine
driven by three events: the stream's start, a packet that came back from the NPU's memory
interface (``GENERAL``), and a packet received from a peer. The packet accounting (zero- and
non-zero-latency packets, reductions priced by the local memory bandwidth, the endpoint delay of
every packet) follows ASTRA-sim's Ring, AllToAll (direct), HalvingDoubling and
DoubleBinaryTreeAllReduce, so times match it to the nanosecond.
"""

from __future__ import annotations

import math
from collections import deque
from typing import TYPE_CHECKING

from hespas_py.sim.errors import Rejected
from hespas_py.sim.event_kinds import GENERAL, PACKET_RECEIVED
from hespas_py.sim.topology import ANTICLOCKWISE, CLOCKWISE, BinaryTree, LogicalRing

if TYPE_CHECKING:
    from hespas_py.sim.streams import Stream

# Collective types (ASTRA-sim's ComType).
REDUCE_SCATTER, ALL_GATHER, ALL_REDUCE, ALL_TO_ALL = 1, 2, 3, 4


class PacketBundle:
    """Packets passing through the NPU's memory interface: the endpoint delay (10 ns on a local
    ring), then, when they need a reduction, three passes over local memory."""

    __slots__ = ("stream", "needs_processing", "size")

    def __init__(self, stream, needs_processing: bool, size: int, local: bool) -> None:
        self.stream = stream
        self.needs_processing = needs_processing
        self.size = size
        sys = stream.owner
        sys.register_event(self.call, None, 10 if local else sys.endpoint_delay)

    def call(self, data) -> None:
        """Memory-interface delay elapsed: reduce if needed, else hand the packet back."""
        if self.needs_processing:
            self.needs_processing = False
            sys = self.stream.owner
            sys.register_event(self.call, None, 3 * sys.memory_pass_ns(self.size))
            return
        self.stream.call(data)


class Ring:
    """ASTRA-sim's Ring algorithm: messages to the next NPU of a logical ring, one per step."""

    stream: Stream  # the chunk that runs this phase; its `Stream` sets it

    def __init__(self, com_type: int, npu: int, ring: LogicalRing, data_size: int,
                 direction: int) -> None:
        n = ring.nodes
        self.com_type = com_type
        self.id = npu
        self.ring = ring
        self.direction = direction
        self.nodes_in_ring = n
        self.curr_receiver = ring.receiver(npu, direction)
        self.curr_sender = ring.sender(npu, direction)
        self.parallel_reduce = 1
        self.free_packets = 0
        self.total_packets_received = 0
        self.zero_latency_packets = 0
        self.non_zero_latency_packets = 0
        self.toggle = False
        self.local = ring.local
        if com_type == ALL_REDUCE:
            self.stream_count = 2 * (n - 1)
        elif com_type == ALL_TO_ALL:
            self.stream_count = (n - 1) * n // 2
        else:
            self.stream_count = n - 1
        if com_type == ALL_REDUCE:
            self.final_data_size, self.msg_size = data_size, data_size // n
        elif com_type == ALL_GATHER:
            self.final_data_size, self.msg_size = data_size * n, data_size
        elif com_type == REDUCE_SCATTER:
            self.final_data_size, self.msg_size = data_size // n, data_size // n
        else:
            self.final_data_size, self.msg_size = data_size, data_size // n
        self.packets: deque = deque()
        self.processed = False

    def non_zero_latency_count(self) -> int:
        """Packets per round that travel the network."""
        return (self.nodes_in_ring - 1) * self.parallel_reduce

    def run(self, event: int, data) -> None:
        """Advance on a stream event."""
        if event == GENERAL:
            self.free_packets += 1
            self.ready()
            self.iteratable()
        elif event == PACKET_RECEIVED:
            self.total_packets_received += 1
            self.insert_packet()
        else:
            for _ in range(self.parallel_reduce):
                self.insert_packet()

    def release_packets(self) -> None:
        """Send the packet just inserted through the memory interface."""
        PacketBundle(self.stream, self.processed, self.msg_size, self.local)

    def process_max_count(self) -> None:
        """Release the inserted packet, then turn to the next peer."""
        self.release_packets()
        self.next_peer()

    def next_peer(self) -> None:
        """After a release: a ring keeps its neighbours."""

    def reduce(self) -> None:
        """Bookkeeping after a message went out (one packet per message)."""
        if self.stream_count > 0:
            self.stream_count -= 1
        self.packets.popleft()
        self.free_packets -= 1

    def iteratable(self) -> bool:
        """Finish the phase once every message is out and every packet is back."""
        if self.stream_count == 0 and self.free_packets == self.parallel_reduce:
            self.exit()
            return False
        return True

    def insert_packet(self) -> None:
        """Queue one packet (first a zero-latency round, then the network rounds)."""
        if self.zero_latency_packets == 0 and self.non_zero_latency_packets == 0:
            self.zero_latency_packets = self.parallel_reduce
            self.non_zero_latency_packets = self.non_zero_latency_count()
            self.toggle = not self.toggle
        if self.zero_latency_packets > 0:
            self.packets.append((self.curr_sender, self.curr_receiver, self.msg_size))
            self.processed = False
            self.process_max_count()
            self.zero_latency_packets -= 1
            return
        if self.non_zero_latency_packets > 0:
            self.packets.append((self.curr_sender, self.curr_receiver, self.msg_size))
            self.processed = (self.com_type == REDUCE_SCATTER
                              or (self.com_type == ALL_REDUCE and self.toggle))
            self.process_max_count()
            self.non_zero_latency_packets -= 1
            return
        raise Rejected("ASTRA-sim panics: a collective algorithm has nothing to inject")

    def message_size(self, packet: tuple) -> int:
        """Bytes of the message a packet sends (Ring: the algorithm's current message size)."""
        return self.msg_size

    def ready(self) -> bool:
        """Send the front packet to its peer and post the matching receive."""
        if not self.packets or self.stream_count == 0 or self.free_packets == 0:
            return False
        packet = self.packets[0]
        size = self.message_size(packet)
        stream = self.stream
        sys = stream.owner
        sys.collective_send(size, packet[1], stream.stream_id)
        sys.collective_recv(size, packet[0], stream.stream_id, stream)
        self.reduce()
        return True

    def exit(self) -> None:
        """Phase done: move the stream on."""
        self.packets.clear()
        self.stream.owner.proceed_to_next_phase(self.stream)


class Direct(Ring):
    """ASTRA-sim's AllToAll ("direct") algorithm: packets to every peer, ``window`` at a time."""

    def __init__(self, com_type: int, window: int, npu: int, ring: LogicalRing, data_size: int,
                 direction: int) -> None:
        super().__init__(com_type, npu, ring, data_size, direction)
        n = self.nodes_in_ring
        self.middle_point = n - 1
        self.parallel_reduce = n - 1 if window == -1 else min(window, n - 1)
        if com_type == ALL_TO_ALL:
            self.stream_count = n - 1

    def run(self, event: int, data) -> None:
        """Advance on a stream event; an all-reduce waits for every reduce-scatter message."""
        if event == GENERAL:
            self.free_packets += 1
            if self.com_type == ALL_REDUCE and self.stream_count <= self.middle_point:
                if self.total_packets_received < self.middle_point:
                    return
                for _ in range(self.parallel_reduce):
                    self.ready()
                self.iteratable()
            else:
                self.ready()
                self.iteratable()
        else:
            super().run(event, data)

    def next_peer(self) -> None:
        """After a release: the next receiver and sender around the ring, skipping itself."""
        ring, me = self.ring, self.id
        self.curr_receiver = ring.receiver(self.curr_receiver, self.direction)
        if self.curr_receiver == me:
            self.curr_receiver = ring.receiver(self.curr_receiver, self.direction)
        self.curr_sender = ring.sender(self.curr_sender, self.direction)
        if self.curr_sender == me:
            self.curr_sender = ring.sender(self.curr_sender, self.direction)

    def non_zero_latency_count(self) -> int:
        """Network packets per round: one window, or every peer on a local ring."""
        if not self.ring.local:
            return self.parallel_reduce
        return (self.nodes_in_ring - 1) * self.parallel_reduce


class HalvingDoubling(Ring):
    """ASTRA-sim's HalvingDoubling: partners ``2**k`` apart, message size halving (or doubling)."""

    def __init__(self, com_type: int, npu: int, ring: LogicalRing, data_size: int) -> None:
        if com_type == ALL_TO_ALL:
            raise Rejected("ASTRA-sim exits: HalvingDoubling has no all-to-all (unknown "
                           "communication type for the HalvingDoubling collective algorithm)")
        super().__init__(com_type, npu, ring, data_size, CLOCKWISE)
        n = self.nodes_in_ring
        log_n = math.log2(n)
        self.stream_count = int(2 * log_n) if com_type == ALL_REDUCE else int(log_n)
        if com_type == ALL_REDUCE:
            self.final_data_size, self.msg_size = data_size, data_size // 2
            self.rank_offset, self.offset_multiplier = 1, 2.0
        elif com_type == ALL_GATHER:
            self.final_data_size, self.msg_size = data_size * n, data_size
            self.rank_offset, self.offset_multiplier = n // 2, 0.5
        else:
            self.final_data_size, self.msg_size = data_size // n, data_size // 2
            self.rank_offset, self.offset_multiplier = 1, 2.0
        self._point_at_partner()

    def _point_at_partner(self) -> None:
        if self.rank_offset == 0:
            direction = CLOCKWISE
        else:
            odd = (self.ring.index_in_ring // self.rank_offset) % 2
            direction = ANTICLOCKWISE if odd else CLOCKWISE
        receiver = self.id
        for _ in range(self.rank_offset):
            receiver = self.ring.receiver(receiver, direction)
            self.curr_sender = receiver
        self.curr_receiver = receiver

    def non_zero_latency_count(self) -> int:
        """``log2(n) - 1`` network packets per round."""
        return int(math.log2(self.nodes_in_ring) - 1 * self.parallel_reduce)

    def next_peer(self) -> None:
        """After a release: double (or halve) the partner distance and the message size."""
        self.rank_offset = int(self.rank_offset * self.offset_multiplier)
        self.msg_size = int(self.msg_size / self.offset_multiplier)
        if self.rank_offset == self.nodes_in_ring and self.com_type == ALL_REDUCE:
            self.offset_multiplier = 0.5
            self.rank_offset = int(self.rank_offset * self.offset_multiplier)
            self.msg_size = int(self.msg_size / self.offset_multiplier)
        self._point_at_partner()

    def message_size(self, packet: tuple) -> int:
        """HalvingDoubling sends the size the packet was queued with."""
        return packet[2]


class DoubleBinaryTreeAllReduce:
    """ASTRA-sim's DoubleBinaryTreeAllReduce: reduce up one binary tree, broadcast back down."""

    # States.
    BEGIN, WAIT_TWO, WAIT_ONE, TO_PARENT, FROM_PARENT, TO_CHILDREN, END = range(7)

    stream: Stream  # the chunk that runs this phase; its `Stream` sets it

    def __init__(self, npu: int, tree: BinaryTree, data_size: int) -> None:
        self.id = npu
        self.data_size = data_size
        self.final_data_size = data_size
        self.com_type = ALL_REDUCE
        self.state = self.BEGIN
        self.reductions = 0
        self.parent, self.left_child, self.right_child = tree.role(npu)
        if self.parent == -1:
            self.kind = "root"
        elif self.left_child == -1 and self.right_child == -1:
            self.kind = "leaf"
        else:
            self.kind = "intermediate"

    def _bundle(self, needs_processing: bool) -> None:
        PacketBundle(self.stream, needs_processing, self.data_size, local=False)

    def _send(self, peer: int) -> None:
        self.stream.owner.collective_send(self.data_size, peer, self.stream.stream_id)

    def _recv(self, peer: int) -> None:
        stream = self.stream
        stream.owner.collective_recv(self.data_size, peer, stream.stream_id, stream)

    def _exit(self) -> None:
        self.stream.owner.proceed_to_next_phase(self.stream)

    def run(self, event: int, data) -> None:
        """Advance the tree state machine (same transition order as ASTRA-sim)."""
        state, kind = self.state, self.kind
        if kind == "leaf":
            if state == self.BEGIN:
                self._bundle(False)
                self.state = self.TO_PARENT
            elif state == self.TO_PARENT:
                self._send(self.parent)
                self._recv(self.parent)
                self.state = self.FROM_PARENT
            elif state == self.FROM_PARENT:
                self._bundle(False)
                self.state = self.END
            elif state == self.END:
                self._exit()
        elif kind == "intermediate":
            if state == self.BEGIN:
                self.state = self.WAIT_TWO
                self._recv(self.left_child)
                self._recv(self.right_child)
            elif state == self.WAIT_TWO and event == PACKET_RECEIVED:
                self._bundle(True)
                self.state = self.WAIT_ONE
            elif state == self.WAIT_ONE and event == PACKET_RECEIVED:
                self._bundle(True)
                self.state = self.TO_PARENT
            elif self.reductions < 1 and event == GENERAL:
                self.reductions += 1
            elif state == self.TO_PARENT:
                self.state = self.FROM_PARENT
                self._send(self.parent)
                self._recv(self.parent)
            elif state == self.FROM_PARENT and event == PACKET_RECEIVED:
                self._bundle(True)
                self.state = self.TO_CHILDREN
            elif state == self.TO_CHILDREN:
                self._send(self.left_child)
                self._send(self.right_child)
                self._exit()
        else:
            child = self.left_child if self.left_child >= 0 else self.right_child
            if state == self.BEGIN:
                self.state = self.WAIT_ONE
                self._recv(child)
            elif state == self.WAIT_ONE:
                self._bundle(True)
                self.state = self.TO_CHILDREN
            elif state == self.TO_CHILDREN:
                self._send(child)
                self._exit()


def make_algorithm(com_type: int, algorithm, npu: int, topo, data_size: int, direction: int):
    """The algorithm object of one phase (ASTRA-sim's generate_collective_phase)."""
    base = algorithm.base
    if base == "doubleBinaryTree":
        if not isinstance(topo, BinaryTree):
            raise Rejected("doubleBinaryTree on a communicator group's ring (ASTRA-sim crashes)")
        return DoubleBinaryTreeAllReduce(npu, topo, data_size)
    if base == "ring":
        return Ring(com_type, npu, topo, data_size, direction)
    if base == "direct":
        return Direct(com_type, algorithm.window, npu, topo, data_size, direction)
    return HalvingDoubling(com_type, npu, topo, data_size)
