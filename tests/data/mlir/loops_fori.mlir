module @jit_fori_static attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["d"=4]> {stablehlo.mesh = {axes = [{name = "d", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"d"}, {}]>] out_shardings=[<@mesh, [{"d"}, {}]>] manual_axes={"d"} (%arg2: tensor<16x16xf32>, %arg3: tensor<2x16xf32>) {
      %c = stablehlo.constant dense<0> : tensor<i32>
      %1:3 = stablehlo.while(%iterArg = %arg2, %iterArg_0 = %c, %iterArg_1 = %arg3) : tensor<16x16xf32>, tensor<i32>, tensor<2x16xf32>
      cond {
        %c_2 = stablehlo.constant dense<4> : tensor<i32>
        %2 = stablehlo.compare LT, %iterArg_0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %2 : tensor<i1>
      } do {
        %2 = func.call @closed_call(%iterArg, %iterArg_1) : (tensor<16x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
        %c_2 = stablehlo.constant dense<1> : tensor<i32>
        %3 = stablehlo.add %iterArg_0, %c_2 : tensor<i32>
        stablehlo.return %iterArg, %3, %2 : tensor<16x16xf32>, tensor<i32>, tensor<2x16xf32>
      }
      sdy.return %1#2 : tensor<2x16xf32>
    } : (tensor<16x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<16x16xf32>, %arg1: tensor<2x16xf32>) -> tensor<2x16xf32> {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16xf32>, tensor<16x16xf32>) -> tensor<2x16xf32>
    %1 = stablehlo.tanh %0 : tensor<2x16xf32>
    %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %4 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }) : (tensor<2x16xf32>) -> tensor<2x16xf32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x16xf32>
    return %3 : tensor<2x16xf32>
  }
}
