"""What each planned kernel computes and moves (FLOPs, bytes at kernel boundaries, GEMM shape),
kernels of nested control flow, and the entry points `plan_kernels` and `block_outputs`."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Collection, Iterator, Sequence

from hespas_py.kernels.attention import flash_kernel
from hespas_py.kernels.classes import COPY
from hespas_py.kernels.convolution import (
    conv_channel_padding,
    conv_channels,
    conv_kind,
    dot_mnk,
    gemm_mnk,
    padded_input,
)
from hespas_py.kernels.costs import op_work
from hespas_py.kernels.kernel import FLASH_BACKWARD, FLASH_FORWARD, Kernel, Kind
from hespas_py.kernels.layout_chains import chain_copies
from hespas_py.kernels.library_calls import LibraryCall, library_call
from hespas_py.kernels.operand_layout import layout_copies
from hespas_py.kernels.planner import Planner
from hespas_py.kernels.row_tiles import spanning_tiles
from hespas_py.kernels.rules import GpuRules
from hespas_py.kernels.scope import IN_PLACE, OpClass, Scope
from hespas_py.kernels.select_and_scatter import expanded_kernels
from hespas_py.kernels.tree_reduction import split_kernels
from hespas_py.kernels.work import TENSOR
from hespas_py.mlir.ops import Op, Region, TensorType
from hespas_py.split.blocks import Block

#: Loop-fusible ops that read only part of an operand (their traffic is what they keep).
_SLICING = frozenset({"slice", "dynamic_slice", "real_dynamic_slice", "gather"})


def planned_kernels(planner: Planner, repeat: float, entry: bool = False) -> list[Kernel]:
    """The kernels of a fused ``planner``, in program order of their first op, each launched
    ``repeat`` times; ``entry``: the scope is the entry function, whose inputs and outputs have
    the fixed layouts of the entry computation (`layout_chains`)."""
    planned: list[tuple[int, list[Kernel]]] = []
    copies: dict[int, list[int]] = {}
    after: dict[int, list[int]] = {}
    if planner.rules.cublas_operand_layouts:
        copies = layout_copies(planner)
        for chain in chain_copies(planner) if entry else ():
            # the whole parameter copied into, and the chain's result back out of, the layout
            # the GEMMs read (`layout_chains`)
            copies.setdefault(chain.first, []).append(chain.nbytes)
            if chain.last is not None:
                after.setdefault(chain.last, []).append(chain.nbytes)
    for g, group in enumerate(planner.groups):
        if not group.members:
            continue
        members = sorted(group.members)
        kernels = _kernels_of(planner, g, members, repeat)
        if g in copies:
            # transposes writing the operands in the layout the GEMM reads (`operand_layout`)
            kernels = [*(_copy_kernel(kernels[0], 2 * size) for size in copies[g]), *kernels]
        if g in after:
            kernels = [*kernels, *(_copy_kernel(kernels[-1], 2 * size) for size in after[g])]
        planned.append((members[0], kernels))
    planned.sort(key=lambda item: item[0])
    return [k for _, ks in planned for k in ks]

def _kernels_of(planner: Planner, g: int, members: list[int], repeat: float) -> list[Kernel]:
    group = planner.groups[g]
    first = planner.nodes[members[0]]
    if first.cls is OpClass.COLLECTIVE:
        return []
    if first.cls is OpClass.CONTROL:
        return [dataclasses.replace(k, anchors=(first.anchor,))
                for k in _control_kernels(first.op, planner.scope.fresh, repeat,
                                          planner.flash is not None, first.sunk, planner.rules)]
    ops = tuple(planner.nodes[m].op for m in members)
    works = [op_work(op) for op in ops]
    tensor = [(d, f) for w in works for unit, d, f in w.flops if unit == TENSOR]
    notes = tuple(dict.fromkeys(n for w in works for n in w.notes))
    if group.kind in (Kind.OPAQUE, Kind.FUSION):
        nbytes = float(sum(w.bytes for w in works))
    else:
        nbytes = float(_group_bytes(planner, g, members))
    gemm_node = next((m for m in members if planner.nodes[m].cls is OpClass.GEMM), None)
    gemm = planner.nodes[gemm_node].op if gemm_node is not None else None
    gemm_kind = ""
    if gemm is not None and gemm_node is not None:
        gemm_kind = (conv_kind(gemm, planner.reversed_kernel(gemm_node))
                     if gemm.short_name == "convolution" else "dot")
    kernel = Kernel(
        kind=group.kind, ops=ops, flops=sum(w.total_flops for w in works), bytes=nbytes,
        tensor_flops=sum(f for _, f in tensor),
        tensor_dtype=max(tensor, key=lambda t: t[1])[0] if tensor else "",
        gemm_mnk=gemm_mnk(gemm) if gemm is not None else None,
        gemm_kind=gemm_kind, dot_mnk=dot_mnk(gemm) if gemm is not None else None,
        channel_padding=(conv_channel_padding(gemm, gemm_kind)
                         if gemm is not None and gemm_kind.startswith("conv") else 1.0),
        conv_channels=(conv_channels(gemm, gemm_kind)
                       if gemm is not None and gemm_kind.startswith("conv") else None),
        anchors=tuple({id(planner.nodes[m].anchor): planner.nodes[m].anchor
                       for m in members}.values()), count=repeat,
        fallback=any(w.fallback for w in works), notes=notes,
        row_tiles=(spanning_tiles(planner, members) if group.kind is Kind.REDUCTION
                   and planner.rules.triton_normalization else None))
    padded = (padded_input(gemm, gemm_kind)
              if gemm is not None and planner.rules.conv_input_pads else None)
    if gemm is not None and padded is not None:
        return _pad_kernels(kernel, gemm.operand_types[0], padded)
    if group.kind is Kind.ATTENTION:
        assert planner.flash is not None, "attention groups come from a flash plan"
        kernel = flash_kernel(kernel, planner.flash.groups[g])
    elif len(ops) == 1 and (library := library_call(ops[0])) is not None:
        kernel = _library_kernel(kernel, library)
    elif (len(ops) == 1 and ops[0].short_name == "select_and_scatter"
          and planner.rules.select_and_scatter_expansion):
        return expanded_kernels(kernel)
    elif planner.rules.tree_reduction:
        return split_kernels(kernel)
    return [kernel]


def _pad_kernels(conv: Kernel, unpadded: TensorType, padded: TensorType) -> list[Kernel]:
    """The pad kernel XLA writes a convolution's legalized input with, then the convolution
    reading that copy instead of its input."""
    return [_copy_kernel(conv, unpadded.nbytes + padded.nbytes),
            dataclasses.replace(conv, bytes=conv.bytes + padded.nbytes - unpadded.nbytes)]


def _copy_kernel(kernel: Kernel, nbytes: int) -> Kernel:
    """A kernel of the ``copy`` class beside GEMM or convolution ``kernel`` (a pad, a transpose),
    moving ``nbytes`` and computing nothing."""
    return dataclasses.replace(
        kernel, kind=Kind.LOOP, flops=0.0, bytes=float(nbytes), tensor_flops=0.0, tensor_dtype="",
        gemm_mnk=None, gemm_kind="", dot_mnk=None, channel_padding=1.0, conv_channels=None,
        notes=(), part=COPY)


def _library_kernel(kernel: Kernel, call: LibraryCall) -> Kernel:
    """A cuBLAS/cuDNN custom call's kernel: a GEMM (dot or convolution kind) or a flash-attention
    kernel, with the shape its tensor-unit rate needs (`hespas_py.kernels.library_calls`)."""
    flash = call.kind in (FLASH_FORWARD, FLASH_BACKWARD)
    return dataclasses.replace(
        kernel, kind=Kind.ATTENTION if flash else Kind.GEMM, flops=call.flops,
        bytes=call.bytes, tensor_flops=call.flops, tensor_dtype=call.dtype, gemm_mnk=call.mnk,
        gemm_kind=call.kind, dot_mnk=None if flash else call.mnk, fallback=False)

def _group_bytes(planner: Planner, g: int, members: list[int]) -> int:
    member_set = planner.groups[g].members
    reads: dict[int, list[int]] = {}
    total = 0
    for m in members:
        node = planner.nodes[m]
        in_place = node.op.short_name in IN_PLACE  # operand 0 is updated, not read
        for key in dict.fromkeys(node.inputs[1:] if in_place else node.inputs):
            if key in planner.scope.folded:
                continue
            producer = planner.producer.get(key)
            if producer is None or producer not in member_set:
                reads.setdefault(key, []).append(m)
        for key in node.outputs:
            if planner.writer_group(key) == g and planner.materialized(key):
                total += planner.nbytes(node.inputs[1] if in_place else key)
    for key, readers in reads.items():
        full = planner.nbytes(key)
        if all(planner.nodes[r].op.short_name in _SLICING for r in readers):
            kept = sum(planner.nbytes(k) for r in readers for k in planner.nodes[r].outputs)
            total += min(full, kept)
        else:
            total += full
    return total


def _control_kernels(op: Op, fresh: Iterator[int], repeat: float, fused_attention: bool,
                     sunk: Sequence[int] = (), rules: GpuRules = GpuRules()) -> list[Kernel]:
    """Kernels of a while (condition and body, x trip count; ``sunk``: positions of its
    loop-invariant constants, `scope.sunk_arguments`) or of a case's costliest branch."""
    if op.short_name == "while":
        trip = float(op.attrs.get("trip_count") or 1)
        kernels: list[Kernel] = []
        for region in op.regions:
            kernels += _plan_region(region, fresh, repeat * trip, fused_attention,
                                    [region.args[k] for k in sunk if k < len(region.args)], rules)
        return kernels
    branches = [_plan_region(r, fresh, repeat, fused_attention, (), rules) for r in op.regions]
    return max(branches, key=lambda ks: (sum(k.bytes for k in ks), sum(k.flops for k in ks)),
               default=[])


