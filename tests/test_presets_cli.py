"""``hespas presets`` and the unknown-preset error that points to it."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from hespas_py.cli.main import app
from hespas_py.errors import HespasError
from hespas_py.hardware import load_hardware
from hespas_py.sim.config import resolve_system_files


def test_presets_json_lists_every_node_and_system():
    listed = json.loads(CliRunner().invoke(app, ["presets", "--json"], catch_exceptions=False).stdout)
    nodes = {row["name"]: row for row in listed["nodes"]}
    systems = {row["name"]: row for row in listed["systems"]}
    assert nodes["H100_80GB"]["bf16_tflops"] == pytest.approx(989.4, rel=0.01)
    assert nodes["H100_80GB"]["methods"] == ["fused_roofline", "roofline", "xla_cost", "xla_profile"]
    assert nodes["H100_80GB"]["default_method"] == "fused_roofline"
    big = systems["H100_80GB_8GPU_32"]
    assert big["npus"] == 256 == math.prod(d["npus"] for d in big["dimensions"])
    assert big["dimensions"][0]["npus"] == 8
    assert all(row["npus"] > 1 for row in systems.values())


def test_presets_table_names_the_presets():
    out = CliRunner().invoke(app, ["presets"], catch_exceptions=False, terminal_width=200).stdout
    assert "TPUv6e" in out and "A100_SXM_40GB_4GPU" in out
    assert "fused_roofline (default), roofline, xla_cost, xla_profile" in out


def test_unknown_presets_suggest_close_names_not_the_whole_list():
    with pytest.raises(HespasError) as node:
        load_hardware("H100_80G")
    assert "did you mean H100_80GB" in str(node.value) and "hespas presets" in str(node.value)
    assert "TPUv3" not in str(node.value)
    with pytest.raises(HespasError) as system:
        resolve_system_files("nothing_like_it")
    assert "did you mean" not in str(system.value)
    assert str(system.value).startswith("nothing_like_it: not a system.json, a folder or a system preset")


def test_describe_lists_every_parameter_with_its_value_and_source():
    out = CliRunner().invoke(app, ["presets", "--describe", "H100_80GB", "--json"],
                             catch_exceptions=False).stdout
    doc = json.loads(out)
    rows = {row["key"]: row for row in doc["parameters"]}
    assert doc["methods"] == ["fused_roofline", "roofline"]
    assert rows["tensor_efficiency"]["value"] == 0.801 and rows["tensor_efficiency"]["set"]
    assert "ml-engineering" in rows["tensor_efficiency"]["source"]
    assert rows["mxu_size"] == {**rows["mxu_size"], "value": "0", "set": False}
    table = CliRunner().invoke(app, ["presets", "--describe", "TPUv6e"], catch_exceptions=False,
                               terminal_width=250).stdout
    assert "mxu_size" in table and "256" in table


def test_describe_an_unknown_preset_is_one_line():
    with pytest.raises(HespasError, match="did you mean H100_80GB"):
        CliRunner().invoke(app, ["presets", "--describe", "H100_80G"], catch_exceptions=False)
