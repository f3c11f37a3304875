"""The GPU's idle time around kernels launched outside XLA's command buffers
(`hespas_py.estimators.launch_gaps`, ``launch_gap_s``)."""

from __future__ import annotations

import pytest

from hespas_py.accuracy.kernels import IDLE, model_classes
from hespas_py.estimators.launch_gaps import alone, with_launch_gaps
from hespas_py.kernels import Kind
from hespas_py.kernels.kernel import Kernel
from hespas_py.resources import shipped

LOOP = Kernel(Kind.LOOP, (), 0.0, 1.0)
CONV = Kernel(Kind.GEMM, (), 1.0, 1.0, gemm_kind="conv_forward")
DOT = Kernel(Kind.GEMM, (), 1.0, 1.0, gemm_kind="dot")
GAPS = {"switch": 2.0, "between": 0.5}


def test_a_convolution_pays_a_switch_into_and_out_of_the_command_buffers_around_it():
    assert alone(CONV) and not alone(DOT) and not alone(LOOP)
    gaps = [k.gap_s for k in with_launch_gaps([LOOP, CONV, LOOP, DOT], GAPS)]
    assert gaps == [0.0, 4.0, 0.0, 0.0]  # cuBLAS GEMMs are commands: no gap
    # back to back: the second follows a kernel launched alone; the last leaves none behind
    gaps = [k.gap_s for k in with_launch_gaps([LOOP, CONV, CONV, LOOP, CONV], GAPS)]
    assert gaps == [0.0, 2.0, 0.5 + 2.0, 0.0, 2.0]
    assert with_launch_gaps([LOOP, CONV], {}) == [LOOP, CONV]


def test_the_h100_resnet_steps_idle_time_holds_the_gaps():
    resnet = shipped("workloads", "gpu_h100", "resnet18_1dev.mlir.gz")
    plain = model_classes(resnet, "H100_80GB", {"launch_gap_s": {"switch": 0.0, "between": 0.0}})
    gapped = model_classes(resnet, "H100_80GB")
    # 59 cuDNN calls, mostly between command buffers: about 0.2 ms of idle GPU, in `idle`
    added = gapped[IDLE].seconds - plain[IDLE].seconds
    assert 0.1e-3 < added < 0.3e-3
    for cls in ("conv_forward", "conv_backward_input", "conv_backward_filter"):
        assert gapped[cls].seconds == pytest.approx(plain[cls].seconds)
