"""hespas calibrate's arithmetic: each microbenchmark's bytes, FLOPs and rates on shapes whose
answer is known, the inversion of the kernel-time model (the estimator then reproduces each
measured case), and how a calibration becomes a preset (measured, carried, other chips)."""

from __future__ import annotations

import math

import pytest

from hespas_py.calibrate import (
    collectives,
    convolutions,
    elementwise,
    gemms,
    launch,
    rows,
    streams,
)
from hespas_py.calibrate.model import (
    Context,
    Measured,
    compute_seconds,
    memory_seconds,
    share,
)
from hespas_py.calibrate.preset import (
    REFERENCE_METHOD,
    carried,
    entries,
    load_base,
    node_document,
)
from hespas_py.calibrate.run import derive, device_preset, parse_kinds
from hespas_py.calibrate.timing import Budget, random_array, slope
from hespas_py.errors import HespasError

GiB = 1 << 30


@pytest.fixture(scope="module")
def h100():
    return load_base("H100_80GB")


def reference(preset):
    """The `Hardware` a calibration measures against (the preset's fused_roofline hardware)."""
    return preset.hardware_for(REFERENCE_METHOD)


def sections(document, tmp_path):
    """Per estimator, the hardware section a calibrated preset's ``node.json`` gives."""
    from hespas_py.hardware.presets import preset_of

    preset = preset_of(document, tmp_path / "calibrated")
    return {m: preset.section(m) for m in preset.estimator_names}


def timed(seconds: float) -> dict:
    return {"timing": {"seconds": seconds, "calls": 1, "rounds": [seconds], "host_bound": False}}


def test_kernel_time_inverts_for_compute_and_memory_bound_kernels():
    # time = launch + c + m - 0.95 min(c, m): c = 3, m = 1 -> 1 + 3 + 1 - 0.95 = 4.05
    assert compute_seconds(4.05, 1.0, 1.0, 0.95) == pytest.approx(3.0)
    assert compute_seconds(1.55, 1.5, 0.0, 0.95) is None  # compute below memory: memory-bound
    assert memory_seconds(4.05, 1.0, 1.0, 0.95) == pytest.approx(3.0)
    assert share(1.3) == 1.0 and share(0.123456) == 0.1235


def test_slope_takes_the_difference_of_medians_or_an_upper_bound_under_noise():
    assert slope([1.0, 1.2, 1.1], [3.1, 3.0, 2.9], 2) == pytest.approx(0.95)
    assert slope([3.0], [2.0], 2) == pytest.approx(0.5)  # long not longer: 2.0 / (2 x 2)


def test_random_inputs_are_neither_constant_nor_mistyped():
    import jax.numpy as jnp

    small = random_array((64, 64), jnp.bfloat16, 3, 0.5)
    large = random_array((5 << 20,), jnp.float32, 3)  # above the host-drawn block: filled on device
    assert small.dtype == jnp.bfloat16 and small.shape == (64, 64)
    assert float(jnp.std(small.astype(jnp.float32))) == pytest.approx(0.5, rel=0.1)
    assert large.shape == (5 << 20,) and float(jnp.min(large)) < -3 < 3 < float(jnp.max(large))


def test_stream_bytes_and_memory_efficiency(h100):
    assert streams.moved_bytes("read_write", GiB) == 2 * GiB
    assert streams.moved_bytes("read", GiB) == streams.moved_bytes("write", GiB) == GiB
    raw = {"cases": [{"mode": "read_write", "array_bytes": GiB, "moved_bytes": 2 * GiB,
                      **timed(1e-3 + 1e-6)},
                     {"mode": "read_write", "array_bytes": 1 << 20, "moved_bytes": 2 << 20,
                      **timed(1e-6 + 1e-6)}]}
    (m,) = streams.derive(raw, Context(reference(h100)))
    # The largest case: 2 GiB in 1 ms after the 1 us launch, over the 3.35 TB/s datasheet.
    assert m.param == "memory_efficiency"
    assert m.value == pytest.approx(2 * GiB / 1e-3 / 3350e9, rel=1e-3)


def test_gemm_flops_bytes_and_the_types_run():
    assert gemms.gemm_flops(2, 3, 4) == 48
    assert gemms.gemm_bytes(2, 3, 4, "bf16", "bf16") == (8 + 12) * 2 + 6 * 2
    assert gemms.gemm_bytes(8, 8, 8, "f8E4M3FN", "bf16") == 128 + 128
    budget = Budget.of("gpu", quick=True)
    with_fp8 = {c["type"] for c in gemms.cases(budget, reference(load_base("H100_80GB")))}
    assert with_fp8 == {"bf16", "f16", "f32_default", "f32_highest", "fp8"}
    assert "fp8" not in {c["type"] for c in gemms.cases(budget, reference(load_base("A100_SXM_80GB")))}


