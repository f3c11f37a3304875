"""Pieces every shipped model shares: meshes, abstract arguments and the SGD training step."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import jax
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P


def mesh(shape: tuple[int, ...], names: tuple[str, ...]) -> Mesh:
    """A mesh over the first ``prod(shape)`` devices, in device order."""
    return jax.make_mesh(shape, names, axis_types=(jax.sharding.AxisType.Auto,) * len(shape))


def abstract(shapes: Any, dtype: Any, device_mesh: Mesh, specs: Any) -> Any:
    """``jax.ShapeDtypeStruct``s of a pytree of shapes, each sharded by its ``PartitionSpec``."""
    return jax.tree.map(
        lambda shape, spec: jax.ShapeDtypeStruct(shape, dtype, sharding=NamedSharding(device_mesh, spec)),
        shapes,
        specs,
        is_leaf=_is_shape,
    )


def sgd_step(loss: Callable[..., jax.Array], learning_rate: float = 0.01) -> Callable[..., Any]:
    """``step(params, *batch) -> (new_params, loss)``: one plain SGD update of ``loss(params, *batch)``."""

    def step(params: Any, *batch: Any) -> tuple[Any, jax.Array]:
        value, grads = jax.value_and_grad(loss)(params, *batch)
        new = jax.tree.map(lambda p, g: (p - learning_rate * g).astype(p.dtype), params, grads)
        return new, value

    return step


def replicated(device_mesh: Mesh) -> NamedSharding:
    """The fully replicated sharding on ``device_mesh``."""
    return NamedSharding(device_mesh, P())


def count(shapes: Any) -> int:
    """Number of scalars in a pytree of shapes."""
    return sum(math.prod(shape) for shape in jax.tree.leaves(shapes, is_leaf=_is_shape))


def _is_shape(x: Any) -> bool:
    return isinstance(x, tuple) and all(isinstance(d, int) for d in x)


def adamw_update(
    params: Any,
    grads: Any,
    state: tuple[Any, Any],
    step: jax.Array,
    learning_rate: float = 3e-4,
    b1: float = 0.9,
    b2: float = 0.95,
    eps: float = 1e-8,
    weight_decay: float = 0.1,
) -> tuple[Any, tuple[Any, Any]]:
    """One AdamW update; moments are kept in the parameters' dtype."""
    mu, nu = state
    mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, mu, grads)
    nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, nu, grads)
    t = (step + 1).astype("float32")
    scale = learning_rate * (1 - b2**t) ** 0.5 / (1 - b1**t)

    def update(p: jax.Array, m: jax.Array, v: jax.Array) -> jax.Array:
        return (p - scale * m / (v**0.5 + eps) - learning_rate * weight_decay * p).astype(p.dtype)

    new_params = jax.tree.map(update, params, mu, nu)
    cast = lambda tree, like: jax.tree.map(lambda a, b: a.astype(b.dtype), tree, like)  # noqa: E731
    return new_params, (cast(mu, params), cast(nu, params))
