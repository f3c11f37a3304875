"""``hespas sweep``: plan, rows equal to ``hespas gen --system-config``, variants, resume,
output."""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys

import pytest
import yaml

import hespas_py.sim.trace as trace_module
from hespas_py.errors import HespasError
from hespas_py.export.workloads import workload_path
from hespas_py.hardware import PRESETS_DIR as NODE_PRESETS
from hespas_py.sim.config import PRESETS_DIR
from hespas_py.sweep import runner as runner_module
from hespas_py.sweep import tasks
from hespas_py.sweep.backends import InProcess
from hespas_py.sweep.plan import make_plan
from hespas_py.sweep.runner import Work, run_sweep
from hespas_py.sweep.spec import load_spec
from hespas_py.sweep.store import Store
from sweep_helpers import SMALL_SPEC, hespas, write_spec


@pytest.fixture
def small(tmp_path):
    return write_spec(tmp_path, SMALL_SPEC)


def test_plan_makes_traces_once_per_workload_node_estimator_split(small):
    plan = make_plan(load_spec(small))
    assert len(plan.traces) == 2 * 2  # workloads x nodes (one estimator, one split)
    assert len(plan.points) == 2 * 2 * 2 * 2  # ... x systems x variants
    assert len({p.traces for p in plan.points}) == 4
    assert plan.variant_keys == ("bandwidth_scale",)


def test_sweep_skips_device_count_mismatch_with_reason(small, tmp_path):
    plan = make_plan(load_spec(small))
    result = run_sweep(plan, Store(tmp_path / "store"), InProcess())
    assert result.work == Work(traces_made=4, points_simulated=8)
    assert {(r["workload"], r["system"]) for r in result.rows} == {
        ("mlp_dp_4dev", "H100_80GB_4GPU"), ("mesh2x4_8dev", "H100_80GB_8GPU")}
    assert len(result.rows) == len(result.skipped) == 8
    assert {s["reason"] for s in result.skipped} == {
        "mlp_dp_4dev runs on 4 devices, H100_80GB_8GPU has 8 NPUs",
        "mesh2x4_8dev runs on 8 devices, H100_80GB_4GPU has 4 NPUs"}
    assert all(s["bandwidth_scale"] in (1, 0.5) for s in result.skipped)


def test_rerun_does_no_work(small, tmp_path, monkeypatch):
    plan = make_plan(load_spec(small))
    first = run_sweep(plan, Store(tmp_path / "store"), InProcess())

    def forbidden(*_):
        raise AssertionError("work was redone")
    monkeypatch.setattr(runner_module, "make_traces", forbidden)
    monkeypatch.setattr(runner_module, "simulate_points", forbidden)
    again = run_sweep(plan, Store(tmp_path / "store"), InProcess())
    assert again.rows == first.rows and again.skipped == first.skipped
    assert again.work == Work(traces_reused=4, points_reused=8)  # traces read for the skips


@pytest.mark.parametrize("damage", ["{not json", '{"step_time_s": 1e999, "compute_s": 0, '
                                    '"comm_s": 0, "exposed_comm_s": 0}',
                                    '{"step_time_s": "slow"}', "null"])
def test_damaged_point_entry_is_simulated_again(tmp_path, damage):
    store = Store(tmp_path / "store")
    store.put_point("ab12", tasks.Figures(1.0, 0.5, 0.5, 0.25))
    assert store.point("ab12") == tasks.Figures(1.0, 0.5, 0.5, 0.25)
    next((tmp_path / "store").rglob("ab12.json")).write_text(damage)
    assert store.point("ab12") is None


class Interrupting(InProcess):
    """Stops (as Ctrl-C would) after ``results`` tasks have finished."""

    def __init__(self, results: int) -> None:
        super().__init__()
        self.left = results

    def next_done(self):
        if self.left == 0:
            raise KeyboardInterrupt
        self.left -= 1
        return super().next_done()


