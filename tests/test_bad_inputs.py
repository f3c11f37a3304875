"""Issue 19's reproducers: each bad input, built from a shipped workload and a shipped preset with
one offending value in place, is one ``error:`` line and exit code 2 (or a right answer, exit 0),
fast, with no output left behind."""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from hespas_py.chakra.io import read_trace, write_trace
from hespas_py.errors import HespasError
from hespas_py.mlir.reader import load_module
from sweep_helpers import hespas

REPO = Path(__file__).resolve().parents[1]
WORKLOADS = REPO / "workloads"
MLP = WORKLOADS / "mlp_dp_4dev.mlir"
SCAN = WORKLOADS / "llama3_100m_scan_train_4dev.mlir"
NODE = REPO / "configs" / "nodes" / "H100_80GB" / "fused_roofline" / "config.json"
SYSTEM = REPO / "configs" / "systems" / "H100_80GB_4GPU" / "astra-sim"


def node_with(tmp: Path, **hardware: Any) -> Path:
    """The shipped H100 fused_roofline preset with ``hardware`` keys replaced."""
    config = json.loads(NODE.read_text())
    config["perf_estimator"]["hardware"].update(hardware)
    path = tmp / "node.json"
    path.write_text(json.dumps(config))
    return path


def system_with(tmp: Path, system: dict | None = None, network: dict | None = None,
                drop: tuple[str, ...] = ()) -> Path:
    """The shipped 4xH100 system folder with system.json / network.yml keys replaced, and the
    system.json keys ``drop`` removed."""
    folder = tmp / "system"
    shutil.copytree(SYSTEM, folder)
    if system or drop:
        doc = json.loads((folder / "system.json").read_text())
        doc = {key: value for key, value in {**doc, **(system or {})}.items() if key not in drop}
        (folder / "system.json").write_text(json.dumps(doc))
    if network:
        doc = yaml.safe_load((folder / "network.yml").read_text())
        (folder / "network.yml").write_text(yaml.safe_dump({**doc, **network}))
    return folder


def module_with(tmp: Path, source: Path, pattern: str, replacement: str) -> Path:
    """A shipped workload with every match of ``pattern`` replaced."""
    text, count = re.subn(pattern, replacement, source.read_text())
    assert count, pattern
    path = tmp / source.name
    path.write_text(text)
    return path


def gen(config: str | Path, mlir: Path = MLP, *extra: Any) -> list:
    return ["gen", config, "--mlir_file", mlir, *extra]


