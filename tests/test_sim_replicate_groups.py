"""Replicated runs of traces that differ only in the communicator groups their collectives name:
taken where the groups partition the machine alike, and equal to the full simulation."""

from __future__ import annotations

import random

import pytest

from hespas_py.chakra.files import COMM_GROUP_FILE, TRACE_PREFIX
from hespas_py.chakra.nodes import collective, comp
from hespas_py.chakra.schema import CollectiveCommType as Coll
from hespas_py.pipeline import generate
from hespas_py.run import build_config
from hespas_py.sim import NetworkConfig, load_system_dir, simulate
from hespas_py.sim.collective_times import CollectiveTimes
from hespas_py.sim.config import PRESETS_DIR
from hespas_py.sim.symmetry import group_layouts
from hespas_py.sim.synthetic import write_trace_set
from hespas_py.sim.trace import load_traces, trace_paths
from test_sim import RING4_SWITCH2, RING8, system

AR, AG, RS, A2A = Coll.ALL_REDUCE, Coll.ALL_GATHER, Coll.REDUCE_SCATTER, Coll.ALL_TO_ALL
KiB, MiB = 1 << 10, 1 << 20
SWITCH4_RING4 = NetworkConfig(("Switch", "Ring"), (4, 4), (200.0, 50.0), (500.0, 1500.0))


def dimension_groups(network: NetworkConfig) -> tuple[dict[int, tuple[int, ...]], list[dict]]:
    """Groups along each dimension of a 2-D network (ids from 1), and per dimension each NPU's
    group id in it."""
    inner, outer = network.npus_count
    groups, owners = {}, [{}, {}]
    for base in range(outer):  # along dimension 0
        gid = len(groups) + 1
        groups[gid] = tuple(base * inner + i for i in range(inner))
        owners[0].update(dict.fromkeys(groups[gid], gid))
    for offset in range(inner):  # along dimension 1
        gid = len(groups) + 1
        groups[gid] = tuple(offset + k * inner for k in range(outer))
        owners[1].update(dict.fromkeys(groups[gid], gid))
    return groups, owners


def random_step(seed: int, layouts: list[dict], num_npus: int, count: int = 90) -> list[list]:
    """Per NPU one random DAG of compute and collectives; each collective is on the whole
    machine or on the NPU's group along one dimension (``layouts``: NPU -> group id)."""
    rng = random.Random(seed)
    plan = []
    for i in range(count):
        deps = rng.sample(range(i), k=min(i, rng.randint(0, 2)))
        if rng.random() < 0.35:
            plan.append((i, deps, rng.choice([AR, AG, RS, A2A]), rng.choice([KiB, MiB, 3 * MiB]),
                         rng.choice([None, *layouts])))
        else:
            plan.append((i, deps, rng.choice([0, 1, 7, 40])))
    traces = []
    for npu in range(num_npus):
        nodes = []
        for i, deps, *rest in plan:
            if len(rest) == 1:
                nodes.append(comp(i, rest[0], deps))
            else:
                kind, size, layout = rest
                nodes.append(collective(i, kind, size, deps,
                                        pg_name="" if layout is None else str(layout[npu])))
        traces.append(nodes)
    return traces


def both_ways(tmp_path, per_npu, network, sys_config, groups):
    write_trace_set(tmp_path / "trace", per_npu)
    return [simulate(tmp_path / "trace", sys_config, network, comm_groups=groups,
                     replicate=replicate) for replicate in (True, False)]


@pytest.mark.parametrize("network, sys_config", [
    (RING4_SWITCH2, system(dims=2)), (SWITCH4_RING4, system(dims=2)),
    (SWITCH4_RING4, system("direct", dims=2, collective_optimization="baseline")),
])
def test_groups_along_dimensions_replicate_exactly(tmp_path, network, sys_config):
    groups, owners = dimension_groups(network)
    fast, full = both_ways(tmp_path, random_step(3, owners, network.num_npus), network,
                           sys_config, groups)
    assert fast.replicated and not full.replicated
    assert fast.devices == full.devices  # figures, node timelines and each NPU's own trace
    assert fast.devices[3].trace.path.name == "trace.3.et"


def test_groups_placed_unalike_fall_back_to_the_full_simulation(tmp_path):
    # Pairs on an 8-ring, 4, 1, 2 and 1 hops apart: their all-reduces finish at different times.
    groups = {1: (0, 4), 2: (1, 2), 3: (3, 5), 4: (6, 7)}
    owner = {npu: gid for gid, members in groups.items() for npu in members}
    per_npu = [[comp(0, 5), collective(1, AR, MiB, [0], pg_name=str(owner[npu])), comp(2, 3, [1])]
               for npu in range(8)]
    fast, full = both_ways(tmp_path, per_npu, RING8, system(dims=1), groups)
    assert not fast.replicated
    assert fast.devices == full.devices
    assert len({d.wall_time_ns for d in full.devices}) > 1


