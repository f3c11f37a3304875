"""A tiny MLP training step whose layout (dp x tp) is a parameter, for the search tests."""

import os

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

WIDTH, HIDDEN, ROWS = 256, 1024, 64


def mlp_step(dp=1, tp=1, hidden=HIDDEN, crash=False):
    """SGD step of a two-matrix MLP on a dp x tp mesh; tp=4 is refused; ``crash`` aborts the
    process."""
    if crash:
        os.abort()
    if tp == 4:
        raise ValueError("tp=4 is not supported here")
    mesh = jax.make_mesh((dp, tp), ("dp", "tp"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    shard = lambda *spec: NamedSharding(mesh, P(*spec))  # noqa: E731
    params = {"w_in": jax.ShapeDtypeStruct((WIDTH, hidden), jnp.float32, sharding=shard(None, "tp")),
              "w_out": jax.ShapeDtypeStruct((hidden, WIDTH), jnp.float32, sharding=shard("tp", None))}
    x = jax.ShapeDtypeStruct((ROWS * dp, WIDTH), jnp.float32, sharding=shard("dp"))

    def step(p, x):
        loss = lambda p: jnp.mean((jax.nn.gelu(x @ p["w_in"]) @ p["w_out"] - x) ** 2)  # noqa: E731
        grads = jax.grad(loss)(p)
        return jax.tree.map(lambda w, g: w - 0.01 * g, p, grads)

    return jax.jit(step, out_shardings={"w_in": shard(None, "tp"), "w_out": shard("tp", None)}), (params, x)
