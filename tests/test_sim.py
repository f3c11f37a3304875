"""The built-in simulator against ASTRA-sim figures, on traces written here.

Every expected number is ASTRA-sim 518bd51's output (AstraSim_Analytical_Congestion_Unaware) on the
same traces and configs, copied from ../shared/refsim as facts; ASTRA-sim itself is not needed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hespas_py.chakra.nodes import collective, comp, point_to_point
from hespas_py.chakra.schema import CollectiveCommType as Coll
from hespas_py.chakra.schema import NodeType
from hespas_py.errors import HespasError
from hespas_py.sim import NetworkConfig, load_system_dir, simulate
from hespas_py.sim.inputs import system_from_dict
from hespas_py.sim.synthetic import write_identical_trace_set, write_trace_set

AR, AG, RS, A2A = Coll.ALL_REDUCE, Coll.ALL_GATHER, Coll.REDUCE_SCATTER, Coll.ALL_TO_ALL
KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
RING4 = NetworkConfig(("Ring",), (4,), (50.0,), (500.0,))
RING8 = NetworkConfig(("Ring",), (8,), (50.0,), (500.0,))
SWITCH8 = NetworkConfig(("Switch",), (8,), (100.0,), (1000.0,))
FC8 = NetworkConfig(("FullyConnected",), (8,), (25.0,), (200.0,))
RING4_SWITCH2 = NetworkConfig(("Ring", "Switch"), (4, 2), (100.0, 25.0), (200.0, 2000.0))


def system(algorithm: str = "ring", dims: int = 1, **overrides):
    """The refsim cases' system.json: LIFO, endpoint-delay 10, 4 splits, localBWAware."""
    doc = {"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
           "preferred-dataset-splits": 4, "collective-optimization": "localBWAware",
           "local-mem-bw": 1600, "peak-perf": 900}
    for key in ("all-reduce", "all-gather", "reduce-scatter", "all-to-all"):
        doc[f"{key}-implementation"] = [algorithm] * dims
    doc.update({k.replace("_", "-"): v for k, v in overrides.items()})
    return system_from_dict(doc, Path("system.json"))


def chain(*collectives):
    """Collectives of (type, bytes), each depending on the previous one."""
    return [collective(i, kind, size, [i - 1] if i else [])
            for i, (kind, size) in enumerate(collectives)]


def run(tmp_path, per_npu, network, sys_config, **kwargs):
    write_trace_set(tmp_path / "trace", per_npu)
    return simulate(tmp_path / "trace", sys_config, network, **kwargs)


def run_same(tmp_path, nodes, network, sys_config, **kwargs):
    write_identical_trace_set(tmp_path / "trace", nodes, network.num_npus)
    return simulate(tmp_path / "trace", sys_config, network, **kwargs)


def timeline(device):
    return sorted(map(list, device.timeline))


