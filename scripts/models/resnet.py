"""ResNet-18/34/50/101/200 training steps in the measured setup, data parallel.

Follows the JAX/Flax ImageNet example that produced shared/workloads/resnet50_train_4dev_pmap.mlir:
NHWC, f32 parameters cast to f16 for every convolution and the classifier, synchronised
BatchNorm over the global batch (momentum 0.9, eps 1e-5) whose running statistics the step updates,
softmax cross-entropy plus 1e-4 L2 weight decay, dynamic loss scaling (a non-finite gradient keeps the
old state), SGD with Nesterov momentum 0.9 and a cosine learning-rate schedule, and loss/accuracy
metrics. 4 devices, 256 images of 224x224x3 per device. Like ``pmap``, the step is the per-device
program (``jax.shard_map``): parameters replicated, the batch split, the BatchNorm moments averaged
across devices, and autodiff sums every parameter gradient across devices.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import jax
import jax.numpy as jnp
from common import abstract, count, mesh
from jax.sharding import PartitionSpec as P

DEVICES = 4
IMAGES_PER_DEVICE = 256
IMAGE = (224, 224, 3)
CLASSES = 1000
ACTIVATIONS = jnp.float16
AXIS = "batch"  # the mesh axis the batch is split over
# (block kind, blocks per stage) of each depth, as in the Flax ImageNet example.
DEPTHS = {
    18: ("basic", (2, 2, 2, 2)),
    34: ("basic", (3, 4, 6, 3)),
    50: ("bottleneck", (3, 4, 6, 3)),
    101: ("bottleneck", (3, 4, 23, 3)),
    200: ("bottleneck", (3, 24, 36, 3)),
}
STAGE_FILTERS = (64, 128, 256, 512)
BN_MOMENTUM, BN_EPS = 0.9, 1e-5
WEIGHT_DECAY, MOMENTUM, BASE_LR, TOTAL_STEPS = 1e-4, 0.9, 0.1, 112_590


def _bn(channels: int) -> dict[str, tuple[int, ...]]:
    return {"scale": (channels,), "bias": (channels,)}


def _block_shapes(kind: str, cin: int, filters: int, strides: int) -> tuple[dict[str, Any], int]:
    """Parameter shapes of one residual block and its output channels."""
    if kind == "basic":
        convs = [(3, 3, cin, filters), (3, 3, filters, filters)]
        cout = filters
    else:
        convs = [(1, 1, cin, filters), (3, 3, filters, filters), (1, 1, filters, 4 * filters)]
        cout = 4 * filters
    block = {f"conv{i}": shape for i, shape in enumerate(convs)}
    block |= {f"bn{i}": _bn(shape[-1]) for i, shape in enumerate(convs)}
    if cin != cout or strides != 1:
        block |= {"conv_proj": (1, 1, cin, cout), "bn_proj": _bn(cout)}
    return block, cout


def architecture(depth: int) -> list[tuple[int, int]]:
    """``(filters, strides)`` of every residual block, in order."""
    _, stages = DEPTHS[depth]
    return [
        (filters, 2 if i > 0 and j == 0 else 1)
        for i, (blocks, filters) in enumerate(zip(stages, STAGE_FILTERS, strict=True))
        for j in range(blocks)
    ]


def param_shapes(depth: int) -> dict[str, Any]:
    """Trainable parameter shapes of a ResNet of ``depth`` layers."""
    kind, _ = DEPTHS[depth]
    params: dict[str, Any] = {"conv_init": (7, 7, 3, 64), "bn_init": _bn(64)}
    cin = 64
    for i, (filters, strides) in enumerate(architecture(depth)):
        params[f"block{i}"], cin = _block_shapes(kind, cin, filters, strides)
    params["dense"] = {"kernel": (cin, CLASSES), "bias": (CLASSES,)}
    return params


def stats_shapes(params: dict[str, Any]) -> dict[str, Any]:
    """Running mean/var shapes of every BatchNorm in ``params``."""
    def walk(tree: dict[str, Any]) -> dict[str, Any]:
        out = {}
        for name, sub in tree.items():
            if name.startswith("bn"):
                out[name] = {"mean": sub["scale"], "var": sub["scale"]}
            elif isinstance(sub, dict) and name != "dense":
                out[name] = walk(sub)
        return out

    return walk(params)


def conv(x: jax.Array, kernel: jax.Array, strides: int, padding: Any = "SAME") -> jax.Array:
    return jax.lax.conv_general_dilated(
        x, kernel.astype(ACTIVATIONS), (strides, strides), padding, dimension_numbers=("NHWC", "HWIO", "NHWC")
    )


def batch_norm(x: jax.Array, p: dict[str, jax.Array], stats: dict[str, jax.Array]) -> tuple[jax.Array, dict]:
    """Training-mode BatchNorm over the global batch; returns the output and new running stats."""
    x32 = x.astype(jnp.float32)
    moments = jnp.stack([jnp.mean(x32, axis=(0, 1, 2)), jnp.mean(x32 * x32, axis=(0, 1, 2))])
    mean, mean_sq = jax.lax.pmean(moments, AXIS)
    var = mean_sq - mean * mean
    y = (x32 - mean) * jax.lax.rsqrt(var + BN_EPS) * p["scale"] + p["bias"]
    new_stats = {
        "mean": BN_MOMENTUM * stats["mean"] + (1 - BN_MOMENTUM) * mean,
        "var": BN_MOMENTUM * stats["var"] + (1 - BN_MOMENTUM) * var,
    }
    return y.astype(ACTIVATIONS), new_stats


def block(x: jax.Array, p: dict, stats: dict, strides: int, kind: str) -> tuple[jax.Array, dict]:
    """One residual block (basic or bottleneck, stride on the 3x3 convolution)."""
    new_stats = {}
    n, strided = (2, 0) if kind == "basic" else (3, 1)  # convs, and which one carries the stride
    y = x
    for i in range(n):
        stride = strides if i == strided else 1
        y, new_stats[f"bn{i}"] = batch_norm(conv(y, p[f"conv{i}"], stride), p[f"bn{i}"], stats[f"bn{i}"])
        if i < n - 1:
            y = jax.nn.relu(y)
    if "conv_proj" in p:
        x, new_stats["bn_proj"] = batch_norm(conv(x, p["conv_proj"], strides), p["bn_proj"], stats["bn_proj"])
    return jax.nn.relu(x + y), new_stats


def forward(depth: int, params: dict, stats: dict, images: jax.Array) -> tuple[jax.Array, dict]:
    """Logits (f16) and updated BatchNorm statistics."""
    kind, _ = DEPTHS[depth]
    x = conv(images.astype(ACTIVATIONS), params["conv_init"], 2, [(3, 3), (3, 3)])
    x, new_stats = batch_norm(x, params["bn_init"], stats["bn_init"])
    new_stats = {"bn_init": new_stats}
    x = jax.lax.reduce_window(jax.nn.relu(x), -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
    for i, (_, strides) in enumerate(architecture(depth)):
        x, new_stats[f"block{i}"] = block(x, params[f"block{i}"], stats[f"block{i}"], strides, kind)
    x = jnp.mean(x, axis=(1, 2))
    logits = x @ params["dense"]["kernel"].astype(ACTIVATIONS) + params["dense"]["bias"].astype(ACTIVATIONS)
    return logits, new_stats


def train_step(depth: int) -> tuple[Any, tuple[Any, ...]]:
    """The factory of one depth: ``(jitted step, (params, momentum, stats, step, loss scale, images, labels))``."""
    device_mesh = mesh((DEVICES,), (AXIS,))
    shapes = param_shapes(depth)

    def loss_fn(params: dict, stats: dict, images: jax.Array, labels: jax.Array, scale: jax.Array) -> Any:
        logits, new_stats = forward(depth, params, stats, images)
        log_probs = jax.nn.log_softmax(logits.astype(jnp.float32))
        xent = -jnp.mean(jnp.sum(jax.nn.one_hot(labels, CLASSES) * log_probs, axis=-1))
        l2 = sum(jnp.sum(w * w) for w in jax.tree.leaves(params) if w.ndim > 1)
        loss = jax.lax.pmean(xent, AXIS) + WEIGHT_DECAY * 0.5 * l2
        return loss * scale, (loss, new_stats, logits)

    def step(params, momentum, stats, count, scale, images, labels):  # noqa: ANN001, ANN202
        grads, (loss, new_stats, logits) = jax.grad(loss_fn, has_aux=True)(params, stats, images, labels, scale)
        grads = jax.tree.map(lambda g: g / scale, grads)
        finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(g)) for g in jax.tree.leaves(grads)]))
        lr = 0.5 * BASE_LR * (1 + jnp.cos(math.pi * jnp.clip(count, 0, TOTAL_STEPS) / TOTAL_STEPS))
        new_momentum = jax.tree.map(lambda m, g: MOMENTUM * m + g, momentum, grads)
        new_params = jax.tree.map(lambda p, m, g: p - lr * (g + MOMENTUM * m), params, new_momentum, grads)
        keep = lambda new, old: jax.tree.map(lambda a, b: jnp.where(finite, a, b), new, old)  # noqa: E731
        new_scale = jnp.where(finite, scale, scale / 2)
        metrics = {
            "loss": loss,
            "accuracy": jax.lax.pmean(jnp.mean(jnp.argmax(logits, -1) == labels), AXIS),
            "learning_rate": lr,
        }
        return (keep(new_params, params), keep(new_momentum, momentum), keep(new_stats, stats),
                count + 1, new_scale, metrics)

    sharded = jax.shard_map(
        step, mesh=device_mesh, in_specs=(P(), P(), P(), P(), P(), P(AXIS), P(AXIS)), out_specs=P()
    )
    params = abstract(shapes, jnp.float32, device_mesh, _replicated_specs(shapes))
    stats = abstract(stats_shapes(shapes), jnp.float32, device_mesh, _replicated_specs(stats_shapes(shapes)))
    batch = DEVICES * IMAGES_PER_DEVICE
    images = abstract((batch, *IMAGE), jnp.float32, device_mesh, P(AXIS))
    labels = abstract((batch,), jnp.int32, device_mesh, P(AXIS))
    count_arg = abstract((), jnp.int32, device_mesh, P())
    scale = abstract((), jnp.float32, device_mesh, P())
    return jax.jit(sharded), (params, params, stats, count_arg, scale, images, labels)


def _replicated_specs(shapes: Any) -> Any:
    return jax.tree.map(lambda _: P(), shapes, is_leaf=lambda x: isinstance(x, tuple))


def param_count(depth: int) -> int:
    """Number of trainable parameters."""
    return count(param_shapes(depth))


# One factory per depth, named for `hespas export FILE.py:FACTORY`: resnet18_step ... resnet200_step.
for _depth in DEPTHS:
    globals()[f"resnet{_depth}_step"] = functools.partial(train_step, _depth)
