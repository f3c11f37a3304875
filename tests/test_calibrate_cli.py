"""``hespas calibrate`` end to end on XLA:CPU: one ``--quick`` run whose preset ``hespas gen``,
``hespas accuracy --node`` and a sweep accept; bad ``--base`` / ``--out`` / ``--only``; ``--force``;
``--from`` onto another chip; the collectives with four host devices."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hespas_py.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
WORKLOAD = ROOT / "workloads" / "mlp_dp_4dev.mlir"
#: ``hespas`` in a fresh process (whether or not the package is installed there).
HESPAS = [sys.executable, "-c", "from hespas_py.cli.main import main; main()"]


def _env() -> dict[str, str]:
    """This process's environment, with the checkout importable from any folder."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get(
        "PYTHONPATH", "")]))}


def run(*args: str):
    return CliRunner().invoke(app, ["calibrate", *args], catch_exceptions=False,
                              env={"COLUMNS": "200"})


def hespas(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``hespas ARGS`` through the console entry point."""
    from hespas_py.cli.main import main

    monkeypatch.setattr(sys, "argv", ["hespas", *args])
    with pytest.raises(SystemExit) as done:
        main()
    out, err = capsys.readouterr()
    return done.value.code, out, err


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory):
    """One --quick calibration of every kind over the H100_80GB datasheet (run once)."""
    out = tmp_path_factory.mktemp("calibrate") / "h100_cpu"
    result = run("--base", "H100_80GB", "--quick", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result.output


def _hardware(folder: Path, method: str = "fused_roofline") -> dict:
    return json.loads((folder / method / "config.json").read_text())["perf_estimator"]["hardware"]


def test_quick_run_writes_a_preset_with_sources_and_the_raw_figures(calibrated):
    out, output = calibrated
    doc = json.loads((out / "calibration.json").read_text())
    assert doc["mode"] == "quick" and doc["run"]["device_kind"] == "cpu" and doc["base"] == "H100_80GB"
    assert set(doc["kinds"]) == {"launch", "stream", "gemm", "conv", "row", "elementwise"}
    hw = _hardware(out)
    # What a kind gives on a CPU depends on which bound its tiny case hits: the stream and the
    # chain always give theirs; every param measured carries the run's source.
    written = {m["param"] for m in doc["measured"] if m["applied"]}
    assert {"memory_efficiency", "launch_overhead_s", "dispatch_overhead_s"} <= written
    for param in written - {"dispatch_overhead_s", "dispatch_per_buffer_s"}:
        source = hw[f"{param}_source"]
        assert source.startswith("hespas calibrate on cpu (1 local device), jax ") and "jaxlib" in source
        assert doc["run"]["date"] in source
    assert hw["num_cores_source"].startswith("carried from H100_80GB (not measured)")
    assert hw["peak_flops"] == 67e12 and "peak_flops" in doc["carried"]
    assert _hardware(out, "roofline")["dispatch_source"].startswith("hespas calibrate on cpu")
    assert "memory_efficiency" in output and "H100_80GB" in output and "ratio" in output
    tables = [m for m in doc["measured"] if isinstance(m["value"], dict)]
    assert all(f"{m['param']}[{key}]" in output for m in tables for key in m["value"])
    assert not (out / "system").exists()  # one device: no collectives


def test_gen_and_accuracy_accept_the_preset_directory(calibrated, tmp_path):
    out, _ = calibrated
    gen = CliRunner().invoke(app, ["gen", str(out), "--mlir_file", str(WORKLOAD), "--output",
                                   str(tmp_path / "traces"), "--json", "--log-level", "error"])
    assert gen.exit_code == 0, gen.output
    shipped = CliRunner().invoke(app, ["gen", "H100_80GB", "--mlir_file", str(WORKLOAD),
                                       "--output", str(tmp_path / "shipped"), "--json",
                                       "--log-level", "error"])
    slower = json.loads(gen.stdout)["compute_estimate_s"]
    assert slower > json.loads(shipped.stdout)["compute_estimate_s"]  # a CPU's rates
    table = tmp_path / "one.csv"
    lines = (ROOT / "hespas_py" / "data" / "gpu_step_times.csv").read_text().splitlines()
    table.write_text("\n".join(lines[:2]) + "\n")
    accuracy = CliRunner().invoke(app, ["accuracy", "--group", "gpu", "--measured", str(table),
                                        "--node", str(out), "--json"])
    assert accuracy.exit_code == 0, accuracy.output
    (row,) = json.loads(accuracy.stdout)["rows"]
    assert row["node"] == str(out) and row["error"] > 1  # CPU rates: far slower than the H100


def test_the_python_api_takes_the_preset_directory(calibrated):
    import hespas_py

    out, _ = calibrated
    report = hespas_py.estimate(str(WORKLOAD), node=str(out))
    assert report.node == str(out) and report.compute_s > hespas_py.estimate(
        str(WORKLOAD), node="H100_80GB").compute_s


def test_a_sweep_takes_the_preset_directory(calibrated, tmp_path):
    from hespas_py.sweep.spec import spec_from_doc

    out, _ = calibrated
    spec = spec_from_doc({"workloads": [str(WORKLOAD)], "nodes": [str(out)],
                          "systems": ["H100_80GB_4GPU"]}, tmp_path / "spec.yaml")
    config = spec.nodes[str(out)]["fused_roofline"]
    assert config.hardware.name == "h100_cpu" and config.file == out


def test_force_replaces_and_from_carries_efficiencies_onto_another_chip(calibrated, tmp_path,
                                                                       capsys, monkeypatch):
    out, _ = calibrated
    target = tmp_path / "b200"
    target.mkdir()
    code, _, err = hespas(capsys, monkeypatch, "calibrate", "--from", str(out / "calibration.json"),
                          "--base", "B200_180GB", "--out", str(target))
    assert code == 2 and err == f"error: {target}: output directory exists (pass --force to replace it)\n"
    result = run("--from", str(out / "calibration.json"), "--base", "B200_180GB", "--out",
                 str(target), "--force")
    assert result.exit_code == 0, result.output
    hw = _hardware(target)
    measured = json.loads((out / "calibration.json").read_text())["measured"]
    memory = next(m for m in measured if m["param"] == "memory_efficiency")
    assert hw["memory_efficiency"] == memory["value"] and hw["memory_bandwidth"] == 7700e9
    assert "efficiency from cpu against H100_80GB" in hw["memory_efficiency_source"]
    assert hw["launch_overhead_s"] == 1e-6  # a latency of the CPU: B200's own value kept
    doc = json.loads((target / "calibration.json").read_text())
    assert {m["param"]: m["applied"] for m in doc["measured"]}["launch_overhead_s"] is False
    assert "not applied" in result.output
    gen = CliRunner().invoke(app, ["gen", str(target), "--mlir_file", str(WORKLOAD), "--output",
                                   str(tmp_path / "traces"), "--log-level", "error"])
    assert gen.exit_code == 0, gen.output


@pytest.mark.parametrize("args, message", [
    (["--base", "H100_80GBX"], "H100_80GBX: no such"),
    (["--base", "H100_80GB", "--only", "gemms"], "unknown calibration kind 'gemms'"),
    ([], "no node preset is a 'cpu': pass --base PRESET"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "out"
    done = subprocess.run([*HESPAS, "calibrate", *args, "--out", str(out), "--quick"],
                          capture_output=True, text=True, cwd=tmp_path, env=_env())
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ") and message in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_out_that_is_a_file_is_refused_before_measuring(tmp_path, capsys, monkeypatch):
    target = tmp_path / "taken"
    target.write_text("not a preset")
    code, _, err = hespas(capsys, monkeypatch, "calibrate", "--base", "H100_80GB", "--only",
                          "launch", "--out", str(target))
    assert code == 2 and err == f"error: {target}: exists and is not a directory\n"
    assert target.read_text() == "not a preset" and sorted(tmp_path.iterdir()) == [target]


def test_collectives_on_four_host_devices_write_a_system_preset(tmp_path):
    from hespas_py.sim.config import load_system_dir

    out = tmp_path / "four"
    env = {**_env(), "XLA_FLAGS": "--xla_force_host_platform_device_count=4"}
    done = subprocess.run([*HESPAS, "calibrate", "--base",
                           "H100_80GB", "--only", "collective", "--quick", "--out", str(out)],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    setup = load_system_dir(out / "system")
    assert setup.network.num_npus == 4 and setup.network.topology == ("Switch",)
    doc = json.loads((out / "calibration.json").read_text())
    assert doc["run"]["devices"] == 4
    assert set(doc["network"]["fits"]) == {"all_reduce", "all_gather", "reduce_scatter",
                                           "all_to_all"}
    assert "all_reduce" in (out / "system" / "astra-sim" / "network.yml").read_text()