@pytest.mark.parametrize("network, sys_config, nodes, expected", [
    # sweep_all_reduce_ring4: chained all-reduces, 1 KiB to 1 GiB.
    (RING4, system(), chain((AR, KiB), (AR, 64 * KiB), (AR, MiB), (AR, 64 * MiB), (AR, GiB)),
     [[0, 0, 12304], [1, 12304, 26480], [2, 26480, 69480], [3, 69480, 2051116],
      [4, 2051116, 33573344]]),
    # md2_ring4_switch2: 2-D network, localBWAware all-reduce, then AG/RS/A2A.
    (RING4_SWITCH2, system(dims=2), chain((AR, 4 * MiB), (AG, MiB), (RS, MiB), (A2A, MiB)),
     [[0, 0, 89541], [1, 89541, 164470], [2, 164470, 188500], [3, 188500, 229038]]),
    # topo_fc_8: direct algorithm on a fully connected network.
    (FC8, system("direct"), chain((AR, MiB), (AG, MiB), (RS, MiB), (A2A, MiB)),
     [[0, 0, 11720], [1, 11720, 51660], [2, 51660, 57660], [3, 57660, 63420]]),
    # topo_switch_8: ring algorithm on a switch.
    (SWITCH8, system(), chain((AR, MiB), (AG, MiB), (RS, MiB), (A2A, MiB)),
     [[0, 0, 131360], [1, 131360, 256028], [2, 256028, 322568], [3, 322568, 581888]]),
    # sys_ar_direct_ring8: direct all-reduce, ring all-gather.
    (RING8, system(all_reduce_implementation=["direct"]), chain((AR, MiB), (AR, 64 * MiB), (AG, MiB)),
     [[0, 0, 21240], [1, 21240, 361576], [2, 361576, 512592]]),
])
@pytest.mark.parametrize("replicate", [True, False])
def test_collective_timelines(tmp_path, network, sys_config, nodes, expected, replicate):
    result = run_same(tmp_path, nodes, network, sys_config, replicate=replicate)
    assert result.replicated == replicate
    for device in result.devices:
        assert timeline(device) == expected
        assert device.wall_time_ns == device.comm_time_ns == device.exposed_comm_ns == expected[-1][2]
        assert device.gpu_time_ns == device.overlap_ns == 0


def test_single_all_reduce_ring4(tmp_path):
    # coll_allreduce_1MiB_ring4
    result = run_same(tmp_path, [collective(0, AR, MiB)], RING4, system())
    assert [d.wall_time_ns for d in result.devices] == [43000] * 4


def test_compute_differs_per_npu(tmp_path):
    # comp_single: one COMP of 5+npu us per NPU.
    result = run(tmp_path, [[comp(0, 5 + npu)] for npu in range(4)], RING4, system())
    assert not result.replicated
    assert [d.wall_time_ns for d in result.devices] == [5000, 6000, 7000, 8000]
    assert [d.gpu_time_ns for d in result.devices] == [5000, 6000, 7000, 8000]
    assert all(d.exposed_comm_ns == 0 for d in result.devices)


def test_issue_order_is_ascending_id_one_compute_at_a_time(tmp_path):
    # comp_diamond_data: ids not topologically ordered, file order reversed.
    nodes = [comp(7, 0), comp(1, 1, [3, 5]), comp(5, 1234, [9]), comp(3, 7, [9]), comp(9, 10)]
    device = run_same(tmp_path, nodes, RING4, system()).devices[0]
    assert device.timeline == ((7, 0, 1), (9, 1, 10001), (3, 10001, 17001), (5, 17001, 1251001),
                               (1, 1251001, 1252001))


def test_control_dependencies(tmp_path):
    # comp_branches_ctrl: branches joined through ctrl_deps, one mixed data+ctrl dependency.
    nodes = [comp(0, 7), comp(1, 1234, ctrl_deps=[0]), comp(2, 1, ctrl_deps=[0]),
             comp(3, 0, ctrl_deps=[1, 2]), comp(4, 7), comp(5, 1, [2], ctrl_deps=[4]),
             comp(6, 1234, ctrl_deps=[3, 5])]
    device = run_same(tmp_path, nodes, RING4, system()).devices[0]
    assert timeline(device) == [[0, 0, 7000], [1, 7000, 1241000], [2, 1241000, 1242000],
                                [3, 1242000, 1242001], [4, 1242001, 1249001],
                                [5, 1249001, 1250001], [6, 1250001, 2484001]]
    assert device.gpu_time_ns == device.wall_time_ns == 2484001


def test_overlap_of_compute_and_communication(tmp_path):
    # overlap_comm_after_comp: COMP 5 us -> AR 1 MiB -> COMP 3 us, plus an independent 50 us COMP.
    nodes = [comp(0, 5), collective(1, AR, MiB, [0]), comp(2, 3, [1]), comp(3, 50)]
    for device in run_same(tmp_path, nodes, RING4, system()).devices:
        assert timeline(device) == [[0, 0, 5000], [1, 5000, 48000], [2, 55000, 58000],
                                    [3, 5000, 55000]]
        assert (device.wall_time_ns, device.gpu_time_ns, device.comm_time_ns,
                device.exposed_comm_ns, device.overlap_ns) == (58000, 58000, 43000, 0, 43000)


