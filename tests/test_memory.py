"""Per-device peak memory (`hespas_py.memory`): the liveness rules on small modules, the capacity
check, and the figures in ``hespas gen``'s outputs."""

from __future__ import annotations

import json

import pytest

from hespas_py.errors import HespasError
from hespas_py.hardware import hardware_from_config, load_hardware
from hespas_py.memory import analyze, peak_of_file
from hespas_py.split.combine import Thresholds
from snippets import MB, T, dot, select_and_scatter, small_module


def test_fused_chain_has_no_temporaries(tmp_path):
    module = small_module(tmp_path, f"""    %0 = stablehlo.add %a, %b : {T}
    %1 = stablehlo.exponential %0 : {T}
    %2 = stablehlo.multiply %1, %a : {T}
    return %2 : {T}""")
    report = analyze(module)
    assert (report.arguments_bytes, report.outputs_bytes, report.temporaries_bytes) == (
        2 * MB, MB, 0)
    assert report.peak_bytes == 3 * MB


def test_value_between_kernels_is_a_temporary_until_its_last_reader(tmp_path):
    # %0 feeds a dot (a kernel boundary) and is read again at the end: live across %1, %2.
    module = small_module(tmp_path, "\n".join([
        dot("%0", "%a", "%b"), dot("%1", "%0", "%b"), dot("%2", "%1", "%a"),
        f"    %3 = stablehlo.add %2, %0 : {T}", f"    return %3 : {T}"]))
    report = analyze(module)
    # The third dot takes the add as its epilogue and writes the output; while it runs %0
    # (saved for it) and %1 (its operand) are live, %2 never exists.
    assert report.temporaries_bytes == 2 * MB
    assert {b.op for b in report.top if b.kind == "temporary"} == {"stablehlo.dot_general"}


def test_elementwise_kernel_reuses_a_dying_operand(tmp_path):
    # %1 = exp(%0) writes over %0's buffer (its last reader), so only one buffer exists.
    module = small_module(tmp_path, "\n".join([
        dot("%0", "%a", "%b"), f"    %1 = stablehlo.exponential %0 : {T}",
        dot("%2", "%1", "%b"), f"    return %2 : {T}"]))
    assert analyze(module).temporaries_bytes == MB


def test_temporaries_borrow_output_buffers_before_the_output_is_written(tmp_path):
    # Two results: %0 dies at the second dot, before either output is written; it fits in an
    # output's buffer, so XLA places it there and the temporary block stays empty.
    module = small_module(tmp_path, "\n".join([
        dot("%0", "%a", "%b"), dot("%1", "%0", "%b"),
        f"    %2 = stablehlo.negate %a : {T}", f"    return %1, %2 : {T}, {T}"]),
        results=f"{T}, {T}")
    report = analyze(module)
    assert report.temporaries_bytes == 0
    assert report.outputs_bytes == 2 * MB + 2 * 8  # and the result tuple's pointer table


def test_a_donated_argument_lends_its_buffer_to_no_temporary(tmp_path):
    # As above, but both outputs take donated arguments' buffers, which hold the arguments until
    # the outputs are written: XLA assigns no temporary to an entry parameter's allocation.
    module = small_module(tmp_path, "\n".join([
        dot("%0", "%a", "%b"), dot("%1", "%0", "%b"),
        f"    %2 = stablehlo.negate %a : {T}", f"    return %1, %2 : {T}, {T}"]),
        results=f"{T}, {T}", args=f"%a: {T} {{jax.buffer_donor = true}}, "
                                  f"%b: {T} {{jax.buffer_donor = true}}")
    report = analyze(module)
    assert report.temporaries_bytes == MB
    assert report.alias_bytes == 2 * MB


