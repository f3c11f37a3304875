"""Shared by the memory tests: small one-function modules."""

from __future__ import annotations

from hespas_py.mlir.reader import load_module

MB = 1 << 20
T = "tensor<512x512xf32>"  # 1 MiB


def small_module(tmp_path, body: str, args: str = f"%a: {T}, %b: {T}",
                 results: str = T, attrs: str = "") -> object:
    """The module of one public ``main(args) -> results`` whose body is ``body``, written to
    ``tmp_path`` and read."""
    path = tmp_path / "m.mlir"
    path.write_text(f"module @m {attrs} {{\n  func.func public @main({args}) -> ({results}) {{\n"
                    f"{body}\n  }}\n}}\n")
    return load_module(path)


def dot(out: str, lhs: str, rhs: str) -> str:
    """A line ``out = lhs x rhs`` of two `T` matrices."""
    return (f"    {out} = stablehlo.dot_general {lhs}, {rhs}, contracting_dims = [1] x [0] : "
            f"({T}, {T}) -> {T}")
