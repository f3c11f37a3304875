"""Write a large synthetic StableHLO module for reader benchmarks (default: 500,000 ops).

The module is one public ``main`` made of repeated transformer-like MLP layers: matmuls,
bias broadcasts, activations, dtype casts, a reduction with its reducer body and an all-reduce
over four replicas. Every op (nested reducer ops included) counts toward ``--ops``.

    python scripts/gen_big_module.py [--ops N] [--out FILE]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

_T = "tensor<64x256xf32>"
_W = "tensor<256x256xf32>"


def _layer(i: int, x: str) -> tuple[list[str], str, int]:
    """Text lines of layer ``i`` reading value ``x``, the value it defines last, and its op count."""
    lines = [
        f"%d{i} = stablehlo.dot_general {x}, %w, contracting_dims = [1] x [0] : ({_T}, {_W}) -> {_T}",
        f"%bb{i} = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<256xf32>) -> {_T}",
        f"%a{i} = stablehlo.add %d{i}, %bb{i} : {_T}",
        f"%t{i} = stablehlo.tanh %a{i} : {_T}",
        f"%c{i} = stablehlo.constant dense<5.000000e-01> : tensor<f32>",
        f"%cb{i} = stablehlo.broadcast_in_dim %c{i}, dims = [] : (tensor<f32>) -> {_T}",
        f"%m{i} = stablehlo.multiply %t{i}, %cb{i} : {_T}",
        f"%h{i} = stablehlo.convert %m{i} : ({_T}) -> tensor<64x256xbf16>",
        f"%f{i} = stablehlo.convert %h{i} : (tensor<64x256xbf16>) -> {_T}",
        f"%z{i} = stablehlo.constant dense<0.000000e+00> : tensor<f32>",
        f"%r{i} = stablehlo.reduce(%f{i} init: %z{i}) applies stablehlo.add across dimensions = [1] "
        f": ({_T}, tensor<f32>) -> tensor<64xf32>",
        f'%g{i} = "stablehlo.all_reduce"(%r{i}) '
        "<{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}> ({",
        "^bb0(%p: tensor<f32>, %q: tensor<f32>):",
        "  %s = stablehlo.add %p, %q : tensor<f32>",
        "  stablehlo.return %s : tensor<f32>",
        "}) : (tensor<64xf32>) -> tensor<64xf32>",
        f"%gb{i} = stablehlo.broadcast_in_dim %g{i}, dims = [0] : (tensor<64xf32>) -> {_T}",
        f"%y{i} = stablehlo.subtract %f{i}, %gb{i} : {_T}",
    ]
    # 18 ops: 14 top-level, and two (add, return) in each of the reduce's and all-reduce's bodies.
    return lines, f"%y{i}", 18


def module_lines(num_ops: int) -> Iterator[str]:
    """The module's text, line by line, with at least ``num_ops`` ops."""
    yield "module @big attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 4 : i32} {"
    yield (f"  func.func public @main(%x: {_T}, %w: {_W}, %bias: tensor<256xf32>) -> {_T} {{")
    value, count, i = "%x", 1, 0  # the final return is one op
    while count < num_ops:
        lines, value, ops = _layer(i, value)
        for line in lines:
            yield f"    {line}"
        count += ops
        i += 1
    yield f"    return {value} : {_T}"
    yield "  }"
    yield "}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=500_000, help="minimum number of ops (default 500000)")
    parser.add_argument("--out", type=Path, default=Path("out/big_module.mlir"), help="file to write")
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w") as out:
        for line in module_lines(args.ops):
            out.write(line + "\n")
    print(args.out)


if __name__ == "__main__":
    main()
