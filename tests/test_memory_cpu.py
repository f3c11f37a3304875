"""The memory analysis as XLA:CPU compiles (`hespas_py.memory.backend`): its breadth-first
schedule, no multi-output fusion, and what changed between jaxlib 0.10's XLA:CPU (16-bit dots in
f32, barriers removed before scheduling) and 0.11's (barriers kept, YNNPACK dot fusions)."""

from __future__ import annotations

import itertools

import pytest

from hespas_py.kernels.scope import Scope
from hespas_py.memory import Buffer, analyze
from hespas_py.memory.backend import XLA_CPU_0_10, XLA_CPU_0_11
from hespas_py.mlir.reader import load_module
from snippets import MB, T, dot, small_module

HALF = "tensor<512x512xbf16>"  # 0.5 MiB


def test_cpu_schedules_breadth_first(tmp_path):
    # %3 reads only arguments: XLA:CPU's breadth-first scheduler runs it first, so it waits in
    # memory beside the chain %0 -> %1 -> %2; in program order it is written just before %4.
    module = small_module(tmp_path, "\n".join([
        dot("%0", "%a", "%b"), dot("%1", "%0", "%b"), dot("%2", "%1", "%b"),
        dot("%3", "%a", "%a"), dot("%4", "%2", "%3"), f"    return %4 : {T}"]))
    assert analyze(module).temporaries_bytes == 2 * MB
    assert analyze(module, backend="cpu").temporaries_bytes == 3 * MB


def test_cpu_runs_sibling_kernels_apart(tmp_path):
    # %p and %q both read %e (siblings). XLA:GPU's multi-output fusion computes them in one
    # kernel, which waits for %q's operand %c1; XLA:CPU has none, so its breadth-first
    # schedule writes %p as soon as %e exists and %p waits beside %e, %c0 and %c1 (4 MiB, not 3).
    f = "tensor<512xf32>"
    module = small_module(tmp_path, "\n".join([
        dot("%e", "%a", "%a"), dot("%c0", "%a", "%b"), dot("%c1", "%c0", "%b"),
        f"    %p = stablehlo.multiply %e, %b : {T}", f"    %s = stablehlo.sine %c1 : {T}",
        f"    %q = stablehlo.add %e, %s : {T}", dot("%d", "%p", "%q"),
        "    %z = stablehlo.constant dense<0.0> : tensor<f32>",
        f"    %y = stablehlo.reduce(%d init: %z) applies stablehlo.add across dimensions = [1]"
        f" : ({T}, tensor<f32>) -> {f}", f"    return %y : {f}"]), results=f)
    assert analyze(module).temporaries_bytes == 3 * MB
    assert analyze(module, backend="cpu").temporaries_bytes == 4 * MB


def test_jaxlib_0_10_cpu_computes_16_bit_dots_in_f32(tmp_path):
    # bf16: %0 (0.5 MiB) is a temporary. XLA:CPU writes it in f32, converts the arguments to
    # f32 (a until the first dot, b until the second) and writes the last dot's result in f32
    # before converting it into the output: 3 f32 buffers live at each dot.
    module = small_module(tmp_path, "\n".join([
        dot("%0", "%a", "%b").replace(T, HALF), dot("%1", "%0", "%b").replace(T, HALF),
        f"    return %1 : {HALF}"]), args=f"%a: {HALF}, %b: {HALF}", results=HALF)
    assert analyze(module).temporaries_bytes == MB // 2
    report = analyze(module, backend=XLA_CPU_0_10)
    assert report.temporaries_bytes == 3 * MB
    assert {(b.dtype, b.bytes) for b in report.top if b.kind == "temporary"} == {("f32", MB)}
    assert analyze(module, backend=XLA_CPU_0_11).temporaries_bytes == MB // 2


