"""The post-SPMD export stops XLA's compile once the partitioner's dump is complete."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.export import partition

MODELS = Path(__file__).resolve().parents[1] / "scripts" / "models"


def fake_child(tmp_path: Path, body: str) -> list[str]:
    """A child process running ``body`` with ``dump`` (the dump folder) and ``pid_file`` bound."""
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(f"""
        import os, sys, time
        from pathlib import Path
        dump = Path({str(tmp_path / "dump")!r})
        Path({str(tmp_path / "pid")!r}).write_text(str(os.getpid()))
    """) + textwrap.dedent(body))
    return [sys.executable, str(script)]


def test_child_is_killed_once_the_next_pass_is_dumped(tmp_path):
    command = fake_child(tmp_path, f"""
        dump.mkdir()
        after = "after_{partition.PARTITIONER_PASS}.before_{partition.NEXT_PASS}"
        (dump / f"m.0001.{{after}}.txt").write_text("x")
        (dump / "m.0002.after_{partition.NEXT_PASS}.before_call-inliner.txt").write_text("x")
        time.sleep(600)
    """)
    start = time.monotonic()
    partition.run_until_dumped(command, tmp_path / "dump", tmp_path / "err.txt", "spec")
    assert time.monotonic() - start < 300
    with pytest.raises(ProcessLookupError):
        os.kill(int((tmp_path / "pid").read_text()), 0)


def test_child_error_line_is_the_message(tmp_path):
    command = fake_child(tmp_path, """
        print("some XLA warning", file=sys.stderr)
        print("error: step.py:f: the factory raised ValueError: no", file=sys.stderr)
        sys.exit(2)
    """)
    with pytest.raises(HespasError, match=r"^step\.py:f: the factory raised ValueError: no$"):
        partition.run_until_dumped(command, tmp_path / "dump", tmp_path / "err.txt", "step.py:f")


def test_child_crash_without_error_line(tmp_path):
    command = fake_child(tmp_path, "os.abort()\n")
    with pytest.raises(HespasError, match="spec: XLA's compile ended with status"):
        partition.run_until_dumped(command, tmp_path / "dump", tmp_path / "err.txt", "spec")


def test_stopping_early_reads_the_module_a_whole_compile_dumps(monkeypatch):
    # With a next pass that never comes, the child compiles to the end: the same module comes out.
    spec = f"{MODELS / 'mlp.py'}:fsdp_step"
    early = partition.post_spmd_hlo(spec, 4)
    monkeypatch.setattr(partition, "NEXT_PASS", "no-such-pass")
    assert partition.post_spmd_hlo(spec, 4) == early
    assert "all-gather" in early and "reduce-scatter" in early


def test_one_device_is_the_module_before_optimizations(tmp_path):
    (tmp_path / "f.py").write_text(textwrap.dedent("""
        import jax, jax.numpy as jnp
        def step():
            return jax.jit(lambda x: jnp.tanh(x) * 2), (jax.ShapeDtypeStruct((8, 4), jnp.float32),)
    """))
    text = partition.post_spmd_hlo(f"{tmp_path / 'f.py'}:step", 1)
    assert "tanh" in text and "f32[8,4]" in text
