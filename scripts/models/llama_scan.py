"""The LLaMA-3 FSDP training step of `llama`, written the MaxText way: layers scanned.

MaxText's default (``scan_layers=True``), like Flax's ``nn.scan`` and Praxis' repeated layers,
stacks every decoder layer's parameters along a leading layer axis and runs the layers with one
``jax.lax.scan`` over that axis, each layer rematerialised (``jax.checkpoint``) inside the scan
body. The exported step then holds one ``stablehlo.while`` for the forward pass and one for the
backward pass, with every per-layer FSDP all-gather and gradient reduce-scatter inside a loop
body.

Everything else is `llama`'s: the same `Config` and sizes, the same decoder layer, remat policy,
loss and AdamW update, and every parameter split on its first per-layer dimension across the
devices. A scan export and the unrolled `llama` export of one config therefore compute the same
step, so traces generated from the two can be compared figure by figure (``tests/test_loops_scan``):
the same collectives; the scan's compute is a few percent more, for the per-layer copies a scan
adds (each layer's weights and saved activations sliced out of the stacks, its saved activations
and gradients written into them).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import jax
import jax.numpy as jnp
import llama
from common import count
from jax.sharding import PartitionSpec as P
from llama import CONFIGS, SAVED, Config

#: A small config for tests: three layers of the 100m model and a smaller vocabulary. Its module is
#: small (few layers) while its kernels do real work: at small widths a step is made of kernel
#: launches, and the scan's per-layer slicing and stacking copies (see the module docstring)
#: would weigh far more than they do in any real model.
SMALL = dataclasses.replace(CONFIGS["100m"], vocab=32000, layers=3)


def param_shapes(c: Config) -> dict[str, Any]:
    """Parameter shapes of the whole model, decoder layers stacked along a leading layer axis."""
    return {
        "embedding": (c.vocab, c.embed),
        "layers": {name: (c.layers, *shape) for name, shape in llama.layer_shapes(c).items()},
        "final_norm": (c.embed,),
        "unembedding": (c.embed, c.vocab),
    }


def param_count(c: Config) -> int:
    """Number of parameters of the model (`llama.param_count` of the same config)."""
    return count(param_shapes(c))


def loss(c: Config, shards: dict[str, Any], tokens: jax.Array, targets: jax.Array,
         gather: llama.Gather = llama.gather) -> jax.Array:
    """`llama.loss`, with the decoder layers run by one scan over their stacked shards."""
    layer = jax.checkpoint(
        lambda x, s: llama.decoder_layer(c, x, s, gather), policy=jax.checkpoint_policies.save_only_these_names(*SAVED)
    )
    x = jnp.take(gather(shards["embedding"]), tokens, axis=0)
    x, _ = jax.lax.scan(lambda x, s: (layer(x, s), None), x, shards["layers"])
    x = llama.rms_norm(x, gather(shards["final_norm"]), c.norm_eps)
    logits = (x @ gather(shards["unembedding"])).astype(jnp.float32)
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(log_probs, targets[..., None], axis=-1)
    return jax.lax.pmean(-jnp.mean(picked), "d")


def train_step(c: Config, fsdp: bool = True) -> tuple[Any, tuple[Any, ...]]:
    """`llama.train_step` with the layers scanned: each layer's parameter is split on its own first
    dimension (the layer axis stays whole), or, without ``fsdp``, whole on every device."""
    shapes = param_shapes(c)
    split = P("d") if fsdp else P()
    specs = {"embedding": split, "layers": {name: P(None, "d") if fsdp else P() for name in shapes["layers"]},
             "final_norm": split, "unembedding": split}
    return llama.shard_step(c, shapes, specs,
                            functools.partial(loss, c, gather=llama.gather if fsdp else llama.replicated), fsdp)


# One factory per size, named for `hespas export FILE.py:FACTORY`: llama3_100m_scan_step ... .
for _size, _config in CONFIGS.items():
    globals()[f"llama3_{_size}_scan_step"] = functools.partial(train_step, _config)
#: The small test config, scanned and unrolled (`llama.train_step` of the same config), FSDP and
#: data parallel (no collective inside the loops: they stay one node).
llama3_small_scan_step = functools.partial(train_step, SMALL)
llama3_small_step = functools.partial(llama.train_step, SMALL)
llama3_small_dp_scan_step = functools.partial(train_step, SMALL, fsdp=False)
llama3_small_dp_step = functools.partial(llama.train_step, SMALL, fsdp=False)
