"""The math of the 4D-parallel Llama 3 step (`llama_4d`): its plan, and the per-device decoder
layer, embedding and loss under tensor (sequence-parallel) and context parallelism.

- ``tp``: Megatron tensor parallelism with sequence parallelism: query/key/value and MLP input
  projections split by columns (heads), output projections by rows; the residual stream split
  over the sequence, all-gathered before each column-parallel pair and reduce-scattered after
  each row-parallel projection; vocabulary-parallel embedding and cross-entropy.
- ``cp``: context parallelism as the Llama 3 report describes it (§3.3.2): the sequence cut into
  ``2 * CP`` chunks, rank ``c`` holding chunks ``c`` and ``2 * CP - 1 - c`` (so causal work
  balances); K and V all-gathered over the ranks, each local query chunk attending causally to
  the keys (a flash kernel given its first position).

A layer saves the values named in `SAVED` for its backward pass and recomputes the rest (the
norms, the sequence all-gathers, RoPE, the SiLU).
"""

from __future__ import annotations

import dataclasses
import functools
import operator

import attention
import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name
from llama import Config, rms_norm
from pipeline_schedule import Schedule

AXES = ("dp", "pp", "cp", "tp")
#: The published Llama 3 405B (report Table 3) and a small stand-in for tests.
MODELS = {
    "405b": Config(vocab=128256, embed=16384, heads=128, kv_heads=8, head_dim=128, layers=126,
                   mlp=53248, seq=8192),
    "tiny": Config(vocab=256, embed=64, heads=16, kv_heads=8, head_dim=8, layers=2, mlp=128, seq=32),
}
#: Values a layer saves for its backward pass; everything else is recomputed there.
SAVED = ("query_proj", "key_proj", "value_proj", "context", "attn_out", "mlp_gate", "mlp_up")
#: Per decoder layer: shape and the dimension split over ``tp`` (None: replicated).
_LAYER = {
    "attn_norm": (lambda c: (c.embed,), None),
    "wq": (lambda c: (c.embed, c.heads * c.head_dim), 1),
    "wk": (lambda c: (c.embed, c.kv_heads * c.head_dim), 1),
    "wv": (lambda c: (c.embed, c.kv_heads * c.head_dim), 1),
    "wo": (lambda c: (c.heads * c.head_dim, c.embed), 0),
    "mlp_norm": (lambda c: (c.embed,), None),
    "w_gate": (lambda c: (c.embed, c.mlp), 1),
    "w_up": (lambda c: (c.embed, c.mlp), 1),
    "w_down": (lambda c: (c.mlp, c.embed), 0),
}
NORMS = ("attn_norm", "mlp_norm")


@dataclasses.dataclass(frozen=True)
class Plan:
    """The model, its layout and pipeline schedule."""

    c: Config
    dp: int
    pp: int
    cp: int
    tp: int
    schedule: Schedule
    layers_per_chunk: int

    @property
    def tokens(self) -> int:
        """Tokens per step."""
        return self.dp * self.schedule.microbatches * self.c.seq

    def size(self, axis: str) -> int:
        """Devices along mesh axis ``axis`` (as the plan counts them)."""
        return getattr(self, axis)

    def axes(self, *names: str) -> tuple[str, ...]:
        """Those of ``names`` with more than one device: a collective over the others is none."""
        return tuple(a for a in names if self.size(a) > 1)

    @property
    def local_seq(self) -> int:
        """Tokens of a sequence on one context rank."""
        return self.c.seq // self.cp


