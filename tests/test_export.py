"""`hespas export`: collectives of exported steps against hand-derived ones, error handling, forms.

Every export runs in its own process (the device count is fixed once per process), through the
real CLI, so the rest of the suite's JAX state does not matter.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from hespas_py.errors import HespasError
from hespas_py.export import export_in_subprocess

MODELS = Path(__file__).resolve().parents[1] / "scripts" / "models"
F32 = 4
ALL4 = ((0, 1, 2, 3),)
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "collective_permute")


def collectives(text: str) -> Counter:
    """``(kind, replica groups, operand bytes, result bytes)`` of every collective, as a multiset."""
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir

    found: Counter = Counter()
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)

        def nbytes(value: ir.Value) -> int:
            shaped = ir.RankedTensorType(value.type)
            return int(np.prod(shaped.shape, dtype=np.int64)) * shaped.element_type.width // 8

        def visit(op: ir.Operation) -> ir.WalkResult:
            kind = op.name.removeprefix("stablehlo.")
            if kind in COLLECTIVES:
                groups = op.attributes["replica_groups"] if "replica_groups" in op.attributes else None
                groups = tuple(map(tuple, np.array(ir.DenseIntElementsAttr(groups)).tolist())) if groups else None
                found[(kind, groups, nbytes(op.operands[0]), nbytes(op.results[0]))] += 1
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return found


@pytest.fixture(scope="module")
def mlp_exports() -> dict[str, str]:
    return {p: export_in_subprocess(f"{MODELS / 'mlp.py'}:{p}_step", 4) for p in ("dp", "fsdp", "tp")}


def test_mlp_dp_collectives_are_one_all_reduce_per_gradient_and_the_loss(mlp_exports: dict[str, str]) -> None:
    # w1 256x1024, b1 1024, w2 1024x256, b2 256 gradients summed over all 4 devices, plus the loss.
    sizes = [256 * 1024 * F32, 1024 * F32, 1024 * 256 * F32, 256 * F32, F32]
    assert collectives(mlp_exports["dp"]) == Counter(("all_reduce", ALL4, b, b) for b in sizes)


def test_mlp_fsdp_gathers_weights_and_reduce_scatters_gradients(mlp_exports: dict[str, str]) -> None:
    full = [256 * 1024 * F32, 1024 * F32, 1024 * 256 * F32, 256 * F32]
    expected = Counter()
    for b in full:
        expected[("all_gather", ALL4, b // 4, b)] += 1
        expected[("reduce_scatter", ALL4, b, b // 4)] += 1
    expected[("all_reduce", ALL4, F32, F32)] += 1  # the loss
    assert collectives(mlp_exports["fsdp"]) == expected


def test_mlp_tp_has_only_the_megatron_forward_all_reduce(mlp_exports: dict[str, str]) -> None:
    # Row-split W2 leaves partial sums of out[64, 256]; nothing else crosses devices.
    assert collectives(mlp_exports["tp"]) == Counter({("all_reduce", ALL4, 64 * 256 * F32, 64 * 256 * F32): 1})


def test_exported_module_is_per_device_and_records_its_device_count(mlp_exports: dict[str, str]) -> None:
    text = mlp_exports["dp"]
    assert "mhlo.num_partitions = 4 : i32" in text
    assert "tensor<16x256xf32>" in text  # 64 rows split over 4 devices
    assert "mhlo.copy" not in text


MESH_2X4 = Counter(
    {
        ("all_reduce", ((0, 1, 2, 3), (4, 5, 6, 7)), 32 * 512 * F32, 32 * 512 * F32): 1,  # TP activations
        ("all_reduce", ((0, 4), (1, 5), (2, 6), (3, 7)), 512 * 512 * F32, 512 * 512 * F32): 2,  # gradients
        ("all_reduce", ((0, 4), (1, 5), (2, 6), (3, 7)), F32, F32): 1,  # loss
    }
)


@pytest.mark.parametrize("partitioner", ["shardy", "gspmd"])
def test_2x4_mesh_uses_split_replica_groups_with_either_partitioner(tmp_path: Path, partitioner: str) -> None:
    factory = tmp_path / "steps.py"
    factory.write_text(textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(MODELS)!r})
        import jax
        from parallel import mesh2x4_step

        def step():
            jax.config.update("jax_use_shardy_partitioner", {partitioner == "shardy"})
            return mesh2x4_step()
    """))
    assert collectives(export_in_subprocess(f"{factory}:step", 8)) == MESH_2X4


