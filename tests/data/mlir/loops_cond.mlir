module @jit_cond_collective attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  sdy.mesh @mesh = <["d"=4]> {stablehlo.mesh = {axes = [{name = "d", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<i32> {sdy.sharding = #sdy.sharding<@empty_mesh, []>}) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"d"}, {}]>, <@mesh, []>] out_shardings=[<@mesh, [{"d"}, {}]>] manual_axes={"d"} (%arg3: tensor<16x16xf32>, %arg4: tensor<2x16xf32>, %arg5: tensor<i32>) {
      %c = stablehlo.constant dense<0> : tensor<i32>
      %1 = stablehlo.compare GT, %arg5, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %2 = stablehlo.convert %1 : (tensor<i1>) -> tensor<i32>
      %3 = "stablehlo.case"(%2) ({
        %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
        %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
        %6 = stablehlo.multiply %arg4, %5 : tensor<2x16xf32>
        stablehlo.return %6 : tensor<2x16xf32>
      }, {
        %5 = stablehlo.dot_general %arg4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16xf32>, tensor<16x16xf32>) -> tensor<2x16xf32>
        %6 = "stablehlo.all_reduce"(%5) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
        ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
          %8 = stablehlo.add %arg6, %arg7 : tensor<f32>
          stablehlo.return %8 : tensor<f32>
        }) : (tensor<2x16xf32>) -> tensor<2x16xf32>
        %7 = stablehlo.add %arg4, %6 : tensor<2x16xf32>
        stablehlo.return %7 : tensor<2x16xf32>
      }) : (tensor<i32>) -> tensor<2x16xf32>
      %c_0 = stablehlo.constant dense<0> : tensor<i32>
      %4:3 = stablehlo.while(%iterArg = %arg3, %iterArg_1 = %c_0, %iterArg_2 = %3) : tensor<16x16xf32>, tensor<i32>, tensor<2x16xf32>
      cond {
        %c_3 = stablehlo.constant dense<3> : tensor<i32>
        %5 = stablehlo.compare LT, %iterArg_1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %5 : tensor<i1>
      } do {
        %5 = func.call @closed_call(%iterArg, %iterArg_2) : (tensor<16x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
        %c_3 = stablehlo.constant dense<1> : tensor<i32>
        %6 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
        stablehlo.return %iterArg, %6, %5 : tensor<16x16xf32>, tensor<i32>, tensor<2x16xf32>
      }
      sdy.return %4#2 : tensor<2x16xf32>
    } : (tensor<16x16xf32>, tensor<8x16xf32>, tensor<i32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
  func.func private @closed_call(%arg0: tensor<16x16xf32>, %arg1: tensor<2x16xf32>) -> tensor<2x16xf32> {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16xf32>, tensor<16x16xf32>) -> tensor<2x16xf32>
    %1 = stablehlo.tanh %0 : tensor<2x16xf32>
    return %1 : tensor<2x16xf32>
  }
}
