"""`source.parse_ahead`: a parse started in a thread is what the next `parse_file` of the same
file returns, errors included; a stale or unmatched one is dropped, never reused."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.mlir import source
from hespas_py.mlir.reader import load_module

_MODULE = """module @m {
  func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.%s %a, %a : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
"""


def _write(path: Path, op: str) -> Path:
    path.write_text(_MODULE.replace("%s", op, 1))
    return path


@pytest.fixture(autouse=True)
def _nothing_pending():
    yield
    source._pending()


def _parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Where `_parse_now` runs: the names of the threads that called it."""
    threads: list[str] = []
    parse_now = source._parse_now

    def counted(path, module):
        threads.append(threading.current_thread().name)
        return parse_now(path, module)

    monkeypatch.setattr(source, "_parse_now", counted)
    return threads


def test_parse_file_takes_the_parse_started_ahead(tmp_path, monkeypatch):
    path = _write(tmp_path / "m.mlir", "add")
    threads = _parses(monkeypatch)
    source.parse_ahead(path)
    module = load_module(path)
    assert threads == ["parse-ahead"]
    assert [op.name for op in module.functions["main"].ops] == ["stablehlo.add", "func.return"]
    assert not source._ahead


def test_an_error_ahead_is_raised_by_parse_file(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text("module { this is not mlir }\n")
    source.parse_ahead(path)
    with pytest.raises(HespasError, match="bad.mlir"):
        source.parse_file(path)


def test_a_file_changed_since_is_parsed_again(tmp_path, monkeypatch):
    path = _write(tmp_path / "m.mlir", "add")
    threads = _parses(monkeypatch)
    source.parse_ahead(path)
    _write(path, "multiply")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    module = load_module(path)
    assert threads == ["parse-ahead", threading.current_thread().name]
    assert module.functions["main"].ops[0].name == "stablehlo.multiply"


def test_another_file_or_module_drops_the_parse_ahead(tmp_path, monkeypatch):
    first, second = _write(tmp_path / "a.mlir", "add"), _write(tmp_path / "b.mlir", "multiply")
    source.parse_ahead(first)
    assert load_module(second).functions["main"].ops[0].name == "stablehlo.multiply"
    assert not source._ahead
    source.parse_ahead(first, module=1)
    threads = _parses(monkeypatch)
    source.parse_file(first)  # module None is not module 1
    assert threads == [threading.current_thread().name] and not source._ahead


def test_a_path_that_is_not_a_file_starts_nothing(tmp_path):
    source.parse_ahead(tmp_path / "missing.mlir")
    source.parse_ahead(tmp_path)
    assert not source._ahead


def test_gen_parses_its_module_ahead(tmp_path, monkeypatch):
    from hespas_py.cli.compat import chakra_gen

    path = _write(tmp_path / "m.mlir", "add")
    threads = _parses(monkeypatch)
    monkeypatch.setattr("sys.argv", ["hespas_chakra_gen", "A100_SXM_40GB", "--mlir_file",
                                     str(path), "--output", str(tmp_path / "out"), "--json"])
    with pytest.raises(SystemExit) as done:
        chakra_gen()
    assert done.value.code in (0, None)
    assert threads == ["parse-ahead"]
    assert (tmp_path / "out" / "dev.0.et").is_file()
