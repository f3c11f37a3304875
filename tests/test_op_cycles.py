"""Vector work weighted by XLA's measured op cycles (`fusion.op_cycles`, preset param
``vector_op_cycles``) on small hand-written modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.estimators.base import get_estimator
from hespas_py.hardware import find_preset, load_hardware
from hespas_py.kernels import Kind, plan_kernels
from hespas_py.kernels.op_cycles import DEFAULT_CYCLES, PROFILES, vector_work
from hespas_py.mlir.reader import load_module
from hespas_py.split.program import program_ops

N = 1024 * 1024
SM90 = PROFILES["sm_90"]


def plan(tmp_path: Path, body: str, dtype: str = "f32", result: str = "tensor<1024x1024xf32>"):
    path = tmp_path / "m.mlir"
    path.write_text(f"module @m {{\n  func.func public @main(%a: tensor<1024x1024x{dtype}>) -> "
                    f"({result}) {{\n{body}\n  }}\n}}\n")
    ops, returned = program_ops(load_module(path))
    return plan_kernels(ops, set(returned))


SOFTMAX_ROW = """
    %e = stablehlo.exponential %a : tensor<1024x1024xf32>
    %m = stablehlo.multiply %e, %a : tensor<1024x1024xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [1] : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    return %s : tensor<1024xf32>"""


def test_elementwise_ops_and_reducers_cost_their_profiled_cycles(tmp_path):
    (kernel,) = plan(tmp_path, SOFTMAX_ROW, result="tensor<1024xf32>")
    assert kernel.kind is Kind.REDUCTION
    assert kernel.flops == 3 * N  # one FLOP per element each: exp, multiply, add
    exp, mul, add = SM90["exponential", "f32"], SM90["multiply", "f32"], SM90["add", "f32"]
    assert (exp, mul, add) == (79, 3, 7)
    assert vector_work(kernel.ops, SM90) == (exp + mul + add) * N


def test_ops_and_types_the_profile_lacks_cost_the_default(tmp_path):
    (kernel,) = plan(tmp_path, """
    %e = stablehlo.exponential %a : tensor<1024x1024xbf16>
    %c = stablehlo.compare GT, %e, %a : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xi1>
    return %c : tensor<1024x1024xi1>""", dtype="bf16", result="tensor<1024x1024xi1>")
    assert ("exponential", "bf16") not in SM90 and ("compare", "i1") not in SM90
    assert vector_work(kernel.ops, SM90) == 2 * DEFAULT_CYCLES * N


def test_h100_times_a_transcendental_kernel_at_its_cycles(tmp_path):
    (kernel,) = plan(tmp_path, """
    %s = stablehlo.sine %a : tensor<1024x1024xf32>
    return %s : tensor<1024x1024xf32>""")
    hardware = load_hardware("H100_80GB", "fused_roofline")
    assert hardware.params.vector_op_cycles == "sm_90"
    weighted = get_estimator("fused_roofline", hardware)
    plain = get_estimator("fused_roofline", hardware.with_params({"vector_op_cycles": None}))
    launch, overlap = hardware.params.launch_overhead_s, 0.95
    memory = kernel.bytes / (hardware.memory_bandwidth * hardware.params.memory_efficiency)

    def expected(flops):
        compute = flops / hardware.vector_flops
        return launch + compute + memory - overlap * min(compute, memory)

    assert weighted.kernel_cost(kernel)[0] == pytest.approx(expected(958 * N))
    assert plain.kernel_cost(kernel)[0] == pytest.approx(expected(N))
    assert weighted.kernel_cost(kernel)[0] > 3 * plain.kernel_cost(kernel)[0]  # compute-bound now


def test_an_unknown_op_profile_is_an_error():
    hardware = load_hardware("H100_80GB", "fused_roofline")
    bad = hardware.with_params({"vector_op_cycles": "sm_42"})
    with pytest.raises(HespasError, match="unknown op profile 'sm_42'"):
        get_estimator("fused_roofline", bad)


@pytest.mark.parametrize("preset,profile", [("H100_80GB", "sm_90"), ("H100_SXM_80GB", "sm_90"),
                                            ("H200_141GB", "sm_90"), ("A100_SXM_40GB", None),
                                            ("TPUv6e", None)])
def test_presets_name_the_profile_of_their_architecture(preset, profile):
    params = find_preset(preset).every_key()
    assert params.get("vector_op_cycles") == profile
    assert profile is None or "hlo_op_profiles_data.h" in params["vector_op_cycles_source"]
