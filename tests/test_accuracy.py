"""``hespas accuracy`` on a tiny stand-in workload and system, and its trend error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hespas_py.cli.accuracy import Case, Measured, Result, plan_cases, read_measured, trend_error
from hespas_py.cli.main import app

TINY = """module @tiny attributes {mhlo.num_replicas = 4 : i32} {
  func.func public @main(%a: tensor<256x256xf32>) -> tensor<256x256xf32> {
    %0 = stablehlo.exponential %a : tensor<256x256xf32>
    %1 = "stablehlo.all_reduce"(%0) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %s = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<256x256xf32>) -> tensor<256x256xf32>
    return %1 : tensor<256x256xf32>
  }
}
"""
NETWORK = "topology: [ FullyConnected ]\nnpus_count: [ 4 ]\nbandwidth: [ 100.0 ]\nlatency: [ 1000.0 ]\n"
SYSTEM = {"scheduling-policy": "LIFO", "endpoint-delay": 1, "preferred-dataset-splits": 1,
          "active-chunks-per-dimension": 1, "collective-optimization": "localBWAware",
          "local-mem-bw": 1555.2, "boost-mode": 0,
          **{f"{c}-implementation": ["direct"]
             for c in ("all-reduce", "all-gather", "reduce-scatter", "all-to-all")}}


@pytest.fixture()
def stand_in(tmp_path: Path) -> list[str]:
    workloads = tmp_path / "workloads"
    workloads.mkdir()
    (workloads / "tiny_train_4dev.mlir").write_text(TINY)
    system = tmp_path / "systems" / "A100_SXM_40GB_4GPU"
    system.mkdir(parents=True)
    (system / "network.yml").write_text(NETWORK)
    (system / "system.json").write_text(json.dumps(SYSTEM))
    measured = tmp_path / "measured.csv"
    measured.write_text("system,workload,runtime_s,note\n"
                        "A100_SXM_40GB_x4,tiny_train,0.001,\n"
                        "A100_SXM_40GB_x4,absent_train,0.5,\n")
    return ["--measured", str(measured), "--workloads", str(workloads),
            "--systems", str(tmp_path / "systems")]


def test_json_has_exactly_the_documented_schema(stand_in):
    result = CliRunner().invoke(app, ["accuracy", "--json", *stand_in])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"rows", "trend_error"}
    (row,) = doc["rows"]
    assert set(row) == {"system", "workload", "estimator", "measured_s", "estimated_s", "error"}
    assert (row["system"], row["workload"], row["estimator"]) == (
        "A100_SXM_40GB_x4", "tiny_train", "fused_roofline")
    assert row["estimated_s"] > 0
    assert row["error"] == pytest.approx(row["estimated_s"] / 0.001 - 1)
    assert doc["trend_error"] is None  # a single row has no pair to compare


def test_table_names_skipped_rows(stand_in):
    result = CliRunner().invoke(app, ["accuracy", "--estimator", "roofline", *stand_in])
    assert result.exit_code == 0, result.output
    assert "tiny_train" in result.stdout and "absent_train" in result.stdout


def test_packaged_table_holds_the_published_rows():
    rows = {(r.system, r.workload): r.runtime_s for r in read_measured()}
    assert rows[("A100_SXM_40GB_x4", "resnet50_train")] == 0.10
    assert rows[("B200_180GB_x4", "llama3-100m_train")] == 0.02
    assert len(rows) == 34


def _result(system: str, workload: str, measured: float, estimated: float) -> Result:
    return Result(Case(Measured(system, workload, measured), "", Path(), Path()),
                  "fused_roofline", estimated)


def test_trend_error_is_the_median_speedup_error_over_related_pairs():
    results = [
        _result("A", "w", 1.0, 2.0),   # A/B: predicted 2.0 / 1.6 = 1.25 vs measured 2 -> 0.375
        _result("B", "w", 0.5, 1.6),
        _result("C", "v", 1.0, 1.0),   # shares nothing with the others
    ]
    pairs = sorted([abs((2.0 / 1.6) / (1.0 / 0.5) - 1), abs((1.6 / 2.0) / (0.5 / 1.0) - 1)])
    assert trend_error(results) == pytest.approx(sum(pairs) / 2)
    assert trend_error(results[2:]) is None


def test_rows_of_unpublished_configurations_need_approximate():
    rows = [Measured("A100_SXM_40GB_x4", "llama3-200m_train", 0.17),
            Measured("A100_SXM_40GB_x4", "llama3-100m_train", 0.09)]
    cases, skipped = plan_cases(rows, [])
    assert [c.measured.workload for c in cases] == ["llama3-100m_train"]
    assert skipped == ["A100_SXM_40GB_x4 llama3-200m_train: configuration not published "
                       "(--approximate evaluates our guess)"]
    cases, skipped = plan_cases(rows, [], approximate=True)
    assert [(c.measured.workload, c.approximate) for c in cases] == [
        ("llama3-200m_train", True), ("llama3-100m_train", False)]
    assert skipped == []
