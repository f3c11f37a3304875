"""Whole-buffer layout copies (`hespas_py.kernels.layout_chains`): a GEMM operand layout
that XLA's layout assignment carries back through a slice and a ``dynamic_update_slice`` chain
to an entry parameter, and out to an entry result (the H200 decode step's KV caches)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hespas_py.hardware import load_hardware
from hespas_py.kernels import GpuRules, plan_kernels
from hespas_py.kernels.classes import kernel_class
from hespas_py.memory import analyze, memory_rules
from hespas_py.mlir.reader import load_module
from hespas_py.resources import shipped
from hespas_py.split.program import program_ops

RULES = GpuRules(cublas_operand_layouts=True)


def cache_step(tmp_path: Path, cache: str, slice_: str, operand: str, batch: str) -> Path:
    """Update a cache at position %t, slice layer 0 and contract it with a query."""
    path = tmp_path / "m.mlir"
    path.write_text(f"""module @m {{
  func.func public @main(%cache: tensor<{cache}xbf16>, %upd: tensor<1x4x1x2x8xbf16>, %t: tensor<i32>, %q: tensor<4x2x1x8xbf16>) -> (tensor<{cache}xbf16>, tensor<4x2x1x16xbf16>) {{
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %u = stablehlo.dynamic_update_slice %cache, %upd, %c0, %c0, %t, %c0, %c0 : (tensor<{cache}xbf16>, tensor<1x4x1x2x8xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<{cache}xbf16>
    %s = stablehlo.slice %u [{slice_}] : (tensor<{cache}xbf16>) -> tensor<1x{operand}xbf16>
    %r = stablehlo.reshape %s : (tensor<1x{operand}xbf16>) -> tensor<{operand}xbf16>
    %d = stablehlo.dot_general %q, %r, batching_dims = [0, 1] x [{batch}], contracting_dims = [3] x [3] : (tensor<4x2x1x8xbf16>, tensor<{operand}xbf16>) -> tensor<4x2x1x16xbf16>
    return %u, %d : tensor<{cache}xbf16>, tensor<4x2x1x16xbf16>
  }}
}}
""")
    return path


def copies(path: Path, entry: bool = True) -> list[float]:
    ops, returned = program_ops(load_module(path))
    return [k.bytes for k in plan_kernels(ops, set(returned), rules=RULES, entry=entry)
            if k.part == "copy"]


CACHE = 2 * 4 * 16 * 2 * 8 * 2  # bytes of the bf16 cache


def test_a_sliced_cache_the_gemm_cannot_read_is_copied_whole_in_and_out(tmp_path):
    # [layers, batch, time, kv_heads, head_dim]: the batch dimensions (batch, kv_heads) of the
    # attention dot are not adjacent, so layout assignment gives the whole cache their order
    path = cache_step(tmp_path, "2x4x16x2x8", "0:1, 0:4, 0:16, 0:2, 0:8", "4x16x2x8", "0, 2")
    assert sorted(copies(path)) == [2 * CACHE, 2 * CACHE]  # in before the dot, out at the end
    assert copies(path, entry=False) == []  # a loop body's carried state has no fixed layout
    module = load_module(path)
    xla_like = analyze(module, rules=RULES).temporaries_bytes
    assert xla_like - analyze(module).temporaries_bytes >= CACHE  # the copy is a temporary


def test_a_cache_stored_in_the_order_the_gemm_reads_is_not_copied(tmp_path):
    # [layers, batch, kv_heads, time, head_dim]: (batch, kv_heads) adjacent, rows, columns
    path = cache_step(tmp_path, "2x4x2x16x8", "0:1, 0:4, 0:2, 0:16, 0:8", "4x2x16x8", "0, 1")
    assert copies(path) == []


def test_the_decode_steps_kv_caches_are_copied_whole_as_in_xlas_program():
    # XLA's optimized HLO: K transposed whole and back, V copied and rewritten whole; its buffer
    # assignment holds two cache-sized temporaries (11.62 GB peak, measured.csv)
    module = load_module(shipped("workloads", "gpu_h200", "llama1b_decode_b32.mlir.gz"))
    ops, returned = program_ops(module)
    cache = 16 * 32 * 4096 * 8 * 64 * 2
    kernels = plan_kernels(ops, set(returned), rules=RULES, entry=True)
    whole = [k for k in kernels if kernel_class(k) == "copy" and k.bytes == 2 * cache]
    assert len(whole) == 4
    rules = memory_rules(load_hardware("H200_141GB", "fused_roofline").params)
    assert analyze(module, rules=rules).peak_bytes / 11_620_717_084 - 1 == pytest.approx(0, abs=0.05)
