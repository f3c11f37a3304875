"""Op histograms: layout and order of the published analyzer, expansion, JSON, CLI errors."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hespas_py.cli.compat import mlir_analyzer
from hespas_py.cli.main import main as hespas_main
from hespas_py.errors import HespasError
from hespas_py.mlir.analyze import histogram, render_text, to_json
from hespas_py.mlir.reader import load_module
from hespas_py.split import split

DATA = Path(__file__).parent / "data" / "mlir"

COMPUTE_TOP_LEVEL = """\
MLIR Analysis Results:
-----------------------------------
Unique Operators   : 17

Operator Histogram:
  stablehlo.constant............:     5
  func.call.....................:     2
  stablehlo.convolution.........:     1
  stablehlo.dot_general.........:     1
  stablehlo.reduce_window.......:     1
  stablehlo.gather..............:     1
  stablehlo.scatter.............:     1
  stablehlo.sort................:     1
  stablehlo.reduce..............:     1
  stablehlo.broadcast_in_dim....:     1
  stablehlo.transpose...........:     1
  stablehlo.custom_call.........:     1
  stablehlo.after_all...........:     1
  stablehlo.tuple...............:     1
  stablehlo.add.................:     1
  stablehlo.get_tuple_element...:     1
  func.return...................:     1
-----------------------------------
  Total Operators...............:    22