def layouts_of(tmp_path, per_npu, network, groups):
    write_trace_set(tmp_path / "trace", per_npu)
    traces = load_traces(trace_paths(tmp_path / "trace", network.num_npus))
    return group_layouts(traces, system(dims=2), network, groups)


@pytest.mark.parametrize("groups, names, why", [
    ({1: (0, 1, 2), 2: (3, 4, 5, 6, 7)}, [1, 1, 1, 2, 2, 2, 2, 2], "sizes differ"),
    ({1: (0, 1, 2, 3), 2: (3, 4, 5, 6)}, [1, 1, 1, 1, 2, 2, 2, 2], "groups overlap"),
    ({1: (0, 1, 2, 3), 2: (4, 5, 6, 7)}, [1, 1, 1, 2, 2, 2, 2, 2], "NPU 3 outside its group"),
    ({1: (0, 1, 2, 3), 2: (4, 5, 6, 7)}, [1, 1, 1, 1, 2, 2, 2, ""], "whole machine and groups"),
    ({1: (0, 1, 2, 3), 2: (4, 5, 6, 7)}, [1, 1, 1, 1, 2, 2, 2, 3], "an unknown group"),
    ({1: (0, 1, 2, 3), 2: (4, 5, 6, 7)}, [1, 1, 1, 1, 2, 2, 2, "x"], "a pg_name naming none"),
])
def test_layouts_that_do_not_partition_the_machine_alike(tmp_path, groups, names, why):
    per_npu = [[comp(0, 5), collective(1, AR, MiB, [0], pg_name=str(name))] for name in names]
    assert layouts_of(tmp_path, per_npu, RING4_SWITCH2, groups) is None, why


def test_traces_differing_beyond_their_groups_are_not_replicated(tmp_path):
    groups = {1: (0, 1, 2, 3), 2: (4, 5, 6, 7)}
    per_npu = [[comp(0, 5 if npu else 6), collective(1, AR, MiB, [0], pg_name=str(1 + npu // 4))]
               for npu in range(8)]
    assert layouts_of(tmp_path, per_npu, RING4_SWITCH2, groups) is None
    per_npu[0][0] = comp(0, 5)
    assert layouts_of(tmp_path, per_npu, RING4_SWITCH2, groups) == {1: 0}


def test_one_measurement_per_collective_and_layout(tmp_path, monkeypatch):
    groups, owners = dimension_groups(RING4_SWITCH2)
    per_npu = []
    for npu in range(RING4_SWITCH2.num_npus):
        nodes = [comp(0, 2)]
        for k, layout in enumerate([owners[0], None, owners[1], owners[0], None, owners[1]]):
            nodes += [collective(2 * k + 1, AR, MiB, [2 * k],
                                 pg_name="" if layout is None else str(layout[npu])),
                      comp(2 * k + 2, 3, [2 * k + 1])]
        per_npu.append(nodes)
    measured = []
    real_measure = CollectiveTimes.measure

    def measure(self, position, at_start):
        measured.append(position)
        return real_measure(self, position, at_start)
    monkeypatch.setattr(CollectiveTimes, "measure", measure)
    fast, full = both_ways(tmp_path, per_npu, RING4_SWITCH2, system(dims=2), groups)
    assert fast.replicated and fast.devices == full.devices
    assert measured == [1, 3, 5]  # the repeats (positions 7, 9, 11) reuse these


def test_shipped_multi_group_workload(tmp_path, repo_dir):
    """pax-gpt5b on 16 H100s: FSDP inside each 8-GPU node, data parallel across the two."""
    out = tmp_path / "traces"
    generate(build_config("H100_80GB", output_dir=out,
                                   mlir_file=repo_dir / "workloads"
                                   / "pax_gpt5b_synthetic_16dev.mlir.gz"))
    setup = load_system_dir(PRESETS_DIR / "H100_80GB_8GPU_2")
    fast, full = (simulate(out / TRACE_PREFIX, setup.system, setup.network,
                           comm_groups=out / COMM_GROUP_FILE, replicate=replicate)
                  for replicate in (True, False))
    assert len({d.trace.digest for d in full.devices}) > 1  # the traces differ in their groups
    assert fast.replicated and not full.replicated
    assert fast.step_time_ns == full.step_time_ns
    assert fast.devices == full.devices