def test_interrupted_sweep_resumes_where_it_stopped(small, tmp_path):
    plan = make_plan(load_spec(small))
    store = Store(tmp_path / "store")
    with pytest.raises(KeyboardInterrupt):
        run_sweep(plan, store, Interrupting(5))  # 4 trace sets, 1 batch of points
    resumed = run_sweep(plan, store, InProcess())
    assert resumed.work.traces_made == 0 and resumed.work.traces_reused == 4
    assert resumed.work.points_reused > 0
    assert resumed.work.points_reused + resumed.work.points_simulated == 8
    fresh = run_sweep(plan, Store(tmp_path / "fresh"), InProcess())
    assert resumed.rows == fresh.rows


def test_same_machine_twice_is_simulated_once(tmp_path):
    spec = dict(SMALL_SPEC, workloads=["mlp_dp_4dev"], nodes=["H100_80GB"],
                systems=["H100_80GB_4GPU"], variants={"bandwidth": [150, 75],
                                                      "bandwidth_scale": [1, 2]})
    result = run_sweep(make_plan(load_spec(write_spec(tmp_path, spec))),
                       Store(tmp_path / "store"), InProcess())
    assert len(result.rows) == 4
    assert result.work.points_simulated == 3  # 150 GB/s x 1 and 75 GB/s x 2 are one machine
    by = {(r["bandwidth"], r["bandwidth_scale"]): r["step_time_s"] for r in result.rows}
    assert by[150, 1] == by[75, 2] != by[75, 1]


def _gen_json(capsys, monkeypatch, tmp_path, config, workload, system) -> dict:
    code, stdout, _ = hespas(capsys, monkeypatch, "gen", config, "--mlir_file", workload,
                             "--output", tmp_path / "gen", "--clean", "--system-config", system,
                             "--json")
    assert code == 0
    return json.loads(stdout)


def test_row_step_time_equals_hespas_gen_system_config(tmp_path, capsys, monkeypatch):
    config = NODE_PRESETS / "A100_SXM_40GB" / "fused_roofline" / "config.json"
    shutil.copytree(PRESETS_DIR / "A100_SXM_40GB_4GPU", tmp_path / "machine")
    spec = {"workloads": ["mlp_fsdp_4dev", "pipeline_4dev"], "nodes": [str(config)],
            "systems": ["A100_SXM_40GB_4GPU", "machine"], "estimator": "fused_roofline"}
    code, stdout, _ = hespas(capsys, monkeypatch, "sweep", write_spec(tmp_path, spec), "--out",
                             tmp_path / "out", "--json", "--jobs", "1")
    assert code == 0
    rows = json.loads(stdout)["rows"]
    assert len(rows) == 4
    for row in rows:
        system = row["system"] if row["system"] != "machine" else tmp_path / "machine"
        gen = _gen_json(capsys, monkeypatch, tmp_path, config, workload_path(row["workload"]),
                        system)
        assert row["step_time_s"] == gen["simulation"]["step_time_s"]
        worst = max(gen["simulation"]["devices"], key=lambda d: d["wall_time_ns"])
        assert row["exposed_comm_s"] == worst["exposed_comm_ns"] * 1e-9
        assert row["compute_s"] == worst["gpu_time_ns"] * 1e-9


def test_bandwidth_variant_equals_a_system_with_that_bandwidth(tmp_path):
    folder = tmp_path / "slow"
    shutil.copytree(PRESETS_DIR / "H100_80GB_4GPU" / "astra-sim", folder)
    network = yaml.safe_load((folder / "network.yml").read_text())
    network["bandwidth"] = [b * 0.25 for b in network["bandwidth"]]
    (folder / "network.yml").write_text(yaml.safe_dump(network))
    spec = {"workloads": ["mlp_fsdp_4dev"], "nodes": ["H100_80GB"], "estimator": "roofline",
            "systems": ["H100_80GB_4GPU", "slow"], "variants": {"bandwidth_scale": [0.25, 1]}}
    result = run_sweep(make_plan(load_spec(write_spec(tmp_path, spec))),
                       Store(tmp_path / "store"), InProcess())
    by = {(r["system"], r["bandwidth_scale"]): r["step_time_s"] for r in result.rows}
    assert by["H100_80GB_4GPU", 0.25] == by["slow", 1] > by["H100_80GB_4GPU", 1]


