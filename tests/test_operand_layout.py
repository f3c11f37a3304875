"""Transpose kernels for GEMM operands stored in a layout cuBLAS cannot read
(`GpuRules.cublas_operand_layouts`, `hespas_py.kernels.operand_layout`)."""

from __future__ import annotations

import pytest

from hespas_py.kernels import GpuRules, Kind
from hespas_py.kernels.classes import kernel_class
from hespas_py.kernels.operand_layout import gemm_readable
from test_gpu_rules import module, plan

LAYOUTS = GpuRules(cublas_operand_layouts=True)


def bshd(b: int) -> str:
    return f"tensor<{b}x256x4x64xbf16>"


def scores(b: int) -> str:
    return f"tensor<{b}x4x256x256xbf16>"


def qk_module(tmp_path, b: int, q: str = "%q", prologue: str = ""):
    """JAX's attention scores: a dot batching over dims 0 and 2 of two [B, S, H, D] operands."""
    t = bshd(b)
    return module(tmp_path, f"""{prologue}
    %s = stablehlo.dot_general {q}, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : ({t}, {t}) -> {scores(b)}
    return %s : {scores(b)}""", f"%q: {t}, %k: {t}", scores(b))


def copies(kernels):
    return [k for k in kernels if k.kind is Kind.LOOP and kernel_class(k) == "copy"]


def test_split_batch_dimensions_need_a_transpose_kernel_per_operand(tmp_path):
    path = qk_module(tmp_path, b=2)
    assert not copies(plan(path))
    kernels = plan(path, LAYOUTS)
    operand = 2 * 256 * 4 * 64 * 2
    assert [k.bytes for k in copies(kernels)] == [2 * operand, 2 * operand]
    assert kernels[-1].kind is Kind.GEMM and len(kernels) == 3


def test_a_size_one_batch_dimension_leaves_a_readable_layout(tmp_path):
    # B = 1: the batch is H alone, stored between rows S and columns D: (rows, batch, columns)
    assert not copies(plan(qk_module(tmp_path, b=1), LAYOUTS))


def test_a_loop_kernel_computing_the_operand_for_the_gemm_alone_writes_its_layout(tmp_path):
    t = bshd(2)
    path = qk_module(tmp_path, b=2, q="%q2", prologue=f"""
    %q2 = stablehlo.multiply %q, %q : {t}""")
    kernels = plan(path, LAYOUTS)
    assert len(copies(kernels)) == 1  # only k, a scope input, is copied
    assert [k.kind for k in kernels].count(Kind.LOOP) == 2


@pytest.mark.parametrize("source,dims,q_copies", [
    ("2x4x256x64", "0, 2, 1, 3", 0),  # stored [B, H, S, D]: batch (B, H) major, then S, then D
    ("256x2x4x64", "1, 0, 2, 3", 0),  # stored [S, B, H, D]: rows, batch, columns
    ("256x2x64x4", "1, 0, 3, 2", 1),  # stored [S, B, D, H]: D between the batch dims B and H
    ("2x64x4x256", "0, 3, 2, 1", 1),  # stored [B, D, H, S]: H between D and S
])
def test_a_transpose_folds_into_the_gemm_where_xla_can_fold_it(tmp_path, source, dims, q_copies):
    path = qk_module(tmp_path, b=2, q="%qt", prologue=f"""
    %qt = stablehlo.transpose %h, dims = [{dims}] : (tensor<{source}xbf16>) -> {bshd(2)}""")
    path.write_text(path.read_text().replace("%q: ", f"%h: tensor<{source}xbf16>, %q: "))
    assert len(copies(plan(path, LAYOUTS))) == 1 + q_copies  # k, a scope input, is copied


def test_gemms_reading_one_value_in_one_layout_share_its_copy(tmp_path):
    t, s = bshd(2), scores(2)
    path = module(tmp_path, f"""
    %a = stablehlo.dot_general %q, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : ({t}, {t}) -> {s}
    %b = stablehlo.dot_general %q, %v, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : ({t}, {t}) -> {s}
    return %a, %b : {s}, {s}""", f"%q: {t}, %k: {t}, %v: {t}", f"{s}, {s}")
    assert len(copies(plan(path, LAYOUTS))) == 3  # q once, k, v


@pytest.mark.parametrize("groups,stored,readable", [
    (((0,), (1,), (2,)), (0, 1, 2), True),       # batch, rows, columns
    (((0,), (1,), (2,)), (1, 0, 2), True),       # rows, batch, columns
    (((0,), (1,), (2,)), (1, 2, 0), False),      # batch most minor
    (((0, 2), (1,), (3,)), (0, 1, 2, 3), False),  # batch dims split by a row dim
    (((), (0, 1), (2,)), (2, 0, 1), True),       # columns, rows (column-major)
    (((), (0, 1), (2,)), (0, 2, 1), False),      # rows split by the columns
])
def test_gemm_readable_is_xla_matrix_layout_test(groups, stored, readable):
    assert gemm_readable(groups, stored) is readable


@pytest.mark.parametrize("layout,copied", [("3, 2, 1, 0", 1), ("3, 1, 2, 0", 0)])
def test_a_custom_call_result_is_stored_in_its_declared_layout(tmp_path, layout, copied):
    # a [B, H, S, D] result, transposed to [B, S, H, D] and read as [B*S, H*D] rows: only a
    # result stored B, S, H, D (a cuDNN flash-attention call's) is readable as it is
    path = module(tmp_path, f"""
    %o = stablehlo.custom_call @attention(%x) {{operand_layouts = [dense<[3, 2, 1, 0]> : tensor<4xindex>], result_layouts = [dense<[{layout}]> : tensor<4xindex>]}} : (tensor<2x4x256x64xbf16>) -> tensor<2x4x256x64xbf16>
    %t = stablehlo.transpose %o, dims = [0, 2, 1, 3] : (tensor<2x4x256x64xbf16>) -> tensor<2x256x4x64xbf16>
    %r = stablehlo.reshape %t : (tensor<2x256x4x64xbf16>) -> tensor<512x256xbf16>
    %y = stablehlo.dot_general %r, %w, contracting_dims = [1] x [0] : (tensor<512x256xbf16>, tensor<256x256xbf16>) -> tensor<512x256xbf16>
    return %y : tensor<512x256xbf16>""", "%x: tensor<2x4x256x64xbf16>, %w: tensor<256x256xbf16>",
                  "tensor<512x256xbf16>")
    assert len(copies(plan(path, LAYOUTS))) == copied
