"""The steps of the scale group (scripts/models/pax_gpt.py, maxtext_llama.py): tiny configurations
exported at 8 devices, their collectives (gathers and reduce-scatters inside the
scanned layers' loop bodies, the data-parallel all-reduce on the gradient shards), the flash form
of attention against autodiff, and the parameter counts of the published models."""

from __future__ import annotations

import math
import sys
import textwrap
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

MODELS = Path(__file__).resolve().parents[1] / "scripts" / "models"
DEVICES = 8
FSDP4 = ((0, 1, 2, 3), (4, 5, 6, 7))
DATA2 = ((0, 4), (1, 5), (2, 6), (3, 7))
ALL8 = (tuple(range(8)),)
SEQ = 24  # the tiny GPT's sequence: no other dimension has this size

# Tiny stand-ins of the published shapes: the programs' structure, not their size.
FACTORIES = textwrap.dedent("""
    import dataclasses, sys
    sys.path.insert(0, {models!r})
    import maxtext_llama, pax_gpt
    from fsdp import Layout

    GPT = pax_gpt.Config(vocab=256, embed=32, heads=2, head_dim=16, layers=2, hidden=64, seq={seq},
                         input_dropout=0.1)
    LLAMA = maxtext_llama.Config(vocab=256, embed=32, heads=4, kv_heads=2, head_dim=8, layers=2, mlp=64,
                                 rope_theta=1e4)

    def pax_fsdp():
        return pax_gpt.train(pax_gpt.Program("5b", Layout(2, 4, 1), "SAVE_DOT_ONLY", True), GPT)

    def pax_dp():
        return pax_gpt.train(pax_gpt.Program("126m", Layout(8, 1, 1), None, False),
                             dataclasses.replace(GPT, input_dropout=0.0))

    def llama():
        return maxtext_llama.train(maxtext_llama.Program("x", 16, Layout(1, 8, 1), maxtext_llama.QKV), LLAMA)
""")


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    from hespas_py.export import export_file

    factories = tmp_path_factory.mktemp("scale_exports") / "tiny_scale_steps.py"
    factories.write_text(FACTORIES.format(models=str(MODELS), seq=SEQ))
    return {name: export_file(f"{factories}:{name}", DEVICES) for name in ("pax_fsdp", "pax_dp", "llama")}


def collectives(text: str) -> Counter:
    """``(kind, in a while body, replica groups, result type)`` of every collective ``@main`` runs
    (called functions followed)."""
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir

    found: Counter = Counter()
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)
        functions = {ir.StringAttr(op.attributes["sym_name"]).value: op.operation
                     for op in module.body.operations}

        def visit(op: ir.Operation, in_loop: bool) -> None:
            kind = op.name.removeprefix("stablehlo.")
            if kind in ("all_reduce", "all_gather", "reduce_scatter"):
                groups = np.array(ir.DenseIntElementsAttr(op.attributes["replica_groups"])).tolist()
                found[(kind, in_loop, tuple(map(tuple, groups)), str(op.results[0].type))] += 1
            if op.name == "func.call":
                visit(functions[ir.FlatSymbolRefAttr(op.attributes["callee"]).value], in_loop)
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.operations:
                        visit(inner, in_loop or op.name == "stablehlo.while")

        visit(functions["main"], False)
    return found


def kinds(found: Counter, kind: str, in_loop: bool) -> Counter:
    return Counter({k: n for k, n in found.items() if k[0] == kind and k[1] == in_loop})


def test_fsdp_gathers_and_reduce_scatters_every_layer_weight_inside_loops(exports: dict[str, str]) -> None:
    found = collectives(exports["pax_fsdp"])
    # qkv, out, ffn1, ffn2 of the scanned layer: gathered in the forward loop and again in the
    # rematerialised backward loop, in bf16, over the 4 fsdp devices of each replica.
    gathers = kinds(found, "all_gather", True)
    assert sum(gathers.values()) == 8 and {(k[2], "bf16" in k[3]) for k in gathers} == {(FSDP4, True)}
    scatters = kinds(found, "reduce_scatter", True)
    assert sum(scatters.values()) == 4 and {k[2] for k in scatters} == {FSDP4}
    # Only the shard is all-reduced across the 2 replicas, inside the backward loop.
    shards = Counter({k[3]: n for k, n in scatters.items()})
    across = Counter({k[3]: n for k, n in kinds(found, "all_reduce", True).items() if k[2] == DATA2})
    assert shards <= across
    # Embedding and position embedding, outside the loops.
    assert sum(kinds(found, "all_gather", False).values()) == 2
    assert sum(kinds(found, "reduce_scatter", False).values()) == 2


