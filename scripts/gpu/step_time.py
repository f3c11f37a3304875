"""Time one shipped model's single-device train step on the local GPU under the current XLA_FLAGS
(e.g. with command buffers off: ``XLA_FLAGS=--xla_gpu_enable_command_buffer=``), to see how much
of a step is kernel-launch cost.

    python3 scripts/gpu/step_time.py resnet18|resnet50|llama3_100m|llama3_1b OUT.json
Writes OUT.json: device, date, jax version, XLA_FLAGS, the step's median, min and max seconds.
"""
import dataclasses
import json
import os
import statistics
import sys

import jax
import jax.numpy as jnp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measuring  # noqa: E402,F401  (the repository root on sys.path)

from hespas_py.calibrate.timing import call_times, run_info  # noqa: E402


def build(name):
    if name.startswith("resnet"):
        import resnet
        resnet.DEVICES = 1
        if os.environ.get("SMALL"):
            resnet.IMAGES_PER_DEVICE = 2
        return resnet.train_step(int(name[len("resnet"):]))
    import llama
    llama.DEVICES = 1
    config = llama.CONFIGS[name.split("_")[1]]
    if os.environ.get("SMALL"):
        config = dataclasses.replace(config, seq=128, vocab=1024, layers=2)
    return llama.train_step(config)


def inputs(abstract, seed=0):
    """Buffers of the step's input shapes: small normal floats; integer ids spread over [0, 1000)
    (all-equal ids would serialize the embedding-gradient scatter)."""
    leaves, tree = jax.tree.flatten(abstract)
    out = []
    for i, leaf in enumerate(leaves):
        key = jax.random.fold_in(jax.random.key(seed), i)
        if jnp.issubdtype(leaf.dtype, jnp.floating):
            value = (jnp.ones(leaf.shape, leaf.dtype) if leaf.shape == () else
                     (jax.random.normal(key, leaf.shape) * 0.02).astype(leaf.dtype))
        else:
            value = jax.random.randint(key, leaf.shape, 0, 1000, leaf.dtype)
        sharding = getattr(leaf, "sharding", None)
        out.append(jax.device_put(value, sharding) if sharding is not None else value)
    return jax.tree.unflatten(tree, out)


def main(name, path, iters=10):
    step, abstract = build(name)
    args = inputs(abstract)
    compiled = step.lower(*args).compile()
    times = call_times(compiled, *args, iters=iters)
    result = {"case": name, **run_info(), "median_s": statistics.median(times),
              "min_s": min(times), "max_s": max(times), "iters": iters}
    print(json.dumps(result), flush=True)
    with open(path, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
