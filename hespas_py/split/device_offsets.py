"""Which part of a sliced collective result is each device's: the offset a ``dynamic_slice`` takes,
worked out from the device id as XLA's ``MatchReduceScatter`` does (`hespas_py.split.rewrites`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hespas_py.mlir.ops import DTYPE_BYTES, Op, scalar_int

_VIEWS = frozenset({"reshape", "bitcast", "copy"})
_INDEX_TYPES = frozenset({"i32", "ui32"})
#: Maps (op defining an index, device id) to the index that op yields on that device, or -1.
IdMap = Callable[[Op, int], int]


class Producers:
    """The op defining each value of a sequence (then of the sequences around it), worked out
    on the first look-up: most sequences have no candidate and never ask."""

    def __init__(self, ops: Sequence[Op | None], outer: Producers | None) -> None:
        self._ops, self._outer = ops, outer
        self._found: dict[int, Op] | None = None

    def get(self, value: int) -> Op | None:
        if self._found is None:
            self._found = {v: op for op in self._ops if op is not None for v in op.results}
        found = self._found.get(value)
        return found if found is not None or self._outer is None else self._outer.get(value)


class Offsets:
    """``IsPerIdOffset``: whether a slice offset is ``j * shard`` on device j of every group."""

    def __init__(self, producer: Producers, id_map: IdMap,
                 groups: Sequence[Sequence[int]], group_size: int, iota_group: bool) -> None:
        self.producer, self.id_map, self.group_size = producer, id_map, group_size
        self.devices = ([tuple(range(group_size))] if iota_group or not groups
                        else [tuple(g) for g in groups])
        self.iota_group = iota_group

    def per_id(self, value: int, shard: int) -> bool:
        op = self.producer.get(value)
        if op is None:
            return False
        name = op.short_name
        if name == "multiply":
            return self._multiply(op, shard)
        if shard == 1 and self.iota_group and all(self.id_map(op, i) == i
                                                  for i in range(self.group_size)):
            return True
        if name in _VIEWS or (name == "convert" and _widening(op)):
            return self.per_id(op.operands[0], shard)
        if name == "clamp":
            low, high = (scalar_int(self.producer.get(v)) for v in (op.operands[0], op.operands[2]))
            if low != 0 or high is None or high < (self.group_size - 1) * shard:
                return False
            return self.per_id(op.operands[1], shard)
        if name == "subtract":
            return self._subtract(op, shard)
        lookup = self._lookup(op)
        if lookup is not None:
            return self._each(lambda i: self._entry(lookup, i), shard)
        return self._each(lambda i: self.id_map(op, i), shard)

    def _each(self, value_on: Callable[[int], int | None], shard: int) -> bool:
        return all(value_on(device) == shard * j for group in self.devices
                   for j, device in enumerate(group))

    def _multiply(self, op: Op, shard: int) -> bool:
        if any(d != 1 for d in op.result_types[0].shape):
            return False
        for k in (0, 1):
            constant = self.producer.get(op.operands[k])
            if constant is not None and constant.short_name == "constant":
                factor = scalar_int(constant)
                if not factor or shard % factor:
                    return False
                return self.per_id(op.operands[1 - k], shard // factor)
        return False

    def _subtract(self, op: Op, shard: int) -> bool:
        """``(id * c) - table[id]``, one id on both sides."""
        product = self.producer.get(op.operands[0])
        lookup = self._lookup(self.producer.get(op.operands[1]))
        if product is None or product.short_name != "multiply" or lookup is None:
            return False
        factors = [scalar_int(self.producer.get(v)) for v in product.operands]
        k = 0 if factors[0] is not None else 1
        factor = factors[k]
        if factor is None or factor <= 0:
            return False
        index = self._through_convert(lookup.operands[1])
        if index != self._through_convert(product.operands[1 - k]):
            return False
        return self._each(lambda i: _minus(factor * i, self._entry(lookup, i)), shard)

    def _through_convert(self, value: int) -> int:
        op = self.producer.get(value)
        return op.operands[0] if op is not None and op.short_name == "convert" else value

    def _lookup(self, op: Op | None) -> Op | None:
        """``IsTableLookup``: the ``dynamic_slice`` of a 1-D integer table, or None."""
        while op is not None and op.short_name in _VIEWS:
            op = self.producer.get(op.operands[0])
        if op is None or op.short_name != "dynamic_slice" or len(op.operands) != 2:
            return None
        table = self.producer.get(op.operands[0])
        kind = op.operand_types[0]
        if table is None or table.short_name not in ("constant", "iota") or len(kind.shape) != 1 \
                or kind.dtype not in _INDEX_TYPES:
            return None
        return op

    def _entry(self, lookup: Op, device: int) -> int | None:
        """The table entry ``lookup`` reads on ``device``."""
        index = self._index(lookup.operands[1], device)
        table = self.producer.get(lookup.operands[0])
        assert table is not None, "`_lookup` found the table"
        size = lookup.operand_types[0].shape[0]
        if index is None or not 0 <= index < size:
            return None
        if table.short_name == "iota":
            return index
        elements = table.attrs.get("elements")
        if elements is not None:
            return elements[index]
        return scalar_int(table)

    def _index(self, value: int, device: int) -> int | None:
        """``GetIndexForId``: the index a value holds on ``device``, or None."""
        op = self.producer.get(value)
        if op is None:
            return None
        mapped = self.id_map(op, device)
        if mapped >= 0:
            return mapped
        lookup = self._lookup(op)
        return None if lookup is None else self._entry(lookup, device)


def _minus(a: int, b: int | None) -> int | None:
    return None if b is None else a - b


def _widening(op: Op) -> bool:
    """An integer ``convert`` to a type at least as wide."""
    source, target = op.operand_types[0].dtype, op.result_types[0].dtype
    return (all(t.startswith(("i", "ui")) and t != "index" for t in (source, target))
            and DTYPE_BYTES.get(source, 8) <= DTYPE_BYTES.get(target, 0))