def _gemm_case(kind, dtype, precision, side, seconds, out=None):
    return {"type": kind, "dtype": dtype, "precision": precision, "out_dtype": out or dtype,
            "shape": "square", "mnk": [side] * 3, "flops": gemms.gemm_flops(side, side, side),
            "bytes": gemms.gemm_bytes(side, side, side, dtype, out or dtype), **timed(seconds)}


def _time_at(ctx, side, dtype, efficiency, out=None):
    """The kernel time the model gives a square GEMM at ``efficiency`` of the dtype's peak."""
    flops = gemms.gemm_flops(side, side, side)
    c = flops / (ctx.peak(dtype) * efficiency * ctx.waves((side, side, side)))
    m = ctx.memory_s(gemms.gemm_bytes(side, side, side, "f32" if dtype == "tf32" else dtype,
                                      out or ("f32" if dtype == "tf32" else dtype)))
    return ctx.launch_s + c + m - ctx.overlap * min(c, m)


def test_gemm_shares_round_trip_through_the_model_and_tf32_is_detected(h100):
    ctx = Context(reference(h100))
    raw = {"cases": [_gemm_case("bf16", "bf16", "default", 8192, _time_at(ctx, 8192, "bf16", 0.7)),
                     _gemm_case("bf16", "bf16", "default", 4096, 1.0),  # smaller: not used
                     _gemm_case("f32_default", "f32", "default", 8192,
                                _time_at(ctx, 8192, "tf32", 0.6)),
                     _gemm_case("f32_highest", "f32", "highest", 8192,
                                _time_at(ctx, 8192, "f32", 0.9))]}
    found = {m.param: m.value for m in gemms.derive(raw, ctx)}
    assert found["tensor_efficiency"] == pytest.approx(0.7, rel=1e-3)
    assert found["f32_matmul_as_tf32"] is True
    assert found["tensor_efficiency_by_dtype"] == pytest.approx({"tf32": 0.6, "f32": 0.9}, rel=1e-3)


def test_a_memory_bound_gemm_gives_no_share(h100):
    ctx = Context(reference(h100))
    case = {**_gemm_case("bf16", "bf16", "default", 8192, 1.0), "mnk": [1, 8192, 8192],
            "flops": gemms.gemm_flops(1, 8192, 8192), "bytes": gemms.gemm_bytes(1, 8192, 8192, "bf16", "bf16")}
    case["timing"]["seconds"] = ctx.launch_s + ctx.memory_s(case["bytes"]) * 1.02
    assert gemms.achieved_share(case, ctx, "bf16") is None


def test_convolution_figures_on_resnet_shapes():
    stem = convolutions.conv_figures(256, 224, 3, 64, 7, 2)
    assert convolutions.out_side(224, 7, 2) == 112
    assert stem["flops"] == 2 * 256 * 112 * 112 * 64 * 3 * 49
    mid = convolutions.conv_figures(2, 56, 64, 64, 3, 1)
    assert mid["flops"] == 2 * 2 * 56 * 56 * 64 * 64 * 9
    assert mid["bytes"] == 2 * (2 * 56 * 56 * 64 + 9 * 64 * 64 + 2 * 56 * 56 * 64)
    assert mid["mnk"]["forward"] == [2 * 56 * 56, 64, 64 * 9]
    assert mid["mnk"]["backward_filter"] == [9 * 64, 64, 2 * 56 * 56]
    depthwise = convolutions.conv_figures(2, 56, 144, 144, 3, 1, groups=144)
    assert depthwise["flops"] == 2 * 2 * 56 * 56 * 144 * 9


def _conv_case(key, side, cin, cout, k, stride, seconds_of):
    case = {"key": key, "pass": "forward", "batch": 256, "side": side, "cin": cin, "cout": cout,
            "k": k, "stride": stride, "groups": 1,
            **convolutions.conv_figures(256, side, cin, cout, k, stride)}
    return {**case, **timed(seconds_of(case))}


def test_convolution_channel_shares_round_trip_with_the_stem_padded(h100):
    ctx = Context(reference(h100))
    f16 = ctx.peak("f16") * ctx.tensor_efficiency("f16")

    def at(share_, padding=1.0, pad_s=0.0):
        def seconds(case):
            c = case["flops"] * padding / (f16 * share_ * ctx.waves(tuple(case["mnk"]["forward"])))
            m = ctx.memory_s(case["bytes"])
            return pad_s + ctx.launch_s + c + m - ctx.overlap * min(c, m)
        return seconds

    # The stem's 3 channels are padded to 4 (a third more work) with a pad kernel before it.
    pad_s = ctx.launch_s + ctx.memory_s(2 * 256 * 224 * 224 * (3 + 4))
    raw = {"cases": [_conv_case("3", 224, 3, 64, 7, 2, at(0.25, 4 / 3, pad_s)),
                     _conv_case("64", 56, 64, 64, 3, 1, at(0.5))]}
    (m,) = convolutions.derive(raw, ctx)
    assert m.param == "conv_channel_efficiency"
    assert m.value == pytest.approx({"3": 0.25, "64": 0.5}, rel=1e-3)


