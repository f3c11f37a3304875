"""FLOPs and bytes per op family (hespas_py.kernels.costs) against hand-computed values."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from hespas_py.kernels.costs import op_bytes, op_family, op_flops, op_work
from hespas_py.kernels.linalg_costs import REDUCIBLE_F32
from hespas_py.kernels.work import FAMILIES, TENSOR, VECTOR
from hespas_py.mlir.ops import Op, Region, TensorType

_ids = itertools.count(1000)


def T(shape: tuple[int, ...] | list[int], dtype: str = "f32") -> TensorType:
    """A tensor type."""
    return TensorType(tuple(shape), dtype)


def make_op(name: str, operands: list[TensorType], results: list[TensorType],
            attrs: dict[str, Any] | None = None, regions: tuple[Region, ...] = (),
            operand_ids: tuple[int, ...] | None = None) -> Op:
    """An op with fresh SSA ids (or the given operand ids)."""
    ids = operand_ids if operand_ids is not None else tuple(next(_ids) for _ in operands)
    return Op(name=name, results=tuple(next(_ids) for _ in results), operands=ids,
              result_types=tuple(results), operand_types=tuple(operands),
              attrs=attrs or {}, regions=regions)


def scalar_region(*names: str, dtype: str = "f32", result: str = "") -> Region:
    """A reducer/comparator body: two scalar args, the named binary ops, a return."""
    s = T((), dtype)
    a, b = next(_ids), next(_ids)
    ops = [make_op(n, [s, s], [T((), result or dtype)], operand_ids=(a, b)) for n in names]
    ops.append(make_op("stablehlo.return", [ops[-1].result_types[0]], [],
                       operand_ids=ops[-1].results))
    return Region(args=(a, b), arg_types=(s, s), ops=tuple(ops))


def body(*ops: Op) -> Region:
    """A region holding ``ops`` and a return."""
    return Region(args=(), arg_types=(), ops=(*ops, make_op("stablehlo.return", [], [])))


def conv_numbers(layout_in: str, layout_kernel: str, layout_out: str) -> dict[str, Any]:
    """dimension_numbers from layout strings such as 'NCHW', 'OIHW', 'NCHW'."""
    return {
        "input_batch_dimension": layout_in.index("N"),
        "input_feature_dimension": layout_in.index("C"),
        "input_spatial_dimensions": [layout_in.index(c) for c in "HW"],
        "kernel_output_feature_dimension": layout_kernel.index("O"),
        "kernel_input_feature_dimension": layout_kernel.index("I"),
        "kernel_spatial_dimensions": [layout_kernel.index(c) for c in "HW"],
        "output_batch_dimension": layout_out.index("N"),
        "output_feature_dimension": layout_out.index("C"),
        "output_spatial_dimensions": [layout_out.index(c) for c in "HW"],
    }


# ------------------------------------------------------------------------------ elementwise

def test_elementwise_binary_counts_one_flop_per_element_and_io_bytes() -> None:
    op = make_op("stablehlo.add", [T([2, 3]), T([2, 3])], [T([2, 3])])
    w = op_work(op)
    assert w.flops == ((VECTOR, "f32", 6.0),)
    assert w.bytes == 72
    assert w.family == "elementwise" and not w.fallback


@pytest.mark.parametrize("name", ["stablehlo.exponential", "stablehlo.log", "stablehlo.tanh",
                                  "stablehlo.rsqrt", "stablehlo.logistic", "chlo.erf"])
def test_transcendentals_count_one_flop_per_element(name: str) -> None:
    op = make_op(name, [T([4, 5], "bf16")], [T([4, 5], "bf16")])
    assert op_flops(op) == 20
    assert op_bytes(op) == 80


def test_compare_select_convert_clamp() -> None:
    compare = make_op("stablehlo.compare", [T([2, 3]), T([2, 3])], [T([2, 3], "i1")])
    assert (op_flops(compare), op_bytes(compare)) == (6, 24 + 24 + 6)
    select = make_op("stablehlo.select", [T([6], "i1"), T([6]), T([6])], [T([6])])
    assert (op_flops(select), op_bytes(select)) == (6, 6 + 24 + 24 + 24)
    convert = make_op("stablehlo.convert", [T([8], "f32")], [T([8], "f16")])
    assert (op_flops(convert), op_bytes(convert)) == (8, 32 + 16)
    assert op_work(convert).flops[0][1] == "f32"
    clamp = make_op("stablehlo.clamp", [T([]), T([5]), T([])], [T([5])])
    assert (op_flops(clamp), op_bytes(clamp)) == (5, 4 + 20 + 4 + 20)


# ------------------------------------------------------------------------------ free / memory

@pytest.mark.parametrize("name", ["stablehlo.reshape", "mhlo.bitcast", "stablehlo.bitcast_convert",
                                  "stablehlo.get_tuple_element", "stablehlo.tuple",
                                  "stablehlo.constant", "stablehlo.optimization_barrier",
                                  "func.return"])
def test_views_and_bookkeeping_are_free(name: str) -> None:
    op = make_op(name, [T([64, 64])], [T([4096])])
    w = op_work(op)
    assert (w.total_flops, w.bytes, w.family) == (0, 0, "free")


@pytest.mark.parametrize("name", ["stablehlo.broadcast_in_dim", "stablehlo.transpose",
                                  "stablehlo.reverse", "stablehlo.pad", "mhlo.copy"])
def test_data_movement_reads_operands_writes_results(name: str) -> None:
    op = make_op(name, [T([10])], [T([5, 10])])
    assert (op_flops(op), op_bytes(op), op_family(op)) == (0, 40 + 200, "memory")


def test_concatenate_and_iota() -> None:
    concat = make_op("stablehlo.concatenate", [T([3, 4]), T([5, 4])], [T([8, 4])])
    assert op_bytes(concat) == 48 + 80 + 128
    iota = make_op("stablehlo.iota", [], [T([256], "i32")])
    assert op_bytes(iota) == 1024


def test_slices_read_only_what_they_keep() -> None:
    static = make_op("stablehlo.slice", [T([100])], [T([10])])
    assert op_bytes(static) == 80
    dynamic = make_op("stablehlo.dynamic_slice", [T([100]), T([], "i32")], [T([10])])
    assert op_bytes(dynamic) == 80 + 4


def test_dynamic_update_slice_is_in_place() -> None:
    op = make_op("stablehlo.dynamic_update_slice", [T([100]), T([10]), T([], "i32")], [T([100])])
    assert op_bytes(op) == 2 * 40 + 4  # not the 100-element operand


def test_gather_and_scatter() -> None:
    gather = make_op("stablehlo.gather", [T([100, 8]), T([5, 1], "i32")], [T([5, 8])])
    assert (op_flops(gather), op_bytes(gather)) == (0, 2 * 160 + 20)
    scatter = make_op("stablehlo.scatter", [T([100, 8]), T([5, 1], "i32"), T([5, 8])],
                      [T([100, 8])], regions=(scalar_region("stablehlo.add"),))
    # indices + updates read + updated elements read and written; one add per update element
    assert (op_flops(scatter), op_bytes(scatter)) == (40, 20 + 3 * 160)


# ------------------------------------------------------------------------------ reductions

def test_reduce_counts_input_elements_times_reducer() -> None:
    op = make_op("stablehlo.reduce", [T([4, 8]), T([])], [T([4])], {"dimensions": (1,)},
                 regions=(scalar_region("stablehlo.add"),))
    assert op_flops(op) == 32
    assert op_bytes(op) == 128 + 4 + 16


def test_variadic_reduce_charges_its_whole_reducer() -> None:
    # argmax-like reducer: compare + 2 selects per application
    op = make_op("stablehlo.reduce", [T([4, 8]), T([4, 8], "i32"), T([]), T([], "i32")],
                 [T([4]), T([4], "i32")], {"dimensions": (1,)},
                 regions=(scalar_region("stablehlo.compare", "stablehlo.select",
                                        "stablehlo.select"),))
    assert op_flops(op) == 32 * 3


def test_reduce_window_counts_window_times_outputs() -> None:
    op = make_op("stablehlo.reduce_window", [T([1, 4, 4, 1]), T([])], [T([1, 2, 2, 1])],
                 {"window_dimensions": (1, 2, 2, 1), "window_strides": (1, 2, 2, 1)},
                 regions=(scalar_region("stablehlo.maximum"),))
    assert op_flops(op) == 4 * 4


def test_select_and_scatter() -> None:
    op = make_op("stablehlo.select_and_scatter", [T([1, 4, 4, 1]), T([1, 2, 2, 1]), T([])],
                 [T([1, 4, 4, 1])], {"window_dimensions": (1, 2, 2, 1)},
                 regions=(scalar_region("stablehlo.compare", result="i1"),
                          scalar_region("stablehlo.add")))
    assert op_flops(op) == 4 * (4 + 1)  # per source element: 4 selects + 1 scatter add
    assert op_bytes(op) == 64 + 16 + 4 + 64


def test_sort_is_n_log_n_comparisons() -> None:
    op = make_op("stablehlo.sort", [T([4, 16])], [T([4, 16])], {"sort_dimension": 1},
                 regions=(scalar_region("stablehlo.compare", result="i1"),))
    assert op_flops(op) == 64 * 4


# ------------------------------------------------------------------------------ tensor ops

def test_dot_general_with_batch_dims() -> None:
    numbers = {"lhs_batching_dimensions": [0], "rhs_batching_dimensions": [0],
               "lhs_contracting_dimensions": [2], "rhs_contracting_dimensions": [1]}
    op = make_op("stablehlo.dot_general", [T([3, 4, 5], "bf16"), T([3, 5, 6], "bf16")],
                 [T([3, 4, 6], "f32")], {"dot_dimension_numbers": numbers})
    w = op_work(op)
    assert w.flops == ((TENSOR, "bf16", 2 * 3 * 4 * 6 * 5),)
    assert w.bytes == 2 * 60 + 2 * 90 + 4 * 72


def test_dot_general_contracting_several_dims() -> None:
    numbers = {"lhs_batching_dimensions": [], "rhs_batching_dimensions": [],
               "lhs_contracting_dimensions": [1, 2], "rhs_contracting_dimensions": [0, 1]}
    op = make_op("stablehlo.dot_general", [T([7, 2, 3]), T([2, 3, 5])], [T([7, 5])],
                 {"dot_dimension_numbers": numbers})
    assert op_flops(op) == 2 * 7 * 5 * 6


def test_plain_dot() -> None:
    op = make_op("stablehlo.dot", [T([4, 5]), T([5, 6])], [T([4, 6])])
    assert op_flops(op) == 2 * 4 * 6 * 5


def test_nchw_convolution() -> None:
    op = make_op("stablehlo.convolution", [T([2, 3, 8, 8]), T([4, 3, 3, 3])], [T([2, 4, 6, 6])],
                 {"dimension_numbers": conv_numbers("NCHW", "OIHW", "NCHW"),
                  "feature_group_count": 1, "batch_group_count": 1})
    w = op_work(op)
    # an f32 contraction at default precision may run in reduced precision (TF32 on CUDA)
    assert w.flops == ((TENSOR, REDUCIBLE_F32, 2 * (2 * 4 * 6 * 6) * 3 * 9),)
    assert w.bytes == 4 * (384 + 108 + 288)


def test_nhwc_convolution_matches_the_same_nchw_one() -> None:
    nhwc = make_op("stablehlo.convolution", [T([2, 8, 8, 3]), T([3, 3, 3, 4])], [T([2, 6, 6, 4])],
                   {"dimension_numbers": conv_numbers("NHWC", "HWIO", "NHWC")})
    assert op_flops(nhwc) == 2 * (2 * 4 * 6 * 6) * 3 * 9


def test_padded_convolution_skips_taps_on_padding() -> None:
    op = make_op("stablehlo.convolution", [T([2, 3, 8, 8]), T([4, 3, 3, 3])], [T([2, 4, 8, 8])],
                 {"dimension_numbers": conv_numbers("NCHW", "OIHW", "NCHW"),
                  "padding": ((1, 1), (1, 1))})
    taps_per_dim = 8 * 3 - 2  # the first and last output rows each lose one tap to padding
    assert op_flops(op) == 2 * (2 * 4) * 3 * taps_per_dim ** 2


def test_transposed_convolution_skips_lhs_dilation_holes() -> None:
    # input gradient of a stride-2 3x3 conv on 4x4 -> 2x2: costs what the forward conv costs
    forward = make_op("stablehlo.convolution", [T([1, 4, 4, 1]), T([3, 3, 1, 1])],
                      [T([1, 2, 2, 1])],
                      {"dimension_numbers": conv_numbers("NHWC", "HWIO", "NHWC"),
                       "window_strides": (2, 2), "padding": ((1, 1), (1, 1))})
    backward = make_op("stablehlo.convolution", [T([1, 2, 2, 1]), T([3, 3, 1, 1])],
                       [T([1, 4, 4, 1])],
                       {"dimension_numbers": conv_numbers("NHWC", "HWIO", "NHWC"),
                        "lhs_dilation": (2, 2), "padding": ((1, 2), (1, 2))})
    # per spatial dim: outputs 0 and 1 see 2 and 3 real input rows (5 taps in all)
    assert op_flops(backward) == op_flops(forward) == 2 * 5 * 5


def test_grouped_convolution() -> None:
    # 8 input features in 4 groups: each output feature reads 2 input features
    op = make_op("stablehlo.convolution", [T([1, 5, 5, 8]), T([3, 3, 2, 8])], [T([1, 3, 3, 8])],
                 {"dimension_numbers": conv_numbers("NHWC", "HWIO", "NHWC"),
                  "feature_group_count": 4})
    assert op_flops(op) == 2 * (1 * 3 * 3 * 8) * 9 * 2


def test_batch_group_convolution() -> None:
    # batch 4 in 2 groups -> output batch 2; each of the 6 output features reads one batch group
    op = make_op("stablehlo.convolution", [T([4, 5, 5, 2]), T([3, 3, 2, 6])], [T([2, 3, 3, 6])],
                 {"dimension_numbers": conv_numbers("NHWC", "HWIO", "NHWC"),
                  "batch_group_count": 2})
    assert op_flops(op) == 2 * (2 * 3 * 3 * 6) * 2 * 9


def test_weight_gradient_convolution_layout() -> None:
    # ResNet-50's weight-gradient form: [f,0,1,b]x[i,0,1,o]->[0,1,b,f] (batch contracted)
    numbers = {"input_batch_dimension": 3, "input_feature_dimension": 0,
               "input_spatial_dimensions": [1, 2], "kernel_input_feature_dimension": 0,
               "kernel_output_feature_dimension": 3, "kernel_spatial_dimensions": [1, 2],
               "output_batch_dimension": 2, "output_feature_dimension": 3,
               "output_spatial_dimensions": [0, 1]}
    op = make_op("stablehlo.convolution", [T([256, 7, 7, 512], "f16"),
                                           T([256, 7, 7, 2048], "f16")],
                 [T([1, 1, 512, 2048], "f16")], {"dimension_numbers": numbers})
    assert op_flops(op) == 2 * 512 * 2048 * 256 * 49  # = the forward 1x1 conv's FLOPs


# ------------------------------------------------------------------------------ regions

def test_fusion_is_one_kernel() -> None:
    x, y = next(_ids), next(_ids)
    mul = make_op("stablehlo.multiply", [T([10]), T([10])], [T([10])], operand_ids=(x, y))
    add = make_op("stablehlo.add", [T([10]), T([10])], [T([10])],
                  operand_ids=(mul.results[0], y))
    fusion = make_op("mhlo.fusion", [T([10]), T([10])], [T([10])], {"fusion_kind": "kLoop"},
                     regions=(Region((x, y), (T([10]), T([10])), (mul, add)),))
    w = op_work(fusion)
    assert (w.total_flops, w.bytes) == (20, 3 * 40)  # internal value never reaches memory


def test_while_multiplies_body_by_trip_count() -> None:
    add = make_op("stablehlo.add", [T([10]), T([10])], [T([10])])
    cond = body(make_op("stablehlo.compare", [T([], "i32"), T([], "i32")], [T([], "i1")]))
    loop = make_op("stablehlo.while", [T([10])], [T([10])], {"trip_count": 5},
                   regions=(cond, body(add)))
    w = op_work(loop)
    assert w.total_flops == 5 * (10 + 1)
    assert w.bytes == 5 * (120 + 9)
    assert w.notes == ()


def test_while_without_trip_count_counts_once_and_says_so() -> None:
    add = make_op("stablehlo.add", [T([10]), T([10])], [T([10])])
    loop = make_op("stablehlo.while", [T([10])], [T([10])], regions=(body(), body(add)))
    w = op_work(loop)
    assert w.total_flops == 10
    assert any("trip count unknown" in n for n in w.notes)


def test_case_takes_costliest_branch() -> None:
    cheap = body(make_op("stablehlo.add", [T([10]), T([10])], [T([10])]))
    dear = body(make_op("stablehlo.exponential", [T([100])], [T([100])]),
                make_op("stablehlo.multiply", [T([100]), T([100])], [T([100])]))
    case = make_op("stablehlo.case", [T([], "i32")], [T([10])], regions=(cheap, dear))
    assert (op_flops(case), op_bytes(case)) == (200, 800 + 1200)


def test_call_costs_its_callee() -> None:
    callee = body(make_op("stablehlo.add", [T([10]), T([10])], [T([10])]))
    call = make_op("func.call", [T([10]), T([10])], [T([10])], {"callee": "f"},
                   regions=(callee,))
    assert (op_flops(call), op_bytes(call)) == (10, 120)


def test_nested_unknown_op_is_noted() -> None:
    callee = body(make_op("foo.mystery", [T([10])], [T([10])]))
    call = make_op("func.call", [T([10])], [T([10])], regions=(callee,))
    w = op_work(call)
    assert not w.fallback and w.bytes == 80
    unknown = op_work(callee.ops[0])
    assert unknown.fallback and unknown.family == "unknown"


# ------------------------------------------------------------------------------ others

def test_unknown_op_gets_memory_bound_fallback() -> None:
    op = make_op("foo.bar", [T([10]), T([5])], [T([3])])
    w = op_work(op)
    assert (w.fallback, w.total_flops, w.bytes, w.family) == (True, 0, 72, "unknown")


def test_malformed_op_never_crashes() -> None:
    op = make_op("stablehlo.convolution", [T([2, 3])], [T([2])],
                 {"dimension_numbers": {"input_spatial_dimensions": [5]}})
    w = op_work(op)
    assert w.fallback and "malformed" in w.notes[0]


def test_custom_calls_by_target() -> None:
    free = make_op("stablehlo.custom_call", [T([8, 8])], [T([8, 8])],
                   {"call_target_name": "Sharding"})
    assert op_bytes(free) == 0
    chol = make_op("stablehlo.custom_call", [T([2, 4, 4])], [T([2, 4, 4])],
                   {"call_target_name": "lapack_spotrf_ffi"})
    assert op_flops(chol) == pytest.approx(2 * 64 / 3)
    unknown = make_op("stablehlo.custom_call", [T([8])], [T([8])],
                      {"call_target_name": "my_kernel"})
    w = op_work(unknown)
    assert w.fallback and w.bytes == 64 and "my_kernel" in w.notes[0]


def test_linear_algebra_fft_and_rng() -> None:
    chol = make_op("stablehlo.cholesky", [T([3, 6, 6])], [T([3, 6, 6])])
    assert op_flops(chol) == pytest.approx(3 * 216 / 3)
    trsm = make_op("stablehlo.triangular_solve", [T([6, 6]), T([6, 4])], [T([6, 4])])
    assert op_flops(trsm) == 24 * 6
    fft = make_op("stablehlo.fft", [T([4, 64], "complex<f32>")], [T([4, 64], "complex<f32>")],
                  {"fft_length": (64,)})
    assert op_flops(fft) == pytest.approx(5 * 256 * math.log2(64))
    rng = make_op("stablehlo.rng_bit_generator", [T([2], "ui64")],
                  [T([2], "ui64"), T([16], "ui32")])
    assert op_flops(rng) == 18


def test_collective_in_compute_block_is_local_traffic_and_noted() -> None:
    op = make_op("stablehlo.all_reduce", [T([10])], [T([10])])
    w = op_work(op)
    assert (w.family, w.bytes, w.total_flops) == ("collective", 80, 0)
    assert w.notes


def test_every_family_is_documented() -> None:
    ops = [make_op("stablehlo.add", [T([1])], [T([1])]), make_op("foo.x", [], [])]
    assert {op_family(o) for o in ops} <= set(FAMILIES)


def test_lhs_dilation_taps_are_counted_as_a_walk_over_the_outputs_counts_them() -> None:
    from hespas_py.kernels.linalg_costs import _valid_taps

    def walked(in_size: int, kernel: int, out: int, stride: int, pad_lo: int, lhs_dil: int,
               rhs_dil: int) -> int:
        dilated = (in_size - 1) * lhs_dil + 1
        return sum(0 <= o * stride + tap * rhs_dil - pad_lo < dilated
                   and (o * stride + tap * rhs_dil - pad_lo) % lhs_dil == 0
                   for tap in range(kernel) for o in range(out))

    for case in [(2, 3, 4, 1, 1, 2, 1), (7, 3, 14, 1, 1, 2, 1), (5, 4, 9, 2, 3, 3, 2),
                 (56, 7, 112, 1, 3, 2, 1), (6, 5, 11, 3, 0, 4, 3), (3, 2, 10, 2, -1, 6, 1)]:
        assert _valid_taps(*case) == walked(*case), case
