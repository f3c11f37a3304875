"""Turn a file into a live MLIR module in StableHLO form: text, MLIR bytecode or a VHLO artifact.

The format is told from the bytes: a gzip stream (``.mlir.gz``, as the shipped workloads are) is
decompressed first; MLIR bytecode starts with the magic ``ML\\xefR``; a bytecode
module whose ops are in the versioned ``vhlo`` dialect is a portable artifact (what
``jax.export`` serializes as ``Exported.mlir_module_serialized``) and is deserialized back to
StableHLO. Anything else must be UTF-8 MLIR text.

A module that uses a dialect we do not register (a foreign attribute, an op of another toolchain)
is parsed a second time with unregistered dialects allowed; the caller gets a warning saying so.
"""

from __future__ import annotations

import gzip
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from hespas_py.errors import HespasError
from hespas_py.mlir.bindings import ir, make_context, stablehlo

BYTECODE_MAGIC = b"ML\xefR"
GZIP_MAGIC = b"\x1f\x8b"
# What MLIR says when it meets a dialect it was not given (ops, attributes and types).
_UNREGISTERED = ("unregistered dialect", "Dialect `", "is unknown", "allowUnregisteredDialects")
_DIALECT_IN_MESSAGE = re.compile(r"Dialect `(\w+)'|#\"(\w+)\"|!\"(\w+)\"|custom op '(\w+)\.")


@dataclass(frozen=True)
class ParsedModule:
    """A live module and what parsing it taught us.

    Attributes:
        module: the module in StableHLO form (VHLO already deserialized).
        context: the context that owns ``module``; keep it alive as long as the module.
        warnings: one-line notes for the user (unknown dialects allowed, ...).
    """

    module: ir.Module
    context: ir.Context
    warnings: tuple[str, ...]


def parse_file(path: str | Path) -> ParsedModule:
    """Parse ``path``; raise `HespasError` naming the file and the MLIR diagnostic when it fails."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise HespasError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise HespasError(f"{name}: is a directory, not an MLIR file") from None
    except OSError as exc:
        raise HespasError(f"{name}: cannot read: {exc.strerror}") from None
    if data.startswith(GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise HespasError(f"{name}: corrupt gzip stream ({exc})") from None
    if data.startswith(BYTECODE_MAGIC):
        source: str | bytes = data
    else:
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise HespasError(
                f"{name}: neither MLIR text (not UTF-8 at byte {exc.start}) nor MLIR bytecode"
            ) from None
        if not source.strip():
            raise HespasError(f"{name}: empty file")
    context = make_context()
    try:
        module = ir.Module.parse(source, context)
        warnings: tuple[str, ...] = ()
    except ir.MLIRError as error:
        if not _mentions_unregistered(error):
            raise HespasError(f"{name}: {_describe(error)}") from None
        context = make_context(allow_unregistered_dialects=True)
        try:
            module = ir.Module.parse(source, context)
        except ir.MLIRError:
            raise HespasError(f"{name}: {_describe(error)}") from None
        dialects = ", ".join(_dialects_named(error)) or "unknown"
        warnings = (
            f"{name}: read with unregistered dialects allowed (unknown dialect: {dialects}); "
            "their attributes are ignored and their ops counted by name only",
        )
    if isinstance(source, bytes) and _is_vhlo(module):
        try:
            module = stablehlo.deserialize_portable_artifact(context, data)
        except (ir.MLIRError, RuntimeError, ValueError) as error:
            raise HespasError(
                f"{name}: cannot deserialize the VHLO portable artifact: {_one_line(error)}"
            ) from None
    return ParsedModule(module, context, warnings)


def _is_vhlo(module: ir.Module) -> bool:
    """Whether the module's ops are in the versioned VHLO dialect (a portable artifact)."""
    return any(op.operation.name.startswith("vhlo.") for op in module.body.operations)


def _mentions_unregistered(error: ir.MLIRError) -> bool:
    return any(marker in d.message for d in error.error_diagnostics for marker in _UNREGISTERED)


def _dialects_named(error: ir.MLIRError) -> list[str]:
    """The dialect names the diagnostics complain about, once each."""
    found: dict[str, None] = {}
    for diagnostic in error.error_diagnostics:
        for match in _DIALECT_IN_MESSAGE.finditer(diagnostic.message):
            found.setdefault(next(g for g in match.groups() if g), None)
    return list(found)


def _describe(error: ir.MLIRError) -> str:
    """The first MLIR diagnostic on one line, prefixed with ``line L:C`` where it has one."""
    if not error.error_diagnostics:
        return _one_line(error)
    diagnostic = error.error_diagnostics[0]
    position = _line_col(diagnostic.location)
    message = _one_line(diagnostic.message)
    return f"line {position}: {message}" if position else message


def _line_col(location: ir.Location) -> str | None:
    """``L:C`` of a parser location (printed ``loc("-":L:C)``); `None` for other locations."""
    text = str(location)
    if not (text.startswith('loc("') and text.endswith(")")):
        return None
    position = text[:-1].rpartition('":')[2]
    line, _, column = position.partition(":")
    if line.isdigit() and column.isdigit() and line != "0":
        return position
    return None


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


def func_ops(module: ir.Module) -> dict[str, ir.Operation]:
    """The module's ``func.func`` ops by symbol name, in module order."""
    functions = {}
    for op in module.body.operations:
        op = op.operation
        if op.name == "func.func":
            functions[op.attributes["sym_name"].value] = op
    return functions


def is_public(func: ir.Operation) -> bool:
    """Whether a ``func.func`` is public (no ``sym_visibility``, or ``"public"``)."""
    attributes = func.attributes
    return "sym_visibility" not in attributes or attributes["sym_visibility"].value == "public"


def entry_name(path: str, public: Mapping[str, bool]) -> str:
    """The entry function among ``public`` (name -> is public, module order): ``main``, else the
    single public function; `HespasError` otherwise."""
    if "main" in public:
        return "main"
    names = [name for name, is_pub in public.items() if is_pub]
    if len(names) == 1:
        return names[0]
    if not names:
        raise HespasError(f"{path}: no entry function: no @main and no public function")
    raise HespasError(
        f"{path}: no entry function: no @main and {len(names)} public functions ({', '.join(names)})"
    )
