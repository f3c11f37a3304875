"""LLaMA-3 family decoder training step, fully-sharded data parallel, written with ``jax.shard_map``.

The step follows the measured MaxText setup (shared/reference/measured/README.md): bf16 weights
and activations, untied embeddings, RMSNorm (eps 1e-5), RoPE (max timescale 500000), causal
dot-product attention with grouped KV heads, SiLU-gated MLP, no dropout, AdamW, and each decoder
layer rematerialised with a ``minimal_with_context``-like policy (the outputs of the projections
and the attention context are saved, everything else — including the all-gathered weights — is
recomputed in the backward pass). Every parameter is split on its first dimension across the
devices; each layer all-gathers its weights where they are used, so autodiff emits one
reduce-scatter per parameter gradient.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from common import abstract, adamw_update, count, mesh
from jax.ad_checkpoint import checkpoint_name
from jax.sharding import PartitionSpec as P


@dataclasses.dataclass(frozen=True)
class Config:
    """A LLaMA-3-style decoder and the shape of its training batch."""

    vocab: int  # vocabulary size
    embed: int  # model width
    heads: int  # query heads
    kv_heads: int  # key/value heads (grouped-query attention when fewer than ``heads``)
    head_dim: int  # width of one head
    layers: int  # decoder layers
    mlp: int  # hidden width of the SiLU-gated MLP
    seq: int = 4096  # tokens per sequence
    batch_per_device: int = 1  # sequences per device
    rope_theta: float = 500_000.0  # RoPE max timescale
    norm_eps: float = 1e-5  # RMSNorm epsilon


# LLaMA-3 100M is the measured MaxText config; the larger sizes follow the LLaMA-3.2 shape
# (1B and 3B are LLaMA-3.2-1B/-3B with untied embeddings), sized so that the parameters one token
# touches (decoder layers plus one vocabulary matrix) are close to the nominal size.
CONFIGS = {
    "100m": Config(vocab=128256, embed=576, heads=9, kv_heads=9, head_dim=128, layers=7, mlp=2016),
    "200m": Config(vocab=128256, embed=768, heads=6, kv_heads=6, head_dim=128, layers=12, mlp=2688),
    "500m": Config(vocab=128256, embed=1280, heads=10, kv_heads=10, head_dim=128, layers=14, mlp=4480),
    "1b": Config(vocab=128256, embed=2048, heads=32, kv_heads=8, head_dim=64, layers=16, mlp=8192),
    "2b": Config(vocab=128256, embed=2560, heads=20, kv_heads=4, head_dim=128, layers=20, mlp=8192),
    "3b": Config(vocab=128256, embed=3072, heads=24, kv_heads=8, head_dim=128, layers=28, mlp=8192),
}
DEVICES = 4
DTYPE = jnp.bfloat16
# Names the remat policy saves: projection outputs and the attention context.
SAVED = ("query_proj", "key_proj", "value_proj", "context", "out_proj", "mlp_gate", "mlp_up", "mlp_down")


def layer_shapes(c: Config) -> dict[str, tuple[int, ...]]:
    """Parameter shapes of one decoder layer."""
    return {
        "attn_norm": (c.embed,),
        "wq": (c.embed, c.heads * c.head_dim),
        "wk": (c.embed, c.kv_heads * c.head_dim),
        "wv": (c.embed, c.kv_heads * c.head_dim),
        "wo": (c.heads * c.head_dim, c.embed),
        "mlp_norm": (c.embed,),
        "w_gate": (c.embed, c.mlp),
        "w_up": (c.embed, c.mlp),
        "w_down": (c.mlp, c.embed),
    }


def param_shapes(c: Config) -> dict[str, Any]:
    """Parameter shapes of the whole model."""
    return {
        "embedding": (c.vocab, c.embed),
        "layers": [layer_shapes(c) for _ in range(c.layers)],
        "final_norm": (c.embed,),
        "unembedding": (c.embed, c.vocab),
    }


def param_count(c: Config) -> int:
    """Number of parameters of the model."""
    return count(param_shapes(c))


def rms_norm(x: jax.Array, scale: jax.Array, eps: float) -> jax.Array:
    x32 = x.astype(jnp.float32)
    normed = x32 * jax.lax.rsqrt(jnp.mean(x32 * x32, axis=-1, keepdims=True) + eps)
    return (normed * scale.astype(jnp.float32)).astype(x.dtype)


def rope(x: jax.Array, theta: float) -> jax.Array:
    """Rotary position embedding of ``x [batch, seq, heads, head_dim]``."""
    half = x.shape[-1] // 2
    timescale = theta ** (jnp.arange(half, dtype=jnp.float32) * 2 / x.shape[-1])
    angles = jnp.arange(x.shape[1], dtype=jnp.float32)[:, None] / timescale
    sin, cos = jnp.sin(angles)[None, :, None, :], jnp.cos(angles)[None, :, None, :]
    first, second = jnp.split(x.astype(jnp.float32), 2, axis=-1)
    rotated = jnp.concatenate([first * cos - second * sin, second * cos + first * sin], axis=-1)
    return rotated.astype(x.dtype)


def attention(q: jax.Array, k: jax.Array, v: jax.Array) -> jax.Array:
    """Causal dot-product attention; ``k``/``v`` heads are shared by groups of query heads."""
    groups = q.shape[2] // k.shape[2]
    k, v = jnp.repeat(k, groups, axis=2), jnp.repeat(v, groups, axis=2)
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    causal = jnp.tril(jnp.ones((q.shape[1], k.shape[1]), dtype=bool))
    scores = jnp.where(causal, scores.astype(jnp.float32), jnp.finfo(jnp.float32).min)
    weights = jax.nn.softmax(scores, axis=-1).astype(v.dtype)
    return jnp.einsum("bhqk,bkhd->bqhd", weights, v)


def gather(shard: jax.Array) -> jax.Array:
    """The whole parameter from this device's shard."""
    return jax.lax.all_gather(shard, "d", tiled=True)