#: case -> (argv builder given a scratch folder, what the one error line says). The output
#: folder is always ``<scratch>/out``.
CASES: dict[str, tuple[Callable[[Path], list], str]] = {
    # Numbers trusted once they parse: node configs.
    "NaN memory efficiency": (lambda t: gen(node_with(t, memory_efficiency=float("nan"))),
                              "perf_estimator.hardware.memory_efficiency must be a number > 0 "
                              "and <= 1, got NaN"),
    "zero tensor efficiency": (lambda t: gen(node_with(t, tensor_efficiency=0)),
                               "tensor_efficiency must be a number > 0"),
    "infinite peak": (lambda t: gen(node_with(t, peak_flops=float("inf"))),
                      "peak_flops must be a number >= 1e+06, got Infinity"),
    "negative bandwidth": (lambda t: gen(node_with(t, memory_bandwidth=-3.35e12)),
                           "memory_bandwidth must be a number >= 1e+06"),
    "tiny dtype peak": (lambda t: gen(node_with(t, per_datatype_flops={"bf16": 1e-300})),
                        "per_datatype_flops ['bf16'] must be a number >= 1e+06"),
    "zero gemm_tile": (lambda t: gen(node_with(t, gemm_tile=0)),
                       "gemm_tile must be an integer >= 1"),
    "negative num_cores": (lambda t: gen(node_with(t, num_cores=-132)),
                           "num_cores must be an integer >= 0"),
    "negative launch overhead": (lambda t: gen(node_with(t, launch_overhead_s=-1e-6)),
                                 "launch_overhead_s must be a number >= 0"),
    "overlap above one": (lambda t: gen(node_with(t, compute_memory_overlap=1.5)),
                          "compute_memory_overlap must be a number >= 0 and <= 1"),
    # ... and system folders.
    "infinite latency": (lambda t: gen("H100_80GB", MLP, "--system-config",
                                       system_with(t, network={"latency": [float("inf")]})),
                         "network.yml: latency[0] must be a number >= 0 and <= 1e+12"),
    "zero bandwidth": (lambda t: gen("H100_80GB", MLP, "--system-config",
                                     system_with(t, network={"bandwidth": [0]})),
                       "network.yml: bandwidth[0] must be a number >= 1e-06"),
    "NaN endpoint delay": (lambda t: gen("H100_80GB", MLP, "--system-config",
                                         system_with(t, system={"endpoint-delay": float("nan")})),
                           "system.json: 'endpoint-delay' must be a number >= 0"),
    "empty implementation list": (
        lambda t: gen("H100_80GB", MLP, "--system-config",
                      system_with(t, system={"all-reduce-implementation": []})),
        "system.json: 'all-reduce-implementation' must be a non-empty list"),
    "zero active chunks": (lambda t: gen("H100_80GB", MLP, "--system-config",
                                         system_with(t, system={"active-chunks-per-dimension": 0})),
                           "'active-chunks-per-dimension' must be an integer >= 1"),
    "zero dataset splits": (lambda t: gen("H100_80GB", MLP, "--system-config",
                                          system_with(t, system={"preferred-dataset-splits": 0})),
                            "'preferred-dataset-splits' must be an integer >= 1"),
    "no all-reduce algorithms": (
        lambda t: gen("H100_80GB", MLP, "--system-config",
                      system_with(t, drop=("all-reduce-implementation",))),
        "system.json: no 'all-reduce-implementation' (ASTRA-sim's default crashes it"),
    "unknown algorithm": (
        lambda t: gen("H100_80GB", MLP, "--system-config",
                      system_with(t, system={"all-gather-implementation": ["butterfly"]})),
        "'all-gather-implementation': unknown collective algorithm 'butterfly'"),
    "more algorithms than dimensions": (
        lambda t: gen("H100_80GB", MLP, "--system-config",
                      system_with(t, system={"all-to-all-implementation": ["ring"] * 3})),
        "'all-to-all-implementation' lists 3 algorithms for a 1-dimensional network"),
    "roofline-enabled 0.5": (lambda t: gen("H100_80GB", MLP, "--system-config",
                                           system_with(t, system={"roofline-enabled": 0.5})),
                             "'roofline-enabled' must be 0 or 1, got 0.5"),
    "roofline-enabled text": (lambda t: gen("H100_80GB", MLP, "--system-config",
                                            system_with(t, system={"roofline-enabled": "abc"})),
                              "'roofline-enabled' must be 0 or 1, got \"abc\""),
    "roofline-enabled false": (
        lambda t: gen("H100_80GB", MLP, "--system-config",
                      system_with(t, system={"replay-only": False})),
        "'replay-only': false turns it ON in ASTRA-sim (it tests value != 0); write 0 or 1"),
    "local-reduction-delay text": (
        lambda t: gen("H100_80GB", MLP, "--system-config",
                      system_with(t, system={"local-reduction-delay": "1"})),
        "'local-reduction-delay' must be a number >= 0"),
    # Sizes without a bound.
    "loop of 2^31 trips": (
        lambda t: gen("H100_80GB", module_with(
            t, SCAN, r"(    cond \{\n      %c_\d+ = stablehlo.constant dense<)7(>)",
            r"\g<1>2147483647\g<2>")),
        "a loop of 2,147,483,647 iterations (static) would expand to"),
    "huge mesh": (lambda t: gen("H100_80GB", module_with(
        t, MLP, r'"axis_1"=1\]', '"axis_1"=4611686018427387904]')),
                  "sdy.mesh @mesh: a mesh of 18,446,744,073,709,551,616 devices"),
    "2^62-element tensors": (lambda t: gen("H100_80GB", module_with(
        t, MLP, r"(?<=[<x])1024(?=x)", "4611686018427387904")),
                             "is not a trace value (finite, 0 to 2^63 - 1)"),
    "huge npus_count": (lambda t: gen("H100_80GB", MLP, "--system-config",
                                      system_with(t, network={"npus_count": [1 << 40]})),
                        "npus_count[0] must be an integer >= 2 and <= 131072"),
    "huge dataset splits": (
        lambda t: gen("H100_80GB", MLP, "--system-config",
                      system_with(t, system={"preferred-dataset-splits": 10 ** 9})),
        "'preferred-dataset-splits' must be an integer >= 1 and <= 256"),
    # Paths, order of checks, usage.
    "output under a file": (lambda t: gen("H100_80GB", MLP, "-o", _file(t) / "out"),
                            "cannot create the output directory"),
    "wrong NPU count": (lambda t: gen("H100_80GB", MLP, "--system-config", "H100_80GB_8GPU"),
                        "H100_80GB_8GPU: the machine has 8 NPUs but the module runs on 4 devices"),
    "flag value not a number": (lambda t: gen("H100_80GB", MLP, "--block_lim", "abc"),
                                "Invalid value for '--block_lim'"),
    "param of the wrong type": (lambda t: gen("H100_80GB", MLP, "--param", "fused_attention=3"),
                                "--param: fused_attention must be true or false, got 3"),
}


