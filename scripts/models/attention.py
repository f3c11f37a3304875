"""Causal attention with grouped key/value heads, as the published runs computed it.

``dot_product``: plain autodiff, the softmax probabilities a residual of the backward pass (what
XLA runs without a fused attention kernel; Pax GPT-126M).

``flash``: the same ops with a flash-attention kernel's residuals (cuDNN / Transformer Engine
fused attention, Pallas splash attention): a ``custom_vjp`` that keeps only q, k and v, whose
backward pass is the autodiff backward of ``dot_product`` recomputing the scores and the softmax
first, as a flash backward kernel does. Whatever the layer's remat policy saves (dots, names),
no score-shaped value is a residual (a nested ``jax.checkpoint`` would not do: an outer policy
that saves dots saves the inner dots too). A policy that saves names recomputes the attention
forward in the backward pass unless it names the output (``context``), as around the real
kernel; one that saves every dot keeps the output of the last dot, where the run's kernel output
(not a dot) would be recomputed: two score-sized matmuls of nine fewer per layer. The ops still
materialise the score matrix; ``fused_roofline`` with ``fused_attention`` recognises them and
costs each pass as one flash kernel.

Shapes: ``q [batch, seq, heads, head_dim]`` (already scaled), ``k``/``v [batch, seq, kv_heads,
head_dim]``; the result has ``q``'s shape and dtype. ``start``: the position of q's first row among
the keys' (a context-parallel chunk of queries against the whole sequence's keys), a traced
scalar the kernel takes as an argument; None when q and k cover the same positions.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

F32 = jnp.float32


def dot_product(q: jax.Array, k: jax.Array, v: jax.Array,
                start: jax.Array | None = None) -> jax.Array:
    """Causal attention by autodiff; query heads grouped onto the shared key/value heads."""
    b, s, h, d = q.shape
    grouped = q.reshape(b, s, k.shape[2], h // k.shape[2], d)
    # bf16 dots cast to f32 after (Pax, MaxText): their transposes are bf16 dots too.
    scores = jnp.einsum("bqkgd,bskd->bkgqs", grouped, k).astype(F32)
    # An additive mask of traced iotas: its transpose needs no residual, so the mask stays an iota
    # comparison inside each loop body (as a flash kernel generates it) instead of a score-shaped
    # constant carried through the loops.
    rows = jax.lax.broadcasted_iota(jnp.int32, (s, k.shape[1]), 0)
    if start is not None:
        rows = rows + start
    causal = rows >= jax.lax.broadcasted_iota(jnp.int32, (s, k.shape[1]), 1)
    probs = jax.nn.softmax(scores + jnp.where(causal, 0.0, jnp.finfo(F32).min).astype(F32), axis=-1)
    return jnp.einsum("bkgqs,bskd->bqkgd", probs.astype(v.dtype), v).reshape(q.shape)


@jax.custom_vjp
def flash(q: jax.Array, k: jax.Array, v: jax.Array, start: jax.Array | None = None) -> jax.Array:
    """``dot_product`` with only q, k and v (and ``start``) kept for the backward pass."""
    return dot_product(q, k, v, start)


def _flash_forward(q: jax.Array, k: jax.Array, v: jax.Array,
                   start: jax.Array | None = None) -> tuple[jax.Array, tuple[jax.Array, ...]]:
    return dot_product(q, k, v, start), (q, k, v, start)


def _flash_backward(residuals: tuple[jax.Array, ...], d_out: jax.Array) -> tuple[jax.Array, ...]:
    *qkv, start = residuals
    return (*jax.vjp(lambda q, k, v: dot_product(q, k, v, start), *qkv)[1](d_out), None)


flash.defvjp(_flash_forward, _flash_backward)
