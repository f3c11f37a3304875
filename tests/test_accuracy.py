"""``hespas accuracy`` on tiny stand-in workloads and systems: groups, counted rows, trend errors,
the estimator params a group adds for flash-attention rows, and the plot."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hespas_py.accuracy.cases import Case, plan_cases
from hespas_py.accuracy.evaluate import Result, evaluate, row_params, trend_error
from hespas_py.accuracy.rows import (
    GROUPS,
    SCALE_COLUMNS,
    Group,
    Row,
    groups,
    parse_hespas,
    parse_scale,
)
from hespas_py.cli.main import app
from hespas_py.errors import HespasError
from hespas_py.hardware import find_preset
from hespas_py.hardware.presets import write_preset

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
ROW_KEYS = {"group", "row", "system", "workload", "estimator", "node", "system_preset", "params",
            "measured_s", "estimated_s", "error", "counted", "reason", "note", "combine_threshold",
            "measured_peak_bytes", "estimated_peak_bytes", "memory_error"}


def scale_table(rows: list[dict]) -> str:
    """A table in the scale group's format; unspecified columns get stand-in values."""
    base = {"row": "", "model": "tiny", "kernels": "xla-bf16", "system": "A100_SXM_40GB_x4",
            "workload": "tiny_train", "node": "A100_SXM_40GB", "system_preset": "tiny_4",
            "attention": "flash", "counted": "true", "reason": "", "note": "", "measured_s": "0.001"}
    lines = [",".join(SCALE_COLUMNS)]
    lines += [",".join({**base, **r}[c] for c in SCALE_COLUMNS) for r in rows]
    return "\n".join(lines) + "\n"


@pytest.fixture()
def stand_in(tmp_path: Path) -> dict[str, Path]:
    workloads = tmp_path / "workloads"
    workloads.mkdir()
    (workloads / "tiny_train_4dev.mlir").write_text(TINY)
    for name in ("A100_SXM_40GB_4GPU", "tiny_4"):
        system = tmp_path / "systems" / name
        system.mkdir(parents=True)
        (system / "network.yml").write_text(NETWORK)
        (system / "system.json").write_text(json.dumps(SYSTEM))
    hespas = tmp_path / "measured.csv"
    hespas.write_text("system,workload,runtime_s,note\n"
                      "A100_SXM_40GB_x4,tiny_train,0.001,\n"
                      "A100_SXM_40GB_x4,absent_train,0.5,\n")
    scale = tmp_path / "scale.csv"
    scale.write_text(scale_table([
        {"row": "tiny fast", "measured_s": "0.001"},
        {"row": "tiny slow", "measured_s": "0.002"},
        {"row": "tiny te", "kernels": "te-bf16", "counted": "false", "reason": "Transformer Engine"},
        {"row": "tiny elsewhere", "system_preset": "no_such_system"},
    ]))
    return {"workloads": workloads, "systems": tmp_path / "systems", "hespas": hespas, "scale": scale}


def options(stand_in: dict[str, Path], table: str) -> list[str]:
    return ["--measured", str(stand_in[table]), "--workloads", str(stand_in["workloads"]),
            "--systems", str(stand_in["systems"])]


def test_json_has_exactly_the_documented_schema(stand_in):
    result = CliRunner().invoke(app, ["accuracy", "--json", *options(stand_in, "hespas")])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"rows", "groups", "skipped"}
    (row,) = doc["rows"]
    assert set(row) == ROW_KEYS
    assert (row["group"], row["row"], row["system"], row["estimator"], row["counted"]) == (
        "hespas", "tiny_train", "A100_SXM_40GB_x4", "fused_roofline", True)
    assert row["reason"] is None and row["params"] == {}
    assert row["estimated_s"] > 0
    assert row["error"] == pytest.approx(row["estimated_s"] / 0.001 - 1)
    assert doc["groups"] == {"hespas": {"counted": 1, "within_15": int(abs(row["error"]) <= 0.15),
                                        "trend_error": None,  # a single row has no pair to compare
                                        "memory_rows": 0, "memory_within_10": 0}}
    assert row["measured_peak_bytes"] is None and row["memory_error"] is None
    assert row["estimated_peak_bytes"] > 0
    assert doc["skipped"] == [{"group": "hespas", "row": "absent_train", "system": "A100_SXM_40GB_x4",
                               "reason": "no StableHLO for absent_train"}]


