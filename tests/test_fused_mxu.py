"""Matrix-unit padding of ``fused_roofline`` (``mxu_size``): TPU dots and flash kernels."""

from __future__ import annotations

from pathlib import Path

import pytest

from hespas_py.estimators.base import get_estimator
from hespas_py.hardware import (
    Hardware,
    Params,
    find_preset,
    load_hardware,
    preset_names,
)
from hespas_py.kernels import Kind, plan_kernels
from hespas_py.mlir.reader import load_module
from hespas_py.split.program import program_ops
from test_fused_attention import MATMUL, attention, lowered


def hardware(**params) -> Hardware:
    """Compute-only timing: 100 TFLOP/s bf16, memory and launches free."""
    return Hardware(name="test", peak_flops=1e12, per_dtype_flops={"bf16": 100e12},
                    memory_bandwidth=1e21, vector_flops=1e18,
                    params=Params().updated({"launch_overhead_s": 0.0,
                                             "compute_memory_overlap": 0.0, **params}))


def dot_kernel(tmp_path: Path, lhs: str, rhs: str, out: str, numbers: str):
    path = tmp_path / "dot.mlir"
    path.write_text(
        "module @m {\n"
        f"  func.func public @main(%x: tensor<{lhs}xbf16>, %w: tensor<{rhs}xbf16>)"
        f" -> tensor<{out}xbf16> {{\n"
        f"    %0 = stablehlo.dot_general %x, %w, {numbers} : (tensor<{lhs}xbf16>,"
        f" tensor<{rhs}xbf16>) -> tensor<{out}xbf16>\n"
        f"    return %0 : tensor<{out}xbf16>\n  }}\n}}\n")
    ops, returned = program_ops(load_module(path))
    (kernel,) = plan_kernels(ops, set(returned))
    return kernel


def compute_s(kernel, mxu: int) -> float:
    return get_estimator("fused_roofline", hardware(mxu_size=mxu)).kernel_cost(kernel)[0]


@pytest.mark.parametrize("m, n, k, fill", [
    (1024, 1024, 256, 1.0),     # every dimension a whole tile
    (1024, 1024, 128, 0.5),     # K = 128 fills half the array's rows
    (1024, 1024, 384, 0.75),    # K rounds up to 512
    (1024, 128, 1024, 1.0),     # N = 128: the lhs is made stationary instead
    (128, 128, 1024, 0.5),      # both free sizes short: half the columns either way
    (128, 128, 128, 0.25),
])
def test_dot_contracted_and_stationary_dims_round_up_to_the_array(tmp_path, m, n, k, fill):
    kernel = dot_kernel(tmp_path, f"{m}x{k}", f"{k}x{n}", f"{m}x{n}",
                        "contracting_dims = [1] x [0]")
    assert kernel.dot_mnk == (m, n, k)
    assert compute_s(kernel, 256) == pytest.approx(2 * m * n * k / (100e12 * fill))
    # Off (the GPU presets): the plain tensor rate.
    assert compute_s(kernel, 0) == pytest.approx(2 * m * n * k / 100e12)


def test_batch_dimensions_are_not_a_free_size(tmp_path):
    # 64 heads of [256 x 128] @ [128 x 256]: M = 256 per head, not 64 x 256.
    kernel = dot_kernel(tmp_path, "64x256x128", "64x128x256", "64x256x256",
                        "batching_dims = [0] x [0], contracting_dims = [2] x [1]")
    assert kernel.dot_mnk == (256, 256, 128)
    assert kernel.gemm_mnk == (64 * 256, 256, 128)
    assert compute_s(kernel, 256) == pytest.approx(2 * compute_s(kernel, 128))


def test_flash_kernel_runs_at_the_share_of_the_array_its_head_dim_fills(tmp_path):
    ops, returned = program_ops(load_module(lowered(tmp_path, attention)))  # head dim 64
    (kernel,) = [k for k in plan_kernels(ops, set(returned), True) if k.kind is Kind.ATTENTION]
    time_s = {mxu: get_estimator("fused_roofline", hardware(
        mxu_size=mxu, fused_attention=True, tensor_efficiency=0.8)).kernel_cost(kernel)[0]
        for mxu in (0, 64, 128, 256)}
    causal_matmuls = 0.5 * 2 * MATMUL  # QK^T and PV, half the blocks
    assert time_s[0] == pytest.approx(causal_matmuls / (100e12 * 0.8))
    assert time_s[64] == pytest.approx(time_s[0])
    assert time_s[128] == pytest.approx(2 * time_s[0])
    assert time_s[256] == pytest.approx(4 * time_s[0])


def test_tpu_presets_name_their_matrix_unit_and_gpus_have_none():
    sizes = {name: load_hardware(name, "fused_roofline").params.mxu_size
             for name in preset_names()}
    assert sizes["TPUv6e"] == sizes["TPU7x"] == 256
    assert sizes["TPUv3"] == sizes["TPUv4"] == sizes["TPUv5e"] == sizes["TPUv5p"] == 128
    assert all(size == 0 for name, size in sizes.items() if not name.startswith("TPU"))
    for name in ("TPUv6e", "TPU7x"):
        assert find_preset(name).every_key()["mxu_size_source"]
