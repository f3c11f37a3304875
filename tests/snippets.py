"""StableHLO snippets shared by tests: a one-function module, a dot, a max-pool gradient."""

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


def select_and_scatter(result: str, operand: str, source: str, init: str, operand_type: str,
                       source_type: str, window: int = 2, padding: str = "") -> str:
    """The gradient of a ``window`` x ``window``, stride-2 max pooling of ``operand`` (f16, NHWC),
    scattering ``source`` into ``init``; ``padding``: the op's padding attribute, if any."""
    pad = f", padding = {padding}" if padding else ""
    return f"""    {result} = "stablehlo.select_and_scatter"({operand}, {source}, {init}) <{{window_dimensions = array<i64: 1, {window}, {window}, 1>, window_strides = array<i64: 1, 2, 2, 1>{pad}}}> ({{
    ^bb0(%u: tensor<f16>, %v: tensor<f16>):
      %c = stablehlo.compare GE, %u, %v : (tensor<f16>, tensor<f16>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }}, {{
    ^bb0(%u: tensor<f16>, %v: tensor<f16>):
      %t = stablehlo.add %u, %v : tensor<f16>
      stablehlo.return %t : tensor<f16>
    }}) : ({operand_type}, {source_type}, tensor<f16>) -> {operand_type}"""
