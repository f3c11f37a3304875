"""Plain-Python view of a StableHLO module: the only thing the reader hands to later stages.

Nothing here holds a live MLIR object, so every value pickles and crosses process boundaries.
SSA values are small integers, unique within one `Module` (function arguments and region block
arguments included), so def-use edges are plain integer lookups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from hespas_py.fast_init import fast_constructor

# Bytes per element of every element type the reader emits. Sub-byte types round up to one byte,
# as XLA stores them unpacked.
DTYPE_BYTES: Mapping[str, int] = {
    "i1": 1, "i2": 1, "i4": 1, "i8": 1, "ui2": 1, "ui4": 1, "ui8": 1,
    "i16": 2, "ui16": 2, "i32": 4, "ui32": 4, "i64": 8, "ui64": 8,
    "f4E2M1FN": 1, "f6E2M3FN": 1, "f6E3M2FN": 1,
    "f8E4M3FN": 1, "f8E5M2": 1, "f8E4M3FNUZ": 1, "f8E5M2FNUZ": 1, "f8E4M3B11FNUZ": 1,
    "f8E4M3": 1, "f8E3M4": 1, "f8E8M0FNU": 1,
    "bf16": 2, "f16": 2, "f32": 4, "f64": 8,
    "complex<f32>": 8, "complex<f64>": 16,
    "index": 8,
    "token": 0,
}


#: Dialects whose ops the later stages model. An op of any other dialect (another toolchain's,
#: such as ``ttir``) is opaque to them: `Op.short_name` keeps its dialect, so that no stage takes
#: ``ttir.add`` for ``stablehlo.add``, and the estimators cost it by their memory-bound fallback.
MODELED_DIALECTS: frozenset[str] = frozenset({"stablehlo", "mhlo", "chlo", "sdy", "func"})

#: Ops that end a function or region body.
TERMINATORS: frozenset[str] = frozenset({"func.return", "stablehlo.return", "mhlo.return",
                                         "sdy.return"})


@dataclass(frozen=True, slots=True)
class TensorType:
    """The type of one SSA value.

    Attributes:
        shape: dimension sizes; a dynamic dimension is -1. Empty for scalars, tokens and tuples.
        dtype: element type as MLIR spells it (``f32``, ``bf16``, ``i1``, ``complex<f32>``), or
            ``token``, ``tuple`` (a tuple value) or ``future`` (a ``!stablehlo.future``).
        elements: member types of a ``tuple`` or ``future``; empty otherwise.
    """

    shape: tuple[int, ...]
    dtype: str
    elements: tuple[TensorType, ...] = ()

    @property
    def is_array(self) -> bool:
        """Whether this is an array (tensor) value, not a token, tuple or future."""
        return not self.elements and self.dtype not in ("token", "tuple", "future")

    @property
    def num_elements(self) -> int:
        """Element count, dynamic dimensions counted as 1; 0 for tokens, tuples and futures."""
        if not self.is_array:
            return 0
        n = 1
        for d in self.shape:
            n *= max(d, 1)
        return n

    @property
    def nbytes(self) -> int:
        """Bytes the value occupies; a tuple or future counts its members."""
        if self.elements:
            return sum(e.nbytes for e in self.elements)
        return self.num_elements * DTYPE_BYTES.get(self.dtype, 4)


@dataclass(frozen=True, slots=True)
class Region:
    """One single-block region of an op (a fusion body, a while condition or body, a reducer).

    Attributes:
        args: SSA ids of the block arguments.
        arg_types: types of ``args``, in order.
        ops: the region's ops in program order, terminator included.
    """

    args: tuple[int, ...]
    arg_types: tuple[TensorType, ...]
    ops: tuple[Op, ...]


@dataclass(frozen=True, slots=True)
class Op:
    """One operation, with just what later stages need.

    Attributes:
        name: full op name, dialect included (``stablehlo.add``, ``mhlo.fusion``, ``func.call``).
        results: SSA ids this op defines.
        operands: SSA ids this op reads, in operand order.
        result_types: types of ``results``.
        operand_types: types of ``operands``.
        attrs: the attributes later stages read, converted to plain Python (the keys
            `hespas_py.mlir.attrs` lists, e.g. ``replica_groups``, ``dot_dimension_numbers``,
            ``callee``, plus ``trip_count``). Other attributes are not carried.
        regions: nested regions in order (while: condition then body; case/if: one per branch).
        captures: SSA ids defined outside this op but read inside its regions (StableHLO control
            flow may capture outer values); a true dependency for splitting.
        index: position among its parent's ops (the function's body or the region's block), so
            the op can be found again in the source module (e.g. to extract a block for XLA).
    """

    name: str
    results: tuple[int, ...]
    operands: tuple[int, ...]
    result_types: tuple[TensorType, ...]
    operand_types: tuple[TensorType, ...]
    attrs: Mapping[str, Any] = field(default_factory=dict)
    regions: tuple[Region, ...] = ()
    captures: tuple[int, ...] = ()
    index: int = 0

    @property
    def short_name(self) -> str:
        """The name without its dialect prefix (``add`` for ``stablehlo.add``); the full name for
        an op outside `MODELED_DIALECTS`."""
        name = self.name
        dialect_name, _, short = name.partition(".")  # `dialect`, inlined: a hot path
        return short.rpartition(".")[2] if dialect_name in MODELED_DIALECTS else name


#: `Op`'s constructor taking every field positionally, made cheap (`hespas_py.fast_init`); the
#: readers build ops by the hundred thousand through it.
new_op = fast_constructor(Op)


def dialect(name: str) -> str:
    """The dialect of an op name (``stablehlo`` for ``stablehlo.add``)."""
    return name.partition(".")[0]


def scalar_int(op: Op | None) -> int | None:
    """The value of an integer scalar ``constant`` op; None for any other op (or None)."""
    if op is None or op.short_name != "constant":
        return None
    value = op.attrs.get("value")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def op_names(bodies: Iterable[tuple[Op, ...]]) -> set[str]:
    """The names of the ops in ``bodies`` and, at any depth, in their regions (each region once)."""
    names: set[str] = set()
    seen: set[int] = set()
    pending = list(bodies)
    while pending:
        ops = pending.pop()
        names.update(map(_NAME, ops))
        for regions in filter(None, map(_REGIONS, ops)):
            for region in regions:
                if id(region) not in seen:
                    seen.add(id(region))
                    pending.append(region.ops)
    return names


_NAME, _REGIONS = attrgetter("name"), attrgetter("regions")


@dataclass(frozen=True, slots=True)
class Function:
    """One ``func.func``.

    Attributes:
        name: symbol name without ``@``.
        public: whether its visibility is public.
        args: SSA ids of its arguments.
        arg_types: types of ``args``.
        ops: body ops in program order, the ``func.return`` included.
        result_types: declared result types.
    """

    name: str
    public: bool
    args: tuple[int, ...]
    arg_types: tuple[TensorType, ...]
    ops: tuple[Op, ...]
    result_types: tuple[TensorType, ...]


@dataclass(frozen=True)
class Module:
    """A whole StableHLO module as read from one file.

    Attributes:
        path: how messages name the module: its file, or ``<file>#N`` for module ``N`` of a
            file that holds several (`hespas_py.mlir.source`).
        entry: name of the entry function (``main``, else the single public function).
        functions: every ``func.func`` by name, entry included.
        num_replicas: ``mhlo.num_replicas`` as the module states it; None when it does not.
        num_partitions: ``mhlo.num_partitions`` as the module states it; None when it does not.
        mesh: axis name -> size of the module's ``sdy.mesh``, in declaration order; empty if none.
        name: the module's symbol name (``module @name``), or ``""``.
        warnings: notes the reader raised while reading (unknown dialects, ignored text, ...).
        outline: whether only op names and nesting were read (``load_module(outline=True)``):
            ops then carry no SSA ids, types or attributes other than ``callee``.
        aliases: entry argument position -> the output position whose buffer it becomes
            (donation, `hespas_py.mlir.aliases`; -1: donated to no named output); empty when
            the module donates nothing.
    """

    path: str
    entry: str
    functions: Mapping[str, Function]
    num_replicas: int | None = None
    num_partitions: int | None = None
    mesh: Mapping[str, int] = field(default_factory=dict)
    name: str = ""
    warnings: tuple[str, ...] = ()
    outline: bool = False
    aliases: Mapping[int, int] = field(default_factory=dict)

    @property
    def ops(self) -> tuple[Op, ...]:
        """The entry function's top-level ops."""
        return self.functions[self.entry].ops

    @property
    def num_devices(self) -> int:
        """Devices one step runs on as the module states it: replicas x partitions, an unstated
        count taken as 1 (`hespas_py.chakra.groups.DeviceLayout` infers what it does not state)."""
        return (self.num_replicas or 1) * (self.num_partitions or 1)
