"""Device meshes (``sdy.mesh``, ``#stablehlo.mesh``) and the replica groups their axes denote."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from hespas_py.errors import HespasError
from hespas_py.mlir.bindings import ir, sdy, stablehlo

#: The most devices a module may run on. The trace writer keeps per device a few machine words per
#: distinct collective and writes (or hard-links) one file per device; ASTRA-sim opens one trace
#: per NPU. 2^17 covers the largest clusters trained on to date (about 100,000 GPUs).
MAX_DEVICES = 1 << 17


@dataclass(frozen=True, slots=True)
class Mesh:
    """A logical device mesh.

    Attributes:
        axes: ``(name, size)`` of each axis, major to minor, in declaration order.
        device_ids: device id at each mesh position in row-major order (``range(n)`` when the
            module gives none).
    """

    axes: tuple[tuple[str, int], ...]
    device_ids: tuple[int, ...]

    @classmethod
    def of(cls, axes: list[tuple[str, int]], device_ids: list[int]) -> Mesh:
        """A mesh whose device ids default to the iota when ``device_ids`` is empty;
        `ValueError` for more than `MAX_DEVICES` devices."""
        size = math.prod(axis_size for _, axis_size in axes)
        if size > MAX_DEVICES:
            shape = ", ".join(f"{name}={axis_size}" for name, axis_size in axes)
            raise ValueError(f"a mesh of {size:,} devices ({shape}); at most {MAX_DEVICES:,} "
                             "are supported")
        return cls(tuple(axes), tuple(device_ids) if device_ids else tuple(range(size)))


def read_meshes(module: ir.Module, path: str = "") -> dict[str, Mesh]:
    """Every top-level ``sdy.mesh`` symbol of ``module`` (read from ``path``) by name, in
    declaration order."""
    meshes: dict[str, Mesh] = {}
    for op in module.body.operations:
        operation = op.operation
        if operation.name != "sdy.mesh":
            continue
        mesh = sdy.MeshAttr(operation.attributes["mesh"])
        axes = [sdy.MeshAxisAttr(axis) for axis in mesh.axes]
        name = ir.StringAttr(operation.attributes["sym_name"]).value
        try:
            meshes[name] = Mesh.of([(axis.name, axis.size) for axis in axes],
                                   list(mesh.device_ids))
        except ValueError as exc:
            raise HespasError(f"{path}: sdy.mesh @{name}: {exc}") from None
    return meshes


def mesh_axes_groups(attr: ir.Attribute,
                     meshes: Mapping[str, Mesh]) -> tuple[tuple[int, ...], ...]:
    """The explicit groups of a ``#stablehlo.replica_group_mesh_axes`` attribute.

    Its mesh is either inline (``#stablehlo.mesh<...>``) or a reference to an ``sdy.mesh``
    symbol (the MLIR verifier has checked that the symbol exists). Raises `ValueError` for an
    axis the mesh does not have.
    """
    # The ignores: jaxlib's generated stubs type these lists as one Attribute and these optional
    # attributes as object; at run time they are lists and attributes (elements iterate).
    groups_attr = stablehlo.ReplicaGroupMeshAxesAttr(attr)
    mesh_attr = groups_attr.mesh
    if isinstance(mesh_attr, ir.FlatSymbolRefAttr):
        mesh = meshes[mesh_attr.value]
    else:
        inline = stablehlo.MeshAttr(mesh_attr)
        axes = [stablehlo.MeshAxisAttr(axis) for axis in inline.axes]  # type: ignore[attr-defined]
        ids = inline.device_ids
        mesh = Mesh.of(
            [(axis.name, axis.size) for axis in axes],
            list(ir.DenseIntElementsAttr(ids))  # type: ignore[arg-type, call-overload]
            if ids is not None else [],
        )
    refs = []
    for ref_attr in groups_attr.axes:  # type: ignore[attr-defined]
        ref = stablehlo.AxisRefAttr(ref_attr)
        sub = ref.sub_axis_info
        if sub is None:
            refs.append((ref.name, 1, 0))
        else:
            sub = stablehlo.SubAxisInfoAttr(sub)  # type: ignore[arg-type]
            refs.append((ref.name, sub.pre_size, sub.size))
    return groups_over_axes(mesh, refs)


def groups_over_axes(mesh: Mesh, refs: list[tuple[str, int, int]]) -> tuple[tuple[int, ...], ...]:
    """Replica groups of a collective over the mesh (sub-)axes ``refs``.

    Each reference is ``(axis name, pre_size, size)``; ``size`` 0 means the whole axis. A
    sub-axis ``(pre_size, size)`` of an axis of size ``n`` is the middle factor of that axis split
    major to minor into ``[pre_size, size, n // (pre_size * size)]``. Devices whose mesh
    coordinates differ only along the referenced (sub-)axes form one group, ordered by those
    coordinates with the first reference most major; groups are ordered by their first device's
    mesh position.
    """
    stride: dict[str, int] = {}
    size_of: dict[str, int] = {}
    step = 1
    for name, size in reversed(mesh.axes):
        stride[name], size_of[name] = step, size
        step *= size
    # (linear stride, extent) of every referenced (sub-)axis, first reference most major.
    factors = []
    for name, pre, size in refs:
        if name not in size_of:
            raise ValueError(f"no mesh axis {name!r} in {[axis for axis, _ in mesh.axes]}")
        if size == 0:
            factors.append((stride[name], size_of[name]))
        else:
            factors.append((stride[name] * (size_of[name] // (pre * size)), size))
    groups: dict[int, list[tuple[int, int]]] = {}
    for position, device in enumerate(mesh.device_ids):
        outside, inside = position, 0
        for factor_stride, extent in factors:
            coordinate = (position // factor_stride) % extent
            outside -= coordinate * factor_stride
            inside = inside * extent + coordinate
        groups.setdefault(outside, []).append((inside, device))
    return tuple(tuple(device for _, device in sorted(members)) for members in groups.values())
