"""The parameter registry (`hespas_py.hardware.params`): every key declared once and documented,
the README table made from it, every preset key declared and sourced, typed access."""

from __future__ import annotations

import dataclasses
import json

import pytest

from hespas_py.errors import HespasError
from hespas_py.estimators.base import estimator_names
from hespas_py.hardware import (
    SPECS,
    Hardware,
    Params,
    find_preset,
    load_hardware,
    parse_params,
    preset_names,
)
from hespas_py.hardware.describe import param_help, param_keys, with_tables
from hespas_py.hardware.params import (
    DATASHEET,
    ROW_TILE_CLASSES,
    accepted,
    check_hardware,
    source_keys,
)
from hespas_py.kernels import GpuRules
from hespas_py.kernels.row_tiles import CLASSES
from hespas_py.resources import shipped


def _readme_tables(readme: str) -> str:
    return with_tables(readme, [find_preset(name) for name in preset_names()])


def test_the_readme_table_is_made_from_the_registry():
    readme = shipped("configs", "nodes", "README.md").read_text()
    assert _readme_tables(readme) == readme, "run python3 scripts/make_node_presets.py"


def test_every_key_is_documented_and_read_by_something():
    for spec in SPECS.values():
        assert spec.help and spec.rule.describe(), spec.key
        assert spec.estimators or spec.reader or spec.key in {  # read by every estimator
            "peak_flops", "per_datatype_flops", "memory_bandwidth", "vector_flops",
            "error_on_unknown_type", "f32_matmul_as_tf32"}, spec.key
        assert set(spec.estimators) <= set(estimator_names()), spec.key


def test_a_key_the_readme_does_not_document_fails(monkeypatch):
    readme = shipped("configs", "nodes", "README.md").read_text()
    extra = SPECS["gemm_tile"]._replace(key="undocumented_key")
    monkeypatch.setitem(SPECS, "undocumented_key", extra)
    assert _readme_tables(readme) != readme


def test_every_key_of_every_shipped_preset_is_declared_and_sourced():
    sources = source_keys()
    for name in preset_names():
        section = find_preset(name).every_key()
        for key in section:
            assert key in SPECS or key in sources or key == DATASHEET, (name, key)
            spec = SPECS.get(key)
            if spec is not None and spec.source:
                assert section.get(spec.source), (name, key, spec.source)


def test_an_undeclared_key_is_refused_with_the_declared_ones_listed():
    with pytest.raises(HespasError) as info:
        check_hardware({"peak_flops": 1e12, "memory_bandwidth": 1e12, "mystery": 1},
                       "roofline", "hw.json", "hardware.")
    assert "unknown key hardware.mystery (known: " in str(info.value)
    assert "f32_matmul_as_tf32" in str(info.value) and "launch_overhead_s" not in str(info.value)


def test_what_each_estimator_accepts():
    assert "launch_overhead_s_source" in accepted("fused_roofline")
    assert "launch_overhead_s" not in accepted("roofline")
    assert {"warmup", "repeats", "back_to_back"} <= set(accepted("xla_profile"))
    assert "dispatch_source" in accepted("xla_cost")


def test_the_fusion_switches_and_row_tile_classes_are_the_registry_s():
    assert {f.name for f in dataclasses.fields(GpuRules)} <= {f.name for f in
                                                               dataclasses.fields(Params)}
    assert CLASSES == ROW_TILE_CLASSES


def test_typed_params_take_their_defaults_and_types():
    params = load_hardware("A100_SXM_40GB", "fused_roofline").params
    assert params.gemm_tile == 128 and isinstance(params.num_cores, int)
    assert params.scatter_efficiency is None and params.fused_attention is False
    h100 = load_hardware("H100_80GB", "fused_roofline").params
    assert h100.conv_channel_efficiency == {3: 0.22, 64: 0.54, 128: 0.83}
    assert Params().updated({"tensor_efficiency": 1}).tensor_efficiency == 1.0


def test_param_help_lists_what_param_sets():
    help_text = param_help()
    assert all(key in help_text for key in param_keys())
    assert "num_npus" not in param_keys() and "peak_flops" not in param_keys()
    assert param_keys("roofline") == ["compiler", "tdp_W", "hbm_power_ratio",
                                      "warn_on_unknown_type", "error_on_unknown_type",
                                      "f32_matmul_as_tf32", "dispatch_overhead_s",
                                      "dispatch_per_buffer_s"]


def test_params_from_the_command_line_are_checked_by_their_rule():
    assert parse_params(["fused_attention=true", "num_cores=64"], "fused_roofline") == {
        "fused_attention": True, "num_cores": 64}
    with pytest.raises(HespasError, match="--param: unknown key num_npus"):
        parse_params(["num_npus=2"], "fused_roofline")
    with pytest.raises(HespasError, match=r"key launch_overhead_s .*\(estimator roofline\)"):
        parse_params(["launch_overhead_s=0"], "roofline")


def test_fingerprint_follows_settings_not_sources():
    hardware = Hardware(name="x", peak_flops=1e12, memory_bandwidth=1e12)
    assert hardware.fingerprint() == dataclasses.replace(hardware, name="y").fingerprint()
    assert hardware.fingerprint() != hardware.with_params({"gemm_tile": 64}).fingerprint()
    json.dumps(hardware.params.as_json())  # every setting is JSON
