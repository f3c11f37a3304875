// Compute ops with every attribute the reader converts, calls, tuples, tokens and futures.
module @compute attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func private @square(%arg0: tensor<3x4x4xf32>) -> tensor<3x4x4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<3x4x4xf32>
    return %0 : tensor<3x4x4xf32>
  }
  func.func public @main(%arg0: tensor<2x4x8x8xf32>, %arg1: tensor<6x2x3x3xf32>, %arg2: tensor<3x4x4xf32>, %arg3: tensor<2x1xi32>, %arg4: tensor<5xf32>, %arg5: !stablehlo.future<tensor<5xf32>, tensor<i32>>, %arg6: tensor<?x4xf32>) -> (tensor<f32>, tuple<tensor<3x4x4xf32>, !stablehlo.token>, !stablehlo.future<tensor<5xf32>, tensor<i32>>) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x4x4xf32>
    %1 = stablehlo.dot_general %arg2, %arg2, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x4x4xf32>, tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = "stablehlo.reduce_window"(%0, %cst) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [0, 1], [0, 1]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) : (tensor<2x6x4x4xf32>, tensor<f32>) -> tensor<2x6x2x2xf32>
    %3 = "stablehlo.gather"(%arg4, %arg3) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<5xf32>, tensor<2x1xi32>) -> tensor<2xf32>
    %4 = "stablehlo.scatter"(%arg4, %arg3, %3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<5xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<5xf32>
    %5 = "stablehlo.sort"(%4) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %lt = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) : (tensor<5xf32>) -> tensor<5xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%0 init: %cst_0) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<2x6x4x4xf32>, tensor<f32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<3x4x4xf32>
    %8 = stablehlo.transpose %1, dims = [0, 2, 1] : (tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
    %9 = call @square(%8) : (tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
    %10 = call @square(%9) : (tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
    %11 = stablehlo.custom_call @Sharding(%10) {mhlo.sharding = "{replicated}"} : (tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
    %c = stablehlo.constant dense<7> : tensor<i32>
    %c_1 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %splat = stablehlo.constant dense<true> : tensor<4xi1>
    %12 = stablehlo.after_all : !stablehlo.token
    %13 = stablehlo.tuple %11, %12 : tuple<tensor<3x4x4xf32>, !stablehlo.token>
    %14 = stablehlo.add %11, %7 : tensor<3x4x4xf32>
    %15 = stablehlo.get_tuple_element %13[0] : (tuple<tensor<3x4x4xf32>, !stablehlo.token>) -> tensor<3x4x4xf32>
    return %6, %13, %arg5 : tensor<f32>, tuple<tensor<3x4x4xf32>, !stablehlo.token>, !stablehlo.future<tensor<5xf32>, tensor<i32>>
  }
}
