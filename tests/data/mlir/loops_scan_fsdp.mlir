module @jit_scan_train attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["d"=4]> {stablehlo.mesh = {axes = [{name = "d", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<3x16x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<3x16x16xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{}, {"d"}, {}]>, <@mesh, [{"d"}, {}]>] out_shardings=[<@mesh, [{}, {"d"}, {}]>] manual_axes={"d"} (%arg2: tensor<3x4x16xf32>, %arg3: tensor<2x16xf32>) {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x2x16xf32>
      %c = stablehlo.constant dense<0> : tensor<i32>
      %2:4 = stablehlo.while(%iterArg = %arg2, %iterArg_3 = %c, %iterArg_4 = %arg3, %iterArg_5 = %1) : tensor<3x4x16xf32>, tensor<i32>, tensor<2x16xf32>, tensor<3x2x16xf32>
      cond {
        %c_6 = stablehlo.constant dense<3> : tensor<i32>
        %6 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %6 : tensor<i1>
      } do {
        %6 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_3) : (tensor<3x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
        %7:2 = func.call @closed_call(%iterArg_4, %6) : (tensor<2x16xf32>, tensor<4x16xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>)
        %8 = func.call @dynamic_update_index_in_dim(%iterArg_5, %7#1, %iterArg_3) : (tensor<3x2x16xf32>, tensor<2x16xf32>, tensor<i32>) -> tensor<3x2x16xf32>
        %c_6 = stablehlo.constant dense<1> : tensor<i32>
        %9 = stablehlo.add %iterArg_3, %c_6 : tensor<i32>
        stablehlo.return %iterArg, %9, %7#0, %8 : tensor<3x4x16xf32>, tensor<i32>, tensor<2x16xf32>, tensor<3x2x16xf32>
      }
      %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
      %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x4x16xf32>
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %5:5 = stablehlo.while(%iterArg = %2#3, %iterArg_3 = %arg2, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %4) : tensor<3x2x16xf32>, tensor<3x4x16xf32>, tensor<i32>, tensor<2x16xf32>, tensor<3x4x16xf32>
      cond {
        %c_7 = stablehlo.constant dense<3> : tensor<i32>
        %6 = stablehlo.compare LT, %iterArg_4, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %6 : tensor<i1>
      } do {
        %c_7 = stablehlo.constant dense<3> : tensor<i32>
        %6 = stablehlo.subtract %c_7, %iterArg_4 : tensor<i32>
        %c_8 = stablehlo.constant dense<1> : tensor<i32>
        %7 = stablehlo.subtract %6, %c_8 : tensor<i32>
        %8 = func.call @dynamic_index_in_dim_0(%iterArg, %7) : (tensor<3x2x16xf32>, tensor<i32>) -> tensor<2x16xf32>
        %9 = func.call @dynamic_index_in_dim(%iterArg_3, %7) : (tensor<3x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
        %10:2 = func.call @closed_call_1(%iterArg_5, %8, %9) : (tensor<2x16xf32>, tensor<2x16xf32>, tensor<4x16xf32>) -> (tensor<2x16xf32>, tensor<4x16xf32>)
        %11 = func.call @dynamic_update_index_in_dim_2(%iterArg_6, %10#1, %7) : (tensor<3x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<3x4x16xf32>
        %c_9 = stablehlo.constant dense<1> : tensor<i32>
        %12 = stablehlo.add %iterArg_4, %c_9 : tensor<i32>
        stablehlo.return %iterArg, %iterArg_3, %12, %10#0, %11 : tensor<3x2x16xf32>, tensor<3x4x16xf32>, tensor<i32>, tensor<2x16xf32>, tensor<3x4x16xf32>
      }
      sdy.return %5#4 : tensor<3x4x16xf32>
    } : (tensor<3x16x16xf32>, tensor<8x16xf32>) -> tensor<3x16x16xf32>
    return %0 : tensor<3x16x16xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<3x4x16xf32>, %arg1: tensor<i32>) -> tensor<4x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 16] : (tensor<3x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<2x16xf32>, %arg1: tensor<4x16xf32>) -> (tensor<2x16xf32>, tensor<2x16xf32>) {
    %0 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<4x16xf32>) -> tensor<16x16xf32>
    %1 = stablehlo.dot_general %arg0, %0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16xf32>, tensor<16x16xf32>) -> tensor<2x16xf32>
    %2 = stablehlo.tanh %1 : tensor<2x16xf32>
    return %2, %arg0 : tensor<2x16xf32>, tensor<2x16xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<3x2x16xf32>, %arg1: tensor<2x16xf32>, %arg2: tensor<i32>) -> tensor<3x2x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<2x16xf32>) -> tensor<1x2x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<3x2x16xf32>, tensor<1x2x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x2x16xf32>
    return %1 : tensor<3x2x16xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<3x2x16xf32>, %arg1: tensor<i32>) -> tensor<2x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 2, 16] : (tensor<3x2x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
    return %1 : tensor<2x16xf32>
  }
  func.func private @closed_call_1(%arg0: tensor<2x16xf32>, %arg1: tensor<2x16xf32>, %arg2: tensor<4x16xf32>) -> (tensor<2x16xf32>, tensor<4x16xf32>) {
    %0:3 = stablehlo.optimization_barrier %arg1, %arg2, %arg0 : tensor<2x16xf32>, tensor<4x16xf32>, tensor<2x16xf32>
    %1 = "stablehlo.all_gather"(%0#1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<4x16xf32>) -> tensor<16x16xf32>
    %2 = stablehlo.dot_general %0#0, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16xf32>, tensor<16x16xf32>) -> tensor<2x16xf32>
    %3 = stablehlo.tanh %2 : tensor<2x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %5 = stablehlo.subtract %4, %3 : tensor<2x16xf32>
    %6 = stablehlo.multiply %0#2, %5 : tensor<2x16xf32>
    %7 = stablehlo.multiply %6, %3 : tensor<2x16xf32>
    %8 = stablehlo.add %6, %7 : tensor<2x16xf32>
    %9 = stablehlo.dot_general %8, %0#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<16x16xf32>
    %10 = stablehlo.transpose %9, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %11 = stablehlo.dot_general %8, %1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16xf32>, tensor<16x16xf32>) -> tensor<2x16xf32>
    %12 = "stablehlo.reduce_scatter"(%10) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %13 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<16x16xf32>) -> tensor<4x16xf32>
    return %11, %12 : tensor<2x16xf32>, tensor<4x16xf32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<3x4x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<i32>) -> tensor<3x4x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<3x4x16xf32>, tensor<1x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x4x16xf32>
    return %1 : tensor<3x4x16xf32>
  }
}
