"""The host's per-call dispatch cost (`hespas_py.estimators.dispatch`): its rule, where the pipeline
puts it, the presets that set it and its share of the GPU rows' idle time."""

from __future__ import annotations

import json

import pytest

from hespas_py.errors import HespasError
from hespas_py.estimators.base import Estimate, OpCost, get_estimator
from hespas_py.estimators.dispatch import DISPATCH, dispatch_cost, entry_buffers, with_dispatch
from hespas_py.hardware import Params
from hespas_py.mlir.reader import load_module
from hespas_py.pipeline import generate
from hespas_py.run import build_config
from hespas_py.split import split
from test_pipeline import TINY_MLIR

PARAMS = Params(dispatch_overhead_s=1e-4, dispatch_per_buffer_s=1e-5)


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.mlir"
    path.write_text(TINY_MLIR)
    return path


def test_cost_is_a_fixed_part_plus_one_per_buffer():
    assert dispatch_cost(Params(), 100) is None
    assert dispatch_cost(Params(dispatch_overhead_s=0, dispatch_per_buffer_s=0), 5) is None
    row = dispatch_cost(PARAMS, 7)
    assert row.name == DISPATCH and row.time_s == pytest.approx(1e-4 + 7e-5)
    assert row.notes == ("7 entry buffers",) and not row.fallback


def test_entry_buffers_count_arguments_and_results(tiny):
    assert entry_buffers(load_module(tiny)) == 2          # one argument, one result


def test_dispatch_goes_to_the_first_compute_block_only(tiny):
    graph = split(load_module(tiny), "individual_split")
    estimates = [None if b.collective else Estimate(1e-3, per_op=(OpCost("x", "f32", 1, 1, 1e-3),))
                 for b in graph.blocks]
    first = next(b.id for b in graph.blocks if not b.collective)
    cost = OpCost(DISPATCH, "", 0, 0, 5e-4)
    added = with_dispatch(graph, estimates, cost)
    assert added[first].time_s == pytest.approx(1.5e-3) and added[first].per_op[0] is cost
    assert [e.time_s for i, e in enumerate(added) if e is not None and i != first] == \
        [e.time_s for i, e in enumerate(estimates) if e is not None and i != first]
    assert with_dispatch(graph, estimates, None) == estimates


def _gen(tiny, tmp_path, name, **params):
    settings = build_config("H100_80GB", mlir_file=tiny, output_dir=tmp_path / name,
                            params=params)
    return generate(settings)


def test_the_pipeline_adds_the_preset_dispatch_to_the_step(tiny, tmp_path):
    """The H100 preset's dispatch is in the compute estimate, the traces and the per-op stats;
    setting it to zero takes exactly that much off."""
    with_cost = _gen(tiny, tmp_path, "with")
    without = _gen(tiny, tmp_path, "without", dispatch_overhead_s=0, dispatch_per_buffer_s=0)
    params = build_config("H100_80GB", mlir_file=tiny, output_dir=tmp_path).hardware.params
    expected = params.dispatch_overhead_s + 2 * params.dispatch_per_buffer_s
    assert expected > 0
    difference = with_cost.stats["runtime_s"] - without.stats["runtime_s"]
    assert difference == pytest.approx(expected, rel=1e-9)
    assert DISPATCH in with_cost.stats["per_op"] and DISPATCH not in without.stats["per_op"]
    assert with_cost.summary["host_dispatch_s"] == pytest.approx(expected)
    assert without.summary["host_dispatch_s"] == 0.0
    stats = json.loads((tmp_path / "with" / "module_stats.json").read_text())
    assert stats["per_op"][DISPATCH]["time_s"] == pytest.approx(expected)
    micros = with_cost.stats["traces"]["compute_micros"] - without.stats["traces"]["compute_micros"]
    assert abs(micros - expected * 1e6) <= 2                   # rounded per node


def test_every_nvidia_fused_preset_names_its_dispatch_source_and_no_other_does():
    from hespas_py.resources import shipped

    for config in sorted(shipped("configs", "nodes").glob("*/*/config.json")):
        hardware = json.loads(config.read_text())["perf_estimator"]["hardware"]
        nvidia = config.parent.name == "fused_roofline" and hardware.get("compiler") == "xla_gpu" \
            and not config.parts[-3].startswith("MI")
        assert ("dispatch_per_buffer_s" in hardware) == nvidia, config
        if nvidia:
            assert "dispatch_cost.json" in hardware["dispatch_source"], config


def test_negative_dispatch_is_refused(tiny, tmp_path):
    with pytest.raises(HespasError, match="dispatch_per_buffer_s"):
        _gen(tiny, tmp_path, "bad", dispatch_per_buffer_s=-1)


def test_models_add_it_and_a_measuring_estimator_does_not(tiny, tmp_path):
    """xla_profile's block times are host-timed calls: each holds a dispatch already."""
    hardware = build_config("H100_80GB", mlir_file=tiny, output_dir=tmp_path).hardware
    for name in ("roofline", "fused_roofline", "xla_cost"):
        assert get_estimator(name, hardware).dispatch(10).time_s == pytest.approx(
            hardware.params.dispatch_overhead_s + 10 * hardware.params.dispatch_per_buffer_s)
    assert get_estimator("xla_profile", hardware).dispatch(10) is None


def test_back_to_back_block_times_leave_the_step_dispatch_to_the_preset(tiny, tmp_path):
    """Runs issued back to back hide the per-call host time, so the step's one call is costed."""
    hardware = build_config("H100_80GB", mlir_file=tiny, output_dir=tmp_path).hardware
    hardware = hardware.with_params({"back_to_back": True})
    assert get_estimator("xla_profile", hardware).dispatch(10).time_s == pytest.approx(
        hardware.params.dispatch_overhead_s + 10 * hardware.params.dispatch_per_buffer_s)
