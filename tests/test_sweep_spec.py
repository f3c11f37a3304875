"""Sweep specs: every kind of bad spec is one line and exit 2 with DIR untouched; variants."""

from __future__ import annotations

import dataclasses

import pytest

from hespas_py.sim.config import PRESETS_DIR, load_system_dir
from hespas_py.sim.machine import Algorithm, NetworkConfig, SystemConfig
from hespas_py.split.combine import Thresholds
from hespas_py.sweep.variants import apply_variant
from sweep_helpers import SMALL_SPEC, hespas, write_spec


def _with(**changes):
    spec = dict(SMALL_SPEC)
    spec.update(changes)
    return {k: v for k, v in spec.items() if v is not None}


BAD_SPECS = {
    "unknown key": (_with(sytems=["H100_80GB_4GPU"]), "unknown key 'sytems'"),
    "missing key": (_with(nodes=None), "missing required key nodes"),
    "unknown workload": (_with(workloads=["no_such_step"]), "workloads: no_such_step"),
    "missing workload file": (_with(workloads=["missing/step.mlir"]), "workloads: missing/step"),
    "unknown node preset": (_with(nodes=["Z80"]), "nodes: Z80"),
    "missing node file": (_with(nodes=["nodes/missing.json"]), "nodes: nodes/missing.json"),
    "unknown system preset": (_with(systems=["Abacus_4"]), "systems: Abacus_4"),
    "unknown estimator": (_with(estimator="guess"), "estimator: unknown estimator 'guess'"),
    "unknown split": (_with(split="random_split"), "split: unknown split strategy"),
    "unknown split key": (_with(split={"strategy": "linear_split", "limit": 3}), "split.limit"),
    "bad combine threshold": (_with(split={"strategy": "linear_split", "combine_threshold": -1}),
                              "split.combine_threshold must be 0 (off) or more bytes"),
    "bad collective rewrites": (_with(split={"strategy": "linear_split",
                                             "collective_rewrites": "on"}),
                                "split.collective_rewrites must be true or false"),
    "unknown variant": (_with(variants={"bandwith_scale": [1]}), "unknown variant key"),
    "bad variant value": (_with(variants={"bandwidth_scale": [1, -2]}),
                          "variants.bandwidth_scale[1] must be a number >= 1e-06"),
    # Reproducers of issue 19: each was a traceback, or an error after the store was written.
    "split strategy a list": (_with(split={"strategy": ["linear_split"]}),
                              'split.strategy must be a strategy name, got ["linear_split"]'),
    "infinite latency variant": ("workloads: [mlp_dp_4dev]\nnodes: [H100_80GB]\n"
                                 "systems: [H100_80GB_4GPU]\nvariants: {latency: [.inf]}\n",
                                 "variants.latency[0] must be a number >= 0 and <= 1e+12"),
    "NaN bandwidth variant": ("workloads: [mlp_dp_4dev]\nnodes: [H100_80GB]\n"
                              "systems: [H100_80GB_4GPU]\nvariants: {bandwidth: [.nan]}\n",
                              "variants.bandwidth[0] must be a number"),
    "block_lim a float": (_with(split={"strategy": "linear_split", "block_lim": 2.5}),
                          "split.block_lim must be an integer >= 1, got 2.5"),
    "variant not a list": (_with(variants={"topology": "Ring"}), "variants.topology must be"),
    "wrong dimension count": (_with(variants={"bandwidth": [[100, 200]]}),
                              "variants.bandwidth[0] has 2 values but system H100_80GB_4GPU "
                              "has 1 network dimension(s)"),
    "bad algorithm": (_with(variants={"algorithm": ["ring", "spiral"]}),
                      "variants.algorithm[1] must be one of"),
    "empty names": (_with(nodes=[]), "nodes must be a name or a non-empty list"),
    "not YAML": ("workloads: [a\n", "not YAML"),
    "not a mapping": ("- a\n- b\n", "a sweep spec is a mapping"),
}


@pytest.mark.parametrize("kind", BAD_SPECS)
def test_bad_spec_is_one_line_and_exit_2_with_dir_untouched(kind, tmp_path, capsys, monkeypatch):
    spec, message = BAD_SPECS[kind]
    path = write_spec(tmp_path, spec)
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.json").write_text("earlier")
    code, stdout, stderr = hespas(capsys, monkeypatch, "sweep", path, "--out", out)
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and stderr.startswith(f"error: {path}: "), stderr
    assert message in stderr
    assert sorted(p.name for p in out.iterdir()) == ["results.json"]
    assert (out / "results.json").read_text() == "earlier"


