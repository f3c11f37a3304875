"""Microbenchmark of the convolution class on a GPU: each distinct convolution of the ResNet-18
step (f16, NHWC/HWIO, batch 256), forward, backward-input and backward-filter, compiled alone;
the GPU time of its kernels from a profile of 5 calls (so no host time is counted).

    python3 scripts/gpu/conv_shapes.py OUT.json      (one GPU; SMALL=1: batch 2, for a CPU test)
Writes OUT.json: device, date, jax version, and per shape and pass the FLOPs, kernels and GPU us.
"""
import json
import os
import sys

import jax

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measuring import kernel_durations  # noqa: E402
from hespas_py.calibrate.convolutions import conv_figures, passes  # noqa: E402
from hespas_py.calibrate.timing import run_info  # noqa: E402

BATCH = 2 if os.environ.get("SMALL") else 256
#: (input side, in channels, out channels, kernel side, stride) of ResNet-18's convolutions.
SHAPES = [(224, 3, 64, 7, 2), (56, 64, 64, 3, 1), (56, 64, 128, 3, 2), (28, 128, 128, 3, 1),
          (56, 64, 128, 1, 2), (28, 128, 256, 3, 2), (14, 256, 256, 3, 1), (28, 128, 256, 1, 2),
          (14, 256, 512, 3, 2), (7, 512, 512, 3, 1), (14, 256, 512, 1, 2)]


def main(path):
    result = {**run_info(), "batch": BATCH, "shapes": []}
    for shape in SHAPES:
        flops, kinds = conv_figures(BATCH, *shape)["flops"], passes(BATCH, *shape)
        row = {"shape": dict(zip(("side", "cin", "cout", "k", "stride"), shape)), "flops": flops}
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
