"""The attributes later stages read, converted to plain Python, for the op kinds that have them.

Why and how: docs/mlir.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from hespas_py.mlir.bindings import ir, mhlo, stablehlo
from hespas_py.mlir.meshes import Mesh, mesh_axes_groups

Attributes = Any  # an op's live attribute map (ir.OpAttributeMap)
# The `type: ignore`s below: jaxlib hands out attributes and types downcast to their concrete
# class at run time (`.value`, `.shape`, iteration), which its stubs type as the base class.


def _ints(attr: ir.Attribute) -> tuple[int, ...]:
    """A 1-D integer array attribute (``array<i64: ...>``, ``dense<...>``, ``[1, 2]``) as a tuple."""
    if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat:
        shape = attr.type.shape  # type: ignore[attr-defined]
        return (attr.get_splat_value().value,) * math.prod(shape)  # type: ignore[attr-defined]
    if isinstance(attr, ir.ArrayAttr):
        return tuple(element.value for element in attr)  # type: ignore[attr-defined]
    return tuple(attr)  # type: ignore[arg-type]


def _rows(attr: ir.Attribute) -> tuple[tuple[int, ...], ...]:
    """A 2-D integer elements attribute (replica groups, padding, pairs) as a tuple of rows."""
    flat = _ints(attr)
    shape = attr.type.shape  # type: ignore[attr-defined]
    if len(shape) != 2 or shape[1] == 0:
        return (flat,) if flat else ()
    width = shape[1]
    return tuple(flat[i : i + width] for i in range(0, len(flat), width))


def _layouts(attr: ir.Attribute) -> tuple[tuple[int, ...], ...]:
    """A custom call's ``operand_layouts``/``result_layouts``: one minor-to-major tuple each."""
    return tuple(_ints(layout) for layout in ir.ArrayAttr(attr))


def _replica_groups(attr: ir.Attribute, meshes: Mapping[str, Mesh]) -> tuple[tuple[int, ...], ...]:
    """Explicit groups from the dense form (``-1`` padding dropped) or the mesh-axes form."""
    if isinstance(attr, ir.DenseElementsAttr):
        return tuple(tuple(d for d in row if d >= 0) for row in _rows(attr))
    return mesh_axes_groups(attr, meshes)


def _cast(attr: ir.Attribute, class_name: str) -> Any:
    """``attr`` as the stablehlo or mhlo attribute class ``class_name``, whichever it is."""
    for dialect in (stablehlo, mhlo):
        cls = getattr(dialect, class_name, None)
        if cls is not None and cls.isinstance(attr):
            return cls(attr)
    raise TypeError(f"not a {class_name}: {attr}")


def _struct(class_name: str, fields: tuple[str, ...]) -> Callable[[ir.Attribute], dict[str, Any]]:
    """Converter of a dialect struct attribute to a dict of its ``fields`` (lists become tuples)."""

    def convert(attr: ir.Attribute) -> dict[str, Any]:
        struct = _cast(attr, class_name)
        values = {}
        for field in fields:
            value = getattr(struct, field)
            values[field] = tuple(value) if isinstance(value, list) else value
        return values

    return convert


def _enum(class_name: str) -> Callable[[ir.Attribute], str]:
    return lambda attr: _cast(attr, class_name).value


def _precisions(attr: ir.Attribute) -> tuple[str, ...]:
    """A ``precision_config`` array (``[DEFAULT, HIGHEST]``) as its operand precisions' names."""
    return tuple(_cast(element, "PrecisionAttr").value for element in ir.ArrayAttr(attr))


def _value(attr: ir.Attribute) -> Any:
    """The value of an integer, string or symbol-reference attribute."""
    return attr.value  # type: ignore[attr-defined]


def _known_trip_count(attr: ir.Attribute) -> int | None:
    """``n`` of the ``known_trip_count`` in XLA's while backend config (its JSON text or a
    dictionary attribute); `None` when absent or unreadable (it is only a hint)."""
    try:
        if isinstance(attr, ir.StringAttr):
            count = json.loads(attr.value)["known_trip_count"]["n"]
        else:
            count = ir.DictAttr(ir.DictAttr(attr)["known_trip_count"])["n"]
            count = count.value  # type: ignore[attr-defined]
        return int(count)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _json_config(attr: ir.Attribute) -> dict | None:
    """A custom call's ``backend_config`` JSON text as a dictionary (None when it is not JSON:
    cuBLAS/cuDNN calls carry their GEMM, convolution or attention configuration there)."""
    if not isinstance(attr, ir.StringAttr) or not attr.value.startswith("{"):
        return None
    try:
        config = json.loads(attr.value)
    except ValueError:
        return None
    return config if isinstance(config, dict) else None


