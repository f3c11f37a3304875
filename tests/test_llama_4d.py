"""The 4D-parallel Llama step (scripts/models/llama_4d.py): its pipeline schedule, and one training
step on 8 CPU devices (2 pipeline stages x 2 context ranks x 2 tensor ranks, 2 chunks per stage,
4 microbatches) against the same model computed whole on one device."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[1] / "scripts" / "models"

# One step of the parallel program and of a plain reference, both in f32; prints the loss and,
# per parameter, the largest relative difference of the gradient (AdamW's first moment / 0.1).
STEP = textwrap.dedent("""
    import json, sys
    import jax
    jax.config.update("jax_platforms", "cpu"); jax.config.update("jax_num_cpu_devices", 8)
    import numpy as np, jax.numpy as jnp
    sys.path.insert(0, {models!r})
    import attention, llama_4d, llama_4d_layers as L
    from common import adamw_update
    from llama import rms_norm

    kw = dict(dp=1, pp=2, cp=2, tp=2, virtual=2, batch=4, model="tiny", layers=2, dtype="float32")
    step, args = llama_4d.llama_4d_step(**kw)
    c, P, V = L.MODELS["tiny"], 2, 2
    rng = np.random.default_rng(0)
    put = lambda value, like: jax.device_put(jnp.asarray(value, like.dtype), like.sharding)
    params = jax.tree.map(lambda a: put(rng.standard_normal(a.shape) * 0.2, a), args[0])
    for name in ("attn_norm", "mlp_norm"):
        params["layers"][name] = put(np.ones(args[0]["layers"][name].shape), args[0]["layers"][name])
    params["final_norm"] = put(np.ones(c.embed), args[0]["final_norm"])
    zeros = jax.tree.map(lambda a: put(np.zeros(a.shape), a), args[0])
    tokens = rng.integers(0, c.vocab, (1, 4, c.seq + 1))
    inputs, targets = tokens[..., :-1], tokens[..., 1:]
    order = [k for r in range(2) for k in (r, 3 - r)]  # the load-balanced context chunks
    balanced = lambda a: np.concatenate([np.split(a, 4, axis=-1)[k] for k in order], axis=-1)
    coords = {{a: put(np.arange(v.shape[0]), v) for a, v in args[5].items()}}
    _, (mu, _), _, loss = jax.jit(step)(params, (zeros, zeros), put(0, args[2]),
                                        put(balanced(inputs), args[3]), put(balanced(targets), args[4]),
                                        coords)

    def layer_params(p, layer):  # virtual stage 1 + layer: chunk r = stage // P on stage % P
        stage = 1 + layer
        return {{k: v[stage % P, stage // P, 0] for k, v in p["layers"].items()}}

    def reference(p):
        x = p["embedding"][jnp.asarray(inputs[0])]
        s, positions = c.seq, jnp.arange(c.seq)
        for layer in range(c.layers):
            w = layer_params(p, layer)
            h = rms_norm(x, w["attn_norm"], c.norm_eps)
            q = (h @ w["wq"]).reshape(4, s, c.heads, c.head_dim)
            k = (h @ w["wk"]).reshape(4, s, c.kv_heads, c.head_dim)
            v = (h @ w["wv"]).reshape(4, s, c.kv_heads, c.head_dim)
            q = L.rope(q, positions, c.rope_theta) * c.head_dim ** -0.5
            ctx = attention.dot_product(q, L.rope(k, positions, c.rope_theta), v)
            x = x + ctx.reshape(4, s, -1) @ w["wo"]
            h = rms_norm(x, w["mlp_norm"], c.norm_eps)
            x = x + (jax.nn.silu(h @ w["w_gate"]) * (h @ w["w_up"])) @ w["w_down"]
        logits = rms_norm(x, p["final_norm"], c.norm_eps) @ p["unembedding"]
        picked = jnp.take_along_axis(jax.nn.log_softmax(logits, -1), targets[0][..., None], -1)
        return -jnp.mean(picked)

    host = jax.tree.map(lambda a: jnp.asarray(np.asarray(a)), params)
    value, grads = jax.value_and_grad(reference)(host)
    rel = lambda a, b: float(np.abs(np.asarray(a) / 0.1 - b).max() / np.abs(b).max())
    errors = {{f"layer{{i}}.{{k}}": rel(layer_params(mu, i)[k], layer_params(grads, i)[k])
               for i in range(c.layers) for k in grads["layers"]}}
    errors.update({{k: rel(mu[k], grads[k]) for k in ("embedding", "unembedding", "final_norm")}})
    print(json.dumps({{"loss": float(loss), "reference": float(value), "errors": errors}}))
""")


def test_schedule_runs_every_item_forward_and_backward_in_dependency_order():
    sys.path.insert(0, str(MODELS))
    try:
        from pipeline_schedule import Schedule
    finally:
        sys.path.remove(str(MODELS))
    s = Schedule(stages=4, virtual=2, microbatches=8)
    assert (s.slots, s.warmup, s.steady, s.in_flight) == (19, 7, 12, 11)
    forward, backward = {}, {}  # (microbatch, virtual stage) -> slot
    for slot in range(s.slots):
        for stage in range(4):
            for table, item in ((forward, s.forward(slot, stage)), (backward, s.backward(slot, stage))):
                if bool(item.valid):
                    key = (int(item.microbatch), int(item.chunk) * 4 + stage)
                    assert key not in table
                    table[key] = slot
    assert len(forward) == len(backward) == 8 * 8
    # Program order: F slots 0..warmup-1, then (F warmup + k, B k) pairs, then the last B slots.
    when_f = lambda slot: slot if slot < s.warmup else s.warmup + 2 * (slot - s.warmup)  # noqa: E731
    when_b = lambda slot: (s.warmup + 2 * slot + 1 if slot < s.steady  # noqa: E731
                           else s.warmup + 2 * s.steady + slot - s.steady)
    for (m, v), slot in forward.items():
        if v:  # the previous virtual stage's forward came one forward slot earlier
            assert forward[m, v - 1] == slot - 1
        assert when_f(slot) < when_b(backward[m, v])
    for (m, v), slot in backward.items():
        if v < 7:
            assert backward[m, v + 1] == slot - 1
    # The first stage holds at most in_flight items between their forward and backward.
    held = max(sum(when_f(forward[m, v]) <= t < when_b(backward[m, v]) for (m, v) in forward
                   if v % 4 == 0) for t in range(2 * s.slots))
    assert held == s.in_flight


def test_layout_that_does_not_divide_is_refused():
    sys.path.insert(0, str(MODELS))
    try:
        import llama_4d_layers as layers
    finally:
        sys.path.remove(str(MODELS))
    with pytest.raises(ValueError, match="layers do not fill"):
        layers.make_plan(layers.MODELS["405b"], 1, 16, 1, 8, 4, 16)  # 126 over 62 chunks
    with pytest.raises(ValueError, match="do not split into groups"):
        layers.make_plan(layers.MODELS["405b"], 1, 16, 1, 8, 8, 20)
    assert layers.make_plan(layers.MODELS["405b"], 64, 16, 1, 8, 8, 32).layers_per_chunk == 1


def test_one_parallel_step_equals_the_whole_model(tmp_path: Path):
    script = tmp_path / "step.py"
    script.write_text(STEP.format(models=str(MODELS)))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["loss"] == pytest.approx(result["reference"], rel=1e-5)
    assert len(result["errors"]) == 2 * 9 + 3
    assert max(result["errors"].values()) < 1e-4, result["errors"]
