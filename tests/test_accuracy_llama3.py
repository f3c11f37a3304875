"""The llama3 accuracy group: Table 4 of the Llama 3 report as rows published in TFLOP/s per GPU
(hespas_py/accuracy/work.py, rows.py), and their rates beside ours in `hespas accuracy`."""

from __future__ import annotations

import pytest

from hespas_py.accuracy.evaluate import evaluate
from hespas_py.accuracy.rows import GROUPS, RATE_COLUMNS
from hespas_py.accuracy.work import Decoder
from hespas_py.errors import HespasError

LLAMA3_405B = Decoder(layers=126, width=16384, heads=128, kv_heads=8, head_dim=128, mlp=53248,
                      vocab=128256)


def test_405b_counts_its_published_parameters():
    embedding = 128256 * 16384
    assert LLAMA3_405B.matmul_params + embedding == pytest.approx(405.85e9, rel=1e-3)  # "405B"
    n = LLAMA3_405B.matmul_params
    assert LLAMA3_405B.flops_per_token(8192) == 6 * n + 6 * 126 * 16384 * 8192
    assert LLAMA3_405B.palm_flops_per_token(8192) == 6 * n + 12 * 126 * 16384 * 8192


def test_table_4_rows():
    rows = GROUPS["llama3"].rows()
    assert [(r.work.devices, round(r.work.tflops_per_device(r.measured_s))) for r in rows] == [
        (8192, 430), (16384, 400), (16384, 380)]
    assert {r.work.tokens for r in rows} == {16 * 2 ** 20}  # "16M" tokens per step
    first = rows[0]
    assert first.measured_s == pytest.approx(
        LLAMA3_405B.flops_per_token(8192) * 2 ** 24 / 8192 / 430e12)
    assert all(r.counted and r.attention == "flash" for r in rows)


def _table(tmp_path, **changes) -> str:
    values = {c: "1" for c in RATE_COLUMNS} | {
        "row": "r", "model": "m", "kernels": "k", "system": "H100_80GB_x4",
        "workload": "llama3_100m_train_4dev", "node": "H100_80GB", "system_preset": "H100_80GB_4GPU",
        "attention": "materialized", "counted": "true", "reason": "", "note": "", "gpus": "4",
        "dp": "4", "seq": "4096", "batch_per_dp": "1", "virtual": "1", "layers": "7", "width": "576",
        "heads": "9", "kv_heads": "9", "head_dim": "128", "mlp": "2016", "vocab": "128256",
        "tflops_per_gpu": "100"} | changes
    path = tmp_path / "rates.csv"
    path.write_text(",".join(RATE_COLUMNS) + "\n" + ",".join(values[c] for c in RATE_COLUMNS) + "\n")
    return path


def test_bad_layout_is_one_line(tmp_path):
    with pytest.raises(HespasError, match="line 2: tp x cp x pp x dp is not gpus"):
        GROUPS["llama3"].rows(_table(tmp_path, dp="2"))
    with pytest.raises(HespasError, match="tflops_per_gpu must be a number > 0"):
        GROUPS["llama3"].rows(_table(tmp_path, tflops_per_gpu="fast"))


def test_rates_beside_step_times(tmp_path):
    evaluation = evaluate([GROUPS["llama3"]], ["fused_roofline"], measured=_table(tmp_path))
    (result,) = evaluation.results
    doc = result.as_json()
    assert doc["tokens_per_step"] == 4 * 4096
    assert doc["measured_tflops_per_device"] == pytest.approx(100)
    assert doc["estimated_tflops_per_device"] == pytest.approx(
        100 * result.row.measured_s / result.estimated_s)


def test_rows_without_their_export_are_skipped_with_the_reason():
    from hespas_py.accuracy.cases import plan_cases

    cases, skipped = plan_cases(GROUPS["llama3"].rows(), [])
    assert not cases
    assert [reason for _, reason in skipped] == [
        "no StableHLO for llama3_405b_8192gpu", "no StableHLO for llama3_405b_16384gpu",
        "no StableHLO for llama3_405b_cp16_16384gpu"]
