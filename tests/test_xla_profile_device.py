"""``xla_profile`` says which device it timed, and refuses a preset of another chip unless told;
XLA's C++ INFO lines stay off stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hespas_py.estimators.base import get_estimator
from hespas_py.estimators.xla_profile import same_chip
from hespas_py.hardware import Hardware
from sweep_helpers import hespas

REPO = Path(__file__).resolve().parents[1]
MLP = REPO / "workloads" / "mlp_dp_4dev.mlir"


@pytest.mark.parametrize("preset, kind, same", [
    ("H100_80GB", "NVIDIA H100 80GB HBM3", True),
    ("A100_SXM_40GB", "NVIDIA A100-SXM4-40GB", True),
    ("MI300X", "AMD Instinct MI300X", True),
    ("H100_80GB", "NVIDIA A100-SXM4-80GB", False),
    ("H100_80GB", "cpu", False),
    ("TPUv5p_64", "TPU v5p", True),
])
def test_a_preset_names_its_chip(preset: str, kind: str, same: bool) -> None:
    assert same_chip(preset, kind) is same


def test_a_gpu_preset_on_this_cpu_is_refused_before_writing(tmp_path, capsys, monkeypatch) -> None:
    code, stdout, stderr = hespas(capsys, monkeypatch, "gen", "H100_80GB", "--mlir_file", MLP,
                                  "--estimator", "xla_profile", "-o", tmp_path / "out")
    errors = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert code == 2 and stdout == "" and len(errors) == 1
    assert errors[0].startswith("error: H100_80GB: xla_profile times each block on this machine "
                                "(CPU")
    assert "--allow-other-device" in errors[0]
    assert not (tmp_path / "out").exists()


def test_allowed_it_names_the_device_it_timed(tmp_path, capsys, monkeypatch) -> None:
    code, stdout, stderr = hespas(capsys, monkeypatch, "gen", "H100_80GB", "--mlir_file", MLP,
                                  "--estimator", "xla_profile", "--param", "repeats=1",
                                  "--param", "warmup=0", "--allow-other-device",
                                  "-o", tmp_path / "out", "--json")
    assert code == 0, stderr
    measured = json.loads(stdout)["measured_on"]
    assert measured.startswith("CPU") and measured.endswith("(XLA:CPU)")
    stats = json.loads((tmp_path / "out" / "module_stats.json").read_text())
    assert stats["measured_on"] == measured
    code, stdout, _ = hespas(capsys, monkeypatch, "gen", "H100_80GB", "--mlir_file", MLP,
                             "--estimator", "roofline", "-o", tmp_path / "model", "--json")
    assert code == 0 and "measured_on" not in json.loads(stdout)


def test_cache_keys_name_the_device() -> None:
    """A cache filled on one device never answers for another."""
    hardware = Hardware(name="mine", peak_flops=1e12, per_dtype_flops={}, memory_bandwidth=1e11)
    estimator = get_estimator("xla_profile", hardware)
    assert estimator.fingerprint().endswith(f"@{estimator.measured_on}")


@pytest.mark.parametrize("user_level, shown", [(None, False), ("0", True)])
def test_xla_info_lines_are_off_unless_the_user_asks(user_level, shown) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    if user_level is not None:
        env["TF_CPP_MIN_LOG_LEVEL"] = user_level
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(REPO), env.get("PYTHONPATH"))))
    probe = "import hespas_py.jaxcompat as c; c.local_client()"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                          check=True)
    assert ("pjrt_client" in done.stderr) is shown, done.stderr
