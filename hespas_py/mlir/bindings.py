"""jaxlib's MLIR bindings, imported piecemeal, and the one way to make a context for our dialects.

Only the compiled extension modules are imported (never ``jax``, nor the dialects' generated
op classes: the reader walks ops as plain ``ir.OpView`` objects, `generic_op_views`): reading a
module then costs a fraction of a second of interpreter start-up.
Which module each comes from depends on the jaxlib release (`hespas_py.jaxcompat`).
"""

from __future__ import annotations

from hespas_py.jaxcompat import chlo, generic_op_views, ir, mhlo, register_dialects, sdy, stablehlo

__all__ = ["chlo", "generic_op_views", "ir", "make_context", "mhlo", "sdy", "stablehlo"]


def make_context(*, allow_unregistered_dialects: bool = False) -> ir.Context:
    """A fresh context with the upstream (func, ...), stablehlo, vhlo, chlo, mhlo and sdy dialects.

    Single-threaded: with MLIR's thread pool, parsing a malformed file (a second top-level op)
    sometimes never returns.
    """
    context = ir.Context()
    context.enable_multithreading(False)
    registry = ir.DialectRegistry()
    register_dialects(registry)
    context.append_dialect_registry(registry)
    stablehlo.register_dialect(context)
    chlo.register_dialect(context)
    sdy.register_dialect(context)
    mhlo.register_mhlo_dialect(context)
    context.allow_unregistered_dialects = allow_unregistered_dialects
    return context
