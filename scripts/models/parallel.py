"""Small training steps that exercise the other collectives: pipeline (collective_permute),
mixture-of-experts (all_to_all) and a 2x4 mesh whose collectives run in split replica groups."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
from common import abstract, mesh, replicated, sgd_step
from jax.sharding import PartitionSpec as P

WIDTH = 512
HIDDEN = 2048


def _ffn(w_in: jax.Array, w_out: jax.Array, x: jax.Array) -> jax.Array:
    return jax.nn.gelu(x @ w_in) @ w_out


# --- pipeline parallel: 4 stages, GPipe schedule, activations passed on with ppermute ------------
STAGES = 4
MICROBATCHES = 8
MICROBATCH = 32


def pipeline_step() -> tuple[Any, tuple[Any, ...]]:
    """GPipe step over 4 devices: each holds one stage (an FFN block); 8 microbatches of 32 rows.

    Stage ``i`` sends its output to stage ``i+1`` with a ``ppermute`` every tick, so the forward pass
    has ``MICROBATCHES + STAGES - 1`` collective_permutes and autodiff adds as many in reverse.
    """
    device_mesh = mesh((STAGES,), ("stage",))
    forward_pairs = [(i, (i + 1) % STAGES) for i in range(STAGES)]

    def loss(params: dict[str, jax.Array], batch: jax.Array, target: jax.Array) -> jax.Array:
        stage = jax.lax.axis_index("stage")
        w_in, w_out = params["w_in"][0], params["w_out"][0]
        carry = jnp.zeros((MICROBATCH, WIDTH), batch.dtype)
        outputs = []
        for tick in range(MICROBATCHES + STAGES - 1):
            feed = batch[min(tick, MICROBATCHES - 1)]
            carry = _ffn(w_in, w_out, jnp.where(stage == 0, feed, carry))
            if tick >= STAGES - 1:
                outputs.append(carry)
            carry = jax.lax.ppermute(carry, "stage", forward_pairs)
        out = jnp.stack(outputs)
        local = jnp.where(stage == STAGES - 1, jnp.mean((out - target) ** 2), 0.0)
        return jax.lax.psum(local, "stage")

    specs = {"w_in": P("stage"), "w_out": P("stage")}
    train = jax.shard_map(
        sgd_step(loss), mesh=device_mesh, in_specs=(specs, P(), P()), out_specs=(specs, P())
    )
    params = abstract(
        {"w_in": (STAGES, WIDTH, HIDDEN), "w_out": (STAGES, HIDDEN, WIDTH)}, jnp.float32, device_mesh, specs
    )
    data = (MICROBATCHES, MICROBATCH, WIDTH)
    batch, target = abstract((data, data), jnp.float32, device_mesh, (P(), P()))
    return jax.jit(train), (params, batch, target)


# --- mixture of experts: one expert per device, tokens exchanged with all_to_all ----------------
EXPERTS = 4
TOKENS_PER_DEVICE = 256
CAPACITY = 64  # tokens each device sends to each expert


def moe_step() -> tuple[Any, tuple[Any, ...]]:
    """Expert-parallel MoE FFN step over 4 devices (top-1 routing, fixed capacity).

    Each device routes its tokens into ``[experts, capacity, width]`` buckets, an ``all_to_all``
    sends bucket ``e`` to device ``e``, the local expert runs, and a second ``all_to_all`` returns
    the results; autodiff adds the two reverse all_to_alls.
    """
    device_mesh = mesh((EXPERTS,), ("expert",))

    def loss(params: dict[str, jax.Array], tokens: jax.Array, target: jax.Array) -> jax.Array:
        logits = tokens @ params["router"]
        choice = jax.nn.one_hot(jnp.argmax(logits, -1), EXPERTS, dtype=tokens.dtype)  # [T, E]
        gate = jnp.sum(jax.nn.softmax(logits) * choice, -1, keepdims=True)
        slot = jnp.cumsum(choice, axis=0) * choice - 1  # position of each token in its bucket
        dispatch = choice[..., None] * jax.nn.one_hot(slot, CAPACITY, dtype=tokens.dtype)  # [T, E, C]
        buckets = jnp.einsum("tec,tw->ecw", dispatch, tokens)
        received = jax.lax.all_to_all(buckets, "expert", split_axis=0, concat_axis=0)
        processed = _ffn(params["w_in"][0], params["w_out"][0], received)
        returned = jax.lax.all_to_all(processed, "expert", split_axis=0, concat_axis=0)
        out = gate * jnp.einsum("tec,ecw->tw", dispatch, returned)
        return jax.lax.pmean(jnp.mean((out - target) ** 2), "expert")

    specs = {"router": P(), "w_in": P("expert"), "w_out": P("expert")}
    train = jax.shard_map(
        sgd_step(loss), mesh=device_mesh, in_specs=(specs, P("expert"), P("expert")), out_specs=(specs, P())
    )
    shapes = {"router": (WIDTH, EXPERTS), "w_in": (EXPERTS, WIDTH, HIDDEN), "w_out": (EXPERTS, HIDDEN, WIDTH)}
    params = abstract(shapes, jnp.float32, device_mesh, specs)
    data = (EXPERTS * TOKENS_PER_DEVICE, WIDTH)
    tokens, target = abstract((data, data), jnp.float32, device_mesh, (P("expert"), P("expert")))
    return jax.jit(train), (params, tokens, target)


# --- 2x4 mesh: data parallel over 2 rows, tensor parallel over 4 columns ------------------------
MESH_BATCH = 64


def mesh2x4_step() -> tuple[Any, tuple[Any, ...]]:
    """MLP step on a 2x4 mesh (``data`` x ``model``), ``jax.jit`` with shardings.

    The Megatron pair's activation all-reduce runs within each row (groups ``[[0,1,2,3],[4,5,6,7]]``)
    and the gradient all-reduces across rows (groups ``[[0,4],[1,5],[2,6],[3,7]]``).
    """
    device_mesh = mesh((2, 4), ("data", "model"))
    specs = {"w_in": P(None, "model"), "w_out": P("model", None)}
    params = abstract({"w_in": (WIDTH, HIDDEN), "w_out": (HIDDEN, WIDTH)}, jnp.float32, device_mesh, specs)
    data = (MESH_BATCH, WIDTH)
    x, y = abstract((data, data), jnp.float32, device_mesh, (P("data"), P("data")))

    def loss(p: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
        return jnp.mean((_ffn(p["w_in"], p["w_out"], x) - y) ** 2)

    out_shardings = (jax.tree.map(lambda a: a.sharding, params), replicated(device_mesh))
    return jax.jit(sgd_step(loss), out_shardings=out_shardings), (params, x, y)
