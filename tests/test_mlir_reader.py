"""The StableHLO reader on hand-written modules: every attribute, type and region form it converts."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from hespas_py.errors import HespasError
from hespas_py.mlir.meshes import Mesh, groups_over_axes
from hespas_py.mlir.ops import Module, Op
from hespas_py.mlir.reader import load_module

DATA = Path(__file__).parent / "data" / "mlir"


@pytest.fixture(scope="module")
def collectives() -> Module:
    return load_module(DATA / "collectives.mlir")


@pytest.fixture(scope="module")
def compute() -> Module:
    return load_module(DATA / "compute.mlir")


@pytest.fixture(scope="module")
def control_flow() -> Module:
    return load_module(DATA / "control_flow.mlir")


def _first(module_or_ops: Module | tuple[Op, ...], name: str) -> Op:
    ops = module_or_ops.ops if isinstance(module_or_ops, Module) else module_or_ops
    return next(op for op in ops if op.name == name)


def test_module_attributes_and_mesh(collectives: Module, compute: Module) -> None:
    assert (collectives.num_replicas, collectives.num_partitions, collectives.num_devices) == (1, 8, 8)
    assert list(collectives.mesh.items()) == [("x", 2), ("y", 4)]
    assert (compute.num_replicas, compute.num_partitions, dict(compute.mesh)) == (2, 1, {})


def test_dense_replica_groups_channel_and_global_ids(collectives: Module) -> None:
    op = collectives.ops[0]
    assert op.name == "stablehlo.all_reduce"
    assert op.attrs == {
        "replica_groups": ((0, 1, 2, 3), (4, 5, 6, 7)),
        "channel_handle": 7,
        "use_global_device_ids": True,
    }


def test_scalar_replica_group_form(collectives: Module) -> None:
    assert collectives.ops[1].attrs["replica_groups"] == ((0,),)
    assert collectives.ops[1].attrs["use_global_device_ids"] is False
    assert "channel_handle" not in collectives.ops[1].attrs


def test_mesh_axes_groups_against_sdy_mesh(collectives: Module) -> None:
    # axes = ["x"] on the 2x4 mesh: devices differing only in x.
    assert collectives.ops[2].attrs["replica_groups"] == ((0, 4), (1, 5), (2, 6), (3, 7))


def test_mesh_axes_groups_with_inline_mesh_and_device_ids(collectives: Module) -> None:
    gather = collectives.ops[3]
    assert gather.name == "stablehlo.all_gather"
    assert gather.attrs["replica_groups"] == ((3, 2), (1, 0))
    assert (gather.attrs["all_gather_dim"], gather.attrs["channel_handle"]) == (1, 8)


def test_mesh_axes_groups_with_sub_axis(collectives: Module) -> None:
    scatter = collectives.ops[4]
    # "y":(2)2 is y's minor half (y % 2), listed before x: group order (y%2, x).
    assert scatter.attrs["replica_groups"] == ((0, 4, 1, 5), (2, 6, 3, 7))
    assert scatter.attrs["scatter_dimension"] == 1


def test_groups_over_axes_orders_groups_and_members() -> None:
    mesh = Mesh.of([("a", 2), ("b", 3)], [])
    assert groups_over_axes(mesh, [("b", 1, 0)]) == ((0, 1, 2), (3, 4, 5))
    assert groups_over_axes(mesh, [("a", 1, 0)]) == ((0, 3), (1, 4), (2, 5))
    assert groups_over_axes(mesh, [("b", 1, 0), ("a", 1, 0)]) == ((0, 3, 1, 4, 2, 5),)
    assert groups_over_axes(mesh, []) == tuple((d,) for d in range(6))


def test_unknown_mesh_axis_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "axis.mlir"
    path.write_text((DATA / "collectives.mlir").read_text().replace(
        'mesh = @mesh, axes = [#stablehlo.axis_ref<name = "x">]', 'mesh = @mesh, axes = [#stablehlo.axis_ref<name = "z">]'
    ))
    with pytest.raises(HespasError, match=r"axis\.mlir: stablehlo\.all_reduce: cannot read replica_groups: no mesh axis 'z'"):
        load_module(path)


def test_all_to_all_and_collective_permute(collectives: Module) -> None:
    all_to_all, permute = collectives.ops[5], collectives.ops[6]
    assert all_to_all.attrs == {
        "split_dimension": 0, "concat_dimension": 1, "split_count": 2,
        "replica_groups": ((0, 1), (2, 3)), "use_global_device_ids": False,
    }
    assert permute.attrs["source_target_pairs"] == ((0, 1), (1, 2), (2, 0))
    assert permute.attrs["channel_handle"] == 9


def test_padded_dense_groups_drop_minus_one(tmp_path: Path) -> None:
    text = (DATA / "collectives.mlir").read_text().replace(
        "dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>", "dense<[[0, 1, 2], [3, -1, -1]]> : tensor<2x3xi64>"
    )
    path = tmp_path / "padded.mlir"
    path.write_text(text)
    assert load_module(path).ops[0].attrs["replica_groups"] == ((0, 1, 2), (3,))


def test_ssa_ids_types_and_def_use(collectives: Module) -> None:
    main = collectives.functions["main"]
    assert main.args == (0,)
    assert main.arg_types[0].shape == (8, 16) and main.arg_types[0].dtype == "f32"
    ops = collectives.ops
    for producer, consumer in zip(ops, ops[1:-2], strict=False):
        assert consumer.operands == producer.results
    concat = _first(collectives, "stablehlo.concatenate")
    assert concat.operands == (ops[7].results[0],) * 2
    assert concat.operand_types[0].shape == (8, 8) and concat.result_types[0].shape == (8, 16)
    all_ids = [i for f in collectives.functions.values() for op in f.ops for i in op.results]
    assert len(all_ids) == len(set(all_ids))
    assert [op.index for op in ops] == list(range(len(ops)))


def test_reducer_bodies_are_regions(collectives: Module) -> None:
    (body,) = collectives.ops[0].regions
    assert [op.name for op in body.ops] == ["stablehlo.add", "stablehlo.return"]
    assert len(body.args) == 2 and body.arg_types[0].shape == () and body.arg_types[0].dtype == "f32"
    assert body.ops[0].operands == body.args


def test_dot_general_and_convolution_dimension_numbers(compute: Module) -> None:
    dot = _first(compute, "stablehlo.dot_general")
    assert dot.attrs["dot_dimension_numbers"] == {
        "lhs_batching_dimensions": (0,), "rhs_batching_dimensions": (0,),
        "lhs_contracting_dimensions": (2,), "rhs_contracting_dimensions": (1,),
    }
    conv = _first(compute, "stablehlo.convolution")
    assert conv.attrs["dimension_numbers"] == {
        "input_batch_dimension": 0, "input_feature_dimension": 1, "input_spatial_dimensions": (2, 3),
        "kernel_input_feature_dimension": 1, "kernel_output_feature_dimension": 0,
        "kernel_spatial_dimensions": (2, 3),
        "output_batch_dimension": 0, "output_feature_dimension": 1, "output_spatial_dimensions": (2, 3),
    }
    assert conv.attrs["feature_group_count"] == 2 and conv.attrs["batch_group_count"] == 1
    assert conv.attrs["window_strides"] == (2, 2)
    assert conv.attrs["padding"] == ((1, 1), (1, 1))
    assert conv.attrs["lhs_dilation"] == (1, 1) and conv.attrs["rhs_dilation"] == (1, 1)
    assert conv.result_types[0].shape == (2, 6, 4, 4)


def test_window_reduce_broadcast_transpose_sort(compute: Module) -> None:
    window = _first(compute, "stablehlo.reduce_window")
    assert window.attrs["window_dimensions"] == (1, 1, 2, 2)
    assert window.attrs["window_strides"] == (1, 1, 2, 2)
    assert window.attrs["padding"] == ((0, 0), (0, 0), (0, 1), (0, 1))
    assert window.attrs["base_dilations"] == (1, 1, 1, 1)
    assert _first(compute, "stablehlo.reduce").attrs == {"dimensions": (0, 1, 2, 3)}
    assert _first(compute, "stablehlo.broadcast_in_dim").attrs == {"dimensions": ()}
    assert _first(compute, "stablehlo.transpose").attrs == {"dimensions": (0, 2, 1)}
    assert _first(compute, "stablehlo.sort").attrs == {"sort_dimension": 0}


def test_gather_scatter_dimension_numbers(compute: Module) -> None:
    gather = _first(compute, "stablehlo.gather")
    assert gather.attrs["dimension_numbers"]["collapsed_slice_dims"] == (0,)
    assert gather.attrs["dimension_numbers"]["index_vector_dim"] == 1
    assert gather.attrs["slice_sizes"] == (1,)
    scatter = _first(compute, "stablehlo.scatter")
    assert scatter.attrs["scatter_dimension_numbers"]["scattered_dims_to_operand_dims"] == (0,)
    assert [op.name for op in scatter.regions[0].ops] == ["stablehlo.add", "stablehlo.return"]


def test_constants_carry_only_scalar_and_splat_values(compute: Module) -> None:
    values = [op.attrs.get("value", "none") for op in compute.ops if op.name == "stablehlo.constant"]
    assert values[0] == float("-inf")
    assert values[1:] == [0.0, 7, "none", True]


def test_custom_call_target(compute: Module) -> None:
    assert _first(compute, "stablehlo.custom_call").attrs == {"call_target_name": "Sharding"}


def test_func_call_carries_callee_body_per_call_site(compute: Module) -> None:
    calls = [op for op in compute.ops if op.name == "func.call"]
    assert [c.attrs["callee"] for c in calls] == ["square", "square"]
    square = compute.functions["square"]
    assert not square.public and compute.functions["main"].public
    for call in calls:
        (body,) = call.regions
        assert body.args == square.args and body.ops == square.ops
        assert [op.name for op in body.ops] == ["stablehlo.multiply", "func.return"]
    assert calls[1].operands == calls[0].results


def test_tuple_token_future_and_dynamic_types(compute: Module) -> None:
    main = compute.functions["main"]
    future = main.arg_types[5]
    assert future.dtype == "future"
    assert [(t.shape, t.dtype) for t in future.elements] == [((5,), "f32"), ((), "i32")]
    assert future.nbytes == 5 * 4 + 4
    assert main.arg_types[6].shape == (-1, 4)
    token = _first(compute, "stablehlo.after_all").result_types[0]
    assert token.dtype == "token" and token.nbytes == 0
    tuple_type = _first(compute, "stablehlo.tuple").result_types[0]
    assert tuple_type.dtype == "tuple"
    assert [e.dtype for e in tuple_type.elements] == ["f32", "token"]
    assert tuple_type.nbytes == 3 * 4 * 4 * 4
    assert main.result_types[1] == tuple_type and main.result_types[2] == future


def test_while_trip_counts(control_flow: Module) -> None:
    loops = [op for op in control_flow.ops if op.name == "stablehlo.while"]
    # fori_loop(0, 7): constant bound in the condition.
    assert loops[0].attrs == {"trip_count": 7}
    # 10 > i with i = 2, 5, 8: bound carried unchanged through the loop, step added from the left.
    assert loops[1].attrs == {"trip_count": 3}
    # bound is a function argument: not static.
    assert "trip_count" not in loops[2].attrs
    cond, body = loops[0].regions
    assert [op.name for op in cond.ops] == ["stablehlo.constant", "stablehlo.compare", "stablehlo.return"]
    assert cond.ops[1].attrs == {"comparison_direction": "LT"}
    assert [op.name for op in body.ops][-1] == "stablehlo.return"
    assert len(cond.args) == len(body.args) == 3


def test_captures_of_control_flow(control_flow: Module) -> None:
    main = control_flow.functions["main"]
    arg0, arg1 = main.args[0], main.args[1]
    first_loop = _first(control_flow, "stablehlo.while")
    assert first_loop.captures == (arg0,)  # body multiplies by %arg0 from outside
    case = _first(control_flow, "stablehlo.case")
    loop_result = control_flow.ops[6].results[1]
    assert case.captures == (arg0, loop_result)
    assert len(case.regions) == 2 and case.operands == (arg1,)
    branch_if = _first(control_flow, "stablehlo.if")
    assert branch_if.captures == (arg0, case.results[0])
    assert [len(r.ops) for r in branch_if.regions] == [2, 1]


def test_manual_computation_has_per_device_body(shared_dir: Path) -> None:
    module = load_module(shared_dir / "workloads" / "mlp_train_fsdp_tp_shardy_8dev.mlir")
    manual = module.ops[0]
    assert manual.name == "sdy.manual_computation"
    assert manual.operand_types[0].shape == (784, 128)
    (body,) = manual.regions
    assert body.arg_types[0].shape == (98, 128)
    gathers = [op for op in body.ops if op.name == "stablehlo.all_gather"]
    assert len(gathers) == 12
    assert gathers[0].attrs["replica_groups"] == ((0, 4), (1, 5), (2, 6), (3, 7))
    assert gathers[0].result_types[0].shape == (196, 128)


def test_foreign_dialect_is_read_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    module = load_module(DATA / "foreign.mlir")
    assert [op.name for op in module.ops] == ["stablehlo.add", "acme.fused_gelu", "func.return"]
    assert len(module.warnings) == 1 and "acme" in module.warnings[0]
    stderr = capsys.readouterr().err.splitlines()
    assert stderr == [f"warning: {module.warnings[0]}"]


def test_module_pickles(compute: Module) -> None:
    clone = pickle.loads(pickle.dumps(compute))
    assert clone.functions == compute.functions and clone.entry == "main"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("malformed.mlir", "malformed.mlir: line 4:31: expected ','"),
        ("text_inside_module.mlir", "text_inside_module.mlir: line 5:1: custom op 'Compilation' is unknown"),
        ("no_entry.mlir", "no_entry.mlir: no entry function: no @main and 2 public functions (forward, backward)"),
        ("missing.mlir", "missing.mlir: no such file"),
    ],
)
def test_bad_input_raises_one_line_error(name: str, message: str) -> None:
    with pytest.raises(HespasError) as error:
        load_module(DATA / name)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_single_public_function_is_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "forward.mlir"
    path.write_text(
        "func.func private @helper(%a: tensor<f32>) -> tensor<f32> {\n  return %a : tensor<f32>\n}\n"
        "func.func @forward(%a: tensor<f32>) -> tensor<f32> {\n"
        "  %0 = call @helper(%a) : (tensor<f32>) -> tensor<f32>\n  return %0 : tensor<f32>\n}\n"
    )
    module = load_module(path)
    assert module.entry == "forward" and [op.name for op in module.ops] == ["func.call", "func.return"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b"\xff\xfe\x00garbage", "neither MLIR text"),
        (b"ML\xefR\x00truncated", r"bad\.mlir: bytecode version \d+ is newer"),
    ],
)
def test_unreadable_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(content)
    with pytest.raises(HespasError, match=message):
        load_module(path)


def test_value_key_collisions_fall_back_to_exact_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = load_module(DATA / "control_flow.mlir")
    # Every value hashing alike forces the second, exact-key walk; the result must not change.
    monkeypatch.setattr("hespas_py.mlir.reader.hash", lambda value: 0, raising=False)
    assert load_module(DATA / "control_flow.mlir").functions == expected.functions


def test_ops_with_equal_attributes_share_one_dict(tmp_path: Path) -> None:
    path = tmp_path / "shared_attrs.mlir"
    path.write_text("""
