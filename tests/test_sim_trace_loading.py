"""Loading a trace set: work shared between files, shapes that ignore only pg_name, bad files."""

from __future__ import annotations

import io

import pytest

from hespas_py.chakra.io import node_encodings, write_trace
from hespas_py.chakra.nodes import collective, comp
from hespas_py.chakra.schema import CollectiveCommType as Coll
from hespas_py.chakra.schema import Node, NodeType, node_view_class
from hespas_py.errors import HespasError
from hespas_py.sim.node_view import decode_node
from hespas_py.sim.synthetic import write_trace_set
from hespas_py.sim.trace import index_trace, load_traces, trace_paths


def step(group: str, compute_us: int = 5) -> list:
    return [comp(0, compute_us), collective(1, Coll.ALL_REDUCE, 1 << 20, [0], pg_name=group),
            comp(2, 3, [1]), collective(3, Coll.ALL_GATHER, 1 << 16, [2])]


def test_traces_differing_in_groups_share_their_index_and_shape(tmp_path):
    write_trace_set(tmp_path / "t", [step("1"), step("2"), step("12"), step("1", compute_us=6)])
    traces = load_traces(trace_paths(tmp_path / "t", 4))
    assert len({t.digest for t in traces}) == 4
    assert traces[0].shape == traces[1].shape == traces[2].shape != traces[3].shape
    assert traces[1].index is traces[0].index and traces[2].children is traces[0].children
    assert [n.pg_name for n in traces[2].nodes] == ["", "12", "", ""]
    assert traces[2].path.name == "t.2.et"
    # The shape does not depend on how the trace was built.
    rebuilt = index_trace(traces[2].path, list(traces[2].nodes), traces[2].digest)
    assert rebuilt == traces[2]


@pytest.mark.parametrize("cut, message", [
    (lambda data: b"", "empty Chakra trace"),
    (lambda data: data[:-3], "not a Chakra trace"),
    (lambda data: data[:1], "not a Chakra trace"),
])
def test_damaged_files_are_named(tmp_path, cut, message):
    path = write_trace_set(tmp_path / "t", [step("1")])[0]
    path.write_bytes(cut(path.read_bytes()))
    with pytest.raises(HespasError, match=f"t.0.et: {message}"):
        load_traces([path])


def test_the_reader_reads_what_the_writer_writes_through_one_schema():
    """The simulator's view of a node comes from the writer's Node declaration (field numbers
    included): every field it reads round-trips; fields it does not read are skipped."""
    node = Node(id=7, name="fusion.3", type=NodeType.COMM_COLL_NODE, ctrl_deps=[5, 2],
                data_deps=[2, 4], start_time_micros=9, duration_micros=11)
    node.inputs.values = "skipped"
    node.attr.add(name="comm_type", int64_val=Coll.ALL_GATHER)
    node.attr.add(name="comm_size", uint64_val=1 << 40)
    node.attr.add(name="pg_name", string_val="12")
    node.attr.add(name="involved_dim").bool_list.values.extend([True, False])
    node.attr.add(name="is_cpu_op", bool_val=False)
    node.attr.add(name="other", double_val=0.5)
    stream = io.BytesIO()
    write_trace(stream, [node])
    (encoded,) = node_encodings("t.0.et", stream.getvalue())
    assert decode_node("t.0.et", encoded, {}) == (
        7, "fusion.3", NodeType.COMM_COLL_NODE, (2, 4, 5), 11,
        {"comm_type": Coll.ALL_GATHER, "comm_size": 1 << 40}, "12", (True, False))
    with pytest.raises(ValueError, match="read raw"):
        node_view_class(("inputs",))
