"""A LLaMA-3 training step whose parallelism layout is a parameter: ``hespas search`` runs it.

``llama_step(dp=, fsdp=, tp=, batch=, remat=, model=, layers=, seq=)`` returns the jitted AdamW
step and its abstract arguments on a ``dp x fsdp x tp`` device mesh, partitioned by XLA's SPMD
partitioner from shardings (``jax.jit`` with sharded arguments and activation constraints):

- ``dp``: data parallel; parameters whole on every replica, gradients all-reduced.
- ``fsdp``: fully sharded data parallel; every matrix split on its model dimension, all-gathered
  where used, its gradient reduce-scattered (ZeRO-3).
- ``tp``: Megatron tensor parallel; query/key/value and MLP input projections split by columns
  (heads), output projections by rows, one all-reduce after each pair; vocabulary split too.
- ``batch``: sequences per data-parallel rank (``dp x fsdp`` ranks, so ``dp * fsdp * batch`` per
  step; the ``tp`` devices of a rank share its sequences); or ``global_batch``: sequences per
  step, the same for every layout (so step times compare like for like), split over the ranks.
- ``remat``: ``full`` (each layer recomputed in the backward pass from its input), ``minimal``
  (projection outputs and the attention context saved, as `llama` does) or ``none``.

The decoder layers are scanned (``jax.lax.scan`` over stacked parameters, as MaxText's
``scan_layers``), so the exported module's size does not grow with the layer count. A layout
that does not divide the model (heads, KV heads, vocabulary, width, MLP width) raises
``ValueError``, which ``hespas search`` reports as a skipped layout.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
from common import adamw_update, mesh
from jax.ad_checkpoint import checkpoint_name
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P
from llama import CONFIGS, SAVED, Config, attention, rms_norm, rope

#: Shapes of ``model=``: `llama.CONFIGS` sizes plus LLaMA-3-8B (Meta's published config) and a
#: small 512-wide model for quick searches.
MODELS = {
    **CONFIGS,
    "8b": Config(vocab=128256, embed=4096, heads=32, kv_heads=8, head_dim=128, layers=32, mlp=14336),
    "small": Config(vocab=32000, embed=512, heads=8, kv_heads=8, head_dim=64, layers=4, mlp=1792,
                    seq=1024),
}
REMAT = ("full", "minimal", "none")
DTYPE = jnp.bfloat16
AXES = ("dp", "fsdp", "tp")
DATA = ("dp", "fsdp")  # the mesh axes the batch is split over

# Parameter shapes per layer and how each is split: (fsdp dimension, tp dimension).
_LAYER = {
    "attn_norm": (lambda c: (c.embed,), (None,)),
    "wq": (lambda c: (c.embed, c.heads * c.head_dim), ("fsdp", "tp")),
    "wk": (lambda c: (c.embed, c.kv_heads * c.head_dim), ("fsdp", "tp")),
    "wv": (lambda c: (c.embed, c.kv_heads * c.head_dim), ("fsdp", "tp")),
    "wo": (lambda c: (c.heads * c.head_dim, c.embed), ("tp", "fsdp")),
    "mlp_norm": (lambda c: (c.embed,), (None,)),
    "w_gate": (lambda c: (c.embed, c.mlp), ("fsdp", "tp")),
    "w_up": (lambda c: (c.embed, c.mlp), ("fsdp", "tp")),
    "w_down": (lambda c: (c.mlp, c.embed), ("tp", "fsdp")),
}


def _check(c: Config, dp: int, fsdp: int, tp: int, batch: int, remat: str) -> None:
    """ValueError naming the first thing the layout does not divide."""
    if min(dp, fsdp, tp, batch) < 1:
        raise ValueError("dp, fsdp, tp and batch must be at least 1")
    if remat not in REMAT:
        raise ValueError(f"remat must be one of {', '.join(REMAT)}, not {remat!r}")
    for what, size, parts in (("query heads", c.heads, tp), ("KV heads", c.kv_heads, tp),
                              ("vocabulary", c.vocab, tp), ("MLP width", c.mlp, tp),
                              ("width", c.embed, fsdp)):
        if size % parts:
            raise ValueError(f"{what} ({size}) do not split over {parts} devices")


def _constrain(m: Mesh, x: jax.Array, *spec: Any) -> jax.Array:
    return jax.lax.with_sharding_constraint(x, NamedSharding(m, P(*spec)))


def decoder_layer(c: Config, m: Mesh, x: jax.Array, p: dict[str, jax.Array]) -> jax.Array:
    """One pre-norm decoder layer on ``x [batch, seq, embed]`` (`llama.decoder_layer`'s math),
    heads split over ``tp`` of mesh ``m``."""
    b, s, _ = x.shape
    h = rms_norm(x, p["attn_norm"], c.norm_eps)
    heads = lambda t, n: _constrain(m, t.reshape(b, s, n, c.head_dim), DATA, None, "tp", None)  # noqa: E731
    q = heads(checkpoint_name(h @ p["wq"], "query_proj"), c.heads)
    k = heads(checkpoint_name(h @ p["wk"], "key_proj"), c.kv_heads)
    v = heads(checkpoint_name(h @ p["wv"], "value_proj"), c.kv_heads)
    context = checkpoint_name(attention(rope(q, c.rope_theta), rope(k, c.rope_theta), v), "context")
    x = x + _constrain(m, checkpoint_name(context.reshape(b, s, -1) @ p["wo"], "out_proj"), DATA)
    h = rms_norm(x, p["mlp_norm"], c.norm_eps)
    gate = _constrain(m, checkpoint_name(h @ p["w_gate"], "mlp_gate"), DATA, None, "tp")
    up = _constrain(m, checkpoint_name(h @ p["w_up"], "mlp_up"), DATA, None, "tp")
    return x + _constrain(m, checkpoint_name((jax.nn.silu(gate) * up) @ p["w_down"], "mlp_down"),
                          DATA)


def _policy(remat: str):
    if remat == "full":
        return jax.checkpoint_policies.nothing_saveable
    if remat == "minimal":
        return jax.checkpoint_policies.save_only_these_names(*SAVED)
    return None


def loss(c: Config, m: Mesh, remat: str, params: dict[str, Any], tokens: jax.Array,
         targets: jax.Array) -> jax.Array:
    """Mean next-token cross-entropy of the batch."""
    layer = lambda x, p: decoder_layer(c, m, x, p)  # noqa: E731
    if remat != "none":
        layer = jax.checkpoint(layer, policy=_policy(remat))
    x = _constrain(m, jnp.take(params["embedding"], tokens, axis=0), DATA)
    x, _ = jax.lax.scan(lambda x, p: (layer(x, p), None), x, params["layers"])
    x = rms_norm(x, params["final_norm"], c.norm_eps)
    logits = _constrain(m, (x @ params["unembedding"]).astype(jnp.float32), DATA, None, "tp")
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(log_probs, targets[..., None], axis=-1))


def shapes_and_specs(c: Config) -> tuple[dict[str, Any], dict[str, Any]]:
    """Parameter shapes (layers stacked on a leading axis) and their `PartitionSpec`s."""
    shapes = {"embedding": (c.vocab, c.embed), "final_norm": (c.embed,),
              "unembedding": (c.embed, c.vocab),
              "layers": {name: (c.layers, *shape(c)) for name, (shape, _) in _LAYER.items()}}
    specs = {"embedding": P("tp", "fsdp"), "final_norm": P(), "unembedding": P("fsdp", "tp"),
             "layers": {name: P(None, *split) for name, (_, split) in _LAYER.items()}}
    return shapes, specs


def llama_step(dp: int = 1, fsdp: int = 1, tp: int = 1, batch: int | None = None,
               global_batch: int | None = None, remat: str = "full", model: str = "small",
               layers: int | None = None, seq: int | None = None) -> tuple[Any, tuple[Any, ...]]:
    """The jitted training step of LLaMA ``model`` (a `MODELS` key; ``layers``/``seq`` override its
    depth and sequence length) on a ``dp x fsdp x tp`` mesh, and its abstract arguments."""
    if batch is not None and global_batch is not None:
        raise ValueError("give batch or global_batch, not both")
    if global_batch is not None:
        if global_batch % (dp * fsdp):
            raise ValueError(f"global_batch {global_batch} does not split over dp x fsdp = "
                             f"{dp * fsdp} ranks")
        batch = global_batch // (dp * fsdp)
    batch = 1 if batch is None else batch
    if model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}, not {model!r}")
    c = dataclasses.replace(MODELS[model], **{k: v for k, v in (("layers", layers), ("seq", seq))
                                              if v is not None})
    _check(c, dp, fsdp, tp, batch, remat)
    device_mesh = mesh((dp, fsdp, tp), AXES)
    shapes, specs = shapes_and_specs(c)
    is_shape = lambda x: isinstance(x, tuple)  # noqa: E731
    param_shardings = jax.tree.map(lambda s: NamedSharding(device_mesh, s), specs)
    params = jax.tree.map(lambda shape, sharding: jax.ShapeDtypeStruct(shape, DTYPE, sharding=sharding),
                          shapes, param_shardings, is_leaf=is_shape)
    data = NamedSharding(device_mesh, P(DATA))
    tokens = jax.ShapeDtypeStruct((dp * fsdp * batch, c.seq), jnp.int32, sharding=data)
    count = jax.ShapeDtypeStruct((), jnp.int32, sharding=NamedSharding(device_mesh, P()))

    def step(params: Any, moments: Any, count: jax.Array, tokens: jax.Array,
             targets: jax.Array) -> Any:
        value, grads = jax.value_and_grad(lambda p: loss(c, device_mesh, remat, p, tokens, targets))(params)
        params, moments = adamw_update(params, grads, moments, count)
        return params, moments, count + 1, value

    out = (param_shardings, (param_shardings, param_shardings), count.sharding, count.sharding)
    return jax.jit(step, out_shardings=out), (params, (params, params), count, tokens, tokens)
