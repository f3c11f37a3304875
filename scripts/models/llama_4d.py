"""Llama 3 405B training step in Meta's 4D parallelism: tensor, context, pipeline and data parallel.

``llama_4d_step(dp=, pp=, cp=, tp=, virtual=, batch=, model=, layers=, seq=)`` returns the jitted
AdamW step and its abstract arguments, written as the per-device program (``jax.shard_map``) on a
``dp x pp x cp x tp`` mesh: device ``((dp * PP + pp) * CP + cp) * TP + tp``, the [TP, CP, PP, DP]
order of "The Llama 3 Herd of Models" (2024, §3.3.2), TP innermost.

- ``tp``, ``cp``: `llama_4d_layers` (sequence-parallel Megatron TP; all-gather CP with the
  report's load-balanced chunks).
- ``pp``: the interleaved 1F1B pipeline of `pipeline_schedule`, ``virtual`` chunks per stage.
  The first chunk of the first stage holds only the embedding and the last chunk of the last
  stage only the final norm, output projection and loss, as the report balances its stages (126
  layers = 16 stages x 8 chunks - 2, one layer each). A forward slot runs the chunk its item
  needs (``lax.switch``: the embedding lookup, a layer chunk, or the loss: value and input
  gradient at once, held for the item's backward slot right after; nothing in the bubble) and
  passes the activation on with a ring ``ppermute``; a backward slot runs the chunk's saved
  backward (or the embedding's gradient) and passes the gradient back.
- ``dp``: data parallel; parameters and AdamW moments replicated, gradients all-reduced once per
  step over the ``dp`` and ``cp`` ranks (the latter see other tokens of the same sequences).

``batch`` is sequences per data-parallel rank, one microbatch each (a multiple of ``pp``). The
pipeline stage, context rank and tensor rank of a device come in as sharded index arguments, so
the per-device program holds no ``partition_id`` arithmetic and does not depend on the sizes of
the ``dp`` and ``pp`` mesh axes (`mesh_invariant_axes`): ``mesh_sizes={"dp": 4, "pp": 4}`` builds
the same per-device program on a smaller mesh, which `hespas_py.export` partitions when the full
one has more devices than XLA:CPU takes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
from common import abstract, adamw_update, mesh
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P
from llama_4d_layers import (
    _LAYER,
    AXES,
    MODELS,
    NORMS,
    Plan,
    _chunk_starts,
    chunk_forward,
    embed,
    loss_chunk,
    make_plan,
    unstack,
)
from pipeline_schedule import Buffers, Item

#: Mesh axes whose size the per-device program does not depend on (`hespas_py.export`).
MESH_INVARIANT_AXES = ("dp", "pp")


class _Saved(NamedTuple):
    """How a layer chunk's backward is rebuilt from what its forward slot saved: the pullback's
    structure, and per residual either the index of the parameter it is or None (saved)."""

    treedef: Any
    params: tuple[int | None, ...]


class _Carry(NamedTuple):
    """What the slots pass on."""

    recv_forward: jax.Array  # activation from the previous stage
    recv_backward: jax.Array  # gradient from the next stage
    buffers: Buffers
    saved: tuple[jax.Array, ...]  # per saved residual: [in_flight + 1, ...]
    grads: dict[str, jax.Array]  # layer gradients [V, chunk layers, ...]
    head_grads: tuple[jax.Array, jax.Array]  # final norm, unembedding
    embedding_grads: jax.Array
    d_loss_input: jax.Array  # the loss chunk's input gradient, for its backward slot
    loss: jax.Array


def _layer_specs(plan: Plan) -> tuple[dict[str, tuple], dict[str, P]]:
    """Global shapes ``[PP, V, chunk layers, ...]`` of the layer parameters and their specs."""
    lead = (plan.pp, plan.schedule.virtual, plan.layers_per_chunk)
    shapes = {n: (*lead, *shape(plan.c)) for n, (shape, _) in _LAYER.items()}
    specs = {n: P("pp", None, None, *[("tp" if d == split else None) for d in range(len(s) - 3)])
             for (n, (_, split)), s in zip(_LAYER.items(), shapes.values(), strict=True)}
    return shapes, specs


def param_specs(plan: Plan) -> tuple[dict[str, Any], dict[str, Any]]:
    """Global parameter shapes and their `PartitionSpec`s."""
    shapes, specs = _layer_specs(plan)
    c = plan.c
    return ({"layers": shapes, "embedding": (c.vocab, c.embed), "unembedding": (c.embed, c.vocab),
             "final_norm": (c.embed,)},
            {"layers": specs, "embedding": P("tp", None), "unembedding": P(None, "tp"),
             "final_norm": P()})


def _varying(tree: Any) -> Any:
    """``tree`` typed as varying over every mesh axis (the slot carries and branch results differ
    from device to device), so that loop carries and branches agree."""
    def cast(x):
        aval = jax.typeof(x)
        types = getattr(aval, "manual_axis_type", None)  # jax 0.10 on; earlier ``aval.vma``
        have = types.varying if types is not None else getattr(aval, "vma", frozenset())
        missing = tuple(a for a in AXES if a not in have)
        return jax.lax.pcast(x, missing, to="varying") if missing else x
    return jax.tree.map(cast, tree)


class _Context(NamedTuple):
    """What every slot reads."""

    stage: jax.Array
    tp_rank: jax.Array
    positions: jax.Array  # token positions of the local sequence chunks
    starts: list[jax.Array]  # first position of each local chunk
    layers: dict[str, jax.Array]  # [V, chunk layers, ...]
    tokens: jax.Array  # [M, seq/cp]
    targets: jax.Array  # [M, seq/cp]
    embedding: jax.Array
    final_norm: jax.Array
    unembedding: jax.Array


class _Forward(NamedTuple):
    """Operands of a forward slot's chunk."""

    params: dict[str, jax.Array]
    x: jax.Array
    tokens: jax.Array
    targets: jax.Array
    head_grads: tuple[jax.Array, jax.Array]