def test_donated_arguments_are_counted_once(tmp_path):
    module = small_module(tmp_path, f"""    %0 = stablehlo.add %a, %b : {T}
    return %0 : {T}""", args=f"%a: {T} {{tf.aliasing_output = 0 : i32}}, %b: {T}")
    report = analyze(module)
    assert report.alias_bytes == MB
    assert report.peak_bytes == 2 * MB
    donor = small_module(tmp_path, f"""    %0 = stablehlo.add %a, %b : {T}
    return %0 : {T}""", args=f"%a: {T}, %b: {T} {{jax.buffer_donor = true}}")
    assert analyze(donor).alias_bytes == MB
    aliased = small_module(tmp_path, f"""    %0 = stablehlo.add %a, %b : {T}
    return %0 : {T}""", attrs='attributes {mhlo.input_output_alias = [{alias = {kind = '
                         '"may_alias", parameter_index = array<i64>, parameter_number = 1 : i64},'
                         ' output_index = array<i64>}]}')
    assert analyze(aliased).alias_bytes == MB


def test_loop_body_temporaries_add_to_the_carried_state(tmp_path):
    # The body keeps one dot result (1 MiB) besides its state; the state (a dying operand)
    # is updated in place.
    module = small_module(tmp_path, "\n".join([
        dot("%x", "%a", "%b"),
        "    %c0 = stablehlo.constant dense<0> : tensor<i32>",
        "    %c3 = stablehlo.constant dense<3> : tensor<i32>",
        f"    %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, {T}",
        "     cond {",
        "      %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>",
        "      stablehlo.return %p : tensor<i1>",
        "    } do {",
        "      %one = stablehlo.constant dense<1> : tensor<i32>",
        "      %n = stablehlo.add %i, %one : tensor<i32>",
        dot("      %d", "%v", "%b").replace("    ", "", 1),
        dot("      %e", "%d", "%b").replace("    ", "", 1),
        f"      stablehlo.return %n, %e : tensor<i32>, {T}",
        "    }",
        dot("%y", "%r#1", "%a"),
        f"    return %y : {T}"]))
    report = analyze(module)
    assert report.temporaries_bytes == 2 * MB  # the state + the body's %d


def test_case_takes_the_larger_branch(tmp_path):
    module = small_module(tmp_path, "\n".join([
        "    %k = stablehlo.constant dense<0> : tensor<i32>",
        '    %r = "stablehlo.case"(%k) ({',
        f"      %s = stablehlo.negate %a : {T}",
        f"      stablehlo.return %s : {T}",
        "    }, {",
        dot("      %d", "%a", "%b").replace("    ", "", 1),
        dot("      %e", "%d", "%b").replace("    ", "", 1),
        f"      stablehlo.return %e : {T}",
        f"    }}) : (tensor<i32>) -> {T}",
        f"    return %r : {T}"]))
    # The second branch holds %d while it computes %e; the first holds nothing.
    assert analyze(module).temporaries_bytes == MB


def test_select_and_scatter_expansion_counts_its_index_arrays(tmp_path):
    x, y = "tensor<8x16x16x4xf16>", "tensor<8x8x8x4xf16>"
    module = small_module(tmp_path, f"""    %z = stablehlo.constant dense<0.0> : tensor<f16>
{select_and_scatter("%r", "%a", "%b", "%z", x, y)}
    return %r : {x}""", args=f"%a: {x}, %b: {y}", results=x)
    source = 8 * 8 * 8 * 4
    # The selected values (f16) and one s32 index per operand dimension (4), per source element.
    assert analyze(module).temporaries_bytes == source * (2 + 4 * 4)


def test_capacity_from_presets_and_usable_fraction(tmp_path):
    assert load_hardware("H100_80GB").capacity_bytes == 80 << 30
    assert load_hardware("A100_SXM_40GB").capacity_bytes == 40 << 30
    hw = {"peak_flops": 1e12, "memory_bandwidth": 1e12, "hbm_bytes": 1000,
          "hbm_usable_fraction": 0.75}
    config = {"perf_estimator": {"method": "roofline", "hardware": hw}}
    hardware = hardware_from_config(config, "x.json")
    assert hardware.capacity_bytes == 750
    with pytest.raises(HespasError, match="hbm_usable_fraction must be a number > 0 and <= 1"):
        hardware_from_config({"perf_estimator": {"method": "roofline", "hardware": {
            **hw, "hbm_usable_fraction": 1.5}}}, "x.json")


