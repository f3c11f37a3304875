"""Turn a jitted, sharded JAX step into the StableHLO of its per-device program, on the CPU.

A *factory* is a function of no arguments that returns ``(jitted_fn, args)``: ``args`` is a tuple
of pytrees whose leaves are ``jax.ShapeDtypeStruct``s (with shardings) or arrays. The exporter
lowers ``jitted_fn(*args)``, compiles it for ``num_devices`` forced host CPU devices and takes the
module XLA holds right after its SPMD partitioner: per-device shapes and explicit collectives.
Nothing is allocated for the arguments; no accelerator is touched.

The device count is fixed when JAX initialises its backends, once per process. `export_step`
configures it (``jax_num_cpu_devices``, CPU platform only) when JAX has not initialised yet, and
raises `HespasError` when it already did with another device count — call it first thing in a
fresh process, or use `export_in_subprocess`, which always does.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from hespas_py.errors import HespasError
from hespas_py.export.stablehlo import hlo_proto_to_stablehlo, hlo_text_to_stablehlo

Factory = Callable[[], tuple[Any, tuple[Any, ...]]]

# XLA writes the module after each pass named here into its dump folder.
_SPMD_PASS = "spmd-partitioning"
# Options for a compile whose only product is the post-SPMD dump: skip LLVM's expensive work.
_FAST_BACKEND = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}


def export_step(factory: Factory, num_devices: int, optimized: bool = False, *, name: str = "factory") -> str:
    """StableHLO text of the per-device program of the step ``factory()`` returns.

    ``optimized=False`` gives the module right after SPMD partitioning; ``optimized=True`` the
    module after all of XLA's CPU optimization passes (``mhlo.fusion`` form). ``name`` labels
    error messages (the CLI passes ``FILE.py:FACTORY``).
    """
    _use_cpu_devices(num_devices, name)
    jitted, args = _call_factory(factory, name)
    import jax

    try:
        lowered = jitted.lower(*args)
    except Exception as exc:  # noqa: BLE001 - any failure of user code is bad input
        raise HespasError(f"{name}: lowering the step failed: {_one_line(exc)}") from None
    with tempfile.TemporaryDirectory(prefix="hespas_export_") as dump_dir:
        dump_post_spmd = {
            "xla_dump_to": dump_dir,
            "xla_dump_hlo_pass_re": _SPMD_PASS,
            "xla_dump_hlo_as_text": True,
        }
        options = {} if optimized else {**dump_post_spmd, **_FAST_BACKEND}
        try:
            compiled = lowered.compile(compiler_options=options)
        except Exception as exc:  # noqa: BLE001
            raise HespasError(f"{name}: XLA could not compile the step: {_one_line(exc)}") from None
        used = {d for s in jax.tree.leaves(compiled.input_shardings) for d in s.device_set}
        if len(used) != num_devices:
            raise HespasError(
                f"{name}: the step runs on {len(used)} devices but {num_devices} were asked for"
            )
        if optimized:
            (module,) = compiled.runtime_executable().hlo_modules()
            proto = module.as_serialized_hlo_module_proto()
            return hlo_proto_to_stablehlo(proto, num_devices=num_devices, drop_copies=False)
        return hlo_text_to_stablehlo(_post_spmd_dump(Path(dump_dir)), num_devices=num_devices, drop_copies=True)


def _post_spmd_dump(dump_dir: Path) -> str:
    """Text of the module after the SPMD partitioner; before optimizations when none ran (1 device)."""
    after = sorted(dump_dir.glob(f"*.after_{_SPMD_PASS}.*.txt"))
    if not after:
        after = sorted(dump_dir.glob("*.before_optimizations.txt"))
    return after[0].read_text()


def _use_cpu_devices(num_devices: int, name: str) -> None:
    """Make JAX's CPU backend hold ``num_devices`` devices, or fail if it already holds others."""
    if num_devices < 1:
        raise HespasError(f"{name}: --devices must be at least 1, got {num_devices}")
    import jax
    from jax._src import xla_bridge

    if not xla_bridge.backends_are_initialized():
        jax.config.update("jax_platforms", "cpu")
        jax.config.update("jax_num_cpu_devices", num_devices)
    have = jax.device_count()
    if jax.default_backend() != "cpu" or have != num_devices:
        raise HespasError(
            f"{name}: JAX was already initialised in this process with {have} "
            f"{jax.default_backend()} devices; export {num_devices} devices from a fresh process "
            "(hespas export, or hespas_py.export.export_in_subprocess)"
        )


def _call_factory(factory: Factory, name: str) -> tuple[Any, tuple[Any, ...]]:
    """Call the factory and check it returned ``(jitted_fn, args)`` with abstract or array leaves."""
    import jax

    try:
        result = factory()
    except Exception as exc:  # noqa: BLE001
        raise HespasError(f"{name}: the factory raised {_one_line(exc)}") from None
    if not (isinstance(result, tuple) and len(result) == 2):
        raise HespasError(f"{name}: the factory must return (jitted_fn, args), got {type(result).__name__}")
    jitted, args = result
    if not hasattr(jitted, "lower"):
        raise HespasError(f"{name}: jitted_fn must be a jax.jit-wrapped function, got {type(jitted).__name__}")
    if not isinstance(args, (tuple, list)):
        raise HespasError(f"{name}: args must be a tuple of arguments, got {type(args).__name__}")
    for leaf in jax.tree.leaves(args):
        if not (hasattr(leaf, "shape") and hasattr(leaf, "dtype")):
            raise HespasError(
                f"{name}: every argument leaf must be a jax.ShapeDtypeStruct or an array, "
                f"got {type(leaf).__name__}"
            )
    return jitted, tuple(args)


def _one_line(exc: BaseException) -> str:
    """``Type: first line of the message`` of an exception."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def load_factory(spec: str) -> Factory:
    """The function named by ``FILE.py:FACTORY``; the file's folder is importable while it loads."""
    path_text, sep, attr = spec.rpartition(":")
    if not sep or not path_text or not attr:
        raise HespasError(f"{spec}: expected FILE.py:FACTORY")
    path = Path(path_text)
    if not path.is_file():
        raise HespasError(f"{path}: no such file")
    module_spec = importlib.util.spec_from_file_location(f"_hespas_factory_{path.stem}", path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module  # dataclasses and pickling look the module up by name
    sys.path.insert(0, str(path.resolve().parent))
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001
        raise HespasError(f"{path}: importing it failed: {_one_line(exc)}") from None
    finally:
        sys.path.remove(str(path.resolve().parent))
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise HespasError(f"{path}: has no function named {attr}")
    return factory


def export_file(spec: str, num_devices: int, optimized: bool = False) -> str:
    """`export_step` of the factory named by ``FILE.py:FACTORY``, in this process."""
    return export_step(load_factory(spec), num_devices, optimized, name=spec)


def export_in_subprocess(spec: str, num_devices: int, optimized: bool = False) -> str:
    """`export_file` in a fresh Python process, so this process's JAX state does not matter."""
    with tempfile.TemporaryDirectory(prefix="hespas_export_") as out_dir:
        out = Path(out_dir) / "step.mlir"
        command = [sys.executable, "-c", "from hespas_py.cli.main import main; main()", "export",
                   spec, "--devices", str(num_devices), "--out", str(out)]
        if optimized:
            command.append("--optimized")
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines()
            raise HespasError(lines[-1].removeprefix("error: ") if lines else f"{spec}: export failed")
        return out.read_text()
