"""The attributes later stages read, converted to plain Python, for the op kinds that have them.

`ATTRIBUTE_READERS` maps an op name (``stablehlo.all_reduce``, ``mhlo.convolution``,
``func.call``, ...) to the function that reads its attributes. Ops of other kinds
carry no attributes: the reader never touches their attribute dictionary, which keeps reading fast.

Keys produced (see the reader's docstring for the full list): ``replica_groups``,
``channel_handle``, ``use_global_device_ids``, ``source_target_pairs``, ``all_gather_dim``,
``scatter_dimension``, ``split_dimension``, ``concat_dimension``, ``split_count``,
``dot_dimension_numbers``, ``dimension_numbers`` (convolution, gather),
``scatter_dimension_numbers``, ``feature_group_count``, ``batch_group_count``, ``window_strides``,
``padding``, ``lhs_dilation``, ``rhs_dilation``, ``window_dimensions``, ``base_dilations``,
``window_dilations``, ``dimensions``, ``slice_sizes``, ``callee``, ``call_target_name``,
``fusion_kind``, ``comparison_direction``, ``sort_dimension``, ``value``.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from hespas_py.mlir.bindings import ir, mhlo, stablehlo
from hespas_py.mlir.meshes import Mesh, mesh_axes_groups

Attributes = Any  # an op's live attribute map (ir.OpAttributeMap)
AttributeReader = Callable[[Attributes, Mapping[str, Mesh]], dict[str, Any]]


def _ints(attr: ir.Attribute) -> tuple[int, ...]:
    """A 1-D integer array attribute (``array<i64: ...>``, ``dense<...>``, ``[1, 2]``) as a tuple."""
    if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat:
        return (attr.get_splat_value().value,) * _num_elements(attr.type.shape)
    if isinstance(attr, ir.ArrayAttr):
        return tuple(element.value for element in attr)
    return tuple(attr)


def _num_elements(shape: list[int]) -> int:
    count = 1
    for size in shape:
        count *= size
    return count


def _rows(attr: ir.Attribute) -> tuple[tuple[int, ...], ...]:
    """A 2-D integer elements attribute (replica groups, padding, pairs) as a tuple of rows."""
    flat = _ints(attr)
    shape = attr.type.shape
    if len(shape) != 2 or shape[1] == 0:
        return (flat,) if flat else ()
    width = shape[1]
    return tuple(flat[i : i + width] for i in range(0, len(flat), width))


def _replica_groups(attr: ir.Attribute, meshes: Mapping[str, Mesh]) -> tuple[tuple[int, ...], ...]:
    """Explicit groups from the dense form (``-1`` padding dropped) or the mesh-axes form."""
    if isinstance(attr, ir.DenseElementsAttr):
        return tuple(tuple(d for d in row if d >= 0) for row in _rows(attr))
    return mesh_axes_groups(attr, meshes)


def _cast(attr: ir.Attribute, class_name: str) -> Any:
    """``attr`` as the stablehlo or mhlo attribute class ``class_name``, whichever it is."""
    for dialect in (stablehlo, mhlo):
        cls = getattr(dialect, class_name)
        if cls.isinstance(attr):
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


def _int(attr: ir.Attribute) -> int:
    return attr.value


def _string(attr: ir.Attribute) -> str:
    return attr.value


def _channel(attr: ir.Attribute) -> int:
    return _cast(attr, "ChannelHandle").handle


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
_Spec = tuple[tuple[str, str, Callable[[ir.Attribute], Any]], ...]
_WINDOW: _Spec = (
    ("window_dimensions", "window_dimensions", _ints),
    ("window_strides", "window_strides", _ints),
    ("padding", "padding", _rows),
)
_SPECS: dict[str, _Spec] = {
    "all_gather": (("all_gather_dim", "all_gather_dim", _int),),
    "reduce_scatter": (("scatter_dimension", "scatter_dimension", _int),),
    "all_to_all": (
        ("split_dimension", "split_dimension", _int),
        ("concat_dimension", "concat_dimension", _int),
        ("split_count", "split_count", _int),
    ),
    "collective_permute": (("source_target_pairs", "source_target_pairs", _rows),),
    "all_reduce": (),
    "collective_broadcast": (),
    "dot_general": (("dot_dimension_numbers", "dot_dimension_numbers", _DOT),),
    "convolution": (
        ("dimension_numbers", "dimension_numbers", _CONV),
        ("feature_group_count", "feature_group_count", _int),
        ("batch_group_count", "batch_group_count", _int),
        ("window_strides", "window_strides", _ints),
        ("padding", "padding", _rows),
        ("lhs_dilation", "lhs_dilation", _ints),
        ("rhs_dilation", "rhs_dilation", _ints),
    ),
    "reduce": (("dimensions", "dimensions", _ints),),
    "broadcast_in_dim": (("dimensions", "broadcast_dimensions", _ints),),
    "transpose": (("dimensions", "permutation", _ints),),
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
    "sort": (("sort_dimension", "dimension", _int),),
    "compare": (("comparison_direction", "comparison_direction", _enum("ComparisonDirectionAttr")),),
    "custom_call": (("call_target_name", "call_target_name", _string),),
    "fusion": (("fusion_kind", "fusion_kind", _enum("FusionKindAttr")),),
}
# Collectives: groups and channel are read for every one of them.
_COLLECTIVES = ("all_gather", "reduce_scatter", "all_to_all", "collective_permute", "all_reduce",
                "collective_broadcast")


def _reader(spec: _Spec, collective: bool) -> AttributeReader:

    def read(attributes: Attributes, meshes: Mapping[str, Mesh]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for key, name, convert in spec:
            if name in attributes:
                values[key] = convert(attributes[name])
        if collective:
            if "replica_groups" in attributes:
                values["replica_groups"] = _replica_groups(attributes["replica_groups"], meshes)
            if "channel_handle" in attributes:
                values["channel_handle"] = _channel(attributes["channel_handle"])
            values["use_global_device_ids"] = "use_global_device_ids" in attributes
        return values

    return read


def _read_constant(attributes: Attributes, meshes: Mapping[str, Mesh]) -> dict[str, Any]:
    value = _scalar(attributes["value"]) if "value" in attributes else None
    return {} if value is None else {"value": value}


#: Full op name -> reader of the attributes the pipeline needs from ops of that kind.
ATTRIBUTE_READERS: dict[str, AttributeReader] = {
    f"{dialect}.{name}": _reader(spec, name in _COLLECTIVES)
    for dialect in ("stablehlo", "mhlo")
    for name, spec in _SPECS.items()
}
ATTRIBUTE_READERS.update({"stablehlo.constant": _read_constant, "mhlo.constant": _read_constant})
ATTRIBUTE_READERS["func.call"] = _reader((("callee", "callee", _string),), False)