class _Backward(NamedTuple):
    """Operands of a backward slot's chunk."""

    params: dict[str, jax.Array]
    saved: tuple[jax.Array, ...]
    dy: jax.Array
    d_loss_input: jax.Array
    tokens: jax.Array
    embedding_grads: jax.Array


class _Step:
    """The per-device program of one plan (module docstring)."""

    def __init__(self, plan: Plan, ring: int) -> None:
        self.plan = plan
        self.s = plan.schedule
        self.ring = ring  # size of the pp mesh axis
        self.pullback: _Saved | None = None
        self.saved_avals: list[jax.ShapeDtypeStruct] = []

    def _pass(self, x: jax.Array, direction: int) -> jax.Array:
        """``x`` to the next (``direction`` 1) or previous (-1) stage, round the ring."""
        if self.ring == 1:
            return x
        return jax.lax.ppermute(x, "pp", [(i, (i + direction) % self.ring)
                                          for i in range(self.ring)])

    def _layer_chunk(self, ctx: _Context):
        return lambda p, x: chunk_forward(self.plan, ctx.positions, ctx.starts, p, x)

    def _saved_residuals(self, params, pullback) -> tuple[tuple, _Saved]:
        """The residuals of a layer chunk's pullback that are not parameters (those are read
        again in the backward slot), and how to rebuild the pullback."""
        leaves, treedef = jax.tree.flatten(pullback)
        param_leaves = jax.tree.leaves(params)
        where = tuple(next((i for i, q in enumerate(param_leaves) if leaf is q), None)
                      for leaf in leaves)
        kept = tuple(leaf for leaf, w in zip(leaves, where, strict=True) if w is None)
        return kept, _Saved(treedef, where)

    def measure_saved(self, ctx: _Context, params, x) -> None:
        """Shapes of what a layer chunk's forward saves; a buffer holds `Schedule.in_flight` + 1
        of each (the last a sink for slots that save nothing)."""
        def saved(p, x):
            return self._saved_residuals(p, jax.vjp(self._layer_chunk(ctx), p, x)[1])[0]
        n = self.s.in_flight + 1
        self.saved_avals = [jax.ShapeDtypeStruct((n, *a.shape), a.dtype)
                            for a in jax.eval_shape(saved, params, x)]

    def _no_saved(self) -> tuple[jax.Array, ...]:
        return tuple(jnp.zeros(a.shape[1:], a.dtype) for a in self.saved_avals)

    def _embed(self, ctx: _Context, table: jax.Array, tokens: jax.Array) -> jax.Array:
        return _varying(embed(self.plan, table, tokens, ctx.tp_rank))

    def _forward_branches(self, ctx: _Context) -> list:
        """Per kind of forward slot (bubble, embedding chunk, layer chunk, loss chunk): the
        chunk's output, what it saves, loss value, loss input gradient and head gradients."""
        plan = self.plan

        def idle(o: _Forward):
            return o.x, self._no_saved(), jnp.float32(0), jnp.zeros_like(o.x), o.head_grads

        def embedding(o: _Forward):
            y = self._embed(ctx, ctx.embedding, o.tokens)
            return y, self._no_saved(), jnp.float32(0), jnp.zeros_like(o.x), o.head_grads

        def layer(o: _Forward):
            y, pullback = jax.vjp(self._layer_chunk(ctx), o.params, o.x)
            saved, self.pullback = self._saved_residuals(o.params, pullback)
            return y, saved, jnp.float32(0), jnp.zeros_like(o.x), o.head_grads

        def loss(o: _Forward):
            value, (dx, dnorm, dunembedding) = jax.value_and_grad(
                lambda x, n, u: loss_chunk(plan, n, u, x, o.targets, ctx.tp_rank),
                argnums=(0, 1, 2))(o.x, ctx.final_norm, ctx.unembedding)
            return (jnp.zeros_like(o.x), self._no_saved(), value, dx,
                    (o.head_grads[0] + dnorm, o.head_grads[1] + dunembedding))

        return [_varying_branch(b) for b in (idle, embedding, layer, loss)]

    def _backward_branches(self, ctx: _Context) -> list:
        """Per kind of backward slot (bubble, embedding chunk, layer chunk, loss chunk): the input
        gradient to pass back, the chunk's parameter gradients and the embedding's."""
        pullback = self.pullback  # the forward slots are traced first

        def idle(o: _Backward):
            return jnp.zeros_like(o.dy), jax.tree.map(jnp.zeros_like, o.params), o.embedding_grads

        def embedding(o: _Backward):
            table_pullback = jax.vjp(lambda t: self._embed(ctx, t, o.tokens), ctx.embedding)[1]
            return (jnp.zeros_like(o.dy), jax.tree.map(jnp.zeros_like, o.params),
                    o.embedding_grads + table_pullback(o.dy)[0])

        def layer(o: _Backward):
            param_leaves, rest = jax.tree.leaves(o.params), iter(o.saved)
            leaves = [param_leaves[w] if w is not None else next(rest) for w in pullback.params]
            dparams, dx = jax.tree.unflatten(pullback.treedef, leaves)(o.dy)
            return dx, dparams, o.embedding_grads

        def loss(o: _Backward):
            return o.d_loss_input, jax.tree.map(jnp.zeros_like, o.params), o.embedding_grads

        return [_varying_branch(b) for b in (idle, embedding, layer, loss)]

    def _chunk(self, ctx: _Context, item: Item) -> tuple[jax.Array, list[dict[str, jax.Array]]]:
        """The branch a slot runs for ``item`` and its chunk's per-layer parameters."""
        first, last = self.s.first(item, ctx.stage), self.s.last(item, ctx.stage)
        kind = jnp.where(first, _EMBEDDING_KIND, jnp.where(
            last, _LOSS_KIND, jnp.where(item.valid, _LAYER_KIND, _IDLE_KIND)))
        return kind, unstack(jax.tree.map(lambda a: a[item.chunk], ctx.layers))

    def forward_slot(self, ctx: _Context, carry: _Carry, slot: jax.Array) -> _Carry:
        s = self.s
        item = s.forward(slot, ctx.stage)
        kind, params = self._chunk(ctx, item)
        m = item.microbatch
        y, saved, value, dx, heads = jax.lax.switch(
            kind, self._forward_branches(ctx),
            _Forward(params, carry.recv_forward, ctx.tokens[m], ctx.targets[m], carry.head_grads))
        buffers, at = carry.buffers.take(kind == _LAYER_KIND, item.order, s.in_flight)
        stored = tuple(_put(b, v, at) for b, v in zip(carry.saved, saved, strict=True))
        d_loss = jnp.where(kind == _LOSS_KIND, dx, carry.d_loss_input)
        return carry._replace(recv_forward=self._pass(y, 1), buffers=buffers, saved=stored,
                              head_grads=heads, d_loss_input=d_loss, loss=carry.loss + value)

    def backward_slot(self, ctx: _Context, carry: _Carry, slot: jax.Array) -> _Carry:
        s = self.s
        item = s.backward(slot, ctx.stage)
        kind, params = self._chunk(ctx, item)
        buffers, at = carry.buffers.give_back(kind == _LAYER_KIND, item.order, s.in_flight)
        dx, dparams, embedding_grads = jax.lax.switch(
            kind, self._backward_branches(ctx),
            _Backward(params, tuple(b[at] for b in carry.saved), carry.recv_backward,
                      carry.d_loss_input, ctx.tokens[item.microbatch], carry.embedding_grads))
        dparams = jax.tree.map(lambda *layers: jnp.stack(layers), *dparams)
        grads = jax.tree.map(lambda g, d: _put(g, g[item.chunk] + d, item.chunk), carry.grads,
                             dparams)
        return carry._replace(recv_backward=self._pass(dx, -1), buffers=buffers, grads=grads,
                              embedding_grads=embedding_grads)

    def __call__(self, params, moments, count, tokens, targets, coords):
        plan, s = self.plan, self.s
        tp_rank = coords["tp"][0]
        # Typed as differing per device, so that the pullbacks leave each device its own gradient
        # (JAX would otherwise sum a replicated parameter's gradient over the mesh in every
        # backward slot); `_reduce` sums them once.
        local = _varying(params)
        layers = jax.tree.map(lambda a: a[0], local["layers"])
        starts = _chunk_starts(plan, coords["cp"][0])
        size = plan.local_seq // len(starts)
        positions = jnp.concatenate([start + jnp.arange(size, dtype=jnp.int32) for start in starts])
        ctx = _Context(coords["pp"][0], tp_rank, positions, starts, layers, tokens[0], targets[0],
                       local["embedding"], local["final_norm"], local["unembedding"])
        x = jnp.zeros((1, plan.local_seq // plan.tp, plan.c.embed), params["final_norm"].dtype)
        self.measure_saved(ctx, unstack(jax.tree.map(lambda a: a[0], layers)), x)
        carry = _varying(_Carry(
            x, x, Buffers.empty(s), tuple(jnp.zeros(a.shape, a.dtype) for a in self.saved_avals),
            jax.tree.map(jnp.zeros_like, layers),
            (jnp.zeros_like(params["final_norm"]), jnp.zeros_like(params["unembedding"])),
            jnp.zeros_like(params["embedding"]), x, jnp.float32(0)))

        def scan(body, carry, first, stop):
            slots = jnp.arange(first, stop, dtype=jnp.int32)
            return jax.lax.scan(lambda c, k: (body(c, k), None), carry, slots)[0]

        carry = scan(lambda c, k: self.forward_slot(ctx, c, k), carry, 0, s.warmup)
        carry = scan(lambda c, k: self.backward_slot(ctx, self.forward_slot(ctx, c, k + s.warmup),
                                                     k), carry, 0, s.steady)
        carry = scan(lambda c, k: self.backward_slot(ctx, c, k), carry, s.steady, s.slots)
        grads = {"layers": carry.grads, "embedding": carry.embedding_grads,
                 "final_norm": carry.head_grads[0], "unembedding": carry.head_grads[1]}
        new_params, new_moments = adamw_update(_squeeze(params), _reduce(grads),
                                               tuple(map(_squeeze, moments)), count)
        loss = jax.lax.pmean(_all_sum(_all_sum(carry.loss, "dp", "cp"), "pp"), "tp")
        return _lift(new_params), tuple(map(_lift, new_moments)), count + 1, loss


#: Branches of a slot: bubble, the embedding's chunk, a layer chunk, the loss's chunk.
_IDLE_KIND, _EMBEDDING_KIND, _LAYER_KIND, _LOSS_KIND = range(4)


def _put(stack: jax.Array, value: jax.Array, index: jax.Array) -> jax.Array:
    """``stack`` with ``value`` at ``index`` of its leading axis (an in-place update)."""
    return jax.lax.dynamic_update_index_in_dim(stack, value, index, 0)


def _squeeze(tree: dict[str, Any]) -> dict[str, Any]:
    """The parameters (or moments) as the device holds them: its stage's layers."""
    return {**tree, "layers": jax.tree.map(lambda a: a[0], tree["layers"])}


def _lift(tree: dict[str, Any]) -> dict[str, Any]:
    return {**tree, "layers": jax.tree.map(lambda a: a[None], tree["layers"])}


def _varying_branch(branch):
    return lambda operands: _varying(branch(operands))


def _all_sum(x: Any, *axes: str) -> Any:
    """``psum`` over ``axes`` (also those of one device, where no collective runs: the value is
    then typed as replicated there)."""
    return jax.lax.psum(x, axes)


def _reduce(grads: dict[str, Any]) -> dict[str, Any]:
    """Gradients summed over the ranks that share the parameters: ``dp`` and ``cp`` for all, then
    ``pp`` for the embedding and output layer (only the first and last stage use them), and
    ``tp`` for the norms (each tensor rank scales its part of the sequence)."""
    data = ("dp", "cp")
    grads = _all_sum(grads, *data)
    layers = {n: _all_sum(g, "tp") if n in NORMS else g for n, g in grads["layers"].items()}
    return {"layers": layers, "embedding": _all_sum(grads["embedding"], "pp"),
            "unembedding": _all_sum(grads["unembedding"], "pp"),
            "final_norm": _all_sum(grads["final_norm"], "pp", "tp")}


def llama_4d_step(dp: int = 1, pp: int = 1, cp: int = 1, tp: int = 1, virtual: int = 1,
                  batch: int | None = None, model: str = "405b", layers: int | None = None,
                  seq: int | None = None, dtype: str = "bfloat16",
                  mesh_sizes: Mapping[str, int] | None = None) -> tuple[Any, tuple[Any, ...]]:
    """The jitted training step of Llama ``model`` (a `MODELS` key; ``layers``/``seq`` override
    it) and its abstract arguments; ``batch`` defaults to ``pp`` sequences per data-parallel rank;
    parameters, moments and activations in ``dtype`` (``float32`` for exact checks).
    ``mesh_sizes`` builds the mesh with other sizes of the `MESH_INVARIANT_AXES` (module
    docstring)."""
    if model not in MODELS:
        raise ValueError(f"model must be one of {', '.join(MODELS)}, not {model!r}")
    c = dataclasses.replace(MODELS[model], **{k: v for k, v in (("layers", layers), ("seq", seq))
                                              if v is not None})
    plan = make_plan(c, dp, pp, cp, tp, virtual, pp if batch is None else batch)
    sizes = {"dp": dp, "pp": pp, "cp": cp, "tp": tp}
    for axis, size in (mesh_sizes or {}).items():
        if axis not in MESH_INVARIANT_AXES or size < 1:
            raise ValueError(f"mesh_sizes: {axis} is not one of {MESH_INVARIANT_AXES}")
        sizes[axis] = size
    device_mesh = mesh(tuple(sizes[a] for a in AXES), AXES)
    shapes, specs = param_specs(plan)
    params = jax.tree.map(
        lambda shape, spec: jax.ShapeDtypeStruct(
            (sizes["pp"], *shape[1:]) if spec and spec[0] == "pp" else shape, jnp.dtype(dtype),
            sharding=NamedSharding(device_mesh, spec)),
        shapes, specs, is_leaf=lambda x: isinstance(x, tuple))
    data = (sizes["dp"], plan.schedule.microbatches, c.seq)
    tokens, targets = abstract((data, data), jnp.int32, device_mesh, (P("dp", None, "cp"),) * 2)
    coords = {a: jax.ShapeDtypeStruct((sizes[a],), jnp.int32,
                                      sharding=NamedSharding(device_mesh, P(a)))
              for a in ("pp", "cp", "tp")}
    count = abstract((), jnp.int32, device_mesh, P())
    step = _Step(plan, sizes["pp"])
    sharded = jax.shard_map(
        step, mesh=device_mesh,
        in_specs=(specs, (specs, specs), P(), P("dp", None, "cp"), P("dp", None, "cp"),
                  {a: P(a) for a in ("pp", "cp", "tp")}),
        out_specs=(specs, (specs, specs), P(), P()))
    # Parameters and moments are updated in place, as a training loop donates them.
    return (jax.jit(sharded, donate_argnums=(0, 1)),
            (params, (params, params), count, tokens, targets, coords))


llama_4d_step.mesh_invariant_axes = MESH_INVARIANT_AXES
