"""Export past XLA:CPU's device limit (hespas_py/export/widen.py): groups and pairs widened from a
smaller mesh, and a step exported both ways (directly, and partitioned on a smaller mesh then
widened) at a count XLA:CPU takes: the same per-device program, collectives and bytes."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from hespas_py.errors import HespasError
from hespas_py.export import export_file
from hespas_py.export.widen import NotWidenable, widen_groups, widen_pairs

MODELS = Path(__file__).resolve().parents[1] / "scripts" / "models"
# dp x pp x cp x tp; dp and pp are the factory's mesh-invariant axes.
SMALL, FULL = (3, 3, 1, 2), (4, 5, 1, 2)


def ids(shape, *coords):
    return int(np.ravel_multi_index(coords, shape))


def test_groups_span_or_fix_each_invariant_axis():
    # tp groups ([dp, pp] fixed): one per full (dp, pp); dp groups span dp with pp, tp fixed.
    tp = np.array([[ids(SMALL, d, p, 0, 0), ids(SMALL, d, p, 0, 1)] for d in range(3)
                   for p in range(3)])
    dp = np.array([[ids(SMALL, d, p, 0, t) for d in range(3)] for p in range(3) for t in range(2)])
    wide_tp, wide_dp = widen_groups(tp, SMALL, FULL), widen_groups(dp, SMALL, FULL)
    assert wide_tp.tolist() == [[ids(FULL, d, p, 0, 0), ids(FULL, d, p, 0, 1)] for d in range(4)
                                for p in range(5)]
    assert sorted(map(tuple, wide_dp.tolist())) == sorted(
        tuple(ids(FULL, d, p, 0, t) for d in range(4)) for p in range(5) for t in range(2))
    # widening to the same mesh gives the groups back
    assert sorted(map(tuple, widen_groups(dp, SMALL, SMALL).tolist())) == sorted(map(tuple, dp.tolist()))


def test_members_keep_their_order_axis_by_axis():
    # a group over (pp, tp) listed tp-major: p fastest
    group = np.array([[ids(SMALL, 0, p, 0, t) for t in range(2) for p in range(3)]])
    family = np.concatenate([group + ids(SMALL, d, 0, 0, 0) for d in range(3)])
    wide = widen_groups(family, SMALL, FULL)
    assert wide[0].tolist() == [ids(FULL, 0, p, 0, t) for t in range(2) for p in range(5)]


def test_partial_span_of_an_invariant_axis_is_refused():
    pairs_of_dp = np.array([[ids(SMALL, 0, p, 0, t), ids(SMALL, 1, p, 0, t)] for p in range(3)
                            for t in range(2)])
    with pytest.raises(NotWidenable, match="part of a mesh-invariant axis"):
        widen_groups(pairs_of_dp, SMALL, FULL)


def test_ring_shift_keeps_its_direction():
    forward = np.array([[ids(SMALL, d, p, 0, t), ids(SMALL, d, (p + 1) % 3, 0, t)]
                        for d in range(3) for p in range(3) for t in range(2)])
    backward = forward[:, ::-1]
    wide_f, wide_b = widen_pairs(forward, SMALL, FULL), widen_pairs(backward, SMALL, FULL)
    expected = sorted((ids(FULL, d, p, 0, t), ids(FULL, d, (p + 1) % 5, 0, t))
                      for d in range(4) for p in range(5) for t in range(2))
    assert sorted(map(tuple, wide_f.tolist())) == expected
    assert sorted(map(tuple, wide_b.tolist())) == sorted((b, a) for a, b in expected)


def test_half_way_shift_is_ambiguous():
    small, full = (4, 1), (8, 1)
    pairs = np.array([[p, (p + 2) % 4] for p in range(4)])
    with pytest.raises(NotWidenable, match="direction unknown"):
        widen_pairs(pairs, small, full)


def _canonical(text: str) -> str:
    """``text`` with each permute's pairs sorted (their order means nothing) and without the
    inputs' and outputs' global shardings (which a widened export drops)."""
    def sort(match: re.Match) -> str:
        pairs = sorted(tuple(map(int, p)) for p in re.findall(r"\[(\d+), (\d+)\]", match[1]))
        return "source_target_pairs = dense<[" + ", ".join(f"[{a}, {b}]" for a, b in pairs) + "]>"
    text = re.sub(r' \{\}', "", re.sub(r'(, )?mhlo\.sharding = "[^"]*"', "", text))
    return re.sub(r"source_target_pairs = dense<\[(.*?)\]>", sort, text)


def _collectives(text: str) -> Counter:
    """(kind, its groups or pairs, bytes it moves) of every collective in the module text."""
    from hespas_py.mlir.bindings import ir, make_context

    found: Counter = Counter()
    with make_context():
        module = ir.Module.parse(text)

        def visit(op):
            kind = op.name.removeprefix("stablehlo.")
            if kind in ("all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                        "collective_permute"):
                key = "source_target_pairs" if kind == "collective_permute" else "replica_groups"
                ids_ = np.array(ir.DenseIntElementsAttr(op.attributes[key])).tolist()
                members = tuple(sorted(map(tuple, ids_))) if key == "source_target_pairs" \
                    else tuple(map(tuple, ids_))
                size = sum(ir.RankedTensorType(o.type).element_type.width // 8
                           * int(np.prod(ir.RankedTensorType(o.type).shape)) for o in op.operands)
                found[(kind, members, size)] += 1
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return found


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    factory = tmp_path_factory.mktemp("widen") / "step.py"
    factory.write_text(f"import sys\nsys.path.insert(0, {str(MODELS)!r})\n"
                       "from llama_4d import llama_4d_step\n")
    kwargs = dict(dp=4, pp=5, tp=2, virtual=2, batch=5, model="tiny", layers=8)
    spec = f"{factory}:llama_4d_step"
    return export_file(spec, 40, kwargs=kwargs), export_file(spec, 40, kwargs=kwargs, max_devices=39)


def test_widened_export_is_the_direct_export(both):
    direct, widened = both
    assert "mhlo.num_partitions = 40" in widened and "mhlo.sharding" not in widened
    assert widened.count("jax.buffer_donor = true") == direct.count("jax.buffer_donor = true") > 0
    assert _canonical(widened) == _canonical(direct)
    collectives = _collectives(widened)
    assert collectives == _collectives(direct)
    kinds = Counter(kind for kind, _, _ in collectives.elements())
    assert kinds["collective_permute"] >= 4 and kinds["all_reduce"] > 0


def test_buffer_donors_of_an_hlo_header():
    from hespas_py.export.stablehlo import _buffer_donors

    header = "HloModule m, buffer_donor={ (0, {}), (1, {}), (12, {}) }, entry_computation_layout={}"
    assert _buffer_donors(header + "\nENTRY") == (0, 1, 12)
    assert _buffer_donors("HloModule m, entry_computation_layout={(f32[2]{0})->f32[2]{0}}") == ()


def test_factory_without_invariant_axes_is_refused(tmp_path):
    factory = tmp_path / "f.py"
    factory.write_text(f"import sys\nsys.path.insert(0, {str(MODELS)!r})\n"
                       "from llama_layouts import llama_step\n")
    with pytest.raises(HespasError, match="declares no mesh_invariant_axes"):
        export_file(f"{factory}:llama_step", 8, kwargs={"dp": 8}, max_devices=4)
