"""A two-layer MLP training step (plain SGD, squared error) in data, fully-sharded data and tensor parallelism.

``x [BATCH, WIDTH] -> W1 [WIDTH, HIDDEN] + b1 -> gelu -> W2 [HIDDEN, WIDTH] + b2 -> mean squared error``,
f32, on a 1-D mesh of 4 devices (axis ``d``). Small, so tests export it and check every collective
by hand:

- DP (``jax.jit`` + shardings): parameters replicated, batch split; XLA sums each gradient.
- TP (``jax.jit`` + shardings): Megatron pair, W1 split by columns, W2 by rows, batch replicated.
- FSDP (``jax.shard_map``): parameters and batch split on their first dimension; each weight is
  all-gathered where it is used, so autodiff turns the gather into a reduce-scatter of its gradient.
- FSDP (``jax.jit`` + shardings, `fsdp_jit_step`; and `fsdp_jit_scan_step`, 8 devices, 4 such
  layers stacked and scanned): the same split, left to XLA's SPMD partitioner, which sums each
  gradient with an all-reduce and keeps the device's slice (``dynamic_slice`` at an offset looked
  up by ``partition_id``): the pattern XLA's GPU compiler turns into a reduce-scatter.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
from common import abstract, mesh, replicated, sgd_step
from jax.sharding import PartitionSpec as P

DEVICES = 4
BATCH = 64  # global batch
WIDTH = 256
HIDDEN = 1024
SHAPES = {"w1": (WIDTH, HIDDEN), "b1": (HIDDEN,), "w2": (HIDDEN, WIDTH), "b2": (WIDTH,)}


def loss(params: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
    """Mean squared error of the MLP."""
    hidden = jax.nn.gelu(x @ params["w1"] + params["b1"])
    out = hidden @ params["w2"] + params["b2"]
    return jnp.mean((out - y) ** 2)


def _jit_step(param_specs: dict[str, P], batch_spec: P) -> tuple[Any, tuple[Any, ...]]:
    """A ``jax.jit`` step whose collectives XLA's SPMD partitioner derives from the shardings."""
    device_mesh = mesh((DEVICES,), ("d",))
    params = abstract(SHAPES, jnp.float32, device_mesh, param_specs)
    x, y = abstract(((BATCH, WIDTH), (BATCH, WIDTH)), jnp.float32, device_mesh, (batch_spec, batch_spec))
    out_shardings = (jax.tree.map(lambda a: a.sharding, params), replicated(device_mesh))
    return jax.jit(sgd_step(loss), out_shardings=out_shardings), (params, x, y)


def dp_step() -> tuple[Any, tuple[Any, ...]]:
    """Data-parallel MLP step on 4 devices."""
    return _jit_step({name: P() for name in SHAPES}, P("d"))


def tp_step() -> tuple[Any, tuple[Any, ...]]:
    """Tensor-parallel (Megatron) MLP step on 4 devices."""
    return _jit_step({"w1": P(None, "d"), "b1": P("d"), "w2": P("d", None), "b2": P()}, P())


def fsdp_step() -> tuple[Any, tuple[Any, ...]]:
    """Fully-sharded data-parallel MLP step on 4 devices, written with ``jax.shard_map``."""
    device_mesh = mesh((DEVICES,), ("d",))
    param_specs = {name: P("d") for name in SHAPES}

    def sharded_loss(shards: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
        params = {k: jax.lax.all_gather(v, "d", tiled=True) for k, v in shards.items()}
        return jax.lax.pmean(loss(params, x, y), "d")

    train = jax.shard_map(
        sgd_step(sharded_loss),
        mesh=device_mesh,
        in_specs=(param_specs, P("d"), P("d")),
        out_specs=(param_specs, P()),
    )
    params = abstract(SHAPES, jnp.float32, device_mesh, param_specs)
    x, y = abstract(((BATCH, WIDTH), (BATCH, WIDTH)), jnp.float32, device_mesh, (P("d"), P("d")))
    return jax.jit(train), (params, x, y)


def fsdp_jit_step() -> tuple[Any, tuple[Any, ...]]:
    """Fully-sharded data-parallel MLP step on 4 devices, left to XLA's SPMD partitioner."""
    return _jit_step({name: P("d") for name in SHAPES}, P("d"))


LAYERS = 4


def fsdp_jit_scan_step() -> tuple[Any, tuple[Any, ...]]:
    """`LAYERS` square layers stacked and scanned, FSDP over 8 devices with ``jax.jit`` shardings."""
    devices = 8
    device_mesh = mesh((devices,), ("d",))

    def scan_loss(weights: jax.Array, x: jax.Array) -> jax.Array:
        out, _ = jax.lax.scan(lambda h, w: (jax.nn.gelu(h @ w), None), x, weights)
        return jnp.mean(out ** 2)

    weights = abstract((LAYERS, WIDTH, WIDTH), jnp.float32, device_mesh, P(None, "d"))
    x = abstract((BATCH, WIDTH), jnp.float32, device_mesh, P("d"))
    out_shardings = (weights.sharding, replicated(device_mesh))
    return jax.jit(sgd_step(scan_loss), out_shardings=out_shardings), (weights, x)
