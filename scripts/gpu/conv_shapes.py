"""Microbenchmark of the convolution class on a GPU: each distinct convolution of a CNN step
(NHWC/HWIO), forward, backward-input and backward-filter, compiled alone; the GPU time of its
kernels from a profile of 5 calls (so no host time is counted).

    [MODEL=resnet18|cifar_resnet20|mobilenetv2] python3 scripts/gpu/conv_shapes.py OUT.json
                                       (one GPU; SMALL=1: batch 2, for a CPU test)
``MODEL`` picks the shapes (`MODELS`): ResNet-18's (f16, batch 256; the default, measured on an
H100 as ``workloads/gpu_h100/microbench/conv_shapes.json``), CIFAR ResNet-20's (bf16, batch 512:
16 to 64 channels, which the H100 table does not cover) or MobileNetV2's (bf16, batch 128: its
depthwise convolutions, ``feature_group_count`` = channels, and its 1x1 projections), the
programs of ``workloads/gpu_h200``. Writes OUT.json: device, date, jax version, the model, and
per shape and pass the FLOPs, kernels and GPU us.
"""
import json
import os
import sys

import jax
import jax.numpy as jnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measuring import kernel_durations  # noqa: E402

from hespas_py.calibrate.convolutions import conv_figures, passes  # noqa: E402
from hespas_py.calibrate.timing import run_info  # noqa: E402

_DEPTHWISE = [(112, 32, 1), (112, 96, 2), (56, 144, 1), (56, 144, 2), (28, 192, 1),
              (28, 192, 2), (14, 384, 1), (14, 576, 1), (14, 576, 2), (7, 960, 1)]
_POINTWISE = [(112, 32, 16), (112, 16, 96), (56, 96, 24), (56, 24, 144), (56, 144, 24),
              (28, 144, 32), (28, 32, 192), (28, 192, 32), (14, 192, 64), (14, 64, 384),
              (14, 384, 64), (14, 384, 96), (14, 96, 576), (14, 576, 96), (7, 576, 160),
              (7, 160, 960), (7, 960, 160), (7, 960, 320), (7, 320, 1280)]
#: Per model: (element type, batch, [(input side, in channels, out channels, kernel side,
#: stride, feature groups)]).
MODELS = {
    "resnet18": (jnp.float16, 256, [
        (224, 3, 64, 7, 2, 1), (56, 64, 64, 3, 1, 1), (56, 64, 128, 3, 2, 1),
        (28, 128, 128, 3, 1, 1), (56, 64, 128, 1, 2, 1), (28, 128, 256, 3, 2, 1),
        (14, 256, 256, 3, 1, 1), (28, 128, 256, 1, 2, 1), (14, 256, 512, 3, 2, 1),
        (7, 512, 512, 3, 1, 1), (14, 256, 512, 1, 2, 1)]),
    "cifar_resnet20": (jnp.bfloat16, 512, [
        (32, 3, 16, 3, 1, 1), (32, 16, 16, 3, 1, 1), (32, 16, 32, 3, 2, 1), (16, 32, 32, 3, 1, 1),
        (32, 16, 32, 1, 2, 1), (16, 32, 64, 3, 2, 1), (8, 64, 64, 3, 1, 1), (16, 32, 64, 1, 2, 1)]),
    "mobilenetv2": (jnp.bfloat16, 128, [(224, 3, 32, 3, 2, 1)]
                    + [(side, c, c, 3, stride, c) for side, c, stride in _DEPTHWISE]
                    + [(side, cin, cout, 1, 1, 1) for side, cin, cout in _POINTWISE]),
}
DTYPE, BATCH, SHAPES = MODELS[os.environ.get("MODEL", "resnet18")]
if os.environ.get("SMALL"):
    BATCH = 2


def main(path):
    result = {**run_info(), "model": os.environ.get("MODEL", "resnet18"),
              "dtype": str(jnp.dtype(DTYPE)), "batch": BATCH, "shapes": []}
    for shape in SHAPES:
        figures = conv_figures(BATCH, *shape)
        kinds = passes(BATCH, *shape, dtype=DTYPE)
        row = {"shape": dict(zip(("side", "cin", "cout", "k", "stride", "groups"), shape,
                                 strict=True)),
               "flops": figures["flops"]}
        for name, (fn, args) in kinds.items():
            compiled = jax.jit(fn).lower(*args).compile()
            for _ in range(2):
                jax.block_until_ready(compiled(*args))
            try:
                lines = kernel_durations(compiled, *args) or {}
                row[name] = {"us": sum(v["us_per_step"] for v in lines.values()),
                             "kernels": sum(v["events_per_step"] for v in lines.values())}
            except Exception as exc:  # noqa: BLE001
                row[name] = {"error": repr(exc)[:200]}
        result["shapes"].append(row)
        print(json.dumps(row), flush=True)
        with open(path, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "conv_shapes.json")