def test_scale_group_rows_carry_group_counted_and_reason(stand_in):
    result = CliRunner().invoke(app, ["accuracy", "--json", "--group", "scale", *options(stand_in, "scale")])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    rows = {r["row"]: r for r in doc["rows"]}
    assert set(rows) == {"tiny fast", "tiny slow", "tiny te"}
    assert all(r["group"] == "scale" and set(r) == ROW_KEYS for r in rows.values())
    assert [rows[n]["counted"] for n in ("tiny fast", "tiny slow", "tiny te")] == [True, True, False]
    assert rows["tiny te"]["reason"] == "Transformer Engine" and rows["tiny fast"]["reason"] is None
    assert rows["tiny fast"]["system_preset"] == "tiny_4" and rows["tiny fast"]["node"] == "A100_SXM_40GB"
    # The same program estimated twice; measured 2x apart: each predicted speed-up is off by 2x or 1/2.
    assert doc["groups"]["scale"]["counted"] == 2
    assert doc["groups"]["scale"]["trend_error"] == pytest.approx(0.75)
    assert doc["skipped"] == [{"group": "scale", "row": "tiny elsewhere", "system": "A100_SXM_40GB_x4",
                               "reason": "no system preset no_such_system"}]


def test_table_names_groups_and_skipped_rows(stand_in):
    result = CliRunner().invoke(app, ["accuracy", "--estimator", "roofline", *options(stand_in, "hespas")],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "tiny_train" in result.stdout and "absent_train" in result.stdout
    assert "hespas (roofline): " in result.stdout


def test_measured_table_needs_one_group(stand_in):
    with pytest.raises(HespasError, match="--measured replaces the table of one group"):
        evaluate(groups(["all"]), ["roofline"], stand_in["hespas"])


def test_groups_select_by_name():
    assert [g.name for g in groups(None)] == ["hespas"]
    assert [g.name for g in groups(["all"])] == list(GROUPS)
    assert [g.name for g in groups(["scale", "scale"])] == ["scale"]
    with pytest.raises(HespasError, match="unknown accuracy group 'nope'"):
        groups(["nope"])


def test_flash_rows_get_the_group_params_their_estimator_accepts(stand_in):
    # roofline accepts f32_matmul_as_tf32, so a group may pass it; a name it lacks is not passed.
    group = dataclasses.replace(GROUPS["scale"], flash_params={"roofline": {"f32_matmul_as_tf32": True},
                                                               "fused_roofline": {"no_such_param": True}})
    table = scale_table([{"row": "f"}, {"row": "p", "attention": "materialized"}])
    flash, plain = parse_scale(table, "t", "scale")
    assert row_params(group, flash, "roofline") == ({"f32_matmul_as_tf32": True}, "")
    assert row_params(group, plain, "roofline") == ({}, "")
    assert row_params(group, flash, "fused_roofline") == (
        {}, "fused attention not modelled by fused_roofline")
    evaluation = evaluate([group], ["roofline"], stand_in["scale"], [stand_in["workloads"]],
                          stand_in["systems"])
    params = {r.row.name: dict(r.params) for r in evaluation.results}
    assert params["tiny fast"] == {"f32_matmul_as_tf32": True}


def test_command_line_params_reach_every_row_and_are_checked(stand_in):
    evaluation = evaluate(groups(["hespas"]), ["roofline"], stand_in["hespas"],
                          [stand_in["workloads"]], stand_in["systems"],
                          params=["f32_matmul_as_tf32=true"])
    assert all(dict(r.params) == {"f32_matmul_as_tf32": True} for r in evaluation.results)
    with pytest.raises(HespasError, match="--param: unknown key fused_attention .*"
                                          r"\(estimator roofline\)"):
        evaluate(groups(["hespas"]), ["roofline"], stand_in["hespas"], [stand_in["workloads"]],
                 stand_in["systems"], params=["fused_attention=true"])


def test_scale_table_rejects_bad_rows():
    with pytest.raises(HespasError, match="line 2: a row that is not counted needs a reason"):
        parse_scale(scale_table([{"row": "x", "counted": "false"}]), "t.csv", "scale")
    with pytest.raises(HespasError, match="line 2: attention must be one of flash, materialized"):
        parse_scale(scale_table([{"row": "x", "attention": "fused"}]), "t.csv", "scale")
    with pytest.raises(HespasError, match="t.csv: missing columns kernels, system"):
        parse_scale("row,model\n", "t.csv", "scale")


def test_packaged_tables_hold_the_published_rows():
    rows = {(r.system, r.name): r.measured_s for r in GROUPS["hespas"].rows()}
    assert rows[("A100_SXM_40GB_x4", "resnet50_train")] == 0.10
    assert rows[("B200_180GB_x4", "llama3-100m_train")] == 0.02
    assert len(rows) == 34
    scale = GROUPS["scale"].rows()
    assert len(scale) == 30 and len({r.name for r in scale}) == 30
    # Rows of Transformer Engine or fp8 runs never count: our programs are plain XLA.
    assert all(r.counted == (" xla-bf16 " in r.name) for r in scale)
    assert all(r.reason for r in scale if not r.counted)


def test_packaged_scale_rows_equal_the_reference_table(shared_dir: Path):
    with open(shared_dir / "reference" / "measured" / "scale_step_times.csv") as f:
        reference = [(int(r["devices"]), float(r["step_time_s"])) for r in csv.DictReader(f)]
    ours = [(int(r.system.rpartition("_x")[2]), r.measured_s) for r in GROUPS["scale"].rows()]
    assert ours == reference


def test_every_packaged_scale_row_has_its_shipped_workload():
    from hespas_py.export import workload_names

    assert {r.workload for r in GROUPS["scale"].rows()} <= set(workload_names())


def _result(system: str, workload: str, measured: float, estimated: float) -> Result:
    row = Row("hespas", workload, system, workload, measured, (workload, system))
    return Result(Case(row, "", Path(), Path()), "fused_roofline", estimated)


def test_trend_error_is_the_median_speedup_error_over_related_pairs():
    results = [
        _result("A", "w", 1.0, 2.0),   # A/B: predicted 2.0 / 1.6 = 1.25 vs measured 2 -> 0.375
        _result("B", "w", 0.5, 1.6),
        _result("C", "v", 1.0, 1.0),   # shares nothing with the others
    ]
    pairs = sorted([abs((2.0 / 1.6) / (1.0 / 0.5) - 1), abs((1.6 / 2.0) / (0.5 / 1.0) - 1)])
    assert trend_error(results) == pytest.approx(sum(pairs) / 2)
    assert trend_error(results[2:]) is None


def test_rows_of_unpublished_configurations_need_approximate_and_do_not_count():
    rows = parse_hespas("system,workload,runtime_s\nA100_SXM_40GB_x4,llama3-200m_train,0.17\n"
                        "A100_SXM_40GB_x4,llama3-100m_train,0.09\n", "t.csv", "hespas")
    cases, skipped = plan_cases(rows, [])
    assert [c.row.name for c in cases] == ["llama3-100m_train"]
    assert [(row.name, reason) for row, reason in skipped] == [
        ("llama3-200m_train", "configuration not published (--approximate evaluates our guess)")]
    cases, skipped = plan_cases(rows, [], approximate=True)
    assert [(c.row.name, c.row.counted) for c in cases] == [("llama3-200m_train", False),
                                                            ("llama3-100m_train", True)]
    assert skipped == []


def test_plot_draws_every_group(stand_in, tmp_path: Path):
    pytest.importorskip("matplotlib")
    from hespas_py.accuracy.plot import plot

    evaluation = evaluate([GROUPS["scale"]], ["roofline"], stand_in["scale"], [stand_in["workloads"]],
                          stand_in["systems"])
    hespas = evaluate([GROUPS["hespas"]], ["roofline"], stand_in["hespas"], [stand_in["workloads"]],
                      stand_in["systems"])
    out = tmp_path / "accuracy.png"
    plot(hespas.results + evaluation.results, out)
    assert out.read_bytes().startswith(b"\x89PNG")


def test_plot_without_matplotlib_is_one_clear_error(monkeypatch, tmp_path: Path):
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    from hespas_py.accuracy.plot import plot

    with pytest.raises(HespasError, match="--plot needs matplotlib"):
        plot([_result("A", "w", 1.0, 1.0)], tmp_path / "x.png")


def test_group_title_and_table_of_every_group():
    assert all(isinstance(g, Group) and g.title and g.rows() for g in GROUPS.values())


def test_a_preset_folder_stands_in_for_a_node_preset(stand_in, tmp_path):
    """``--node NAME=DIR``: the rows of node preset NAME run on the preset folder DIR (a
    calibrated preset): its figures, and its path in the row; ``--node DIR``: every row."""
    a100 = find_preset("A100_SXM_40GB")
    folder = tmp_path / "slow_a100"
    write_preset(folder, {"datasheet": a100.datasheet,
                          "hardware": {**a100.hardware, "memory_bandwidth": 1e9,
                                       "peak_flops": 1e9, "per_datatype_flops": {}}})
    args = ["accuracy", "--json", "--estimator", "roofline", *options(stand_in, "hespas")]
    plain = json.loads(CliRunner().invoke(app, args).stdout)["rows"][0]
    result = CliRunner().invoke(app, [*args, "--node", f"A100_SXM_40GB={folder}"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["rows"]
    assert row["node"] == str(folder) and row["estimated_s"] > 10 * plain["estimated_s"]
    every = json.loads(CliRunner().invoke(app, [*args, "--node", str(folder)]).stdout)["rows"]
    assert every == [row]
    other = json.loads(CliRunner().invoke(app, [*args, "--node", f"TPUv4={folder}"]).stdout)
    assert other["rows"] == [plain]
    with pytest.raises(HespasError, match=r"expected \[NAME=\]PRESET"):
        CliRunner().invoke(app, [*args, "--node", f"={folder}"], catch_exceptions=False)
