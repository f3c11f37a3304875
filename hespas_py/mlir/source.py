"""Turn a file into live MLIR modules in StableHLO form: text, MLIR bytecode or a VHLO artifact.

Why and how: docs/mlir.md.
"""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple, NoReturn

from hespas_py.errors import HespasError
from hespas_py.mlir.bindings import ir, make_context, stablehlo

BYTECODE_MAGIC = b"ML\xefR"
GZIP_MAGIC = b"\x1f\x8b"
#: A line starting with this separates two modules of one text file (``mlir-opt
#: -split-input-file``'s marker); the rest of that line is a comment.
SPLIT_MARKER = "// -----"
#: Where an attribute or a type names its dialect in MLIR text: ``#name.``/``#name<`` and
#: ``!name.``/``!name<`` (two patterns with a literal first character: scanned at memchr speed).
_DIALECT_PREFIXES = (re.compile(r"#(\w+)[.<]"), re.compile(r"!(\w+)[.<]"))
#: Where MLIR puts the module it wraps around top-level ops that are not a single module.
_IMPLICIT_MODULE_LOCATION = 'loc("-":0:0)'
#: Characters of an ignored trailer quoted in its warning.
_QUOTED = 40


class ParsedModule(NamedTuple):
    """A live module and what parsing it taught us.

    Attributes:
        module: the module in StableHLO form (VHLO already deserialized).
        context: the context that owns ``module``; keep it alive as long as the module.
        label: how messages name the module: the file, or ``<file>#N`` for module ``N`` of a
            file that holds several.
        unregistered: dialects the parser did not know, once each (the module was parsed with
            unregistered dialects allowed); empty when it knew them all.
        warnings: one-line notes for the user (ignored trailing text, ...).
    """

    module: ir.Module
    context: ir.Context
    label: str
    unregistered: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


class ParserFailed(HespasError):
    """The MLIR parser failed on a module in this process, now or earlier: this process parses
    nothing more (see the module docstring); `hespas_py.mlir.isolated` reads the module elsewhere."""


#: Label of the module the parser failed on in this process (None: it never failed here).
_failed_on: str | None = None


class ModuleSource(NamedTuple):
    """One module's worth of a file, unparsed: its label and its bytes (bytecode) or text
    (padded with the newlines before it, so that the parser's line numbers are the file's)."""

    label: str
    data: str | bytes


def parse_file(path: str | Path, module: int | None = None) -> ParsedModule:
    """Parse module ``module`` (from 1) of ``path``, or its only module when ``module`` is None
    (`pick_source`, `parse`)."""
    return parse(pick_source(path, module))


def pick_source(path: str | Path, module: int | None = None) -> ModuleSource:
    """Module ``module`` (from 1) of ``path``, or its only one when ``module`` is None;
    `HespasError` naming the file and the problem (the module count when the file holds several
    and none was chosen)."""
    sources = module_sources(path)
    count = len(sources)
    if module is None and count > 1:
        raise HespasError(f"{path}: holds {count} modules (separated by '{SPLIT_MARKER}' lines); "
                          f"choose one with --module N (1 to {count})")
    if module is not None and not 1 <= module <= count:
        raise HespasError(f"{path}: no module {module}: the file holds {count} "
                          f"module{'s' if count > 1 else ''}")
    return sources[(module or 1) - 1]


def module_label(path: str | Path, index: int) -> str:
    """How module ``index`` (from 1) of a multi-module file is named: ``<path>#<index>``."""
    return f"{path}#{index}"


def split_label(label: str) -> tuple[str, int | None]:
    """(file, module index or None) of a label `parse_file` gave (``<file>#N`` or a path)."""
    path, mark, index = label.rpartition("#")
    if mark and index.isdigit() and not Path(label).exists():
        return path, int(index)
    return label, None


def module_sources(path: str | Path) -> list[ModuleSource]:
    """The modules of a file in file order, unparsed; `HespasError` if it cannot be read."""
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
        return [ModuleSource(name, data)]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HespasError(
            f"{name}: neither MLIR text (not UTF-8 at byte {exc.start}) nor MLIR bytecode"
        ) from None
    if not text.strip():
        raise HespasError(f"{name}: empty file")
    parts = _split(text)
    if len(parts) == 1:
        return [ModuleSource(name, parts[0])]
    return [ModuleSource(module_label(name, i), part) for i, part in enumerate(parts, 1)]


