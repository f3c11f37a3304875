"""The element rate of loop kernels (`hespas_py.estimators.loop_rate`, ``loop_element_rate``)."""

from __future__ import annotations

import dataclasses

import pytest

from hespas_py.estimators.base import get_estimator
from hespas_py.estimators.loop_rate import loop_elements
from hespas_py.hardware import load_hardware
from hespas_py.kernels import Kind
from hespas_py.kernels.kernel import Kernel
from test_estimate_costs import T, make_op

N = 1 << 29


def fill(dtype: str) -> Kernel:
    op = make_op("stablehlo.broadcast_in_dim", [T([], dtype)], [T([N], dtype)],
                 {"dimensions": ()})
    return Kernel(Kind.LOOP, (op,), 0.0, float(op.result_types[0].nbytes))


def test_a_loop_kernels_iteration_space_is_its_largest_result_or_its_update():
    assert loop_elements(fill("bf16")) == N
    update = make_op("stablehlo.dynamic_update_slice", [T([64, 1024]), T([1, 1024])],
                     [T([64, 1024])])
    assert loop_elements(Kernel(Kind.LOOP, (update,), 0.0, 8192.0)) == 1024
    assert loop_elements(dataclasses.replace(fill("bf16"), part="copy")) == 0
    assert loop_elements(dataclasses.replace(fill("bf16"), kind=Kind.REDUCTION)) == 0


def test_a_narrow_loop_kernel_is_bound_by_the_element_rate_on_the_h200():
    h200 = load_hardware("H200_141GB", "fused_roofline")
    rate = h200.params.loop_element_rate
    estimator = get_estimator("fused_roofline", h200)
    launch = h200.params.launch_overhead_s
    # the H200's broadcast fills run at 8.5e11 elements/s whatever the type (its profiles)
    assert estimator.kernel_cost(fill("bf16"))[0] == pytest.approx(launch + N / rate)
    assert estimator.kernel_cost(fill("f32"))[0] == pytest.approx(launch + N / rate)
    # a kernel moving 16 bytes per element is memory-bound
    wide = dataclasses.replace(fill("f32"), bytes=16.0 * N)
    assert estimator.kernel_cost(wide)[0] == pytest.approx(launch + 16.0 * N / (4.8e12 * 0.8))
    # presets without the param keep no floor
    a100 = get_estimator("fused_roofline", load_hardware("A100_SXM_40GB", "fused_roofline"))
    assert a100.kernel_cost(fill("bf16"))[0] == pytest.approx(
        launch + 2.0 * N / (1555e9 * 0.8))
