"""Fully sharded data-parallel training steps, written as the per-device program (``jax.shard_map``).

The layout is a ``(data, fsdp)`` mesh, as Pax's ``[replica, data]`` and MaxText's ``[data, fsdp]``
meshes: every parameter is split over the ``fsdp`` devices and replicated over the ``data``
replicas, and the batch over all devices. A layer gathers each weight where it is used, in the
compute dtype, so autodiff turns the gather into a reduce-scatter of the gradient over ``fsdp``
followed by an all-reduce of the shard over ``data`` (FSDP inside a node, data parallel across
nodes). This is the collective set the XLA GPU/TPU pipelines run; the post-SPMD module of a
``jax.jit`` step with shardings would show all-reduce + slice instead, since XLA forms
reduce-scatters only after partitioning (on GPU and TPU, not on the CPU we export on).

Layers are scanned (``jax.lax.scan`` over stacked parameters, Pax ``USE_REPEATED_LAYER`` /
MaxText ``scan_layers``), each rematerialised with the source's ``jax.checkpoint`` policy, so
the per-layer gathers and reduce-scatters sit inside the loop bodies.

The update is Adam with decoupled weight decay after clipping the gradients to global norm 1.0
(Pax: ``CLIP_GRADIENT_NORM_TO_VALUE = 1.0``; MaxText: ``gradient_clipping_threshold: 1.0``),
moments kept in the parameters' dtype.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from common import abstract, adamw_update, mesh
from jax.sharding import PartitionSpec as P

AXES = ("data", "fsdp")
COMPUTE = jnp.bfloat16
CLIP_NORM = 1.0


@dataclasses.dataclass(frozen=True)
class Layout:
    """How a step is split over the devices.

    Attributes:
        data: replicas (data parallel; across nodes in the Pax GPU runs).
        fsdp: devices each parameter is split over.
        batch_per_device: sequences per device.
    """

    data: int
    fsdp: int
    batch_per_device: int

    @property
    def devices(self) -> int:
        return self.data * self.fsdp

    @property
    def axes(self) -> tuple[str, ...]:
        """Mesh axes of more than one device (a one-device axis would add no-op collectives)."""
        return tuple(name for name, size in zip(AXES, (self.data, self.fsdp), strict=True)
                     if size > 1) or AXES[-1:]

    def mesh(self) -> Any:
        sizes = {"data": self.data, "fsdp": self.fsdp}
        return mesh(tuple(sizes[a] for a in self.axes), self.axes)


@dataclasses.dataclass(frozen=True)
class Param:
    """One parameter: its global shape and the dimension split over ``fsdp`` (None: replicated)."""

    shape: tuple[int, ...]
    dim: int | None = None


def stacked(layer: dict[str, Param], count: int) -> dict[str, Param]:
    """The parameters of ``count`` scanned layers: one leading layer axis on each."""
    return {name: Param((count, *p.shape), None if p.dim is None else p.dim + 1) for name, p in layer.items()}


def is_param(x: Any) -> bool:
    return isinstance(x, Param)


def count(params: Any) -> int:
    """Number of scalars in a pytree of `Param`."""
    return sum(math.prod(p.shape) for p in jax.tree.leaves(params, is_leaf=is_param))


def specs(params: Any, layout: Layout) -> Any:
    """The ``PartitionSpec`` of every parameter."""

    def spec(p: Param) -> P:
        parts = [None] * len(p.shape)
        if p.dim is not None and layout.fsdp > 1:
            parts[p.dim] = "fsdp"
        return P(*parts)

    return jax.tree.map(spec, params, is_leaf=is_param)


def whole(shard: jax.Array, dim: int | None, layout: Layout) -> jax.Array:
    """The whole parameter in the compute dtype, from this device's shard of it.

    Made data-varying before the gather, so its gradient is reduce-scattered over ``fsdp`` first
    and only the shard is all-reduced over ``data``.
    """
    x = shard.astype(COMPUTE)
    if layout.data > 1:
        x = jax.lax.pcast(x, "data", to="varying")
    if layout.fsdp > 1 and dim is not None:
        x = jax.lax.all_gather(x, "fsdp", axis=dim, tiled=True)
    return x


def gather_all(shards: dict[str, jax.Array], params: dict[str, Param],
               layout: Layout) -> dict[str, jax.Array]:
    """`whole` of every parameter of one layer."""
    return {name: whole(shards[name], params[name].dim, layout) for name in shards}


def scan_layers(
    layer: Callable[[jax.Array, Any], jax.Array],
    x: jax.Array,
    xs: Any,
    policy: Callable[..., bool] | None,
) -> jax.Array:
    """``layer(x, slice)`` once per leading-axis slice of ``xs`` (stacked layer shards, ...) with
    ``jax.lax.scan``, each rematerialised with ``policy``."""
    body = jax.checkpoint(lambda carry, s: (layer(carry, s), None), policy=policy, prevent_cse=False)
    return jax.lax.scan(body, x, xs)[0]


def cross_entropy(logits: jax.Array, targets: jax.Array, layout: Layout) -> jax.Array:
    """Mean next-token cross-entropy over all devices' tokens, in f32."""
    log_probs = jax.nn.log_softmax(logits.astype(jnp.float32), axis=-1)
    picked = jnp.take_along_axis(log_probs, targets[..., None], axis=-1)
    return jax.lax.pmean(-jnp.mean(picked), layout.axes)