def replicated(param: jax.Array) -> jax.Array:
    """The whole parameter, held whole on every device (data parallel)."""
    return param


Gather = Callable[[jax.Array], jax.Array]


def decoder_layer(c: Config, x: jax.Array, shards: dict[str, jax.Array], gather: Gather = gather) -> jax.Array:
    """One pre-norm decoder layer on ``x [batch, seq, embed]``; ``gather`` makes a whole parameter of this
    device's part of it."""
    p = {name: gather(shard) for name, shard in shards.items()}
    b, s, _ = x.shape
    h = rms_norm(x, p["attn_norm"], c.norm_eps)
    q = checkpoint_name(h @ p["wq"], "query_proj").reshape(b, s, c.heads, c.head_dim)
    k = checkpoint_name(h @ p["wk"], "key_proj").reshape(b, s, c.kv_heads, c.head_dim)
    v = checkpoint_name(h @ p["wv"], "value_proj").reshape(b, s, c.kv_heads, c.head_dim)
    context = checkpoint_name(attention(rope(q, c.rope_theta), rope(k, c.rope_theta), v), "context")
    x = x + checkpoint_name(context.reshape(b, s, -1) @ p["wo"], "out_proj")
    h = rms_norm(x, p["mlp_norm"], c.norm_eps)
    gate = checkpoint_name(h @ p["w_gate"], "mlp_gate")
    up = checkpoint_name(h @ p["w_up"], "mlp_up")
    return x + checkpoint_name((jax.nn.silu(gate) * up) @ p["w_down"], "mlp_down")


def loss(c: Config, shards: dict[str, Any], tokens: jax.Array, targets: jax.Array, gather: Gather = gather) -> jax.Array:
    """Mean next-token cross-entropy over all devices' sequences (per-device program)."""
    layer = jax.checkpoint(
        lambda x, s: decoder_layer(c, x, s, gather), policy=jax.checkpoint_policies.save_only_these_names(*SAVED)
    )
    x = jnp.take(gather(shards["embedding"]), tokens, axis=0)
    for layer_shards in shards["layers"]:
        x = layer(x, layer_shards)
    x = rms_norm(x, gather(shards["final_norm"]), c.norm_eps)
    logits = (x @ gather(shards["unembedding"])).astype(jnp.float32)
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(log_probs, targets[..., None], axis=-1)
    return jax.lax.pmean(-jnp.mean(picked), "d")


def train_step(c: Config, fsdp: bool = True) -> tuple[Any, tuple[Any, ...]]:
    """The factory of one config: ``(jitted step, (params, adam moments, step, tokens, targets))``;
    ``fsdp=False``: data parallel (parameters whole on every device, gradients all-reduced)."""
    shapes = param_shapes(c)
    specs = jax.tree.map(lambda _: P("d") if fsdp else P(), shapes, is_leaf=lambda x: isinstance(x, tuple))
    return shard_step(c, shapes, specs, functools.partial(loss, c, gather=gather if fsdp else replicated), fsdp)


def shard_step(c: Config, shapes: Any, specs: Any, loss_of: Callable[..., jax.Array], fsdp: bool) -> tuple[Any, tuple[Any, ...]]:
    """The jitted AdamW training step of ``loss_of(params, tokens, targets)`` over parameters of
    ``shapes`` split by ``specs``, with its abstract arguments. Without ``fsdp`` the gradients are
    all-reduced once, after the backward pass (pmap style: shard_map's own per-use reductions of
    replicated inputs' cotangents are turned off)."""
    device_mesh = mesh((DEVICES,), ("d",))

    def step(params: Any, moments: Any, count: jax.Array, tokens: jax.Array, targets: jax.Array) -> Any:
        value, grads = jax.value_and_grad(lambda p: loss_of(p, tokens, targets))(params)
        if not fsdp:
            grads = jax.lax.pmean(grads, "d")
        params, moments = adamw_update(params, grads, moments, count)
        return params, moments, count + 1, value

    sharded = jax.shard_map(
        step,
        mesh=device_mesh,
        in_specs=(specs, (specs, specs), P(), P("d"), P("d")),
        out_specs=(specs, (specs, specs), P(), P()),
        check_vma=fsdp,
    )
    params = abstract(shapes, DTYPE, device_mesh, specs)
    batch = (DEVICES * c.batch_per_device, c.seq)
    tokens, targets = abstract((batch, batch), jnp.int32, device_mesh, (P("d"), P("d")))
    count_arg = abstract((), jnp.int32, device_mesh, P())
    return jax.jit(sharded), (params, (params, params), count_arg, tokens, targets)


# One factory per size, named for `hespas export FILE.py:FACTORY`: llama3_100m_step ... llama3_3b_step.
for _size, _config in CONFIGS.items():
    globals()[f"llama3_{_size}_step"] = functools.partial(train_step, _config)
