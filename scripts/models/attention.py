"""Causal attention with grouped key/value heads, in two forms.

``dot_product``: plain autodiff; the softmax probabilities are residuals of the backward pass
(what XLA runs without a fused attention kernel).

``flash``: the dataflow of a flash-attention kernel (cuDNN/Transformer Engine fused attention,
Pallas splash attention) written in plain ops: the forward keeps only its output and the
row-wise log-sum-exp, and the backward recomputes the scores from them. The ops still
materialise the score matrix; an estimator that recognises the pattern costs each pass as one
fused kernel. Being a ``custom_vjp``, its output is not a dot, so remat policies that save dots
recompute the whole attention in the backward pass, as they do around the real kernels.

Shapes: ``q [batch, seq, heads, head_dim]`` (already scaled), ``k``/``v [batch, seq, kv_heads,
head_dim]``; the result has ``q``'s shape and dtype.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

F32 = jnp.float32


def _grouped(q: jax.Array, kv_heads: int) -> jax.Array:
    """``q`` as ``[batch, seq, kv_heads, group, head_dim]``."""
    b, s, h, d = q.shape
    return q.reshape(b, s, kv_heads, h // kv_heads, d)


def _masked_scores(q: jax.Array, k: jax.Array) -> jax.Array:
    """Causal scores ``[batch, kv_heads, group, q_seq, k_seq]`` in f32."""
    scores = jnp.einsum("bqkgd,bskd->bkgqs", _grouped(q, k.shape[2]), k, preferred_element_type=F32)
    causal = jnp.tril(jnp.ones((q.shape[1], k.shape[1]), dtype=bool))
    return jnp.where(causal, scores, jnp.finfo(F32).min)


def _context(probs: jax.Array, v: jax.Array, like: jax.Array) -> jax.Array:
    out = jnp.einsum("bkgqs,bskd->bqkgd", probs.astype(v.dtype), v, preferred_element_type=F32)
    return out.reshape(like.shape).astype(like.dtype)


def dot_product(q: jax.Array, k: jax.Array, v: jax.Array) -> jax.Array:
    """Causal attention by autodiff (probabilities saved for the backward pass)."""
    return _context(jax.nn.softmax(_masked_scores(q, k), axis=-1), v, q)


@jax.custom_vjp
def flash(q: jax.Array, k: jax.Array, v: jax.Array) -> jax.Array:
    """Causal attention with a flash kernel's residuals (output and log-sum-exp only)."""
    return _flash_forward(q, k, v)[0]


def _flash_forward(q: jax.Array, k: jax.Array, v: jax.Array) -> tuple[jax.Array, tuple[jax.Array, ...]]:
    scores = _masked_scores(q, k)
    peak = jnp.max(scores, axis=-1, keepdims=True)
    weights = jnp.exp(scores - peak)
    total = jnp.sum(weights, axis=-1, keepdims=True)
    out = _context(weights / total, v, q)
    return out, (q, k, v, out, peak + jnp.log(total))


def _flash_backward(residuals: tuple[jax.Array, ...], d_out: jax.Array) -> tuple[jax.Array, ...]:
    q, k, v, out, log_sum_exp = residuals
    probs = jnp.exp(_masked_scores(q, k) - log_sum_exp)
    g_out = _grouped(d_out, k.shape[2])
    d_v = jnp.einsum("bkgqs,bqkgd->bskd", probs.astype(v.dtype), g_out, preferred_element_type=F32)
    d_probs = jnp.einsum("bqkgd,bskd->bkgqs", g_out, v, preferred_element_type=F32)
    row = jnp.einsum("bqkgd,bqkgd->bkgq", g_out.astype(F32), _grouped(out, k.shape[2]).astype(F32))
    d_scores = (probs * (d_probs - row[..., None])).astype(q.dtype)
    d_q = jnp.einsum("bkgqs,bskd->bqkgd", d_scores, k, preferred_element_type=F32)
    d_k = jnp.einsum("bkgqs,bqkgd->bskd", d_scores, _grouped(q, k.shape[2]), preferred_element_type=F32)
    return d_q.reshape(q.shape).astype(q.dtype), d_k.astype(k.dtype), d_v.astype(v.dtype)


flash.defvjp(_flash_forward, _flash_backward)
