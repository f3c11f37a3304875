"""The one run builder (`hespas_py.run`): precedence, the default estimator, the machine check, and
that every entry point goes through it."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.estimators.base import DEFAULT_ESTIMATOR
from hespas_py.hardware import load_hardware
from hespas_py.pipeline import DEFAULT_SPLIT, GenConfig
from hespas_py.run import Split, build_config, generate_and_simulate, node_hardware
from hespas_py.sim.config import LayoutMismatch, Machine

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "hespas_py"
MLP = REPO / "workloads" / "mlp_dp_4dev.mlir"


def test_a_preset_named_alone_runs_the_default_estimator_and_a_file_its_own(tmp_path):
    preset = build_config("TPUv4", mlir_file=MLP, output_dir=tmp_path)
    assert preset.estimator == DEFAULT_ESTIMATOR and preset.split_strategy == DEFAULT_SPLIT
    assert preset.hardware == load_hardware("TPUv4", DEFAULT_ESTIMATOR)
    assert not preset.collective_rewrites  # a TPU preset
    file = REPO / "configs" / "nodes" / "TPUv4" / "roofline" / "config.json"
    assert build_config(file, mlir_file=MLP, output_dir=tmp_path).estimator == "roofline"
    assert build_config(file, mlir_file=MLP, output_dir=tmp_path,
                        estimator=" XLA_Cost ").estimator == "xla_cost"


def test_given_settings_win_over_the_file_which_wins_over_the_defaults(tmp_path):
    path = tmp_path / "gen.json"
    path.write_text(json.dumps({"perf_estimator": {"method": "roofline",
                                                   "hardware": "A100_SXM_40GB"},
                                "mlir_file": str(MLP), "output_dir": "from_file",
                                "split_strategy": "individual_split", "block_lim": 7,
                                "collective_rewrites": False}))
    config = build_config(path)
    assert (config.output_dir, config.split_strategy, config.block_lim) == (
        Path("from_file"), "individual_split", 7)
    assert not config.collective_rewrites
    given = build_config(path, output_dir=tmp_path, params={"tdp_W": 300},
                         split=Split(split_strategy="linear_split", collective_rewrites=True))
    assert (given.output_dir, given.split_strategy, given.block_lim) == (
        tmp_path, "linear_split", 7)
    assert given.collective_rewrites and given.hardware.params.tdp_W == 300.0


@pytest.mark.parametrize("kwargs, message", [
    ({"estimator": "nonsense"}, "unknown estimator 'nonsense'"),
    ({"params": {"launch_overhead_s": 0}, "estimator": "roofline"},
     "--param: unknown key launch_overhead_s"),
    ({"split": Split(split_strategy="random_split")}, "unknown split strategy"),
    ({"split": Split(block_lim=0)}, "--block_lim must be at least 1, not 0"),
    ({"output_dir": None}, "missing required key output_dir (or pass --output)"),
])
def test_bad_settings_are_one_line_errors(tmp_path, kwargs, message):
    with pytest.raises(HespasError) as info:
        build_config("A100_SXM_40GB", **{"mlir_file": MLP, "output_dir": tmp_path, **kwargs})
    assert message in str(info.value) and "\n" not in str(info.value)


def test_node_hardware_is_the_hardware_a_run_models(tmp_path):
    config = build_config("H100_80GB", mlir_file=MLP, output_dir=tmp_path,
                          params={"fused_attention": True})
    assert node_hardware("H100_80GB", params={"fused_attention": True}) == config.hardware


def test_generate_and_simulate_checks_the_machine_before_writing(tmp_path):
    out = tmp_path / "out"
    config = build_config("A100_SXM_40GB", mlir_file=MLP, output_dir=out)
    with pytest.raises(LayoutMismatch) as info:
        generate_and_simulate(config, Machine.load("A100_SXM_40GB_8GPU"))
    assert (info.value.npus, info.value.devices) == (8, 4) and not out.exists()
    run = generate_and_simulate(config, Machine.load("A100_SXM_40GB_4GPU"))
    assert run.summary["simulation"]["step_time_s"] == run.simulation.step_time_ns * 1e-9
    assert {k: v for k, v in run.summary.items() if k != "simulation"} == dict(run.result.summary)
    alone = generate_and_simulate(build_config("A100_SXM_40GB", mlir_file=MLP,
                                               output_dir=tmp_path / "alone"))
    assert alone.simulation is None and "simulation" not in alone.summary


def _calls(name: str) -> list[str]:
    """Modules of hespas_py that call ``name``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called == name:
                    found.append(path.relative_to(REPO).as_posix())
    return sorted(set(found))


def test_every_entry_point_builds_its_run_with_the_one_builder():
    assert _calls("GenConfig") == ["hespas_py/run.py"]
    assert set(_calls("build_config")) >= {"hespas_py/cli/gen.py", "hespas_py/api.py",
                                            "hespas_py/sweep/plan.py",
                                            "hespas_py/accuracy/evaluate.py"}
    assert _calls("generate_and_simulate") == ["hespas_py/accuracy/evaluate.py",
                                               "hespas_py/api.py", "hespas_py/cli/gen.py"]
    estimator = GenConfig.__dataclass_fields__["estimator"]
    assert estimator.default is dataclasses.MISSING  # no second default beside DEFAULT_ESTIMATOR