def _channel(attr: ir.Attribute) -> int:
    return _cast(attr, "ChannelHandle").handle


#: Longest integer vector constant whose elements are carried (`_int_vector`): one entry per device.
_MAX_VECTOR = 131_072


def _int_vector(attr: ir.Attribute) -> tuple[int, ...] | None:
    """The elements of a 1-D, non-splat integer constant of at most `_MAX_VECTOR` elements (the
    offset tables XLA's SPMD partitioner indexes by device id), or `None` for anything else."""
    if not isinstance(attr, ir.DenseIntElementsAttr) or attr.is_splat:
        return None
    kind: Any = attr.type  # a RankedTensorType at run time, `ir.Type` to the stubs
    if kind.rank == 1 and kind.shape[0] <= _MAX_VECTOR:
        return tuple(attr)  # type: ignore[arg-type]
    return None


def _scalar(attr: ir.Attribute) -> Any:
    """The value of a scalar or splat constant, or `None` for anything else."""
    if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat:
        element = attr.get_splat_value()
        if isinstance(element, (ir.IntegerAttr, ir.FloatAttr, ir.BoolAttr)):
            return element.value
    return None


_DOT = _struct("DotDimensionNumbers", (
    "lhs_batching_dimensions", "rhs_batching_dimensions",
    "lhs_contracting_dimensions", "rhs_contracting_dimensions",
))
_CONV = _struct("ConvDimensionNumbers", (
    "input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
    "kernel_input_feature_dimension", "kernel_output_feature_dimension", "kernel_spatial_dimensions",
    "output_batch_dimension", "output_feature_dimension", "output_spatial_dimensions",
))
_GATHER = _struct("GatherDimensionNumbers", (
    "offset_dims", "collapsed_slice_dims", "operand_batching_dims", "start_indices_batching_dims",
    "start_index_map", "index_vector_dim",
))
_SCATTER = _struct("ScatterDimensionNumbers", (
    "update_window_dims", "inserted_window_dims", "input_batching_dims",
    "scatter_indices_batching_dims", "scattered_dims_to_operand_dims", "index_vector_dim",
))

# Per op kind: (our key, MLIR attribute name, converter); absent attributes are left out.
_Spec = tuple[tuple[str, str, Callable[..., Any]], ...]  # convert(attr), or (attr, meshes)
_WINDOW: _Spec = (
    ("window_dimensions", "window_dimensions", _ints),
    ("window_strides", "window_strides", _ints),
    ("padding", "padding", _rows),
)
_SPECS: dict[str, _Spec] = {
    "all_gather": (("all_gather_dim", "all_gather_dim", _value),),
    "reduce_scatter": (("scatter_dimension", "scatter_dimension", _value),),
    "all_to_all": (
        ("split_dimension", "split_dimension", _value),
        ("concat_dimension", "concat_dimension", _value),
        ("split_count", "split_count", _value),
    ),
    "collective_permute": (("source_target_pairs", "source_target_pairs", _rows),),
    "all_reduce": (),
    "collective_broadcast": (),
    "dot_general": (("dot_dimension_numbers", "dot_dimension_numbers", _DOT),
                    ("precision_config", "precision_config", _precisions)),
    "dot": (("precision_config", "precision_config", _precisions),),
    "convolution": (
        ("precision_config", "precision_config", _precisions),
        ("dimension_numbers", "dimension_numbers", _CONV),
        ("feature_group_count", "feature_group_count", _value),
        ("batch_group_count", "batch_group_count", _value),
        ("window_strides", "window_strides", _ints),
        ("padding", "padding", _rows),
        ("lhs_dilation", "lhs_dilation", _ints),
        ("rhs_dilation", "rhs_dilation", _ints),
    ),
    "reduce": (("dimensions", "dimensions", _ints),),
    "broadcast_in_dim": (("dimensions", "broadcast_dimensions", _ints),),
    "transpose": (("dimensions", "permutation", _ints),),
    "slice": (("start_indices", "start_indices", _ints), ("strides", "strides", _ints)),
    "reverse": (("dimensions", "dimensions", _ints),),
    "reduce_window": _WINDOW + (
        ("base_dilations", "base_dilations", _ints),
        ("window_dilations", "window_dilations", _ints),
    ),
    "select_and_scatter": _WINDOW,
    "gather": (
        ("dimension_numbers", "dimension_numbers", _GATHER),
        ("slice_sizes", "slice_sizes", _ints),
    ),
    "scatter": (("scatter_dimension_numbers", "scatter_dimension_numbers", _SCATTER),),
    "sort": (("sort_dimension", "dimension", _value),),
    "compare": (("comparison_direction", "comparison_direction", _enum("ComparisonDirectionAttr")),),
    "custom_call": (("call_target_name", "call_target_name", _value),
                    ("backend_config", "backend_config", _json_config),
                    ("result_layouts", "result_layouts", _layouts)),
    "fft": (("fft_length", "fft_length", _ints),),
    "fusion": (("fusion_kind", "fusion_kind", _enum("FusionKindAttr")),),
    "while": (("known_trip_count", "backend_config", _known_trip_count),
              ("known_trip_count", "mhlo.backend_config", _known_trip_count)),
}
_COLLECTIVE: _Spec = (
    ("replica_groups", "replica_groups", _replica_groups),
    ("channel_handle", "channel_handle", _channel),
)
_SPECS.update({
    name: _SPECS[name] + _COLLECTIVE
    for name in ("all_gather", "reduce_scatter", "all_to_all", "collective_permute", "all_reduce",
                 "collective_broadcast")
})
_SPECS["constant"] = (("value", "value", _scalar), ("elements", "value", _int_vector))