def test_pipelined_all_reduces_queue_up(tmp_path):
    # overlap_pipeline_lifo: six COMP -> AR pairs, a final COMP after everything; Switch 8.
    durations = [30, 20, 50, 10, 40, 25]
    sizes = [8 * MiB, 256 * KiB, 32 * MiB, 64 * KiB, 4 * MiB, MiB]
    nodes = []
    for k, (us, size) in enumerate(zip(durations, sizes, strict=True)):
        nodes += [comp(2 * k, us, [2 * k - 2] if k else []), collective(2 * k + 1, AR, size, [2 * k])]
    nodes.append(comp(12, 5, [1, 3, 5, 7, 9, 10, 11]))
    for device in run_same(tmp_path, nodes, SWITCH8, system()).devices:
        assert (device.wall_time_ns, device.gpu_time_ns, device.comm_time_ns,
                device.exposed_comm_ns, device.overlap_ns) == (1562556, 180000, 1527556,
                                                               1382556, 145000)


def test_roofline_compute(tmp_path):
    # roofline_comp: 900 TFLOPS, 1600 GB/s; durations ignored, fractional ns floored.
    ops = [(10**9, 10**6), (10**6, 10**6), (3 * 10**12, 5 * 10**9), (123456789, 987654),
           (10**7, 3 * 10**6)]
    last = [(10**10, 10**8), (2 * 10**10, 2 * 10**8)]
    per_npu = [[comp(i, 5, [i - 1] if i else [], num_ops=n, tensor_size=b)
                for i, (n, b) in enumerate(ops + [last[npu]])] for npu in range(2)]
    ring2 = NetworkConfig(("Ring",), (2,), (50.0,), (500.0,))
    result = run(tmp_path, per_npu, ring2, system(roofline_enabled=1))
    assert [d.wall_time_ns for d in result.devices] == [3400060, 3462560]
    assert timeline(result.devices[0]) == [[0, 0, 1111], [1, 1111, 1736], [2, 1736, 3335069],
                                           [3, 3335069, 3335686], [4, 3335686, 3337560],
                                           [5, 3337560, 3400060]]


@pytest.mark.parametrize("groups, pg, nodes, expected", [
    # group_split_01_23: AR in own pair, AG on all, RS in own pair.
    ({1: [0, 1], 2: [2, 3]}, ["1", "1", "2", "2"], [(AR, MiB, True), (AG, MiB, False),
                                                    (RS, 256 * KiB, True)],
     [[0, 0, 24620], [1, 24620, 89364], [2, 89364, 94124]]),
    # group_split_02_13: members two hops apart on the ring.
    ({1: [0, 2], 2: [1, 3]}, ["1", "2", "1", "2"], [(AR, MiB, True), (A2A, MiB, True)],
     [[0, 0, 28620], [1, 28620, 42464]]),
])
def test_communicator_groups(tmp_path, groups, pg, nodes, expected):
    per_npu = [[collective(i, kind, size, [i - 1] if i else [], pg_name=pg[npu] if own else "")
                for i, (kind, size, own) in enumerate(nodes)] for npu in range(4)]
    result = run(tmp_path, per_npu, RING4, system(), comm_groups=groups)
    for device in result.devices:
        assert timeline(device) == expected


