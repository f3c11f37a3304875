// XLA-optimized form (as jaxlib's hlo_to_stablehlo writes it): fusions, copies, bitcasts and a
// loop whose compare and step sit inside fusions.
module @jit_f attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func @main(%arg0: tensor<16x32xf32>, %arg1: tensor<32x8xf32>) -> tensor<f32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = mhlo.copy %c : tensor<i32>
    %1 = "mhlo.fusion"(%arg0, %arg1) <{fusion_kind = #mhlo<fusion_kind kCustom>}> ({
    ^bb0(%arg2: tensor<16x32xf32>, %arg3: tensor<32x8xf32>):
      %5 = stablehlo.dot %arg2, %arg3, precision = [DEFAULT, DEFAULT] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
      mhlo.return %5 : tensor<16x8xf32>
    }) {output_operand_aliasing = []} : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
    %2 = mhlo.bitcast %1 : (tensor<16x8xf32>) -> tensor<128xf32>
    %b = mhlo.bitcast %2 : (tensor<128xf32>) -> tensor<16x8xf32>
    %3:2 = stablehlo.while(%iterArg = %0, %iterArg_0 = %b) : tensor<i32>, tensor<16x8xf32>
    cond {
      %c_1 = stablehlo.constant dense<3> : tensor<i32>
      %5 = "mhlo.fusion"(%iterArg, %c_1) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
      ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
        %6 = stablehlo.compare LT, %arg2, %arg3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        mhlo.return %6 : tensor<i1>
      }) {output_operand_aliasing = []} : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %5 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %5 = "mhlo.fusion"(%iterArg, %c_1) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
      ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
        %7 = stablehlo.add %arg2, %arg3 : tensor<i32>
        mhlo.return %7 : tensor<i32>
      }) {output_operand_aliasing = []} : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %6 = "mhlo.fusion"(%iterArg_0) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
      ^bb0(%arg2: tensor<16x8xf32>):
        %cst_2 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
        %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
        %8 = stablehlo.multiply %arg2, %7 : tensor<16x8xf32>
        mhlo.return %8 : tensor<16x8xf32>
      }) {output_operand_aliasing = []} : (tensor<16x8xf32>) -> tensor<16x8xf32>
      stablehlo.return %5, %6 : tensor<i32>, tensor<16x8xf32>
    }
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = "mhlo.fusion"(%3#1, %cst) <{fusion_kind = #mhlo<fusion_kind kLoop>}> ({
    ^bb0(%arg2: tensor<16x8xf32>, %arg3: tensor<f32>):
      %5 = stablehlo.reduce(%arg2 init: %arg3) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<f32>
      mhlo.return %5 : tensor<f32>
    }) {output_operand_aliasing = []} : (tensor<16x8xf32>, tensor<f32>) -> tensor<f32>
    return %4 : tensor<f32>
  }
}
