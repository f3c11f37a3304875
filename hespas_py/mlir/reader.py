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
Module ``N`` of a file that holds several is read with ``load_module(path, module=N)``, each in
turn with `load_modules`. Ops of dialects outside `MODELED_DIALECTS` (another toolchain's) are
read like any other, and warned about once per dialect.

A function body of at least ``2 * _OPS_PER_JOB`` top-level ops is walked in shares by forked
processes, one per usable CPU (`hespas_py.forking`; ``HESPAS_JOBS=1`` walks it here alone). The
module read is the same either way, except that SSA ids may then skip some numbers.

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
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from hespas_py import forking
from hespas_py.errors import HespasError
from hespas_py.forking import Forked, max_jobs
from hespas_py.gc_pause import gc_paused
from hespas_py.mlir.analyze import EXPANDED
from hespas_py.mlir.attrs import OPS_WITH_ATTRIBUTES, AttributeReader, UnreadableAttribute
from hespas_py.mlir.bindings import ir, mhlo, stablehlo
from hespas_py.mlir.loops import TRACKED, trip_count
from hespas_py.mlir.meshes import Mesh, read_meshes
from hespas_py.mlir.ops import (MODELED_DIALECTS, Function, Module, Op, Region, TensorType,
                                dialect, new_op, op_names)
from hespas_py.mlir.shares import Borrowing, ShareDecoder, ShareEncoder
from hespas_py.mlir.source import (ParsedModule, entry_name, func_ops, is_public, module_name,
                                   parse_file, parse_modules)

_NO_ATTRS: dict[str, Any] = {}
log = logging.getLogger(__name__)


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
#: Top-level ops a forked reader sends per chunk.
_OPS_PER_CHUNK = 8192


def load_module(path: str | Path, *, outline: bool = False, module: int | None = None) -> Module:
    """Read the module in ``path`` (module ``module``, from 1, of a file that holds several:
    `hespas_py.mlir.source`); raise `HespasError` ("<file>: <problem>") for bad input.

    ``outline``: read op names and nesting only (see the module docstring).
    """
    with gc_paused():
        return _read(parse_file(path, module), outline)


def load_modules(path: str | Path, *, outline: bool = False) -> Iterator[Module]:
    """Every module of ``path`` in file order (one for most files), each read when asked for."""
    for parsed in parse_modules(path):
        with gc_paused():
            read = _read(parsed, outline)
        yield read


def _read(parsed: ParsedModule, outline: bool) -> Module:
    name = parsed.label
    module = parsed.module
    meshes = read_meshes(module)
    reader = _OutlineReader if outline else _FunctionReader
    try:
        functions = reader(name, module, meshes, hash).read_all()
        if functions is None:  # two values hashed alike: number them by the values themselves
            functions = reader(name, module, meshes, _same).read_all()
    except UnreadableAttribute as error:
        raise HespasError(f"{name}: {error}") from None
    warnings = (*parsed.warnings, *_dialect_warnings(name, functions.values(), parsed.unregistered))
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    attributes = module.operation.attributes
    return Module(
        path=name,
        entry=entry_name(name, {f.name: f.public for f in functions.values()}),
        functions=functions,
        num_replicas=_count_attribute(name, attributes, "mhlo.num_replicas"),
        num_partitions=_count_attribute(name, attributes, "mhlo.num_partitions"),
        mesh=dict(next(iter(meshes.values())).axes) if meshes else {},
        name=module_name(module),
        warnings=warnings,
        outline=outline,
    )


def _dialect_warnings(path: str, functions: Iterable[Function],
                      unregistered: Sequence[str]) -> list[str]:
    """One warning per dialect outside `MODELED_DIALECTS`: those with ops (opaque to every later
    stage), then those the parser did not know that only attributes or types use."""
    by_dialect: dict[str, list[str]] = {}
    for name in sorted(op_names(f.ops for f in functions)):
        if dialect(name) not in MODELED_DIALECTS:
            by_dialect.setdefault(dialect(name), []).append(name)
    warnings = [
        f"{path}: dialect {name} is unknown to hespas: its ops ({', '.join(ops)}) are opaque, "
        "costed by the memory-bound fallback (operand + result bytes) and listed under "
        "fallback_ops" for name, ops in by_dialect.items()]
    warnings += [f"{path}: read with unregistered dialect {name} allowed; its attributes and "
                 "types are ignored" for name in unregistered if name not in by_dialect]
    return warnings


def _same(value: ir.Value) -> ir.Value:
    return value


def _count_attribute(path: str, attributes: Any, name: str) -> int | None:
    """A device-count attribute of the module as stated (None when absent); `HespasError` when
    it is not an integer."""
    if name not in attributes:
        return None
    attribute = attributes[name]
    if not isinstance(attribute, ir.IntegerAttr):
        raise HespasError(f"{path}: {name} = {attribute} is not an integer")
    return attribute.value


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
        (the first share) and forked children (`hespas_py.forking`, `hespas_py.mlir.shares`).

        A child numbers its values from an id that leaves `_IDS_PER_OP` ids for each op before
        its share, so its ids usually stand as they are. What a child could not send (it failed,
        or a chunk could not be decoded) is read here.
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
            decoder = ShareDecoder(first_id, start, ops, ids=self._ids, types=self._types,
                                   defs=self._defs,
                                   interned={t: t for t in self._type_cache.values()},
                                   callee_region=self._callee_region,
                                   with_trip_count=self._with_trip_count)
            chunks = child.chunks()
            for chunk in chunks:
                if not decoder.add(chunk):
                    chunks.close()  # kills the child
                    break
            decoder.finish()
            self._holes += decoder.holes
            if decoder.next_index < stop:
                log.debug("%s: forked reader of ops %d-%d stopped at %d; reading the rest here",
                          self._path, start, stop, decoder.next_index)
                ops += self._ops(itertools.islice(block.operations, decoder.next_index, stop),
                                 decoder.next_index)
        return args, arg_types, tuple(ops)

    def _encoded_share(self, block: ir.Block, start: int, stop: int, first_id: int) -> Iterator[bytes]:
        """In a forked child: ops ``start:stop`` of ``block`` (the parent reads those before
        them), values numbered from ``first_id``, encoded a chunk at a time (`ShareEncoder`)."""
        types = self._types
        types.extend([None] * (first_id - len(types)))
        self._ids = Borrowing(self._ids, types, self._borrowed)
        encoder = ShareEncoder(self._ids, types, self._borrowed)
        views = itertools.islice(block.operations, start, stop)
        for chunk_start in range(start, stop, _OPS_PER_CHUNK):
            yield encoder.chunk(self._ops(itertools.islice(views, _OPS_PER_CHUNK), chunk_start))

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


class _OutlineReader(_FunctionReader):
    """The walk of `_FunctionReader` keeping only op names, indices, call targets and the regions
    of the ops in `analyze.EXPANDED`; never forked (it is fast enough alone)."""

    def _body(self, block: ir.Block) -> tuple[tuple[int, ...], tuple[TensorType, ...], tuple[Op, ...]]:
        return self._block(block)

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
            ops.append(new_op(name, (), (), (), (), attrs, regions, (), index))
        return (), (), tuple(ops)
