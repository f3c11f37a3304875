"""XLA's collective rewrites (hespas_py.split.rewrites) and their switch in `hespas gen`.

``fsdp_jit_4dev.mlir`` and ``fsdp_jit_scan_8dev.mlir`` are ``hespas export`` of
``scripts/models/mlp.py:fsdp_jit_step`` (4 devices) and ``:fsdp_jit_scan_step`` (8 devices, the
layers scanned): jit-sharded FSDP steps whose gradients XLA's partitioner all-reduces and slices.
The small hand-written modules vary one part of that pattern at a time.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.mlir.reader import load_module
from hespas_py.pipeline import generate
from hespas_py.run import Split, build_config
from hespas_py.split import linear_split

DATA = Path(__file__).parent / "data" / "mlir"

_REDUCER = """({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    })"""
_TABLE = "dense<[0, 64, 128, 192]>"
_BY_TABLE = f"""%c = stablehlo.constant {_TABLE} : tensor<4xi32>
    %id = stablehlo.partition_id : tensor<ui32>
    %t = stablehlo.dynamic_slice %c, %id, sizes = [1] : (tensor<4xi32>, tensor<ui32>) -> tensor<1xi32>
    %o = stablehlo.reshape %t : (tensor<1xi32>) -> tensor<i32>"""
_CHANNEL = ("channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, "
            "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids")


def module_text(offset: str = _BY_TABLE, attrs: str = _CHANNEL, slice_sizes: str = "64, 64",
                sliced: str = "tensor<64x64xf32>", starts: str = "%o, %z", extra: str = "",
                source: str = "%r", source_type: str = "tensor<256x64xf32>",
                replicas: int = 1, partitions: int = 4) -> str:
    """An all-reduce of a 256x64 array and a dynamic slice of it (defaults: the partitioner's
    form, device j keeping rows 64j to 64j + 63)."""
    return f"""module @m attributes {{mhlo.num_partitions = {partitions} : i32, mhlo.num_replicas = {replicas} : i32}} {{
  func.func public @main(%x: tensor<256x64xf32>) -> ({sliced}, tensor<256x64xf32>) {{
    %r = "stablehlo.all_reduce"(%x) <{{{attrs}}}> {_REDUCER} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    {offset}
    {extra}
    %out = stablehlo.dynamic_slice {source}, {starts}, sizes = [{slice_sizes}] : ({source_type}, tensor<i32>, tensor<i32>) -> {sliced}
    return %out, %x : {sliced}, tensor<256x64xf32>
  }}
}}
"""


def collectives(text: str, tmp_path: Path, rewrites: bool = True) -> tuple[Counter, dict]:
    path = tmp_path / "m.mlir"
    path.write_text(text)
    graph = linear_split(load_module(path), collective_rewrites=rewrites)
    return Counter(b.ops[0].short_name for b in graph.blocks if b.collective), graph.rewrites


def test_partitioner_pattern_becomes_a_reduce_scatter(tmp_path):
    found, counts = collectives(module_text(), tmp_path)
    assert found == {"reduce_scatter": 1} and counts == {"reduce_scatter_creator": 1}
    path = tmp_path / "m.mlir"
    graph = linear_split(load_module(path), collective_rewrites=True)
    scatter = next(b.ops[0] for b in graph.blocks if b.collective)
    assert scatter.attrs["scatter_dimension"] == 0
    assert scatter.result_types[0].shape == (64, 64)
    assert scatter.operand_types[0].shape == (256, 64)
    assert scatter.attrs["replica_groups"] == ((0, 1, 2, 3),)
    # Off: the module as it is.
    assert collectives(module_text(), tmp_path, rewrites=False) == ({"all_reduce": 1}, {})


@pytest.mark.parametrize("offset", [
    # multiply(convert(partition_id), 64)
    """%id = stablehlo.partition_id : tensor<ui32>
    %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>
    %k = stablehlo.constant dense<64> : tensor<i32>
    %o = stablehlo.multiply %i, %k : tensor<i32>""",
    # clamp(0, table[id], 192)
    _BY_TABLE.replace("%o = ", "%u = ") + """
    %hi = stablehlo.constant dense<192> : tensor<i32>
    %o = stablehlo.clamp %z, %u, %hi : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>""",
    # the table looked up through a table of device positions (GetIndexForId's nesting)
    """%c = stablehlo.constant dense<[0, 64, 128, 192]> : tensor<4xi32>
    %p = stablehlo.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
    %id = stablehlo.partition_id : tensor<ui32>
    %q = stablehlo.dynamic_slice %p, %id, sizes = [1] : (tensor<4xi32>, tensor<ui32>) -> tensor<1xi32>
    %qi = stablehlo.reshape %q : (tensor<1xi32>) -> tensor<i32>
    %t = stablehlo.dynamic_slice %c, %qi, sizes = [1] : (tensor<4xi32>, tensor<i32>) -> tensor<1xi32>
    %o = stablehlo.reshape %t : (tensor<1xi32>) -> tensor<i32>""",
])
def test_offset_forms_xla_recognises(tmp_path, offset):
    assert collectives(module_text(offset), tmp_path)[0] == {"reduce_scatter": 1}


@pytest.mark.parametrize("why, text", [
    ("offset not indexed by the device id", module_text(
        "%o = stablehlo.constant dense<64> : tensor<i32>")),
    ("table entries out of order", module_text(_BY_TABLE.replace(_TABLE, "dense<[0, 64, 64, 192]>"))),
    ("table indexed by something else", module_text(_BY_TABLE.replace(
        "%id = stablehlo.partition_id : tensor<ui32>",
        "%id = stablehlo.constant dense<1> : tensor<ui32>"))),
    ("replica_id where the channel and global ids mean partition_id", module_text(
        _BY_TABLE.replace("partition_id", "replica_id"))),
    ("multiplier that does not divide the slice", module_text(
        """%id = stablehlo.partition_id : tensor<ui32>
    %i = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>
    %k = stablehlo.constant dense<3> : tensor<i32>
    %o = stablehlo.multiply %i, %k : tensor<i32>""")),
    ("all-reduce read twice", module_text(
        extra="%again = stablehlo.add %r, %r : tensor<256x64xf32>")),
    ("slice on two dimensions", module_text(
        slice_sizes="64, 32", sliced="tensor<64x32xf32>", starts="%o, %o")),
    ("slice of half the rows for a group of 4", module_text(
        slice_sizes="128, 64", sliced="tensor<128x64xf32>")),
    ("a one-device group", module_text(attrs=_CHANNEL.replace(
        "dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>", "dense<[[0], [1], [2], [3]]> : tensor<4x1xi64>"))),
])
def test_patterns_xla_leaves_alone(tmp_path, why, text):
    found, counts = collectives(text, tmp_path)
    assert found == {"all_reduce": 1} and counts == {"reduce_scatter_creator": 0}, why


def test_offsets_follow_positions_in_split_groups(tmp_path):
    # Groups {0, 2} and {1, 3}: device 2 holds the second half in its group, as device 3 does.
    attrs = _CHANNEL.replace("dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>",
                             "dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>")
    right = _BY_TABLE.replace(_TABLE, "dense<[0, 0, 128, 128]>")
    wrong = _BY_TABLE.replace(_TABLE, "dense<[0, 128, 0, 128]>")
    kwargs = dict(attrs=attrs, slice_sizes="128, 64", sliced="tensor<128x64xf32>")
    assert collectives(module_text(right, **kwargs), tmp_path)[0] == {"reduce_scatter": 1}
    assert collectives(module_text(wrong, **kwargs), tmp_path)[0] == {"all_reduce": 1}


def test_replica_id_without_channel(tmp_path):
    """A pmap-style module: replicas, no channel, the offset by replica_id."""
    text = module_text(_BY_TABLE.replace("partition_id", "replica_id"),
                       attrs="replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>",
                       replicas=4, partitions=1)
    assert collectives(text, tmp_path)[0] == {"reduce_scatter": 1}
    assert collectives(text.replace("replica_id", "partition_id"), tmp_path)[0] \
        == {"all_reduce": 1}


def test_reshape_between(tmp_path):
    # Rows kept whole by the reshape: a reduce-scatter of rows, reshaped as the slice was (a free
    # reshape XLA adds after it, left out).
    text = module_text(extra="%v = stablehlo.reshape %r : (tensor<256x64xf32>) -> tensor<256x8x8xf32>",
                       source="%v", source_type="tensor<256x8x8xf32>, tensor<i32>",
                       slice_sizes="64, 8, 8", sliced="tensor<64x8x8xf32>", starts="%o, %z, %z")
    path = tmp_path / "m.mlir"
    path.write_text(text)
    graph = linear_split(load_module(path), collective_rewrites=True)
    (scatter,) = [b.ops[0] for b in graph.blocks if b.collective]
    assert scatter.short_name == "reduce_scatter" and scatter.attrs["scatter_dimension"] == 0
    assert scatter.operand_types[0].shape == (256, 64)
    assert scatter.result_types[0].shape == (64, 8, 8)
    assert not any(op.short_name in ("reshape", "dynamic_slice") and op.result_types[0].shape
                   in ((256, 8, 8), (64, 8, 8)) for b in graph.blocks for op in b.ops)
    # The sliced dimension is one the reshape merged: left alone.
    flat = module_text(_BY_TABLE.replace(_TABLE, "dense<[0, 4096, 8192, 12288]>"),
                       extra="%v = stablehlo.reshape %r : (tensor<256x64xf32>) -> tensor<16384xf32>",
                       source="%v", source_type="tensor<16384xf32>", slice_sizes="4096",
                       sliced="tensor<4096xf32>", starts="%o").replace(", tensor<i32>, tensor<i32>)", ", tensor<i32>)")
    assert collectives(flat, tmp_path)[0] == {"all_reduce": 1}


def test_exported_fsdp_steps(tmp_path):
    flat = linear_split(load_module(DATA / "fsdp_jit_4dev.mlir"), collective_rewrites=True)
    kinds = Counter(b.ops[0].short_name for b in flat.blocks if b.collective)
    # Both weight gradients; the loss all-reduce stays (a scalar).
    assert kinds["reduce_scatter"] == 2 and kinds["all_reduce"] == 1
    scanned = linear_split(load_module(DATA / "fsdp_jit_scan_8dev.mlir"),
                           collective_rewrites=True)
    assert scanned.rewrites == {"reduce_scatter_creator": 1}  # in the loop body, counted once
    kinds = Counter(b.ops[0].short_name for b in scanned.blocks if b.collective)
    assert kinds["reduce_scatter"] == scanned.loops[-1].trips == 4


def _gen(tmp_path: Path, name: str, preset: str = "H100_80GB", **split) -> Path:
    out = tmp_path / name
    config = build_config(preset, mlir_file=DATA / "fsdp_jit_4dev.mlir", output_dir=out,
                          split=Split(**split))
    generate(config)
    return out


def test_gpu_presets_rewrite_by_default_and_record_it(tmp_path):
    stats = json.loads((_gen(tmp_path, "gpu") / "module_stats.json").read_text())
    assert stats["collective_rewrites"] == {"reduce_scatter_creator": 2}
    assert stats["collectives"]["reduce_scatter"]["count"] == 2
    tpu = json.loads((_gen(tmp_path, "tpu", "TPUv5p") / "module_stats.json").read_text())
    assert "collective_rewrites" not in tpu and "reduce_scatter" not in tpu["collectives"]


def test_off_switch_writes_the_traces_of_no_rewrite(tmp_path):
    """--no-collective-rewrites on a GPU preset writes, byte for byte, what the same hardware
    without a compiler key (no rewrites: the behaviour before them) writes."""
    off = _gen(tmp_path, "off", collective_rewrites=False)
    config = build_config("H100_80GB", mlir_file=DATA / "fsdp_jit_4dev.mlir",
                                   output_dir=tmp_path / "plain")
    assert config.collective_rewrites
    plain = tmp_path / "plain"
    generate(dataclasses.replace(config, collective_rewrites=False,
                                 hardware=config.hardware.with_params({"compiler": None})))
    traces = sorted(p.name for p in off.glob("*.et"))
    assert traces and traces == sorted(p.name for p in plain.glob("*.et"))
    assert all((off / t).read_bytes() == (plain / t).read_bytes() for t in traces)
    on = _gen(tmp_path, "on")
    assert any((off / t).read_bytes() != (on / t).read_bytes() for t in traces)


def test_config_key_and_bad_value(tmp_path):
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"perf_estimator": {"method": "roofline",
                                                     "hardware": "H100_80GB"},
                                  "collective_rewrites": False}))
    assert not build_config(config, mlir_file="m", output_dir="o").collective_rewrites
    assert build_config(config, mlir_file="m", output_dir="o",
                        split=Split(collective_rewrites=True)).collective_rewrites
    config.write_text(json.dumps({"perf_estimator": {"method": "roofline",
                                                     "hardware": "H100_80GB"},
                                  "collective_rewrites": "yes"}))
    with pytest.raises(HespasError, match="collective_rewrites must be true or false"):
        build_config(config, mlir_file="m", output_dir="o")


@pytest.mark.parametrize("flag, expected", [([], 2), (["--no-collective-rewrites"], 0)])
def test_gen_flag(tmp_path, capsys, monkeypatch, flag, expected):
    from hespas_py.cli.main import main
    from test_gen_cli import run

    code, out, _ = run(main, ["gen", "A100_SXM_40GB", "--mlir_file",
                              str(DATA / "fsdp_jit_4dev.mlir"), "--output", str(tmp_path / "o"),
                              "--json", *flag], capsys, monkeypatch)
    assert code == 0
    assert json.loads(out)["collectives"].get("reduce_scatter", {}).get("count", 0) == expected
