"""MaxText Llama-style decoder training steps (AI-Hypercomputer/maxtext ``decoder_block: llama2``).

The ``llama2`` decoder block, which MaxText's Llama-2, Llama-3.1 and Mistral configs use: RMSNorm
(eps 1e-5, f32), separate query/key/value projections with grouped KV heads, RoPE, causal flash
attention (``attention: flash``; query scaled by 1/sqrt(head_dim)), output projection, SiLU-gated
MLP (``mlp_activations: [silu, linear]``), untied embeddings looked up by a one-hot matmul
(``use_iota_embed: True`` in every tpu-recipes run), final RMSNorm and an f32 cast of the
logits; bf16 compute over ``weight_dtype`` parameters; AdamW (b1 0.9, b2 0.95, weight decay 0.1)
after global norm clipping (`fsdp`); no dropout.

Each `Program` is one published tpu-recipes run (``../shared/reference/measured/
scale_step_times.csv``): FSDP over every chip (``ici_fsdp_parallelism: -1``; Llama-2-70B's
``ici_fsdp_transpose_parallelism: -1`` splits the same way), the run's per-device batch, and its
``remat_policy: custom``: the names the run offloads to host memory are saved (not recomputed),
everything else in a layer is recomputed. ``hespas export maxtext_llama.py:<name>``.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import attention
import jax
import jax.numpy as jnp
from fsdp import (
    COMPUTE,
    Layout,
    Param,
    count,
    cross_entropy,
    gather_all,
    scan_layers,
    stacked,
    train_step,
    whole,
)
from jax.ad_checkpoint import checkpoint_name
from llama import rms_norm, rope  # the same RMSNorm and RoPE as the 4-device LLaMA-3 steps


@dataclasses.dataclass(frozen=True)
class Config:
    """A MaxText ``llama2``-block model (``MaxText/configs/models/<name>.yml``)."""

    vocab: int
    embed: int
    heads: int
    kv_heads: int
    head_dim: int
    layers: int
    mlp: int
    rope_theta: float
    norm_eps: float = 1e-5


CONFIGS = {
    "llama3.1-8b": Config(vocab=128256, embed=4096, heads=32, kv_heads=8, head_dim=128, layers=32, mlp=14336,
                          rope_theta=500_000.0),
    "llama3.1-70b": Config(vocab=128256, embed=8192, heads=64, kv_heads=8, head_dim=128, layers=80, mlp=28672,
                           rope_theta=500_000.0),
    "llama2-70b": Config(vocab=32000, embed=8192, heads=64, kv_heads=8, head_dim=128, layers=80, mlp=28672,
                         rope_theta=10_000.0),
    "mistral-7b": Config(vocab=32000, embed=4096, heads=32, kv_heads=8, head_dim=128, layers=32, mlp=14336,
                         rope_theta=1_000_000.0),
}

# Saved by every MaxText policy: the remat start point of each layer (base.yml decoder_layer_input: device).
LAYER_INPUT = "decoder_layer_input"
QKV = ("query_proj", "key_proj", "value_proj")


@dataclasses.dataclass(frozen=True)
class Program:
    """One run's per-device step.

    Attributes:
        model: `CONFIGS` key.
        seq: tokens per sequence (``max_target_length``).
        layout: mesh and per-device batch.
        saved: checkpoint names the run saves or offloads (besides `LAYER_INPUT`).
        weight_dtype: parameter (and Adam moment) dtype.
    """

    model: str
    seq: int
    layout: Layout
    saved: tuple[str, ...]
    weight_dtype: Any = jnp.float32


def _fsdp(devices: int, batch: int) -> Layout:
    return Layout(1, devices, batch)


# llama3_1_8b_8192*, mistral_7b: decoder_layer_input, out_proj, query/key/value_proj offloaded.
_8B_SAVED = (*QKV, "out_proj")
_70B_SAVED = QKV  # llama3_1_70b_8192*: decoder_layer_input, q/k/v offloaded
PROGRAMS = {
    # maxtext benchmarks/maxtext_trillium_model_configs.py @ tpu-recipes-v0.1.4, per device batch as run.
    **{f"llama31_8b_{n}dev": Program("llama3.1-8b", 8192, _fsdp(n, b), _8B_SAVED)
       for n, b in ((8, 3), (16, 3), (32, 3), (64, 5), (128, 4), (256, 4))},
    "llama31_70b_32dev": Program("llama3.1-70b", 8192, _fsdp(32, 2), _70B_SAVED, jnp.bfloat16),
    **{f"llama31_70b_{n}dev": Program("llama3.1-70b", 8192, _fsdp(n, b), _70B_SAVED)
       for n, b in ((64, 2), (128, 4), (256, 5))},
    "mistral_7b_8dev": Program("mistral-7b", 8192, _fsdp(8, 6), _8B_SAVED),
    # tpu-recipes ironwood llama3.1-70b 8k-bf16-tpu7x-4x4x4: 64 chips, two devices each; names saved on
    # device (Adam mu kept in bf16 there; here in f32 like the weights).
    "llama31_70b_tpu7x_128dev": Program("llama3.1-70b", 8192, _fsdp(128, 2), ("context", *QKV)),
    # llama2_70b_4096_sc: remat_policy qkv_proj_offloaded (q/k/v offloaded), batch 2 as logged.
    "llama2_70b_256dev": Program("llama2-70b", 4096, _fsdp(256, 2), QKV),
}


def layer_params(c: Config) -> dict[str, Param]:
    """One decoder layer; matrices split over ``fsdp`` on the model dimension."""
    return {
        "attn_norm": Param((c.embed,)),
        "wq": Param((c.embed, c.heads, c.head_dim), 0),
        "wk": Param((c.embed, c.kv_heads, c.head_dim), 0),
        "wv": Param((c.embed, c.kv_heads, c.head_dim), 0),
        "wo": Param((c.heads, c.head_dim, c.embed), 2),
        "mlp_norm": Param((c.embed,)),
        "wi_0": Param((c.embed, c.mlp), 0),
        "wi_1": Param((c.embed, c.mlp), 0),
        "wo_mlp": Param((c.mlp, c.embed), 1),
    }


def params(c: Config) -> dict[str, Any]:
    """The whole model, decoder layers stacked for the scan."""
    return {
        "embedding": Param((c.vocab, c.embed), 1),
        "layers": stacked(layer_params(c), c.layers),
        "final_norm": Param((c.embed,)),
        "logits": Param((c.embed, c.vocab), 0),
    }


def param_count(c: Config) -> int:
    """Number of trainable parameters."""
    return count(params(c))


def decoder_layer(c: Config, x: jax.Array, p: dict[str, jax.Array]) -> jax.Array:
    """One ``llama2`` decoder layer on ``x [batch, seq, embed]`` with whole (gathered) weights ``p``."""
    x = checkpoint_name(x, LAYER_INPUT)
    h = rms_norm(x, p["attn_norm"], c.norm_eps)
    q = checkpoint_name(jnp.einsum("bsd,dnh->bsnh", h, p["wq"]), "query_proj")
    k = checkpoint_name(jnp.einsum("bsd,dnh->bsnh", h, p["wk"]), "key_proj")
    v = checkpoint_name(jnp.einsum("bsd,dnh->bsnh", h, p["wv"]), "value_proj")
    q = rope(q, c.rope_theta) * jnp.asarray(c.head_dim**-0.5, COMPUTE)
    context = checkpoint_name(attention.flash(q, rope(k, c.rope_theta), v), "context")
    x = x + checkpoint_name(jnp.einsum("bsnh,nhd->bsd", context, p["wo"]), "out_proj")
    h = rms_norm(x, p["mlp_norm"], c.norm_eps)
    gate = checkpoint_name(h @ p["wi_0"], "mlpwi_0")
    up = checkpoint_name(h @ p["wi_1"], "mlpwi_1")
    return x + checkpoint_name((jax.nn.silu(gate) * up) @ p["wo_mlp"], "mlpwo")


def loss(c: Config, program: Program, shards: dict[str, Any], tokens: jax.Array,
         targets: jax.Array) -> jax.Array:
    """Mean next-token cross-entropy (per-device program)."""
    layout = program.layout
    x = jax.nn.one_hot(tokens, c.vocab, dtype=COMPUTE) @ whole(shards["embedding"], 1, layout)
    policy = jax.checkpoint_policies.save_only_these_names(LAYER_INPUT, *program.saved)
    x = scan_layers(lambda x, s: decoder_layer(c, x, gather_all(s, layer_params(c), layout)),
                    x, shards["layers"], policy)
    x = rms_norm(x, shards["final_norm"], c.norm_eps)
    return cross_entropy(x @ whole(shards["logits"], 0, layout), targets, layout)


def train(program: Program, config: Config | None = None) -> tuple[Any, tuple[Any, ...]]:
    """``(jitted step, abstract args)`` of ``program`` (on ``config`` instead of its own model if given)."""
    c = config or CONFIGS[program.model]
    return train_step(functools.partial(loss, c, program), params(c), program.layout, program.seq,
                      program.weight_dtype)


# One factory per program, named for `hespas export maxtext_llama.py:<name>`.
for _name, _program in PROGRAMS.items():
    globals()[_name] = functools.partial(train, _program)
