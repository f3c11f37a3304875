"""Replays every ASTRA-sim reference case of ../shared/refsim and compares per-NPU figures."""

from __future__ import annotations

import json

import pytest

from hespas_py.errors import HespasError
from hespas_py.sim import load_network, load_system, simulate

#: result.json key -> DeviceResult attribute; every one must be within 1% (they match exactly).
FIGURES = {"wall_time": "wall_time_ns", "gpu_time": "gpu_time_ns", "comm_time": "comm_time_ns",
           "exposed_communication_cycles": "exposed_comm_ns", "finished_cycles": "finished_ns",
           "total_compute_communication_overlap": "overlap_ns"}


def _replay(case):
    ref = json.loads((case / "result.json").read_text())
    groups = case / "comm_group.json"
    run = lambda replicate: simulate(  # noqa: E731
        case / ref["trace_prefix"], load_system(case / "system.json"),
        load_network(case / "network.yml"),
        comm_groups=groups if groups.is_file() else None, replicate=replicate)
    if "error" in ref:
        with pytest.raises(HespasError):
            run(True)
        return []
    problems = []
    for replicate in (True, False):
        result = run(replicate)
        for device in result.devices:
            expected = ref["sys"][str(device.id)]
            for key, attr in FIGURES.items():
                want, got = expected.get(key, 0), getattr(device, attr)
                if abs(got - want) > 0.01 * max(abs(want), 1):
                    problems.append(f"{case.name} npu {device.id} {key}: {got} != {want}")
            timeline = sorted(map(list, device.timeline))
            if timeline != sorted(ref["node_timeline"][str(device.id)]):
                problems.append(f"{case.name} npu {device.id}: node timeline differs")
    return problems


def test_every_reference_case_matches(shared_dir):
    cases = sorted(p for p in (shared_dir / "refsim" / "cases").iterdir() if p.is_dir())
    assert len(cases) >= 37
    problems = [problem for case in cases for problem in _replay(case)]
    assert not problems, "\n".join(problems[:20])


def test_resnet_traces_are_replicated(shared_dir):
    case = shared_dir / "refsim" / "cases" / "resnet50_train_individual_a100_4gpu"
    result = simulate(case / "dev", load_system(case / "system.json"),
                      load_network(case / "network.yml"), comm_groups=case / "comm_group.json")
    assert result.replicated
    assert result.devices[3].wall_time_ns == 464618831
