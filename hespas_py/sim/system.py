"""ASTRA-sim's system layer on one NPU: its events, and its collectives split into chunks that
move through per-dimension queues (`hespas_py.sim.streams`); communicator groups.

Two event levels reproduce ASTRA-sim's same-tick ordering exactly: a global queue of time-stamped
callback lists (the analytical backend's EventQueue: an event scheduled for the current tick joins
the list being processed), and per NPU a tick -> callbacks map whose first entry for a tick
schedules one global callback (ASTRA-sim's Sys::register_event / call_events).
"""

from __future__ import annotations

from hespas_py.sim.collectives import (
    ALL_GATHER,
    ALL_REDUCE,
    ALL_TO_ALL,
    REDUCE_SCATTER,
    make_algorithm,
)
from hespas_py.sim.errors import Rejected
from hespas_py.sim.machine import IMPLEMENTATION_KEYS, Algorithm, NetworkConfig, SystemConfig
from hespas_py.sim.network import EventQueue, Network
from hespas_py.sim.streams import DataSet, Phase, QueueLevel, Stream
from hespas_py.sim.topology import LogicalRing, LogicalTopology, machine_topology

#: Tag offset of collective messages (ASTRA-sim's FrontEndSendRecvType::COLLECTIVE).
COLLECTIVE_TAG_OFFSET = 500_000_000
#: Implementation-list key of each collective type.
IMPLEMENTATION_OF = {ALL_REDUCE: "ALL_REDUCE", ALL_GATHER: "ALL_GATHER",
                     REDUCE_SCATTER: "REDUCE_SCATTER", ALL_TO_ALL: "ALL_TO_ALL"}