def test_every_preset_states_its_capacity_and_source(repo_dir):
    for path in sorted((repo_dir / "configs" / "nodes").glob("*/*/config.json")):
        hardware = json.loads(path.read_text())["perf_estimator"]["hardware"]
        assert hardware["hbm_bytes"] > 0 and hardware["hbm_bytes_source"], path


def test_report_json_and_fit():
    report = peak_of_file("workloads/mlp_dp_4dev.mlir")
    doc = report.as_json(capacity_bytes=report.peak_bytes)
    assert list(doc) == ["peak_bytes", "arguments_bytes", "outputs_bytes", "alias_bytes",
                         "temporaries_bytes", "capacity_bytes", "fits", "top"]
    assert doc["fits"] is True
    assert report.as_json(report.peak_bytes - 1)["fits"] is False
    assert report.as_json(None)["fits"] is None
    assert set(doc["top"][0]) == {"op", "shape", "dtype", "bytes", "kind"}
    assert [b["bytes"] for b in doc["top"]] == sorted((b["bytes"] for b in doc["top"]),
                                                      reverse=True)


def _psum(out: str, value: str, groups: str) -> list[str]:
    return [f'    {out} = "stablehlo.all_reduce"({value}) <{{replica_groups = {groups}}}> ({{',
            "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):",
            "      %s = stablehlo.add %p, %q : tensor<f32>",
            "      stablehlo.return %s : tensor<f32>",
            f"    }}) : ({T}) -> {T}"]


def test_combined_all_reduces_hold_every_gradient(tmp_path):
    # Two gradients, each all-reduced, then each update written as an output. Uncombined, one
    # gradient is reduced and consumed before the other exists (gradients and the first
    # result borrow the outputs' buffers, the second result cannot: its reader writes the last
    # output); XLA's combiner makes one all-reduce of both, after the second gradient: both
    # results are then live together and neither finds a free output buffer.
    groups = "dense<[[0, 1]]> : tensor<1x2xi64>"
    body = [dot("%g0", "%a", "%b"), *_psum("%r0", "%g0", groups),
            f"    %u0 = stablehlo.subtract %a, %r0 : {T}",
            dot("%g1", "%u0", "%b"), *_psum("%r1", "%g1", groups),
            f"    %u1 = stablehlo.subtract %b, %r1 : {T}",
            f"    return %u0, %u1 : {T}, {T}"]
    module = small_module(tmp_path, "\n".join(body), results=f"{T}, {T}")
    # %g1 reads %u0, so here the two all-reduces depend on each other and do not combine.
    assert analyze(module).temporaries_bytes == MB
    body[body.index(dot("%g1", "%u0", "%b"))] = dot("%g1", "%a", "%a")  # independent gradients: one combined all-reduce
    combined = small_module(tmp_path, "\n".join(body), results=f"{T}, {T}")
    assert analyze(combined).temporaries_bytes == 2 * MB
    assert analyze(combined, combine=Thresholds()).temporaries_bytes == MB


def test_single_device_collectives_are_free(tmp_path):
    module = small_module(tmp_path, "\n".join([
        dot("%g", "%a", "%b"), *_psum("%r", "%g", "dense<0> : tensor<1x1xi64>"),
        dot("%y", "%r", "%b"), f"    return %y : {T}"]))
    assert analyze(module).temporaries_bytes == MB  # %g and %r share one buffer


def test_unknown_memory_backend_is_an_error(tmp_path):
    module = small_module(tmp_path, f"    return %a : {T}")
    with pytest.raises(HespasError, match="memory backend 'tpu'"):
        analyze(module, backend="tpu")


_CONVS = """    %x = stablehlo.convert %a : ({a}) -> {x}
    %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({x}, {w}) -> {y}
    %dw = stablehlo.convolution(%x, %g) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {{stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({x}, {y}) -> {w}
    return %y, %dw : {y}, {w}"""


