"""Module forms other than plain text: MLIR bytecode, VHLO portable artifacts, XLA-optimized modules."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.mlir.analyze import histogram
from hespas_py.mlir.bindings import ir, make_context
from hespas_py.mlir.ops import Module
from hespas_py.mlir.reader import load_module

DATA = Path(__file__).parent / "data" / "mlir"


def _names(module: Module) -> list[str]:
    return [op.name for op in module.ops]


def test_bytecode_reads_like_its_text(tmp_path: Path) -> None:
    text_path = DATA / "collectives.mlir"
    module = ir.Module.parse(text_path.read_text(), make_context())
    buffer = io.BytesIO()
    module.operation.write_bytecode(buffer)
    bytecode_path = tmp_path / "collectives.mlirbc"
    bytecode_path.write_bytes(buffer.getvalue())
    assert bytecode_path.read_bytes().startswith(b"ML\xefR")
    from_text, from_bytecode = load_module(text_path), load_module(bytecode_path)
    assert from_bytecode.functions == from_text.functions
    assert from_bytecode.mesh == from_text.mesh and from_bytecode.num_partitions == 8



def test_gzip_text_and_bytecode_read_like_plain(tmp_path: Path) -> None:
    import gzip

    text_path = DATA / "collectives.mlir"
    gz = tmp_path / "collectives.mlir.gz"
    gz.write_bytes(gzip.compress(text_path.read_bytes()))
    assert load_module(gz).functions == load_module(text_path).functions
    broken = tmp_path / "broken.mlir.gz"
    broken.write_bytes(gzip.compress(text_path.read_bytes())[:40])
    with pytest.raises(HespasError, match="broken.mlir.gz: corrupt gzip stream"):
        load_module(broken)

@pytest.fixture(scope="module")
def jax_export_artifact(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What ``jax.export`` serializes for a small jitted function, written to a file."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    from jax import export

    def step(x, w):
        return jnp.tanh(x @ w).sum()

    exported = export.export(jax.jit(step))(jnp.ones((4, 8), jnp.float32), jnp.ones((8, 2), jnp.float32))
    path = tmp_path_factory.mktemp("artifact") / "step.vhlo"
    path.write_bytes(exported.mlir_module_serialized)
    return path


def test_portable_artifact_is_deserialized_to_stablehlo(jax_export_artifact: Path) -> None:
    assert jax_export_artifact.read_bytes().startswith(b"ML\xefR")
    module = load_module(jax_export_artifact)
    assert module.entry == "main"
    names = _names(module)
    assert "stablehlo.dot_general" in names and "stablehlo.tanh" in names
    assert not any(name.startswith("vhlo.") for name in names)
    dot = next(op for op in module.ops if op.name == "stablehlo.dot_general")
    assert [t.shape for t in dot.operand_types] == [(4, 8), (8, 2)]
    assert dot.attrs["dot_dimension_numbers"]["lhs_contracting_dimensions"] == (1,)


@pytest.fixture(scope="module")
def xla_optimized(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A module after XLA's CPU optimizations (mhlo.fusion form), via jaxlib's HLO -> MLIR bridge."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    from hespas_py.jaxcompat import hlo_proto_to_mlir_bytecode

    def step(x, w):
        y = jnp.tanh(x @ w) * 2.0 + 1.0
        # 50 trips and a transcendental body: XLA keeps the loop (jaxlib 0.12 folds y * 1.5 x5).
        return jax.lax.fori_loop(0, 50, lambda i, y: jnp.sin(y) * 1.5, y).sum()

    compiled = jax.jit(step).lower(jnp.ones((16, 32)), jnp.ones((32, 8))).compile()
    (hlo_module,) = compiled.runtime_executable().hlo_modules()
    bytecode = hlo_proto_to_mlir_bytecode(hlo_module.as_serialized_hlo_module_proto())
    path = tmp_path_factory.mktemp("xla") / "step.mlirbc"
    path.write_bytes(bytecode)
    return path


def test_xla_optimized_module_with_fusions(xla_optimized: Path) -> None:
    module = load_module(xla_optimized)
    fusions = [op for op in module.ops if op.name == "mhlo.fusion"]
    assert fusions and all(op.attrs["fusion_kind"] in ("kLoop", "kInput", "kOutput", "kCustom") for op in fusions)
    for fusion in fusions:
        (body,) = fusion.regions
        assert body.ops[-1].name == "mhlo.return"
        assert len(body.args) == len(fusion.operands)
    where, loop = next((function.name, op) for function in module.functions.values()
                       for op in function.ops if op.name == "stablehlo.while")
    if where == module.entry:
        assert loop.attrs["trip_count"] == 50
    else:
        # XLA:CPU of jaxlib 0.12 outlines a small loop into a called function
        # (``xla_cpu_small_call``); its start value then arrives as an argument, not read across
        # the call.
        assert where.startswith("while") and "trip_count" not in loop.attrs
    expanded = dict(histogram(module, expand=True).counts)
    assert "mhlo.fusion" not in expanded and expanded["stablehlo.tanh"] == 1


def test_hand_written_xla_module(tmp_path: Path) -> None:
    module = load_module(DATA / "xla_fusion.mlir")
    assert _names(module) == [
        "stablehlo.constant", "mhlo.copy", "mhlo.fusion", "mhlo.bitcast", "mhlo.bitcast",
        "stablehlo.while", "stablehlo.constant", "mhlo.fusion", "func.return",
    ]
    assert [op.attrs.get("fusion_kind") for op in module.ops if op.name == "mhlo.fusion"] == ["kCustom", "kLoop"]
    bitcast = module.ops[3]
    assert bitcast.operand_types[0].shape == (16, 8) and bitcast.result_types[0].shape == (128,)
    # Initial value behind mhlo.copy, compare and step inside fusions.
    assert module.ops[5].attrs == {"trip_count": 3}