def test_send_and_receive(tmp_path):
    # NPU 0 sends 1 MiB to NPU 2, two hops on Ring 4: 2 * 500 + 2**20 / (50 * 2**30 / 1e9) ns,
    # floored: 1000 + 19531.25 -> 20531 (ASTRA-sim's GB is 2**30 bytes).
    per_npu = [[point_to_point(0, NodeType.COMM_SEND_NODE, 0, 2, MiB, 7)], [comp(0, 1)],
               [point_to_point(0, NodeType.COMM_RECV_NODE, 0, 2, MiB, 7)], [comp(0, 1)]]
    result = run(tmp_path, per_npu, RING4, system())
    assert result.devices[0].wall_time_ns == result.devices[2].wall_time_ns == 20531
    assert result.devices[2].comm_time_ns == 20531


def test_replication_matches_full_simulation(tmp_path):
    rng = random.Random(7)
    nodes = []
    for i in range(120):
        deps = rng.sample(range(i), k=min(i, rng.randint(0, 2)))
        if rng.random() < 0.3:
            nodes.append(collective(i, rng.choice([AR, AG, RS, A2A]), rng.choice([KiB, MiB, 3 * MiB]),
                                    deps))
        else:
            nodes.append(comp(i, rng.choice([0, 1, 7, 40]), deps))
    for network, sys_config in ((RING4_SWITCH2, system(dims=2)), (FC8, system("direct"))):
        fast = run_same(tmp_path, nodes, network, sys_config)
        full = run_same(tmp_path, nodes, network, sys_config, replicate=False)
        assert fast.replicated and not full.replicated
        assert [d.as_json() for d in fast.devices] == [d.as_json() for d in full.devices]
        assert fast.devices[5].timeline == full.devices[5].timeline


@pytest.mark.parametrize("algorithm, kinds", [
    ("halvingDoubling", [AR, AG, RS]), ("doubleBinaryTree", [AR]), ("oneRing", [AR, A2A]),
    ("oneDirect", [AR, AG]), ("direct4", [AR, RS]),
])
def test_other_algorithms_on_three_dimensions(tmp_path, algorithm, kinds):
    network = NetworkConfig(("Ring", "FullyConnected", "Switch"), (2, 4, 2), (200.0, 100.0, 25.0),
                            (100.0, 500.0, 2000.0))
    nodes = chain(*[(kind, MiB) for kind in kinds])
    result = run_same(tmp_path, nodes, network, system(algorithm, dims=3,
                                                       preferred_dataset_splits=1))
    assert len(result.devices) == 16
    assert all(d.wall_time_ns > 10_000 for d in result.devices)


def test_involved_dim_restricts_a_collective(tmp_path):
    both = run_same(tmp_path, [collective(0, AR, MiB)], RING4_SWITCH2, system(dims=2))
    inner = run_same(tmp_path, [collective(0, AR, MiB, involved_dim=[True, False])],
                     RING4_SWITCH2, system(dims=2))
    outer = run_same(tmp_path, [collective(0, AR, MiB, involved_dim=[False, True])],
                     RING4_SWITCH2, system(dims=2))
    # Only the fast inner ring; both (reduce-scatter shrinks what crosses the slow switch); the
    # whole buffer on the slow switch.
    walls = [r.devices[0].wall_time_ns for r in (inner, both, outer)]
    assert walls == sorted(walls) and len(set(walls)) == 3


def test_more_active_chunks_run_in_parallel(tmp_path):
    nodes = [collective(0, AR, 8 * MiB)]
    one = run_same(tmp_path, nodes, RING4_SWITCH2, system(dims=2))
    four = run_same(tmp_path, nodes, RING4_SWITCH2, system(dims=2, active_chunks_per_dimension=4))
    assert four.devices[0].wall_time_ns < one.devices[0].wall_time_ns