def _split(text: str) -> list[str]:
    """The modules of ``text`` at `SPLIT_MARKER` lines, each preceded by as many newlines as the
    file has before it; parts holding only comments and blank lines are dropped (all of ``text``
    when nothing is left)."""
    parts: list[str] = []
    start = lines_before = 0
    marker = text.find(SPLIT_MARKER)
    while marker >= 0:
        line_start = text.rfind("\n", 0, marker) + 1
        if text[line_start:marker].isspace() or line_start == marker:
            parts.append("\n" * lines_before + text[start:line_start])
            lines_before += text.count("\n", start, line_start)
            line_end = text.find("\n", marker)
            start = len(text) if line_end < 0 else line_end + 1
            lines_before += line_end >= 0
        marker = text.find(SPLIT_MARKER, marker + len(SPLIT_MARKER))
    if not parts:
        return [text]
    parts.append("\n" * lines_before + text[start:])
    modules = [part for part in parts if not _only_comments(part)]
    return modules or [text]


def _only_comments(text: str) -> bool:
    stripped = text.lstrip()
    if stripped and not stripped.startswith("//"):  # the usual case, without splitting lines
        return False
    return all(not line.strip() or line.lstrip().startswith("//") for line in text.splitlines())


def parse(source: ModuleSource, *,
          after_failure: Callable[[str], object] | None = None) -> ParsedModule:
    """Parse one module (unregistered dialects allowed); deserialize VHLO.

    When the parser fails: `ParserFailed`, and every later call of this process raises it too.
    Given ``after_failure`` (only in a process that may die, `hespas_py.mlir.isolated`), the
    parser's one-line diagnostic goes to it first; then the text is cut after the module when what
    failed is a trailer (`_without_trailer`), else `HespasError` with that message.
    """
    if _failed_on is not None and after_failure is None:
        raise ParserFailed(f"{source.label}: not parsed in this process: the MLIR parser failed "
                           f"on {_failed_on} before")
    if isinstance(source.data, str):
        _refuse_unbounded(source)
    context = make_context(allow_unregistered_dialects=True)
    try:
        module = ir.Module.parse(source.data, context)
    except ir.MLIRError as error:
        if after_failure is None:
            _refuse_more(source.label, "the MLIR parser")
        problem = _describe(error)
        after_failure(problem)
        return _parse_leniently(source, f"{source.label}: {problem}", error, context)
    if isinstance(source.data, bytes):
        if _is_vhlo(module):
            module = _deserialized(source, context, retry=after_failure is not None)
        return ParsedModule(module, context, source.label)
    return ParsedModule(module, context, source.label, _unregistered(source.data, context))


def _deserialized(source: ModuleSource, context: ir.Context, retry: bool) -> ir.Module:
    """The StableHLO module of a VHLO portable artifact (failures as `parse` treats them)."""
    try:
        return stablehlo.deserialize_portable_artifact(context, source.data)
    except (ir.MLIRError, RuntimeError, ValueError) as error:
        if not retry:
            _refuse_more(source.label, "the VHLO deserializer")
        raise HespasError(f"{source.label}: cannot deserialize the VHLO portable artifact: "
                          f"{_one_line(error)}") from None


def _refuse_unbounded(source: ModuleSource) -> None:
    """`HespasError` for text the parser would spend memory without bound on before failing: a
    convolution's dimension numbers (``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]``) whose spatial
    index is not below its list's length (the verifier's rule) make StableHLO's parser size a
    vector by that index (2^31: 17 GB, then an error message as long). Scanned only around
    ``]x[``, so a module without convolutions pays one string search."""
    text = source.data
    assert isinstance(text, str)
    at = text.find("]x[")
    while at >= 0:
        match = _CONV_DIMENSIONS.match(text, text.rfind("[", 0, at), at + 400)
        if match is not None:
            for entries in match.groups():
                names = [e.strip() for e in entries.split(",")]
                for name in names:
                    if name.isdigit() and int(name) >= len(names):
                        line = text.count("\n", 0, at) + 1
                        raise HespasError(f"{source.label}: line {line}: convolution dimension "
                                          f"{name[:20]} out of range in [{entries[:60]}]")
        at = text.find("]x[", at + 3)


#: A convolution's dimension numbers: three lists of ``b``, ``f``, ``i``, ``o`` and indices.
_CONV_DIMENSIONS = re.compile(r"\[([^\[\]]*)\]x\[([^\[\]]*)\]->\[([^\[\]]*)\]")