def test_jaxlib_0_10_cpu_carries_a_sliced_16_bit_loop_state_in_f32(tmp_path):
    # The body only slices %s (bf16, 2 MiB) and passes it on: XLA:CPU normalizes the slice to
    # f32 by converting all of %s, and hoists that convert out of the loop, so the loop
    # carries a 4 MiB f32 copy; %s's own kernel writes it in f32 directly.
    stack, row = "tensor<4x512x512xbf16>", "tensor<512x512xbf16>"
    module = small_module(tmp_path, "\n".join([
        f"    %s = stablehlo.exponential %a : {stack}",
        "    %c0 = stablehlo.constant dense<0> : tensor<i32>",
        "    %c4 = stablehlo.constant dense<4> : tensor<i32>",
        f"    %r:3 = stablehlo.while(%i = %c0, %v = %b, %t = %s) : tensor<i32>, {row}, {stack}",
        "     cond {",
        "      %p = stablehlo.compare LT, %i, %c4 : (tensor<i32>, tensor<i32>) -> tensor<i1>",
        "      stablehlo.return %p : tensor<i1>",
        "    } do {",
        "      %one = stablehlo.constant dense<1> : tensor<i32>",
        "      %z = stablehlo.constant dense<0> : tensor<i32>",
        "      %n = stablehlo.add %i, %one : tensor<i32>",
        f"      %l = stablehlo.dynamic_slice %t, %i, %z, %z, sizes = [1, 512, 512] : "
        f"({stack}, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x512x512xbf16>",
        f"      %m = stablehlo.reshape %l : (tensor<1x512x512xbf16>) -> {row}",
        f"      %w = stablehlo.add %v, %m : {row}",
        f"      stablehlo.return %n, %w, %t : tensor<i32>, {row}, {stack}",
        "    }",
        f"    return %r#1 : {row}"]), args=f"%a: {stack}, %b: {row}", results=row)
    assert analyze(module).temporaries_bytes == 2 * MB
    assert analyze(module, backend=XLA_CPU_0_11).temporaries_bytes == 2 * MB
    report = analyze(module, backend=XLA_CPU_0_10)
    assert report.temporaries_bytes == 4 * MB
    assert report.top[0] == Buffer("convert", (4, 512, 512), "f32", 4 * MB, "temporary")


def _barrier_chain(tmp_path):
    # %3 recomputes from %a, read through a barrier that also holds %2 (a layer's gradient).
    return small_module(tmp_path, "\n".join([
        dot("%0", "%a", "%b"), dot("%1", "%0", "%b"), dot("%2", "%1", "%b"),
        f"    %r:2 = stablehlo.optimization_barrier %a, %2 : {T}, {T}",
        dot("%3", "%r#0", "%r#0"), dot("%4", "%r#1", "%3"), f"    return %4 : {T}"]))


def test_jaxlib_0_11_cpu_keeps_barriers_through_scheduling(tmp_path):
    # jaxlib 0.10's XLA:CPU drops the barrier first, so %3 (it reads %a) runs at once and waits
    # beside the chain %0 -> %1 -> %2; from 0.11 it waits for %2, the barrier's other operand.
    module = _barrier_chain(tmp_path)
    assert analyze(module, backend=XLA_CPU_0_10).temporaries_bytes == 3 * MB
    assert analyze(module, backend=XLA_CPU_0_11).temporaries_bytes == 2 * MB


def _temporaries(module, backend="gpu") -> list[str]:
    """The ops writing the temporaries live at ``module``'s peak."""
    return [b.op for b in analyze(module, backend=backend).top if b.kind == "temporary"]


def test_jaxlib_0_11_cpu_fuses_nothing_across_a_barrier(tmp_path):
    # exp(%a) feeds %m through the barrier: without barriers it fuses into %m's kernel, which
    # writes the one temporary; kept, exp is a kernel of its own and %m reuses its buffer.
    module = small_module(tmp_path, "\n".join([
        f"    %e = stablehlo.exponential %a : {T}",
        f"    %r:2 = stablehlo.optimization_barrier %e, %b : {T}, {T}",
        f"    %m = stablehlo.multiply %r#0, %r#1 : {T}", dot("%y", "%m", "%b"),
        f"    return %y : {T}"]))
    assert _temporaries(module, XLA_CPU_0_10) == ["stablehlo.multiply"]
    assert _temporaries(module, XLA_CPU_0_11) == ["stablehlo.exponential"]


