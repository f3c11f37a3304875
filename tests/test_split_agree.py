"""Both splitters cost the same compute: on generated StableHLO modules (read by the real parser)
the blocks of ``linear_split`` and ``individual_split`` hold the same ops, so their roofline
totals agree; programs whose only compute reads constants included (issue 30's reproducer)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hespas_py.estimators import get_estimator
from hespas_py.hardware import Hardware
from hespas_py.mlir.reader import load_module
from hespas_py.split import individual_split, linear_split

HW = Hardware(name="hw", peak_flops=1e13, memory_bandwidth=1e12, vector_flops=1e13,
              per_dtype_flops={"f32": 1e13})
V = "tensor<8xf32>"
REDUCER = ("({\n    ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
           "      %s = stablehlo.add %p, %q : tensor<f32>\n"
           "      stablehlo.return %s : tensor<f32>\n    })")
EMPTY = Path(__file__).parent / "data" / "mlir" / "individual_split_empty.mlir"


@st.composite
def modules(draw) -> str:
    """A 4-device module of 1 to 25 ops on ``tensor<8xf32>`` values: constants, elementwise ops,
    broadcasts of scalar constants, dots and all-reduces, reading arguments (none at times:
    then everything but a collective reads constants) and earlier results."""
    args = draw(st.integers(0, 2))
    values = [f"%arg{i}" for i in range(args)]
    lines = []
    for i in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(("constant", "scalar", "add", "multiply", "exponential",
                                     "all_reduce", "dot")))
        if not values or kind == "constant":
            lines.append(f"%v{i} = stablehlo.constant dense<{i}.5> : {V}")
        elif kind == "scalar":
            lines.append(f"%s{i} = stablehlo.constant dense<2.0> : tensor<f32>")
            lines.append(f"%v{i} = stablehlo.broadcast_in_dim %s{i}, dims = [] : "
                         f"(tensor<f32>) -> {V}")
        elif kind in ("add", "multiply"):
            a, b = draw(st.sampled_from(values)), draw(st.sampled_from(values))
            lines.append(f"%v{i} = stablehlo.{kind} {a}, {b} : {V}")
        elif kind == "exponential":
            lines.append(f"%v{i} = stablehlo.exponential {draw(st.sampled_from(values))} : {V}")
        elif kind == "dot":
            a, b = draw(st.sampled_from(values)), draw(st.sampled_from(values))
            lines.append(f"%d{i} = stablehlo.dot_general {a}, {b}, contracting_dims = [0] x [0] "
                         f": ({V}, {V}) -> tensor<f32>")
            lines.append(f"%v{i} = stablehlo.broadcast_in_dim %d{i}, dims = [] : "
                         f"(tensor<f32>) -> {V}")
        else:
            lines.append(f'%v{i} = "stablehlo.all_reduce"({draw(st.sampled_from(values))}) '
                         "<{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}> "
                         f"{REDUCER} : ({V}) -> {V}")
        values.append(f"%v{i}")
    returned = draw(st.lists(st.sampled_from(values), max_size=2))
    signature = ", ".join(f"%arg{i}: {V}" for i in range(args))
    results = ", ".join([V] * len(returned))
    ret = f"func.return {', '.join(returned)} : {results}" if returned else "func.return"
    body = "\n    ".join([*lines, ret])
    return ("module @m attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 4 : i32} "
            f"{{\n  func.func public @main({signature}) -> ({results}) {{\n    {body}\n  }}\n}}\n")


def totals(graph) -> tuple[float, float, int]:
    """(roofline seconds, FLOPs) over the compute blocks, and the number of collective blocks."""
    estimator = get_estimator("roofline", HW)
    estimates = [estimator.estimate(block) for block in graph.blocks if not block.collective]
    return (sum(e.time_s for e in estimates), sum(e.flops for e in estimates),
            sum(block.collective for block in graph.blocks))


def agree(path: Path) -> tuple[float, float, int]:
    module = load_module(path)
    linear = totals(linear_split(module, block_lim=3))
    for merge in (False, True):
        individual = totals(individual_split(module, merge=merge))
        assert individual[2] == linear[2]
        assert individual[:2] == pytest.approx(linear[:2], rel=1e-12, abs=1e-30)
    return linear


@settings(max_examples=80, deadline=None)
@given(modules())
def test_splits_cost_the_same_compute(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.mlir"
        path.write_text(text)
        agree(path)


def test_a_program_of_constants_does_no_work_in_either_split() -> None:
    """Its only op reads constants and nothing reads it: XLA folds it away, no split costs it."""
    assert agree(EMPTY) == (0.0, 0.0, 0)
    assert linear_split(load_module(EMPTY)).blocks == ()


@pytest.mark.parametrize("split", ["linear_split", "individual_split"])
def test_a_step_without_work_simulates_to_zero(split, tmp_path, capsys, monkeypatch) -> None:
    """Empty traces finish at tick 0, as ASTRA-sim's workload layer does with no node to issue."""
    import json

    from sweep_helpers import hespas

    code, stdout, stderr = hespas(capsys, monkeypatch, "gen", "H100_80GB", "--mlir_file", EMPTY,
                                  "--split_fn", split, "--num_npus", 4, "-o", tmp_path / "out",
                                  "--system-config", "H100_80GB_4GPU", "--json")
    assert code == 0, stderr
    summary = json.loads(stdout)
    assert summary["compute_estimate_s"] == 0 and summary["simulation"]["step_time_s"] == 0