def test_row_kernel_tiles_and_excess_per_wave():
    assert rows.tiles(32, 4096) == 32 * 4096 // 4  # [4, 1, 4096] tiles: 4 heads of one row
    assert rows.tiles(12, 4096) == 12 * 4096 // 4
    assert rows.tiles(9, 4096) is None  # 9 heads: the tile is filled with query rows
    stream = {"min_bytes": 2_000, **timed(2.0)}
    case = {"min_bytes": 3_000, "tiles": 265, **timed(3.0 + 6 * 0.5)}
    # 3 s of stream for its bytes; the rest over ceil(265 / 132) = 3 waves
    assert rows.excess_per_wave(case, stream, 132) == pytest.approx(1.0)


def test_row_tile_latency_per_class(h100):
    heads, seq = 32, 4096
    tiles = rows.tiles(heads, seq)
    waves = math.ceil(tiles / 132)
    tile = heads * seq * seq * 2
    base = {"heads": heads, "seq": seq, "tiles": tiles}
    raw = {"cases": [{**base, "case": "stream", "min_bytes": 2 * tile, **timed(1e-3)},
                     {**base, "case": "softmax", "min_bytes": 2 * tile, **timed(1e-3 + waves * 4e-6)},
                     {**base, "case": "row_sum", "min_bytes": tile, **timed(0.5e-3 + waves * 1e-6)}]}
    (m,) = rows.derive(raw, Context(reference(h100)))
    assert m.per_chip and m.value == pytest.approx({"softmax": 4e-6, "row_sum": 1e-6}, rel=1e-3)


def test_launch_and_dispatch_lines():
    assert launch.fit_line([0, 1, 2], [1, 3, 5]) == pytest.approx((1.0, 2.0))
    kernel, fixed, per_buffer = 2e-6, 50e-6, 3e-6
    raw = {"chains": [{"case": "elementwise_1k_f32", "variant": "default", "per_kernel_s": kernel}],
           "dispatch": [{"inputs": k, "outputs": k, "call_s": fixed + 2 * k * per_buffer + k * kernel}
                        for k in (1, 32, 128)]}
    found = {m.param: m for m in launch.derive(raw, None)}
    assert found["launch_overhead_s"].value == pytest.approx(kernel)
    assert found["dispatch_overhead_s"].value == pytest.approx(fixed, rel=1e-3)
    assert found["dispatch_per_buffer_s"].value == pytest.approx(per_buffer, rel=1e-3)
    assert all(m.per_chip for m in found.values())
    assert found["dispatch_overhead_s"].source_key == "dispatch_source"


def test_elementwise_bytes_cycles_and_vector_efficiency(h100):
    ctx = Context(reference(h100))  # the sm_90 op profile: exp 79, negate 3 (default) cycles
    assert elementwise.moved_bytes("exponential", 10) == 80
    assert elementwise.moved_bytes("multiply", 10) == 120
    case = {"op": "exponential", "helper": "negate", "elements": 1 << 26, "steps": 16,
            "bytes": elementwise.moved_bytes("exponential", 1 << 26)}
    assert elementwise.model_cycles(case, ctx) == 79 + 3
    compute = 16 * (1 << 26) * 82 / ctx.reference.vector_flops / 0.5  # half the profile's rate
    memory = ctx.memory_s(case["bytes"])
    case.update(timed(ctx.launch_s + compute + memory - ctx.overlap * memory))
    (m,) = elementwise.derive({"cases": [case]}, ctx)
    assert m.param == "vector_efficiency" and m.value == pytest.approx(0.5, rel=1e-3)
    (o,) = elementwise.observations({"cases": [case]}, ctx)
    assert o.measured == pytest.approx(2 * 82 - 3) and o.modelled == 79 and o.unit == "cycles"


def test_collective_bus_bandwidth_latency_and_network():
    assert collectives.bus_factor("all_reduce", 8) == pytest.approx(1.75)
    assert collectives.bus_factor("all_gather", 4) == pytest.approx(0.75)
    bandwidth, latency = 400e9, 20e-6
    raw = {"devices": 8, "cases": [
        {"kind": kind, "bytes": size, **timed(latency + size * collectives.bus_factor(kind, 8)
                                              / bandwidth)}
        for kind in ("all_reduce", "all_gather") for size in (1 << 20, 1 << 26, 1 << 30)]}
    fit = collectives.fit(raw, "all_gather")
    assert fit["bus_bandwidth"] == pytest.approx(bandwidth) and fit["latency_s"] == pytest.approx(latency)
    net = collectives.network(raw)
    assert net["npus"] == 8 and net["bandwidth_gb_s"] == pytest.approx(bandwidth / GiB)
    assert net["latency_ns"] == pytest.approx(latency * 1e9 / (4 * 7))  # 2 (n-1) messages, 2 hops
    assert collectives.fit(raw, "all_to_all") is None


