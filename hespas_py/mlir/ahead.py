"""Parsing a module on a thread while the command loads its later stages: `parsing_ahead` starts
it, `hespas_py.mlir.reader.load_module` takes it over. (jaxlib 0.10-0.12's parser holds the GIL
while it parses, so today the thread overlaps the file's read only.)

Why and how: docs/mlir.md.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

from hespas_py.forking import wait_thread_gone
from hespas_py.mlir.source import ModuleSource, ParsedModule, ParserFailed, parse, pick_source

#: Parses started and not taken yet, by (file, module).
_started: dict[tuple[Path, int | None], _Ahead] = {}


class _Ahead:
    """`pick_source` and `parse` of one file's module, run on a thread; each outcome (a result
    or the exception it raised) is handed over by `source` and `parsed`."""

    def __init__(self, path: Path, module: int | None) -> None:
        self._outcomes: list = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(path, module), daemon=True,
                                        name="hespas-parse-ahead")
        self._thread.start()

    def _run(self, path: Path, module: int | None) -> None:
        try:
            source = pick_source(path, module)
            self._outcomes.append(source)
            self._outcomes.append(parse(source))
        except ParserFailed as error:
            self._outcomes.append(error)
            self._done.set()
            threading.Event().wait()  # never ends (module docstring)
        except BaseException as error:  # noqa: BLE001 - raised again in the taking thread
            self._outcomes.append(error)
        self._done.set()

    def wait(self) -> None:
        """Until the outcomes are in and, unless the parser failed, the thread has ended."""
        self._done.wait()
        if not isinstance(self._outcomes[-1], ParserFailed):
            self._thread.join()
            wait_thread_gone(self._thread.native_id)

    def source(self) -> ModuleSource:
        """The module's source, or the error picking it raised."""
        return self._outcome(0)

    def parsed(self) -> ParsedModule:
        """The parsed module, or the error parsing it raised."""
        return self._outcome(1)

    def _outcome(self, index: int):
        outcome = self._outcomes[min(index, len(self._outcomes) - 1)]  # an error ends them
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome


@contextlib.contextmanager
def parsing_ahead(path: str | Path | None, module: int | None = None) -> Iterator[None]:
    """Within it, module ``module`` of ``path`` (its only one when None) is parsed on a thread
    for the `load_module` of it that follows; not taken by the end, the parse is dropped. A None
    ``path`` parses nothing."""
    if path is None:
        yield
        return
    key = (Path(path), module)
    _started[key] = _Ahead(*key)
    try:
        yield
    finally:
        _started.pop(key, None)


def take(path: str | Path, module: int | None) -> _Ahead | None:
    """The parse of ``path``'s module started ahead, finished; None when none was started."""
    ahead = _started.pop((Path(path), module), None)
    if ahead is not None:
        ahead.wait()
    return ahead
