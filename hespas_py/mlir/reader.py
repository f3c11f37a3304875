"""Read a StableHLO module (text, MLIR bytecode or VHLO portable artifact) into plain-Python ops.

`load_module` parses with jaxlib's MLIR bindings (`hespas_py.mlir.source`) and walks the module
once, producing the frozen dataclasses of `hespas_py.mlir.ops`; no live MLIR object leaks out.

What each op carries:

* ``name``, SSA ``results``/``operands`` as small integers unique in the module (function and
  region arguments included), their types (tuples, tokens and ``!stablehlo.future`` included).
* ``attrs`` for the op kinds later stages read: the keys `hespas_py.mlir.attrs` lists
  (``replica_groups`` as tuples of device ids, the ``#stablehlo.replica_group_mesh_axes`` form
  expanded against its mesh; ``value`` for scalar and splat constants only), plus ``trip_count``
  (``while`` with a constant bound, `hespas_py.mlir.loops`). Ops of other kinds carry an empty
  mapping; treat ``attrs`` as read-only.
* ``regions``: while = (cond, body); case/if = one per branch; fusion, reducers and
  ``sdy.manual_computation`` = their body (the latter with per-device shapes). A ``func.call``
  gets its callee's body as its single region (the same `Region` object at every call site,
  its ``args`` being the callee's argument ids).
* ``captures``: ids defined outside an op's regions and read inside them.

The entry function is ``main``, else the single public function; anything else is a `HespasError`.

``load_module(path, outline=True)`` reads only what an op histogram needs: names, ``index``, call
targets (``attrs`` holds ``callee`` for ``func.call`` and nothing else) and the regions the
histogram expands (`analyze.EXPANDED`: calls, fusions, manual computations, control flow; reducer
bodies are left out). SSA ids, types and captures stay empty, so the walk costs a fraction of a
full read; `Module.outline` marks such a module and the splitter refuses it.
"""

from __future__ import annotations

import functools
import itertools
import logging
import marshal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from hespas_py.errors import HespasError
from hespas_py.fast_init import fast_constructor
from hespas_py import forking
from hespas_py.forking import Forked, max_jobs
from hespas_py.gc_pause import gc_paused
from hespas_py.mlir.analyze import EXPANDED
from hespas_py.mlir.attrs import OPS_WITH_ATTRIBUTES, AttributeReader, UnreadableAttribute
from hespas_py.mlir.bindings import ir, mhlo, stablehlo
from hespas_py.mlir.loops import TRACKED, trip_count
from hespas_py.mlir.meshes import Mesh, read_meshes
from hespas_py.mlir.ops import Function, Module, Op, Region, TensorType
from hespas_py.mlir.source import entry_name, func_ops, is_public, parse_file

_NO_ATTRS: dict[str, Any] = {}
log = logging.getLogger(__name__)


_new_op = fast_constructor(Op)


@dataclass(frozen=True, slots=True)
class _OpKind:
    """What the reader needs to know about every op of one kind, worked out once per kind.

    Attributes:
        name: the op name.
        has_attrs: whether its attributes are read (`attrs.OPS_WITH_ATTRIBUTES`).
        tracked: whether `loops.trip_count` may need to find the op from its results.
        may_have_regions: False when the op's definition allows no regions at all.
    """

    name: str
    has_attrs: bool
    tracked: bool
    may_have_regions: bool

    @classmethod
    def of(cls, name: str, may_have_regions: bool) -> "_OpKind":
        return cls(name, name in OPS_WITH_ATTRIBUTES, name in TRACKED, may_have_regions)


_WHILE = frozenset({"stablehlo.while", "mhlo.while"})
_TOKEN = TensorType((), "token")
#: Fewest top-level ops of a function body worth a forked reader (`_FunctionReader._body`).
_OPS_PER_JOB = 25_000
#: Length of the parent's share against a child's: a child also skips to its share and encodes it.
_PARENT_WEIGHT = 1.3
#: Ids set aside per op before a child's share (values defined there, nested ones included).
_IDS_PER_OP = 4



def _encode_type(t: TensorType) -> tuple:
    return (t.shape, t.dtype, tuple(map(_encode_type, t.elements)))


def _decode_type(encoded: tuple) -> TensorType:
    shape, dtype, elements = encoded
    return TensorType(shape, dtype, tuple(map(_decode_type, elements)))


