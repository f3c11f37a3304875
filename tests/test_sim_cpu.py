"""CPU compute nodes (``is_cpu_op``) in the built-in simulator, by ASTRA-sim 518bd51's rules.

The rules (astra-sim/workload/HardwareResource.cc and Workload.cc): an NPU holds one CPU op, one GPU
compute node and one collective or send in flight; dependency-free nodes issue in ascending id when
their slot is free; a CPU op runs for its recorded duration (1 ns when 0), roofline or not, and only
GPU compute counts against exposed communication (``finish - GPU ticks``). Expected figures are
derived by hand from those rules; the all-reduce of 1 KiB on Ring 4 takes 12,304 ns (refsim case
sweep_all_reduce_ring4). With ``HESPAS_ASTRA_SIM=BIN`` the cases also run in the real binary, which
prints only the "finished" line of an NPU that ran a CPU op (Statistics.cc throws on CPU time).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from hespas_py.chakra.nodes import collective, comp, point_to_point
from hespas_py.chakra.schema import NodeType
from hespas_py.cli.main import app
from hespas_py.errors import HespasError
from hespas_py.sim.astra import AstraSimInputs, parse_report, run_astra_sim
from hespas_py.sim.timeline import trace_events
from test_sim import AR, RING4, KiB, run, run_same, system, timeline
from test_sim_cli import SYSTEM_JSON

#: What ASTRA-sim 518bd51 prints for an NPU that ran a CPU op: its "finished" line, then its
#: statistics step throws and Sys::call_events logs the exception instead of the figures.
STATISTICS_THROW = "Only GPU and COMM types are supported for overlap extraction"


def figures(device):
    return (device.wall_time_ns, device.gpu_time_ns, device.cpu_time_ns, device.comm_time_ns,
            device.exposed_comm_ns, device.overlap_ns)


#: Hand-built traces, per NPU (the same on every NPU but in npu0_only).
CASES = {
    # GPU 5 us and CPU 3 us, both free at 0.
    "beside_gpu": lambda npu: [comp(0, 5), comp(1, 3, cpu=True)],
    # Two CPU ops and a GPU node, all free at 0.
    "one_at_a_time": lambda npu: [comp(0, 3, cpu=True), comp(1, 2, cpu=True), comp(2, 4)],
    # AR 1 KiB -> CPU 2 us -> GPU 3 us, beside GPU 10 us.
    "after_collective": lambda npu: [collective(0, AR, KiB), comp(1, 2, [0], cpu=True),
                                     comp(2, 3, [1]), comp(3, 10)],
    # 20 us on the CPU (NPU 0) or the GPU (the others), then AR 1 KiB.
    "npu0_only": lambda npu: [comp(0, 20, cpu=npu == 0), collective(1, AR, KiB, [0])],
}


def machine_files(tmp_path):
    folder = tmp_path / "ring4"
    folder.mkdir()
    (folder / "network.yml").write_text(RING4.to_yaml())
    (folder / "system.json").write_text(SYSTEM_JSON)
    (folder / "remote_memory.json").write_text('{"memory-type": "NO_MEMORY_EXPANSION"}')
    return AstraSimInputs(tmp_path / "trace", folder / "system.json", folder / "network.yml",
                          folder / "remote_memory.json")


@pytest.mark.parametrize("replicate", [True, False])
def test_cpu_op_runs_beside_gpu_compute(tmp_path, replicate):
    # Both issue at 0: GPU 5 us and CPU 3 us overlap (as two GPU nodes they would take 8 us).
    result = run_same(tmp_path, CASES["beside_gpu"](0), RING4, system(), replicate=replicate)
    for device in result.devices:
        assert timeline(device) == [[0, 0, 5000], [1, 0, 3000]]
        assert figures(device) == (5000, 5000, 3000, 0, 0, 0)


def test_cpu_ops_run_one_at_a_time(tmp_path):
    # 0 (CPU) and 2 (GPU) issue at 0; 1 (CPU) waits for the CPU slot until 0 ends at 3 us.
    # Exposed: finish 5000 - GPU 4000; the CPU time is not compute time there.
    device = run_same(tmp_path, CASES["one_at_a_time"](0), RING4, system()).devices[0]
    assert timeline(device) == [[0, 0, 3000], [1, 3000, 5000], [2, 0, 4000]]
    assert figures(device) == (5000, 4000, 5000, 0, 1000, 0)


@pytest.mark.parametrize("replicate", [True, False])
def test_cpu_op_between_collective_and_consumer(tmp_path, replicate):
    # AR 1 KiB (0 -> 12304) beside GPU 10 us; then CPU 2 us, then GPU 3 us.
    # GPU time 10000 + 3000; exposed 17304 - 13000; overlap: GPU and comm overlap for the first
    # 10000 ns (13000 + 12304 - their union 15304; minus the wall, 17304, would count CPU time).
    result = run_same(tmp_path, CASES["after_collective"](0), RING4, system(), replicate=replicate)
    assert result.replicated == replicate
    for device in result.devices:
        assert timeline(device) == [[0, 0, 12304], [1, 12304, 14304], [2, 14304, 17304],
                                    [3, 0, 10000]]
        assert figures(device) == (17304, 13000, 2000, 12304, 4304, 10000)


def test_cpu_op_on_one_npu_only(tmp_path):
    # Before the all-reduce NPU 0 runs a 20 us CPU op, the others a 20 us GPU node: the same
    # schedule (AR 20000 -> 32304 everywhere), but NPU 0 has no GPU time, so all of it is exposed.
    result = run(tmp_path, [CASES["npu0_only"](npu) for npu in range(4)], RING4, system())
    assert [d.wall_time_ns for d in result.devices] == [32304] * 4
    assert figures(result.devices[0]) == (32304, 0, 20000, 12304, 32304, 0)
    assert figures(result.devices[1])[:3] == (32304, 20000, 0)


#: NPU 0: CPU 2 us, then 1 MiB to NPU 1 (one hop: 500 + 2**20 / 53.687 B/ns -> 20031 ns); NPU 1:
#: CPU 1 us, then the receive; NPUs 2 and 3: 1 us of GPU compute.
SEND_AFTER_CPU_OP = [
    [comp(0, 2, cpu=True), point_to_point(1, NodeType.COMM_SEND_NODE, 0, 1, 1 << 20, 7, [0])],
    [comp(0, 1, cpu=True), point_to_point(1, NodeType.COMM_RECV_NODE, 0, 1, 1 << 20, 7, [0])],
    [comp(0, 1)], [comp(0, 1)]]


def test_cpu_op_before_a_send(tmp_path):
    # The message leaves at 2000 and arrives at 22031; the receive, posted at 1000, ends then.
    # (ASTRA-sim aborts on this set: see test_real_astra_sim_aborts_when_a_cpu_npu_ends_on_a_send.)
    result = run(tmp_path, SEND_AFTER_CPU_OP, RING4, system())
    assert figures(result.devices[0]) == (22031, 0, 2000, 20031, 22031, 0)
    assert figures(result.devices[1]) == (22031, 0, 1000, 21031, 22031, 0)


def test_roofline_prices_gpu_nodes_only(tmp_path):
    # GPU: 1e9 ops over 1e6 bytes at 900 TFLOPS -> 1111 ns; the CPU op keeps its 7 us and needs no
    # num_ops or tensor_size.
    nodes = [comp(0, 5, num_ops=10**9, tensor_size=10**6), comp(1, 7, cpu=True)]
    device = run_same(tmp_path, nodes, RING4, system(roofline_enabled=1)).devices[0]
    assert timeline(device) == [[0, 0, 1111], [1, 0, 7000]]
    assert figures(device) == (7000, 1111, 7000, 0, 5889, 0)


def test_zero_duration_cpu_op_takes_one_ns(tmp_path):
    nodes = [comp(0, 4), comp(1, 0, cpu=True), comp(2, 1, [1], cpu=True)]
    device = run_same(tmp_path, nodes, RING4, system()).devices[0]
    assert timeline(device) == [[0, 0, 4000], [1, 0, 1], [2, 1, 1001]]


def test_communication_node_on_the_cpu(tmp_path):
    # ASTRA-sim aborts on a communication node marked is_cpu_op, except in replay-only mode, where
    # it is replayed in the CPU slot and reported as communication.
    node = collective(0, AR, KiB)
    node.attr[0].bool_val = True
    with pytest.raises(HespasError, match="Comm node should not be on CPU"):
        run_same(tmp_path, [node], RING4, system())
    nodes = [node, comp(1, 3, cpu=True), comp(2, 4)]
    node.duration_micros = 2
    device = run_same(tmp_path, nodes, RING4, system(replay_only=1)).devices[0]
    assert timeline(device) == [[0, 0, 2000], [1, 2000, 5000], [2, 0, 4000]]
    assert figures(device) == (5000, 4000, 3000, 2000, 1000, 2000)


def test_cli_reports_cpu_time(tmp_path):
    folder = machine_files(tmp_path).system.parent
    run_same(tmp_path, CASES["beside_gpu"](0), RING4, system())
    runner = CliRunner()
    args = ["simulate", str(tmp_path / "trace"), "--system", str(folder)]
    report = json.loads(runner.invoke(app, [*args, "--json"], catch_exceptions=False).stdout)
    assert report["devices"][0] == {"id": 0, "wall_time_ns": 5000, "gpu_time_ns": 5000,
                                    "comm_time_ns": 0, "exposed_comm_ns": 0, "overlap_ns": 0,
                                    "cpu_time_ns": 3000}
    table = runner.invoke(app, args, catch_exceptions=False).stdout
    assert "CPU" in table and "3,000" in table and "aborts" in table


def test_timeline_puts_cpu_ops_on_their_own_track(tmp_path):
    result = run_same(tmp_path, CASES["beside_gpu"](0), RING4, system())
    events = trace_events(result)["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["ph"] == "M"
             and e["name"] == "thread_name"}
    assert names[(0, 2)] == "CPU"
    tracks = {e["args"]["node_id"]: e["tid"] for e in events if e["ph"] == "X" and e["pid"] == 0}
    assert tracks == {0: 0, 1: 2}


def test_no_cpu_track_or_figure_without_cpu_ops(tmp_path):
    result = run_same(tmp_path, [comp(0, 5)], RING4, system())
    assert "cpu_time_ns" not in result.devices[0].as_json()
    events = trace_events(result)["traceEvents"]
    assert not any(e.get("tid") == 2 for e in events)


def test_astra_sim_backend_refuses_a_report_without_statistics(tmp_path):
    binary = tmp_path / "astra"
    binary.write_text(f"#!{sys.executable}\n" + "\n".join(
        f"print('[workload] [info] sys[{npu}] finished, 5000 cycles, exposed communication 0 "
        f"cycles.')\nprint('[system] [critical] warning! a callable is removed before call "
        f"{STATISTICS_THROW}')" for npu in range(4)))
    binary.chmod(0o755)
    with pytest.raises(HespasError, match=f"0/4 NPUs reported .*{STATISTICS_THROW}"):
        run_astra_sim(binary, machine_files(tmp_path), 4)


def run_real_astra_sim(tmp_path, per_npu):
    inputs = machine_files(tmp_path)
    built_in = run(tmp_path, per_npu, RING4, system())
    done = subprocess.run([os.environ["HESPAS_ASTRA_SIM"], *inputs.arguments()], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    return built_in, done, inputs


@pytest.mark.skipif(not os.environ.get("HESPAS_ASTRA_SIM"),
                    reason="HESPAS_ASTRA_SIM names no real ASTRA-sim analytical binary")
@pytest.mark.parametrize("case", sorted(CASES))
def test_real_astra_sim_agrees(tmp_path, case):
    # Every NPU's "finished" line equals our finish and exposed figures; NPUs without CPU ops
    # print their statistics, which equal ours; the others log the statistics' exception.
    built_in, done, inputs = run_real_astra_sim(tmp_path, [CASES[case](npu) for npu in range(4)])
    finished = re.findall(r"sys\[(\d+)\] finished, (\d+) cycles, exposed communication (\d+)",
                          done.stdout)
    assert done.returncode == 0
    assert sorted((int(n), int(f), int(e)) for n, f, e in finished) == [
        (d.id, d.finished_ns, d.exposed_comm_ns) for d in built_in.devices]
    with_cpu = [d for d in built_in.devices if d.cpu_time_ns]
    assert done.stdout.count(STATISTICS_THROW) == len(with_cpu) > 0
    reported = parse_report(done.stdout).devices
    assert [d.as_json() for d in reported] == [d.as_json() for d in built_in.devices
                                               if not d.cpu_time_ns]
    if with_cpu:
        with pytest.raises(HespasError, match=STATISTICS_THROW):
            run_astra_sim(os.environ["HESPAS_ASTRA_SIM"], inputs, 4)


@pytest.mark.skipif(not os.environ.get("HESPAS_ASTRA_SIM"),
                    reason="HESPAS_ASTRA_SIM names no real ASTRA-sim analytical binary")
def test_real_astra_sim_aborts_when_a_cpu_npu_ends_on_a_send(tmp_path):
    # The throw escapes when the NPU's last node completes outside Sys::call_events.
    _, done, _ = run_real_astra_sim(tmp_path, SEND_AFTER_CPU_OP)
    assert done.returncode == -6 and STATISTICS_THROW in done.stderr
