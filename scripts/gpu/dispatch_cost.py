"""Microbenchmark of the fixed cost of one call of a compiled step, per buffer: a jitted program
of K small inputs and K outputs (``x + 1`` each), called as the measured steps are
(``jax.block_until_ready(compiled(*args))``), for several K. The slope of the call time over
K + K buffers is the host's dispatch cost per buffer; the GPU's own kernel time per call, from one
profiled run, is given beside it so that it can be told apart.

    [ELEMENTS=N] python3 scripts/gpu/dispatch_cost.py OUT.json   (one GPU; a CPU runs it too, as a test)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measuring import kernel_durations  # noqa: E402

from hespas_py.calibrate.launch import dispatch_program  # noqa: E402
from hespas_py.calibrate.timing import median_call, run_info  # noqa: E402

COUNTS = (1, 32, 128, 512)
#: Elements (f32) per buffer; ``ELEMENTS=N`` in the environment sizes the buffers.
ELEMENTS = int(os.environ.get("ELEMENTS", 256))


def main(path):
    result = {**run_info(), "elements": ELEMENTS, "cases": []}
    for k in COUNTS:
        compiled, args = dispatch_program(k, ELEMENTS)
        case = {"inputs": k, "outputs": k, "call_s": median_call(compiled, *args)}
        try:
            case["kernels"] = kernel_durations(compiled, *args)
        except Exception as exc:  # noqa: BLE001
            case["kernels_error"] = repr(exc)[:200]
        result["cases"].append(case)
        print(json.dumps(case), flush=True)
    first, last = result["cases"][0], result["cases"][-1]
    result["per_buffer_s"] = (last["call_s"] - first["call_s"]) / (
        last["inputs"] + last["outputs"] - first["inputs"] - first["outputs"])
    print("per buffer", result["per_buffer_s"], flush=True)
    with open(path, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "dispatch_cost.json")
