"""``hespas_py.estimate``: the same figures as ``hespas export`` + ``hespas gen``, from a process
whose JAX runs on one CPU device; the report's forms."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import hespas_py
from hespas_py.api import Report
from hespas_py.errors import HespasError
from hespas_py.export.workloads import workload_path

DATA = Path(__file__).resolve().parent / "data"
FACTORY = f"{DATA / 'layout_mlp.py'}:mlp_step"
NODE_CONFIG = "configs/nodes/H100_80GB/fused_roofline/config.json"


def _cli(*args) -> str:
    done = subprocess.run([sys.executable, "-c", "from hespas_py.cli.main import main; main()",
                           *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _gen_step_time(mlir: Path, out: Path, system: str) -> dict:
    return json.loads(_cli("gen", NODE_CONFIG, "--mlir_file", mlir, "--output", out, "--json",
                           "--system-config", system))


@pytest.fixture(scope="module")
def report() -> Report:
    import jax

    assert jax.device_count() == 1  # JAX already runs here, on one device
    return hespas_py.estimate(FACTORY, devices=4, node="H100_80GB", system="H100_80GB_4GPU",
                              dp=2, tp=2, hidden=1024)


def test_estimate_equals_export_and_gen(report, tmp_path):
    _cli("export", FACTORY, "--devices", 4, "--set", "dp=2", "--set", "tp=2", "--set",
         "hidden=1024", "--out", tmp_path / "step.mlir")
    summary = _gen_step_time(tmp_path / "step.mlir", tmp_path / "gen", "H100_80GB_4GPU")
    assert report.step_time_s == pytest.approx(summary["simulation"]["step_time_s"], rel=1e-9)
    assert report.collectives == summary["collectives"]
    assert report.devices == 4 and report.fits is True and report.memory["peak_bytes"] > 0
    worst = max(summary["simulation"]["devices"], key=lambda d: d["wall_time_ns"])
    assert report.exposed_comm_s == pytest.approx(worst["exposed_comm_ns"] * 1e-9)
    assert report.compute_s + report.exposed_comm_s == pytest.approx(report.step_time_s, rel=1e-6)


def test_report_forms(report, tmp_path):
    encoded = json.loads(json.dumps(report.to_dict()))
    assert encoded["step_time_s"] == report.step_time_s and "simulation" not in encoded
    assert "step time" in str(report) and "all_reduce" in str(report)
    assert report._repr_html_().startswith("<table>")
    from rich.console import Console

    console = Console(record=True, width=120)
    console.print(report)
    assert "hespas estimate" in console.export_text()
    events = json.loads(report.timeline(tmp_path / "new" / "t.json").read_text())["traceEvents"]
    assert {e["pid"] for e in events} == {0, 1, 2, 3}


def test_stablehlo_text_and_file_give_gen_figures(tmp_path):
    mlir = workload_path("mlp_dp_4dev")
    summary = _gen_step_time(mlir, tmp_path / "gen", "H100_80GB_4GPU")
    by_file = hespas_py.estimate(mlir, node="H100_80GB", system="H100_80GB_4GPU")
    by_text = hespas_py.estimate(mlir.read_text(), node="H100_80GB", system="H100_80GB_4GPU")
    assert by_file.step_time_s == by_text.step_time_s == pytest.approx(
        summary["simulation"]["step_time_s"], rel=1e-9)
    compute_only = hespas_py.estimate(mlir, node="H100_80GB")
    assert compute_only.step_time_s is None
    assert compute_only.compute_s == pytest.approx(summary["compute_estimate_s"])
    with pytest.raises(HespasError, match="not simulated"):
        compute_only.timeline(tmp_path / "t.json")


def test_lowered_step_on_one_device():
    import jax
    import jax.numpy as jnp

    lowered = jax.jit(lambda a, b: jnp.tanh(a @ b)).lower(
        jax.ShapeDtypeStruct((512, 512), jnp.float32), jax.ShapeDtypeStruct((512, 512), jnp.float32))
    report = hespas_py.estimate(lowered, node="H100_80GB")
    assert report.devices == 1 and report.compute_s > 0
    assert any("dot_general" in op["op"] for op in report.top_ops)


def test_bad_steps_are_one_line_errors():
    def local_factory():
        pass

    with pytest.raises(HespasError, match="top level of a .py file"):
        hespas_py.estimate(local_factory, devices=2)
    with pytest.raises(HespasError, match="devices= is needed"):
        hespas_py.estimate(FACTORY)
    with pytest.raises(HespasError, match="ValueError: tp=4 is not supported here"):
        hespas_py.estimate(FACTORY, devices=4, tp=4)


def test_import_stays_cheap():
    code = "import sys, hespas_py; print('hespas_py.api' in sys.modules, 'jax' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


def test_lowered_step_on_several_devices_equals_the_factory(report):
    code = f"""
import jax
jax.config.update("jax_num_cpu_devices", 4)
import importlib.util, sys
sys.path.insert(0, {str(DATA)!r})
import layout_mlp, hespas_py
jitted, args = layout_mlp.mlp_step(dp=2, tp=2, hidden=1024)
r = hespas_py.estimate(jitted.lower(*args), node="H100_80GB", system="H100_80GB_4GPU")
print(r.step_time_s)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout.split()[-1]) == pytest.approx(report.step_time_s, rel=1e-9)


def test_report_shows_memory_when_gen_gives_it(report):
    import dataclasses

    memory = {"peak_bytes": 3 * 2**30, "arguments_bytes": 2**30, "outputs_bytes": 2**30,
              "temporaries_bytes": 2**30, "capacity_bytes": 2**30, "fits": False, "top": []}
    tight = dataclasses.replace(report, memory=memory)
    assert tight.fits is False
    assert "3.00 GiB of 1.00 GiB per device: does NOT fit" in str(tight)


def test_a_system_of_another_size_fails_before_any_output(tmp_path):
    from hespas_py.export import workload_path

    out = tmp_path / "kept"
    with pytest.raises(HespasError, match="H100_80GB_8GPU: the machine has 8 NPUs but the "
                                          "module runs on 4 devices"):
        hespas_py.estimate(str(workload_path("mlp_dp_4dev")), node="H100_80GB",
                           system="H100_80GB_8GPU", out=out)
    assert not out.exists()
