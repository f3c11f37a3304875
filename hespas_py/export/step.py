"""A step factory (``FILE.py:FACTORY``): loaded, called, and its step lowered and compiled on
``num_devices`` forced host CPU devices (see `hespas_py.export.exporter`)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hespas_py.errors import HespasError, first_line
from hespas_py.jaxcompat import backends_initialized, ir

Factory = Callable[..., tuple[Any, tuple[Any, ...]]]
#: Keyword arguments of a factory (JSON values).
FactoryArgs = Mapping[str, Any]


def lower_step(spec: str, num_devices: int, kwargs: FactoryArgs | None = None):
    """``jax.stages.Lowered`` of the step ``FILE.py:FACTORY(**kwargs)`` returns, on
    ``num_devices`` CPUs; a step partitioned over fewer devices is refused."""
    _use_cpu_devices(num_devices, spec)
    jitted, args = _call_factory(load_factory(spec), spec, kwargs or {})
    try:
        lowered = jitted.lower(*args)
    except Exception as exc:  # noqa: BLE001 - any failure of user code is bad input
        raise HespasError(f"{spec}: lowering the step failed: {first_line(exc, named=True)}") from None
    used = partitions(lowered)
    if used != num_devices:
        raise HespasError(f"{spec}: the step runs on {used} devices but {num_devices} were asked "
                          "for")
    return lowered


def partitions(lowered) -> int:
    """How many devices the lowered step is partitioned over (JAX records it on the module)."""
    attributes = lowered.compiler_ir("stablehlo").operation.attributes
    if "mhlo.num_partitions" not in attributes:
        return 1
    return ir.IntegerAttr(attributes["mhlo.num_partitions"]).value


def compile_step(lowered, options: dict, spec: str):
    """``lowered.compile`` with XLA ``options``; a failure is bad input."""
    try:
        return lowered.compile(compiler_options=options)
    except Exception as exc:  # noqa: BLE001
        raise HespasError(f"{spec}: XLA could not compile the step: {first_line(exc, named=True)}") from None


def _use_cpu_devices(num_devices: int, name: str) -> None:
    """Make JAX's CPU backend hold ``num_devices`` devices, or fail if it already holds others."""
    if num_devices < 1:
        raise HespasError(f"{name}: --devices must be at least 1, got {num_devices}")
    import jax

    if not backends_initialized():
        jax.config.update("jax_platforms", "cpu")
        jax.config.update("jax_num_cpu_devices", num_devices)
    have = jax.device_count()
    if jax.default_backend() != "cpu" or have != num_devices:
        raise HespasError(
            f"{name}: JAX was already initialised in this process with {have} "
            f"{jax.default_backend()} devices; export {num_devices} devices from a fresh process "
            "(hespas export, or hespas_py.export.export_in_subprocess)"
        )


def _call_factory(factory: Factory, name: str,
                  kwargs: FactoryArgs) -> tuple[Any, tuple[Any, ...]]:
    """Call the factory with ``kwargs`` and check it returned ``(jitted_fn, args)`` with abstract
    or array leaves."""
    import jax

    try:
        result = factory(**kwargs)
    except Exception as exc:  # noqa: BLE001
        raise HespasError(f"{name}: the factory raised {first_line(exc, named=True)}") from None
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


def parse_spec(spec: str) -> tuple[Path, str]:
    """The file and function name of ``FILE.py:FACTORY``; the file must exist."""
    path_text, sep, attr = spec.rpartition(":")
    if not sep or not path_text or not attr:
        raise HespasError(f"{spec}: expected FILE.py:FACTORY")
    path = Path(path_text)
    if not path.is_file():
        raise HespasError(f"{path}: no such file")
    return path, attr


def load_factory(spec: str) -> Factory:
    """The function named by ``FILE.py:FACTORY``; the file's folder is importable while it loads."""
    path, attr = parse_spec(spec)
    module_spec = importlib.util.spec_from_file_location(f"_hespas_factory_{path.stem}", path)
    if module_spec is None or module_spec.loader is None:  # not a Python source file
        raise HespasError(f"{path}: not a Python file (expected FILE.py:FACTORY)")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module  # dataclasses and pickling look the module up by name
    sys.path.insert(0, str(path.resolve().parent))
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001
        raise HespasError(f"{path}: importing it failed: {first_line(exc, named=True)}") from None
    finally:
        sys.path.remove(str(path.resolve().parent))
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise HespasError(f"{path}: has no function named {attr}")
    return factory
