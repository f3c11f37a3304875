"""Shipped workloads: findable by name, readable, and the LLaMA parameter counts derived by hand."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.export import workload_names, workload_path

REPO = Path(__file__).resolve().parents[1]
SMALL = ["mlp_dp_4dev", "mlp_fsdp_4dev", "mlp_tp_4dev", "pipeline_4dev", "moe_4dev", "mesh2x4_8dev"]
MEASURED = [f"resnet{d}_train_4dev" for d in (18, 34, 50, 101, 200)] + [
    f"llama3_{s}_train_4dev" for s in ("100m", "200m", "500m", "1b", "2b", "3b")
]

# (vocab, embed, heads, kv_heads, head_dim, layers, mlp) of each LLaMA size, from workloads/README.md;
# 100m is the measured MaxText config of shared/reference/measured/README.md.
LLAMA = {
    "100m": (128256, 576, 9, 9, 128, 7, 2016),
    "200m": (128256, 768, 6, 6, 128, 12, 2688),
    "500m": (128256, 1280, 10, 10, 128, 14, 4480),
    "1b": (128256, 2048, 32, 8, 64, 16, 8192),
    "2b": (128256, 2560, 20, 4, 128, 20, 8192),
    "3b": (128256, 3072, 24, 8, 128, 28, 8192),
}


def llama_params_by_hand(vocab: int, e: int, h: int, kv: int, d: int, layers: int, mlp: int) -> int:
    """Embedding + unembedding (untied), per layer two RMSNorm scales, q/k/v/o and the gated MLP,
    and the final RMSNorm scale."""
    per_layer = 2 * e + e * h * d + 2 * e * kv * d + h * d * e + 3 * e * mlp
    return 2 * vocab * e + layers * per_layer + e


def test_llama_100m_by_hand_figure() -> None:
    # 2*128256*576 + 7*(2*576 + 576*1152 + 2*576*1152 + 1152*576 + 3*576*2016) + 576
    assert llama_params_by_hand(*LLAMA["100m"]) == 190_724_544


def test_every_llama_script_prints_the_hand_derived_parameter_count() -> None:
    names = [f"llama3_{size}_train_4dev" for size in LLAMA]
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "export_workloads.py"), "--params-only", *names],
        capture_output=True, text=True, check=True,
    )
    printed = dict(re.findall(r"^llama3_(\w+)_train_4dev: (\d+) parameters$", done.stdout, re.M))
    assert {size: int(n) for size, n in printed.items()} == {
        size: llama_params_by_hand(*config) for size, config in LLAMA.items()
    }


def test_resnet_parameter_counts_are_the_standard_ones() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "export_workloads.py"), "--params-only", *MEASURED[:5]],
        capture_output=True, text=True, check=True,
    )
    printed = [int(n) for n in re.findall(r": (\d+) parameters", done.stdout)]
    # The published counts of ResNet-18/34/50/101/200 with a 1000-class head.
    assert printed == [11_689_512, 21_797_672, 25_557_032, 44_549_160, 64_673_832]


def test_every_workload_of_the_issue_is_shipped() -> None:
    assert set(SMALL + MEASURED) <= set(workload_names())


@pytest.mark.parametrize("name", SMALL)
def test_small_workloads_are_plain_files_that_parse(name: str) -> None:
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir

    path = workload_path(name)
    assert path.suffix == ".mlir" and path.parent == REPO / "workloads"
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(path.read_text())
    devices = 8 if name.endswith("8dev") else 4
    assert ir.IntegerAttr(module.operation.attributes["mhlo.num_partitions"]).value == devices


@pytest.mark.parametrize("name", SMALL + ["llama3_100m_train_4dev"])
def test_workloads_load_with_the_reader(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reader = pytest.importorskip("hespas_py.mlir.reader")
    monkeypatch.setenv("HESPAS_CACHE_DIR", str(tmp_path))
    module = reader.load_module(workload_path(name))
    assert module.num_devices == (8 if name.endswith("8dev") else 4)


def test_compressed_workload_is_decompressed_once_into_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HESPAS_CACHE_DIR", str(tmp_path))
    first = workload_path("llama3_100m_train_4dev.mlir")
    assert first.parent == tmp_path / "workloads" and first.suffix == ".mlir"
    assert first.read_text().startswith("module @")
    mtime = first.stat().st_mtime_ns
    assert workload_path("llama3_100m_train_4dev") == first and first.stat().st_mtime_ns == mtime


def test_unknown_workload_is_a_hespas_error() -> None:
    with pytest.raises(HespasError, match="no_such_model: no such shipped workload"):
        workload_path("no_such_model")


def test_shipped_files_name_no_path_of_the_machine_they_came_from() -> None:
    """Source-file tables and locations are relative (``scripts/models/...``), not absolute."""
    import gzip

    absolute = re.compile(rb'"/(?:work|home|root|tmp|Users)/')
    for path in (REPO / "workloads").rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            data = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
            assert not absolute.search(data), path
