"""XLA HLO module → StableHLO text of the per-device program, with explicit replica groups."""

from __future__ import annotations

import re

import numpy as np

from hespas_py.jaxcompat import hlo_proto_to_mlir_bytecode, hlo_text_to_proto
from hespas_py.mlir.bindings import ir, make_context, stablehlo
from hespas_py.mlir.meshes import Mesh, mesh_axes_groups, read_meshes


def hlo_text_to_stablehlo(hlo_text: str, *, num_devices: int, drop_copies: bool) -> str:
    """StableHLO text of an SPMD-partitioned HLO module given as XLA's text dump.

    The module records ``mhlo.num_partitions = num_devices`` and ``mhlo.num_replicas = 1``, as
    JAX's own lowering of an SPMD program does (XLA's conversion drops them). Replica groups in
    the mesh-axes form (``#stablehlo.replica_group_mesh_axes``) are expanded into explicit
    ``dense<[[...]]>`` groups, so every consumer sees one form. With ``drop_copies``, ``mhlo.copy``
    ops are forwarded to their operand: the SPMD partitioner wraps every result it emits in a copy
    that XLA's next simplification pass removes, and they are no part of the program. Entry
    parameters the module's ``buffer_donor`` lists (``jax.jit(..., donate_argnums=...)``, which
    JAX lowers to ``jax.buffer_donor``) get ``jax.buffer_donor = true`` back, which XLA's
    conversion drops.
    """
    return hlo_proto_to_stablehlo(hlo_text_to_proto(hlo_text), num_devices=num_devices,
                                  drop_copies=drop_copies, donors=_buffer_donors(hlo_text))


def _buffer_donors(hlo_text: str) -> tuple[int, ...]:
    """Entry parameters donated whole in the ``buffer_donor={ (P, {}), ... }`` of an HLO module's
    header line."""
    header = hlo_text.split("\n", 1)[0]
    found = re.search(r"buffer_donor=\{((?:[^{}]|\{\})*)\}", header)
    return tuple(int(p) for p in re.findall(r"\((\d+), \{\}\)", found.group(1))) if found else ()


def hlo_proto_to_stablehlo(module_proto: bytes, *, num_devices: int, drop_copies: bool,
                           donors: tuple[int, ...] = ()) -> str:
    """Like `hlo_text_to_stablehlo`, from a serialized ``HloModuleProto``; ``donors``: entry
    parameters to mark ``jax.buffer_donor``."""
    bytecode = hlo_proto_to_mlir_bytecode(module_proto)
    with make_context():
        module = ir.Module.parse(bytecode)
        i32 = ir.IntegerType.get_signless(32)
        module.operation.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(i32, num_devices)
        module.operation.attributes["mhlo.num_replicas"] = ir.IntegerAttr.get(i32, 1)
        meshes = read_meshes(module)
        if donors:
            _mark_donors(module, donors)
        for op in _walk(module.operation):
            if "replica_groups" in op.attributes:
                _expand_mesh_replica_groups(op, meshes)
            elif drop_copies and op.name == "mhlo.copy":
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
        asm = module.operation.get_asm(enable_debug_info=False)
        return asm  # type: ignore[return-value]  # a str without binary=True


def _walk(operation: ir.Operation) -> list[ir.Operation]:
    """Every op nested in ``operation``, collected first so callers may erase ops while iterating."""
    collected: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        collected.append(op)
        return ir.WalkResult.ADVANCE

    operation.walk(visit)
    return collected


def _expand_mesh_replica_groups(op: ir.Operation, meshes: dict[str, Mesh]) -> None:
    """Replace a mesh-axes ``replica_groups`` attribute by the explicit groups it denotes."""
    groups_attr = op.attributes["replica_groups"]
    if not stablehlo.ReplicaGroupMeshAxesAttr.isinstance(groups_attr):
        return
    groups = np.array(mesh_axes_groups(groups_attr, meshes), dtype=np.int64)
    i64 = ir.IntegerType.get_signless(64)
    # (an ndarray is a buffer; numpy's stubs do not say so)
    attr = ir.DenseElementsAttr.get(groups, type=i64)  # type: ignore[call-overload]
    op.attributes["replica_groups"] = attr


def _mark_donors(module: ir.Module, donors: tuple[int, ...]) -> None:
    """``jax.buffer_donor = true`` on the ``donors`` arguments of ``@main``."""
    main = next(op for op in module.body.operations
                if "sym_name" in op.attributes
                and ir.StringAttr(op.attributes["sym_name"]).value == "main")
    count = len(main.regions[0].blocks[0].arguments)
    old = list(ir.ArrayAttr(main.attributes["arg_attrs"])) if "arg_attrs" in main.attributes \
        else [ir.DictAttr.get({}) for _ in range(count)]
    donated = set(donors)
    main.attributes["arg_attrs"] = ir.ArrayAttr.get([
        ir.DictAttr.get({**{a.name: a.attr  # (a DictAttr iterates; its stub does not say so)
                            for a in ir.DictAttr(attrs)},  # type: ignore[attr-defined]
                         **({"jax.buffer_donor": ir.BoolAttr.get(True)} if i in donated else {})})
        for i, attrs in enumerate(old)])
