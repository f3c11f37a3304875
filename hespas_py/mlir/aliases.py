"""Which entry arguments a module lets its outputs reuse (donation and input/output aliasing).

Three spellings are read, all as JAX and XLA write them:

- ``tf.aliasing_output = K`` on an entry argument: the argument's buffer becomes output ``K``
  (``jax.jit(..., donate_argnums=...)`` lowers to it);
- ``jax.buffer_donor = true`` on an entry argument: the buffer is donated, and XLA may give it to
  any output of the same shape (no output named);
- the module attribute ``mhlo.input_output_alias`` (XLA's HLO-to-StableHLO conversion): a list of
  ``{alias = {parameter_number = P, ...}, output_index = array<i64: K>}``.
"""

from __future__ import annotations

from hespas_py.mlir.bindings import ir
from hespas_py.mlir.source import func_ops

#: `aliases` value of a donated argument that names no output (``jax.buffer_donor``).
ANY_OUTPUT = -1


def _int(attr: ir.Attribute) -> int | None:
    try:
        return int(ir.IntegerAttr(attr).value)
    except (TypeError, ValueError):
        return None


def _module_aliases(module: ir.Module) -> dict[int, int]:
    attributes = module.operation.attributes
    if "mhlo.input_output_alias" not in attributes:
        return {}
    found: dict[int, int] = {}
    for entry in ir.ArrayAttr(attributes["mhlo.input_output_alias"]):
        entry = ir.DictAttr(entry)
        if "alias" not in entry or "output_index" not in entry:
            continue
        alias = ir.DictAttr(entry["alias"])
        number = _int(alias["parameter_number"]) if "parameter_number" in alias else None
        index = list(ir.DenseI64ArrayAttr(entry["output_index"])) \
            if isinstance(entry["output_index"], ir.DenseI64ArrayAttr) else []
        if number is not None:
            found[number] = index[0] if index else ANY_OUTPUT
    return found


def read_aliases(module: ir.Module, entry: str) -> dict[int, int]:
    """Entry argument position -> the output position it aliases (`ANY_OUTPUT` for a donated
    buffer that names none); empty when the module states no donation."""
    found = _module_aliases(module)
    op = func_ops(module).get(entry)
    if op is None or "arg_attrs" not in op.attributes:
        return found
    for position, attrs in enumerate(ir.ArrayAttr(op.attributes["arg_attrs"])):
        attrs = ir.DictAttr(attrs)
        if "tf.aliasing_output" in attrs:
            output = _int(attrs["tf.aliasing_output"])
            if output is not None:
                found[position] = output
        elif "jax.buffer_donor" in attrs:
            found.setdefault(position, ANY_OUTPUT)
    return found