def test_bad_spec_creates_no_dir(tmp_path, capsys, monkeypatch):
    path = write_spec(tmp_path, _with(systems=["Abacus_4"]))
    code, _, _ = hespas(capsys, monkeypatch, "sweep", path, "--out", tmp_path / "new")
    assert code == 2 and not (tmp_path / "new").exists()


def test_bad_options_are_one_line_and_write_nothing(tmp_path, capsys, monkeypatch):
    path = write_spec(tmp_path, SMALL_SPEC)
    for args, message in ((["--backend", "slurm"], "--backend slurm: use one of local, ray"),
                          (["--jobs", "0"], "--jobs must be at least 1, not 0"),
                          (["--address", "auto"], "--address is for --backend ray")):
        code, _, stderr = hespas(capsys, monkeypatch, "sweep", path, "--out", tmp_path / "o",
                                 *args)
        assert code == 2 and stderr == f"error: {message}\n"
        assert not (tmp_path / "o").exists()


MACHINE = (SystemConfig(implementations={"ALL_REDUCE": (Algorithm("ring"),) * 2}),
           NetworkConfig(("Ring", "Switch"), (4, 2), (100.0, 50.0), (500.0, 1000.0)))


@pytest.mark.parametrize("variant, system, network", [
    ({"bandwidth_scale": 2}, {}, {"bandwidth": (200.0, 100.0)}),
    ({"bandwidth": 30}, {}, {"bandwidth": (30.0, 30.0)}),
    ({"bandwidth": [10, 20], "bandwidth_scale": 0.5}, {}, {"bandwidth": (5.0, 10.0)}),
    ({"latency": [0, 7]}, {}, {"latency": (0.0, 7.0)}),
    ({"topology": ["FullyConnected", "Ring"]}, {}, {"topology": ("FullyConnected", "Ring")}),
    ({"collective_optimization": "baseline"}, {"collective_optimization": "baseline"}, {}),
    ({"algorithm": ["direct", "halvingDoubling"]},
     {"implementations": {c: (Algorithm("direct"), Algorithm("halvingDoubling"))
                          for c in ("ALL_REDUCE", "ALL_GATHER", "REDUCE_SCATTER", "ALL_TO_ALL")}},
     {}),
])
def test_variant_changes_exactly_its_fields(variant, system, network):
    assert apply_variant(variant, MACHINE) == (dataclasses.replace(MACHINE[0], **system),
                                               dataclasses.replace(MACHINE[1], **network))


def test_preset_variant_keeps_the_preset_otherwise():
    setup = load_system_dir(PRESETS_DIR / "H100_80GB_8GPU_2")
    system, network = apply_variant({"latency": 5}, (setup.system, setup.network))
    assert system == setup.system
    assert network == dataclasses.replace(setup.network, latency=(5.0, 5.0))


def test_split_combine_threshold_reaches_the_trace_jobs(tmp_path):
    from hespas_py.sweep.plan import make_plan
    from hespas_py.sweep.spec import load_spec

    plans = {}
    for threshold in (None, 30 << 20):
        split = {"strategy": "linear_split"} if threshold is None else \
            {"strategy": "linear_split", "combine_threshold": threshold}
        spec = _with(workloads=["mlp_dp_4dev"], nodes=["H100_80GB"], split=split)
        plans[threshold] = make_plan(load_spec(write_spec(tmp_path, spec)))
    (plain,), (combined,) = plans[None].traces, plans[30 << 20].traces
    assert not plain.config.combine_threshold
    assert combined.config.combine_threshold == Thresholds(30 << 20, 30 << 20, 30 << 20)
    assert plain.key != combined.key  # traces stored apart, never mixed up


def test_split_collective_rewrites_reach_the_trace_jobs(tmp_path):
    from hespas_py.sweep.plan import make_plan
    from hespas_py.sweep.spec import load_spec

    jobs = {}
    for rewrites in (None, False):
        split = {"strategy": "linear_split"} if rewrites is None else \
            {"strategy": "linear_split", "collective_rewrites": rewrites}
        spec = _with(workloads=["mlp_dp_4dev"], nodes=["H100_80GB"], split=split)
        (jobs[rewrites],) = make_plan(load_spec(write_spec(tmp_path, spec))).traces
    assert jobs[None].config.collective_rewrites  # a GPU preset's default
    assert not jobs[False].config.collective_rewrites
    assert jobs[None].key != jobs[False].key
