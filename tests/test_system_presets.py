"""Machine presets (configs/systems): generated from one table, load, simulate, named by size."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hespas_py.chakra.nodes import collective
from hespas_py.chakra.schema import CollectiveCommType as Coll
from hespas_py.cli.main import app
from hespas_py.hardware import load_hardware
from hespas_py.sim import load_system_dir, preset_names, simulate
from hespas_py.sim.config import PRESETS_DIR
from hespas_py.sim.synthetic import write_identical_trace_set

REPO = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("make_system_presets",
                                               REPO / "scripts" / "make_system_presets.py")
generator = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = generator  # dataclasses look their module up there
_SPEC.loader.exec_module(generator)

GPUS = ("A100_SXM_80GB", "H100_80GB", "H200_141GB", "B200_180GB")
#: Issue 12 (bigger machines) and issue 13 (published multi-node step times).
WANTED = ({f"{gpu}_8GPU_{n}" for gpu in GPUS for n in (4, 16, 64, 128)}
          | {f"H100_80GB_8GPU_{n}" for n in (2, 4, 8, 16, 32)}
          | {"A100_SXM_80GB_8GPU_8", "A100_SXM_80GB_8GPU_32", "TPU7x_128"}
          | {f"TPUv6e_{n}" for n in (8, 16, 32, 64, 128, 256)}
          | {f"TPUv{g}_{n}" for g in ("4", "5p") for n in (64, 128, 256, 512, 1024)}
          | {"H100_80GB_8GPU_2_2", "TPUv4_16", "TPUv5p_4"})  # earlier names keep working
#: Larger machines simulated in the test, one per family and fabric shape.
LARGE_SAMPLE = ("A100_SXM_80GB_8GPU_32", "TPUv5p_128", "TPUv6e_256", "TPU7x_128")


def network(name: str):
    return load_system_dir(PRESETS_DIR / name).network


def all_reduce_ns(name: str, tmp_path: Path, size: int = 64 << 20) -> int:
    setup = load_system_dir(PRESETS_DIR / name)
    prefix = tmp_path / name
    write_identical_trace_set(prefix, [collective(0, Coll.ALL_REDUCE, size)],
                              setup.network.num_npus)
    return simulate(prefix, setup.system, setup.network).step_time_ns


def test_committed_presets_are_the_generator_output():
    assert generator.differences() == []
    assert {p.name for p in generator.presets()} == set(preset_names())


def test_generator_check_finds_an_edited_file_and_a_stray_folder(tmp_path):
    root = tmp_path / "systems"
    shutil.copytree(PRESETS_DIR, root)
    edited = root / "H100_80GB_8GPU_16" / "astra-sim" / "network.yml"
    edited.write_text(edited.read_text().replace("44.7035", "45.0"))
    (root / "hand_made" / "astra-sim").mkdir(parents=True)
    problems = generator.differences(root)
    assert len(problems) == 2
    assert any("hand_made: not in the table" in p for p in problems)
    assert any(str(edited) in p for p in problems)


def test_the_issues_machines_exist_and_their_names_give_their_size():
    names = set(preset_names())
    assert WANTED <= names
    for name in names:
        gpu_nodes = re.fullmatch(r".+_8GPU_(\d+)", name)
        tpu = re.fullmatch(r"TPU.+_(\d+)", name)
        if gpu_nodes:
            assert network(name).num_npus == 8 * int(gpu_nodes.group(1)), name
        elif tpu:
            assert network(name).num_npus == int(tpu.group(1)), name


def test_system_layer_takes_hbm_and_peak_from_the_node_preset():
    for preset in generator.presets():
        system = load_system_dir(PRESETS_DIR / preset.name).system
        hardware = load_hardware(preset.node)
        assert system.local_mem_bw == pytest.approx(hardware.memory_bandwidth / 1e9), preset.name
        assert system.peak_perf == pytest.approx(hardware.peak_flops / 1e12), preset.name
        algorithms = {a.name for a in system.implementations["ALL_REDUCE"]}
        assert algorithms <= {"ring", "direct"}


def gbps(name: str) -> tuple[float, ...]:
    """A preset's dimension rates in GB/s of 1e9 bytes (network.yml's GB is 2**30 bytes)."""
    return tuple(b * 2**30 / 1e9 for b in network(name).bandwidth)


def test_gpu_clusters_are_rail_optimized_with_a_spine_beyond_one_leaf_group():
    # What NCCL reaches: 20.6 of 25 GB/s per H100 NVLink (18 links), 96% of a 400 Gb/s NIC.
    two_level = network("H100_80GB_8GPU_16")
    assert (two_level.topology, two_level.npus_count, two_level.latency) == (
        ("Switch", "Switch"), (8, 16), (1000.0, 2000.0))
    assert gbps("H100_80GB_8GPU_16") == pytest.approx((370.8, 48.0), abs=1e-3)
    spine = network("H100_80GB_8GPU_128")
    assert (spine.npus_count, spine.latency) == ((8, 32, 4), (1000.0, 2000.0, 3000.0))
    assert gbps("H100_80GB_8GPU_128") == pytest.approx((370.8, 48.0, 48.0), abs=1e-3)
    # DGX A100: 20 of 25 GB/s per NVLink3 (12 links), HDR NICs at 24 GB/s, 16-node leaf groups.
    assert network("A100_SXM_80GB_8GPU_32").npus_count == (8, 16, 2)
    assert gbps("A100_SXM_80GB_8GPU_32") == pytest.approx((240.0, 24.0, 24.0), abs=1e-3)
    assert gbps("B200_180GB_8GPU_64") == pytest.approx((721.8, 48.0, 48.0), abs=1e-3)


def test_collectives_reach_nccls_bus_bandwidth_not_the_line_rate(tmp_path):
    """An all-gather's bus bandwidth (nccl-tests' busbw) on one 8-GPU node is NCCL's per-NVLink
    rate times the links: 18 x 20.6 GB/s on H100 (the line rate is 450), 12 x 20.0 on A100,
    18 x 40.1 on B200."""
    for name, busbw in (("H100_80GB_8GPU", 370.8e9), ("A100_SXM_80GB_8GPU", 240e9),
                        ("B200_180GB_8GPU", 721.8e9)):
        setup = load_system_dir(PRESETS_DIR / name)
        prefix, shard = tmp_path / name, 1 << 30
        write_identical_trace_set(prefix, [collective(0, Coll.ALL_GATHER, shard)], 8)
        seconds = simulate(prefix, setup.system, setup.network).step_time_ns * 1e-9
        assert 7 * shard / seconds == pytest.approx(busbw, rel=2e-3), name


def test_metas_llama3_cluster_is_racks_of_two_servers_in_pods_of_at_most_192_racks():
    for gpus, pods in ((8192, 4), (16384, 8)):
        meta = network(f"H100_80GB_Meta_{gpus}")
        assert meta.num_npus == gpus
        assert meta.npus_count == (8, 2, 128, pods)
        # NVLink and 400 Gb/s RoCE at what NCCL reaches; the aggregation layer 1:7.
        assert gbps(f"H100_80GB_Meta_{gpus}") == pytest.approx((370.8, 48.0, 48.0, 48.0 / 7),
                                                                abs=1e-3)
        assert meta.npus_count[2] <= 192


def test_tpu_torus_axes_carry_both_ring_directions_and_mesh_axes_one():
    # ICI at its line rate (no published achieved share), in GB/s of 1e9 bytes.
    assert gbps("TPUv6e_64") == pytest.approx((100.0, 100.0), abs=1e-3)   # 8x8: no wraparound
    assert gbps("TPUv6e_128") == pytest.approx((100.0, 200.0), abs=1e-3)  # 8x16: the 16 axis wraps
    assert network("TPUv6e_256").npus_count == (16, 16)
    assert gbps("TPUv5p_32") == pytest.approx((100.0,) * 3, abs=1e-3)  # 2x4x4: not a whole cube
    assert gbps("TPUv5p_64") == pytest.approx((200.0,) * 3, abs=1e-3)  # 4x4x4 cube: torus
    assert network("TPUv4_1024").npus_count == (8, 8, 16)
    ironwood = network("TPU7x_128")  # two TensorCores (JAX devices) per chip share its links
    assert (ironwood.topology, ironwood.npus_count) == (
        ("FullyConnected", "Ring", "Ring", "Ring"), (2, 4, 4, 4))
    assert gbps("TPU7x_128") == pytest.approx((600.0, 100.0, 100.0, 100.0), abs=1e-3)
    # ASTRA-sim's own v3 inputs are in its unit already: written as they are.
    assert network("TPUv3_8").bandwidth == (80.0,)


def test_tpu7x_node_preset_is_per_tensorcore():
    hardware = load_hardware("TPU7x")
    assert hardware.per_dtype_flops["bf16"] == 2307e12 / 2
    assert hardware.per_dtype_flops["f8E4M3FN"] == 4614e12 / 2
    assert hardware.memory_bandwidth == 7380e9 / 2
    assert load_hardware("TPUv6e").per_dtype_flops["bf16"] == 918e12


def test_small_presets_and_a_sample_of_large_ones_simulate_an_all_reduce(tmp_path):
    small = [n for n in preset_names() if network(n).num_npus <= 64]
    times = {name: all_reduce_ns(name, tmp_path) for name in (*small, *LARGE_SAMPLE)}
    assert all(t > 0 for t in times.values())
    # Leaving the node costs: the NIC is 9x slower than NVLink.
    assert times["H100_80GB_8GPU_2"] > times["H100_80GB_8GPU"]
    # Wraparound halves the ring time of a bandwidth-bound all-reduce.
    assert times["TPUv5p_64"] < times["TPUv5p_32"]


def test_simulate_and_gen_accept_the_new_names(tmp_path):
    trace = tmp_path / "dev"
    write_identical_trace_set(trace, [collective(0, Coll.ALL_GATHER, 1 << 20)], 16)
    out = CliRunner().invoke(app, ["simulate", str(trace), "--system", "TPUv6e_16", "--json"])
    assert out.exit_code == 0, out.output
    assert len(json.loads(out.stdout)["devices"]) == 16

    gen = CliRunner().invoke(app, [
        "gen", "TPUv6e", "--mlir_file", str(REPO / "workloads" / "mesh2x4_8dev.mlir"),
        "--output", str(tmp_path / "traces"), "--split_fn", "individual_split", "--merge",
        "--system-config", "TPUv6e_8", "--json"])
    assert gen.exit_code == 0, gen.output
    simulation = json.loads(gen.stdout)["simulation"]
    assert simulation["system"] == "TPUv6e_8" and len(simulation["devices"]) == 8
    assert all(d["comm_time_ns"] > 0 for d in simulation["devices"])
    assert simulation["step_time_s"] > 0
