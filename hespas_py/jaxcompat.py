"""Every private jaxlib entry point hespas_py uses, in one place, for jax/jaxlib 0.10 to 0.12.

Why and how: docs/jax_versions.md.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# XLA's C++ logging reads its level once, when jaxlib's native code loads: importing ``jax``
# first would set INFO off (jax/__init__.py does this), but the bindings below load before it,
# and XLA:CPU's client then prints INFO lines (``pjrt_client.cc] PjRt-IFRT device count``) on
# stderr. The same default as jax's, and only where the user set none: warnings still show.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
# jaxlib imports numpy, whose OpenBLAS starts a pool of threads as it loads; hespas_py does no
# BLAS work, and a process with threads does not fork (`hespas_py.forking`). Where numpy is not
# loaded yet and the user chose no size, the pool is one thread: none is started.
if "numpy" not in sys.modules:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from jaxlib.mlir._mlir_libs import _chlo as chlo
from jaxlib.mlir._mlir_libs import _jax_mlir_ext, _mlir
from jaxlib.mlir._mlir_libs import _mlirHlo as mhlo
from jaxlib.mlir._mlir_libs import _stablehlo as stablehlo
from jaxlib.mlir._mlir_libs._mlir import ir
from jaxlib.version import __version__ as JAXLIB_VERSION

__all__ = ["JAXLIB_RELEASE", "JAXLIB_VERSION", "backends_initialized", "chlo",
           "compile_on_one_device", "compiled_hlo_proto", "generic_op_views", "hlo_cost_analysis",
           "hlo_module_from_text", "hlo_proto_to_mlir_bytecode", "hlo_text_to_proto", "ir",
           "local_client", "mhlo", "mlir_to_xla_computation", "register_dialects", "sdy",
           "stablehlo"]

#: (major, minor) of the installed jaxlib.
_MAJOR, _MINOR = JAXLIB_VERSION.split(".")[:2]
JAXLIB_RELEASE: tuple[int, int] = (int(_MAJOR), int(_MINOR))

if JAXLIB_RELEASE < (0, 11):
    from jaxlib.mlir._mlir_libs import _sdy as sdy
else:
    from jaxlib.mlir.dialects import sdy  # type: ignore[no-redef]  # the other release's path


def register_dialects(registry: ir.DialectRegistry) -> None:
    """Add the upstream dialects JAX registers (func, ...; stablehlo and vhlo) to ``registry``."""
    _jax_mlir_ext.register_dialects(registry)


@contextmanager
def generic_op_views() -> Iterator[None]:
    """Within it, ops of dialects whose Python module is not imported yet come as plain
    ``ir.OpView`` objects: MLIR neither imports those modules nor builds their op classes per
    op (a seventh of the walk over the ResNet-50 step). Dialect modules imported before keep their classes."""
    search = _mlir.globals.dialect_search_modules
    _mlir.globals.dialect_search_modules = []
    try:
        yield
    finally:
        _mlir.globals.dialect_search_modules = search


def hlo_module_from_text(hlo_text: str) -> Any:
    """XLA's ``HloModule`` of an HLO module in its text form (raises XLA's status error)."""
    from jaxlib import _hlo  # type: ignore[attr-defined]  # a private module without a stub

    return _hlo.hlo_module_from_text(hlo_text)


def hlo_text_to_proto(hlo_text: str) -> bytes:
    """A serialized ``HloModuleProto`` of an HLO module in XLA's text form."""
    return hlo_module_from_text(hlo_text).as_serialized_hlo_module_proto()


def hlo_proto_to_mlir_bytecode(module_proto: bytes) -> bytes:
    """A serialized ``HloModuleProto`` as StableHLO (MLIR bytecode, ``mhlo`` ops where XLA fused)."""
    from jaxlib import _jax

    return _jax.mlir.hlo_to_stablehlo(module_proto)


def mlir_to_xla_computation(module_text: str) -> Any:
    """A StableHLO module's text as an ``XlaComputation`` (untupled arguments and results)."""
    from jaxlib import _jax

    return _jax.mlir.mlir_module_to_xla_computation(module_text, use_tuple_args=False,
                                                    return_tuple=False)


def hlo_cost_analysis(client: Any, computation: Any) -> dict[str, float]:
    """XLA's ``HloCostAnalysis`` of an ``XlaComputation`` on ``client``'s backend."""
    from jaxlib import _jax

    return dict(_jax.hlo_module_cost_analysis(client, computation.get_hlo_module()))


def local_client() -> Any:
    """The default jax backend's client (GPU when one is present, else CPU)."""
    import jax

    return jax.devices()[0].client


def compile_on_one_device(client: Any, module_text: str) -> Any:
    """A StableHLO module's text compiled and loaded by ``client`` for its first device; the
    result's ``execute(buffers)`` runs it."""
    return client.compile_and_load(module_text, client.devices()[:1])


def backends_initialized() -> bool:
    """Whether JAX has created its backends in this process (its device count is fixed then)."""
    from jax._src import xla_bridge

    return xla_bridge.backends_are_initialized()


def compiled_hlo_proto(compiled: Any) -> bytes:
    """The serialized ``HloModuleProto`` a ``jax.stages.Compiled`` of one module runs."""
    (module,) = compiled.runtime_executable().hlo_modules()
    return module.as_serialized_hlo_module_proto()
