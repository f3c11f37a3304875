"""Flash-attention patterns (`hespas_py.kernels.attention`) on attention that JAX lowers,
and the ``fused_attention`` switch of ``fused_roofline``."""

from __future__ import annotations

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from hespas_py.estimators.base import get_estimator
from hespas_py.hardware import Hardware, Params
from hespas_py.kernels import FLASH_BACKWARD, FLASH_FORWARD, Kind, plan_kernels
from hespas_py.kernels.linalg_costs import REDUCIBLE_F32
from hespas_py.mlir.reader import load_module
from hespas_py.pipeline import generate
from hespas_py.run import build_config
from hespas_py.split.program import program_ops

B, S, H, KV, D = 1, 256, 4, 2, 64
#: FLOPs of one of attention's matmuls (QK^T, PV, ...): 2 B H S^2 D.
MATMUL = 2 * B * H * S * S * D
#: bf16 bytes of q (or O, dO) and of k (or v) with KV of the H heads.
Q_BYTES, KV_BYTES = B * S * H * D * 2, B * S * KV * D * 2
#: f32 logsumexp per row.
LSE_BYTES = B * H * S * 4


def attention(q, k, v, causal=True, axis=-1):
    """Plain JAX attention (as scripts/models/llama.py writes it): GQA by repeating k/v heads."""
    k, v = jnp.repeat(k, q.shape[2] // k.shape[2], 2), jnp.repeat(v, q.shape[2] // v.shape[2], 2)
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    if causal:
        mask = jnp.tril(jnp.ones((q.shape[1], k.shape[1]), bool))
        scores = jnp.where(mask, scores.astype(jnp.float32), jnp.finfo(jnp.float32).min)
    weights = jax.nn.softmax(scores.astype(jnp.float32), axis=axis).astype(v.dtype)
    return jnp.einsum("bhqk,bkhd->bqhd", weights, v)


def grouped(q, k, v):
    """GQA as a grouped einsum (no repeat): the scores are transposed on their way."""
    b, s, h, d = q.shape
    scores = jnp.einsum("bqkgd,btkd->bkgqt", q.reshape(b, s, k.shape[2], h // k.shape[2], d), k)
    scores = jnp.where(jnp.tril(jnp.ones((s, s), bool)), scores, -1e9)
    weights = jax.nn.softmax(scores.astype(jnp.float32), axis=-1).astype(v.dtype)
    return jnp.einsum("bkgqt,btkd->bqkgd", weights, v).reshape(b, s, h, d)


def normalized_late(q, k, v):
    """MaxText's dot-product attention: the softmax sum divides the output, after P v."""
    scores = jnp.einsum("btkd,bskd->bkts", q, k)
    scores = jnp.where(jnp.tril(jnp.ones((q.shape[1], k.shape[1]), bool)), scores, -1e30)
    exps = jnp.exp(scores - jnp.max(scores, axis=-1, keepdims=True))
    out = jnp.einsum("bkts,bskd->btkd", exps, v)
    return (out / jnp.moveaxis(jnp.sum(exps, axis=-1, keepdims=True), 1, 2)).astype(q.dtype)


def lowered(tmp_path: Path, fn, mode: str = "fwd", dtype=jnp.bfloat16, kv: int = KV) -> Path:
    """``fn`` (forward, backward via vjp, or backward of a remat'd forward) as a StableHLO file."""
    q = jax.ShapeDtypeStruct((B, S, H, D), dtype)
    k = jax.ShapeDtypeStruct((B, S, kv, D), dtype)
    if mode == "fwd":
        text = jax.jit(fn).lower(q, k, k).as_text()
    else:
        inner = jax.checkpoint(fn) if mode == "remat" else fn
        step = jax.jit(lambda q, k, v, do: jax.vjp(inner, q, k, v)[1](do))
        text = step.lower(q, k, k, q).as_text()
    path = tmp_path / f"{mode}.mlir"
    path.write_text(text)
    return path


def kernels(path: Path, fused: bool = True):
    ops, returned = program_ops(load_module(path))
    return plan_kernels(ops, set(returned), fused)


def flash(path: Path):
    return [k for k in kernels(path) if k.kind is Kind.ATTENTION]


def test_causal_forward_is_one_flash_kernel_that_never_writes_the_scores(tmp_path):
    path = lowered(tmp_path, attention)
    (kernel,) = flash(path)
    assert kernel.label == FLASH_FORWARD
    # q, k, v read (k, v once per KV head: the GQA repeat is folded), O and the logsumexp written.
    assert kernel.bytes == Q_BYTES + 2 * KV_BYTES + Q_BYTES + LSE_BYTES
    assert kernel.tensor_flops == 0.5 * 2 * MATMUL  # causal: half the blocks of QK^T and PV
    assert kernel.gemm_mnk == (B * H * S, D, S)
    score_bytes = B * H * S * S * 2
    assert all(k.bytes < score_bytes for k in kernels(path))
    assert any(k.bytes >= score_bytes for k in kernels(path, fused=False))


def test_non_causal_f32_computes_every_block(tmp_path):
    (kernel,) = flash(lowered(tmp_path, lambda q, k, v: attention(q, k, v, causal=False),
                              dtype=jnp.float32))
    assert kernel.tensor_flops == 2 * MATMUL
    assert kernel.tensor_dtype == REDUCIBLE_F32  # JAX's default precision: TF32 on CUDA GPUs
    assert kernel.bytes == 2 * (2 * Q_BYTES + 2 * KV_BYTES) + LSE_BYTES


def test_grouped_query_einsum_with_transposed_scores(tmp_path):
    (kernel,) = flash(lowered(tmp_path, grouped))
    assert kernel.label == FLASH_FORWARD
    assert kernel.tensor_flops == 0.5 * 2 * MATMUL
    assert kernel.bytes == 2 * Q_BYTES + 2 * KV_BYTES + LSE_BYTES


def test_backward_is_one_kernel_of_five_matmuls(tmp_path):
    path = lowered(tmp_path, attention, "bwd")
    (kernel,) = flash(path)
    assert kernel.label == FLASH_BACKWARD
    assert kernel.tensor_flops == 0.5 * 5 * MATMUL  # S recomputed, dV, dP, dQ, dK
    # q, k, v, dO read, plus O and the logsumexp; dq and the per-head dk, dv written (their
    # GQA sums are kernels of their own, as in FlashAttention-2).
    assert kernel.bytes == (Q_BYTES + 2 * KV_BYTES + Q_BYTES) + 3 * Q_BYTES + Q_BYTES + LSE_BYTES
    assert kernel.gemm_mnk == (B * H * S, D, S)


def test_remat_backward_recomputes_the_forward_inside_the_flash_kernel(tmp_path):
    (kernel,) = flash(lowered(tmp_path, attention, "remat"))
    assert kernel.label == FLASH_BACKWARD
    assert kernel.tensor_flops == 0.5 * 5 * MATMUL


def test_output_normalized_after_the_value_matmul(tmp_path):
    fwd = flash(lowered(tmp_path, normalized_late, kv=H))
    assert [k.label for k in fwd] == [FLASH_FORWARD]
    # The program needs the unnormalized output to differentiate the late division: the
    # backward recomputes the forward too.
    both = flash(lowered(tmp_path, normalized_late, "bwd", kv=H))
    assert sorted(k.label for k in both) == [FLASH_FORWARD, FLASH_BACKWARD]


@pytest.mark.parametrize("fn", [
    lambda q, k, v: attention(q, k, v, axis=-2),  # softmax over the queries
    lambda q, k, v: jnp.einsum("bhqk,bqhd->bkhd", jax.nn.softmax(  # P v over the queries
        jnp.einsum("bqhd,bkhd->bhqk", q, q).astype(jnp.float32)).astype(q.dtype), q),
    lambda q, k, v: jnp.einsum("bhqk,bkhd->bqhd", jnp.exp(jnp.einsum("bqhd,bkhd->bhqk", q, q)),
                               jnp.repeat(v, 2, 2)),  # no max, no sum: not a softmax
], ids=["query_softmax", "value_over_queries", "no_softmax"])
def test_near_misses_are_left_to_the_fusion_rules(tmp_path, fn):
    path = lowered(tmp_path, fn)
    assert not flash(path)
    assert kernels(path) == kernels(path, fused=False)


def test_score_matrix_read_after_the_attention_stays_materialized(tmp_path):
    def weights_out(q, k, v):
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, jnp.repeat(k, 2, 2))
        weights = jax.nn.softmax(scores.astype(jnp.float32), axis=-1)
        return jnp.einsum("bhqk,bkhd->bqhd", weights.astype(v.dtype), jnp.repeat(v, 2, 2)), weights
    assert not flash(lowered(tmp_path, weights_out))


def test_attention_in_a_scanned_loop_body_is_fused_every_trip(tmp_path):
    def layers(q, k, v):
        out, _ = jax.lax.scan(lambda x, _: (attention(x, k, v), None), q, None, length=3)
        return out
    (kernel,) = flash(lowered(tmp_path, layers))
    assert (kernel.label, kernel.count) == (FLASH_FORWARD, 3)


def test_switch_off_plans_what_it_always_planned(tmp_path):
    path = lowered(tmp_path, attention, "remat")
    ops, returned = program_ops(load_module(path))
    assert plan_kernels(ops, set(returned)) == kernels(path, fused=False)
    assert not [k for k in kernels(path, fused=False) if k.kind is Kind.ATTENTION]


def hardware(**params) -> Hardware:
    return Hardware(name="test", peak_flops=1e12, per_dtype_flops={"bf16": 100e12},
                    memory_bandwidth=1e12, vector_flops=1e12,
                    params=Params().updated({"launch_overhead_s": 0.0, "memory_efficiency": 1.0,
                                             "compute_memory_overlap": 0.0, **params}))


def test_flash_kernel_time_uses_the_attention_efficiencies(tmp_path):
    ops, returned = program_ops(load_module(lowered(tmp_path, attention, "remat")))
    estimator = get_estimator("fused_roofline", hardware(
        fused_attention=True, attention_efficiency=0.5, attention_backward_efficiency=0.25))
    estimate = estimator.estimate_kernels(plan_kernels(ops, set(returned), True))
    rows = {r.name: r for r in estimate.per_op}
    bwd = rows[FLASH_BACKWARD]
    assert bwd.time_s == pytest.approx(0.5 * 5 * MATMUL / (100e12 * 0.25) + bwd.bytes / 1e12)
    # Without a preset figure a flash kernel runs at the matmul efficiency.
    default = get_estimator("fused_roofline", hardware(fused_attention=True, tensor_efficiency=0.8))
    time_s = default.kernel_cost(next(k for k in plan_kernels(ops, set(returned), True)
                                      if k.kind is Kind.ATTENTION))[0]
    assert time_s == pytest.approx(0.5 * 5 * MATMUL / (100e12 * 0.8) + bwd.bytes / 1e12)


@pytest.mark.parametrize("fused", [True, False])
def test_module_stats_says_how_attention_was_costed(tmp_path, fused):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"perf_estimator": {"method": "fused_roofline", "hardware": {
        "peak_flops": 1e12, "memory_bandwidth": 1e12, "per_datatype_flops": {"bf16": 1e14},
        "fused_attention": fused}}}))
    out = tmp_path / "out"
    step = lowered(tmp_path, attention, "remat")
    generate(build_config(str(config), mlir_file=str(step), output_dir=str(out)))
    stats = json.loads((out / "module_stats.json").read_text())
    attention_stats = stats["attention"]
    assert attention_stats["mode"] == ("fused" if fused else "materialized")
    assert attention_stats["forward"] == {"count": 0, "time_s": 0.0}
    assert attention_stats["backward"]["count"] == int(fused)
    assert (attention_stats["backward"]["time_s"] > 0) == fused
    assert (FLASH_BACKWARD in stats["per_op"]) == fused


