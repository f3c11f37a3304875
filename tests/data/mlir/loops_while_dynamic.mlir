module @jit_while_dynamic attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @empty_mesh = <[]> {stablehlo.mesh = {axes = []}}
  sdy.mesh @mesh = <["d"=4]> {stablehlo.mesh = {axes = [{name = "d", size = 4 : i64}]}}
  func.func public @main(%arg0: tensor<16x16xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<i32> {sdy.sharding = #sdy.sharding<@empty_mesh, []>}) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = sdy.manual_computation(%arg0, %arg1, %arg2) in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{"d"}, {}]>, <@mesh, []>] out_shardings=[<@mesh, [{"d"}, {}]>] manual_axes={"d"} (%arg3: tensor<16x16xf32>, %arg4: tensor<2x16xf32>, %arg5: tensor<i32>) {
      %c = stablehlo.constant dense<0> : tensor<i32>
      %1:4 = stablehlo.while(%iterArg = %arg5, %iterArg_0 = %arg3, %iterArg_1 = %c, %iterArg_2 = %arg4) : tensor<i32>, tensor<16x16xf32>, tensor<i32>, tensor<2x16xf32>
      cond {
        %2 = stablehlo.convert %iterArg_1 : tensor<i32>
        %3 = stablehlo.compare LT, %2, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %3 : tensor<i1>
      } do {
        %c_3 = stablehlo.constant dense<1> : tensor<i32>
        %2 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
        %3 = stablehlo.dot_general %iterArg_2, %iterArg_0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x16xf32>, tensor<16x16xf32>) -> tensor<2x16xf32>
        %4 = stablehlo.tanh %3 : tensor<2x16xf32>
        %5 = "stablehlo.all_reduce"(%4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
        ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
          %7 = stablehlo.add %arg6, %arg7 : tensor<f32>
          stablehlo.return %7 : tensor<f32>
        }) : (tensor<2x16xf32>) -> tensor<2x16xf32>
        %6 = stablehlo.add %iterArg_2, %5 : tensor<2x16xf32>
        stablehlo.return %iterArg, %iterArg_0, %2, %6 : tensor<i32>, tensor<16x16xf32>, tensor<i32>, tensor<2x16xf32>
      }
      sdy.return %1#3 : tensor<2x16xf32>
    } : (tensor<16x16xf32>, tensor<8x16xf32>, tensor<i32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}