class _Borrowing(dict):
    """Value key -> SSA id in a forked child: a key it has not met is a value of an earlier
    share, which gets a placeholder id (a hole in ``types``) recorded in ``borrowed``."""

    def __init__(self, ids: dict[Any, int], types: list, borrowed: dict[int, Any]) -> None:
        super().__init__(ids)
        self._types = types
        self._borrowed = borrowed

    def __missing__(self, key: Any) -> int:
        i = self[key] = len(self._types)
        self._types.append(None)
        self._borrowed[i] = key
        return i


def load_module(path: str | Path, *, outline: bool = False) -> Module:
    """Read the module in ``path``; raise `HespasError` ("<file>: <problem>") for bad input.

    ``outline``: read op names and nesting only (see the module docstring).
    """
    with gc_paused():
        return _load(path, outline)


def _load(path: str | Path, outline: bool) -> Module:
    parsed = parse_file(path)
    for warning in parsed.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    name = str(path)
    module = parsed.module
    meshes = read_meshes(module)
    reader = _OutlineReader if outline else _FunctionReader
    try:
        functions = reader(name, module, meshes, hash).read_all()
        if functions is None:  # two values hashed alike: number them by the values themselves
            functions = reader(name, module, meshes, _same).read_all()
    except UnreadableAttribute as error:
        raise HespasError(f"{name}: {error}") from None
    attributes = module.operation.attributes
    return Module(
        path=name,
        entry=entry_name(name, {f.name: f.public for f in functions.values()}),
        functions=functions,
        num_replicas=_int_attribute(attributes, "mhlo.num_replicas"),
        num_partitions=_int_attribute(attributes, "mhlo.num_partitions"),
        mesh=dict(next(iter(meshes.values())).axes) if meshes else {},
        warnings=parsed.warnings,
        outline=outline,
    )


def _same(value: ir.Value) -> ir.Value:
    return value


def _int_attribute(attributes: Any, name: str) -> int:
    return attributes[name].value if name in attributes else 1