def test_calibrated_params_reproduce_the_measured_gemm_and_stream_in_the_estimator(h100, tmp_path):
    """The estimator's own kernel time with the calibrated preset gives back each measured time."""
    import jax
    import jax.numpy as jnp

    from hespas_py.estimators.fused_roofline import FusedRoofline
    from hespas_py.hardware.presets import preset_of
    from hespas_py.kernels import plan_kernels
    from hespas_py.mlir.reader import load_module
    from hespas_py.split.program import program_ops

    side, gemm_s, n, stream_s = 4096, 2.2e-4, 1 << 28, 4.0e-4
    raw = {"stream": {"cases": [{"mode": "read_write", "array_bytes": 2 * n,
                                 "moved_bytes": 4 * n, **timed(stream_s)}]},
           "gemm": {"cases": [_gemm_case("bf16", "bf16", "default", side, gemm_s)]}}
    measured = derive(raw, reference(h100)).measured
    document = node_document(h100, entries(measured, True, "test"), "test run")
    estimator = FusedRoofline(preset_of(document, tmp_path).hardware_for("fused_roofline"))

    def estimated(fn, *shapes):
        path = tmp_path / f"{fn.__name__}.mlir"
        path.write_text(jax.jit(fn).lower(*shapes).as_text())
        ops, returned = program_ops(load_module(path))
        return estimator.estimate_kernels(plan_kernels(ops, set(returned))).time_s

    def dot(a, b):
        return a @ b

    def stream(x):
        return x * 0.5 + 1

    matrix = jax.ShapeDtypeStruct((side, side), jnp.bfloat16)
    assert estimated(dot, matrix, matrix) == pytest.approx(gemm_s, rel=0.01)
    # The stream's arithmetic (ignored by the inversion) hides behind its memory time but 5%.
    assert estimated(stream, jax.ShapeDtypeStruct((n,), jnp.bfloat16)) == pytest.approx(
        stream_s, rel=0.01)


def test_a_preset_marks_measured_and_carried_values(h100, tmp_path):
    measured = [Measured("memory_efficiency", 0.7, "stream"), Measured("launch_overhead_s", 2e-6,
                                                                       "chain", per_chip=True)]
    configs = sections(node_document(h100, entries(measured, True, "GPU"), "on GPU"), tmp_path)
    hw = configs["fused_roofline"]
    assert hw["memory_efficiency"] == 0.7 and hw["launch_overhead_s"] == 2e-6
    assert hw["memory_efficiency_source"] == "on GPU, measured: stream"
    assert hw["tensor_efficiency_source"].startswith("carried from H100_80GB (not measured): ")
    assert "memory_efficiency" not in configs["roofline"]
    assert "peak_flops" in carried(h100, entries(measured, True, "GPU"))


def test_another_chip_gets_the_efficiencies_not_the_latencies(h100, tmp_path):
    b200 = load_base("B200_180GB")
    measured = [Measured("memory_efficiency", 0.7, "stream"),
                Measured("launch_overhead_s", 2e-6, "chain", per_chip=True),
                Measured("conv_channel_efficiency", {"64": 0.5}, "convs")]
    chosen = entries(measured, False, "NVIDIA H100 80GB HBM3 against H100_80GB")
    hw = sections(node_document(b200, chosen, "on H100"), tmp_path)["fused_roofline"]
    assert hw["memory_efficiency"] == 0.7 and hw["memory_bandwidth"] == 7700e9
    own = b200.section("fused_roofline")
    assert hw["launch_overhead_s"] == own["launch_overhead_s"]
    assert hw["conv_channel_efficiency"] == {**own.get("conv_channel_efficiency", {}), "64": 0.5}
    assert "efficiency from NVIDIA H100 80GB HBM3" in hw["memory_efficiency_source"]
    assert [e.applied for e in chosen] == [True, False, True]


def test_kinds_and_device_presets():
    assert parse_kinds(None)[0] == "launch" and parse_kinds("gemm,stream") == ["stream", "gemm"]
    with pytest.raises(HespasError, match="unknown calibration kind 'gemms'"):
        parse_kinds("gemms")
    assert device_preset("NVIDIA H100 80GB HBM3") == "H100_80GB"
    assert device_preset("NVIDIA H200") == "H200_141GB"
    assert device_preset("TPU v5 lite") == "TPUv5e" and device_preset("TPU v5p") == "TPUv5p"
    assert device_preset("cpu") is None
