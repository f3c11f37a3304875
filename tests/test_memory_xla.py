"""Peak memory against XLA's own buffer assignment: ``memory_analysis()`` of the shipped workloads
compiled by XLA:CPU here, and of the programs compiled for an H100 (``../shared``)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import pytest

from hespas_py.export.workloads import workload_path
from hespas_py.hardware import load_hardware
from hespas_py.memory import peak_of_file

#: Shipped workloads XLA:CPU compiles in well under a second each (the LLaMA steps take 3-15 s:
#: `test_llama_steps_against_xla_cpu` compiles them together; the ResNet steps carry GPU layouts
#: XLA:CPU refuses).
CPU_WORKLOADS = ("mlp_dp_4dev", "mlp_fsdp_4dev", "mlp_tp_4dev", "mesh2x4_8dev", "pipeline_4dev")

_XLA_CPU = """
import json, sys
from hespas_py.estimators.xla_cost import local_client
from hespas_py.mlir.reader import load_module
from hespas_py.mlir.source import parse_file
client = local_client()
out = {}
for path in sys.argv[1:]:
    devices = client.devices()[:load_module(path).num_devices]
    stats = client.compile_and_load(str(parse_file(path, None).module),
                                    devices).get_compiled_memory_stats()
    out[path] = [stats.argument_size_in_bytes, stats.output_size_in_bytes,
                 stats.alias_size_in_bytes, stats.temp_size_in_bytes]
print(json.dumps(out))
"""


def _compile_on_cpu(repo_dir, names) -> dict:
    """``memory_analysis()`` figures of the workloads ``names`` compiled by XLA:CPU, by path,
    in a process of its own (it needs 8 host devices, set before jax starts)."""
    import json

    paths = [str(workload_path(name)) for name in names]
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
           "PYTHONPATH": str(repo_dir), "HESPAS_JOBS": "1"}
    done = subprocess.run([sys.executable, "-c", _XLA_CPU, *paths], env=env, cwd=repo_dir,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def xla_cpu(repo_dir) -> dict:
    """`_compile_on_cpu` of `CPU_WORKLOADS`."""
    return _compile_on_cpu(repo_dir, CPU_WORKLOADS)


#: Workloads whose peak the analysis matches XLA:CPU's to 0.1% (the pipeline step only with
#: XLA:CPU's breadth-first schedule: every microbatch's weight gradients live until their sum).
CPU_PEAK_EXACT = {"mlp_dp_4dev", "mesh2x4_8dev", "pipeline_4dev"}


@pytest.mark.parametrize("name", CPU_WORKLOADS)
def test_memory_against_xla_cpu(name, xla_cpu):
    """Arguments and outputs to the byte; the peak, analysed as XLA:CPU compiles
    (``backend="cpu"``), within 10% (0.1% for `CPU_PEAK_EXACT`; the data-parallel steps hold
    every gradient at the combined all-reduce, as XLA:CPU's combiner does)."""
    report = peak_of_file(workload_path(name), backend="cpu")
    arguments, outputs, alias, temporaries = xla_cpu[str(workload_path(name))]
    assert (report.arguments_bytes, report.outputs_bytes, report.alias_bytes) == (
        arguments, outputs, alias)
    assert report.peak_bytes == pytest.approx(arguments + outputs - alias + temporaries,
                                              rel=0.001 if name in CPU_PEAK_EXACT else 0.10)


#: Shipped LLaMA-3 100M steps, 3-15 s each for XLA:CPU to compile: compiled once, together.
LLAMA_WORKLOADS = ("llama3_100m_scan_train_4dev", "llama3_100m_train_4dev")


def test_llama_steps_against_xla_cpu(repo_dir):
    """The LLaMA-3 100M step, its layers scanned and unrolled (attention recomputed in the
    backward pass), within 10% analysed as the installed jaxlib's XLA:CPU compiles. jaxlib 0.10:
    the scanned step carries f32 copies of its sliced saved activations; in the unrolled one
    every layer's f32 exp(scores - max) and probabilities are live at once (no barriers, no
    multi-output fusion: each is computed as soon as its operands exist). From 0.11: barriers
    hold each layer's recomputation until its gradient; the peak is the logits' softmax
    backward (f32 logits, one-hot, exp and the bf16 gradient at once)."""
    compiled = _compile_on_cpu(repo_dir, LLAMA_WORKLOADS)
    for name in LLAMA_WORKLOADS:
        arguments, outputs, alias, temporaries = compiled[str(workload_path(name))]
        report = peak_of_file(workload_path(name), backend="cpu")
        assert (report.arguments_bytes, report.outputs_bytes) == (arguments, outputs), name
        assert report.peak_bytes == pytest.approx(arguments + outputs - alias + temporaries,
                                                  rel=0.10), name


def _measured(shared_dir) -> list[dict]:
    reference = shared_dir / "reference" / "gpu-h100"
    return [dict(row, module=reference / "modules" / f"{row['case']}.stablehlo.mlir.gz")
            for row in csv.DictReader((reference / "measured.csv").open())]


def test_gpu_programs_peak_against_xla_gpu(shared_dir):
    """Arguments and outputs equal XLA:GPU's; peaks within 10% (ResNet-18's with the buffers
    XLA:GPU's rewrites add: cuDNN's padded convolution inputs and the max-pool gradient's zero
    init, docs/memory.md)."""
    for row in _measured(shared_dir):
        report = peak_of_file(row["module"])
        assert report.arguments_bytes == int(row["argument_bytes"]), row["case"]
        assert report.outputs_bytes == int(row["output_bytes"]), row["case"]
        error = report.peak_bytes / int(row["xla_gpu_peak_bytes"]) - 1
        assert abs(error) <= 0.10, (row["case"], error)


def test_llama7b_dims_fits_h100_80gb_not_a100_40gb(shared_dir):
    module = shared_dir / "reference" / "gpu-h100" / "modules" / "llama7b_8L_b2_xla.stablehlo.mlir.gz"
    peak = peak_of_file(module).peak_bytes
    assert peak <= load_hardware("H100_80GB").capacity_bytes
    assert peak > load_hardware("A100_SXM_40GB").capacity_bytes