def clip_by_global_norm(grads: Any, params: Any, layout: Layout) -> Any:
    """``grads`` scaled to global L2 norm at most `CLIP_NORM` (shards summed over ``fsdp``)."""
    pairs = list(zip(jax.tree.leaves(grads), jax.tree.leaves(params, is_leaf=is_param),
                     strict=True))
    squares = [jnp.sum(jnp.square(g.astype(jnp.float32))) for g, _ in pairs]
    split = sum((s for s, (_, p) in zip(squares, pairs, strict=True) if p.dim is not None),
                jnp.float32(0))
    whole_sum = sum((s for s, (_, p) in zip(squares, pairs, strict=True) if p.dim is None),
                    jnp.float32(0))
    if layout.fsdp > 1:
        split = jax.lax.psum(split, "fsdp")
    norm = jnp.sqrt(split + whole_sum)
    scale = jnp.minimum(1.0, CLIP_NORM / (norm + 1e-6))
    return jax.tree.map(lambda g: (g * scale).astype(g.dtype), grads)


def train_step(
    loss: Callable[[Any, jax.Array, jax.Array], jax.Array],
    params: Any,
    layout: Layout,
    seq: int,
    weight_dtype: Any = jnp.float32,
) -> tuple[Any, tuple[Any, ...]]:
    """``(jitted step, abstract args)`` of one training step of ``loss(shards, tokens, targets)``.

    ``params`` is a pytree of `Param`; the step takes (parameters, Adam moments, step count,
    tokens, targets) and returns them updated, with the loss.
    """
    device_mesh = layout.mesh()
    param_specs = specs(params, layout)
    batch_spec = P(layout.axes)

    def step(shards: Any, moments: Any, count: jax.Array, tokens: jax.Array, targets: jax.Array) -> Any:
        value, grads = jax.value_and_grad(lambda s: loss(s, tokens, targets))(shards)
        grads = clip_by_global_norm(grads, params, layout)
        shards, moments = adamw_update(shards, grads, moments, count, learning_rate=1e-4)
        return shards, moments, count + 1, value

    sharded = jax.shard_map(
        step,
        mesh=device_mesh,
        in_specs=(param_specs, (param_specs, param_specs), P(), batch_spec, batch_spec),
        out_specs=(param_specs, (param_specs, param_specs), P(), P()),
    )
    shapes = jax.tree.map(lambda p: p.shape, params, is_leaf=is_param)
    weights = abstract(shapes, weight_dtype, device_mesh, param_specs)
    batch = (layout.devices * layout.batch_per_device, seq)
    tokens, targets = abstract((batch, batch), jnp.int32, device_mesh, (batch_spec, batch_spec))
    count = abstract((), jnp.int32, device_mesh, P())
    return jax.jit(sharded), (weights, (weights, weights), count, tokens, targets)
