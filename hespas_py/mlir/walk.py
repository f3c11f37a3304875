"""The walk over a parsed module's functions that turns every op into `hespas_py.mlir.ops`
dataclasses (`FunctionWalk`), and its outline variant for op histograms (`OutlineWalk`).

A walk numbers SSA values as it meets their definitions, converts each MLIR type once, and reads
an op's attributes, regions, captures and ``while`` trip count only where its kind (worked out
once per op name) calls for them. `hespas_py.mlir.reader` runs the walks (ops as plain
``ir.OpView`` objects, `bindings.generic_op_views`), sharing long function bodies out between
forked processes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from hespas_py.errors import HespasError
from hespas_py.mlir.attrs import OPS_WITH_ATTRIBUTES, AttributeReader
from hespas_py.mlir.bindings import ir, mhlo, stablehlo
from hespas_py.mlir.loops import TRACKED, trip_count
from hespas_py.mlir.meshes import Mesh
from hespas_py.mlir.ops import TERMINATORS, Function, Op, Region, TensorType, new_op
from hespas_py.mlir.source import func_ops, is_public

_NO_ATTRS: dict[str, Any] = {}


class _OpKind(NamedTuple):
    """What the walk needs to know about every op of one kind, worked out once per kind.

    Attributes:
        name: the op name (one string object for all ops of the kind, so that later stages
            hash it once).
        has_attrs: whether its attributes are read (`attrs.OPS_WITH_ATTRIBUTES`).
        tracked: whether `loops.trip_count` may need to find the op from its results.
        single: whether its result is read as ``op.result`` (one binding call instead of three
            for an op with one result); false for terminators and for a kind once one of its
            ops had another number of results.
    """

    name: str
    has_attrs: bool
    tracked: bool
    single: bool

    @classmethod
    def of(cls, name: str) -> _OpKind:
        return cls(name, name in OPS_WITH_ATTRIBUTES, name in TRACKED, name not in TERMINATORS)


_WHILE = frozenset({"stablehlo.while", "mhlo.while"})
_TOKEN = TensorType((), "token")


class FunctionWalk:
    """One walk over a module's functions, numbering SSA values as it meets their definitions."""

    def __init__(
        self, path: str, module: ir.Module, meshes: dict[str, Mesh], value_key: Callable[[ir.Value], Any]
    ) -> None:
        self._path = path
        self._func_ops = func_ops(module)
        self._functions: dict[str, Function] = {}
        self._in_progress: set[str] = set()
        self._call_regions: dict[str, Region] = {}
        # Live value -> its SSA id, keyed by value_key(value). `hash` (the value's pointer hash)
        # keeps no Python object alive and is the fastest key; read_all detects a collision.
        self._value_key = value_key
        self._ids: dict[Any, int] = {}
        self._types: list[TensorType] = []  # SSA id -> its type
        self._type_cache: dict[ir.Type, TensorType] = {}
        self._defs: dict[int, Op] = {}  # SSA id -> defining op, for the ops loops.TRACKED lists
        self._attributes = AttributeReader(meshes)
        self._kinds: dict[str, _OpKind] = {}  # op name -> its kind
        # In a forked child (`parsed_reader._FunctionReader._encoded_share`): placeholder id -> key of a
        # value an earlier share defines. Ids of a decoded share that stand for no value of it
        # leave holes in `_types` (placeholders, values of functions the child read); `_holes`
        # counts them.
        self._borrowed: dict[int, Any] = {}
        self._holes = 0
        self._forked = False  # whether forked children read some ops (`hespas_py.mlir.reader`)

    def read_all(self) -> dict[str, Function] | None:
        """Every function in module order, callees read before their first call site.

        `None` when two values had the same key (fewer keys than values): read again with
        exact keys.
        """
        for name in self._func_ops:
            self._function(name)
        if len(self._ids) + self._holes != len(self._types):
            return None
        return {name: self._functions[name] for name in self._func_ops}

    def op_names(self) -> set[str] | None:
        """The names of the ops read (regions included); None when forked children read some."""
        return None if self._forked else set(self._kinds)

    def _function(self, name: str) -> Function:
        done = self._functions.get(name)
        if done is not None:
            return done
        if name in self._in_progress:
            raise HespasError(f"{self._path}: recursive call of @{name} is not supported")
        op = self._func_ops.get(name)
        if op is None:
            raise HespasError(f"{self._path}: call of undefined function @{name}")
        self._in_progress.add(name)
        function_type = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        region = op.regions[0]
        if len(region.blocks) != 1:
            raise HespasError(f"{self._path}: @{name} has {len(region.blocks)} blocks; expected 1")
        args, arg_types, ops = self._body(region.blocks[0])
        function = Function(
            name=name,
            public=is_public(op),
            args=args,
            arg_types=arg_types,
            ops=ops,
            result_types=tuple(self._type(t) for t in function_type.results),
        )
        self._in_progress.discard(name)
        self._functions[name] = function
        return function

    def _body(self, block: ir.Block) -> tuple[tuple[int, ...], tuple[TensorType, ...], tuple[Op, ...]]:
        """A function body, as `_block` reads it (`hespas_py.mlir.reader` shares out long ones)."""
        return self._block(block)

    def _callee_region(self, callee: str) -> Region:
        """The body of ``callee`` as a region, one object shared by all its call sites."""
        region = self._call_regions.get(callee)
        if region is None:
            function = self._function(callee)
            region = self._call_regions[callee] = Region(function.args, function.arg_types, function.ops)
        return region

    def _type(self, mlir_type: ir.Type) -> TensorType:
        converted = self._type_cache.get(mlir_type)
        if converted is None:
            converted = self._type_cache[mlir_type] = self._convert_type(mlir_type)
        return converted

    def _convert_type(self, t: ir.Type) -> TensorType:
        if isinstance(t, ir.RankedTensorType):
            shape = tuple(-1 if d < 0 else d for d in t.shape)
            return TensorType(shape, str(t.element_type))
        if isinstance(t, ir.TupleType):
            return TensorType((), "tuple", tuple(self._type(t.get_type(i)) for i in range(t.num_types)))
        if stablehlo.FutureType.isinstance(t):
            return TensorType((), "future", tuple(self._type(m) for m in stablehlo.FutureType(t).types))
        if stablehlo.TokenType.isinstance(t) or mhlo.TokenType.isinstance(t):
            return _TOKEN
        if isinstance(t, ir.UnrankedTensorType):
            return TensorType((), str(t.element_type))
        return TensorType((), str(t))

    def _kind(self, name: str) -> _OpKind:
        """The kind of ops named ``name``, cached."""
        kind = self._kinds[name] = _OpKind.of(name)
        return kind

    def _block(self, block: ir.Block) -> tuple[tuple[int, ...], tuple[TensorType, ...], tuple[Op, ...]]:
        """Arguments, their types and the converted ops of one block."""
        args, arg_types = self._arguments(block)
        return args, arg_types, tuple(self._ops(block.operations))

    def _arguments(self, block: ir.Block) -> tuple[tuple[int, ...], tuple[TensorType, ...]]:
        """The ids and types of a block's arguments, numbered now."""
        types = self._types
        first = len(types)
        arguments = list(block.arguments)  # each argument's object made once
        arg_types = tuple(map(self._type, [a.type for a in arguments]))
        types.extend(arg_types)
        args = tuple(range(first, len(types)))
        self._ids.update(zip(map(self._value_key, arguments), args, strict=True))
        return args, arg_types

    def _ops(self, views: Iterable[ir.OpView], start: int = 0) -> list[Op]:
        """The converted ops of ``views``, a block's ops from position ``start`` on.

        The hot loop of the reader: per op it reads the name, operands, regions and results once,
        and the attributes only where the op's kind (`_OpKind`, cached per name) calls for them.
        """
        ids, types, type_of, key = self._ids, self._types, self._type, self._value_key
        type_cache, kinds, defs = self._type_cache, self._kinds, self._defs
        id_of, type_at = ids.__getitem__, types.__getitem__
        ops = []
        for index, view in enumerate(views, start):
            op = view.operation  # a generated class (a dialect imported before) may shadow .name
            name = op.name
            kind = kinds.get(name) or self._kind(name)
            name = kind.name
            operands = tuple(map(id_of, map(key, op.operands)))
            attrs = self._attributes.read(name, op.attributes) if kind.has_attrs else _NO_ATTRS
            if len(op.regions):
                regions, captures, attrs = self._regions(op, name, operands, attrs)
            elif name == "func.call":
                regions, captures = (self._callee_region(attrs["callee"]),), ()
            else:
                regions = captures = ()
            first = len(types)
            result_ids: tuple[int, ...]
            result_types: tuple[TensorType, ...]
            result = None
            if kind.single:
                try:
                    result = op.result
                except ValueError:  # another number of results
                    self._kinds[name] = kind._replace(single=False)
            if result is not None:  # the common case, without building the result list
                result_type = result.type
                converted_type = type_cache.get(result_type) or type_of(result_type)
                types.append(converted_type)
                ids[key(result)] = first
                result_ids, result_types = (first,), (converted_type,)
            else:
                results = op.results
                result_types = tuple([type_of(t) for t in results.types])
                types.extend(result_types)
                result_ids = tuple(range(first, len(types)))
                ids.update(zip(map(key, results), result_ids, strict=True))
            converted = new_op(name, result_ids, operands, result_types, tuple(map(type_at, operands)),
                                attrs, regions, captures, index)
            if kind.tracked:
                for i in result_ids:
                    defs[i] = converted
            ops.append(converted)
        return ops

    def _regions(
        self, op: ir.Operation, name: str, operands: tuple[int, ...], attrs: dict[str, Any]
    ) -> tuple[tuple[Region, ...], tuple[int, ...], dict[str, Any]]:
        """An op's regions, the outer values they capture, and its attrs with ``trip_count``."""
        start = len(self._types)
        regions = []
        for region in op.regions:
            for block in region.blocks:
                regions.append(Region(*self._block(block)))
        borrowed = self._borrowed
        captured = {
            i
            for region in regions
            for inner in region.ops
            for i in (*inner.operands, *inner.captures)
            if i < start or i in borrowed
        }
        attrs = self._with_trip_count(name, operands, regions, attrs)
        return tuple(regions), tuple(sorted(captured)), attrs

    def _with_trip_count(self, name: str, operands: tuple[int, ...], regions: Sequence[Region],
                         attrs: dict[str, Any]) -> dict[str, Any]:
        """``attrs`` of a ``while`` with its ``trip_count`` when static; ``attrs`` otherwise."""
        if name in _WHILE and len(regions) == 2:
            count = trip_count(operands, regions[0], regions[1], self._defs)
            if count is not None:
                return {**attrs, "trip_count": count}
        return attrs


class OutlineWalk(FunctionWalk):
    """The walk of `FunctionWalk` keeping only op names, indices, call targets and the regions
    of the ops in `analyze.EXPANDED`; never forked (it is fast enough alone)."""

    def _block(self, block: ir.Block) -> tuple[tuple[int, ...], tuple[TensorType, ...], tuple[Op, ...]]:
        from hespas_py.mlir.analyze import EXPANDED  # the histogram's module: not the full read's

        kinds, ops = self._kinds, []
        for index, view in enumerate(block.operations):
            op = view.operation
            name = op.name
            name = (kinds.get(name) or self._kind(name)).name
            attrs = _NO_ATTRS
            regions: tuple[Region, ...] = ()
            if name == "func.call":
                attrs = self._attributes.read(name, op.attributes)
                regions = (self._callee_region(attrs["callee"]),)
            elif name in EXPANDED:
                regions = tuple(Region(*self._block(block)) for region in op.regions
                                for block in region.blocks)
            ops.append(new_op(name, (), (), (), (), attrs, regions, (), index))
        return (), (), tuple(ops)
