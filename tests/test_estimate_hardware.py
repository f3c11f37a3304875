"""Hardware configs: presets, the published tool's format, validation errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hespas_py.errors import HespasError
from hespas_py.hardware import (
    PRESETS_DIR,
    hardware_from_config,
    load_hardware,
    preset_names,
    read_config,
    validate_config,
)
from hespas_py.run import build_config

REQUIRED_PRESETS = {
    "A100_SXM_40GB", "A100_SXM_80GB", "A100_PCIe_40GB", "A100_PCIe_80GB", "H100_SXM_80GB",
    "H100_80GB", "H200_141GB", "B200_180GB", "MI300X", "V100_32GB", "TPUv3", "TPUv4", "TPUv5e",
    "TPUv5p", "TPUv6e",
}

# The published tool's A100 SXM 40GB config (facts: its keys and numbers).
HESPAS_A100 = {"perf_estimator": {"method": "roofline", "hardware": {
    "peak_flops": 9.7e12,
    "per_datatype_flops": {"f64": 19.5e12, "f32": 19.5e12, "i32": 19.5e12, "si32": 19.5e12,
                           "ui32": 19.5e12, "tf32": 156e12, "bf16": 312e12, "f16": 312e12,
                           "i8": 624e12, "si8": 624e12, "ui8": 624e12, "i1": 624e12},
    "memory_bandwidth": 1555e9}}}


def write(tmp_path: Path, config: Any, name: str = "hw.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(config) if not isinstance(config, str) else config)
    return path


def hw_config(**hardware: Any) -> dict[str, Any]:
    base = {"peak_flops": 1e12, "memory_bandwidth": 1e11}
    return {"perf_estimator": {"method": "roofline", "hardware": {**base, **hardware}}}


def test_every_preset_is_valid_json_and_loads() -> None:
    assert REQUIRED_PRESETS <= set(preset_names())
    assert len(preset_names()) == len(set(preset_names()))  # once each, whatever its methods
    for name in preset_names():
        json.loads((PRESETS_DIR / name / "roofline" / "config.json").read_text())
        hw = load_hardware(name)
        assert hw.name == name
        assert hw.peak_flops > 0 and hw.memory_bandwidth > 0 and hw.vector_flops > 0
        assert all(rate > 0 for rate in hw.per_dtype_flops.values())


def test_presets_hold_dense_datasheet_figures() -> None:
    a100 = load_hardware("A100_SXM_40GB")
    assert (a100.per_dtype_flops["f16"], a100.per_dtype_flops["tf32"]) == (312e12, 156e12)
    assert (a100.vector_flops, a100.memory_bandwidth) == (19.5e12, 1555e9)
    h100 = load_hardware("H100_SXM_80GB")
    assert h100.per_dtype_flops["bf16"] == 989.4e12 and h100.memory_bandwidth == 3350e9
    assert load_hardware("H100_80GB").per_dtype_flops == h100.per_dtype_flops
    b200 = load_hardware("B200_180GB")
    assert b200.per_dtype_flops["bf16"] == 2250e12  # dense, not the 4.5 PFLOPS sparse figure
    assert b200.per_dtype_flops["f8E4M3FN"] == 4500e12
    assert load_hardware("H200_141GB").memory_bandwidth == 4800e9
    assert load_hardware("MI300X").per_dtype_flops["f16"] == 1307.4e12
    assert load_hardware("TPUv5p").per_dtype_flops["bf16"] == 459e12


def test_preset_name_and_path_give_the_same_numbers() -> None:
    by_path = load_hardware(str(PRESETS_DIR / "TPUv4" / "roofline" / "config.json"))
    assert by_path == load_hardware("TPUv4")
    assert by_path.name == "TPUv4"


def test_published_tool_config_loads(tmp_path: Path) -> None:
    hw = load_hardware(str(write(tmp_path, HESPAS_A100)))
    assert hw.peak_flops == 9.7e12
    assert hw.vector_flops == 9.7e12  # absent: defaults to peak_flops
    assert hw.per_dtype_flops["si8"] == 624e12
    assert hw.name == "hw"


def test_estimator_params_and_compat_keys_are_kept(tmp_path: Path) -> None:
    hw = load_hardware(str(write(tmp_path, hw_config(
        f32_matmul_as_tf32=True, tdp_W=400, hbm_power_ratio=0.3, num_npus=4))))
    assert (hw.params.f32_matmul_as_tf32, hw.params.tdp_W, hw.params.hbm_power_ratio,
            hw.params.num_npus) == (True, 400, 0.3, 4)


def test_fingerprint_changes_with_any_number(tmp_path: Path) -> None:
    a = load_hardware(str(write(tmp_path, hw_config(), "a.json")))
    b = load_hardware(str(write(tmp_path, hw_config(memory_bandwidth=2e11), "b.json")))
    assert a.fingerprint() != b.fingerprint()


@pytest.mark.parametrize("hardware, fragment", [
    ({"bogus": 1}, "unknown key perf_estimator.hardware.bogus"),
    ({"peak_flops": "fast"}, "perf_estimator.hardware.peak_flops must be a number >= 1e+06"),
    ({"peak_flops": True}, "perf_estimator.hardware.peak_flops must be a number >= 1e+06"),
    ({"memory_bandwidth": -5}, "perf_estimator.hardware.memory_bandwidth must be a number >= 1e+06"),
    ({"vector_flops": 0}, "perf_estimator.hardware.vector_flops must be a number >= 1e+06"),
    ({"per_datatype_flops": {"f16": -1}}, "per_datatype_flops ['f16'] must be a number >= 1e+06"),
    ({"per_datatype_flops": [1, 2]}, "per_datatype_flops must be an object"),
    ({"f32_matmul_as_tf32": "yes"}, "f32_matmul_as_tf32 must be true or false"),
    ({"num_npus": 0}, "num_npus must be an integer >= 1"),
    ({"hbm_power_ratio": 2}, "hbm_power_ratio must be a number >= 0 and <= 1"),
])
def test_bad_hardware_values_are_one_line_errors(tmp_path: Path, hardware: dict[str, Any],
                                                 fragment: str) -> None:
    path = write(tmp_path, hw_config(**hardware))
    with pytest.raises(HespasError) as info:
        load_hardware(str(path))
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert fragment in message
    assert "\n" not in message


def test_missing_required_fields(tmp_path: Path) -> None:
    no_bw = {"perf_estimator": {"method": "roofline", "hardware": {"peak_flops": 1e12}}}
    with pytest.raises(HespasError, match="missing required key perf_estimator.hardware."
                                          "memory_bandwidth"):
        load_hardware(str(write(tmp_path, no_bw)))
    with pytest.raises(HespasError, match="missing required key perf_estimator.method"):
        load_hardware(str(write(tmp_path, {"perf_estimator": {"hardware": {}}})))
    with pytest.raises(HespasError, match="missing required key perf_estimator"):
        load_hardware(str(write(tmp_path, {"mlir_file": "x.mlir"})))


def test_unreadable_configs(tmp_path: Path) -> None:
    with pytest.raises(HespasError, match=r"invalid JSON at line 3"):
        load_hardware(str(write(tmp_path, '{\n  "a": 1\n  "b": 2}')))
    with pytest.raises(HespasError, match="no such hardware config file"):
        load_hardware(str(tmp_path / "absent.json"))
    with pytest.raises(HespasError, match="no such hardware config file or node preset"):
        load_hardware("NoSuchGPU")
    with pytest.raises(HespasError, match="must be a JSON object"):
        read_config(write(tmp_path, "[1, 2]"))


def test_unknown_estimator_method(tmp_path: Path) -> None:
    config = {"perf_estimator": {"method": "nonsense", "hardware": {}}}
    with pytest.raises(HespasError, match="unknown estimator 'nonsense'"):
        build_config(write(tmp_path, config), mlir_file="m.mlir", output_dir="o")


def test_full_generation_config() -> None:
    config = {"mlir_file": "step.mlir", "output_dir": "out", "split_strategy": "Individual_Split",
              "merge": True, "block_lim": 1024, "separator_policy": "isolated",
              "num_threads": -1, "cache_dir": "c", "clean": False,
              "perf_estimator": {"method": "roofline", "hardware": "A100_SXM_40GB",
                                 "in_memory_only_cache": True}}
    validate_config(config, "gen.json")
    assert hardware_from_config(config, "gen.json").name == "A100_SXM_40GB"


@pytest.mark.parametrize("change, fragment", [
    ({"split_strategy": "random_split"}, "split_strategy must be one of"),
    ({"block_lim": 0}, "block_lim must be an integer >= 1"),
    ({"merge": "yes"}, "merge must be true or false"),
    ({"mlir_file": 3}, "mlir_file must be a string"),
    ({"extra": 1}, "unknown key extra"),
    ({"perf_estimator": {"method": "roofline", "hardware": 5}},
     "perf_estimator.hardware must be an object or a preset name"),
    ({"perf_estimator": {"method": "roofline", "hardware": {}, "cache": 1}},
     "unknown key perf_estimator.cache"),
])
def test_bad_generation_configs(change: dict[str, Any], fragment: str) -> None:
    config = {**HESPAS_A100, "mlir_file": "a.mlir", **change}
    with pytest.raises(HespasError) as info:
        validate_config(config, "gen.json")
    assert str(info.value).startswith("gen.json: ") and fragment in str(info.value)
