"""The jaxlib adapter (`hespas_py.jaxcompat`): every private entry point, on the installed release."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from hespas_py import jaxcompat
from hespas_py.mlir.bindings import ir, make_context

ROOT = Path(__file__).resolve().parents[1]

DOT_MODULE = """
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
"""

HLO_TEXT = """
HloModule add, entry_computation_layout={(f32[3]{0}, f32[3]{0})->f32[3]{0}}

ENTRY main {
  x = f32[3]{0} parameter(0)
  y = f32[3]{0} parameter(1)
  ROOT sum = f32[3]{0} add(x, y)
}
"""


def _release(text: str) -> tuple[int, int]:
    return tuple(int(part) for part in text.split(".")[:2])


def test_installed_jax_is_inside_the_pinned_range():
    import jax

    text = (ROOT / "pyproject.toml").read_text()
    for name, version in (("jax", jax.__version__), ("jaxlib", jaxcompat.JAXLIB_VERSION)):
        low, high = re.search(rf'"{name}>=([\d.]+),<([\d.]+)"', text).groups()
        assert _release(low) <= _release(version) < _release(high), (name, version)
    assert jaxcompat.JAXLIB_RELEASE == _release(jaxcompat.JAXLIB_VERSION)


def test_reading_first_leaves_the_sdy_dialect_whole_for_jax():
    """jaxlib 0.12: importing the bare ``_sdy`` extension first left ``jaxlib.mlir.dialects.sdy``
    without ``TensorShardingPerValueAttr``, and every sharded lowering (``hespas export``) failed."""
    code = ("import hespas_py.mlir.bindings\n"
            "from jaxlib.mlir.dialects import sdy\n"
            "assert hasattr(sdy, 'TensorShardingPerValueAttr'), sorted(dir(sdy))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_reading_imports_no_generated_op_classes_and_leaves_them_to_jax(tmp_path):
    """The reader walks plain op views (`jaxcompat.generic_op_views`): it imports the generated
    op classes of no dialect it reads, and ops met after it come in those classes again."""
    path = tmp_path / "dot.mlir"
    path.write_text(DOT_MODULE)
    code = ("import sys\n"
            "from hespas_py.mlir.reader import load_module\n"
            "from hespas_py.mlir.bindings import ir, make_context\n"
            f"assert load_module({str(path)!r}).ops[0].name == 'stablehlo.dot_general'\n"
            "loaded = [m for m in sys.modules if m.startswith('jaxlib.mlir.dialects.')\n"
            "          and m.rpartition('.')[2] in ('builtin', 'func', 'stablehlo')]\n"
            "assert not loaded, loaded\n"
            f"module = ir.Module.parse(open({str(path)!r}).read(), make_context())\n"
            "op = module.body.operations[0].regions[0].blocks[0].operations[0]\n"
            "assert type(op).__name__ == 'DotGeneralOp', type(op)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


NAMED_COMPUTATION = """
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


def test_ops_of_an_imported_dialect_are_read_by_their_op_name(tmp_path):
    """With its generated classes imported (JAX imports them), an ``sdy.named_computation`` view's
    ``name`` is its ``name`` attribute: the walk reads the op's name from the operation."""
    path = tmp_path / "named.mlir"
    path.write_text(NAMED_COMPUTATION)
    code = ("from jaxlib.mlir.dialects import sdy\n"
            "from hespas_py.mlir.reader import load_module\n"
            f"names = [op.name for op in load_module({str(path)!r}).ops]\n"
            "assert names == ['sdy.named_computation', 'func.return'], names\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_dialect_attributes_the_reader_uses_are_there():
    for module, names in ((jaxcompat.sdy, ("MeshAttr", "MeshAxisAttr")),
                          (jaxcompat.stablehlo, ("ReplicaGroupMeshAxesAttr", "MeshAttr",
                                                 "MeshAxisAttr", "AxisRefAttr",
                                                 "SubAxisInfoAttr"))):
        assert all(hasattr(module, name) for name in names), module


def test_hlo_text_to_stablehlo_bytecode():
    bytecode = jaxcompat.hlo_proto_to_mlir_bytecode(jaxcompat.hlo_text_to_proto(HLO_TEXT))
    with make_context():
        text = str(ir.Module.parse(bytecode))
    assert "stablehlo.add" in text and "tensor<3xf32>" in text


def test_cost_analysis_of_a_stablehlo_module():
    pytest.importorskip("jax")
    computation = jaxcompat.mlir_to_xla_computation(DOT_MODULE)
    cost = jaxcompat.hlo_cost_analysis(jaxcompat.local_client(), computation)
    assert cost["flops"] == 2 * 4 * 8 * 2


def test_compile_and_run_on_one_device():
    jax = pytest.importorskip("jax")
    import numpy as np

    client = jaxcompat.local_client()
    executable = jaxcompat.compile_on_one_device(client, DOT_MODULE)
    a, b = np.ones((4, 8), np.float32), np.full((8, 2), 0.5, np.float32)
    inputs = [jax.device_put(x, client.devices()[0]) for x in (a, b)]
    (out,) = executable.execute(inputs)
    assert np.asarray(out).tolist() == (a @ b).tolist()


def test_compiled_step_hlo_proto_converts():
    jax = pytest.importorskip("jax")

    compiled = jax.jit(lambda x: (x * 2.0).sum()).lower(jax.numpy.ones((8,))).compile()
    bytecode = jaxcompat.hlo_proto_to_mlir_bytecode(jaxcompat.compiled_hlo_proto(compiled))
    with make_context():
        assert "func.func" in str(ir.Module.parse(bytecode))
    assert jaxcompat.backends_initialized()
