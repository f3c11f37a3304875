"""Layout copies of GEMM operands (`GpuRules.cublas_operand_layouts`).

Rules and sources: docs/kernels.md."""

from __future__ import annotations

import math
from collections.abc import Sequence

from hespas_py.kernels.kernel import Kind
from hespas_py.kernels.planner import Planner

#: Kernels that can write their results in any layout (XLA's loop and reduction emitters).
_ANY_LAYOUT = (Kind.LOOP, Kind.REDUCTION)


def gemm_readable(groups: Sequence[Sequence[int]], stored: Sequence[int]) -> bool:
    """Whether a GEMM reads an operand without a copy: ``groups`` are its batch, row and column
    dimension groups, each as the (non-size-1) pieces of the stored value it spans in the
    operand's dimension order, and ``stored`` is those pieces' major-to-minor storage order."""
    position = {piece: i for i, piece in enumerate(stored)}
    runs = []
    for name, pieces in zip("brc", groups, strict=False):
        if not pieces:
            continue
        at = [position[piece] for piece in pieces]
        if at != list(range(at[0], at[0] + len(at))):
            return False  # not physically sequential in the listed order
        runs.append((at[0], name))
    sequence = "".join(name for _, name in sorted(runs))
    return len(sequence) == 1 or not sequence.endswith("b")


