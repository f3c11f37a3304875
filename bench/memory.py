"""Per-device peak memory (`hespas_py.memory`) against XLA's own buffer assignment.

- ``gpu``: the programs measured on an H100 and an H200 (``../shared/reference/gpu-h100``,
  ``gpu-h200``: the StableHLO XLA compiled and ``memory_analysis()`` of it, ``measured.csv``),
  each analysed with its preset's GPU rewrites (`hespas_py.memory.memory_rules`); goal (issues
  17, 27): every peak within 10% of ``xla_gpu_peak_bytes``, and the Llama-2-7B-dims batch-2
  program fitting an H100 80GB but not an A100 40GB.
- ``cpu``: the shipped workloads compiled on this machine's CPU through jaxlib, against
  ``memory_analysis()`` of that compile (arguments, outputs and temporaries of XLA:CPU), the
  analysis following the installed jaxlib's XLA:CPU (``backend="cpu"``: breadth-first schedule,
  no multi-output fusion; 16-bit dots in f32 on jaxlib 0.10, barriers kept and YNNPACK dots
  from 0.11) beside the default one (XLA:GPU's); see docs/memory.md.
- ``gen``: what the analysis adds to the wall time of ``hespas gen`` (a node preset,
  linear_split) on the 500k-op module (`scripts/gen_big_module.py`; goal: under 20%) and on
  shipped ResNet-50 and LLaMA steps: gen with the analysis against gen without it, runs
  alternating, best of ``repeat`` each; beside it the analysis' own time in one process.

    [HESPAS_SHARED=DIR] python3 bench/memory.py [gpu] [cpu] [gen]     (default: all three)
"""

from __future__ import annotations

import csv
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
#: ``HESPAS_SHARED`` names the shared folder when it is not beside the checkout.
SHARED = Path(os.environ.get("HESPAS_SHARED", REPO.parent / "shared")) / "reference"
REFERENCE = SHARED / "gpu-h100"
#: Measured folders and the node preset whose rules their programs are analysed with.
GPU_REFERENCES = ((REFERENCE, "H100_80GB"), (SHARED / "gpu-h200", "H200_141GB"))
#: Shipped workloads XLA:CPU compiles in a few seconds (the rest need minutes, or carry GPU
#: layouts XLA:CPU refuses).
CPU_WORKLOADS = ("mlp_dp_4dev", "mlp_fsdp_4dev", "mlp_tp_4dev", "mesh2x4_8dev", "pipeline_4dev",
                 "llama3_100m_scan_train_4dev", "llama3_100m_train_4dev")
#: Shipped steps timed with the big module in ``gen``.
GEN_WORKLOADS = ("resnet50_train_4dev", "llama3_1b_train_4dev")


def _gb(n: float) -> str:
    return f"{n / 1e9:8.3f}"


def gpu() -> None:
    from hespas_py.hardware import load_hardware
    from hespas_py.memory import memory_rules, peak_of_file

    if not (REFERENCE / "measured.csv").is_file():
        print(f"skipped gpu: {REFERENCE} not found")
        return
    print("node        case                  peak GB  XLA GPU GB   error   args GB  outputs GB  "
          "temps GB (XLA)")
    worst = 0.0
    for folder, node in GPU_REFERENCES:
        if not (folder / "measured.csv").is_file():
            print(f"skipped {node}: {folder} not found")
            continue
        rules = memory_rules(load_hardware(node, "fused_roofline").params)
        for row in csv.DictReader((folder / "measured.csv").open()):
            report = peak_of_file(folder / "modules" / f"{row['case']}.stablehlo.mlir.gz",
                                  rules=rules)
            measured = int(row["xla_gpu_peak_bytes"])
            error = report.peak_bytes / measured - 1
            worst = max(worst, abs(error))
            print(f"{node:<12}{row['case']:<20}{_gb(report.peak_bytes)}  {_gb(measured)}  "
                  f"{error:+7.1%}  {_gb(report.arguments_bytes)}  {_gb(report.outputs_bytes)}  "
                  f"{_gb(report.temporaries_bytes)} ({_gb(int(row['temp_bytes'])).strip()})")
    print(f"largest error {worst:.1%} (goal: within 10%)")
    llama = peak_of_file(REFERENCE / "modules" / "llama7b_8L_b2_xla.stablehlo.mlir.gz",
                         rules=memory_rules(load_hardware("H100_80GB", "fused_roofline").params))
    for node in ("H100_80GB", "A100_SXM_40GB"):
        capacity = load_hardware(node).capacity_bytes
        print(f"llama7b_8L_b2_xla on {node}: {llama.peak_bytes / 1e9:.2f} GB of "
              f"{capacity / 1e9:.2f} GB: {'fits' if llama.peak_bytes <= capacity else 'does not fit'}")


