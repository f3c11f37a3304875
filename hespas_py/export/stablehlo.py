"""XLA HLO module → StableHLO text of the per-device program, with explicit replica groups."""

from __future__ import annotations

import numpy as np
from jaxlib import _hlo, _jax
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy, stablehlo

from jax._src.interpreters import mlir as jax_mlir

# Collectives whose `replica_groups` XLA may print in the mesh-axes form.
_GROUPED_COLLECTIVES = (
    "stablehlo.all_reduce",
    "stablehlo.all_gather",
    "stablehlo.reduce_scatter",
    "stablehlo.all_to_all",
    "stablehlo.collective_broadcast",
)


def hlo_text_to_stablehlo(hlo_text: str, *, num_devices: int, drop_copies: bool) -> str:
    """StableHLO text of an SPMD-partitioned HLO module given as XLA's text dump.

    The module records ``mhlo.num_partitions = num_devices`` and ``mhlo.num_replicas = 1``, as
    JAX's own lowering of an SPMD program does (XLA's conversion drops them).
    Replica groups in the mesh-axes form (``#stablehlo.replica_group_mesh_axes``) are expanded into
    explicit ``dense<[[...]]>`` groups, so every consumer sees the same form. With ``drop_copies``,
    ``mhlo.copy`` ops are forwarded to their operand: the SPMD partitioner wraps every result it
    emits in a copy that XLA's next simplification pass removes, and they are no part of the program.
    """
    module_proto = _hlo.hlo_module_from_text(hlo_text).as_serialized_hlo_module_proto()
    return hlo_proto_to_stablehlo(module_proto, num_devices=num_devices, drop_copies=drop_copies)


def hlo_proto_to_stablehlo(module_proto: bytes, *, num_devices: int, drop_copies: bool) -> str:
    """Like `hlo_text_to_stablehlo`, from a serialized ``HloModuleProto``."""
    bytecode = _jax.mlir.hlo_to_stablehlo(module_proto)
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(bytecode)
        i32 = ir.IntegerType.get_signless(32)
        module.operation.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(i32, num_devices)
        module.operation.attributes["mhlo.num_replicas"] = ir.IntegerAttr.get(i32, 1)
        meshes = _meshes(module)
        for op in _walk(module.operation):
            if op.name in _GROUPED_COLLECTIVES:
                _expand_mesh_replica_groups(op, meshes)
            elif drop_copies and op.name == "mhlo.copy":
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
        return module.operation.get_asm(enable_debug_info=False)


def _walk(operation: ir.Operation) -> list[ir.Operation]:
    """Every op nested in ``operation``, collected first so callers may erase ops while iterating."""
    collected: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        collected.append(op)
        return ir.WalkResult.ADVANCE

    operation.walk(visit)
    return collected


_Mesh = tuple[tuple[str, ...], np.ndarray]  # axis names, device ids shaped by the axis sizes


def _meshes(module: ir.Module) -> dict[str, _Mesh]:
    """Every ``sdy.mesh`` symbol of the module by name."""
    meshes: dict[str, _Mesh] = {}
    for op in module.body.operations:
        if op.operation.name != "sdy.mesh":
            continue
        mesh = sdy.MeshAttr(op.operation.attributes["mesh"])
        axes = [sdy.MeshAxisAttr(axis) for axis in mesh.axes]
        sizes = [axis.size for axis in axes]
        ids = list(mesh.device_ids) or list(range(int(np.prod(sizes, dtype=np.int64))))
        name = ir.StringAttr(op.operation.attributes["sym_name"]).value
        meshes[name] = (tuple(axis.name for axis in axes), np.asarray(ids).reshape(sizes))
    return meshes


def _expand_mesh_replica_groups(op: ir.Operation, meshes: dict[str, _Mesh]) -> None:
    """Replace a mesh-axes ``replica_groups`` attribute by the explicit groups it denotes."""
    if "replica_groups" not in op.attributes:
        return
    groups_attr = op.attributes["replica_groups"]
    if not stablehlo.ReplicaGroupMeshAxesAttr.isinstance(groups_attr):
        return
    groups_attr = stablehlo.ReplicaGroupMeshAxesAttr(groups_attr)
    axis_names, device_ids = meshes[ir.FlatSymbolRefAttr(groups_attr.mesh).value]
    groups = replica_groups_from_mesh_axes(axis_names, device_ids, _axis_refs(groups_attr))
    op.attributes["replica_groups"] = ir.DenseElementsAttr.get(
        np.ascontiguousarray(groups, dtype=np.int64), type=ir.IntegerType.get_signless(64)
    )


def _axis_refs(groups_attr: stablehlo.ReplicaGroupMeshAxesAttr) -> list[tuple[str, int, int]]:
    """``(axis name, pre_size, size)`` of each axis reference; size 0 means the whole axis."""
    refs = []
    for ref in groups_attr.axes:
        ref = stablehlo.AxisRefAttr(ref)
        sub = ref.sub_axis_info
        if sub is None:
            refs.append((ref.name, 1, 0))
        else:
            sub = stablehlo.SubAxisInfoAttr(sub)
            refs.append((ref.name, sub.pre_size, sub.size))
    return refs


def replica_groups_from_mesh_axes(
    axis_names: tuple[str, ...], device_ids: np.ndarray, refs: list[tuple[str, int, int]]
) -> np.ndarray:
    """Explicit replica groups ``[num_groups, group_size]`` of a collective over mesh (sub-)axes.

    Devices that differ only in the coordinates of the referenced (sub-)axes form one group,
    ordered by those coordinates in reference order; groups are ordered by the other coordinates.
    A sub-axis ``(pre_size, size)`` of an axis of size ``n`` is the middle factor of the axis split
    major-to-minor into ``[pre_size, size, n / (pre_size * size)]``.
    """
    factor_shape: list[int] = []  # the mesh with every axis split at its sub-axis boundaries
    factors_of: dict[tuple[str, int, int], list[int]] = {}  # (sub-)axis -> its factor dimensions
    for name, axis_size in zip(axis_names, device_ids.shape):
        cuts = {1, axis_size}
        for ref_name, pre, size in refs:
            if ref_name == name and size:
                cuts |= {pre, pre * size}
        bounds = sorted(cuts)
        first = len(factor_shape)
        for lo, hi in zip(bounds, bounds[1:]):
            factors_of[(name, lo, hi // lo)] = [len(factor_shape)]
            factor_shape.append(hi // lo)
        factors_of[(name, 1, 0)] = list(range(first, len(factor_shape)))
    group_dims = [dim for ref in refs for dim in factors_of[ref]]
    other_dims = [d for d in range(len(factor_shape)) if d not in group_dims]
    factored = device_ids.reshape(factor_shape).transpose(other_dims + group_dims)
    group_size = int(np.prod([factor_shape[d] for d in group_dims], dtype=np.int64))
    return factored.reshape(-1, group_size)
