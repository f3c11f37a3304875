"""How many devices a module runs on (stated, or inferred from its groups, pairs and mesh), and
trace sets for many devices (1,024 end to end, 100,000, the hard-link limit, the bound)."""

from __future__ import annotations

import errno
import gzip
import json
import os
from pathlib import Path

import pytest

from hespas_py.chakra import writer
from hespas_py.chakra.groups import DeviceLayout
from hespas_py.cli.compat import chakra_gen
from hespas_py.errors import HespasError
from hespas_py.mlir.bindings import ir, make_context
from hespas_py.mlir.meshes import MAX_DEVICES
from hespas_py.mlir.reader import load_module
from hespas_py.pipeline import generate
from hespas_py.run import build_config
from hespas_py.split import split
from test_gen_cli import run

REPO = Path(__file__).resolve().parents[1]
_REDUCER = """({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    })"""


def step(attributes: str, collectives: list[str], shape: str = "tensor<8xf32>",
         body: str = "") -> str:
    """A module text: tanh, then each collective (its attribute dict given) in turn."""
    lines = [f"module @step attributes {{{attributes}}} {{", body,
             f"  func.func public @main(%x: {shape}) -> {shape} {{",
             f"    %v0 = stablehlo.tanh %x : {shape}"]
    for i, collective in enumerate(collectives):
        name, _, attrs = collective.partition(" ")
        region = f" {_REDUCER}" if name == "all_reduce" else ""
        lines.append(f'    %v{i + 1} = "stablehlo.{name}"(%v{i}) <{{{attrs}}}>{region} : '
                     f"({shape}) -> {shape}")
    lines += [f"    return %v{len(collectives)} : {shape}", "  }", "}"]
    return "\n".join(lines) + "\n"


def groups(rows: list[list[int]]) -> str:
    return f"replica_groups = dense<{rows}> : tensor<{len(rows)}x{len(rows[0])}xi64>"


CHANNEL = "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>"
DEVICE_IDS = f"{CHANNEL}, use_global_device_ids"


def layout_of(path: Path, num_npus: int | None = None) -> DeviceLayout:
    module = load_module(path)
    graph = split(module, "linear_split")
    return DeviceLayout.for_module(module, num_npus, (b.ops[0] for b in graph.blocks
                                                      if b.collective))


@pytest.mark.parametrize("attributes, collectives, body, expected, evidence", [
    ("", [f"all_reduce {groups([[0, 1], [2, 3]])}"], "", (4, 1),
     "the replica_groups of stablehlo.all_reduce (replica 3)"),
    ("", [f"all_gather all_gather_dim = 0 : i64, {DEVICE_IDS}, "
          f"{groups([[0, 1, 2, 3, 4, 5]])}"], "", (1, 6),
     "the replica_groups of stablehlo.all_gather (device 5)"),
    ("", [f"collective_permute {CHANNEL}, source_target_pairs = dense<[[0, 4], [4, 0]]> : "
          "tensor<2x2xi64>"], "", (1, 5),
     "the source_target_pairs of stablehlo.collective_permute (partition 4)"),
    ("", [], '  sdy.mesh @mesh = <["x"=2, "y"=4]>', (1, 8), "the sdy.mesh (8 devices)"),
    ("mhlo.num_replicas = 2 : i32", [f"all_reduce {DEVICE_IDS}, {groups([list(range(8))])}"],
     "", (2, 4), "the replica_groups of stablehlo.all_reduce (device 7)"),
    ("mhlo.num_partitions = 4 : i32", [f"all_reduce {DEVICE_IDS}, {groups([list(range(8))])}"],
     "", (2, 4), "the replica_groups of stablehlo.all_reduce (device 7)"),
    ("", [], "", (1, 1), "no collective naming a second device"),
])
def test_unstated_counts_are_the_smallest_the_groups_allow(tmp_path, attributes, collectives,
                                                           body, expected, evidence) -> None:
    path = tmp_path / "step.mlir"
    path.write_text(step(attributes, collectives, body=body))
    layout = layout_of(path)
    assert (layout.num_replicas, layout.num_partitions) == expected
    assert layout.inferred == evidence and layout.as_json()["origin"] == "inferred"


#: torch-xla/tt-xla style: a mesh, no counts, channel collectives whose groups are device ids.
_TORCH_XLA_MESH = '  sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>'