def _refuse_more(label: str, what: str) -> NoReturn:
    """`ParserFailed` for ``label``, and for every later `parse` of this process."""
    global _failed_on
    _failed_on = label
    raise ParserFailed(f"{label}: {what} failed on it") from None


def _unregistered(text: str, context: ir.Context) -> tuple[str, ...]:
    """Dialects the context does not know that ``text``'s attributes or types name, once each."""
    names = dict.fromkeys(name for pattern in _DIALECT_PREFIXES for name in pattern.findall(text))
    return tuple(name for name in names if not _registered(context, name))


def _registered(context: ir.Context, dialect: str) -> bool:
    try:
        context.get_dialect_descriptor(dialect)  # neither loads nor imports the dialect's module
    except ValueError:
        return False
    return True


def _parse_leniently(source: ModuleSource, message: str, error: ir.MLIRError,
                     context: ir.Context) -> ParsedModule:
    """Parse a text the parser refused with ``error`` without a trailer that is not MLIR
    (`_without_trailer`); `HespasError` with ``message`` (the diagnostic) when that fails too."""
    label, data = source.label, source.data
    cut = _without_trailer(data, error, context) if isinstance(data, str) else None
    if cut is None:
        raise HespasError(message)
    module, trailer_line, trailer, kept = cut
    quoted = trailer if len(trailer) <= _QUOTED else trailer[:_QUOTED] + "..."
    note = f"{label}: line {trailer_line}: ignored the text after the module ({quoted!r})"
    return ParsedModule(module, context, label, _unregistered(kept, context), (note,))


def _without_trailer(text: str, error: ir.MLIRError,
                     context: ir.Context) -> tuple[ir.Module, int, str, str] | None:
    """When ``error`` is about text after a complete ``module { ... }``: that module, the line the
    text starts on, that line and the text kept; None otherwise.

    The parser stops at (or just after) the first token it cannot take, so the module ends at
    the error's position or before the start of its line; whichever cut parses as an explicit
    module (not top-level ops MLIR wrapped in one) wins.
    """
    position = _error_position(error)
    if position is None:
        return None
    line, column = position
    line_start = 0
    for _ in range(line - 1):
        line_start = text.find("\n", line_start) + 1
        if line_start == 0:
            return None
    line_end = text.find("\n", line_start)
    line_text = text[line_start:] if line_end < 0 else text[line_start:line_end]
    at_error = line_start + len(line_text.encode()[:column - 1].decode(errors="ignore"))
    for cut in dict.fromkeys((at_error, line_start)):
        rest = text[cut:]
        if not rest.strip():
            continue
        try:
            module = ir.Module.parse(text[:cut], context)
        except ir.MLIRError:
            continue
        if str(module.operation.location) == _IMPLICIT_MODULE_LOCATION:
            continue
        skipped = len(rest) - len(rest.lstrip())
        first_line = text.count("\n", 0, cut + skipped) + 1
        return module, first_line, rest.lstrip().partition("\n")[0].rstrip(), text[:cut]
    return None


def _error_position(error: ir.MLIRError) -> tuple[int, int] | None:
    """(line, column) of the first diagnostic of a parse error, when it has one."""
    if not error.error_diagnostics:
        return None
    position = _line_col(error.error_diagnostics[0].location)
    if position is None:
        return None
    line, _, column = position.partition(":")
    return int(line), int(column)


def _is_vhlo(module: ir.Module) -> bool:
    """Whether the module's ops are in the versioned VHLO dialect (a portable artifact)."""
    return any(op.operation.name.startswith("vhlo.") for op in module.body.operations)


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


def module_name(module: ir.Module) -> str:
    """The module's symbol name (``module @name``), or ``""``."""
    attributes = module.operation.attributes
    return ir.StringAttr(attributes["sym_name"]).value if "sym_name" in attributes else ""


def func_ops(module: ir.Module) -> dict[str, ir.Operation]:
    """The module's ``func.func`` ops by symbol name, in module order."""
    functions = {}
    for op in module.body.operations:
        operation = op.operation
        if operation.name == "func.func":
            functions[ir.StringAttr(operation.attributes["sym_name"]).value] = operation
    return functions


def is_public(func: ir.Operation) -> bool:
    """Whether a ``func.func`` is public (no ``sym_visibility``, or ``"public"``)."""
    attributes = func.attributes
    return ("sym_visibility" not in attributes
            or ir.StringAttr(attributes["sym_visibility"]).value == "public")


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
