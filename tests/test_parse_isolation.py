"""A module the MLIR parser fails on is parsed again only in a child process (`hespas_py.mlir.
isolated`): a crash of the parser is one error line, and a process where the parser failed parses
nothing more itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.mlir import source
from hespas_py.mlir.extract import BlockExtractor
from hespas_py.mlir.reader import load_module

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "mlir"
#: A mutated Shardy module (an unclosed ``sdy.manual_computation`` region): the failed parse
#: leaves the heap corrupt and the next MLIR context aborts the process (jaxlib 0.10 to 0.12).
#: Never parse it in the test process.
CRASHER = DATA / "parse_heap_corruption.mlir"
MLP = REPO / "workloads" / "mlp_dp_4dev.mlir"


def _run(code: str, *args: object, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, env=_env(), timeout=120, check=False)


def _env() -> dict:
    import os

    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (
        str(REPO), os.environ.get("PYTHONPATH"))))}


CLI = {
    "analyze": ("import sys; from hespas_py.cli.main import main; sys.argv[0] = 'hespas'; main()",
                ["analyze", CRASHER, "--expand", "--json"]),
    "gen": ("import sys; from hespas_py.cli.main import main; sys.argv[0] = 'hespas'; main()",
            ["gen", "H100_80GB", "--mlir_file", CRASHER, "--output", "out"]),
    "hespas_mlir_analyzer": ("from hespas_py.cli.compat import mlir_analyzer; mlir_analyzer()",
                             [CRASHER, "-e"]),
    "hespas_chakra_gen": ("from hespas_py.cli.compat import chakra_gen; chakra_gen()",
                          ["H100_80GB", "--mlir_file", CRASHER, "--output", "out"]),
}


@pytest.mark.parametrize("command", CLI)
def test_a_crash_of_the_parser_is_one_error_line(command: str, tmp_path: Path) -> None:
    code, args = CLI[command]
    done = _run(code, *args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [(
        f"error: {CRASHER}: the MLIR parser crashed; the first error it reported: "
        "line 5:8: expected ':'")]
    assert not (tmp_path / "out").exists()


def test_after_a_failed_parse_the_process_parses_nothing_itself(tmp_path: Path) -> None:
    broken = tmp_path / "broken.mlir"
    broken.write_text(MLP.read_text().replace("stablehlo.add", "stablehlo.add,", 1))
    with pytest.raises(HespasError, match=r"broken.mlir: line \d+:\d+: "):
        load_module(broken)
    with pytest.raises(source.ParserFailed, match="the MLIR parser failed on .*broken.mlir before"):
        source.parse_file(MLP)
    # The XLA estimators need the live module: one line, no second parse here.
    with pytest.raises(HespasError, match="not parsed in this process"):
        BlockExtractor(MLP)
    # The reader still reads a good module (in a child process), the same as before.
    assert load_module(MLP) == _fresh_read(MLP)


def _fresh_read(path: Path):
    source._failed_on = None  # what a fresh run of this process would see
    return load_module(path)


def test_a_trailer_is_cut_in_the_child_and_warned_about(capsys) -> None:
    """The in-process parse of a module followed by a log line fails; the child cuts the line."""
    module = load_module(DATA / "trailing_line.mlir")
    assert module.warnings == ((f"{DATA / 'trailing_line.mlir'}: line 6: ignored the text "
                                "after the module ('Compilation finished in 0.42 s')"),)
    assert source._failed_on == str(DATA / "trailing_line.mlir")
    assert capsys.readouterr().err == f"warning: {module.warnings[0]}\n"


def test_a_good_module_is_parsed_once_here() -> None:
    """The common case costs no child: the module is parsed in this process."""
    load_module(MLP)
    assert source._failed_on is None


def test_a_convolution_index_the_parser_would_allocate_for_is_refused_first(tmp_path) -> None:
    """Found by bench/fuzz.py: a spatial index of 2^31 in a convolution's dimension numbers made
    the parser grow to 17 GB (a vector sized by the index); it is refused before parsing."""
    compute = (DATA / "compute.mlir").read_text()
    path = tmp_path / "conv.mlir"
    path.write_text(compute.replace("[o, i, 0, 1]", "[o, i, 2147483648, 1]", 1))
    with pytest.raises(HespasError, match=r"conv.mlir: line 8: convolution dimension 2147483648 "
                                          r"out of range in \[o, i, 2147483648, 1\]"):
        load_module(path)
    assert source._failed_on is None
    assert load_module(DATA / "compute.mlir").ops
