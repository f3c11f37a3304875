"""One NPU replaying its Chakra trace, as ASTRA-sim's Workload and HardwareResource do.

Dependency-free nodes are issued in ascending node id whenever any node finishes; a node is issued
only if its slot is free: one GPU compute node, one CPU op (``is_cpu_op``) and one collective or
send in flight at a time, receives unlimited. CPU ops are replayed from their recorded duration,
roofline or not, and their time is not compute time in the exposed-communication figure.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence

from hespas_py.chakra.schema import CollectiveCommType, NodeType, enum_name
from hespas_py.sim.collectives import ALL_GATHER, ALL_REDUCE, ALL_TO_ALL, REDUCE_SCATTER
from hespas_py.sim.errors import Rejected
from hespas_py.sim.inputs import leading_int
from hespas_py.sim.machine import NetworkConfig, SystemConfig
from hespas_py.sim.network import EventQueue, Network
from hespas_py.sim.result import DeviceResult, merged_length
from hespas_py.sim.system import CommGroup, Sys
from hespas_py.sim.trace import COMM, CPU, GPU, RECV, Trace, TraceNode

#: Tag range of trace-level sends/receives (ASTRA-sim's NATIVE tags).
NATIVE_TAG_RANGE = 500_000_000
#: Chakra collective type -> the system layer's collective type.
SIMULATED_COLLECTIVES: dict[int, int] = {CollectiveCommType.ALL_REDUCE: ALL_REDUCE,
                                          CollectiveCommType.ALL_GATHER: ALL_GATHER,
                                          CollectiveCommType.REDUCE_SCATTER: REDUCE_SCATTER,
                                          CollectiveCommType.ALL_TO_ALL: ALL_TO_ALL}
#: involved_dim when a collective node has none: every dimension (ASTRA-sim assumes four).
DEFAULT_INVOLVED_DIMS = (True,) * 4


def replay_ns(node: TraceNode) -> int:
    """A replayed node's time: its duration in ns, or 1 ns when it recorded 0."""
    return node.duration_us * 1000 if node.duration_us else 1


def required(node: TraceNode, name: str) -> int:
    """An integer attribute ASTRA-sim requires on this node."""
    value = node.ints.get(name)
    if value is None:
        raise Rejected(f"node {node.id} ({node.name}) has no {name} attribute")
    return value


def group_number(pg_name: str) -> int | None:
    """The communicator group id a pg_name names, None for "all NPUs" ("" or "0"); ValueError
    when it names no number."""
    if pg_name in ("", "0"):
        return None
    number = leading_int(pg_name)
    if number is None:
        raise ValueError(pg_name)
    return number


def group_id(node: TraceNode) -> int | None:
    """The communicator group id named by the node's pg_name (`group_number`)."""
    try:
        return group_number(node.pg_name)
    except ValueError:
        raise Rejected(f"node {node.id} ({node.name}): pg_name {node.pg_name!r} is not a group "
                       "number") from None