class _FunctionReader:
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
        self._kinds: dict[type, _OpKind] = {}  # op-view class -> its kind (registered ops only)
        # In a forked child (`_encoded_share`): placeholder id -> key of a value an earlier share
        # defines. Ids of a decoded share that stand for no value of it leave holes in `_types`
        # (placeholders, values of functions the child read); `_holes` counts them.
        self._borrowed: dict[int, Any] = {}
        self._holes = 0

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
        function_type = op.attributes["function_type"].value
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
        """A function body as `_block` reads it; a long one is shared out between this process
        (the first share) and forked children (`hespas_py.forking`), whose ops come back encoded.

        A child numbers its values from an id that leaves `_IDS_PER_OP` ids for each op before
        its share, so its ids usually stand as they are; decoding shifts them only past what the
        earlier shares defined beyond that, and resolves the placeholders of values the child
        took from earlier shares (`_Borrowing`). A child that fails has its share read here.
        """
        jobs = max_jobs() if self._value_key is hash else 1
        if jobs < 2 or (count := len(block.operations)) < 2 * _OPS_PER_JOB:
            return self._block(block)
        args, arg_types = self._arguments(block)
        shares = forking.shares(count, min(jobs, count // _OPS_PER_JOB), _PARENT_WEIGHT)
        first_ids = [len(self._types) + _IDS_PER_OP * start for start, _ in shares]
        children = [Forked(functools.partial(self._encoded_share, block, start, stop, first_id))
                    for (start, stop), first_id in zip(shares[1:], first_ids[1:])]
        ops = self._ops(itertools.islice(block.operations, shares[0][1]))
        for child, (start, stop), first_id in zip(children, shares[1:], first_ids[1:]):
            data = child.result()
            decoded = None if data is None else self._decoded_share(first_id, marshal.loads(data))
            if decoded is None:
                log.debug("%s: forked reader of ops %d-%d failed; reading them here", self._path,
                          start, stop)
                decoded = self._ops(itertools.islice(block.operations, start, stop), start)
            ops += decoded
        return args, arg_types, tuple(ops)

    def _encoded_share(self, block: ir.Block, start: int, stop: int, first_id: int) -> bytes:
        """Ops ``start:stop`` of ``block`` (the parent reads those before them), read in a forked
        child with values numbered from ``first_id``, encoded for `_decoded_share` (marshal of
        plain tuples)."""
        types = self._types
        self._holes += first_id - len(types)
        types.extend([None] * (first_id - len(types)))
        self._ids = _Borrowing(self._ids, types, self._borrowed)
        ops = self._ops(itertools.islice(block.operations, start, stop), start)
        type_index: dict[int, int] = {}  # id(TensorType) -> its index in type_table
        type_table: list[tuple] = []
        attrs_index: dict[int, int] = {}  # id(attribute dict) -> its index in attrs_table
        attrs_table: list[dict[str, Any]] = []
        defined: list[int] = []  # ids the share's ops and regions define (not those of a function
        # the child read: the parent reads it again)

        def encode_type(t: TensorType | None) -> int:
            if t is None:
                return -1
            index = type_index.get(id(t))
            if index is None:
                index = type_index[id(t)] = len(type_table)
                type_table.append(_encode_type(t))
            return index

        def encode(op: Op) -> tuple:
            index = attrs_index.get(id(op.attrs))
            if index is None:
                index = attrs_index[id(op.attrs)] = len(attrs_table)
                attrs_table.append(op.attrs)
            regions: Any = op.regions
            if op.name == "func.call":
                regions = op.attrs["callee"]
            elif regions:
                for r in regions:
                    defined.extend(r.args)
                regions = tuple((r.args, tuple(map(encode, r.ops))) for r in regions)
            defined.extend(op.results)
            return (op.name, op.results, op.operands, index, regions, op.captures, op.index)

        records = tuple(map(encode, ops))
        value_types = tuple(map(encode_type, types[first_id:]))
        key_of = {i: key for key, i in self._ids.items() if i >= first_id}
        keys = tuple(map(key_of.__getitem__, defined))  # KeyError: two values hashed alike
        return marshal.dumps((records, tuple(type_table), value_types, keys, tuple(defined),
                              self._borrowed, tuple(attrs_table)))

    def _decoded_share(self, first_id: int, payload: tuple) -> list[Op] | None:
        """The ops `_encoded_share` encoded into ``payload``, renumbered where earlier shares
        overran their ids; `None` when a value the child took from an earlier share is unknown
        (the caller then reads the share)."""
        records, type_table, value_types, keys, defined, borrowed, attrs_table = payload
        ids, types, defs = self._ids, self._types, self._defs
        try:
            resolved = {i: ids[key] for i, key in borrowed.items()}
        except KeyError:
            return None
        delta = max(0, len(types) - first_id)
        self._holes += first_id + delta - len(types) + len(value_types) - len(defined)
        types.extend([None] * (first_id + delta - len(types)))
        interned = {t: t for t in self._type_cache.values()}
        type_table = [interned.setdefault(t, t) for t in map(_decode_type, type_table)]
        types.extend([type_table[i] if i >= 0 else None for i in value_types])
        ids.update(zip(keys, [i + delta for i in defined] if delta else defined))
        type_at, placeholders = types.__getitem__, resolved.keys()

        def renumber(values: tuple[int, ...]) -> tuple[int, ...]:
            if not delta and placeholders.isdisjoint(values):
                return values
            return tuple([i if i < first_id else resolved[i] if i in resolved else i + delta
                          for i in values])

        def decode(record: tuple) -> Op:
            name, results, operands, attrs_index, regions, captures, index = record
            results, operands = renumber(results), renumber(operands)
            attrs = attrs_table[attrs_index]
            if regions.__class__ is str:
                regions = (self._callee_region(regions),)
            elif regions:
                regions = tuple(Region(args := renumber(a), tuple(map(type_at, args)),
                                       tuple(map(decode, inner))) for a, inner in regions)
                captures = tuple(sorted(renumber(captures)))
                if "trip_count" not in attrs:  # its child may have lacked an earlier share's defs
                    attrs = self._with_trip_count(name, operands, regions, attrs)
            op = _new_op(name, results, operands, tuple(map(type_at, results)),
                         tuple(map(type_at, operands)), attrs, regions, captures, index)
            if name in TRACKED:
                for i in results:
                    defs[i] = op
            return op

        return list(map(decode, records))

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

    def _kind(self, view: ir.OpView) -> _OpKind:
        """The kind of the op behind ``view``; cached per op-view class of registered ops."""
        view_class = type(view)
        if view_class is ir.OpView:  # no generated class (e.g. an unregistered op): no caching
            return _OpKind.of(view.operation.name, True)
        may_have_regions = getattr(view_class, "_ODS_REGIONS", None) != (0, True)
        kind = self._kinds[view_class] = _OpKind.of(view.operation.name, may_have_regions)
        return kind

    def _block(self, block: ir.Block) -> tuple[tuple[int, ...], tuple[TensorType, ...], tuple[Op, ...]]:
        """Arguments, their types and the converted ops of one block."""
        args, arg_types = self._arguments(block)
        return args, arg_types, tuple(self._ops(block.operations))

    def _arguments(self, block: ir.Block) -> tuple[tuple[int, ...], tuple[TensorType, ...]]:
        """The ids and types of a block's arguments, numbered now."""
        types = self._types
        first = len(types)
        arguments = block.arguments
        arg_types = tuple([self._type(a.type) for a in arguments])
        types.extend(arg_types)
        args = tuple(range(first, len(types)))
        self._ids.update(zip(map(self._value_key, arguments), args))
        return args, arg_types

    def _ops(self, views: Iterable[ir.OpView], start: int = 0) -> list[Op]:
        """The converted ops of ``views``, a block's ops from position ``start`` on.

        The hot loop of the reader: per op it reads the operands and results once, and the name,
        attributes and regions only where the op's kind (`_OpKind`, cached per class) calls for it.
        """
        ids, types, type_of, key = self._ids, self._types, self._type, self._value_key
        type_cache, kinds, defs = self._type_cache, self._kinds, self._defs
        id_of, type_at = ids.__getitem__, types.__getitem__
        ops = []
        for index, view in enumerate(views, start):
            kind = kinds.get(type(view)) or self._kind(view)
            name = kind.name
            op = view.operation
            operands = tuple(map(id_of, map(key, op.operands)))
            attrs = self._attributes.read(name, op.attributes) if kind.has_attrs else _NO_ATTRS
            if kind.may_have_regions and len(op.regions):
                regions, captures, attrs = self._regions(op, name, operands, attrs)
            elif name == "func.call":
                regions, captures = (self._callee_region(attrs["callee"]),), ()
            else:
                regions = captures = ()
            results = op.results
            first = len(types)
            if len(results) == 1:  # the common case, without building the result list
                result = results[0]
                result_type = result.type
                converted_type = type_cache.get(result_type) or type_of(result_type)
                types.append(converted_type)
                ids[key(result)] = first
                result_ids, result_types = (first,), (converted_type,)
            else:
                result_types = tuple([type_of(t) for t in results.types])
                types.extend(result_types)
                result_ids = tuple(range(first, len(types)))
                ids.update(zip(map(key, results), result_ids))
            converted = _new_op(name, result_ids, operands, result_types, tuple(map(type_at, operands)),
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
        return tuple(regions), tuple(sorted(captured)), self._with_trip_count(name, operands, regions, attrs)

    def _with_trip_count(self, name: str, operands: tuple[int, ...], regions: Sequence[Region],
                         attrs: dict[str, Any]) -> dict[str, Any]:
        """``attrs`` of a ``while`` with its ``trip_count`` when static; ``attrs`` otherwise."""
        if name in _WHILE and len(regions) == 2:
            count = trip_count(operands, regions[0], regions[1], self._defs)
            if count is not None:
                return {**attrs, "trip_count": count}
        return attrs


class _OutlineReader(_FunctionReader):
    """The walk of `_FunctionReader` keeping only op names, indices, call targets and the regions
    of the ops in `analyze.EXPANDED`."""

    def _block(self, block: ir.Block) -> tuple[tuple[int, ...], tuple[TensorType, ...], tuple[Op, ...]]:
        kinds, ops = self._kinds, []
        for index, view in enumerate(block.operations):
            name = (kinds.get(type(view)) or self._kind(view)).name
            attrs, regions = _NO_ATTRS, ()
            if name == "func.call":
                attrs = self._attributes.read(name, view.operation.attributes)
                regions = (self._callee_region(attrs["callee"]),)
            elif name in EXPANDED:
                regions = tuple(Region(*self._block(block)) for region in view.operation.regions
                                for block in region.blocks)
            ops.append(_new_op(name, (), (), (), (), attrs, regions, (), index))
        return (), (), tuple(ops)