@pytest.mark.parametrize("collectives, expected", [
    # Groups fit in the 8-device mesh: device ids, 8 devices (by the letter: 8 replicas x 8).
    ([f"all_reduce {CHANNEL}, {groups([[0, 4], [1, 5], [2, 6], [3, 7]])}",
      f"all_gather all_gather_dim = 0 : i64, {CHANNEL}, {groups([[0, 1, 2, 3], [4, 5, 6, 7]])}"],
     (1, 8, ((0, 4), (1, 5), (2, 6), (3, 7)))),
    # A group names id 9, outside the mesh: today's rule (replicas x mesh partitions).
    ([f"all_reduce {CHANNEL}, {groups([list(range(10))])}"], (10, 8, None)),
])
def test_foreign_channel_groups_inside_the_mesh_are_device_ids(tmp_path, caplog, collectives,
                                                               expected) -> None:
    path = tmp_path / "step.mlir"
    path.write_text(step("", collectives, body=_TORCH_XLA_MESH))
    module = load_module(path)
    ops = [b.ops[0] for b in split(module, "linear_split").blocks if b.collective]
    with caplog.at_level("WARNING", logger="hespas_py"):
        layout = DeviceLayout.for_module(module, None, ops)
    replicas, partitions, first_groups = expected
    assert (layout.num_replicas, layout.num_partitions) == (replicas, partitions)
    as_ids = "read as device ids" in caplog.text
    assert as_ids == layout.channel_ids_are_devices == (first_groups is not None)
    assert layout.as_json().get("channel_groups_as_device_ids", False) == as_ids
    if first_groups is not None:
        assert layout.groups(ops[0]) == first_groups
        assert layout.groups(ops[1]) == ((0, 1, 2, 3), (4, 5, 6, 7))


def test_stated_counts_keep_the_letter_of_the_spec(tmp_path) -> None:
    """With mhlo.num_replicas stated, a channel's groups stay replica ids (spanning partitions)."""
    path = tmp_path / "step.mlir"
    path.write_text(step("mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 4 : i32",
                         [f"all_reduce {CHANNEL}, {groups([[0, 1]])}"], body=_TORCH_XLA_MESH))
    layout = layout_of(path)
    assert (layout.num_devices, layout.channel_ids_are_devices) == (8, False)


def test_shared_kimi_k2_layer_runs_on_its_mesh_of_8(shared_dir, tmp_path, capsys,
                                                    monkeypatch) -> None:
    """The tt-mlir Kimi-K2 layer (mesh 2x4, no counts stated) came out as 64 devices."""
    path = shared_dir / "workloads" / "kimi_k2_1_layer_sharded_shlo.mlir"
    code, stdout, stderr = run(chakra_gen, ["H100_80GB", "--mlir_file", str(path), "--output",
                                            str(tmp_path / "out"), "--json"], capsys, monkeypatch)
    assert code == 0, stderr
    assert json.loads(stdout)["num_devices"] == 8
    assert "read as device ids" in stderr


def test_xla_optimized_module_without_its_counts_gets_them_back(tmp_path) -> None:
    """XLA's HLO-to-StableHLO conversion drops mhlo.num_partitions/num_replicas."""
    original = REPO / "workloads" / "llama3_100m_train_4dev_optimized.mlir.gz"
    module = ir.Module.parse(gzip.decompress(original.read_bytes()).decode(), make_context())
    for name in ("mhlo.num_partitions", "mhlo.num_replicas"):
        del module.operation.attributes[name]
    stripped = tmp_path / "stripped.mlir"
    stripped.write_text(module.operation.get_asm(enable_debug_info=False))
    stated, inferred = layout_of(original), layout_of(stripped)
    assert (stated.num_replicas, stated.num_partitions, stated.inferred) == (1, 4, "")
    assert (inferred.num_replicas, inferred.num_partitions) == (1, 4)
    assert inferred.inferred == "the replica_groups of stablehlo.all_gather (device 3)"


@pytest.mark.parametrize("attributes, collectives, message", [
    ("mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32",
     [f"all_reduce {DEVICE_IDS}, {groups([list(range(8))])}"],
     "stablehlo.all_reduce names device 7 but the module has 4 devices (mhlo.num_replicas = 1 "
     "x mhlo.num_partitions = 4)"),
    ("mhlo.num_partitions = 2 : i32",
     [f"collective_permute {CHANNEL}, source_target_pairs = dense<[[0, 3]]> : tensor<1x2xi64>"],
     "stablehlo.collective_permute names partition 3 but the module has mhlo.num_partitions = 2"),
    ("mhlo.num_partitions = -1 : i32", [], "mhlo.num_partitions = -1: a device count must be "
                                           "at least 1"),
    ("mhlo.num_replicas = 0 : i32", [], "mhlo.num_replicas = 0: a device count must be at "
                                        "least 1"),
    ('mhlo.num_partitions = "8"', [], 'mhlo.num_partitions = "8" is not an integer'),
    ("mhlo.num_partitions = 1000000 : i32", [], "the module runs on 1,000,000 devices; the trace "
                                                f"writer supports at most {MAX_DEVICES:,}"),
])
def test_bad_device_counts_are_one_line_errors(tmp_path, monkeypatch, capsys, attributes,
                                               collectives, message) -> None:
    path = tmp_path / "step.mlir"
    path.write_text(step(attributes, collectives))
    out = tmp_path / "out"
    code, stdout, stderr = run(chakra_gen, ["A100_SXM_40GB", "--mlir_file", str(path), "--output",
                                            str(out), "--log-level", "warning"], capsys,
                               monkeypatch)
    assert (code, stdout) == (2, "") and not out.exists()
    assert stderr == f"error: {path}: {message}\n"