class Workload:
    """One NPU's trace replay and its statistics."""

    def __init__(self, sys: Sys, trace: Trace, groups: Mapping[int, tuple[int, ...]]) -> None:
        self.sys = sys
        self.trace = trace
        self.config = sys.config
        self.groups = {gid: CommGroup(gid, members) for gid, members in groups.items()}
        self.remaining = list(trace.parent_counts)
        self.resource = trace.resources
        self.free: tuple[list, list, list, list] = ([], [], [], [])
        for position, count in enumerate(self.remaining):
            if count == 0:
                self.free[self.resource[position]].append(trace.keys[position])
        for heap in self.free:
            heapq.heapify(heap)
        self.pending: list | None = None
        self.busy = [False, False, False, False]
        self.ongoing = 0
        self.start: dict[int, int] = {}
        self.end: dict[int, int] = {}
        self.gpu_ticks = 0
        self.finished_tick: int | None = None
        self._roofline = (self.config.local_mem_bw * 1_000_000_000,
                          self.config.peak_perf * 1_000_000_000_000)
        if self.config.replay_only:
            self._starters = (self.replay, self.replay, self.replay, self.replay_cpu)
        else:
            compute = self.roofline if self.config.roofline_enabled else self.replay
            self._starters = (compute, self._start_communication, self._start_communication,
                              self.cpu_op)

    # -- issuing ------------------------------------------------------------------------------
    def fire(self) -> None:
        """Start: issue the first dependency-free nodes."""
        self.issue_free_nodes()
        self.check_finished()

    def issue_free_nodes(self) -> None:
        """Issue dependency-free nodes in ascending id while their slots are free."""
        free_gpu, free_comm, free_recv, free_cpu = self.free
        busy = self.busy
        pending: list[tuple[int, int]] = []
        self.pending = pending
        while True:
            best = None
            if free_gpu and not busy[GPU]:
                best = free_gpu
            if free_comm and not busy[COMM] and (best is None or free_comm[0] < best[0]):
                best = free_comm
            if free_recv and (best is None or free_recv[0] < best[0]):
                best = free_recv
            if free_cpu and not busy[CPU] and (best is None or free_cpu[0] < best[0]):
                best = free_cpu
            if best is None:
                break
            self.issue(heapq.heappop(best)[1])
        self.pending = None
        for entry in pending:
            heapq.heappush(self.free[self.resource[entry[1]]], entry)

    def issue(self, position: int) -> None:
        """Take one node: occupy its slot and start it."""
        resource = self.resource[position]
        if resource != RECV:
            self.busy[resource] = True
        self.ongoing += 1
        self.start[position] = self.sys.queue.now
        self._starters[resource](position, self.trace.nodes[position])

    def _start_communication(self, position: int, node: TraceNode) -> None:
        if node.type == NodeType.COMM_COLL_NODE:
            self.collective(position, node)
        elif node.type == NodeType.COMM_SEND_NODE:
            self.send(position, node)
        else:
            self.recv(position, node)

    def replay(self, position: int, node: TraceNode) -> None:
        """Run a node for its recorded duration, counted as GPU compute time."""
        runtime = replay_ns(node)
        self.gpu_ticks += runtime
        self.sys.register_event(self.node_done, position, runtime)

    def replay_cpu(self, position: int, node: TraceNode) -> None:
        """Run a CPU op for its recorded duration (not compute time for exposed communication)."""
        self.sys.register_event(self.node_done, position, replay_ns(node))

    def cpu_op(self, position: int, node: TraceNode) -> None:
        """Replay a CPU compute node; a communication node may not be a CPU op."""
        if node.type != NodeType.COMP_NODE:
            raise Rejected(f"node {node.id} ({node.name}) is a communication node marked "
                           "is_cpu_op; ASTRA-sim aborts: 'Comm node should not be on CPU'")
        self.replay_cpu(position, node)

    def roofline(self, position: int, node: TraceNode) -> None:
        """Run a GPU node for ``num_ops / min(bw * ops/byte, peak)``; 0 bytes skips it."""
        num_ops = float(required(node, "num_ops"))
        tensor_size = float(required(node, "tensor_size"))
        if tensor_size == 0:
            self.skip(position)
            return
        bandwidth, peak = self._roofline
        perf = min(bandwidth * (num_ops / tensor_size), peak)
        elapsed = num_ops / perf if perf else math.nan
        # A NaN/inf time converts to 0 ns in ASTRA-sim's float-to-integer cast on x86.
        runtime = int(elapsed * 1e9) if math.isfinite(elapsed) else 0
        self.gpu_ticks += runtime
        self.sys.register_event(self.node_done, position, runtime)

    def collective(self, position: int, node: TraceNode) -> None:
        """Start a collective on the system layer (BROADCAST is replayed from its duration)."""
        involved = node.involved_dim if node.involved_dim is not None else DEFAULT_INVOLVED_DIMS
        gid = group_id(node)
        group = None
        if gid is not None:
            group = self.groups.get(gid)
            if group is None:
                raise Rejected(f"node {node.id} ({node.name}): communicator group {gid} not found "
                               "(pg_name must name a group of the comm-group file)")
        comm_type = required(node, "comm_type")
        size = required(node, "comm_size")
        com_type = SIMULATED_COLLECTIVES.get(comm_type)
        if com_type is None:
            if comm_type == CollectiveCommType.BROADCAST:
                self.sys.register_event(self.node_done, position, replay_ns(node))
                return
            name = enum_name(CollectiveCommType, comm_type, str(comm_type))
            raise Rejected(f"node {node.id} ({node.name}): ASTRA-sim does not support collective "
                           f"type {name}")
        self.start_collective(position, node, com_type, size, involved, group)

    def start_collective(self, position: int, node: TraceNode, com_type: int, size: int,
                         involved: tuple[bool, ...], group: CommGroup | None) -> None:
        """Split the collective into chunks on the system layer; finish the node when done."""
        sys = self.sys
        if group is None:
            topo, algorithms = sys.machine_topology(com_type), sys.algorithms(com_type)
        else:
            topo, algorithms, involved = group.plan(sys, com_type)
        sys.generate_collective(size, topo, algorithms, involved, com_type,
                                node.ints.get("comm_priority", 0), group,
                                lambda: self.node_done(position))

    def send(self, position: int, node: TraceNode) -> None:
        """Send to comm_dst; done when the message has arrived."""
        me = self.sys.id
        if node.ints.get("comm_src", me) != me:
            raise Rejected(f"node {node.id} ({node.name}): a send must be issued by its comm_src")
        self.sys.network.send(me, required(node, "comm_dst"), required(node, "comm_size"),
                              required(node, "comm_tag") % NATIVE_TAG_RANGE,
                              lambda: self.node_done(position))

    def recv(self, position: int, node: TraceNode) -> None:
        """Receive from comm_src; done when the message has arrived."""
        me = self.sys.id
        if node.ints.get("comm_dst", me) != me:
            raise Rejected(f"node {node.id} ({node.name}): a receive must be issued by its "
                           "comm_dst")
        self.sys.network.recv(me, required(node, "comm_src"), required(node, "comm_size"),
                              required(node, "comm_tag") % NATIVE_TAG_RANGE,
                              lambda: self.node_done(position))

    # -- finishing ----------------------------------------------------------------------------
    def skip(self, position: int) -> None:
        """Finish a node at once without freeing its dependants for this issue round."""
        self.busy[self.resource[position]] = False
        self.end[position] = self.sys.queue.now
        self.finish(position)

    def node_done(self, position: int) -> None:
        """A node finished: free its slot and dependants, issue what became free."""
        if self.finished_tick is not None:
            return
        self.busy[self.resource[position]] = False
        self.end[position] = self.sys.queue.now
        self.finish(position)
        self.issue_free_nodes()
        self.check_finished()

    def finish(self, position: int) -> None:
        """Resolve a node's dependants."""
        self.ongoing -= 1
        remaining, keys, free, pending = self.remaining, self.trace.keys, self.free, self.pending
        for child in self.trace.children[position]:
            remaining[child] -= 1
            if remaining[child] == 0:
                entry = keys[child]
                if pending is not None:
                    pending.append(entry)
                else:
                    heapq.heappush(free[self.resource[child]], entry)

    def check_finished(self) -> None:
        """Report once nothing is free, running or in flight."""
        if self.ongoing == 0 and not any(self.free) and not any(self.busy):
            self.finished_tick = self.sys.queue.now

    def stuck_nodes(self) -> list[int]:
        """Ids of nodes issued but unfinished, or free but never issued (for error messages)."""
        nodes = self.trace.nodes
        stuck = [nodes[p].id for p in self.start if p not in self.end]
        stuck += [entry[0] for heap in self.free for entry in heap]
        return sorted(stuck)

    # -- report -------------------------------------------------------------------------------
    def result(self) -> DeviceResult:
        """ASTRA-sim's report of this NPU (node intervals are GPU, CPU or comm by node type)."""
        nodes, start, end, resource = self.trace.nodes, self.start, self.end, self.resource
        finished = self.finished_tick
        assert finished is not None, "reported after the run finished"
        gpu: list[tuple[int, int]] = []
        comm: list[tuple[int, int]] = []
        cpu: list[tuple[int, int]] = []
        for position, issued in start.items():
            kind = resource[position]
            if kind == CPU and nodes[position].type == NodeType.COMP_NODE:
                cpu.append((issued, end[position]))
            else:
                (gpu if kind == GPU else comm).append((issued, end[position]))
        wall = max(end.values(), default=0)
        gpu_time, comm_time = merged_length(gpu), merged_length(comm)
        # ASTRA-sim's overlap, GPU + comm - wall, takes the two to cover the wall; CPU ops need not.
        covered = merged_length(gpu + comm) if cpu else wall
        overlap = gpu_time + comm_time - covered if gpu and comm else 0
        timeline = tuple((nodes[p].id, issued, end[p]) for p, issued in start.items())
        return DeviceResult(self.sys.id, wall, gpu_time, comm_time,
                            finished - self.gpu_ticks, max(overlap, 0),
                            finished, merged_length(cpu), timeline, self.trace)


def run_workloads(workloads: Sequence[Workload], queue: EventQueue) -> None:
    """Start every workload, run the event loop dry and check that every NPU finished."""
    for workload in workloads:
        workload.fire()
    queue.run()
    for workload in workloads:
        if workload.finished_tick is None:
            stuck = workload.stuck_nodes()
            shown = ", ".join(map(str, stuck[:5])) + (", ..." if len(stuck) > 5 else "")
            raise Rejected(f"NPU {workload.sys.id} never finishes (node(s) {shown} stuck); "
                           "ASTRA-sim ends without a report")


def run_full(traces: list[Trace], system: SystemConfig, network: NetworkConfig,
             groups: Mapping[int, tuple[int, ...]]) -> list[Workload]:
    """Simulate every NPU, NPU i replaying ``traces[i]`` (raises `Rejected` where ASTRA-sim would
    fail or stall)."""
    queue = EventQueue()
    net = Network(network, queue)
    workloads = [Workload(Sys(npu, queue, net, system, network), trace, groups)
                 for npu, trace in enumerate(traces)]
    run_workloads(workloads, queue)
    return workloads
