"""Modules other frontends write: torch-xla / tt-xla graphs (foreign dialects, a dump's end
banner), and files of several modules (``// -----``, as MLIR's split-input-file and IR dumps)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from hespas_py.cli.compat import chakra_gen, mlir_analyzer
from hespas_py.cli.main import main
from hespas_py.errors import HespasError
from hespas_py.kernels.costs import op_work
from hespas_py.mlir.extract import BlockExtractor
from hespas_py.mlir.reader import load_module, load_modules
from hespas_py.pipeline import generate
from hespas_py.run import build_config
from hespas_py.split.blocks import is_collective
from test_gen_cli import run

DATA = Path(__file__).parent / "data" / "mlir"
#: A TP-8 Llama-3.1-8B decoder layer as torch-xla / tt-xla export it (no device count, ttcore
#: attributes, ttir ops, location aliases after the module, the log's end-of-module banner).
TTXLA = DATA / "ttxla_llama_tp8.mlir"
#: Two modules of an IR dump, each after its ``// -----// IR Dump After ...`` banner.
TWO = DATA / "ir_dump_two_modules.mlir"
FUSED = (Path(__file__).resolve().parents[1] / "configs" / "nodes" / "A100_SXM_40GB"
         / "fused_roofline" / "config.json")


def test_foreign_dialects_and_dump_banner_warn_once_each(capsys) -> None:
    module = load_module(TTXLA)
    names = [op.name for op in module.ops]
    assert names.count("ttir.rms_norm") == 2 and names.count("ttir.matmul") == 1
    assert names.count("stablehlo.all_reduce") == 2 and names[-1] == "func.return"
    assert module.name == "SyncTensorsGraph.231"
    assert (module.num_replicas, module.num_partitions) == (None, None)
    err = capsys.readouterr().err.splitlines()
    assert err == [f"warning: {w}" for w in module.warnings] and len(err) == 3
    banner, ttir, ttcore = module.warnings
    assert banner == (f"{TTXLA}: line 41: ignored the text after the module "
                      "('------------------ END OF MLIR MODULE --...')")
    assert "dialect ttir" in ttir and "(ttir.matmul, ttir.rms_norm) are opaque" in ttir
    assert "dialect ttcore" in ttcore and "ttir" not in ttcore


def test_foreign_ops_are_opaque_to_every_stage() -> None:
    norm = next(op for op in load_module(TTXLA).ops if op.name == "ttir.rms_norm")
    assert norm.short_name == "ttir.rms_norm"
    work = op_work(norm)
    assert work.fallback and work.total_flops == 0
    assert work.bytes == 2 * (32 * 4096 * 2) + 4096 * 2          # operands + result, bf16
    # An op of another dialect is never taken for the StableHLO op of the same short name.
    impostor = dataclasses.replace(norm, name="ttir.all_reduce")
    assert not is_collective(impostor) and op_work(impostor).fallback


@pytest.mark.parametrize("config", ["A100_SXM_40GB", str(FUSED)], ids=["roofline", "fused"])
def test_foreign_module_generates_with_fallback_ops_and_inferred_devices(tmp_path, config) -> None:
    result = generate(build_config(config, mlir_file=TTXLA, output_dir=tmp_path / "out"))
    stats = json.loads((tmp_path / "out" / "module_stats.json").read_text())
    assert stats["fallback_ops"] == {"ttir.rms_norm": 2, "ttir.matmul": 1}
    assert stats["devices"] == {
        "num_devices": 8, "num_replicas": 1, "num_partitions": 8, "origin": "inferred",
        "inferred_from": "the replica_groups of stablehlo.all_reduce (device 7)"}
    assert result.summary["trace_files"] == 1 and result.summary["comm_groups"] == {
        "1": list(range(8))}
    assert sorted(p.name for p in (tmp_path / "out").glob("dev.*.et")) == sorted(
        f"dev.{i}.et" for i in range(8))


def test_text_after_the_module_is_ignored_only_after_its_closing_brace(tmp_path) -> None:
    trailing = load_module(DATA / "trailing_line.mlir")
    assert trailing.warnings == (f"{DATA / 'trailing_line.mlir'}: line 6: ignored the text after "
                                 "the module ('Compilation finished in 0.42 s')",)
    dotted = tmp_path / "dotted.mlir"  # a trailer that reads like an op of a dialect "Done"
    dotted.write_text(DATA.joinpath("trailing_line.mlir").read_text().replace(
        "Compilation finished", "Done.compiling"))
    assert [w.split(": ", 1)[1] for w in load_module(dotted).warnings] == [
        "line 6: ignored the text after the module ('Done.compiling in 0.42 s')"]
    with pytest.raises(HespasError, match=r"text_inside_module.mlir: line 5:1: custom op"):
        load_module(DATA / "text_inside_module.mlir")
    bare = tmp_path / "bare.mlir"  # top-level functions, no module braces: nothing to cut after
    bare.write_text("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                    "  return %a : tensor<4xf32>\n}\nCompilation finished\n")
    with pytest.raises(HespasError, match=r"bare.mlir: line 4:1: custom op 'Compilation'"):
        load_module(bare)


def test_analyze_reports_each_module(monkeypatch, capsys) -> None:
    code, out, _ = run(main, ["analyze", str(TWO)], capsys, monkeypatch)
    assert code == 0
    first, second = out.split(f"\nModule 2 of 2: {TWO}#2 (@jit_moe_step)\n")
    assert first.splitlines()[:2] == [f"Module 1 of 2: {TWO}#1 (@jit_tp_step)",
                                      "MLIR Analysis Results:"]
    assert "stablehlo.collective_permute..:     1" in second
    code, out, _ = run(main, ["analyze", str(TWO), "--json"], capsys, monkeypatch)
    assert [(m["file"], m["total_operators"]) for m in json.loads(out)] == [
        (f"{TWO}#1", 3), (f"{TWO}#2", 4)]
    code, out, _ = run(mlir_analyzer, ["-f", "csv", str(TWO)], capsys, monkeypatch)
    assert code == 0 and "stablehlo.all_to_all,1" in out and f"{TWO}#2" in out


def test_gen_picks_one_module(tmp_path, monkeypatch, capsys) -> None:
    out = tmp_path / "out"
    code, stdout, stderr = run(chakra_gen, ["A100_SXM_40GB", "--mlir_file", str(TWO), "--output",
                                            str(out)], capsys, monkeypatch)
    assert (code, stdout) == (2, "") and not out.exists()
    assert stderr == (f"error: {TWO}: holds 2 modules (separated by '// -----' lines); choose "
                      "one with --module N (1 to 2)\n")
    code, stdout, _ = run(main, ["gen", "A100_SXM_40GB", "--mlir_file", str(TWO), "--output",
                                 str(out), "--module", "2", "--json"], capsys, monkeypatch)
    summary = json.loads(stdout)
    assert code == 0 and summary["mlir_file"] == f"{TWO}#2" and summary["num_devices"] == 32
    stats = json.loads((out / "module_stats.json").read_text())
    assert stats["source"] == f"{TWO}#2" and stats["devices"]["origin"] == "stated"
    for module in ("3", "0"):
        code, stdout, stderr = run(chakra_gen, ["A100_SXM_40GB", "--mlir_file", str(TWO),
                                                "--output", str(tmp_path / "o"), "--module",
                                                module], capsys, monkeypatch)
        assert (code, stdout, stderr.count("\n")) == (2, "", 1) and not (tmp_path / "o").exists()
        assert ("no module 3: the file holds 2 modules" if module == "3"
                else "--module must be at least 1, not 0") in stderr


def test_module_labels_name_the_module_and_keep_file_lines(tmp_path) -> None:
    text = TWO.read_text()
    broken = tmp_path / "broken.mlir"
    broken.write_text(text.replace("%1 = stablehlo.tanh %0", "%1 = stablehlo.tanh %0,"))
    first = next(load_modules(broken))
    assert first.path == f"{broken}#1" and first.name == "jit_tp_step"
    with pytest.raises(HespasError, match=r"broken.mlir#2: line 14:\d+: "):
        list(load_modules(broken))
    # A banner before a file's only module does not make it a multi-module file.
    single = tmp_path / "single.mlir"
    single.write_text(text[:text.index("\n// -----// IR Dump After Inliner")])
    assert [m.path for m in load_modules(single)] == [str(single)]
    assert load_module(single, module=1).path == str(single)


def test_block_extractor_reads_the_module_a_label_names() -> None:
    """The XLA estimators cut blocks out of the module a label names."""
    assert list(BlockExtractor(f"{TWO}#2").functions) == ["main"]
    assert BlockExtractor(f"{TWO}#2").parsed.label == f"{TWO}#2"