def test_results_files_json_and_summary(small, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    code, stdout, _ = hespas(capsys, monkeypatch, "sweep", small, "--out", out, "--json")
    assert code == 0
    printed = json.loads(stdout)
    assert printed == json.loads((out / "results.json").read_text())
    assert set(printed) == {"rows", "skipped"}
    assert list(printed["rows"][0]) == ["workload", "node", "system", "estimator", "step_time_s",
                                        "compute_s", "comm_s", "exposed_comm_s", "peak_bytes",
                                        "fits", "bandwidth_scale"]
    with (out / "results.csv").open() as stream:
        table = list(csv.DictReader(stream))
    assert [float(r["step_time_s"]) for r in table] == [r["step_time_s"] for r in printed["rows"]]
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary left
    code, stdout, _ = hespas(capsys, monkeypatch, "sweep", small, "--out", out)
    best = min((r for r in printed["rows"] if r["workload"] == "mesh2x4_8dev"),
               key=lambda r: r["step_time_s"])
    assert code == 0 and "best point per workload" in stdout
    assert f"{best['step_time_s'] * 1e3:,.3f}" in stdout
    assert "points: 0 simulated, 8 reused" in stdout


def test_failed_traces_are_skipped_with_the_error(tmp_path):
    (tmp_path / "broken.mlir").write_text("module {\n  func.func @main( {\n")
    spec = dict(SMALL_SPEC, workloads=["broken.mlir", "mlp_dp_4dev"])
    result = run_sweep(make_plan(load_spec(write_spec(tmp_path, spec))),
                       Store(tmp_path / "store"), InProcess())
    broken = [s for s in result.skipped if s["workload"] == "broken.mlir"]
    assert len(broken) == 8 and all("broken.mlir" in s["reason"] for s in broken)
    assert {r["workload"] for r in result.rows} == {"mlp_dp_4dev"}


def test_plot(small, tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")
    code, _, _ = hespas(capsys, monkeypatch, "sweep", small, "--out", tmp_path / "out", "--plot",
                        tmp_path / "steps.png")
    assert code == 0
    assert (tmp_path / "steps.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_one_line(small, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, _, stderr = hespas(capsys, monkeypatch, "sweep", small, "--out", tmp_path / "out",
                             "--plot", tmp_path / "steps.png")
    assert code == 2 and stderr == "error: --plot needs matplotlib: pip install 'hespas_py[plot]'\n"
    assert not (tmp_path / "out").exists()


def test_trace_set_is_parsed_once_per_worker(tmp_path, monkeypatch):
    parsed = []

    def counting(paths, real=trace_module.load_traces):
        parsed.append(len(paths))
        return real(paths)
    monkeypatch.setattr(tasks, "load_traces", counting)
    tasks._parsed_sets.clear()
    spec = dict(SMALL_SPEC, workloads=["mlp_dp_4dev"], nodes=["H100_80GB"],
                systems=["H100_80GB_4GPU"], variants={"bandwidth_scale": [0.5, 1, 2, 4]})
    result = run_sweep(make_plan(load_spec(write_spec(tmp_path, spec))),
                       Store(tmp_path / "store"), InProcess())
    assert result.work.points_simulated == 4 and parsed == [4]


def _die(_: object) -> None:
    os._exit(9)  # as a worker the kernel kills for memory


def test_a_worker_that_dies_is_one_error_line():
    from hespas_py.sweep.backends import ProcessPool

    pool = ProcessPool(1)
    try:
        pool.submit(_die, None, "trace set abc")
        with pytest.raises(HespasError, match="a worker process died .* while running trace set "
                                              "abc; finished work is kept: rerun with fewer --jobs"):
            pool.next_done()
    finally:
        pool.close()
