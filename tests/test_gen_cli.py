"""``hespas gen`` / ``hespas_chakra_gen`` / ``hespas trace show`` from the command line."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hespas_py.cli.compat import chakra_gen
from hespas_py.cli.main import main
from hespas_py.hardware.config import param_values
from hespas_py.run import build_config
from test_pipeline import HARDWARE, TINY_MLIR

ROOT = Path(__file__).resolve().parents[1]


def run(entry, argv, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["prog", *argv])
    with pytest.raises(SystemExit) as info:
        entry()
    out, err = capsys.readouterr()
    return info.value.code, out, err


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.mlir"
    path.write_text(TINY_MLIR)
    return path


def write_config(tmp_path, hardware=None, **extra) -> str:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"perf_estimator": {
        "method": "roofline", "hardware": hardware or HARDWARE}, **extra}))
    return str(path)


def test_chakra_gen_with_hespas_flags_and_json_summary(tmp_path, tiny, capsys, monkeypatch):
    out = tmp_path / "out"
    code, stdout, stderr = run(chakra_gen, [
        write_config(tmp_path), "--mlir_file", str(tiny), "--output", str(out),
        "--split_fn", "individual_split", "--merge", "--json"], capsys, monkeypatch)
    assert code == 0
    summary = json.loads(stdout)
    assert summary["split"] == {"strategy": "individual_split", "merge": True}
    assert summary["nodes_per_device"] == {"COMP_NODE": 3, "COMM_COLL_NODE": 1}
    assert "wrote" in stderr                                # logs go to stderr
    assert (out / "dev.3.et").is_file()


def test_hespas_gen_table_and_trace_show(tmp_path, tiny, capsys, monkeypatch):
    out = tmp_path / "out"
    code, stdout, _ = run(main, ["gen", "A100_SXM_40GB", "--mlir_file", str(tiny), "-o", str(out),
                                 "--split_fn", "linear_split", "--block_lim", "1"],
                          capsys, monkeypatch)
    assert code == 0
    assert "compute estimate" in stdout and "top ops by estimated time" in stdout
    assert re.search(r"estimator +fused_roofline", stdout)  # a preset name: its best estimator
    code, stdout, _ = run(main, ["trace", "show", str(out), "--json"], capsys, monkeypatch)
    shown = json.loads(stdout)
    assert code == 0 and shown["ranks"] == 4 and len(shown["traces"]) == 2
    assert shown["traces"][0]["by_type"] == {"COMP_NODE": 3, "COMM_COLL_NODE": 1}
    assert shown["module_stats"]["estimator"] == "fused_roofline"
    code, stdout, _ = run(main, ["trace", "show", str(out / "dev.2.et")], capsys, monkeypatch)
    assert code == 0 and "ALL_REDUCE" in stdout


@pytest.mark.parametrize("config, flags, message", [
    ({"perf_estimator": {"method": "roofline", "hardware": HARDWARE}, "colour": 1}, [],
     "unknown key colour"),
    ({"perf_estimator": {"method": "roofline", "hardware": HARDWARE}, "block_lim": "x"}, [],
     "block_lim must be an integer"),
    ({"perf_estimator": {"method": "roofline", "hardware": {**HARDWARE, "peak_flops": -1}}}, [],
     "peak_flops must be a number >= 1e+06"),
    ({"perf_estimator": {"hardware": HARDWARE}}, [], "missing required key perf_estimator.method"),
    ({"perf_estimator": {"method": "roofline", "hardware": HARDWARE}}, ["--split_fn", "bogus"],
     "unknown split strategy 'bogus'"),
    ({"perf_estimator": {"method": "magic", "hardware": HARDWARE}}, [], "unknown estimator"),
])
def test_config_errors_are_one_line_exit_2(tmp_path, tiny, capsys, monkeypatch, config, flags,
                                           message):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    code, stdout, stderr = run(chakra_gen, [str(path), "--mlir_file", str(tiny), "--output",
                                            str(tmp_path / "out"), *flags], capsys, monkeypatch)
    assert code == 2 and stdout == ""
    assert stderr.startswith("error: ") and message in stderr
    assert stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_input_errors_are_one_line_exit_2(tmp_path, tiny, capsys, monkeypatch):
    cases = [
        ([write_config(tmp_path), "--mlir_file", str(tmp_path / "nope.mlir"), "--output",
          str(tmp_path / "o")], "nope.mlir"),
        ([write_config(tmp_path), "--mlir_file", str(tiny)], "missing required key output_dir"),
        (["NO_SUCH_GPU", "--mlir_file", str(tiny), "--output", str(tmp_path / "o")],
         "NO_SUCH_GPU"),
        ([write_config(tmp_path), "--mlir_file", str(tiny), "--output", str(tmp_path / "o"),
          "--num_npus", "8"], "--num_npus 8 does not match"),
        ([str(tmp_path / "missing.json")], "missing.json"),
    ]
    for argv, message in cases:
        code, stdout, stderr = run(chakra_gen, argv, capsys, monkeypatch)
        assert (code, stdout) == (2, ""), argv
        assert stderr.startswith("error: ") and message in stderr and stderr.count("\n") == 1
    code, _, stderr = run(main, ["trace", "show", str(tmp_path / "none")], capsys, monkeypatch)
    assert code == 2 and stderr.count("\n") == 1


def test_refsim_traces_decode(shared_dir, capsys, monkeypatch):
    """Every trace of the shared ASTRA-sim cases (other tools' writers) decodes."""
    cases = sorted((shared_dir / "refsim" / "cases").iterdir())
    for case in cases:
        code, stdout, _ = run(main, ["trace", "show", str(case), "--json"], capsys, monkeypatch)
        assert code == 0, case
    resnet = shared_dir / "refsim" / "cases" / "resnet50_train_individual_a100_4gpu"
    code, stdout, _ = run(main, ["trace", "show", str(resnet), "--json"], capsys, monkeypatch)
    shown = json.loads(stdout)
    assert shown["traces"][0]["by_type"] == {"COMP_NODE": 1010, "COMM_COLL_NODE": 375}
    assert shown["traces"][0]["collectives"]["ALL_REDUCE"] == {"count": 375, "bytes": 102865576}


def test_system_config_simulates_after_generating(shared_dir, tmp_path, tiny, capsys, monkeypatch):
    machine = shared_dir / "refsim" / "cases" / "coll_allreduce_1MiB_ring4"      # 4 NPUs
    code, stdout, _ = run(chakra_gen, [
        write_config(tmp_path), "--mlir_file", str(tiny), "--output", str(tmp_path / "out"),
        "--system-config", str(machine), "--json"], capsys, monkeypatch)
    assert code == 0
    simulation = json.loads(stdout)["simulation"]
    assert [d["id"] for d in simulation["devices"]] == [0, 1, 2, 3]
    compute_us = json.loads(stdout)["compute_estimate_s"] * 1e6
    assert simulation["step_time_s"] * 1e6 > compute_us        # plus the all-reduce


@pytest.mark.parametrize("flags, estimator, params", [
    ([], "fused_roofline", {}),                                   # a preset: its best estimator
    (["--estimator", "roofline"], "roofline", {}),
    (["--param", "fused_attention=true", "--param", "tensor_efficiency=0.5"], "fused_roofline",
     {"fused_attention": True, "tensor_efficiency": 0.5}),
])
def test_estimator_and_params_on_the_command_line(tmp_path, tiny, capsys, monkeypatch, flags,
                                                  estimator, params):
    out = tmp_path / "out"
    code, stdout, stderr = run(main, ["gen", "H100_80GB", "--mlir_file", str(tiny), "-o", str(out),
                                      "--json", *flags], capsys, monkeypatch)
    assert code == 0, stderr
    assert json.loads(stdout)["estimator"] == estimator
    settings = build_config("H100_80GB", mlir_file=tiny, output_dir=out,
                            estimator=flags[1] if flags[:1] == ["--estimator"] else None,
                            params=param_values(flags[1::2]) if flags[:1] == ["--param"] else None)
    assert settings.estimator == estimator
    assert {k: getattr(settings.hardware.params, k) for k in params} == params


@pytest.mark.parametrize("flags, message", [
    (["--estimator", "guess"], "unknown estimator 'guess'"),
    (["--param", "tensor_efficiency=2"], "--param: tensor_efficiency must be a number > 0 and <= 1"),
    (["--param", "gemm_tile"], "--param 'gemm_tile': expected KEY=VALUE"),
    (["--estimator", "roofline", "--param", "fused_attention=true"],
     "--param: unknown key fused_attention"),
])
def test_bad_estimator_flags_are_one_line(tmp_path, tiny, capsys, monkeypatch, flags, message):
    code, stdout, stderr = run(main, ["gen", "H100_80GB", "--mlir_file", str(tiny), "-o",
                                      str(tmp_path / "out"), *flags], capsys, monkeypatch)
    assert (code, stdout) == (2, "") and stderr.count("\n") == 1
    assert stderr.startswith("error: ") and message in stderr


#: Runs ``hespas_chakra_gen ARGS`` in a process of its own, then fails if typer or rich was loaded.
_WITHOUT_TYPER_OR_RICH = ("import sys\n"
                          "from hespas_py.cli.compat import chakra_gen\n"
                          "try:\n"
                          "    chakra_gen()\n"
                          "except SystemExit as done:\n"
                          "    assert not done.code, done.code\n"
                          "assert 'typer' not in sys.modules, 'typer loaded'\n"
                          "assert 'rich' not in sys.modules, 'rich loaded'\n")


def _chakra_gen_alone(*args: str) -> subprocess.CompletedProcess:
    """``hespas_chakra_gen ARGS`` run by `_WITHOUT_TYPER_OR_RICH`, its output to pipes."""
    done = subprocess.run([sys.executable, "-c", _WITHOUT_TYPER_OR_RICH, *args], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def test_chakra_gen_reads_its_flags_without_typer(tmp_path, tiny):
    """``hespas_chakra_gen`` parses `gen.PARAMS` with argparse: typer is never imported."""
    _chakra_gen_alone("A100_SXM_40GB", "--mlir_file", str(tiny), "-o", str(tmp_path / "out"),
                      "--no-merge", "--param", "fused_attention=true", "--json")
    assert (tmp_path / "out" / "dev.0.et").is_file()


def test_chakra_gen_prints_a_plain_summary_to_a_pipe_without_rich(tmp_path, tiny):
    """Not on a terminal, the summary is plain aligned text (no box characters), and rich,
    which only draws the terminal's tables, is never imported."""
    done = _chakra_gen_alone("A100_SXM_40GB", "--mlir_file", str(tiny), "-o",
                             str(tmp_path / "out"))
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["module", str(tiny)]
    assert any(line.startswith("compute estimate ") for line in lines)
    header = lines[lines.index("top ops by estimated time") + 1]
    assert header.split() == ["op", "count", "time", "(ms)", "share"]
    assert not set(done.stdout) & set("┃━│┏┡└")


def test_gen_parameters_are_declared_once_for_both_tools():
    """`gen.PARAMS` are `gen.run`'s keywords and typer's ``hespas gen`` parameters alike."""
    from hespas_py.cli import gen, gen_command

    names = [p.name for p in gen.PARAMS]
    assert list(inspect.signature(gen.run).parameters) == names
    assert list(inspect.signature(gen_command.gen).parameters) == names
    assert gen.parse_args("t", ["cfg", "--merge", "--param", "a=1", "--param", "b=2"]) == {
        **{p.name: p.default for p in gen.PARAMS}, "config": "cfg", "merge": True,
        "params": ["a=1", "b=2"]}


@pytest.mark.parametrize("argv, message", [
    (["A100_SXM_40GB", "--block_lim", "abc"], "--block_lim/--block-lim: invalid int value"),
    ([], "the following arguments are required: config"),
    (["A100_SXM_40GB", "--bogus"], "unrecognized arguments: --bogus"),
    (["A100_SXM_40GB", "--mlir"], "unrecognized arguments: --mlir"),  # no abbreviations
])
def test_chakra_gen_usage_errors_are_one_line_exit_2(argv, message, capsys, monkeypatch):
    code, stdout, stderr = run(chakra_gen, argv, capsys, monkeypatch)
    assert (code, stdout) == (2, "")
    assert stderr.startswith("error: ") and message in stderr and stderr.count("\n") == 1


def test_memory_analysis_switch(tmp_path, capsys, monkeypatch):
    """`hespas gen` analyses memory unless --no-memory; hespas_chakra_gen only with --memory."""
    workload = str(ROOT / "workloads" / "mlp_dp_4dev.mlir")

    def gen(entry, name, *flags):
        argv = ["gen"] if entry is main else []
        code, out, err = run(entry, [*argv, "H100_80GB", "--mlir_file", workload, "--output",
                                     str(tmp_path / name), *flags], capsys, monkeypatch)
        assert code == 0, err
        return json.loads((tmp_path / name / "module_stats.json").read_text())["memory"]

    on, off = gen(main, "on"), gen(main, "off", "--no-memory")
    assert on["peak_bytes"] > 0 and off is None
    assert gen(chakra_gen, "compat") is None
    assert gen(chakra_gen, "compat_memory", "--memory") == on
