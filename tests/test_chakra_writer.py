"""Chakra trace writing: exact bytes, comm_size conventions, groups, send/recv, durations."""

from __future__ import annotations

import json
import os

import pytest

from hespas_py.chakra.groups import DeviceLayout
from hespas_py.chakra.io import read_trace
from hespas_py.chakra.schema import NodeType
from hespas_py.chakra.summary import node_attrs, summarize
from hespas_py.chakra.writer import durations_micros, write_traces
from hespas_py.errors import HespasError
from hespas_py.estimators.base import Estimate
from hespas_py.mlir.ops import Module, Op, TensorType
from hespas_py.split import individual_split


def t(*shape: int) -> TensorType:
    return TensorType(tuple(shape), "f32")


def op(name: str, result: int, operands: tuple[int, ...], out: TensorType, ins: TensorType,
       **attrs) -> Op:
    return Op(f"stablehlo.{name}", (result,), operands, (out,), (ins,) * len(operands),
              attrs=attrs)


def ret(value: int) -> Op:
    return Op("func.return", (), (value,), (), (t(4),))


def estimates_for(graph, times=None):
    compute = [b for b in graph.blocks if not b.collective]
    times = times or [1e-6] * len(compute)
    found = {b.id: Estimate(time_s=s, flops=1000.0 * (i + 1), bytes=64.0 * (i + 1))
             for i, (b, s) in enumerate(zip(compute, times, strict=True))}
    return [found.get(b.id) for b in graph.blocks]


def nodes_of(path):
    return read_trace(path)[1]


# exp -> all_reduce over both devices -> add
TINY = [op("exponential", 1, (0,), t(4), t(4)),
        op("all_reduce", 2, (1,), t(4), t(4), replica_groups=((0, 1),)),
        op("add", 3, (2, 0), t(4), t(4)), ret(3)]

#: dev.0.et of TINY on 2 devices with times 1.5 us and 2.7 us (checked field by field below).
TINY_TRACE = bytes.fromhex(
    "07" "0a05302e302e34"                                        # GlobalMetadata{version}
    "40" "120b6578706f6e656e7469616c" "1804" "3802"              # exponential, COMP, 2 us
    "520e0a0969735f6370755f6f70d80100"                           # is_cpu_op bool_val false
    "520c0a076e756d5f6f707348e807"                               # num_ops int64_val 1000
    "520f0a0b74656e736f725f73697a656840"                         # tensor_size uint64_val 64
    "50" "0801" "120a616c6c5f726564756365" "1807" "2a0100"       # id 1, all_reduce, COLL, deps [0]
    "520e0a0969735f6370755f6f70d80100"
    "520d0a09636f6d6d5f747970654800"                             # comm_type int64_val 0
    "520d0a09636f6d6d5f73697a654810"                             # comm_size int64_val 16
    "520d0a0770675f6e616d65ea010131"                             # pg_name string_val "1"
    "3e" "0802" "1203616464" "1804" "2a0101" "3802"              # id 2, add, COMP, deps [1], 2 us
    "520e0a0969735f6370755f6f70d80100"
    "520c0a076e756d5f6f707348d00f"                               # num_ops 2000
    "52100a0b74656e736f725f73697a65688001")                      # tensor_size 128


def test_tiny_trace_bytes_exactly(tmp_path):
    graph = individual_split(TINY)
    write_traces(tmp_path, graph, estimates_for(graph, [1.5e-6, 2.7e-6]), DeviceLayout(2, 1))
    nodes = nodes_of(tmp_path / "dev.0.et")
    assert [(n.id, n.name, n.type, list(n.data_deps), n.duration_micros) for n in nodes] == [
        (0, "exponential", NodeType.COMP_NODE, [], 2),
        (1, "all_reduce", NodeType.COMM_COLL_NODE, [0], 0),
        (2, "add", NodeType.COMP_NODE, [1], 2)]          # 1.5 + 2.7 = 4.2 -> 2 + 2
    assert [node_attrs(n) for n in nodes] == [
        {"is_cpu_op": False, "num_ops": 1000, "tensor_size": 64},
        {"is_cpu_op": False, "comm_type": 0, "comm_size": 16, "pg_name": "1"},
        {"is_cpu_op": False, "num_ops": 2000, "tensor_size": 128}]
    # Attribute value fields exactly as ASTRA-sim reads them.
    fields = {a.name: a.WhichOneof("value") for n in nodes for a in n.attr}
    assert fields == {"is_cpu_op": "bool_val", "num_ops": "int64_val",
                      "tensor_size": "uint64_val", "comm_type": "int64_val",
                      "comm_size": "int64_val", "pg_name": "string_val"}
    assert (tmp_path / "dev.0.et").read_bytes() == TINY_TRACE
    assert json.loads((tmp_path / "comm_group.json").read_text()) == {"1": [0, 1]}