"""


def _run(entry: Callable[[], None], argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as exit_info:
        entry()
    return exit_info.value.code


def test_top_level_histogram_layout_and_order() -> None:
    result = histogram(load_module(DATA / "compute.mlir"))
    assert render_text(result) == COMPUTE_TOP_LEVEL
    assert (result.unique, result.total) == (17, 22)


def test_ties_keep_first_appearance_order() -> None:
    counts = histogram(load_module(DATA / "compute.mlir")).counts
    singles = [name for name, count in counts if count == 1]
    assert singles[:3] == ["stablehlo.convolution", "stablehlo.dot_general", "stablehlo.reduce_window"]
    assert singles[-1] == "func.return"


def test_expanded_counts_calls_per_site_fusions_and_control_flow() -> None:
    compute = dict(histogram(load_module(DATA / "compute.mlir"), expand=True).counts)
    assert "func.call" not in compute and compute["stablehlo.multiply"] == 2  # @square called twice
    assert compute["func.return"] == 1  # callee returns are not counted
    assert "stablehlo.return" not in compute  # reducer bodies stay inside their op
    loops = histogram(load_module(DATA / "control_flow.mlir"), expand=True)
    assert dict(loops.counts) == {
        "stablehlo.constant": 8, "stablehlo.add": 5, "stablehlo.while": 3, "stablehlo.compare": 3,
        "stablehlo.multiply": 2, "stablehlo.case": 1, "stablehlo.if": 1, "stablehlo.negate": 1,
        "func.return": 1,
    }
    fused = dict(histogram(load_module(DATA / "xla_fusion.mlir"), expand=True).counts)
    assert "mhlo.fusion" not in fused and "mhlo.return" not in fused
    assert fused["stablehlo.dot"] == 1 and fused["stablehlo.reduce"] == 1 and fused["mhlo.bitcast"] == 2


@pytest.mark.parametrize("path", [
    DATA / "compute.mlir", DATA / "control_flow.mlir", DATA / "xla_fusion.mlir", DATA / "foreign.mlir",
    DATA.parents[2] / "workloads" / "mesh2x4_8dev.mlir", DATA.parents[2] / "workloads" / "moe_4dev.mlir",
])
def test_outline_read_gives_the_full_reads_histograms(path: Path) -> None:
    full, outline = load_module(path), load_module(path, outline=True)
    assert outline.outline and not full.outline
    for expand in (False, True):
        assert histogram(outline, expand).counts == histogram(full, expand).counts
    assert all(not op.operands and not op.result_types for op in outline.ops)


def test_split_refuses_an_outline_module() -> None:
    with pytest.raises(HespasError, match="outline"):
        split(load_module(DATA / "compute.mlir", outline=True), "linear_split")


def test_json_form() -> None:
    result = histogram(load_module(DATA / "control_flow.mlir"))
    data = to_json(result)
    assert data["unique_operators"] == 5 and data["total_operators"] == 10 and data["expanded"] is False
    assert list(data["histogram"].items())[:2] == [("stablehlo.constant", 4), ("stablehlo.while", 3)]


def test_csv_rows() -> None:
    text = render_text(histogram(load_module(DATA / "control_flow.mlir")), csv=True)
    assert "\nstablehlo.constant,4\nstablehlo.while,3\n" in text


@pytest.mark.parametrize("workload", ["mlp_train_pmap_example", "resnet50_train_4dev_pmap"])
def test_top_level_equals_published_reference(shared_dir: Path, workload: str) -> None:
    expected = (shared_dir / "reference" / "hespas" / f"{workload}.analyzer.txt").read_text()
    module = load_module(shared_dir / "workloads" / f"{workload}.mlir")
    assert render_text(histogram(module)) + "\n" == expected


def test_resnet_figures(shared_dir: Path) -> None:
    module = load_module(shared_dir / "workloads" / "resnet50_train_4dev_pmap.mlir")
    top = histogram(module)
    assert (top.unique, top.total) == (30, 10023)
    assert top.counts[:3] == (("stablehlo.broadcast_in_dim", 2721), ("stablehlo.multiply", 1668),
                              ("stablehlo.add", 1057))
    assert dict(top.counts)["stablehlo.all_reduce"] == 375 and dict(top.counts)["func.call"] == 58
    expanded = histogram(module, expand=True)
    # Hespas prints 10215: it also counts the 24 reducer-body ops inside called functions.
    assert (expanded.unique, expanded.total) == (31, 10191)


def test_shardy_expansion_counts_the_per_device_program(shared_dir: Path) -> None:
    module = load_module(shared_dir / "workloads" / "mlp_train_fsdp_tp_shardy_8dev.mlir")
    assert histogram(module).total == 2
    counts = dict(histogram(module, expand=True).counts)
    assert counts["stablehlo.all_gather"] == 12 and counts["stablehlo.reduce_scatter"] == 6
    assert counts["stablehlo.all_reduce"] == 2 and "sdy.manual_computation" not in counts
    outline = load_module(shared_dir / "workloads" / "mlp_train_fsdp_tp_shardy_8dev.mlir", outline=True)
    assert dict(histogram(outline, expand=True).counts) == counts


def test_compat_analyzer_prints_the_histogram(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(mlir_analyzer, ["hespas_mlir_analyzer", str(DATA / "compute.mlir")], monkeypatch) == 0
    assert capsys.readouterr().out == COMPUTE_TOP_LEVEL + "\n"
    assert _run(mlir_analyzer, ["hespas_mlir_analyzer", "-e", str(DATA / "compute.mlir")], monkeypatch) == 0
    assert "  stablehlo.multiply............:     2\n" in capsys.readouterr().out


def test_hespas_analyze_json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["hespas", "analyze", str(DATA / "compute.mlir"), "--expand", "--json"]
    assert _run(hespas_main, argv, monkeypatch) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["expanded"] is True and data["histogram"]["stablehlo.multiply"] == 2
    assert data["total_operators"] == sum(data["histogram"].values())


ERRORS = [
    ("missing.mlir", "missing.mlir: no such file"),
    ("malformed.mlir", "malformed.mlir: line 4:31: expected ','"),
    ("text_inside_module.mlir", "text_inside_module.mlir: line 5:1: custom op 'Compilation' is unknown"),
    ("no_entry.mlir", "no_entry.mlir: no entry function: no @main and 2 public functions (forward, backward)"),
]


@pytest.mark.parametrize(("name", "message"), ERRORS)
@pytest.mark.parametrize("tool", ["hespas_mlir_analyzer", "hespas analyze"])
def test_bad_input_is_one_line_and_exit_2(
    tool: str, name: str, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(DATA / name)
    if tool == "hespas analyze":
        code = _run(hespas_main, ["hespas", "analyze", path], monkeypatch)
    else:
        code = _run(mlir_analyzer, ["hespas_mlir_analyzer", path], monkeypatch)
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(f"error: {DATA}/") and message in line


def test_console_entry_has_no_traceback() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", "from hespas_py.cli.compat import mlir_analyzer; mlir_analyzer()",
         str(DATA / "malformed.mlir")],
        capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 2 and completed.stdout == ""
    assert completed.stderr == f"error: {DATA / 'malformed.mlir'}: line 4:31: expected ','\n"