def test_padded_convolution_input_is_shared_with_its_filter_gradient(tmp_path):
    # A stride-2 3x3 convolution padded (0, 1) and its filter gradient read one 17x17 copy of
    # their input, live from the first to the second; the f16 input read only by them is
    # never written (the pad computes the convert). XLA:CPU pads nothing: it keeps the input.
    a, x = "tensor<8x16x16x4xf32>", "tensor<8x16x16x4xf16>"
    w, y = "tensor<3x3x4x16xf16>", "tensor<8x8x8x16xf16>"
    module = small_module(tmp_path, _CONVS.format(a=a, x=x, w=w, y=y),
                     args=f"%a: {a}, %w: {w}, %g: {y}", results=f"{y}, {w}")
    report = analyze(module)
    assert report.temporaries_bytes == 8 * 17 * 17 * 4 * 2
    assert [(b.op, b.shape) for b in report.top if b.kind == "temporary"] == [
        ("pad", (8, 17, 17, 4))]
    assert analyze(module, backend="cpu").temporaries_bytes != report.temporaries_bytes


def _max_pool_gradient(high: int) -> str:
    """A ReLU, then the gradient of a 2x2 max pooling of it (stride 2), its operand padded at
    the high end by ``high`` and the result sliced back when ``high``, summed (no output buffer
    to borrow)."""
    size = 16 + high
    x, p, s = "tensor<8x16x16x4xf16>", f"tensor<8x{size}x{size}x4xf16>", "tensor<8x8x8x4xf16>"
    padded = (f"""    %m = stablehlo.constant dense<0xFC00> : tensor<f16>
    %p = stablehlo.pad %r, %m, low = [0, 0, 0, 0], high = [0, {high}, {high}, 0], interior = [0, 0, 0, 0] : ({x}, tensor<f16>) -> {p}""" if high else "    %p = stablehlo.negate %r : " + x)
    sliced = (f"    %o = stablehlo.slice %q [0:8, 0:16, 0:16, 0:4] : ({p}) -> {x}" if high
              else f"    %o = stablehlo.negate %q : {x}")
    return f"""    %z = stablehlo.constant dense<0.0> : tensor<f16>
    %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f16>) -> {x}
    %r = stablehlo.maximum %a, %zb : {x}
{padded}
{select_and_scatter("%q", "%p", "%b", "%z", p, s)}
{sliced}
    %n = stablehlo.reduce(%o init: %z) applies stablehlo.add across dimensions = [0, 1, 2, 3] : ({x}, tensor<f16>) -> tensor<f16>
    return %r, %n : {x}, tensor<f16>"""


@pytest.mark.parametrize("high", [0, 1])
def test_max_pool_gradient_init_is_the_relus_zero_buffer(tmp_path, high):
    # HLO CSE merges the expanded gradient's zero init (of the sliced shape, when only a slice
    # from the start reads it) with the ReLU's broadcast zero; the ReLU's kernel writes it,
    # and it lives until the gradient's scatter.
    x, s = "tensor<8x16x16x4xf16>", "tensor<8x8x8x4xf16>"
    module = small_module(tmp_path, _max_pool_gradient(high), args=f"%a: {x}, %b: {s}",
                     results=f"{x}, tensor<f16>")
    zeros = [b for b in analyze(module).top if b.op == "broadcast_in_dim"
             and b.shape == (8, 16, 16, 4) and b.dtype == "f16"]
    assert len(zeros) == 1 and zeros[0].kind == "temporary"


def test_max_pool_gradients_share_one_zero_buffer(tmp_path):
    # Two gradients of poolings of one ReLU scatter into the same (CSE'd) zero: one buffer,
    # live until the second copies it.
    x, s = "tensor<8x16x16x4xf16>", "tensor<8x8x8x4xf16>"
    first, rest = _max_pool_gradient(0).split("    %o = ", 1)
    second = first[first.index('    %q = "stablehlo.select_and_scatter"'):].replace("%q", "%q2")
    body = (first + second + "    %o0 = stablehlo.add %q, %q2 : " + x + "\n    %o = "
            + rest.replace("stablehlo.negate %q", "stablehlo.negate %o0"))
    module = small_module(tmp_path, body, args=f"%a: {x}, %b: {s}", results=f"{x}, tensor<f16>")
    zeros = [b for b in analyze(module).top if b.op == "broadcast_in_dim"]
    assert len(zeros) == 1
