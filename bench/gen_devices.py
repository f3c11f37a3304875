"""Trace-generation speed for many devices: ``hespas gen`` of a 3D-parallel training step.

The module is ``--layers`` transformer-like MLP layers on ``--devices`` partitions: per layer two
matmuls, an activation and a tensor-parallel all-reduce over groups of ``--tp`` devices; after
every ``layers / --stages`` layers a send to the next pipeline stage (a ``collective_permute``
shifting every device by ``devices / stages``); at the end a data-parallel all-reduce over every
device. linear_split cuts it into 2 blocks per layer. Every device has its own trace (its
pipeline peers are its own); ``--stages`` = ``--layers`` gives the worst case, a send and a
receive per layer and device. Each run is a fresh process (imports, reading, splitting,
estimating, writing); prints the best of ``--repeat`` runs' wall time, peak RSS and phases.
Goal (issue 11): 1,024 devices x thousands of blocks stays a matter of seconds.

    python3 bench/gen_devices.py [--devices 1024] [--layers 1000] [--tp 8] [--stages 4]
                                 [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from gen import run_once  # bench/gen.py: one fresh-process run of hespas_chakra_gen

_X = "tensor<64x512xbf16>"
_W = "tensor<512x512xbf16>"


def _dense(rows: list[list[int]]) -> str:
    return (f"dense<{json.dumps(rows).replace(' ', '')}> : "
            f"tensor<{len(rows)}x{len(rows[0])}xi64>")


def module_text(devices: int, layers: int, tp: int, stages: int) -> str:
    """The module's text (see the module docstring)."""
    tp_groups = _dense([list(range(g, g + tp)) for g in range(0, devices, tp)])
    pairs = _dense([[d, (d + devices // stages) % devices] for d in range(devices)])
    every = max(1, layers // stages)
    everyone = _dense([list(range(devices))])
    reducer = ("({\n  ^bb0(%p: tensor<bf16>, %q: tensor<bf16>):\n"
               "    %s = stablehlo.add %p, %q : tensor<bf16>\n"
               "    stablehlo.return %s : tensor<bf16>\n  })")
    lines = [f"module @many attributes {{mhlo.num_partitions = {devices} : i32, "
             "mhlo.num_replicas = 1 : i32} {",
             f"func.func public @main(%x: {_X}, %w: {_W}) -> {_X} {{"]
    value = "%x"
    for i in range(layers):
        lines += [
            f"%a{i} = stablehlo.dot_general {value}, %w, contracting_dims = [1] x [0] : "
            f"({_X}, {_W}) -> {_X}",
            f"%t{i} = stablehlo.tanh %a{i} : {_X}",
            f"%b{i} = stablehlo.dot_general %t{i}, %w, contracting_dims = [1] x [0] : "
            f"({_X}, {_W}) -> {_X}",
            f'%r{i} = "stablehlo.all_reduce"(%b{i}) <{{channel_handle = '
            f"#stablehlo.channel_handle<handle = {2 * i + 1}, type = 1>, replica_groups = "
            f"{tp_groups}, use_global_device_ids}}> {reducer} : ({_X}) -> {_X}",
        ]
        value = f"%r{i}"
        if (i + 1) % every == 0:
            lines.append(f'%p{i} = "stablehlo.collective_permute"({value}) <{{channel_handle = '
                         f"#stablehlo.channel_handle<handle = {2 * i + 2}, type = 1>, "
                         f"source_target_pairs = {pairs}}}> : ({_X}) -> {_X}")
            value = f"%p{i}"
    lines += [f'%dp = "stablehlo.all_reduce"({value}) <{{channel_handle = '
              f"#stablehlo.channel_handle<handle = {2 * layers + 1}, type = 1>, replica_groups = "
              f"{everyone}, use_global_device_ids}}> {reducer} : ({_X}) -> {_X}",
              f"return %dp : {_X}", "}", "}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=1024)
    parser.add_argument("--layers", type=int, default=1000)
    parser.add_argument("--tp", type=int, default=8)
    parser.add_argument("--stages", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hespas-bench-") as tmp:
        path = Path(tmp) / "many.mlir"
        path.write_text(module_text(options.devices, options.layers, options.tp,
                                   options.stages))
        args = ["A100_SXM_40GB", "--mlir_file", str(path), "--output", str(Path(tmp) / "out"),
                "--clean", "--split_fn", "linear_split"]
        runs = [run_once(args) for _ in range(options.repeat)]
    wall, rss, summary = min(runs, key=lambda r: r[0])
    phases = ", ".join(f"{k} {v:.3f}" for k, v in summary["timings_s"].items())
    nodes = sum(summary["nodes_per_device"].values())
    print(f"{options.devices} devices x {options.layers} layers, {options.stages} stages "
          f"({nodes} nodes/device, {summary['trace_files']} distinct traces): wall {wall:.3f} s "
          f"(runs {', '.join(f'{r[0]:.3f}' for r in runs)})  peak RSS {rss:.0f} MB  [{phases}]")


if __name__ == "__main__":
    main()