def test_num_npus_cannot_change_an_inferred_count(tmp_path) -> None:
    path = tmp_path / "step.mlir"
    path.write_text(step("", [f"all_reduce {DEVICE_IDS}, {groups([[0, 1, 2, 3]])}"]))
    assert layout_of(path, 4).num_devices == 4
    with pytest.raises(HespasError, match=r"runs on 4 devices \(1 replicas x 4 partitions, "
                                          r"inferred from the replica_groups of .*\); "
                                          r"--num_npus 8 does not match"):
        layout_of(path, 8)


def test_1024_devices_end_to_end_with_simulation(tmp_path, monkeypatch, capsys) -> None:
    """TP groups of 8, a pipeline send between halves, a data-parallel all-reduce; simulated on
    a two-level 8 x 128 switch system."""
    tp = groups([list(range(g, g + 8)) for g in range(0, 1024, 8)])
    pairs = [[d, (d + 512) % 1024] for d in range(1024)]
    path = tmp_path / "big.mlir"
    path.write_text(step("mhlo.num_partitions = 1024 : i32, mhlo.num_replicas = 1 : i32", [
        f"all_reduce {DEVICE_IDS}, {tp}",
        f"collective_permute {CHANNEL}, source_target_pairs = dense<{pairs}> : "
        "tensor<1024x2xi64>",
        f"all_reduce {DEVICE_IDS}, {groups([list(range(1024))])}"], shape="tensor<65536xf32>"))
    system = tmp_path / "system"
    system.mkdir()
    (system / "network.yml").write_text("topology: [ Switch, Switch ]\nnpus_count: [ 8, 128 ]\n"
                                        "bandwidth: [ 450.0, 50.0 ]\nlatency: [ 500.0, 1000.0 ]\n")
    (system / "system.json").write_text(json.dumps({
        "scheduling-policy": "LIFO", "endpoint-delay": 1, "active-chunks-per-dimension": 1,
        "preferred-dataset-splits": 1, "collective-optimization": "localBWAware",
        "local-mem-bw": 1600.0, **{f"{c}-implementation": ["halvingDoubling"] * 2 for c in (
            "all-reduce", "all-gather", "reduce-scatter", "all-to-all")}}))
    out = tmp_path / "out"
    code, stdout, stderr = run(chakra_gen, ["A100_SXM_40GB", "--mlir_file", str(path), "--output",
                                            str(out), "--system-config", str(system), "--json"],
                               capsys, monkeypatch)
    assert code == 0, stderr
    summary = json.loads(stdout)
    assert summary["num_devices"] == 1024 and len(summary["simulation"]["devices"]) == 1024
    assert summary["trace_files"] == 1024        # every device has its own pipeline peer
    assert len(summary["comm_groups"]) == 128 + 1
    assert summary["nodes_per_device"] == {"COMP_NODE": 1, "COMM_COLL_NODE": 2,
                                           "COMM_SEND_NODE": 1, "COMM_RECV_NODE": 1}
    assert summary["simulation"]["step_time_s"] > summary["compute_estimate_s"]
    assert len(list(out.glob("dev.*.et"))) == 1024


def test_100000_devices_share_one_trace_within_the_link_limit(tmp_path, monkeypatch,
                                                              capsys) -> None:
    path = tmp_path / "huge.mlir"
    path.write_text(step("mhlo.num_partitions = 100000 : i32, mhlo.num_replicas = 1 : i32",
                         [f"all_reduce {CHANNEL}, replica_groups = dense<> : tensor<0x0xi64>"]))
    out = tmp_path / "out"
    code, stdout, stderr = run(chakra_gen, ["A100_SXM_40GB", "--mlir_file", str(path), "--output",
                                            str(out), "--json"], capsys, monkeypatch)
    assert code == 0, stderr
    assert json.loads(stdout)["trace_files"] == 1
    assert sum(entry.name.endswith(".et") for entry in os.scandir(out)) == 100000
    assert (out / "dev.99999.et").read_bytes() == (out / "dev.0.et").read_bytes()


def test_a_file_system_out_of_links_gets_copies(tmp_path, monkeypatch) -> None:
    """Each file takes 3 links here (ext4: 65,000): every third trace is a fresh copy."""
    real_link = os.link

    def link(source, target):
        if os.stat(source).st_nlink >= 3:
            raise OSError(errno.EMLINK, "Too many links")
        real_link(source, target)

    monkeypatch.setattr(writer.os, "link", link)
    path = tmp_path / "step.mlir"
    path.write_text(step("mhlo.num_partitions = 10 : i32", [
        f"all_reduce {CHANNEL}, replica_groups = dense<> : tensor<0x0xi64>"]))
    out = tmp_path / "out"
    generate(build_config("A100_SXM_40GB", mlir_file=path, output_dir=out))
    traces = [out / f"dev.{d}.et" for d in range(10)]
    assert len({p.read_bytes() for p in traces}) == 1
    assert sorted(os.stat(p).st_nlink for p in traces) == [1] + [3] * 9
    assert len({os.stat(p).st_ino for p in traces}) == 4
