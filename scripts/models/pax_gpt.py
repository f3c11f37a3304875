"""Pax GPT-3-style decoder training steps (google/paxml ``contrib/gpu/scripts_gpu/configs.py``).

The model of ``GPT126MBase``, ``GPT5BBase`` and ``GPT175BBase`` (and their ``Synthetic*``
variants): learned position embedding, pre-norm LayerNorm with bias (f32 reductions, eps 1e-5),
combined QKV projection and output projection with bias, causal attention with the query scaled
by 1/sqrt(head_dim), GELU (tanh approximation) MLP with bias, final LayerNorm, and one
embedding matrix shared by the input (looked up by a one-hot matmul, ``EMBEDDING_LOOKUP_STYLE =
'matmul'``) and the softmax; bf16 compute over f32 parameters; Adam with weight decay and global
norm clipping (`fsdp`). GPT-5B also drops 10% of every repeated layer's input
(``input_dropout_prob = 0.1``).

Each `Program` is one published run's per-device step (``../shared/reference/measured/
scale_step_times.csv``): its mesh, per-device batch, remat policy (Pax ``CHECKPOINT_POLICY``)
and whether the run used a fused attention kernel. ``hespas export pax_gpt.py:<name>``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
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


@dataclasses.dataclass(frozen=True)
class Config:
    """A Pax GPT model."""

    vocab: int
    embed: int
    heads: int
    head_dim: int
    layers: int
    hidden: int  # MLP width
    seq: int = 2048
    input_dropout: float = 0.0  # dropout on every repeated layer's input
    norm_eps: float = 1e-5


CONFIGS = {
    "126m": Config(vocab=50304, embed=768, heads=12, head_dim=64, layers=12, hidden=3072),
    "5b": Config(vocab=50304, embed=4096, heads=32, head_dim=128, layers=24, hidden=16384, input_dropout=0.1),
    "175b": Config(vocab=50257, embed=12288, heads=96, head_dim=128, layers=96, hidden=49152),
}

# Pax AutodiffCheckpointType -> jax.checkpoint policy (praxis layers/checkpoint_policy.py).
POLICIES: dict[str, Callable[..., bool] | None] = {
    "SAVE_DOT_ONLY": jax.checkpoint_policies.checkpoint_dots,
    "SAVE_DOT_WITH_NO_BATCH_DIM": jax.checkpoint_policies.checkpoint_dots_with_no_batch_dims,
    "SAVE_QKV_OUT_PROJ": jax.checkpoint_policies.save_only_these_names("combined_qkv_proj", "out_proj"),
}


@dataclasses.dataclass(frozen=True)
class Program:
    """One run's per-device step.

    Attributes:
        size: `CONFIGS` key.
        layout: mesh and per-device batch.
        policy: `POLICIES` key; None: layers neither repeated nor rematerialised (GPT-126M).
        flash: the run used a fused attention kernel.
    """

    size: str
    layout: Layout
    policy: str | None
    flash: bool


PROGRAMS = {
    # NVIDIA dgxc-benchmarking Synthetic5BCkpt: ICI [1, 8, 1], DCN [nodes, 1, 1], 4 per GPU.
    **{f"gpt5b_synthetic_{8 * n}dev": Program("5b", Layout(n, 8, 4), "SAVE_DOT_ONLY", True)
       for n in (2, 4, 8, 16)},
    # Synthetic175BCkpt: FSDP over 16 nodes (DCN [nodes / 16, 16, 1]), 2 per GPU.
    **{f"gpt175b_synthetic_{128 * n}dev": Program("175b", Layout(n, 128, 2), "SAVE_QKV_OUT_PROJ", True)
       for n in (1, 2)},
    # JAX-Toolbox GPT5BBase: ICI [1, 8, 1] x DCN [1, 32, 1], 8 per GPU.
    "gpt5b_256dev": Program("5b", Layout(1, 256, 8), "SAVE_DOT_WITH_NO_BATCH_DIM", True),
    # GPT126MBase: pure data parallel, ICI [8, 1, 1] x DCN [8, 1, 1], 4 per GPU, no flash attention.
    "gpt126m_64dev": Program("126m", Layout(64, 1, 4), None, False),
}


def layer_params(c: Config) -> dict[str, Param]:
    """One transformer layer; matrices split over ``fsdp`` on the model dimension."""
    return {
        "ln1_scale": Param((c.embed,)),
        "ln1_bias": Param((c.embed,)),
        "qkv": Param((3, c.embed, c.heads, c.head_dim), 1),
        "qkv_bias": Param((3, c.heads, c.head_dim)),
        "out": Param((c.heads, c.head_dim, c.embed), 2),
        "out_bias": Param((c.embed,)),
        "ln2_scale": Param((c.embed,)),
        "ln2_bias": Param((c.embed,)),
        "ffn1": Param((c.embed, c.hidden), 0),
        "ffn1_bias": Param((c.hidden,)),
        "ffn2": Param((c.hidden, c.embed), 1),
        "ffn2_bias": Param((c.embed,)),
    }


def params(c: Config, repeated: bool) -> dict[str, Any]:
    """The whole model: stacked layers when ``repeated``, else one entry per layer."""
    layer = layer_params(c)
    return {
        "embedding": Param((c.vocab, c.embed), 1),
        "position": Param((c.seq, c.embed), 1),
        "layers": stacked(layer, c.layers) if repeated else [layer] * c.layers,
        "final_scale": Param((c.embed,)),
        "final_bias": Param((c.embed,)),
    }


def param_count(c: Config) -> int:
    """Number of trainable parameters."""
    return count(params(c, True))


def layer_norm(x: jax.Array, scale: jax.Array, bias: jax.Array, eps: float) -> jax.Array:
    x32 = x.astype(jnp.float32)
    mean = jnp.mean(x32, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x32 - mean), axis=-1, keepdims=True)
    normed = (x32 - mean) * jax.lax.rsqrt(var + eps)
    return (normed * scale.astype(jnp.float32) + bias.astype(jnp.float32)).astype(x.dtype)


def transformer_layer(c: Config, flash: bool, x: jax.Array, p: dict[str, jax.Array]) -> jax.Array:
    """One pre-norm layer on ``x [batch, seq, embed]`` with whole (gathered) weights ``p``."""
    h = layer_norm(x, p["ln1_scale"], p["ln1_bias"], c.norm_eps)
    qkv = jnp.einsum("bsd,tdnh->tbsnh", h, p["qkv"]) + p["qkv_bias"][:, None, None]
    qkv = checkpoint_name(qkv, "combined_qkv_proj")
    q, k, v = qkv[0] * jnp.asarray(c.head_dim**-0.5, COMPUTE), qkv[1], qkv[2]
    context = checkpoint_name((attention.flash if flash else attention.dot_product)(q, k, v), "context")
    x = x + checkpoint_name(jnp.einsum("bsnh,nhd->bsd", context, p["out"]) + p["out_bias"], "out_proj")
    h = layer_norm(x, p["ln2_scale"], p["ln2_bias"], c.norm_eps)
    h = jax.nn.gelu(h @ p["ffn1"] + p["ffn1_bias"], approximate=True)
    return x + checkpoint_name(h @ p["ffn2"] + p["ffn2_bias"], "ffn2")


def dropout(x: jax.Array, rate: float, salt: jax.Array, layout: Layout) -> jax.Array:
    """Inverted dropout with a per-device, per-layer key."""
    key = jax.random.fold_in(jax.random.fold_in(jax.random.key(0), salt), jax.lax.axis_index(layout.axes))
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / jnp.asarray(1.0 - rate, x.dtype), jnp.zeros_like(x))


def loss(c: Config, program: Program, shards: dict[str, Any], tokens: jax.Array,
         targets: jax.Array) -> jax.Array:
    """Mean next-token cross-entropy (per-device program)."""
    layout = program.layout
    embedding = whole(shards["embedding"], 1, layout)
    one_hot = jax.nn.one_hot(tokens, c.vocab, dtype=COMPUTE)
    x = one_hot @ embedding + whole(shards["position"], 1, layout)

    def layer(x: jax.Array, layer_shards: dict[str, jax.Array], index: jax.Array) -> jax.Array:
        if c.input_dropout:
            x = dropout(x, c.input_dropout, index, layout)
        return transformer_layer(c, program.flash, x, gather_all(layer_shards, layer_params(c), layout))

    if program.policy is None:
        for i, layer_shards in enumerate(shards["layers"]):
            x = layer(x, layer_shards, jnp.int32(i))
    else:
        xs = (shards["layers"], jnp.arange(c.layers, dtype=jnp.int32))
        x = scan_layers(lambda x, s: layer(x, *s), x, xs, POLICIES[program.policy])
    x = layer_norm(x, shards["final_scale"], shards["final_bias"], c.norm_eps)
    return cross_entropy(jnp.einsum("bsd,vd->bsv", x, embedding), targets, layout)


def train(program: Program, config: Config | None = None) -> tuple[Any, tuple[Any, ...]]:
    """``(jitted step, abstract args)`` of ``program`` (on ``config`` instead of its own size if given)."""
    c = config or CONFIGS[program.size]
    model = params(c, repeated=program.policy is not None)
    return train_step(functools.partial(loss, c, program), model, program.layout, c.seq)


# One factory per program, named for `hespas export pax_gpt.py:<name>`.
for _name, _program in PROGRAMS.items():
    globals()[_name] = functools.partial(train, _program)