func.func @main(%a: tensor<4xf32>, %b: tensor<f32>) -> tensor<4x4xf32> {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
  %1 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<4xf32>) -> tensor<4x4xf32>
  %2 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
  %3 = "stablehlo.all_reduce"(%0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %4 = "stablehlo.all_reduce"(%3) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %4 : tensor<4x4xf32>
}
""")
    ops = load_module(path).ops
    assert ops[0].attrs is ops[2].attrs and ops[0].attrs == {"dimensions": (1,)}
    assert ops[1].attrs == {"dimensions": (0,)}
    assert ops[3].attrs["use_global_device_ids"] is True and ops[4].attrs["use_global_device_ids"] is False
    assert ops[3].attrs["replica_groups"] is ops[4].attrs["replica_groups"] == ((0, 1),)


def test_fft_length_is_carried(tmp_path: Path) -> None:
    path = tmp_path / "fft.mlir"
    path.write_text("""
func.func @main(%a: tensor<4x64x32xcomplex<f32>>) -> tensor<4x64x32xcomplex<f32>> {
  %0 = stablehlo.fft %a, type = FFT, length = [64, 32] : (tensor<4x64x32xcomplex<f32>>) -> tensor<4x64x32xcomplex<f32>>
  return %0 : tensor<4x64x32xcomplex<f32>>
}
""")
    assert load_module(path).ops[0].attrs == {"fft_length": (64, 32)}


def test_ops_of_one_kind_with_one_then_two_results(tmp_path: Path) -> None:
    """A kind read by its single result (`walk._OpKind.single`) whose later op has two results,
    and a non-terminator op with none, keep every result id and type."""
    path = tmp_path / "results.mlir"
    path.write_text("""
func.func @main(%a: tensor<4xf32>, %b: tensor<4xi32>, %z: tensor<f32>, %y: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %1:2 = stablehlo.reduce(%a init: %z), (%b init: %y) across dimensions = [0] :
      (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
    reducer(%p: tensor<f32>, %q: tensor<f32>) (%r: tensor<i32>, %s: tensor<i32>) {
      %m = stablehlo.add %p, %q : tensor<f32>
      %n = stablehlo.add %r, %s : tensor<i32>
      stablehlo.return %m, %n : tensor<f32>, tensor<i32>
    }
  %2 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %3 = stablehlo.add %1#1, %y : tensor<i32>
  return %3 : tensor<i32>
}
""")
    ops = load_module(path).ops
    assert [len(op.results) for op in ops] == [1, 2, 1, 1, 0]
    assert [t.dtype for t in ops[1].result_types] == ["f32", "i32"]
    assert ops[3].operands[0] == ops[1].results[1] and ops[3].operand_types[0].dtype == "i32"
    assert ops[2].result_types[0].dtype == "f32" and ops[2].results[0] > ops[1].results[1]
