"""A parsed StableHLO module read into the plain-Python ops of `hespas_py.mlir.ops` (what each
op carries: `hespas_py.mlir.reader`).

A function body of at least ``2 * _OPS_PER_JOB`` top-level ops is walked in shares by forked
processes, one per usable CPU (`hespas_py.forking`; ``HESPAS_JOBS=1`` walks it here alone). The
module read is the same either way, except that SSA ids may then skip some numbers.
"""

from __future__ import annotations

import functools
import itertools
import logging
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from hespas_py import forking
from hespas_py.errors import HespasError
from hespas_py.forking import Forked, max_jobs
from hespas_py.gc_pause import gc_paused
from hespas_py.mlir.aliases import read_aliases
from hespas_py.mlir.attrs import UnreadableAttribute
from hespas_py.mlir.bindings import generic_op_views, ir
from hespas_py.mlir.meshes import read_meshes
from hespas_py.mlir.ops import (
    MODELED_DIALECTS,
    Module,
    Op,
    TensorType,
    dialect,
    op_names,
)
from hespas_py.mlir.shares import Borrowing, ShareDecoder, ShareEncoder
from hespas_py.mlir.source import ParsedModule, entry_name, module_name
from hespas_py.mlir.walk import FunctionWalk, OutlineWalk

log = logging.getLogger(__name__)

#: Fewest top-level ops of a function body worth a forked reader (`_FunctionReader._body`).
_OPS_PER_JOB = 25_000
#: Length of the parent's share against a child's: a child also skips to its share and encodes it.
_PARENT_WEIGHT = 1.3
#: Ids set aside per op before a child's share (values defined there, nested ones included).
_IDS_PER_OP = 4
#: Top-level ops a forked reader sends per chunk.
_OPS_PER_CHUNK = 8192



def read_parsed(parsed: ParsedModule, outline: bool) -> Module:
    """The plain-Python `Module` of a parsed one (its warnings not printed)."""
    with gc_paused(), generic_op_views():
        return _read(parsed, outline)


def _read(parsed: ParsedModule, outline: bool) -> Module:
    name = parsed.label
    module = parsed.module
    meshes = read_meshes(module, name)
    reader = OutlineWalk if outline else _FunctionReader
    try:
        walk = reader(name, module, meshes, hash)
        functions = walk.read_all()
        if functions is None:  # two values hashed alike: number them by the values themselves
            walk = reader(name, module, meshes, _same)
            functions = walk.read_all()
            assert functions is not None, "exact keys never collide"
    except UnreadableAttribute as error:
        raise HespasError(f"{name}: {error}") from None
    names = walk.op_names()
    if names is None:
        names = op_names(f.ops for f in functions.values())
    warnings = (*parsed.warnings, *_dialect_warnings(name, names, parsed.unregistered))
    attributes = module.operation.attributes
    entry = entry_name(name, {f.name: f.public for f in functions.values()})
    return Module(
        path=name,
        entry=entry,
        functions=functions,
        num_replicas=_count_attribute(name, attributes, "mhlo.num_replicas"),
        num_partitions=_count_attribute(name, attributes, "mhlo.num_partitions"),
        mesh=dict(next(iter(meshes.values())).axes) if meshes else {},
        name=module_name(module),
        warnings=warnings,
        outline=outline,
        aliases={} if outline else read_aliases(module, entry),
    )


def _dialect_warnings(path: str, names: Iterable[str],
                      unregistered: Sequence[str]) -> list[str]:
    """One warning per dialect outside `MODELED_DIALECTS`: those with ops (opaque to every later
    stage; ``names``: the module's op names), then those the parser did not know that only
    attributes or types use."""
    by_dialect: dict[str, list[str]] = {}
    for name in sorted(names):
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


class _FunctionReader(FunctionWalk):
    """The full walk, sharing a long function body out between this process and forked ones."""

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
                    for (start, stop), first_id in zip(shares[1:], first_ids[1:], strict=True)]
        self._forked = True
        ops = self._ops(itertools.islice(block.operations, shares[0][1]))
        for child, (start, stop), first_id in zip(children, shares[1:], first_ids[1:], strict=True):
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
        types.extend([None] * (first_id - len(types)))  # type: ignore[list-item]
        self._ids = Borrowing(self._ids, types, self._borrowed)
        encoder = ShareEncoder(self._ids, types, self._borrowed)
        views = itertools.islice(block.operations, start, stop)
        for chunk_start in range(start, stop, _OPS_PER_CHUNK):
            yield encoder.chunk(self._ops(itertools.islice(views, _OPS_PER_CHUNK), chunk_start))
