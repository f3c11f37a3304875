"""Cut a block out of its module as a standalone StableHLO module (for XLA to cost or run).

Why and how: docs/mlir.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from hespas_py.errors import HespasError
from hespas_py.mlir.bindings import ir
from hespas_py.mlir.ops import Op, TensorType
from hespas_py.mlir.source import entry_name, func_ops, is_public, parse_file, split_label

_MANUAL = "sdy.manual_computation"
#: Control flow whose bodies hold block ops when the splitter expands a loop or takes a branch.
_OPENED = frozenset({"while", "case", "if"})


def _walk(operation: ir.Operation) -> Iterator[ir.Operation]:
    """Every operation nested inside ``operation`` (not itself), depth first."""
    for region in operation.regions:
        for block in region.blocks:
            for op in block.operations:
                yield op.operation
                yield from _walk(op.operation)


def _captured(operation: ir.Operation) -> list[ir.Value]:
    """Values read inside ``operation``'s regions but defined outside it, in order of first use."""
    inside: set[ir.Value] = set()
    for op in _walk(operation):
        inside.update(op.results)
        for region in op.regions:
            for block in region.blocks:
                inside.update(block.arguments)
    for region in operation.regions:
        for block in region.blocks:
            inside.update(block.arguments)
    seen: dict[ir.Value, None] = {}
    for op in _walk(operation):
        for value in op.operands:
            if value not in inside:
                seen.setdefault(value, None)
    return list(seen)


def block_inputs(ops: Sequence[Op]) -> list[int]:
    """The values ``ops`` read and do not define, in order of first use (operands, then
    captures, op by op): the arguments of the extracted ``@main``, in order."""
    defined = {v for op in ops for v in op.results}
    return list(dict.fromkeys(v for op in ops for v in (*op.operands, *op.captures)
                              if v not in defined))