def make_plan(c: Config, dp: int, pp: int, cp: int, tp: int, virtual: int, batch: int) -> Plan:
    """The plan, or ValueError naming what the layout does not divide."""
    if min(dp, pp, cp, tp, virtual, batch) < 1:
        raise ValueError("dp, pp, cp, tp, virtual and batch must be at least 1")
    chunks = pp * virtual
    if chunks < 3 or c.layers % (chunks - 2):
        raise ValueError(f"{c.layers} layers do not fill {chunks} - 2 chunks (pp x virtual, less "
                         "the embedding's and the loss's)")
    for what, size, parts in (("query heads", c.heads, tp), ("KV heads", c.kv_heads, tp),
                              ("vocabulary", c.vocab, tp), ("MLP width", c.mlp, tp),
                              ("sequence", c.seq, 2 * cp * tp if cp > 1 else tp)):
        if size % parts:
            raise ValueError(f"{what} ({size}) do not split over {parts}")
    return Plan(c, dp, pp, cp, tp, Schedule(pp, virtual, batch), c.layers // (chunks - 2))


def rope(x: jax.Array, positions: jax.Array, theta: float) -> jax.Array:
    """Rotary embedding of ``x [batch, seq, heads, head_dim]`` at token ``positions [seq]``."""
    half = x.shape[-1] // 2
    timescale = theta ** (jnp.arange(half, dtype=jnp.float32) * 2 / x.shape[-1])
    angles = positions.astype(jnp.float32)[:, None] / timescale
    sin, cos = jnp.sin(angles)[None, :, None, :], jnp.cos(angles)[None, :, None, :]
    first, second = jnp.split(x.astype(jnp.float32), 2, axis=-1)
    return jnp.concatenate([first * cos - second * sin, second * cos + first * sin],
                           axis=-1).astype(x.dtype)


def _chunk_starts(plan: Plan, cp_rank: jax.Array) -> list[jax.Array]:
    """First token position of each local sequence chunk of context rank ``cp_rank``."""
    if plan.cp == 1:
        return [jnp.int32(0)]
    size = plan.c.seq // (2 * plan.cp)
    return [cp_rank * size, (2 * plan.cp - 1 - cp_rank) * size]


def _natural_order(plan: Plan, gathered: jax.Array) -> jax.Array:
    """K or V all-gathered over the context ranks (rank order: chunks ``0, 2CP-1, 1, 2CP-2, ..``)
    put in sequence order."""
    n = 2 * plan.cp
    chunks = gathered.reshape(gathered.shape[0], n, -1, *gathered.shape[2:])
    order = [2 * i if i < plan.cp else 2 * (n - 1 - i) + 1 for i in range(n)]
    return jnp.concatenate([chunks[:, i] for i in order], axis=1)


def _attention(plan: Plan, q: jax.Array, k: jax.Array, v: jax.Array,
               starts: list[jax.Array]) -> jax.Array:
    """Causal attention of the local queries (one or two chunks) over the sequence's keys. K and V
    are repeated to the query heads, as a flash kernel indexes the shared head of each query head
    (FlashAttention-2 §3.1.2) and runs a thread block per query head and block of rows (of keys
    backward): the kernel reads the distinct heads (`hespas_py.kernels.attention` folds
    the repeat)."""
    c = plan.c
    if plan.cp > 1:
        k = _natural_order(plan, jax.lax.all_gather(k, "cp", axis=1, tiled=True))
        v = _natural_order(plan, jax.lax.all_gather(v, "cp", axis=1, tiled=True))
    groups = q.shape[2] // k.shape[2]
    k, v = jnp.repeat(k, groups, axis=2), jnp.repeat(v, groups, axis=2)
    if plan.cp == 1:
        return attention.flash(q, k, v)
    size = c.seq // (2 * plan.cp)
    return jnp.concatenate([attention.flash(q[:, i * size:(i + 1) * size], k, v, start)
                            for i, start in enumerate(starts)], axis=1)


def gather_seq(plan: Plan, x: jax.Array) -> jax.Array:
    """The local sequence from its sequence-parallel parts (all-gather over ``tp``)."""
    return jax.lax.all_gather(x, "tp", axis=1, tiled=True) if plan.tp > 1 else x


def scatter_seq(plan: Plan, x: jax.Array) -> jax.Array:
    """Partial sums over ``tp`` reduced and scattered over the sequence."""
    if plan.tp == 1:
        return x
    return jax.lax.psum_scatter(x, "tp", scatter_dimension=1, tiled=True)


def tp_reduce(plan: Plan, x: jax.Array, op=jax.lax.psum) -> jax.Array:
    """``op`` (psum, pmax) over the tensor ranks."""
    return op(x, "tp") if plan.tp > 1 else x


def decoder_layer(plan: Plan, p: dict[str, jax.Array], x: jax.Array,
                  positions: jax.Array, starts: list[jax.Array]) -> jax.Array:
    """One pre-norm decoder layer on this device's part ``x [mb, seq / cp / tp, embed]`` of the
    residual stream (sequence parallel over ``tp``)."""
    c = plan.c
    gather = functools.partial(gather_seq, plan)
    scatter = functools.partial(scatter_seq, plan)
    b, s = x.shape[0], plan.local_seq
    h = gather(rms_norm(x, p["attn_norm"], c.norm_eps))
    heads = lambda t, n: t.reshape(b, s, n // plan.tp, c.head_dim)
    q = heads(checkpoint_name(h @ p["wq"], "query_proj"), c.heads)
    k = heads(checkpoint_name(h @ p["wk"], "key_proj"), c.kv_heads)
    v = heads(checkpoint_name(h @ p["wv"], "value_proj"), c.kv_heads)
    q = rope(q, positions, c.rope_theta) * jnp.asarray(c.head_dim ** -0.5, q.dtype)
    k = rope(k, positions, c.rope_theta)
    context = checkpoint_name(_attention(plan, q, k, v, starts), "context")
    x = x + checkpoint_name(scatter(context.reshape(b, s, -1) @ p["wo"]), "attn_out")
    h = gather(rms_norm(x, p["mlp_norm"], c.norm_eps))
    gate = checkpoint_name(h @ p["w_gate"], "mlp_gate")
    up = checkpoint_name(h @ p["w_up"], "mlp_up")
    return x + scatter((jax.nn.silu(gate) * up) @ p["w_down"])


def chunk_forward(plan: Plan, positions: jax.Array, starts: list[jax.Array],
                  layers: list[dict[str, jax.Array]], x: jax.Array) -> jax.Array:
    """The ``layers`` (one parameter dict each) of one chunk, each rematerialised but for
    `SAVED`."""
    layer = jax.checkpoint(lambda x, p: decoder_layer(plan, p, x, positions, starts),
                           policy=jax.checkpoint_policies.save_only_these_names(*SAVED))
    for p in layers:
        x = layer(x, p)
    return x


def unstack(params: dict[str, jax.Array]) -> list[dict[str, jax.Array]]:
    """Per layer of a chunk, its parameters (``params``: each stacked over the chunk's layers)."""
    count = len(next(iter(params.values())))
    return [jax.tree.map(operator.itemgetter(i), params) for i in range(count)]


def embed(plan: Plan, table: jax.Array, tokens: jax.Array, tp_rank: jax.Array) -> jax.Array:
    """Vocabulary-parallel lookup of ``tokens [seq]`` (this rank's rows of the table), summed over
    ``tp`` and scattered over the sequence: ``[1, seq / tp, embed]``."""
    rows = table.shape[0]
    local = tokens - tp_rank * rows
    mine = (local >= 0) & (local < rows)
    found = jnp.take(table, jnp.clip(local, 0, rows - 1), axis=0) * mine[:, None].astype(table.dtype)
    return scatter_seq(plan, found[None])


def loss_chunk(plan: Plan, norm: jax.Array, unembedding: jax.Array, x: jax.Array,
               targets: jax.Array, tp_rank: jax.Array) -> jax.Array:
    """Summed next-token cross-entropy of one microbatch over all tokens of the step
    (vocabulary-parallel: the log-sum-exp and the target's logit reduced over ``tp``)."""
    h = gather_seq(plan, rms_norm(x, norm, plan.c.norm_eps))
    logits = (h[0] @ unembedding).astype(jnp.float32)
    top = jax.lax.stop_gradient(tp_reduce(plan, jax.lax.stop_gradient(logits.max(-1)),
                                          jax.lax.pmax))
    lse = jnp.log(tp_reduce(plan, jnp.exp(logits - top[:, None]).sum(-1))) + top
    local = targets - tp_rank * logits.shape[-1]
    mine = (local >= 0) & (local < logits.shape[-1])
    picked = jnp.take_along_axis(logits, jnp.clip(local, 0, logits.shape[-1] - 1)[:, None], -1)
    target = tp_reduce(plan, jnp.where(mine, picked[:, 0], 0.0))
    return jnp.sum(lse - target) / plan.tokens