def _file(tmp: Path) -> Path:
    path = tmp / "a_file"
    path.write_text("")
    return path


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_one_error_line(case, tmp_path, capsys, monkeypatch) -> None:
    build, message = CASES[case]
    argv = build(tmp_path)
    if "-o" not in argv:
        argv += ["-o", tmp_path / "out"]
    start = time.perf_counter()
    code, stdout, stderr = hespas(capsys, monkeypatch, *argv)
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 1 and stdout == "", stderr
    assert message in lines[0], lines[0]
    assert "Traceback" not in stderr
    assert not (tmp_path / "out").exists()
    assert time.perf_counter() - start < 60


def test_roofline_enabled_is_simulated_alike_replicated_or_not(tmp_path, capsys,
                                                              monkeypatch) -> None:
    """ASTRA-sim prices COMP nodes with its roofline when roofline-enabled is 1: the replicated
    simulation (which times collectives behind a lead-in delay) gives the full one's answer."""
    folder = system_with(tmp_path, system={"roofline-enabled": 1})
    code, stdout, stderr = hespas(capsys, monkeypatch, *gen(
        "H100_80GB", MLP, "--system-config", folder, "-o", tmp_path / "out", "--json"))
    assert code == 0, stderr
    replicated = json.loads(stdout)["simulation"]["step_time_s"]
    code, stdout, stderr = hespas(capsys, monkeypatch, "simulate", tmp_path / "out" / "dev",
                                  "--system", folder, "--comm-groups",
                                  tmp_path / "out" / "comm_group.json", "--full", "--json")
    assert code == 0, stderr
    full = max(device["wall_time_ns"] for device in json.loads(stdout)["devices"]) * 1e-9
    assert replicated == pytest.approx(full, rel=1e-9)
    code, stdout, _ = hespas(capsys, monkeypatch, *gen(
        "H100_80GB", MLP, "--system-config", system_with(tmp_path / "off", system={}),
        "-o", tmp_path / "off" / "out", "--json"))
    assert code == 0 and json.loads(stdout)["simulation"]["step_time_s"] != replicated


def test_wrong_npu_count_leaves_the_old_output(tmp_path, capsys, monkeypatch) -> None:
    """`gen --clean --system-config` with the wrong NPU count fails before replacing anything."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "earlier").write_text("kept")
    code, _, stderr = hespas(capsys, monkeypatch, *gen("H100_80GB", MLP, "-o", out, "--clean",
                                                       "--system-config", "H100_80GB_8GPU"))
    assert code == 2 and "8 NPUs" in stderr
    assert [p.name for p in out.iterdir()] == ["earlier"]


def test_combine_threshold_on_the_scan_step_with_individual_split(tmp_path, capsys,
                                                                  monkeypatch) -> None:
    """It ended in an IndexError in ``_recut``: ops of the loop counter are in no block."""
    code, stdout, stderr = hespas(capsys, monkeypatch, *gen(
        "H100_80GB", SCAN, "--split_fn", "individual_split", "--combine-threshold", "31457280",
        "-o", tmp_path / "out", "--json"))
    assert code == 0, stderr
    summary = json.loads(stdout)
    assert summary["num_devices"] == 4 and summary["compute_estimate_s"] > 0


@pytest.mark.parametrize("tail", [
    "func.func @extra() {\n  return\n}\n",
    "module @second {\n  %x = \n}\n",
])
def test_malformed_second_top_level_op_parses_every_time(tmp_path, tail) -> None:
    """A second top-level op after a module hung MLIR's multi-threaded parser in about half the
    runs; the reader's single-threaded context returns every time."""
    path = tmp_path / "two.mlir"
    path.write_text(MLP.read_text() + tail)
    start = time.perf_counter()
    for _ in range(25):
        try:
            load_module(path)
        except HespasError:
            pass
    assert time.perf_counter() - start < 60