def xla_cpu_memory(path: Path) -> dict[str, int]:
    """``memory_analysis()`` of the module in ``path`` compiled by XLA:CPU (as many host
    devices as the module's replicas x partitions; set before jax starts)."""
    from hespas_py.estimators.xla_cost import local_client
    from hespas_py.mlir.reader import load_module
    from hespas_py.mlir.source import parse_file

    devices = load_module(path).num_devices
    client = local_client()
    executable = client.compile_and_load(str(parse_file(path, None).module),
                                         client.devices()[:devices])
    stats = executable.get_compiled_memory_stats()
    return {"arguments": stats.argument_size_in_bytes, "outputs": stats.output_size_in_bytes,
            "alias": stats.alias_size_in_bytes, "temporaries": stats.temp_size_in_bytes}


def cpu() -> None:
    os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    from hespas_py.export.workloads import workload_path
    from hespas_py.memory import peak_of_file

    print("workload                  XLA:CPU MB  peak MB (cpu)   error  temps MB  "
          "peak MB (gpu)   error")
    for name in CPU_WORKLOADS:
        path = workload_path(name)
        xla = xla_cpu_memory(path)
        peak = xla["arguments"] + xla["outputs"] - xla["alias"] + xla["temporaries"]
        cpu_report, gpu_report = (peak_of_file(path, backend=b) for b in ("cpu", "gpu"))
        assert (cpu_report.arguments_bytes, cpu_report.outputs_bytes) == (xla["arguments"],
                                                                          xla["outputs"]), name
        print(f"{name:<28}{peak / 1e6:8.1f}  {cpu_report.peak_bytes / 1e6:13.1f}  "
              f"{cpu_report.peak_bytes / peak - 1:+6.1%}  "
              f"{cpu_report.temporaries_bytes / 1e6:8.1f}  {gpu_report.peak_bytes / 1e6:13.1f}  "
              f"{gpu_report.peak_bytes / peak - 1:+6.1%}")
    print("arguments and outputs equal XLA:CPU's for every workload; temps: the analysis' "
          "(cpu)")


#: Runs ``hespas gen`` (a preset: fused_roofline) in a fresh process, timing it with or without
#: the memory analysis (``memory_of`` replaced by one returning nothing, in this process), and
#: prints the wall time and the phases as JSON.
_GEN_RUN = """
import json, sys, time
from hespas_py import pipeline
from hespas_py.run import Split, build_config
if sys.argv[1] == "without":
    pipeline.memory_of = lambda *args: {}
    pipeline._BACKGROUND_MEMORY_OPS = float("inf")  # nor a child forked for it
config = build_config("A100_SXM_40GB", mlir_file=sys.argv[2], output_dir=sys.argv[3],
                      clean=True, split=Split(split_strategy="linear_split"))
start = time.perf_counter()
result = pipeline.generate(config)
print(json.dumps({"wall": time.perf_counter() - start, **result.summary["timings_s"]}))
"""


def _gen_runs(path: Path, out: Path, repeat: int) -> tuple[float, float, float]:
    """(best wall without the analysis, best wall with it, least time gen waited for it),
    seconds; runs alternate, so load on the machine hits both alike."""
    import json
    import subprocess

    runs: dict[str, list[dict]] = {"without": [], "with": []}
    for _ in range(repeat):
        for mode in runs:
            done = subprocess.run([sys.executable, "-c", _GEN_RUN, mode, str(path), str(out)],
                                  cwd=REPO, capture_output=True, text=True, check=True,
                                  env={**os.environ, "PYTHONPATH": str(REPO)})
            runs[mode].append(json.loads(done.stdout))
    return (min(r["wall"] for r in runs["without"]), min(r["wall"] for r in runs["with"]),
            min(r["memory"] for r in runs["with"]))


def gen(ops: int = 500_000, repeat: int = 3) -> None:
    import subprocess
    import tempfile

    from hespas_py.export.workloads import workload_path
    from hespas_py.memory import analyze
    from hespas_py.mlir.reader import load_module

    print("module                        gen s  +analysis s  added   waited s  analysis alone s"
          "  (of gen)")
    with tempfile.TemporaryDirectory(prefix="hespas-bench-") as tmp:
        big = Path(tmp) / "big.mlir"
        subprocess.run([sys.executable, str(REPO / "scripts" / "gen_big_module.py"), "--ops",
                        str(ops), "--out", str(big)], check=True, cwd=REPO, capture_output=True)
        for label, path in ((f"big ({ops:,} ops)", big),
                            *((name, workload_path(name)) for name in GEN_WORKLOADS)):
            without, with_it, waited = _gen_runs(path, Path(tmp) / "out", repeat)
            module = load_module(path)
            start = time.perf_counter()
            analyze(module)
            alone = time.perf_counter() - start
            print(f"{label:<28}{without:7.2f}  {with_it:11.2f}  {with_it / without - 1:+6.1%}  "
                  f"{waited:8.2f}  {alone:16.2f}  ({alone / without:+.1%})")
    print("added: wall time the analysis adds to gen (goal on the big module: < 20%); waited: "
          "what gen waits for it at the end (it runs in a forked child meanwhile); alone: "
          "its own time in one process")


if __name__ == "__main__":
    chosen = sys.argv[1:] or ["gpu", "cpu", "gen"]
    for name in chosen:
        {"gpu": gpu, "cpu": cpu, "gen": gen}[name]()