class _Pieces:
    """A GEMM operand's dimensions as pieces of the values it is a view of: each dimension of the
    current value is a list of pieces (major to minor), and a reshape splits pieces."""

    def __init__(self, shape: Sequence[int]) -> None:
        self.sizes = list(shape)  # piece -> size
        self.operand = [[d] for d in range(len(shape))]  # operand dimension -> pieces
        self.dims = [[d] for d in range(len(shape))]  # current value's dimension -> pieces
        self.major_to_minor: Sequence[int] | None = None  # the stored value's; None: row-major

    def transposed(self, permutation: Sequence[int]) -> None:
        """Step to the operand of a transpose whose result is the current value."""
        dims: list[list[int]] = [[] for _ in permutation]
        for result_dim, operand_dim in enumerate(permutation):
            dims[operand_dim] = self.dims[result_dim]
        self.dims = dims

    def reshaped(self, shape: Sequence[int]) -> bool:
        """Step to the operand (of ``shape``) of a reshape whose result is the current value,
        splitting a piece where a dimension boundary of ``shape`` cuts it; False where sizes do
        not factor."""
        flat = [p for dim in self.dims for p in dim if self.sizes[p] > 1]
        dims: list[list[int]] = []
        for size in shape:
            dim: list[int] = []
            while size > 1:
                if not flat:
                    return False
                whole = self.sizes[flat[0]]
                if whole > size:
                    if whole % size:
                        return False
                    flat.insert(1, self._split(flat[0], size, whole // size))
                    whole = size
                elif size % whole:
                    return False
                dim.append(flat.pop(0))
                size //= whole
            dims.append(dim)
        self.dims = dims
        return not flat

    def _split(self, piece: int, major: int, minor: int) -> int:
        """Split ``piece`` into itself (now of size ``major``) and a new minor piece, returned."""
        self.sizes[piece] = major
        self.sizes.append(minor)
        new = len(self.sizes) - 1
        for lists in (self.operand, self.dims):
            for pieces in lists:
                if piece in pieces:
                    pieces.insert(pieces.index(piece) + 1, new)
        return new

    def group(self, dims: Sequence[int]) -> list[int]:
        """The pieces of operand dimensions ``dims``, in that order, size-1 pieces left out."""
        return [p for d in dims for p in self.operand[d] if self.sizes[p] > 1]

    def copy_layout(self, groups: Sequence[Sequence[int]]) -> tuple[tuple[int, int], ...]:
        """The layout a copy of the operand is written in, as (stride in the stored value, size)
        of its pieces major to minor: the operand's default (row-major) layout where the GEMM
        reads that, else batch, rows, columns (GPU layout assignment's
        ``SetDotOperandLayout``). GEMMs reading one value in one copy layout share the copy."""
        logical = self.group(range(len(self.operand)))
        order = logical if gemm_readable(groups, logical) else [p for g in groups for p in g]
        stored = self.stored()
        stride = {p: math.prod(self.sizes[q] for q in stored[i + 1:])
                  for i, p in enumerate(stored)}
        return tuple((stride[p], self.sizes[p]) for p in order)

    def stored(self) -> list[int]:
        """The pieces in the current value's storage (row-major) order, size-1 ones left out."""
        order = self.major_to_minor or range(len(self.dims))
        return [p for d in order for p in self.dims[d] if self.sizes[p] > 1]


def _declared_layout(planner: Planner, key: int) -> tuple[int, ...] | None:
    """The minor-to-major layout a custom call declares for its result ``key``
    (``result_layouts``: a cuDNN flash-attention call writes ``[B, H, S, D]`` results as
    ``B, S, H, D``), or None."""
    p = planner.producer.get(key)
    if p is None or planner.nodes[p].op.short_name != "custom_call":
        return None
    layouts = planner.nodes[p].op.attrs.get("result_layouts") or ()
    index = planner.nodes[p].outputs.index(key)
    return tuple(layouts[index]) if index < len(layouts) else None


def _stored_value(planner: Planner, g: int, dot: int, side: int) -> tuple[int, _Pieces] | None:
    """The value GEMM kernel ``g`` reads for operand ``side`` of dot node ``dot``, and how the
    operand's dimensions lie in it (row-major, or as a custom call declares its result),
    looking through the views (reshapes), transposes and other operand producers folded into the
    kernel; None where a reshape does not factor."""
    key = planner.nodes[dot].inputs[side]
    shape = tuple(planner.nodes[dot].op.operand_types[side].shape)
    pieces = _Pieces(shape)
    while ((p := planner.producer.get(key)) is not None and p in planner.prologue
           and p in planner.groups[g].members):
        op = planner.nodes[p].op
        if tuple(op.result_types[0].shape) != shape and not pieces.reshaped(
                op.result_types[0].shape):
            return None
        key = planner.nodes[p].inputs[0]
        if op.short_name == "dynamic_slice":
            return key, pieces  # a major-most slice of a row-major value is row-major
        if op.short_name == "transpose":
            pieces.transposed(op.attrs["dimensions"])
        shape = tuple(op.operand_types[0].shape)  # a convert or reverse keeps it
    stored = planner.scope.types.get(key)
    if stored is not None and tuple(stored.shape) != shape and not pieces.reshaped(stored.shape):
        return None
    declared = _declared_layout(planner, key)
    if declared is not None:
        if len(declared) != len(pieces.dims):
            return None
        pieces.major_to_minor = declared[::-1]
    return key, pieces


def operand_pieces(planner: Planner, g: int, dot: int, side: int
                   ) -> tuple[int, tuple[tuple[int, ...], ...], list[int], _Pieces] | None:
    """For operand ``side`` of dot node ``dot`` in GEMM kernel ``g``: the value the kernel reads
    (`_stored_value`), the operand's batch, row and column dimension groups as pieces of it, the
    pieces' storage order and the pieces; None where the operand is folded or its views do not
    factor."""
    op = planner.nodes[dot].op
    stored = _stored_value(planner, g, dot, side)
    if stored is None or stored[0] in planner.scope.folded:
        return None
    key, pieces = stored
    numbers = op.attrs.get("dot_dimension_numbers") or {}
    prefix = ("lhs", "rhs")[side]
    shape = op.operand_types[side].shape
    batch = numbers.get(f"{prefix}_batching_dimensions", ())
    contracting = numbers.get(f"{prefix}_contracting_dimensions", ())
    rows = [d for d in range(len(shape)) if d not in batch and d not in contracting]
    groups = tuple(tuple(pieces.group(dims)) for dims in (batch, rows, contracting))
    return key, groups, pieces.stored(), pieces


def gemm_operands(planner: Planner):
    """(kernel, dot node, operand side) of every ``dot_general`` operand of a GEMM kernel."""
    for g, group in enumerate(planner.groups):
        if group.kind is not Kind.GEMM:
            continue
        for dot in sorted(group.members):
            if planner.nodes[dot].op.short_name == "dot_general":
                yield from ((g, dot, side) for side in (0, 1))


def layout_copies(planner: Planner) -> dict[int, list[int]]:
    """Bytes of each layout copy a fused ``planner``'s GEMM kernels need, by kernel: one per
    stored value and operand layout (two GEMMs reading a value in the same layout share it)."""
    copies: dict[int, list[int]] = {}
    seen: set[tuple] = set()
    for g, dot, side in gemm_operands(planner):
        operand = operand_pieces(planner, g, dot, side)
        if operand is None:
            continue
        key, groups, stored, pieces = operand
        if gemm_readable(groups, stored):
            continue
        writer = planner.writer_group(key)
        if (writer is not None and planner.groups[writer].kind in _ANY_LAYOUT
                and key not in planner.outputs and planner.reader_groups(key) == {g}):
            continue  # the producing fusion writes the layout the GEMM reads
        layout = (key, pieces.copy_layout(groups))
        if layout not in seen:
            seen.add(layout)
            copies.setdefault(g, []).append(planner.nodes[dot].op.operand_types[side].nbytes)
    return copies