class Sys:
    """One NPU's system layer: its event map, and the chunks of its collectives moving through
    per-dimension queues (at most ``active-chunks-per-dimension`` running per queue)."""

    def __init__(self, npu: int, queue: EventQueue, network: Network, config: SystemConfig,
                 network_config: NetworkConfig) -> None:
        self.id = npu
        self.queue = queue
        self.network = network
        self.config = config
        self.npus_count = network_config.npus_count
        self.total_nodes = network_config.num_npus
        self.endpoint_delay = config.endpoint_delay
        self._local_mem_bytes_per_s = config.local_mem_bw * 1_000_000_000
        self._memory_pass_cache: dict[int, int] = {}
        self._events: dict[int, list] = {}
        dims = len(network_config.npus_count)
        self.levels = [QueueLevel([d]) for d in range(dims)]  # one queue per dimension
        self.active_streams: list[list[Stream]] = [[] for _ in range(dims)]
        self.running_streams = [0] * dims
        self.queue_threshold = config.active_chunks_per_dimension
        self.ready_list: list[Stream] = []
        self.priority_counter = 0
        self.num_streams = 0
        self._topologies: dict[int, LogicalTopology] = {}

    # -- events -------------------------------------------------------------------------------
    def register_event(self, callback, data, delta: int) -> None:
        """Run ``callback(data)`` ``delta`` ns from now, after this NPU's earlier registrations."""
        time = self.queue.now + delta
        events = self._events.get(time)
        if events is None:
            events = self._events[time] = []
            self.queue.schedule(time, self._call_events, time)
        events.append((callback, data))

    def _call_events(self, time: int) -> None:
        events = self._events[time]
        i = 0
        while i < len(events):
            callback, data = events[i]
            i += 1
            callback(data)
        del self._events[time]

    def memory_pass_ns(self, size: int) -> int:
        """One pass of ``size`` bytes over local memory, floored to ns (0 without local-mem-bw,
        as ASTRA-sim's float-to-integer conversion of inf/NaN gives on x86)."""
        cached = self._memory_pass_cache.get(size)
        if cached is None:
            rate = self._local_mem_bytes_per_s
            cached = int(size / rate * 1e9) if rate > 0 else 0
            self._memory_pass_cache[size] = cached
        return cached

    # -- messages -----------------------------------------------------------------------------
    def collective_send(self, size: int, dst: int, tag: int) -> None:
        """Send a collective's message (its completion needs no action)."""
        self.network.send(self.id, dst, size, tag % COLLECTIVE_TAG_OFFSET + COLLECTIVE_TAG_OFFSET,
                          None)

    def collective_recv(self, size: int, src: int, tag: int, stream: Stream) -> None:
        """Post a collective's receive; the stream consumes the message when it arrives."""
        self.network.recv(self.id, src, size, tag % COLLECTIVE_TAG_OFFSET + COLLECTIVE_TAG_OFFSET,
                          stream.consume)

    # -- collectives --------------------------------------------------------------------------
    def machine_topology(self, com_type: int) -> LogicalTopology:
        """The whole-machine logical topology of a collective type (built once per NPU)."""
        topo = self._topologies.get(com_type)
        if topo is None:
            algorithms = self.config.implementations.get(IMPLEMENTATION_OF[com_type], ())
            topo = self._topologies[com_type] = machine_topology(self.id, self.npus_count,
                                                                 algorithms)
        return topo

    def algorithms(self, com_type: int):
        """Per-dimension algorithms of a collective type."""
        algorithms = self.config.implementations.get(IMPLEMENTATION_OF[com_type])
        if algorithms is None:
            raise Rejected(f"ASTRA-sim aborts: system.json has no "
                           f"{IMPLEMENTATION_KEYS[IMPLEMENTATION_OF[com_type]]}")
        return algorithms

    def next_priority(self, explicit_priority: int) -> int:
        """Chunk priority: LIFO counts up, FIFO counts down, EXPLICIT takes the node's."""
        policy = self.config.scheduling_policy
        if policy == "EXPLICIT":
            return explicit_priority
        priority = self.priority_counter
        self.priority_counter += 1 if policy == "LIFO" else -1
        return priority

    def generate_collective(self, size: int, topo: LogicalTopology, algorithms,
                            involved: tuple[bool, ...], com_type: int, priority: int,
                            group, on_finish) -> DataSet:
        """Split a collective into chunks, give each chunk its phases and queue it."""
        splits = self.config.preferred_dataset_splits
        if splits <= 0:
            raise Rejected("ASTRA-sim crashes: preferred-dataset-splits must be positive")
        chunk_size = size // splits
        if com_type != ALL_GATHER and self.total_nodes > chunk_size:
            chunk_size = self.total_nodes
            size = splits * chunk_size
        if chunk_size == 0:
            raise Rejected(f"ASTRA-sim crashes: an all-gather of {size} bytes splits into "
                           f"{splits} empty chunks")
        dataset = DataSet(on_finish)
        stream_priority = self.next_priority(priority)
        dims = len(topo.dims)
        dim_mapper = list(range(dims))
        if com_type == ALL_GATHER:
            dim_mapper.reverse()

        def active(dim: int) -> bool:
            d = dim_mapper[dim]
            return topo.nodes(d) != 1 and d < len(involved) and involved[d]

        def phase(dim: int, phase_type: int, remain: int, queue: tuple[int, int]) -> Phase:
            d = dim_mapper[dim]
            algorithm = make_algorithm(phase_type, algorithms[d], self.id, topo.basic(d), remain,
                                       queue[1])
            return Phase(queue[0], algorithm)

        count = 0
        local_bw_aware = (com_type == ALL_REDUCE
                          and self.config.collective_optimization == "localBWAware")
        while size > 0:
            count += 1
            size = 0 if chunk_size > size else size - chunk_size
            remain = chunk_size
            phases: list[Phase] = []
            if not local_bw_aware:
                for dim in range(dims):
                    if active(dim):
                        phases.append(phase(dim, com_type, remain,
                                            self.levels[dim_mapper[dim]].next()))
                        remain = phases[-1].final_data_size
            else:
                last_active = 0
                for dim in range(dims):
                    if active(dim):
                        last_active = dim
                for dim in range(last_active):
                    if active(dim):
                        phases.append(phase(dim, REDUCE_SCATTER, remain,
                                            self.levels[dim_mapper[dim]].next_first()))
                        remain = phases[-1].final_data_size
                dim = last_active
                while dim > 0 and not active(dim):
                    dim -= 1
                if active(dim):
                    phases.append(phase(dim, ALL_REDUCE, remain,
                                        self.levels[dim_mapper[dim]].next_first()))
                    remain = phases[-1].final_data_size
                top = dim
                for dim in range(top - 1, -1, -1):
                    if active(dim):
                        phases.append(phase(dim, ALL_GATHER, remain,
                                            self.levels[dim_mapper[dim]].next_last()))
                        remain = phases[-1].final_data_size
            if not phases:
                dataset.active = False
                break
            if group is None:
                stream_id = self.num_streams
                self.num_streams += 1
            else:
                stream_id = group.next_stream_id()
            self.insert_into_ready_list(Stream(self, dataset, stream_id, phases, stream_priority))
        if dataset.active:
            dataset.total_streams = count
        return dataset

    @staticmethod
    def insert_stream(queue: list[Stream], stream: Stream) -> None:
        """Insert after running chunks and chunks of equal or higher priority."""
        position = 0
        for position, other in enumerate(queue):  # noqa: B007
            if not other.initialized and other.priority < stream.priority:
                break
        else:
            position = len(queue)
        queue.insert(position, stream)

    def insert_into_ready_list(self, stream: Stream) -> None:
        """Queue a new chunk and start it (the ready list has no practical limit)."""
        self.insert_stream(self.ready_list, stream)
        self.schedule(len(self.ready_list))

    def schedule(self, count: int) -> None:
        """Move ``count`` chunks from the ready list to their first phase's queue."""
        for _ in range(min(count, len(self.ready_list))):
            stream = self.ready_list[0]
            self.proceed_to_next_phase(stream)
            del self.ready_list[0]

    def proceed_to_next_phase(self, stream: Stream) -> None:
        """A chunk finished its phase (or is new): queue its next phase, or finish it."""
        previous = stream.queue_id
        if not stream.phases:
            stream.dataset.stream_finished()
        if previous >= 0:
            self.active_streams[stream.phase.queue_id].remove(stream)
        if not stream.phases:
            if previous >= 0:
                self.stream_removed(previous)
            return
        phase = stream.phases.popleft()
        stream.queue_id = abs(phase.queue_id)
        stream.phase = phase
        stream.initialized = False
        self.insert_stream(self.active_streams[stream.queue_id], stream)
        if previous >= 0:
            self.stream_removed(previous)
        self.stream_added(stream.queue_id)

    def _start_waiting(self, queue_id: int) -> None:
        streams = self.active_streams[queue_id]
        while self.running_streams[queue_id] < min(len(streams), self.queue_threshold):
            stream = streams[self.running_streams[queue_id]]
            self.running_streams[queue_id] += 1
            stream.init()

    def stream_added(self, queue_id: int) -> None:
        """A chunk joined a queue: start it if the queue has a free running slot."""
        self._start_waiting(queue_id)

    def stream_removed(self, queue_id: int) -> None:
        """A chunk left a queue: start waiting chunks of the ready list and of that queue."""
        self.running_streams[queue_id] -= 1
        self.schedule(len(self.ready_list))
        self._start_waiting(queue_id)


