"""``hespas search``: layouts, rows equal to ``hespas export --set`` + ``hespas gen``, skipped
layouts, resume, ranking by memory fit."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.export import export_file
from hespas_py.search.layouts import assignments, layouts
from hespas_py.search.run import SearchSpec, rank, run_search
from hespas_py.sweep.backends import InProcess
from hespas_py.sweep.store import Store
from sweep_helpers import hespas

DATA = Path(__file__).resolve().parent / "data"
FACTORY = f"{DATA / 'layout_mlp.py'}:mlp_step"
SYSTEM = "H100_80GB_4GPU"


@pytest.fixture(scope="module")
def searched(tmp_path_factory):
    """One search of the MLP over dp, tp on 4 devices with two hidden widths, through the CLI."""
    out = tmp_path_factory.mktemp("search") / "out"
    monkeypatch = pytest.MonkeyPatch()
    capsys_out = _run_cli(monkeypatch, "search", FACTORY, "--devices", 4, "--axes", "dp,tp",
                          "--node", "H100_80GB", "--system", SYSTEM, "--set", "hidden=512,1024",
                          "--out", out, "--json", "--jobs", 2)
    monkeypatch.undo()
    return out, capsys_out


def _run_cli(monkeypatch, *args):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "from hespas_py.cli.main import main; main()",
                           *map(str, args)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def test_assignments_enumerate_every_factorisation():
    assert len(assignments(8, ("dp", "fsdp", "tp"))) == 10
    assert len(assignments(256, ("dp", "fsdp", "tp"))) == 45
    assert assignments(4, ("dp", "tp")) == [{"dp": 1, "tp": 4}, {"dp": 2, "tp": 2},
                                            {"dp": 4, "tp": 1}]
    crossed = layouts(2, ("dp", "tp"), {"batch": [1, 2], "remat": ["full"]})
    assert [(c["dp"], c["tp"], c["batch"], c["remat"]) for c in crossed] == [
        (1, 2, 1, "full"), (1, 2, 2, "full"), (2, 1, 1, "full"), (2, 1, 2, "full")]
    with pytest.raises(HespasError, match="--set dp: dp is an axis"):
        layouts(2, ("dp",), {"dp": [1]})
    with pytest.raises(HespasError, match="named twice"):
        assignments(2, ("dp", "dp"))


def test_rank_puts_layouts_that_do_not_fit_last():
    rows = [{"step_time_s": 1.0, "fits": False}, {"step_time_s": 3.0, "fits": True},
            {"step_time_s": 2.0, "fits": None}, {"step_time_s": 0.5, "fits": False},
            {"step_time_s": 2.5, "fits": True}]
    assert [r["step_time_s"] for r in rank(rows)] == [2.0, 2.5, 3.0, 0.5, 1.0]


def test_search_rows_and_skipped_layouts(searched):
    out, (code, stdout, stderr) = searched
    assert code == 0, stderr
    doc = json.loads(stdout)
    assert doc == json.loads((out / "results.json").read_text())
    rows, skipped = doc["rows"], doc["skipped"]
    assert sorted((r["dp"], r["tp"], r["hidden"]) for r in rows) == [
        (2, 2, 512), (2, 2, 1024), (4, 1, 512), (4, 1, 1024)]
    assert [r["step_time_s"] for r in rows] == sorted(r["step_time_s"] for r in rows)
    assert all(r["peak_bytes"] > 0 and r["fits"] is True for r in rows)
    assert [(s["dp"], s["tp"], s["hidden"]) for s in skipped] == [(1, 4, 512), (1, 4, 1024)]
    assert all("ValueError: tp=4 is not supported here" in s["reason"] for s in skipped)
    with (out / "results.csv").open() as stream:
        table = list(csv.DictReader(stream))
    assert list(table[0])[:8] == ["dp", "tp", "hidden", "node", "system", "estimator",
                                  "step_time_s", "compute_s"]
    assert len(table) == 4


def test_a_search_row_equals_export_and_gen_of_that_layout(searched, tmp_path):
    out, (_, stdout, _) = searched
    row = next(r for r in json.loads(stdout)["rows"] if (r["dp"], r["tp"], r["hidden"]) == (2, 2, 1024))
    mlir = tmp_path / "step.mlir"
    code, _, err = _run_cli(None, "export", FACTORY, "--devices", 4, "--set", "dp=2", "--set", "tp=2",
                            "--set", "hidden=1024", "--out", mlir)
    assert code == 0, err
    code, text, err = _run_cli(None, "gen", "configs/nodes/H100_80GB/fused_roofline/config.json",
                               "--mlir_file", mlir, "--output", tmp_path / "gen", "--json",
                               "--system-config", SYSTEM)
    assert code == 0, err
    simulation = json.loads(text)["simulation"]
    assert row["step_time_s"] == pytest.approx(simulation["step_time_s"], rel=1e-3)


def test_a_rerun_reuses_every_export_and_point(searched, tmp_path):
    out, (_, stdout, _) = searched
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    spec = SearchSpec(FACTORY, 4, ("dp", "tp"), {"hidden": [512, 1024]}, ("H100_80GB",), (SYSTEM,))
    result = run_search(spec, Store(copy / "store"), InProcess())
    assert (result.exports_made, result.exports_reused) == (2, 4)  # the refused layouts re-run
    assert result.as_json() == json.loads(stdout)
    pytest.importorskip("matplotlib")
    from hespas_py.search.results import plot_layouts

    plot_layouts(result, tmp_path / "layouts.png")
    assert (tmp_path / "layouts.png").stat().st_size > 1000


def test_bad_factory_skips_every_layout_with_one_line(tmp_path):
    spec = SearchSpec(f"{DATA / 'layout_mlp.py'}:missing", 2, ("dp", "tp"), {}, ("H100_80GB",),
                      ("H100_80GB_4GPU",))
    result = run_search(spec, Store(tmp_path / "store"), InProcess())
    assert result.rows == ()
    assert [s["reason"] for s in result.skipped] == [f"{DATA / 'layout_mlp.py'}: has no function "
                                                     "named missing"] * 2


def test_bad_options_are_one_line_before_any_work(tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    code, _, err = hespas(capsys, monkeypatch, "search", FACTORY, "--devices", 4, "--axes", "dp,tp",
                          "--node", "H100_80GB", "--system", "NoSuchSystem", "--out", out)
    assert code == 2 and err.count("\n") == 1 and "NoSuchSystem" in err
    code, _, err = hespas(capsys, monkeypatch, "search", "nowhere.py:f", "--devices", 4, "--axes",
                          "dp", "--node", "H100_80GB", "--system", SYSTEM, "--out", out)
    assert code == 2 and err == "error: nowhere.py: no such file\n"
    assert not out.exists()


def test_export_many_equals_export_file():
    from hespas_py.export.batch import ExportJob, export_many

    texts = export_many(FACTORY, [ExportJob(4, {"crash": True}), ExportJob(4, {"tp": 4}),
                                  ExportJob(4, {"dp": 2, "tp": 2})])
    assert isinstance(texts[0], HespasError) and "killed by signal 6" in str(texts[0])
    assert isinstance(texts[1], HespasError) and "tp=4 is not supported" in str(texts[1])
    assert texts[2] == export_file(FACTORY, 4, kwargs={"dp": 2, "tp": 2})


def test_system_variants_cross_the_layouts(searched, tmp_path):
    out, (_, stdout, _) = searched
    copy = tmp_path / "out"
    shutil.copytree(out, copy)
    spec = SearchSpec(FACTORY, 4, ("dp", "tp"), {"hidden": [1024]}, ("H100_80GB",), (SYSTEM,),
                      variants={"bandwidth_scale": [1, 0.25]})
    result = run_search(spec, Store(copy / "store"), InProcess())
    assert result.variant_keys == ("bandwidth_scale",) and len(result.rows) == 4
    plain = {(r["dp"], r["tp"]): r["step_time_s"] for r in json.loads(stdout)["rows"]
             if r["hidden"] == 1024}
    for row in result.rows:
        slower = row["step_time_s"] >= plain[row["dp"], row["tp"]]
        assert row["step_time_s"] == plain[row["dp"], row["tp"]] if row["bandwidth_scale"] == 1 else slower



@pytest.mark.filterwarnings("ignore:os.fork:RuntimeWarning")
def test_ray_backend_gives_the_rows_of_the_local_pool(searched, tmp_path, capsys, monkeypatch):
    ray = pytest.importorskip("ray")
    _, (_, stdout, _) = searched
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        code, out, err = hespas(capsys, monkeypatch, "search", FACTORY, "--devices", 4, "--axes",
                                "dp,tp", "--node", "H100_80GB", "--system", SYSTEM, "--set",
                                "hidden=512,1024", "--out", tmp_path / "out", "--json",
                                "--backend", "ray")
    finally:
        ray.shutdown()
    assert code == 0, err
    assert json.loads(out) == json.loads(stdout)
