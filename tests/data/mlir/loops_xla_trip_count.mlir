// Written by hand: a while whose bound is an argument (no static trip count) but which carries
// XLA's known_trip_count backend config (5 iterations), as XLA annotates loops it has analysed;
// its body holds an all-reduce. jaxlib's HLO-to-StableHLO converter drops backend configs, so no
// tool at hand writes this form.
module @xla_trip_count attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = "stablehlo.while"(%c, %arg0) ({
    ^bb0(%i: tensor<i32>, %x: tensor<4xf32>):
      %p = stablehlo.compare LT, %i, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    }, {
    ^bb0(%i: tensor<i32>, %x: tensor<4xf32>):
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %y = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<4xf32>) -> tensor<4xf32>
      %z = stablehlo.exponential %y : tensor<4xf32>
      stablehlo.return %next, %z : tensor<i32>, tensor<4xf32>
    }) {backend_config = "{\"known_trip_count\":{\"n\":\"5\"},\"known_init_step\":{\"init\":\"0\",\"step\":\"1\"}}"} : (tensor<i32>, tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>)
    return %0#1 : tensor<4xf32>
  }
}