def _plan_region(region: Region, fresh: Iterator[int], repeat: float, fused_attention: bool,
                 folded: Sequence[int] = (), rules: GpuRules = GpuRules()) -> list[Kernel]:
    keys = {a: next(fresh) for a in region.args}
    scope = Scope(region.ops, keys, fresh, [keys[a] for a in folded])
    scope.types.update((keys[a], t) for a, t in zip(region.args, region.arg_types, strict=True))
    planner = Planner(scope, scope.returned, fused_attention, rules)
    planner.fuse()
    return planned_kernels(planner, repeat)


def plan_kernels(ops: Sequence[Op], outputs: Collection[int], fused_attention: bool = False,
                 folded: Collection[int] = (), rules: GpuRules = GpuRules(),
                 entry: bool = False) -> list[Kernel]:
    """The kernels XLA's GPU backend would launch for ``ops`` (one scope, program order).

    ``outputs`` are the SSA ids of values read after the scope (they are written to memory even
    when every in-scope consumer fuses them); values the ops read but do not define are inputs,
    except ``folded`` ones: constants recomputed where they are used (a loop body's sunk
    loop-invariant constants), never read from memory. ``fused_attention``: attention patterns
    become flash-attention kernels (`attention`); ``rules``: XLA's GPU-only rewrites applied;
    ``entry``: the ops are the whole entry function (`planned_kernels`).
    """
    fresh = itertools.count()
    keys = {v: next(fresh) for v in folded}
    scope = Scope(ops, keys, fresh, keys.values())
    kept = {scope.env[v] for v in outputs if v in scope.env}
    planner = Planner(scope, kept | set(scope.returned), fused_attention, rules)
    planner.fuse()
    return planned_kernels(planner, 1.0, entry)


def block_outputs(block: Block) -> set[int]:
    """SSA ids of the values ``block`` hands to later blocks.

    Values defined in the block and not read inside it are outputs; the remaining entries of
    ``block.outputs`` (values read both inside and after the block) are matched by type, latest
    definition first.
    """
    defined: list[tuple[int, TensorType]] = [
        (v, t) for op in block.ops for v, t in zip(op.results, op.result_types, strict=True)]
    read = {v for op in block.ops for v in (*op.operands, *op.captures)}
    outputs = {v for v, _ in defined if v not in read}
    wanted = Counter(block.outputs)
    wanted.subtract(Counter(t for v, t in defined if v in outputs))
    for v, t in reversed(defined):
        if v not in outputs and wanted[t] > 0:
            outputs.add(v)
            wanted[t] -= 1
    return outputs
