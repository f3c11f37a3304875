"""Every device issues its collectives in program order (control deps between communication
nodes), so devices of a group cannot start collectives of different groups in different orders
and deadlock the simulation."""

from __future__ import annotations

import pytest

from hespas_py.chakra.groups import DeviceLayout
from hespas_py.chakra.io import read_trace
from hespas_py.chakra.schema import NodeType
from hespas_py.chakra.writer import write_traces
from hespas_py.sim import simulate
from hespas_py.split import individual_split
from test_chakra_writer import estimates_for, op, ret, t
from test_sim import RING4, system

#: A swap between neighbours, an all-gather of what it received, and a later all-gather of an
#: argument (free from the start) on other groups. Issuing what is ready, devices that finish
#: their send before their receive started the later all-gather first, the others the earlier
#: one: NPUs 0..3 waited on each other in a cycle ("NPU 0 never finishes").
SWAP_THEN_GATHERS = [
    op("collective_permute", 1, (0,), t(4), t(4), source_target_pairs=((0, 1), (1, 0), (2, 3),
                                                                      (3, 2))),
    op("all_gather", 2, (1,), t(8), t(4), replica_groups=((0, 1), (2, 3))),
    op("all_gather", 3, (0,), t(8), t(4), replica_groups=((0, 3), (1, 2))),
    op("add", 4, (2, 3), t(8), t(8)), ret(4)]


def _write(tmp_path, ops, devices=4):
    graph = individual_split(ops)
    write_traces(tmp_path, graph, estimates_for(graph), DeviceLayout(devices, 1))
    return tmp_path


@pytest.mark.parametrize("replicate", [True, False])
def test_devices_that_start_collectives_at_different_times_finish(tmp_path, replicate):
    out = _write(tmp_path, SWAP_THEN_GATHERS)
    result = simulate(str(out / "dev"), system(), RING4, comm_groups=out / "comm_group.json",
                      replicate=replicate)
    assert len(result.devices) == 4
    assert all(d.finished_ns > 0 for d in result.devices)


def test_communication_nodes_wait_for_the_previous_collective(tmp_path):
    ops = [op("exponential", 1, (0,), t(4), t(4)),
           op("collective_permute", 2, (1,), t(4), t(4), source_target_pairs=((0, 1), (1, 0))),
           op("all_reduce", 3, (0,), t(4), t(4), replica_groups=((0, 1),)),   # free from start
           op("all_reduce", 4, (0,), t(4), t(4), replica_groups=((0,), (1,))),  # no node
           op("all_gather", 5, (4,), t(8), t(4), replica_groups=((0, 1),)),
           op("add", 6, (2, 3), t(4), t(4)), ret(6)]
    out = _write(tmp_path, ops, devices=2)
    nodes = read_trace(out / "dev.0.et")[1]
    got = [(n.id, NodeType(n.type).name, list(n.data_deps), list(n.ctrl_deps)) for n in nodes]
    assert got == [
        (0, "COMP_NODE", [], []),
        (1, "COMM_SEND_NODE", [0], []),
        (2, "COMM_RECV_NODE", [0], []),
        (3, "COMM_COLL_NODE", [], [1, 2]),    # the all-reduce waits for the permute
        (4, "COMM_COLL_NODE", [], [3]),       # the all-gather, past the all-reduce without nodes
        (5, "COMP_NODE", [1, 2, 3], [])]


def test_a_control_dep_already_a_data_dep_is_not_repeated(tmp_path):
    ops = [op("all_reduce", 1, (0,), t(4), t(4), replica_groups=((0, 1),)),
           op("all_reduce", 2, (1,), t(4), t(4), replica_groups=((0, 1),)), ret(2)]
    nodes = read_trace(_write(tmp_path, ops, devices=2) / "dev.1.et")[1]
    assert [(list(n.data_deps), list(n.ctrl_deps)) for n in nodes] == [([], []), ([0], [])]