class CommGroup:
    """A communicator group as one NPU sees it (stream ids of its collectives start at
    ``1_000_000 * id``)."""

    __slots__ = ("id", "members", "_stream_counter", "_plans")

    def __init__(self, group_id: int, members: tuple[int, ...]) -> None:
        self.id = group_id
        self.members = members
        self._stream_counter = group_id * 1_000_000
        self._plans: dict[int, tuple] = {}

    def next_stream_id(self) -> int:
        """The next stream id of this group."""
        stream_id = self._stream_counter
        self._stream_counter += 1
        return stream_id

    def plan(self, sys: Sys, com_type: int) -> tuple[LogicalTopology, tuple, tuple[bool, ...]]:
        """(topology, algorithms, involved dims) of a collective in this group.

        A group of all NPUs uses the machine topology on every dimension; a smaller group is one
        local ring in file order, with ring instead of any multi-dimensional algorithm list.
        """
        plan = self._plans.get(com_type)
        if plan is None:
            algorithms = sys.algorithms(com_type)
            if len(self.members) == sys.total_nodes:
                plan = (sys.machine_topology(com_type), algorithms, (True,) * 10)
            else:
                if sys.id not in self.members:
                    raise Rejected(f"NPU {sys.id} issues a collective of communicator group "
                                   f"{self.id}, which does not include it")
                if len(algorithms) > 1:
                    algorithms = (Algorithm("ring"),)
                ring = LogicalRing(list(self.members), sys.id, local=True)
                plan = (LogicalTopology([ring]), algorithms, (True,))
            self._plans[com_type] = plan
        return plan