@pytest.mark.parametrize("nodes, network, sys_config, groups, message", [
    # err_a2a_halvingDoubling_ring8
    ([collective(0, A2A, MiB)], RING8, system("halvingDoubling"), None, "HalvingDoubling"),
    # sys_endpoint_delay0_ring8: an event at tick 0 trips ASTRA-sim's event-queue assertion.
    (chain((AR, MiB)), RING8, system(endpoint_delay=0), None, "tick 0"),
    # err_roofline_zero_ns_op: 7 FLOPs over 3 bytes floors to 0 ns.
    ([comp(0, 5, num_ops=7, tensor_size=3)], RING4, system(roofline_enabled=1), None, "tick 0"),
    # err_roofline_tensor_size0_stall: the child of a skipped node is never issued.
    ([comp(0, 5, num_ops=10**9, tensor_size=10**6), comp(1, 5, [0], num_ops=5, tensor_size=0),
      comp(2, 5, [1], num_ops=10**9, tensor_size=10**6)], RING4, system(roofline_enabled=1), None,
     "never finishes"),
    ([collective(0, AR, MiB, pg_name="3")], RING4, system(), {1: [0, 1, 2, 3]}, "group 3"),
    ([collective(0, Coll.BARRIER, 8)], RING4, system(), None, "BARRIER"),
    ([comp(0, 1, [5])], RING4, system(), None, "not in the trace"),
])
def test_runs_astra_sim_rejects(tmp_path, nodes, network, sys_config, groups, message):
    with pytest.raises(HespasError, match=message) as info:
        run_same(tmp_path, nodes, network, sys_config, comm_groups=groups)
    assert "\n" not in str(info.value) and str(tmp_path) in str(info.value)


def test_missing_trace_file(tmp_path):
    write_trace_set(tmp_path / "trace", [[comp(0, 1)]] * 3)
    with pytest.raises(HespasError, match=r"3 traces for a network of 4 NPUs \(no trace\.3\.et\); "
                       r"ASTRA-sim needs one per NPU, trace\.0\.et to trace\.3\.et"):
        simulate(tmp_path / "trace", system(), RING4)
    with pytest.raises(HespasError, match=r"other\.0\.et: no such file"):
        simulate(tmp_path / "other", system(), RING4)


def test_load_system_dir_reads_the_astra_sim_folder(tmp_path):
    folder = tmp_path / "box" / "astra-sim"
    folder.mkdir(parents=True)
    (folder / "network.yml").write_text(RING4.to_yaml())
    (folder / "system.json").write_text(json.dumps({
        "preferred-dataset-splits": 2, "all-reduce-implementation": ["direct"],
        **{f"{c}-implementation": ["ring"] for c in ("all-gather", "reduce-scatter", "all-to-all")}}))
    setup = load_system_dir(tmp_path / "box")
    assert setup.network == RING4
    assert setup.system.preferred_dataset_splits == 2
    assert setup.system.implementations["ALL_REDUCE"][0].name == "direct"
    assert setup.remote_memory.memory_type == "NO_MEMORY_EXPANSION"


@pytest.mark.parametrize("loader, name, text, message", [
    ("load_network", "network.yml",
     "topology: [Ring]\nnpus_count: [4, 2]\nbandwidth: [1]\nlatency: [1]\n", "length of npus_count"),
    ("load_network", "network.yml",
     "topology: [Torus]\nnpus_count: [4]\nbandwidth: [1]\nlatency: [1]\n", "Torus"),
    ("load_network", "network.yml",
     "topology: [Ring]\nnpus_count: [1]\nbandwidth: [1]\nlatency: [1]\n", r"npus_count\[0\] must be an integer >= 2"),
    ("load_network", "network.yml", "topology: [Ring\n", "not YAML"),
    ("load_system", "system.json", '{"all-reduce-implementation": ["butterfly"]}', "butterfly"),
    ("load_system", "system.json", '{"scheduling-policy": "RANDOM"}', "scheduling-policy"),
    ("load_system", "system.json", '{"model-shared-bus": 1}', "model-shared-bus"),
    ("load_system", "system.json", '{"endpoint-delay": "ten"}', "endpoint-delay"),
])
def test_bad_config_files(tmp_path, loader, name, text, message):
    import hespas_py.sim as sim
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(HespasError, match=message):
        getattr(sim, loader)(path)