def test_jaxlib_0_11_cpu_dot_writes_its_f32_convert(tmp_path):
    # A bf16 dot whose result two kernels read converted to f32 (a row max, and x - max):
    # YNNPACK's dot fusion takes the convert and writes f32 (1 MiB) where jaxlib 0.10's f32 dot
    # writes f32 as well; XLA:GPU writes the bf16 result (0.5 MiB) and converts in each reader.
    row = "tensor<512xf32>"
    module = small_module(tmp_path, "\n".join([
        dot("%d", "%a", "%b").replace(T, HALF),
        f"    %f = stablehlo.convert %d : ({HALF}) -> {T}",
        "    %z = stablehlo.constant dense<0xFF800000> : tensor<f32>",
        f"    %m = stablehlo.reduce(%f init: %z) applies stablehlo.maximum across dimensions = [1]"
        f" : ({T}, tensor<f32>) -> {row}",
        f"    %mb = stablehlo.broadcast_in_dim %m, dims = [0] : ({row}) -> {T}",
        f"    %s = stablehlo.subtract %f, %mb : {T}", f"    return %s : {T}"]),
        args=f"%a: {HALF}, %b: {HALF}")
    ynn = [b for b in analyze(module, backend=XLA_CPU_0_11).top if b.kind == "temporary"]
    assert [(b.op, b.dtype, b.bytes) for b in ynn][0] == ("stablehlo.convert", "f32", MB)
    gpu = [b for b in analyze(module).top if b.kind == "temporary"]
    assert [(b.op, b.dtype, b.bytes) for b in gpu][0] == ("stablehlo.dot_general", "bf16", MB // 2)


def test_jaxlib_0_11_cpu_dot_reads_its_operands_as_stored(tmp_path):
    # Converts feeding a bf16 dot: XLA:GPU's fusion model folds them into the dot's operand
    # reads; YNNPACK's dot reads bf16 as stored, so each convert's result (0.5 MiB) is written.
    module = small_module(tmp_path, "\n".join([
        f"    %h = stablehlo.convert %a : ({T}) -> {HALF}",
        f"    %hb = stablehlo.convert %b : ({T}) -> {HALF}",
        dot("%y", "%h", "%hb").replace(T, HALF), f"    return %y : {HALF}"]), results=HALF)
    assert analyze(module).temporaries_bytes == 0
    assert analyze(module, backend=XLA_CPU_0_11).temporaries_bytes == MB


@pytest.mark.parametrize("unary, kept", [("log", True), ("sine", False)])
def test_cpu_keeps_an_expensive_op_out_of_a_kernel_that_broadcasts_it(tmp_path, unary, kept):
    # log(sum) broadcast over each row: XLA:CPU's instruction fusion does not fuse the log into
    # the kernel of %y, which would compute it 512 times per element; it is written beside the
    # sum, which %y reads too. A sine is cheap there (``IsExpensive``): it fuses.
    row = "tensor<512xf32>"
    module = small_module(tmp_path, "\n".join([
        "    %z = stablehlo.constant dense<0.0> : tensor<f32>",
        f"    %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1]"
        f" : ({T}, tensor<f32>) -> {row}",
        f"    %l = stablehlo.{unary} %s : {row}",
        f"    %lb = stablehlo.broadcast_in_dim %l, dims = [0] : ({row}) -> {T}",
        f"    %sb = stablehlo.broadcast_in_dim %s, dims = [0] : ({row}) -> {T}",
        f"    %d = stablehlo.subtract %a, %lb : {T}", f"    %y = stablehlo.multiply %d, %sb : {T}",
        f"    return %y : {T}"]))
    written = sorted(["stablehlo.reduce", *([f"stablehlo.{unary}"] if kept else [])])
    for backend in (XLA_CPU_0_10, XLA_CPU_0_11):
        assert sorted(_temporaries(module, backend)) == written
    assert _temporaries(module) == ["stablehlo.reduce"]


def test_jaxlib_0_11_cpu_widens_f16_dots_and_16_bit_loop_slices_only_on_0_10(tmp_path):
    # jax 0.12's optimized HLO: an f16 dot still runs in f32 (only bf16 dots are YNNPACK's).
    f16 = "tensor<512x512xf16>"
    module = small_module(tmp_path, "\n".join([
        dot("%0", "%a", "%b").replace(T, f16), dot("%1", "%0", "%b").replace(T, f16),
        f"    return %1 : {f16}"]), args=f"%a: {f16}, %b: {f16}", results=f16)
    assert analyze(module, backend=XLA_CPU_0_10).temporaries_bytes == 3 * MB
    assert analyze(module, backend=XLA_CPU_0_11).temporaries_bytes == 3 * MB


def test_barrier_gates_follow_views_and_calls_but_not_the_next_call(tmp_path):
    # @f called on a barrier's result, then on a plain argument: only the first call's exp
    # waits for the barrier; a reshape of the result carries the gate too.
    path = tmp_path / "calls.mlir"
    path.write_text(f"""module @m {{
  func.func private @f(%x: {T}) -> {T} {{
    %e = stablehlo.exponential %x : {T}
    return %e : {T}
  }}
  func.func public @main(%a: {T}, %b: {T}) -> ({T}) {{
    %r:2 = stablehlo.optimization_barrier %a, %b : {T}, {T}
    %c1 = func.call @f(%r#0) : ({T}) -> {T}
    %c2 = func.call @f(%b) : ({T}) -> {T}
    %v = stablehlo.reshape %r#1 : ({T}) -> tensor<262144xf32>
    %w = stablehlo.negate %v : tensor<262144xf32>
    %u = stablehlo.reshape %w : (tensor<262144xf32>) -> {T}
    %s = stablehlo.add %c1, %c2 : {T}
    %t = stablehlo.add %s, %u : {T}
    return %t : {T}
  }}
}}
""")
    main = load_module(path).functions["main"]
    keys = {arg: k for k, arg in enumerate(main.args)}
    scope = Scope(main.ops, keys, itertools.count(len(keys)))
    gated = {n.op.short_name: bool(n.after) for n in scope.nodes if n.op.short_name != "add"}
    exps = [bool(n.after) for n in scope.nodes if n.op.short_name == "exponential"]
    assert exps == [True, False] and gated["negate"]
    assert {k for n in scope.nodes for k in n.after} == set(keys.values())


def test_jaxlib_0_11_cpu_writes_every_barrier_operand(tmp_path, caplog):
    # exp(%b) feeds the barrier and %z directly: kept, the barrier is a user nothing fuses into,
    # so exp is written once (not fused into %z's kernel, which would order %z before the
    # barrier's reader %t and after it at once).
    module = small_module(tmp_path, "\n".join([
        f"    %y = stablehlo.exponential %b : {T}",
        f"    %r:2 = stablehlo.optimization_barrier %a, %y : {T}, {T}",
        dot("%t", "%r#0", "%r#0"), f"    %z = stablehlo.add %y, %t : {T}",
        f"    %u = stablehlo.multiply %t, %t : {T}", dot("%w", "%z", "%u"),
        f"    return %w : {T}"]))
    assert "stablehlo.exponential" in _temporaries(module, XLA_CPU_0_11)
    assert "cycle" not in caplog.text


def test_jaxlib_0_11_cpu_dot_with_other_readers_keeps_its_type(tmp_path):
    # The dot's bf16 result is read by a convert and a negate: the convert cannot be the dot's
    # own (the dot writes bf16 for the negate), so it fuses into its reader as on XLA:GPU and
    # no f32 copy of the dot is written.
    module = small_module(tmp_path, "\n".join([
        dot("%d", "%a", "%b").replace(T, HALF), f"    %f = stablehlo.convert %d : ({HALF}) -> {T}",
        f"    %n = stablehlo.negate %d : {HALF}", f"    %g = stablehlo.convert %n : ({HALF}) -> {T}",
        f"    %s = stablehlo.add %f, %g : {T}", f"    %y = stablehlo.exponential %s : {T}",
        dot("%o", "%y", "%y"), f"    return %o : {T}"]), args=f"%a: {HALF}, %b: {HALF}")
    assert analyze(module, backend=XLA_CPU_0_11).temporaries_bytes == MB
    assert "stablehlo.convert" not in _temporaries(module, XLA_CPU_0_11)
