"""Node presets from one node.json per chip: the generated files, aliases, preset folders outside
configs/ wherever a preset name is taken, and bad node.json files."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import hespas_py
from hespas_py.cli.main import app
from hespas_py.errors import HespasError
from hespas_py.estimators.base import estimator_names
from hespas_py.hardware import PRESETS_DIR, find_preset, load_hardware, preset_names
from hespas_py.hardware.presets import (
    NODE_FILE,
    config_text,
    generated_configs,
    write_preset,
)
from hespas_py.run import build_config

REPO = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("make_node_presets",
                                               REPO / "scripts" / "make_node_presets.py")
generator = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = generator
_SPEC.loader.exec_module(generator)
MLP = REPO / "workloads" / "mlp_dp_4dev.mlir"


def calibrated(tmp_path: Path, tensor_efficiency: float = 0.5) -> Path:
    """A preset folder outside configs/: the A100 SXM 40GB with another tensor efficiency."""
    a100 = find_preset("A100_SXM_40GB")
    fused = {**a100.estimators["fused_roofline"], "tensor_efficiency": tensor_efficiency,
             "tensor_efficiency_source": "a test"}
    folder = tmp_path / "A100_calibrated"
    write_preset(folder, {"datasheet": a100.datasheet, "hardware": dict(a100.hardware),
                          "estimators": {"fused_roofline": fused}})
    return folder


def test_every_shipped_config_file_is_generated_from_its_node_json():
    assert generator.stale() == []


def test_the_check_finds_an_edited_and_a_stray_config(tmp_path, monkeypatch):
    nodes = tmp_path / "nodes"
    for name in ("TPUv4", "H100_SXM_80GB", "H100_80GB"):
        (nodes / name).mkdir(parents=True)
        (nodes / name / NODE_FILE).write_text((PRESETS_DIR / name / NODE_FILE).read_text())
    monkeypatch.setattr(generator, "NODES", nodes)
    monkeypatch.setattr(generator, "README", tmp_path / "README.md")
    (tmp_path / "README.md").write_text((PRESETS_DIR / "README.md").read_text())
    generator.write()
    assert [p for p in generator.stale() if p.name != "README.md"] == []
    edited = nodes / "TPUv4" / "roofline" / "config.json"
    edited.write_text(edited.read_text().replace("1200", "1300"))
    (nodes / "TPUv4" / "xla_cost").mkdir()
    (nodes / "TPUv4" / "xla_cost" / "config.json").write_text("{}")
    found = {p.relative_to(nodes).as_posix() for p in generator.stale() if p.name != "README.md"}
    assert found == {"TPUv4/roofline/config.json", "TPUv4/xla_cost/config.json"}


def test_every_shipped_preset_names_its_datasheet_and_known_estimators():
    for name in preset_names():
        preset = find_preset(name)
        assert preset.datasheet, name
        assert set(preset.estimator_names) <= set(estimator_names()), name


def test_an_alias_is_the_other_preset_by_another_name():
    assert json.loads((PRESETS_DIR / "H100_80GB" / NODE_FILE).read_text()) == {
        "alias_of": "H100_SXM_80GB"}
    alias, real = find_preset("H100_80GB"), find_preset("H100_SXM_80GB")
    assert alias.alias_of == "H100_SXM_80GB" and alias.path == real.path
    for method in ("roofline", "fused_roofline", "xla_cost"):
        assert load_hardware("H100_80GB", method) == dataclasses.replace(
            load_hardware("H100_SXM_80GB", method), name="H100_80GB")
    for method in alias.estimator_names:
        assert config_text(alias, method) == config_text(real, method)


def test_a_method_without_params_of_its_own_reads_the_figures_alone():
    figures = load_hardware("A100_SXM_40GB")
    assert load_hardware("A100_SXM_40GB", "xla_cost") == figures
    assert load_hardware("A100_SXM_40GB", "roofline") == figures
    assert load_hardware("A100_SXM_40GB", "fused_roofline") != figures


def test_a_preset_folder_is_taken_wherever_a_preset_name_is(tmp_path):
    folder = calibrated(tmp_path)
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.json")) == [
        "fused_roofline/config.json", "node.json"]
    hardware = load_hardware(folder, "fused_roofline")
    assert hardware.name == "A100_calibrated" and hardware.params.tensor_efficiency == 0.5
    config = build_config(str(folder), mlir_file=MLP, output_dir=tmp_path / "out")
    assert config.estimator == "fused_roofline" and config.hardware == hardware
    by_file = build_config(folder / "fused_roofline" / "config.json", mlir_file=MLP,
                                    output_dir=tmp_path / "out")
    assert by_file.hardware == hardware
    report = hespas_py.estimate(MLP, node=str(folder), estimator="fused_roofline")
    assert report.summary["hardware"] == "A100_calibrated"
    described = CliRunner().invoke(app, ["presets", "--describe", str(folder), "--json"],
                                   catch_exceptions=False).stdout
    rows = {r["key"]: r for r in json.loads(described)["parameters"]}
    assert rows["tensor_efficiency"]["value"] == 0.5 and rows["tensor_efficiency"]["source"]


def test_hespas_gen_takes_a_preset_folder(tmp_path):
    folder = calibrated(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["gen", str(folder), "--mlir_file", str(MLP), "-o", str(out),
                                      "--json", "--log-level", "error"], catch_exceptions=False)
    summary = json.loads(result.stdout)
    assert summary["hardware"] == "A100_calibrated" and summary["estimator"] == "fused_roofline"


def test_a_sweep_and_a_search_take_a_preset_folder(tmp_path):
    from hespas_py.sweep.spec import spec_from_doc

    folder = calibrated(tmp_path)
    doc = {"workloads": [str(MLP)], "nodes": [str(folder), "A100_calibrated"],
           "systems": ["A100_SXM_40GB_4GPU"]}
    with pytest.raises(HespasError, match="A100_calibrated"):
        spec_from_doc(doc, tmp_path / "elsewhere" / "spec.yaml")  # relative to the spec file
    spec = spec_from_doc(doc, tmp_path / "spec.yaml")
    nodes = {name: configs["fused_roofline"] for name, configs in spec.nodes.items()}
    assert {n.hardware.params.tensor_efficiency for n in nodes.values()} == {0.5}
    assert {n.file for n in nodes.values()} == {folder}


@pytest.mark.parametrize("document, fragment", [
    ({"hardware": {"peak_flops": 1e12}}, "missing required key hardware.memory_bandwidth"),
    ({"hardware": {"peak_flops": 1e12, "memory_bandwidth": 1e12}, "figures": {}},
     "unknown key figures"),
    ({"hardware": {"peak_flops": 1e12, "memory_bandwidth": 1e12, "tensor_efficiency": 0.5}},
     "unknown key hardware.tensor_efficiency"),
    ({"hardware": {"peak_flops": 1e12, "memory_bandwidth": 1e12},
      "estimators": {"roofline": {"launch_overhead_s": 1e-6}}},
     "unknown key estimators.roofline.launch_overhead_s"),
    ({"hardware": {"peak_flops": 1e12, "memory_bandwidth": 1e12},
      "estimators": {"fused_roofline": {"memory_efficiency": 2}}},
     "estimators.fused_roofline.memory_efficiency must be a number > 0 and <= 1"),
    ({"alias_of": "nowhere"}, "alias_of names no preset beside it"),
])
def test_a_bad_node_json_is_one_line_naming_it(tmp_path, document, fragment):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / NODE_FILE).write_text(json.dumps(document))
    with pytest.raises(HespasError) as info:
        load_hardware(folder, next(iter(document.get("estimators", {})), "fused_roofline"))
    assert str(info.value).startswith(str(folder / NODE_FILE)) and fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_writing_a_bad_preset_leaves_the_folder_as_it_was(tmp_path):
    folder = calibrated(tmp_path)
    before = {p: p.read_bytes() for p in folder.rglob("*.json")}
    with pytest.raises(HespasError, match="tensor_efficiency must be"):
        calibrated(tmp_path, tensor_efficiency=3.0)
    assert {p: p.read_bytes() for p in folder.rglob("*.json")} == before
    assert generated_configs(folder) == {
        folder / "fused_roofline" / "config.json":
            (folder / "fused_roofline" / "config.json").read_text()}