def test_optimized_export_is_fused_and_parses() -> None:
    text = export_in_subprocess(f"{MODELS / 'mlp.py'}:tp_step", 4, optimized=True)
    assert '"mhlo.fusion"' in text
    assert collectives(text) == Counter({("all_reduce", ALL4, 64 * 256 * F32, 64 * 256 * F32): 1})


def _run_cli(*args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "from hespas_py.cli.main import main; main()", "export", *args]
    return subprocess.run(command, capture_output=True, text=True)


BAD_FACTORIES = {
    "raises": ("def step():\n    raise RuntimeError('no model today')\n", "the factory raised RuntimeError: no model today"),
    "returns_none": ("def step():\n    return None\n", "must return (jitted_fn, args)"),
    "not_jitted": ("def step():\n    return (print, ())\n", "must be a jax.jit-wrapped function"),
    "too_many_devices": (
        "import jax\ndef step():\n    jax.make_mesh((8,), ('d',))\n",
        "Number of devices 4 must be >= the product of mesh_shape (8,)",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_FACTORIES))
def test_bad_factory_is_one_line_and_exit_2(tmp_path: Path, case: str) -> None:
    source, message = BAD_FACTORIES[case]
    (tmp_path / "f.py").write_text(source)
    out = tmp_path / "out.mlir"
    done = _run_cli(f"{tmp_path / 'f.py'}:step", "--devices", "4", "--out", str(out))
    assert done.returncode == 2
    error_lines = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert len(error_lines) == 1 and message in error_lines[0]
    assert "Traceback" not in done.stderr
    assert not out.exists()


def test_step_on_fewer_devices_than_asked_is_refused() -> None:
    with pytest.raises(HespasError, match="runs on 4 devices but 8 were asked for"):
        export_in_subprocess(f"{MODELS / 'mlp.py'}:tp_step", 8)


def test_missing_file_and_bad_spec(tmp_path: Path) -> None:
    done = _run_cli(f"{tmp_path / 'nope.py'}:step", "--devices", "4", "--out", str(tmp_path / "o.mlir"))
    assert done.returncode == 2 and "no such file" in done.stderr
    done = _run_cli("just_a_name", "--devices", "4", "--out", str(tmp_path / "o.mlir"))
    assert done.returncode == 2 and "expected FILE.py:FACTORY" in done.stderr
    (tmp_path / "notes.txt").write_text("x = 1\n")
    done = _run_cli(f"{tmp_path / 'notes.txt'}:step", "--devices", "4",
                    "--out", str(tmp_path / "o.mlir"))
    assert done.returncode == 2 and "notes.txt: not a Python file" in done.stderr
    assert "Traceback" not in done.stderr


def test_only_the_optimized_export_needs_a_fresh_jax() -> None:
    # The post-SPMD form compiles in a child process, so this process's JAX state does not matter;
    # the optimized form compiles here and refuses a backend set up with another device count.
    code = textwrap.dedent(f"""
        import jax
        jax.devices()
        from hespas_py.errors import HespasError
        from hespas_py.export import export_file
        print("mhlo.num_partitions = 4" in export_file({str(MODELS / 'mlp.py') + ':dp_step'!r}, 4))
        try:
            export_file({str(MODELS / 'mlp.py') + ':dp_step'!r}, 4, optimized=True)
        except HespasError as exc:
            print(exc)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.splitlines()[0] == "True"
    assert "already initialised in this process with 1 cpu devices" in done.stdout
