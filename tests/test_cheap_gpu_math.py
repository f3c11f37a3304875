"""XLA:GPU's priority fusion recomputes cheap f32 math (exp, sqrt, rsqrt, divide) in several
consumer kernels (`GpuRules.cheap_gpu_math`), and the memory analysis plans with the preset's GPU
rewrites (`hespas_py.memory.memory_rules`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from hespas_py.hardware import Params, load_hardware
from hespas_py.kernels import GpuRules, plan_kernels
from hespas_py.memory import analyze, memory_rules
from hespas_py.mlir.reader import load_module
from hespas_py.resources import shipped
from hespas_py.split.program import program_ops

X = "tensor<256x8192xf32>"
EXP = f"""module @m {{
  func.func public @main(%x: {X}) -> ({X}, tensor<256xf32>) {{
    %e = stablehlo.exponential %x : {X}
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : ({X}, tensor<f32>) -> tensor<256xf32>
    %b = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<256xf32>) -> {X}
    %y = stablehlo.divide %e, %b : {X}
    return %y, %s : {X}, tensor<256xf32>
  }}
}}
"""


def kernels(tmp_path: Path, rules: GpuRules):
    path = tmp_path / "m.mlir"
    path.write_text(EXP)
    ops, returned = program_ops(load_module(path))
    return plan_kernels(ops, set(returned), rules=rules)


def test_an_f32_exp_read_by_two_kernels_is_recomputed_in_each_on_gpus(tmp_path):
    plain = kernels(tmp_path, GpuRules())
    cheap = kernels(tmp_path, GpuRules(cheap_gpu_math=True))
    x, row = 256 * 8192 * 4, 256 * 4
    # elsewhere exp is expensive: the reduction's kernel writes it, the divide's reads it back
    assert [k.label for k in plain] == ["exponential+reduce", "broadcast_in_dim+divide"]
    assert sum(k.bytes for k in plain) == pytest.approx(x + x + row + x + row + x)
    # XLA:GPU: the divide's kernel recomputes it from x; e never reaches memory
    assert [k.label for k in cheap] == ["exponential+broadcast_in_dim+divide", "exponential+reduce"]
    assert sum(k.bytes for k in cheap) == pytest.approx(x + row + x + row + x)


def test_the_memory_analysis_plans_with_the_presets_gpu_rewrites_but_the_operand_cone():
    h200 = load_hardware("H200_141GB", "fused_roofline")
    rules = memory_rules(h200.params)
    assert rules == dataclasses.replace(GpuRules.of(h200.params), duplication_cone=False)
    assert rules.triton_normalization and rules.cublas_gemm_operands and rules.cheap_gpu_math
    assert memory_rules(Params()) == GpuRules()
    assert memory_rules(load_hardware("TPUv5p", "fused_roofline").params) == GpuRules()


def test_gpt2_peak_is_xla_gpus_with_the_h200_rules():
    # GPT-2 small on an H200 (workloads/gpu_h200/measured.csv): XLA saves the bf16 scores and
    # recomputes the probabilities in the softmax backward; planned without the GPU rewrites
    # every layer kept two f32 [8, 12, 1024, 1024] buffers for its backward pass
    module = load_module(shipped("workloads", "gpu_h200", "gpt2_124m_b8.mlir.gz"))
    xla_peak = 13_245_908_460
    rules = memory_rules(load_hardware("H200_141GB", "fused_roofline").params)
    assert analyze(module).peak_bytes / xla_peak - 1 > 0.3
    assert abs(analyze(module, rules=rules).peak_bytes / xla_peak - 1) < 0.10