#: Full op name -> what to read from ops of that kind.
_OP_SPECS: dict[str, _Spec] = {
    f"{dialect}.{name}": spec for dialect in ("stablehlo", "mhlo") for name, spec in _SPECS.items()
}
_OP_SPECS["func.call"] = (("callee", "callee", _value),)
_COLLECTIVE_OPS = frozenset(f"{dialect}.{name}" for dialect in ("stablehlo", "mhlo")
                            for name, spec in _SPECS.items() if _COLLECTIVE[0] in spec)
#: Names of the ops that carry attributes; ops of every other kind carry none.
OPS_WITH_ATTRIBUTES = frozenset(_OP_SPECS)
#: Full op name -> the MLIR attribute names its spec reads, each once, in spec order.
_OP_ATTRIBUTE_NAMES: dict[str, tuple[str, ...]] = {
    op_name: tuple(dict.fromkeys(name for _, name, _ in spec)) for op_name, spec in _OP_SPECS.items()
}


class UnreadableAttribute(ValueError):
    """An attribute the reader needs is malformed (e.g. replica groups over an unknown mesh)."""


class AttributeReader:
    """Reads the attributes of one module's ops, converting each distinct attribute once.

    MLIR uniques attributes, so the many ops sharing a ``dims = [1]`` or a replica-group list
    hand over the same attribute objects: an op whose attributes were all met before on an op of
    its kind gets that op's dict back after a single lookup. Ops of one kind with equal converted
    attributes share one (read-only) dict.
    """

    def __init__(self, meshes: Mapping[str, Mesh]) -> None:
        self._meshes = meshes
        # (op name, its live attributes in spec order, use_global_device_ids) -> its dict.
        self._by_attributes: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._memo: dict[tuple[Callable[..., Any], ir.Attribute], Any] = {}
        # (op name, keys and ids of converted values) -> the one dict handed to every op with
        # those attributes (ids are stable: the memo keeps each converted value alive).
        self._shared: dict[tuple[Any, ...], dict[str, Any]] = {}

    def read(self, op_name: str, attributes: Attributes) -> dict[str, Any]:
        """The plain-Python attributes of an op named ``op_name`` (one of `OPS_WITH_ATTRIBUTES`)."""
        key = (op_name, *map(attributes.get, _OP_ATTRIBUTE_NAMES[op_name]),
               op_name in _COLLECTIVE_OPS and "use_global_device_ids" in attributes)
        values = self._by_attributes.get(key)
        if values is None:
            found = dict(zip(_OP_ATTRIBUTE_NAMES[op_name], key[1:-1], strict=True))
            values = self._by_attributes[key] = self._convert(op_name, found, key[-1])
        return values

    def _convert(self, op_name: str, found: dict[str, ir.Attribute | None], global_ids: bool) -> dict[str, Any]:
        values: dict[str, Any] = {}
        memo = self._memo
        for key, name, convert in _OP_SPECS[op_name]:
            attr = found[name]
            if attr is None:
                continue
            value = memo.get((convert, attr), memo)
            if value is memo:
                try:
                    value = convert(attr, self._meshes) if convert is _replica_groups else convert(attr)
                except (KeyError, TypeError, ValueError) as error:
                    raise UnreadableAttribute(f"{op_name}: cannot read {name}: {error}") from None
                memo[(convert, attr)] = value
            if value is not None:
                values[key] = value
        if op_name in _COLLECTIVE_OPS:
            values["use_global_device_ids"] = global_ids
        shared_key = (op_name, *values, *map(id, values.values()))
        return self._shared.setdefault(shared_key, values)