def test_shipped_llama_has_one_flash_kernel_per_layer_and_pass():
    from hespas_py.export import workload_path

    ops, returned = program_ops(load_module(workload_path("llama3_100m_train_4dev")))
    flash = [k for k in plan_kernels(ops, set(returned), True) if k.kind is Kind.ATTENTION]
    assert sorted(k.label for k in flash) == [FLASH_FORWARD] * 7 + [FLASH_BACKWARD] * 7
    # One bf16 q, k, v, O, dO... of the layer: 1 x 4096 tokens x 9 heads x 128; 36864 rows.
    head, lse = 4096 * 9 * 128 * 2, 36864 * 4
    fwd = next(k for k in flash if k.label == FLASH_FORWARD)
    bwd = next(k for k in flash if k.label == FLASH_BACKWARD)
    assert fwd.bytes == 4 * head + lse  # q, k, v in; O out
    # q, k (recomputed with RoPE by their own kernels), v (through the remat barrier, an
    # identity), O, dO and the logsumexp in; dq, dk, dv out.
    assert bwd.bytes == 5 * head + lse + 3 * head


def test_long_producer_chains_neither_crash_nor_change_the_match(tmp_path):
    def deep(q, k, v):
        for i in range(1500):  # a dataflow deeper than Python's recursion limit
            q = q * 1.001 if i % 30 else jnp.einsum("bshd,de->bshe", q, jnp.eye(D, dtype=q.dtype))
        return attention(q, k, v)
    (kernel,) = flash(lowered(tmp_path, deep))
    assert kernel.bytes == 2 * Q_BYTES + 2 * KV_BYTES + LSE_BYTES