def test_flash_attention_leaves_no_scores_to_the_backward_loop(exports: dict[str, str]) -> None:
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir

    # SAVE_DOT_ONLY saves every dot of a layer, but the score matrix [.., SEQ, SEQ] of the flash
    # form is never among the stacked per-layer residuals the loops carry.
    carried = []
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(exports["pax_fsdp"])

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name == "stablehlo.while":
                carried.extend(ir.RankedTensorType(r.type).shape for r in op.results)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    stacked = [shape for shape in carried if shape and shape[0] == 2]  # one slice per layer
    assert stacked and not [shape for shape in stacked if shape.count(SEQ) >= 2]


def test_one_axis_fsdp_has_no_single_device_collectives(exports: dict[str, str]) -> None:
    found = collectives(exports["llama"])
    # wq, wk, wv, wo, wi_0, wi_1, wo_mlp: forward and backward gathers, one reduce-scatter each.
    assert sum(kinds(found, "all_gather", True).values()) == 14
    assert sum(kinds(found, "reduce_scatter", True).values()) == 7
    assert all(len(k[2][0]) == DEVICES for k in found)


def test_pure_data_parallel_all_reduces_each_gradient_over_all_devices(exports: dict[str, str]) -> None:
    found = collectives(exports["pax_dp"])
    assert "stablehlo.while" not in exports["pax_dp"]  # GPT-126M's layers are not repeated
    assert {k[0] for k in found} == {"all_reduce"} and {k[2] for k in found} == {ALL8}
    # 2 x 12 layer parameters, embedding, position, final scale and bias, and the loss.
    assert sum(found.values()) == 2 * 12 + 4 + 1


def _models() -> None:
    if str(MODELS) not in sys.path:
        sys.path.insert(0, str(MODELS))


def test_flash_attention_matches_autodiff_attention() -> None:
    _models()
    import attention
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(1)
    q, k, v = (rng.standard_normal(shape, np.float32) for shape in ((2, 8, 4, 16), (2, 8, 2, 16), (2, 8, 2, 16)))

    @jax.jit
    def both(q, k, v):
        def value_and_grads(fn):
            return jax.value_and_grad(lambda *a: jnp.sum(jnp.sin(fn(*a))), argnums=(0, 1, 2))(q, k, v)

        return value_and_grads(attention.flash), value_and_grads(attention.dot_product)

    (flash, flash_grads), (plain, plain_grads) = both(q, k, v)
    assert np.allclose(flash, plain, atol=1e-5)
    for a, b in zip(flash_grads, plain_grads, strict=True):
        assert np.allclose(a, b, atol=1e-4)


# Published parameter counts, billions, as scale_step_times.csv gives them.
PUBLISHED = {("pax_gpt", "126m"): 0.125, ("pax_gpt", "5b"): 5.05, ("pax_gpt", "175b"): 174.6,
             ("maxtext_llama", "llama3.1-8b"): 8.03, ("maxtext_llama", "llama3.1-70b"): 70.55,
             ("maxtext_llama", "llama2-70b"): 68.98, ("maxtext_llama", "mistral-7b"): 7.24}


@pytest.mark.parametrize(("module", "size"), sorted(PUBLISHED))
def test_parameter_counts_are_the_published_ones(module: str, size: str) -> None:
    _models()
    model = __import__(module)
    count = model.param_count(model.CONFIGS[size])
    assert math.isclose(count / 1e9, PUBLISHED[(module, size)], rel_tol=0.01)
