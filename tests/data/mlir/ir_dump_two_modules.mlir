// -----// IR Dump After StablehloAggressiveSimplification (stablehlo-aggressive-simplification) //----- //
module @jit_tp_step attributes {mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x256xf32>, %arg1: tensor<256x128xf32>) -> tensor<64x256xf32> {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>
    %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<64x128xf32>) -> tensor<64x256xf32>
    return %1 : tensor<64x256xf32>
  }
}

// -----// IR Dump After Inliner (inline) //----- //
module @jit_moe_step attributes {mhlo.num_partitions = 32 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x64xbf16>) -> tensor<128x64xbf16> {
    %0 = "stablehlo.all_to_all"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15], [16, 17, 18, 19, 20, 21, 22, 23], [24, 25, 26, 27, 28, 29, 30, 31]]> : tensor<4x8xi64>, split_count = 8 : i64, split_dimension = 0 : i64}> : (tensor<128x64xbf16>) -> tensor<128x64xbf16>
    %1 = stablehlo.tanh %0 : tensor<128x64xbf16>
    %2 = "stablehlo.collective_permute"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 8], [8, 16], [16, 24], [24, 0]]> : tensor<4x2xi64>}> : (tensor<128x64xbf16>) -> tensor<128x64xbf16>
    return %2 : tensor<128x64xbf16>
  }
}
