"""``--set KEY=VALUE`` for factories: JSON scalars, lists for search, containers for one export."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hespas_py.errors import HespasError
from hespas_py.export.factory_args import parse_settings


def test_single_values_keep_json_lists_and_objects():
    assert parse_settings(["shape=[4, 8]", "opts={\"a\": 1}", "n=3", "name=relu"], lists=False) == {
        "shape": [[4, 8]], "opts": [{"a": 1}], "n": [3], "name": ["relu"]}


def test_value_lists_split_on_commas_and_keep_scalars():
    assert parse_settings(["hidden=512,1024,512", "remat=true,false"], lists=True) == {
        "hidden": [512, 1024], "remat": [True, False]}


@pytest.mark.parametrize("item, message", [("x", "expected KEY=VALUE"), ("x=", "empty value")])
def test_malformed_settings(item, message):
    with pytest.raises(HespasError, match=message):
        parse_settings([item], lists=False)


FACTORY = '''
import jax, jax.numpy as jnp
def make(shape=(2, 2)):
    assert isinstance(shape, list), type(shape)
    return jax.jit(lambda x: x * 2), (jax.ShapeDtypeStruct(tuple(shape), jnp.float32),)
'''


def test_a_list_reaches_the_factory_through_export(tmp_path):
    """`hespas_py.estimate(..., shape=[3, 5])` hands a list to ``hespas export --set``."""
    factory = tmp_path / "factory.py"
    factory.write_text(FACTORY)
    from hespas_py.export import export_in_subprocess

    text = export_in_subprocess(f"{factory}:make", 1, kwargs={"shape": [3, 5]})
    assert "tensor<3x5xf32>" in text
    done = subprocess.run([sys.executable, "-c", "from hespas_py.cli.main import main; main()",
                           "export", f"{factory}:make", "--devices", "1", "--set", "shape=[3,5]",
                           "--out", str(tmp_path / "s.mlir")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "tensor<3x5xf32>" in (tmp_path / "s.mlir").read_text()
