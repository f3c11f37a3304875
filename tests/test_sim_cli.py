"""``hespas simulate``: JSON report, timeline, presets, the ASTRA-sim backend, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from hespas_py.chakra.nodes import collective, comp
from hespas_py.chakra.schema import CollectiveCommType as Coll
from hespas_py.cli.main import app
from hespas_py.sim import load_system_dir, preset_names
from hespas_py.sim.astra import parse_report
from hespas_py.sim.config import PRESETS_DIR
from hespas_py.sim.synthetic import write_identical_trace_set

RING4_YML = "topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n"
SYSTEM_JSON = json.dumps({
    "scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
    "preferred-dataset-splits": 4, "collective-optimization": "localBWAware", "local-mem-bw": 1600,
    **{f"{k}-implementation": ["ring"] for k in ("all-reduce", "all-gather", "reduce-scatter",
                                                 "all-to-all")}})


@pytest.fixture
def machine(tmp_path):
    """overlap_comm_after_comp on Ring 4: COMP 5 us -> AR 1 MiB -> COMP 3 us, + COMP 50 us."""
    folder = tmp_path / "ring4"
    folder.mkdir()
    (folder / "network.yml").write_text(RING4_YML)
    (folder / "system.json").write_text(SYSTEM_JSON)
    nodes = [comp(0, 5, name="fwd"), collective(1, Coll.ALL_REDUCE, 1 << 20, [0], name="grad_ar"),
             comp(2, 3, [1]), comp(3, 50)]
    write_identical_trace_set(tmp_path / "trace", nodes, 4)
    return tmp_path


def invoke(*args):
    return CliRunner().invoke(app, ["simulate", *map(str, args)], catch_exceptions=False)


def test_json_report(machine):
    out = invoke(machine / "trace", "--system", machine / "ring4", "--json")
    assert out.exit_code == 0
    assert json.loads(out.stdout) == {"devices": [
        {"id": npu, "wall_time_ns": 58000, "gpu_time_ns": 58000, "comm_time_ns": 43000,
         "exposed_comm_ns": 0, "overlap_ns": 43000} for npu in range(4)]}


def test_table_report(machine):
    out = invoke(machine / "trace", "--system", machine / "ring4" / "system.json",
                 "--network", machine / "ring4" / "network.yml")
    assert out.exit_code == 0
    assert "58,000" in out.stdout and "step time: 58,000 ns" in out.stdout


def test_timeline_has_compute_and_communication_tracks(machine):
    path = machine / "timeline.json"
    out = invoke(machine / "trace", "--system", machine / "ring4", "--json", "--timeline", path)
    assert out.exit_code == 0
    events = json.loads(path.read_text())["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert names[(2, 0)] == "compute" and names[(2, 1)] == "communication"
    spans = [e for e in events if e["ph"] == "X" and e["pid"] == 2]
    assert len(spans) == 4
    ar = next(e for e in spans if e["name"] == "grad_ar")
    assert (ar["tid"], ar["ts"], ar["dur"]) == (1, 5.0, 43.0)
    assert ar["args"] == {"node_id": 1, "bytes": 1 << 20, "collective": "ALL_REDUCE"}
    fwd = next(e for e in spans if e["name"] == "fwd")
    assert (fwd["tid"], fwd["ts"], fwd["dur"], fwd["cat"]) == (0, 0.0, 5.0, "compute")


FAKE_ASTRA_SIM = textwrap.dedent("""\
    #!{python}
    import os
    import sys
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
    assert set(args) >= {{"workload-configuration", "system-configuration",
                         "network-configuration", "remote-memory-configuration"}}, args
    os.makedirs("log")  # ASTRA-sim's default logging folder, in its working directory
    open("log/log.log", "w").close()
    for npu in range(4):
        print(f"[2026-03-01T10:00:00+0000] [I] <workload>: sys[{{npu}}] finished, "
              f"{{1000 + npu}} cycles, exposed communication 400 cycles.")
        print(f"[2026-03-01T10:00:00+0000] [I] <statistics>: sys[{{npu}}], Wall time: {{1000 + npu}}")
        print(f"sys[{{npu}}], GPU time: 600")
        print(f"sys[{{npu}}], Comm time: 700")
        print(f"sys[{{npu}}], Total compute-communication overlap: 300")
    """)


def test_astra_sim_backend_reads_its_report(machine, monkeypatch):
    binary = machine / "AstraSim_Analytical_Congestion_Unaware"
    binary.write_text(FAKE_ASTRA_SIM.format(python=sys.executable))
    binary.chmod(0o755)
    monkeypatch.chdir(machine)  # relative paths must survive ASTRA-sim's scratch directory
    out = invoke("trace", "--system", "ring4", "--json", "--backend", "astra-sim",
                 "--astra-sim", f"./{binary.name}")
    assert out.exit_code == 0, out.stdout
    assert not (machine / "log").exists()  # its log folder went to the scratch directory
    devices = json.loads(out.stdout)["devices"]
    assert devices[3] == {"id": 3, "wall_time_ns": 1003, "gpu_time_ns": 600, "comm_time_ns": 700,
                          "exposed_comm_ns": 400, "overlap_ns": 300}


@pytest.mark.skipif(not os.environ.get("HESPAS_ASTRA_SIM"),
                    reason="HESPAS_ASTRA_SIM names no real ASTRA-sim analytical binary")
@pytest.mark.parametrize("system", ["ring4", "A100_SXM_40GB_4GPU"])
def test_real_astra_sim_agrees_with_the_built_in_simulator(machine, system):
    folder = machine / system if system == "ring4" else system
    built_in = invoke(machine / "trace", "--system", folder, "--json")
    real = invoke(machine / "trace", "--system", folder, "--json", "--backend", "astra-sim",
                  "--astra-sim", os.environ["HESPAS_ASTRA_SIM"])
    assert real.exit_code == built_in.exit_code == 0, real.stdout
    assert json.loads(real.stdout) == json.loads(built_in.stdout)


def test_parse_report_without_overlap_line():
    result = parse_report("sys[0] finished, 43000 cycles, exposed communication 43000 cycles.\n"
                          "sys[0], Wall time: 43000\nsys[0], Comm time: 43000\n")
    assert result.devices[0].as_json() == {"id": 0, "wall_time_ns": 43000, "gpu_time_ns": 0,
                                           "comm_time_ns": 43000, "exposed_comm_ns": 43000,
                                           "overlap_ns": 0}


@pytest.mark.parametrize("extra, message", [
    (["--system", "no_such_preset"], "no_such_preset: not a system.json"),
    (["--system", "{ring4}", "--backend", "astra-sim"], "needs --astra-sim"),
    (["--system", "{ring4}", "--comm-groups", "{missing}"], "missing.json: no such file"),
])
def test_bad_input_is_one_line_and_exit_2(machine, extra, message):
    extra = [e.format(ring4=machine / "ring4", missing=machine / "missing.json") for e in extra]
    done = subprocess.run([sys.executable, "-c", "from hespas_py.cli.main import main; main()",
                           "simulate", str(machine / "trace"), *extra],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and message in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_presets_cover_the_measured_systems():
    names = set(preset_names())
    assert {"A100_SXM_40GB_4GPU", "H100_80GB_4GPU", "H200_141GB_4GPU", "B200_180GB_4GPU",
            "TPUv3_8"} <= names
    a100 = load_system_dir(PRESETS_DIR / "A100_SXM_40GB_4GPU")
    # Hespas' 4 x 25 GB/s per GPU pair, at the 4 x 20 GB/s NCCL reaches, in 2^30-byte GB/s.
    assert (a100.network.topology, a100.network.latency) == (("FullyConnected",), (1000.0,))
    assert a100.network.bandwidth == pytest.approx((80e9 / 2**30,), abs=1e-4)
    dims = {len(load_system_dir(PRESETS_DIR / n).network.npus_count)
            for n in names}
    assert {1, 2, 3} <= dims

