"""Trace sets that differ only in their sends and receives: every NPU replayed, each distinct
collective simulated once (`hespas_py.sim.gang`), against the full simulation."""

from __future__ import annotations

from hespas_py.chakra.groups import DeviceLayout
from hespas_py.chakra.writer import write_traces
from hespas_py.sim import simulate
from hespas_py.sim.gang import collectives_only, gang_plan
from hespas_py.sim.inputs import load_comm_groups
from hespas_py.sim.trace import load_traces, trace_paths
from hespas_py.split import individual_split
from test_chakra_writer import estimates_for, op, ret, t
from test_sim import RING4, system

#: Compute, a permute that leaves NPU 0 out (its pair maps it to itself), then all-reduces over
#: the machine and over pairs with compute between them.
PERMUTE_LEAVING_ONE_OUT = [
    op("exponential", 1, (0,), t(1024), t(1024)),
    op("collective_permute", 2, (1,), t(1024), t(1024),
       source_target_pairs=((0, 0), (1, 2), (2, 3), (3, 1))),
    op("add", 3, (2, 1), t(1024), t(1024)),
    op("all_reduce", 4, (3,), t(65536), t(65536), replica_groups=((0, 1, 2, 3),)),
    op("multiply", 5, (4,), t(1024), t(1024)),
    op("all_reduce", 6, (5,), t(65536), t(65536), replica_groups=((0, 1), (2, 3))),
    op("add", 7, (6, 0), t(1024), t(1024)), ret(7)]


def _write(tmp_path, ops, times=None):
    tmp_path.mkdir(exist_ok=True)
    graph = individual_split(ops)
    write_traces(tmp_path, graph, estimates_for(graph, times), DeviceLayout(4, 1))
    return tmp_path


def _simulate(out, **options):
    return simulate(str(out / "dev"), system(), RING4, comm_groups=out / "comm_group.json",
                    **options)


def test_a_permute_leaving_a_device_out_is_timed_per_collective_and_matches_the_full_run(
        tmp_path):
    out = _write(tmp_path, PERMUTE_LEAVING_ONE_OUT, times=[2e-6, 5e-6, 3e-6, 1e-6])
    gang = _simulate(out)
    full = _simulate(out, replicate=False)
    assert gang.timed_collectives and not gang.replicated
    assert not full.timed_collectives
    assert gang.step_time_ns == full.step_time_ns
    # NPU 0 skips the permute and reaches the all-reduce first: in the full run it starts sending
    # at once and finishes a little sooner; here every member waits for the last one.
    for timed, simulated in zip(gang.devices, full.devices, strict=True):
        assert simulated.wall_time_ns <= timed.wall_time_ns <= simulated.wall_time_ns * 1.05


def test_collectives_only_keeps_the_collectives_in_order_free_of_dependencies(tmp_path):
    out = _write(tmp_path, PERMUTE_LEAVING_ONE_OUT)
    left_out, sending = load_traces(trace_paths(out / "dev", 4))[:2]
    assert len(left_out.nodes) < len(sending.nodes)          # NPU 0 has no send or receive
    for trace in (left_out, sending):
        alone, ordinals = collectives_only(trace)
        assert [n.id for n in alone.nodes] == [0, 1] and all(not n.deps for n in alone.nodes)
        assert sorted(ordinals.values()) == [0, 1]
        assert [trace.nodes[p].name for p in sorted(ordinals)] == [n.name for n in alone.nodes]


def test_unlike_collectives_or_no_sends_leave_it_to_the_other_runs(tmp_path):
    groups = {}
    symmetric = _write(tmp_path / "a", [op("all_reduce", 1, (0,), t(64), t(64),
                                            replica_groups=((0, 1, 2, 3),)), ret(1)])
    traces = load_traces(trace_paths(symmetric / "dev", 4))
    assert gang_plan(traces, system(), RING4, groups) is None          # no send: replicated
    assert _simulate(symmetric).replicated
    out = _write(tmp_path / "b", PERMUTE_LEAVING_ONE_OUT)
    traces = load_traces(trace_paths(out / "dev", 4))
    groups = load_comm_groups(out / "comm_group.json")
    assert gang_plan(traces, system(), RING4, groups) is not None
    assert gang_plan(traces, system("doubleBinaryTree"), RING4, groups) is None
    assert not _simulate(out, replicate=False).timed_collectives
    only_sends = _write(tmp_path / "c", PERMUTE_LEAVING_ONE_OUT[:3] + [ret(3)])
    traces = load_traces(trace_paths(only_sends / "dev", 4))
    assert collectives_only(traces[1]) is None
    assert gang_plan(traces, system(), RING4, {}) is None              # no collective: full run
    assert not _simulate(only_sends).timed_collectives


def test_simulate_command_says_so_and_full_runs_everything(tmp_path):
    from typer.testing import CliRunner

    from hespas_py.cli.main import app
    from test_sim_cli import RING4_YML, SYSTEM_JSON

    out = _write(tmp_path / "t", PERMUTE_LEAVING_ONE_OUT, times=[2e-6, 5e-6, 3e-6, 1e-6])
    folder = tmp_path / "machine"
    folder.mkdir()
    (folder / "network.yml").write_text(RING4_YML)
    (folder / "system.json").write_text(SYSTEM_JSON)
    runner = CliRunner()
    timed = runner.invoke(app, ["simulate", str(out / "dev"), "--system", str(folder)])
    assert timed.exit_code == 0, timed.output
    assert "simulated once" in timed.output
    full = runner.invoke(app, ["simulate", str(out / "dev"), "--system", str(folder), "--full"])
    assert full.exit_code == 0 and "simulated once" not in full.output
    assert timed.output.split("step time:")[1].split()[0] == \
        full.output.split("step time:")[1].split()[0]
