"""Peak memory where users see it: ``hespas gen`` (JSON summary, ``module_stats.json``, table) and
``hespas sweep`` (``peak_bytes``/``fits`` columns, ``fits_only``)."""

from __future__ import annotations

import json

from hespas_py.export.workloads import workload_path
from hespas_py.hardware import PRESETS_DIR as NODE_PRESETS
from hespas_py.memory import peak_of_file
from hespas_py.units import gib
from sweep_helpers import hespas, write_spec

WORKLOAD = "mlp_dp_4dev"


def _node_with_capacity(tmp_path, name: str, hbm_bytes: int) -> str:
    config = json.loads((NODE_PRESETS / "H100_80GB" / "roofline" / "config.json").read_text())
    config["perf_estimator"]["hardware"]["hbm_bytes"] = hbm_bytes
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(config))
    return str(path)


def test_gen_reports_memory_in_json_stats_and_table(tmp_path, capsys, monkeypatch):
    peak = peak_of_file(workload_path(WORKLOAD)).peak_bytes
    out = tmp_path / "out"
    code, stdout, _ = hespas(capsys, monkeypatch, "gen", "H100_80GB", "--mlir_file",
                             workload_path(WORKLOAD), "--output", out, "--json")
    assert code == 0
    memory = json.loads(stdout)["memory"]
    assert memory == json.loads((out / "module_stats.json").read_text())["memory"]
    assert memory["peak_bytes"] == peak == (memory["arguments_bytes"] + memory["outputs_bytes"]
                                            - memory["alias_bytes"] + memory["temporaries_bytes"])
    assert memory["capacity_bytes"] == 80 << 30 and memory["fits"] is True
    small = _node_with_capacity(tmp_path, "small", peak - 1)
    code, stdout, _ = hespas(capsys, monkeypatch, "gen", small, "--mlir_file",
                             workload_path(WORKLOAD), "--output", out, "--clean")
    assert code == 0
    assert f"{gib(peak)} GiB of {gib(peak - 1)} GiB per device: does NOT fit" in \
        stdout.replace("\n", " ")


def test_sweep_rows_carry_peak_and_fit_and_fits_only_skips(tmp_path, capsys, monkeypatch):
    peak = peak_of_file(workload_path(WORKLOAD)).peak_bytes
    small = _node_with_capacity(tmp_path, "small", peak - 1)
    spec = {"workloads": [WORKLOAD], "nodes": ["H100_80GB", small],
            "systems": ["H100_80GB_4GPU"], "estimator": "roofline"}
    code, stdout, _ = hespas(capsys, monkeypatch, "sweep", write_spec(tmp_path, spec), "--out",
                             tmp_path / "all", "--json", "--jobs", "1")
    assert code == 0
    rows = json.loads(stdout)["rows"]
    assert [(r["node"], r["peak_bytes"], r["fits"]) for r in rows] == [
        ("H100_80GB", peak, True), (small, peak, False)]
    spec["fits_only"] = True
    code, stdout, _ = hespas(capsys, monkeypatch, "sweep", write_spec(tmp_path, spec), "--out",
                             tmp_path / "fit", "--json", "--jobs", "1")
    result = json.loads(stdout)
    assert [r["node"] for r in result["rows"]] == ["H100_80GB"]
    assert result["skipped"] == [{"workload": WORKLOAD, "node": small, "system": "H100_80GB_4GPU",
                                  "estimator": "roofline", "reason": (
                                      f"{WORKLOAD} needs {gib(peak)} GiB per device, {small} "
                                      f"has {gib(peak - 1)} GiB (fits_only)")}]


def test_sweep_summary_names_the_best_point_that_fits(tmp_path, capsys, monkeypatch):
    # The node that does not fit is the faster one (more bandwidth): the summary skips it.
    peak = peak_of_file(workload_path(WORKLOAD)).peak_bytes
    config = json.loads((NODE_PRESETS / "H100_80GB" / "roofline" / "config.json").read_text())
    config["perf_estimator"]["hardware"].update(hbm_bytes=peak - 1, memory_bandwidth=1e14)
    fast = tmp_path / "fast.json"
    fast.write_text(json.dumps(config))
    spec = {"workloads": [WORKLOAD], "nodes": ["A100_SXM_40GB", str(fast)],
            "systems": ["H100_80GB_4GPU"], "estimator": "roofline"}
    code, stdout, _ = hespas(capsys, monkeypatch, "sweep", write_spec(tmp_path, spec), "--out",
                             tmp_path / "out", "--jobs", "1")
    assert code == 0
    table = stdout.split("rows,")[0]
    assert "A100_SXM_40GB" in table and "fast.json" not in table
    code, stdout, _ = hespas(capsys, monkeypatch, "sweep", write_spec(tmp_path, dict(
        spec, nodes=[str(fast)])), "--out", tmp_path / "none", "--jobs", "1")
    assert f"{WORKLOAD}: no point fits in memory" in stdout


def test_fits_only_must_be_a_flag(tmp_path, capsys, monkeypatch):
    spec = {"workloads": [WORKLOAD], "nodes": ["H100_80GB"], "systems": ["H100_80GB_4GPU"],
            "fits_only": "yes"}
    code, _, stderr = hespas(capsys, monkeypatch, "sweep", write_spec(tmp_path, spec), "--out",
                             tmp_path / "out")
    assert code == 2 and stderr.strip().endswith("fits_only must be true or false")
