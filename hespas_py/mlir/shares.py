"""Carrying the ops a forked child read (one share of a long function body) back to the parent.

Why and how: docs/mlir.md.
"""

from __future__ import annotations

import itertools
import marshal
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hespas_py.mlir.loops import TRACKED
from hespas_py.mlir.ops import Op, Region, TensorType, new_op


class Borrowing(dict):
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


def _encode_type(t: TensorType) -> tuple:
    return (t.shape, t.dtype, tuple(map(_encode_type, t.elements)))


def _decode_type(encoded: tuple) -> TensorType:
    shape, dtype, elements = encoded
    return TensorType(shape, dtype, tuple(map(_decode_type, elements)))


class ShareEncoder:
    """Encodes a child's ops chunk by chunk; ``ids`` (a `Borrowing`), ``types`` and ``borrowed``
    are the child reader's, as they grow."""

    def __init__(self, ids: Borrowing, types: list, borrowed: dict[int, Any]) -> None:
        self._ids, self._types, self._borrowed = ids, types, borrowed
        self._type_index = {id(None): -1}       # id(TensorType) -> its index in the decoder's table
        self._attrs_index: dict[int, int] = {}  # id(attribute dict) -> likewise
        self._attrs_sent: list[Mapping[str, Any]] = []  # keeps those ids from being reused
        self._types_sent = len(types)           # ids below have their types sent (or are not ours)
        self._keys_seen = len(ids)              # entries of ids already looked at
        self._borrowed_sent = 0

    def chunk(self, ops: Sequence[Op]) -> bytes:
        """The next chunk: ``ops`` and what the decoder needs to know first."""
        new_types: list[tuple] = []
        new_attrs: list[dict[str, Any]] = []  # marshalled: the reader's attrs are dicts
        defined: list[int] = []  # ids the ops and their regions define (not those of a function
        # the child read first: the parent reads it again)

        def encode(op: Op) -> tuple:
            attrs = self._attrs_index.get(id(op.attrs))
            if attrs is None:
                attrs = self._attrs_index[id(op.attrs)] = len(self._attrs_sent)
                self._attrs_sent.append(op.attrs)
                new_attrs.append(op.attrs)  # type: ignore[arg-type]
            regions: Any = op.regions
            calls = op.name == "func.call"
            if calls:
                regions = op.attrs["callee"]
            elif regions:
                for region in regions:
                    defined.extend(region.args)
                regions = tuple((r.args, tuple(map(encode, r.ops))) for r in regions)
                calls = any(inner[-1] for _, encoded in regions for inner in encoded)
            defined.extend(op.results)
            return (op.name, op.results, op.operands, attrs, regions, op.captures, op.index, calls)

        records = tuple(map(encode, ops))
        values = self._types[self._types_sent:]  # types of the ids allocated since the last chunk
        self._types_sent = len(self._types)
        for key, t in {id(t): t for t in values}.items():
            if key not in self._type_index:
                self._type_index[key] = len(self._type_index) - 1
                new_types.append(_encode_type(t))
        value_types = tuple(map(self._type_index.__getitem__, map(id, values)))
        key_of = {i: key for key, i in itertools.islice(self._ids.items(), self._keys_seen, None)}
        self._keys_seen = len(self._ids)
        keys = tuple(map(key_of.__getitem__, defined))  # KeyError: two values hashed alike
        borrowed = tuple(itertools.islice(self._borrowed.items(), self._borrowed_sent, None))
        self._borrowed_sent = len(self._borrowed)
        return marshal.dumps((records, tuple(new_types), value_types, keys, tuple(defined),
                              borrowed, tuple(new_attrs)))


class ShareDecoder:
    """Appends the ops of one child's chunks to ``ops``, numbered in the parent's ids.

    ``ids``, ``types`` and ``defs`` are the parent reader's value ids, types and tracked
    definitions, which decoding extends; ``interned`` maps each type to its one object;
    ``callee_region`` gives the body of a called function (reading it if need be) and
    ``with_trip_count`` a while loop's attrs with its trip count.
    """

    def __init__(self, first_id: int, start: int, ops: list[Op], *, ids: dict[Any, int],
                 types: list, defs: dict[int, Op], interned: dict[TensorType, TensorType],
                 callee_region: Callable[[str], Region],
                 with_trip_count: Callable[[str, tuple[int, ...], Sequence[Region], dict], dict]
                 ) -> None:
        self._first_id, self._ops = first_id, ops
        self._ids, self._types, self._defs, self._interned = ids, types, defs, interned
        self._callee_region, self._with_trip_count = callee_region, with_trip_count
        self._delta = max(0, len(types) - first_id)  # how far earlier shares overran
        self.holes = first_id + self._delta - len(types)  # ids that stand for no value
        types.extend([None] * self.holes)
        self._type_table: list[TensorType] = []
        self._attrs_table: list[dict[str, Any]] = []
        self._resolved: dict[int, int] = {}  # placeholder -> the parent's id
        self._deferred: list[tuple[int, tuple]] = []  # (position in ops, record) of callers
        self._types_end = len(types)  # where the next chunk's values go
        self._decode = self._decoder()
        self.next_index = start  # body position of the first op not decoded

    def add(self, data: bytes) -> bool:
        """Decode one chunk; False (and nothing changed) when it cannot be decoded: a value it
        took from an earlier share is unknown, or the parent numbered values in between."""
        records, new_types, value_types, keys, defined, borrowed, new_attrs = marshal.loads(data)
        ids, types, delta = self._ids, self._types, self._delta
        if len(types) != self._types_end:
            return False
        try:
            resolved = {i: ids[key] for i, key in borrowed}
        except KeyError:
            return False
        self._resolved.update(resolved)
        self._type_table += [self._interned.setdefault(t, t) for t in map(_decode_type, new_types)]
        self._attrs_table += new_attrs
        table = self._type_table
        types.extend([table[i] if i >= 0 else None for i in value_types])
        self._types_end = len(types)
        self.holes += len(value_types) - len(defined)
        ids.update(zip(keys, [i + delta for i in defined] if delta else defined, strict=True))
        ops, decode, deferred = self._ops, self._decode, self._deferred
        for record in records:
            if record[-1] and record[0] not in TRACKED:  # calls a function: built by finish
                deferred.append((len(ops), record))
                ops.append(None)  # type: ignore[arg-type]
            else:
                ops.append(decode(record))
        self.next_index += len(records)
        return True

    def finish(self) -> None:
        """Build the ops that call functions (see the module docstring)."""
        for position, record in self._deferred:
            self._ops[position] = self._decode(record)

    def _decoder(self) -> Callable[[tuple], Op]:
        """The function turning one encoded record into an op (its regions' ops included)."""
        first_id, delta, resolved, defs = self._first_id, self._delta, self._resolved, self._defs
        type_at, placeholders = self._types.__getitem__, resolved.keys()
        attrs_table = self._attrs_table

        def renumber(values: tuple[int, ...]) -> tuple[int, ...]:
            if not delta and placeholders.isdisjoint(values):
                return values
            return tuple([i if i < first_id else resolved[i] if i in resolved else i + delta
                          for i in values])

        def decode(record: tuple) -> Op:
            name, results, operands, attrs_index, regions, captures, index, _ = record
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
            op = new_op(name, results, operands, tuple(map(type_at, results)),
                         tuple(map(type_at, operands)), attrs, regions, captures, index)
            if name in TRACKED:
                for i in results:
                    defs[i] = op
            return op

        return decode
