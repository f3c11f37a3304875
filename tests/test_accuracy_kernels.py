"""``hespas accuracy --group gpu`` and ``--kernels``: the shipped H100 and H200 programs, and
profiled kernels classed through XLA's optimized HLO beside the fused_roofline plan."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hespas_py.accuracy.cases import plan_cases
from hespas_py.accuracy.kernels import (
    IDLE,
    UNPROFILED,
    HloKernels,
    device_busy_s,
    profile_classes,
    profile_files,
)
from hespas_py.accuracy.rows import GROUPS
from hespas_py.cli.main import app
from hespas_py.errors import HespasError

HLO = """HloModule m

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

%fused_reduce (p0: f32[64,128]) -> f32[64] {
  %p0 = f32[64,128]{1,0} parameter(0)
  %z = f32[] constant(0)
  ROOT %r = f32[64]{0} reduce(%p0, %z), dimensions={1}, to_apply=%add
}

%fused_exp (p0: f32[64,128]) -> f32[64,128] {
  %p0 = f32[64,128]{1,0} parameter(0)
  ROOT %e = f32[64,128]{1,0} exponential(%p0)
}

ENTRY %main (x: f32[64,128], w: f32[128,128]) -> f32[64] {
  %x = f32[64,128]{1,0} parameter(0)
  %w = f32[128,128]{1,0} parameter(1)
  %cublas-gemm.1 = (f32[64,128]{1,0}, s8[1024]{0}) custom-call(%x, %w), custom_call_target="__cublas$lt$matmul"
  %gte = f32[64,128]{1,0} get-tuple-element(%cublas-gemm.1), index=0
  %loop_exp_fusion = f32[64,128]{1,0} fusion(%gte), kind=kLoop, calls=%fused_exp
  ROOT %input_reduce_fusion.2 = f32[64]{0} fusion(%loop_exp_fusion), kind=kInput, calls=%fused_reduce
}
"""
PROFILE = """hlo_op,kernel,launches_per_step,us_per_step
command_buffer_3,nvjet_sm90_tst_128x128_64x6_2x1_v_bz_TNT,1.0,10.0
command_buffer_3,loop_exp_fusion,1.0,4.0
command_buffer_3,input_reduce_fusion_2,2.0,6.0
command_buffer_3,cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma,1.0,30.0
command_buffer_3,Memset 0,1.0,1.0
cublas-gemm.1,some_helper_kernel,1.0,2.0
"""


def test_profiled_kernels_are_classed_through_the_optimized_hlo():
    classes = profile_classes(HLO, PROFILE, "p.csv", measured_s=100e-6)
    seconds = {cls: round(t.seconds * 1e6, 6) for cls, t in classes.items()}
    assert seconds == {"gemm": 12.0, "elementwise": 4.0, "reduction": 6.0,
                       "flash_attention_bwd": 30.0, "copy": 1.0, IDLE: 47.0}
    assert classes["reduction"].launches == 2.0


def test_a_truncated_profile_leaves_the_unlisted_kernels_out_of_the_idle_time():
    # the profile lists 53 us of kernels; all kernels took 60 us: 7 unprofiled, 40 idle
    classes = profile_classes(HLO, PROFILE, "p.csv", measured_s=100e-6, busy_s=60e-6)
    assert classes[UNPROFILED].seconds == pytest.approx(7e-6)
    assert classes[IDLE].seconds == pytest.approx(40e-6)
    # a busy time no larger than the listed kernels adds nothing
    assert UNPROFILED not in profile_classes(HLO, PROFILE, "p.csv", 100e-6, busy_s=53e-6)


def test_device_busy_comes_from_the_measured_table_beside_the_profile():
    assert device_busy_s("gpu_h200/gpt2_124m_b8") == pytest.approx(30.743e-3)
    assert device_busy_s("gpu_h200/gemm_bf16_8192") is None  # not profiled
    assert device_busy_s("gpu_h100/resnet18_1dev") is None  # no such column on the H100
    assert device_busy_s("resnet18_train_4dev") is None


def test_bad_profile_or_hlo_is_one_error():
    with pytest.raises(HespasError, match="p.csv: a kernel profile needs"):
        profile_classes(HLO, "kernel,us\nx,1\n", "p.csv")
    with pytest.raises(HespasError, match="m.hlo: not an HLO module"):
        HloKernels("HloModule broken\nENTRY {", "m.hlo")


def test_gpu_group_has_the_h100_and_h200_single_device_rows_with_profiles():
    rows = GROUPS["gpu"].rows()
    cases, skipped = plan_cases(rows, [])
    assert len(rows) == len(cases) == 8 + 13 and not skipped
    nodes = {"H100": "H100_80GB", "H200": "H200_141GB"}
    assert all(r.counted and c.system_dir is None and c.node == nodes[r.name[-4:]]
               and r.measured_peak_bytes for r, c in zip(rows, cases, strict=True))
    with_profiles = [r.workload for r in rows if profile_files(r.workload)]
    # the calibration programs ship no kernel profile; on the H200 the six programs lowered
    # again for the H100's rows neither
    assert len(with_profiles) == 6 + 7


def test_accuracy_kernels_prints_classes_for_profiled_rows(tmp_path):
    table = tmp_path / "gpu.csv"
    text = GROUPS["gpu"].table
    from hespas_py.resources import shipped

    lines = shipped("data", text).read_text().splitlines()
    table.write_text("\n".join([lines[0]] + [l for l in lines if l.startswith(
        ("stream_bf16_2GiB 1xH100", "resnet18_1dev 1xH100"))]) + "\n")
    result = CliRunner().invoke(app, ["accuracy", "--group", "gpu", "--measured", str(table),
                                      "--kernels", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert [r["row"] for r in document["rows"]] == ["stream_bf16_2GiB 1xH100", "resnet18_1dev 1xH100"]
    assert list(document["kernels"]) == ["resnet18_1dev 1xH100"]
    resnet = document["kernels"]["resnet18_1dev 1xH100"]
    assert resnet["scatter"]["measured_s"] > 1e-3 and resnet["scatter"]["estimated_launches"] == 1
    assert resnet["conv_forward"]["estimated_s"] > 0 and resnet[IDLE]["measured_s"] > 2e-3
    # the model's idle time is the host's dispatch of 168 arguments and 169 results, and the
    # GPU's idle time around the 59 cuDNN calls launched outside command buffers
    gaps = resnet[IDLE]["estimated_s"] - (83e-6 + 337 * 3.1e-6)
    assert 0.1e-3 < gaps < 0.3e-3
    estimated = sum(c["estimated_s"] for c in resnet.values())
    assert estimated == pytest.approx(document["rows"][1]["estimated_s"], rel=1e-6)


def test_gpu_rows_carry_the_measured_and_estimated_peak_memory(tmp_path):
    from hespas_py.resources import shipped

    lines = shipped("data", GROUPS["gpu"].table).read_text().splitlines()
    assert all(r.measured_peak_bytes for r in GROUPS["gpu"].rows())
    table = tmp_path / "gpu.csv"
    table.write_text("\n".join([lines[0]] + [l for l in lines
                                              if l.startswith("stream_bf16_2GiB 1xH100")]) + "\n")
    result = CliRunner().invoke(app, ["accuracy", "--group", "gpu", "--measured", str(table),
                                      "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    (row,) = document["rows"]
    # 1 Gi bf16 elements in, 1 Gi out: XLA's buffer assignment has no temporaries (4 GiB).
    assert row["measured_peak_bytes"] == 4 * 2**30
    assert row["estimated_peak_bytes"] == pytest.approx(4 * 2**30, rel=1e-3)
    assert row["memory_error"] == pytest.approx(row["estimated_peak_bytes"] / 2**32 - 1)
    assert document["groups"]["gpu"]["memory_rows"] == 1
    assert document["groups"]["gpu"]["memory_within_10"] == 1


def test_a_peak_that_is_not_a_byte_count_is_one_error_line(tmp_path):
    from hespas_py.resources import shipped

    lines = shipped("data", GROUPS["gpu"].table).read_text().splitlines()
    bad = lines[1].replace(",436207616,", ",4e8,")
    assert bad != lines[1]
    table = tmp_path / "gpu.csv"
    table.write_text(lines[0] + "\n" + bad + "\n")
    with pytest.raises(HespasError, match="line 2: measured_peak_bytes must be a byte count"):
        GROUPS["gpu"].rows(table)


def test_h200_rows_take_their_idle_time_from_the_measured_busy_time(tmp_path):
    from hespas_py.resources import shipped

    lines = shipped("data", GROUPS["gpu"].table).read_text().splitlines()
    table = tmp_path / "gpu.csv"
    table.write_text("\n".join([lines[0]] + [l for l in lines
                                              if l.startswith("mlp_f32_tf32 1xH200")]) + "\n")
    result = CliRunner().invoke(app, ["accuracy", "--group", "gpu", "--measured", str(table),
                                      "--kernels", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    mlp = document["kernels"]["mlp_f32_tf32 1xH200"]
    # measured.csv: a step of 11.163 ms, 10.086 ms of it in kernels, all of them listed
    assert mlp[IDLE]["measured_s"] == pytest.approx(11.163104e-3 - 10.086e-3, rel=1e-4)
    assert UNPROFILED not in mlp and mlp["gemm"]["measured_launches"] == 11