def _trace_set(tmp: Path, capsys, monkeypatch) -> Path:
    out = tmp / "traces"
    code, _, stderr = hespas(capsys, monkeypatch, "gen", "H100_80GB", "--mlir_file", MLP,
                             "-o", out, "--estimator", "roofline")
    assert code == 0, stderr
    return out


def _split_messages(data: bytes) -> list[bytes]:
    """The length-prefixed messages of a Chakra trace."""
    messages, i = [], 0
    while i < len(data):
        size = shift = 0
        while True:
            byte = data[i]
            i += 1
            size |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        messages.append(data[i:i + size])
        i += size
    return messages


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def test_undecodable_attribute_in_simulate(tmp_path, capsys, monkeypatch) -> None:
    out = _trace_set(tmp_path, capsys, monkeypatch)
    trace = out / "dev.0.et"
    messages = _split_messages(trace.read_bytes())
    # Node field 10 (attr), 3 bytes: a name string that claims 5 bytes and has 1.
    messages[1] += b"\x52\x03\x0a\x05a"
    trace.unlink()
    trace.write_bytes(b"".join(_varint(len(m)) + m for m in messages))
    code, _, stderr = hespas(capsys, monkeypatch, "simulate", out / "dev", "--system",
                             "H100_80GB_4GPU")
    assert code == 2 and stderr.count("\n") == 1, stderr
    assert stderr.startswith(f"error: {trace}: node ") and "does not decode" in stderr
    code, _, stderr = hespas(capsys, monkeypatch, "trace", "show", trace)
    assert code == 2 and stderr.count("\n") == 1, stderr
    assert stderr.startswith(f"error: {trace}: not a Chakra trace")


def test_string_where_trace_show_expects_a_number(tmp_path, capsys, monkeypatch) -> None:
    out = _trace_set(tmp_path, capsys, monkeypatch)
    trace = out / "dev.0.et"
    meta, nodes = read_trace(trace)
    attr = next(a for node in nodes for a in node.attr if a.name == "num_ops")
    attr.string_val = "many"
    trace.unlink()
    with trace.open("wb") as stream:
        write_trace(stream, nodes, meta.version)
    code, _, stderr = hespas(capsys, monkeypatch, "trace", "show", trace)
    assert code == 2 and stderr.count("\n") == 1, stderr
    assert 'attribute num_ops must be a number, got "many"' in stderr


@pytest.mark.parametrize("kind", ["node config", "sweep spec", "trace folder"])
def test_a_file_that_is_not_utf8_is_one_error_line(kind, tmp_path, capsys, monkeypatch) -> None:
    """Found by bench/fuzz.py: a byte that is not UTF-8 in a JSON or YAML input was a traceback."""
    bad = b'{"perf_estimator": \x9e}'
    if kind == "node config":
        (tmp_path / "node.json").write_bytes(bad)
        argv = gen(tmp_path / "node.json", MLP, "-o", tmp_path / "out")
    elif kind == "sweep spec":
        (tmp_path / "spec.yaml").write_bytes(b"workloads: [\xc4]\n")
        argv = ["sweep", tmp_path / "spec.yaml", "--out", tmp_path / "out"]
    else:
        code, _, stderr = hespas(capsys, monkeypatch, *gen("H100_80GB", MLP, "-o", tmp_path / "t"))
        assert code == 0, stderr
        (tmp_path / "t" / "module_stats.json").write_bytes(bad)
        argv = ["trace", "show", tmp_path / "t"]
    code, stdout, stderr = hespas(capsys, monkeypatch, *argv)
    assert code == 2 and "Traceback" not in stderr
    assert [line for line in stderr.splitlines() if line.startswith("error:")] == [
        line for line in stderr.splitlines() if "not UTF-8 at byte" in line]
    assert not (tmp_path / "out").exists()