def test_identical_traces_are_hard_links_and_round_trip(tmp_path):
    graph = individual_split(TINY)
    traces = write_traces(tmp_path, graph, estimates_for(graph), DeviceLayout(2, 1))
    assert traces.files == 1
    assert os.stat(tmp_path / "dev.0.et").st_ino == os.stat(tmp_path / "dev.1.et").st_ino
    summary = summarize(tmp_path)
    assert summary["ranks"] == 2 and len(summary["traces"]) == 1
    only = summary["traces"][0]
    assert only["by_type"] == {"COMP_NODE": 2, "COMM_COLL_NODE": 1}
    assert only["collectives"] == {"ALL_REDUCE": {"count": 1, "bytes": 16}}
    assert only["compute_micros"] == 2 and only["flops"] == 3000
    assert summary["comm_groups"] == {"1": [0, 1]}


def test_comm_size_follows_the_astra_sim_convention(tmp_path):
    ops = [op("all_gather", 1, (0,), t(16), t(4), replica_groups=((0, 1, 2, 3),)),
           op("reduce_scatter", 2, (1,), t(4), t(16), replica_groups=((0, 1, 2, 3),)),
           op("all_to_all", 3, (2,), t(4), t(4), replica_groups=((0, 1, 2, 3),)),
           op("all_reduce", 4, (3,), t(4), t(4), replica_groups=((0, 1, 2, 3),)), ret(4)]
    graph = individual_split(ops)
    write_traces(tmp_path, graph, estimates_for(graph), DeviceLayout(4, 1))
    got = [(node_attrs(n)["comm_type"], node_attrs(n)["comm_size"])
           for n in nodes_of(tmp_path / "dev.3.et")]
    # all-gather: input shard; reduce-scatter: full input; all-to-all, all-reduce: full buffer.
    assert got == [(2, 16), (7, 64), (6, 16), (0, 16)]


def test_split_groups_give_per_device_pg_names(tmp_path):
    ops = [op("all_reduce", 1, (0,), t(4), t(4), replica_groups=((0, 1), (2, 3))),
           op("all_reduce", 2, (1,), t(4), t(4), replica_groups=((0, 1, 2, 3),)), ret(2)]
    graph = individual_split(ops)
    traces = write_traces(tmp_path, graph, estimates_for(graph), DeviceLayout(4, 1))
    assert traces.files == 2
    assert json.loads((tmp_path / "comm_group.json").read_text()) == {
        "1": [0, 1], "2": [2, 3], "3": [0, 1, 2, 3]}
    pg = {d: [node_attrs(n)["pg_name"] for n in nodes_of(tmp_path / f"dev.{d}.et")]
          for d in range(4)}
    assert pg == {0: ["1", "3"], 1: ["1", "3"], 2: ["2", "3"], 3: ["2", "3"]}


def test_single_device_group_means_no_communication(tmp_path):
    ops = [op("exponential", 1, (0,), t(4), t(4)),
           op("all_reduce", 2, (1,), t(4), t(4), replica_groups=((0,),)),
           op("add", 3, (2,), t(4), t(4)), ret(3)]
    graph = individual_split(ops)
    write_traces(tmp_path, graph, estimates_for(graph), DeviceLayout(4, 1))
    for device in range(4):
        nodes = nodes_of(tmp_path / f"dev.{device}.et")
        assert [n.type for n in nodes] == [NodeType.COMP_NODE, NodeType.COMP_NODE]
        assert list(nodes[1].data_deps) == [0]          # the reader waits on what the AR waited on
    assert json.loads((tmp_path / "comm_group.json").read_text()) == {}


