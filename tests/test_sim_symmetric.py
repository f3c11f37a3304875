"""Symmetric replay of an SPMD trace set with pipeline sends and receives
(hespas_py/sim/replicate.py, symmetry.py, columns.py) against the full simulation (`--full`): a
4D-parallel step on 256 devices (2 data x 4 pipeline x 4 context x 8 tensor ranks), written as
one trace per device and as a symmetric trace set (hespas_py/chakra/symmetric.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hespas_py.chakra.files import COMM_GROUP_FILE, SYMMETRIC_FILE, TRACE_PREFIX
from hespas_py.errors import HespasError
from hespas_py.sim.config import Machine
from hespas_py.sim.simulate import simulate

MODELS = Path(__file__).resolve().parents[1] / "scripts" / "models"
SYSTEM = "H100_80GB_8GPU_32"


def _gen(mlir: Path, out: Path) -> None:
    from hespas_py.pipeline import generate
    from hespas_py.run import Split, build_config

    generate(build_config("H100_80GB", mlir_file=mlir, output_dir=out,
                          params={"fused_attention": True}, memory=False,
                          split=Split(collective_rewrites=False)))


@pytest.fixture(scope="module")
def step(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from hespas_py.export import export_file

    folder = tmp_path_factory.mktemp("symmetric")
    factory = folder / "step.py"
    factory.write_text(f"import sys\nsys.path.insert(0, {str(MODELS)!r})\n"
                       "from llama_4d import llama_4d_step\n")
    mlir = folder / "step.mlir"
    mlir.write_text(export_file(f"{factory}:llama_4d_step", 256, kwargs=dict(
        dp=2, pp=4, cp=4, tp=8, virtual=2, batch=4, model="tiny", layers=6, seq=128)))
    return mlir


@pytest.fixture(scope="module")
def full(step: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("per_device") / "out"
    _gen(step, out)
    setup = Machine.load(SYSTEM).setup
    result = simulate(out / TRACE_PREFIX, setup.system, setup.network,
                      comm_groups=out / COMM_GROUP_FILE, replicate=False)
    return out, result


def _simulate(out: Path, **options):
    setup = Machine.load(SYSTEM).setup
    return simulate(out / TRACE_PREFIX, setup.system, setup.network,
                    comm_groups=out / COMM_GROUP_FILE, **options)


def test_symmetric_replay_is_the_full_simulation(full):
    out, whole = full
    kinds = json.loads((out / "module_stats.json").read_text())["traces"]["nodes_per_device"]["0"]
    assert kinds["COMM_SEND_NODE"] == kinds["COMM_RECV_NODE"] > 0
    replayed = _simulate(out)
    assert replayed.replicated
    assert replayed.step_time_ns == whole.step_time_ns
    assert [d.as_json() for d in replayed.devices] == [d.as_json() for d in whole.devices]


def test_symmetric_trace_set_is_the_full_simulation(full, step, tmp_path, monkeypatch):
    import hespas_py.chakra.writer as writer

    monkeypatch.setattr(writer, "SYMMETRIC_FROM", 2)
    out = tmp_path / "out"
    _gen(step, out)
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["dev.0.et", COMM_GROUP_FILE, SYMMETRIC_FILE, "module_stats.json"])
    replayed = _simulate(out)
    assert [d.as_json() for d in replayed.devices] == [d.as_json() for d in full[1].devices]
    with pytest.raises(HespasError, match="simulated by symmetry only: drop --full"):
        _simulate(out, replicate=False)
    manifest = json.loads((out / SYMMETRIC_FILE).read_text())
    (out / SYMMETRIC_FILE).write_text(json.dumps({**manifest, "num_devices": 128}))
    with pytest.raises(HespasError, match="128 devices for a network of 256 NPUs"):
        _simulate(out)