class BlockExtractor:
    """Standalone modules of blocks of one source file (parsed once)."""

    def __init__(self, path: str | Path) -> None:
        """``path``: the module's file, or its label (``<file>#N``, `hespas_py.mlir.source`)."""
        self.path = str(path)
        self.parsed = parse_file(*split_label(self.path))
        self.context = self.parsed.context
        self.functions = func_ops(self.parsed.module)
        entry = entry_name(self.path, {name: is_public(f) for name, f in self.functions.items()})
        self.bodies = self._bodies(entry)

    def _bodies(self, entry: str) -> list[list[ir.Operation]]:
        """Op lists of every body a block op can come from, entry function first."""
        names = [entry, *(n for n in self.functions if n != entry)]
        bodies: list[list[ir.Operation]] = []
        for name in names:
            if name in self.functions:
                _add_body(bodies, self.functions[name].regions[0].blocks[0])
        return bodies

    def source_op(self, op: Op) -> ir.Operation:
        """The live operation ``op`` was read from."""
        for body in self.bodies:
            if op.index < len(body):
                candidate = body[op.index]
                if candidate.name == op.name and _types(candidate.results) == _read_types(
                        op.result_types) and _types(candidate.operands) == _read_types(
                        op.operand_types):
                    return candidate
        raise HespasError(f"{self.path}: op {op.name} #{op.index} of the block not found in the "
                          "module it was read from")

    def extract(self, ops: Sequence[Op]) -> str:
        """A block's ``ops`` as a standalone module's text (``@main`` plus the functions it calls)."""
        return str(self.extract_module(ops))

    def extract_module(self, ops: Sequence[Op]) -> ir.Module:
        """A new module whose ``@main`` computes ``ops`` (see the module docstring)."""
        sources = [self.source_op(op) for op in ops]
        types: dict[int, ir.Type] = {}
        captured: list[list[ir.Value]] = []
        for op, source in zip(ops, sources, strict=True):
            values = _captured(source)
            if len(values) != len(op.captures):
                raise HespasError(f"{self.path}: {op.name} #{op.index} captures "
                                  f"{len(values)} values, the block says {len(op.captures)}")
            captured.append(values)
            types.update(zip(op.operands, (v.type for v in source.operands), strict=True))
            types.update(zip(op.captures, (v.type for v in values), strict=True))
        inputs = {value: types[value] for value in block_inputs(ops)}
        with self.context, ir.Location.unknown():
            module = ir.Module.create()
            function = ir.Operation.create("func.func", regions=1, attributes={
                "sym_name": ir.StringAttr.get("main")})
            entry = function.regions[0].blocks.append(*inputs.values())
            new_value = dict(zip(inputs, entry.arguments, strict=True))
            point = ir.InsertionPoint(entry)
            results: list[ir.Value] = []
            sources_set = set(sources)
            for op, source, values in zip(ops, sources, captured, strict=True):
                clone = source.clone(ip=point)
                for i, value in enumerate(op.operands):
                    clone.operands[i] = new_value[value]
                remap = {old: new_value[v] for old, v in zip(values, op.captures, strict=True)}
                for inner in _walk(clone):
                    for i, operand in enumerate(inner.operands):
                        if operand in remap:
                            inner.operands[i] = remap[operand]
                for value, old, new in zip(op.results, source.results, clone.results, strict=True):
                    new_value[value] = new
                    if _used_outside(old, sources_set):
                        results.append(new)
            if not results and ops:
                results = list(clone.results)
            point.insert(ir.Operation.create("func.return", operands=results))
            function.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
                [a.type for a in entry.arguments], [r.type for r in results]))
            body = ir.InsertionPoint(module.body)
            body.insert(function)
            for name in self._callees(function):
                self.functions[name].clone(ip=body)
        try:
            verified = module.operation.verify()
        except ir.MLIRError as error:
            raise HespasError(f"{self.path}: the extracted block does not verify: "
                              f"{str(error).splitlines()[0]}") from None
        if not verified:
            raise HespasError(f"{self.path}: the extracted block does not verify")
        return module

    def _callees(self, function: ir.Operation) -> list[str]:
        """Names of the functions ``function`` calls, transitively, in first-call order."""
        found: dict[str, None] = {}
        pending = [function]
        while pending:
            for op in _walk(pending.pop()):
                if op.name == "func.call":
                    name = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
                    if name not in found and name in self.functions:
                        found[name] = None
                        pending.append(self.functions[name])
        return list(found)


def _add_body(bodies: list[list[ir.Operation]], block: ir.Block) -> None:
    """Add ``block``'s ops to ``bodies``, then the bodies nested in them that the splitter opens
    up (manual computations, loop bodies, branches)."""
    ops = [op.operation for op in block.operations]
    bodies.append(ops)
    for op in ops:
        if op.name == _MANUAL or op.name.rpartition(".")[2] in _OPENED:
            for region in op.regions:
                _add_body(bodies, region.blocks[0])


def _types(values: Sequence[ir.Value]) -> list[tuple[tuple[int, ...], str | None]]:
    """(shape, element type) of each value as the reader records it (no element type for
    tokens, tuples and futures)."""
    out: list[tuple[tuple[int, ...], str | None]] = []
    for value in values:
        vtype = value.type
        if isinstance(vtype, ir.RankedTensorType):
            out.append((tuple(-1 if d < 0 else d for d in vtype.shape), str(vtype.element_type)))
        elif isinstance(vtype, ir.UnrankedTensorType):
            out.append(((), str(vtype.element_type)))
        else:
            out.append(((), None))
    return out


def _read_types(types: Sequence[TensorType]) -> list[tuple[tuple[int, ...], str | None]]:
    """`_types` of values of these types."""
    return [(t.shape, t.dtype if t.is_array else None) for t in types]


def _used_outside(value: ir.Value, block_ops: set[ir.Operation]) -> bool:
    """Whether some user of ``value`` lies outside every op of the block."""
    for use in value.uses:
        owner: ir.Operation | ir.OpView | None = (
            use.owner.operation if hasattr(use.owner, "operation") else use.owner)
        while owner is not None and owner not in block_ops:
            parent = owner.parent
            owner = parent.operation if parent is not None else None
        if owner is None:
            return True
    return False