def test_collective_permute_becomes_send_recv_pairs(tmp_path):
    ops = [op("exponential", 1, (0,), t(4), t(4)),
           op("collective_permute", 2, (1,), t(4), t(4), source_target_pairs=((0, 1), (1, 2))),
           op("add", 3, (2,), t(4), t(4)), ret(3)]
    graph = individual_split(ops)
    traces = write_traces(tmp_path, graph, estimates_for(graph), DeviceLayout(4, 1))
    assert traces.files == 4

    def comm(device):
        return [(NodeType(n.type).name, node_attrs(n)) for n in nodes_of(tmp_path / f"dev.{device}.et")
                if n.type != NodeType.COMP_NODE]

    common = {"is_cpu_op": False, "comm_tag": 1, "comm_size": 16}
    assert comm(0) == [("COMM_SEND_NODE", {**common, "comm_src": 0, "comm_dst": 1})]
    assert comm(1) == [("COMM_SEND_NODE", {**common, "comm_src": 1, "comm_dst": 2}),
                       ("COMM_RECV_NODE", {**common, "comm_src": 0, "comm_dst": 1})]
    assert comm(2) == [("COMM_RECV_NODE", {**common, "comm_src": 1, "comm_dst": 2})]
    assert comm(3) == []
    add = nodes_of(tmp_path / "dev.1.et")[-1]
    assert add.name == "add" and list(add.data_deps) == [1, 2]


def test_durations_carry_remainders_and_sum_exactly():
    times = [0.4e-6] * 10 + [2.5e-6, 1e-3]
    micros = durations_micros(times)
    assert micros[:10] == [0, 1, 0, 1, 0, 0, 1, 0, 1, 0]
    assert sum(micros) == round(sum(times) * 1e6) == 1006
    assert sum(durations_micros([0.3e-6] * 1000)) == 300          # rounding each gives 0


def test_device_layout_follows_stablehlo_process_groups():
    def coll(name, **attrs):
        return op(name, 1, (0,), t(4), t(4), **attrs)

    layout = DeviceLayout(num_replicas=2, num_partitions=2)
    # no channel: groups index replicas, once per partition
    assert layout.groups(coll("all_reduce", replica_groups=((0, 1),))) == ((0, 2), (1, 3))
    # channel, no global ids: each replica group spans all partitions
    assert layout.groups(coll("all_reduce", replica_groups=((0,), (1,)), channel_handle=1)) == (
        (0, 1), (2, 3))
    # channel + use_global_device_ids: device ids as written
    assert layout.groups(coll("all_gather", replica_groups=((0, 3), (1, 2)), channel_handle=1,
                              use_global_device_ids=True)) == ((0, 3), (1, 2))
    # all_to_all with channel: groups index partitions, once per replica
    assert layout.groups(coll("all_to_all", replica_groups=((0, 1),), channel_handle=2)) == (
        (0, 1), (2, 3))
    # empty groups: every replica
    assert layout.groups(coll("all_reduce")) == ((0, 2), (1, 3))
    assert layout.pairs(coll("collective_permute", source_target_pairs=((0, 1),),
                             channel_handle=3)) == ((0, 1), (2, 3))
    with pytest.raises(HespasError, match="replica 5"):
        layout.groups(coll("all_reduce", replica_groups=((0, 5),)))


def test_num_npus_overrides_only_single_device_modules():
    one = Module(path="m.mlir", entry="main", functions={})
    widened = DeviceLayout.for_module(one, 4)
    assert widened == DeviceLayout(4, 1, "m.mlir", widened=True)
    # A pmap step exported on one device: its "[[0]]" meant every replica.
    assert widened.groups(op("all_reduce", 1, (0,), t(4), t(4), replica_groups=((0,),))) == (
        (0, 1, 2, 3),)
    four = Module(path="m.mlir", entry="main", functions={}, num_replicas=4)
    assert DeviceLayout.for_module(four, None).num_devices == 4
    assert DeviceLayout.for_module(four, 4).num_devices == 4
    with pytest.raises(HespasError, match="does not match"):
        DeviceLayout.for_module(four, 8)


@pytest.mark.fresh_process  # hespas_py forks only a single-threaded process (conftest.py)
@pytest.mark.parametrize("fail", [False, True])
def test_forked_encoders_write_the_serial_bytes(tmp_path, monkeypatch, fail):
    """Long traces are encoded in shares by forked children (here: one node per share); a failed
    child's share is encoded by the parent."""
    from hespas_py.chakra import encoder

    ops, value = [], 0
    for _ in range(12):  # compute, all-reduce, permute (send+recv on device 1), single-device AR
        ops += [op("exponential", value + 1, (value,), t(4), t(4)),
                op("all_reduce", value + 2, (value + 1,), t(4), t(4), replica_groups=((0, 1, 2),)),
                op("collective_permute", value + 3, (value + 2,), t(4), t(4),
                   source_target_pairs=((0, 1), (1, 2))),
                op("all_reduce", value + 4, (value + 3, value), t(4), t(4), replica_groups=((3,),))]
        value += 4
    graph = individual_split([*ops, ret(value)])
    estimates = estimates_for(graph, [0.3e-6 * (i + 1) for i in range(12)])
    monkeypatch.setenv("HESPAS_JOBS", "1")
    (tmp_path / "serial").mkdir()
    write_traces(tmp_path / "serial", graph, estimates, DeviceLayout(4, 1))
    monkeypatch.setenv("HESPAS_JOBS", "3")
    monkeypatch.setattr(encoder, "_NODES_PER_JOB", 1)
    children = []
    real = encoder.Forked
    monkeypatch.setattr(encoder, "Forked", lambda work: children.append(work) or real(
        (lambda: 1 / 0) if fail else work))
    (tmp_path / "forked").mkdir()
    write_traces(tmp_path / "forked", graph, estimates, DeviceLayout(4, 1))
    # Two children per placement: devices 0 (send) and 2 (receive) share one.
    assert len(children) == 2 * 3
    for device in range(4):
        name = f"dev.{device}.et"
        forked, serial = tmp_path / "forked" / name, tmp_path / "serial" / name
        assert forked.read_bytes() == serial.read_bytes()
    assert len(nodes_of(tmp_path / "forked" / "dev.1.et")) == 12 * 4


def test_reused_compute_node_encodes_as_a_fresh_one():
    """`CompNodes.fill` refills one message: every node (zeros, shrinking deps, the default
    name) encodes as `comp` builds it."""
    from hespas_py.chakra.nodes import CompNodes, comp

    nodes = CompNodes()
    cases = [(7, 12, [1, 2, 3], 1000, 64, "convolution+add"), (0, 0, [], 0, 0, ""),
             (2**40, 2**33, [5], 2**62, 2**64 - 1, "add"), (9, 3, [], 17, 0, "exponential")]
    for node_id, micros, deps, flops, nbytes, name in cases:
        fresh = comp(node_id, micros, deps, num_ops=flops, tensor_size=nbytes, name=name)
        filled = nodes.fill(node_id, micros, deps, flops, nbytes, name)
        assert filled.SerializeToString() == fresh.SerializeToString()


@pytest.mark.parametrize("size", [0, 1, 126, 127, 128, 300, 16383, 16384, 2**21 + 5])
def test_node_length_prefix_is_protobufs(size):
    """`write_nodes` writes the bytes of protobuf's ``serialize_length_prefixed`` (a node of
    ``size`` name bytes is around that long: the prefix crosses each varint length)."""
    import io

    from google.protobuf import proto

    from hespas_py.chakra.io import write_nodes
    from hespas_py.chakra.nodes import comp

    nodes = [comp(3, 5, [1], name="x" * size), comp(4, 0, [], name="y" * (size // 2 + 1))]
    ours, theirs = io.BytesIO(), io.BytesIO()
    write_nodes(ours, nodes)
    for node in nodes:
        proto.serialize_length_prefixed(node, theirs)
    assert ours.getvalue() == theirs.getvalue()


@pytest.mark.parametrize("field, value, what", [
    ("time_s", float("nan"), "time"), ("time_s", 1e13, "duration in microseconds"),
    ("flops", float("inf"), "FLOPs"), ("bytes", -1.0, "bytes"), ("bytes", 2.0**63, "bytes")])
def test_a_value_no_trace_can_hold_is_refused_naming_its_block(tmp_path, field, value, what):
    """Every compute block's time, FLOPs, bytes and duration must be a trace value; the first
    block (in order) with one that is not is named."""
    graph = individual_split(TINY)
    estimates = estimates_for(graph)
    last = max(i for i, e in enumerate(estimates) if e is not None)
    estimates[last] = Estimate(**{"time_s": 1e-6, "flops": 1.0, "bytes": 1.0, field: value})
    with pytest.raises(HespasError, match=rf"block {last} \(add\): its {what} .* is not a trace value"):
        write_traces(tmp_path, graph, estimates, DeviceLayout(2, 1))
