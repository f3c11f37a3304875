module @jit_step attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
  func.func private @region_0.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_1.2(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_2.3(%arg0: tensor<f32>, %arg1: tensor<i32>, %arg2: tensor<f32>, %arg3: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
    %0 = stablehlo.compare GT, %arg0, %arg2 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = stablehlo.compare NE, %arg0, %arg0 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.or %0, %1 : tensor<i1>
    %3 = stablehlo.select %2, %arg0, %arg2 : tensor<i1>, tensor<f32>
    %4 = stablehlo.compare EQ, %arg0, %arg2 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = stablehlo.compare LT, %arg1, %arg3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.and %4, %5 : tensor<i1>
    %7 = stablehlo.or %2, %6 : tensor<i1>
    %8 = stablehlo.select %7, %arg1, %arg3 : tensor<i1>, tensor<i32>
    return %3, %8 : tensor<f32>, tensor<i32>
  }
  func.func private @region_3.4(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_4.5(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_5.6(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_6.7(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_7.8(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_8.9(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_9.10(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_10.11(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_11.12(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @xla.sdy.inlinable_manual_computation_body.13_spmd(%arg0: tensor<512x4xf32>, %arg1: tensor<1x512x2048xf32>, %arg2: tensor<1x2048x512xf32>, %arg3: tensor<256x512xf32>, %arg4: tensor<256x512xf32>) -> (tensor<512x4xf32>, tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>) {
    %0 = stablehlo.dot %arg3, %arg0, precision = [DEFAULT, DEFAULT] : (tensor<256x512xf32>, tensor<512x4xf32>) -> tensor<256x4xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<256x4xf32>, tensor<f32>) -> tensor<256xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256xf32>
    %3 = stablehlo.maximum %1, %2 : tensor<256xf32>
    %4 = stablehlo.reshape %3 : (tensor<256xf32>) -> tensor<256x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<256x1xf32>) -> tensor<256x1xf32>
    %6 = stablehlo.reshape %5 : (tensor<256x1xf32>) -> tensor<256xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<256xf32>) -> tensor<256x4xf32>
    %8 = stablehlo.subtract %0, %7 : tensor<256x4xf32>
    %9 = stablehlo.exponential %8 : tensor<256x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<256x4xf32>, tensor<f32>) -> tensor<256xf32>
    %11 = stablehlo.reshape %10 : (tensor<256xf32>) -> tensor<256x1xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<256x1xf32>) -> tensor<256x1xf32>
    %13 = stablehlo.reshape %12 : (tensor<256x1xf32>) -> tensor<256xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<256xf32>) -> tensor<256x4xf32>
    %15 = stablehlo.divide %9, %14 : tensor<256x4xf32>
    %16 = stablehlo.iota dim = 0 : tensor<4xi32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [1] : (tensor<4xi32>) -> tensor<256x4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %18:2 = stablehlo.reduce(%0 init: %cst), (%17 init: %c) across dimensions = [1] : (tensor<256x4xf32>, tensor<256x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<256xf32>, tensor<256xi32>)
     reducer(%arg5: tensor<f32>, %arg7: tensor<f32>) (%arg6: tensor<i32>, %arg8: tensor<i32>)  {
      %147 = stablehlo.compare GT, %arg5, %arg7 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %148 = stablehlo.compare NE, %arg5, %arg5 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %149 = stablehlo.or %147, %148 : tensor<i1>
      %150 = stablehlo.select %149, %arg5, %arg7 : tensor<i1>, tensor<f32>
      %151 = stablehlo.compare EQ, %arg5, %arg7 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %152 = stablehlo.compare LT, %arg6, %arg8 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %153 = stablehlo.and %151, %152 : tensor<i1>
      %154 = stablehlo.or %149, %153 : tensor<i1>
      %155 = stablehlo.select %154, %arg6, %arg8 : tensor<i1>, tensor<i32>
      stablehlo.return %150, %155 : tensor<f32>, tensor<i32>
    }
    %19 = stablehlo.reshape %18#1 : (tensor<256xi32>) -> tensor<256x1xi32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<256x1xi32>) -> tensor<256x1xi32>
    %21 = stablehlo.reshape %20 : (tensor<256x1xi32>) -> tensor<256xi32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<256xi32>) -> tensor<256x4xi32>
    %23 = stablehlo.iota dim = 0 : tensor<4xi32>
    %24 = stablehlo.reshape %23 : (tensor<4xi32>) -> tensor<1x4xi32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1] : (tensor<1x4xi32>) -> tensor<1x4xi32>
    %26 = stablehlo.reshape %25 : (tensor<1x4xi32>) -> tensor<4xi32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [1] : (tensor<4xi32>) -> tensor<256x4xi32>
    %28 = stablehlo.compare EQ, %22, %27 : (tensor<256x4xi32>, tensor<256x4xi32>) -> tensor<256x4xi1>
    %29 = stablehlo.convert %28 : (tensor<256x4xi1>) -> tensor<256x4xf32>
    %30 = stablehlo.multiply %15, %29 : tensor<256x4xf32>
    %31 = stablehlo.reduce(%30 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<256x4xf32>, tensor<f32>) -> tensor<256xf32>
    %32 = stablehlo.reshape %31 : (tensor<256xf32>) -> tensor<256x1xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<256x1xf32>) -> tensor<256x1xf32>
    %34 = stablehlo.reshape %33 : (tensor<256x1xf32>) -> tensor<256xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0] : (tensor<256xf32>) -> tensor<256x512xf32>
    %36 = stablehlo.reshape %29 : (tensor<256x4xf32>) -> tensor<256x4x1xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1, 2] : (tensor<256x4x1xf32>) -> tensor<256x4x1xf32>
    %38 = stablehlo.reshape %37 : (tensor<256x4x1xf32>) -> tensor<256x4xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1] : (tensor<256x4xf32>) -> tensor<256x4x64xf32>
    %40 = "stablehlo.reduce_window"(%29, %cst_0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[255, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 256, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %147 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %147 : tensor<f32>
    }) : (tensor<256x4xf32>, tensor<f32>) -> tensor<256x4xf32>
    %41 = stablehlo.multiply %40, %29 : tensor<256x4xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<256x4xf32>
    %43 = stablehlo.subtract %41, %42 : tensor<256x4xf32>
    %44 = stablehlo.reshape %43 : (tensor<256x4xf32>) -> tensor<256x4x1xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 2] : (tensor<256x4x1xf32>) -> tensor<256x4x1xf32>
    %46 = stablehlo.reshape %45 : (tensor<256x4x1xf32>) -> tensor<256x4xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1] : (tensor<256x4xf32>) -> tensor<256x4x64xf32>
    %48 = stablehlo.iota dim = 0 : tensor<64xf32>
    %49 = stablehlo.reshape %48 : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<1x1x64xf32>
    %51 = stablehlo.reshape %50 : (tensor<1x1x64xf32>) -> tensor<64xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [2] : (tensor<64xf32>) -> tensor<256x4x64xf32>
    %53 = stablehlo.compare EQ, %47, %52 : (tensor<256x4x64xf32>, tensor<256x4x64xf32>) -> tensor<256x4x64xi1>
    %54 = stablehlo.convert %53 : (tensor<256x4x64xi1>) -> tensor<256x4x64xf32>
    %55 = stablehlo.multiply %39, %54 : tensor<256x4x64xf32>
    %56 = stablehlo.dot_general %55, %arg3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x4x64xf32>, tensor<256x512xf32>) -> tensor<4x64x512xf32>
    %57 = "stablehlo.all_to_all"(%56) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x64x512xf32>) -> tensor<4x64x512xf32>
    %58 = stablehlo.reshape %arg1 : (tensor<1x512x2048xf32>) -> tensor<512x2048xf32>
    %59 = stablehlo.dot_general %57, %58, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x64x512xf32>, tensor<512x2048xf32>) -> tensor<4x64x2048xf32>
    %60 = stablehlo.multiply %59, %59 : tensor<4x64x2048xf32>
    %61 = stablehlo.multiply %60, %59 : tensor<4x64x2048xf32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x64x2048xf32>
    %63 = stablehlo.multiply %61, %62 : tensor<4x64x2048xf32>
    %64 = stablehlo.add %59, %63 : tensor<4x64x2048xf32>
    %cst_3 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x64x2048xf32>
    %66 = stablehlo.multiply %64, %65 : tensor<4x64x2048xf32>
    %67 = stablehlo.tanh %66 : tensor<4x64x2048xf32>
    %68 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x64x2048xf32>
    %69 = stablehlo.add %67, %68 : tensor<4x64x2048xf32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x64x2048xf32>
    %71 = stablehlo.multiply %69, %70 : tensor<4x64x2048xf32>
    %72 = stablehlo.multiply %59, %71 : tensor<4x64x2048xf32>
    %73 = stablehlo.reshape %arg2 : (tensor<1x2048x512xf32>) -> tensor<2048x512xf32>
    %74 = stablehlo.dot_general %72, %73, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x64x2048xf32>, tensor<2048x512xf32>) -> tensor<4x64x512xf32>
    %75 = "stablehlo.all_to_all"(%74) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x64x512xf32>) -> tensor<4x64x512xf32>
    %76 = stablehlo.dot_general %55, %75, contracting_dims = [2, 1] x [1, 0], precision = [DEFAULT, DEFAULT] : (tensor<256x4x64xf32>, tensor<4x64x512xf32>) -> tensor<256x512xf32>
    %77 = stablehlo.multiply %35, %76 : tensor<256x512xf32>
    %78 = stablehlo.subtract %77, %arg4 : tensor<256x512xf32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<256x512xf32>
    %80 = stablehlo.multiply %78, %79 : tensor<256x512xf32>
    %cst_6 = stablehlo.constant dense<1.90734863E-6> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<256x512xf32>
    %82 = stablehlo.multiply %80, %81 : tensor<256x512xf32>
    %83 = stablehlo.multiply %82, %76 : tensor<256x512xf32>
    %84 = stablehlo.reduce(%83 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<256x512xf32>, tensor<f32>) -> tensor<256xf32>
    %85 = stablehlo.reshape %84 : (tensor<256xf32>) -> tensor<256x1xf32>
    %86 = stablehlo.reduce(%85 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<256x1xf32>, tensor<f32>) -> tensor<256xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0] : (tensor<256xf32>) -> tensor<256x4xf32>
    %88 = stablehlo.multiply %87, %29 : tensor<256x4xf32>
    %89 = stablehlo.divide %88, %14 : tensor<256x4xf32>
    %90 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<256x1xf32>
    %91 = stablehlo.multiply %11, %11 : tensor<256x1xf32>
    %92 = stablehlo.divide %90, %91 : tensor<256x1xf32>
    %93 = stablehlo.broadcast_in_dim %92, dims = [0, 1] : (tensor<256x1xf32>) -> tensor<256x1xf32>
    %94 = stablehlo.reshape %93 : (tensor<256x1xf32>) -> tensor<256xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0] : (tensor<256xf32>) -> tensor<256x4xf32>
    %96 = stablehlo.multiply %88, %95 : tensor<256x4xf32>
    %97 = stablehlo.multiply %96, %9 : tensor<256x4xf32>
    %98 = stablehlo.reduce(%97 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<256x4xf32>, tensor<f32>) -> tensor<256xf32>
    %99 = stablehlo.reshape %98 : (tensor<256xf32>) -> tensor<256x1xf32>
    %100 = stablehlo.negate %99 : tensor<256x1xf32>
    %101 = stablehlo.reduce(%100 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<256x1xf32>, tensor<f32>) -> tensor<256xf32>
    %102 = stablehlo.broadcast_in_dim %101, dims = [0] : (tensor<256xf32>) -> tensor<256x4xf32>
    %103 = stablehlo.add %89, %102 : tensor<256x4xf32>
    %104 = stablehlo.multiply %103, %9 : tensor<256x4xf32>
    %105 = stablehlo.dot_general %104, %arg3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x4xf32>, tensor<256x512xf32>) -> tensor<4x512xf32>
    %106 = stablehlo.transpose %105, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,4]{0,1}"} : (tensor<4x512xf32>) -> tensor<512x4xf32>
    %107 = "stablehlo.all_reduce"(%106) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %147 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %147 : tensor<f32>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,4]{0,1}"} : (tensor<512x4xf32>) -> tensor<512x4xf32>
    %cst_7 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<512x4xf32>
    %109 = stablehlo.multiply %107, %108 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,4]{0,1}"} : tensor<512x4xf32>
    %110 = stablehlo.subtract %arg0, %109 : tensor<512x4xf32>
    %111 = stablehlo.multiply %35, %82 : tensor<256x512xf32>
    %112 = stablehlo.dot_general %111, %55, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<256x512xf32>, tensor<256x4x64xf32>) -> tensor<512x4x64xf32>
    %113 = stablehlo.transpose %112, dims = [1, 2, 0] {result_layout = dense<[1, 0, 2]> : tensor<3xindex>, xla_shape = "f32[4,64,512]{1,0,2}"} : (tensor<512x4x64xf32>) -> tensor<4x64x512xf32>
    %114 = "stablehlo.all_to_all"(%113) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> {result_layout = dense<[1, 0, 2]> : tensor<3xindex>, xla_shape = "f32[4,64,512]{1,0,2}"} : (tensor<4x64x512xf32>) -> tensor<4x64x512xf32>
    %115 = stablehlo.dot_general %114, %73, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x64x512xf32>, tensor<2048x512xf32>) -> tensor<4x64x2048xf32>
    %116 = stablehlo.multiply %115, %71 : tensor<4x64x2048xf32>
    %117 = stablehlo.multiply %59, %115 : tensor<4x64x2048xf32>
    %118 = stablehlo.multiply %117, %70 : tensor<4x64x2048xf32>
    %119 = stablehlo.subtract %68, %67 : tensor<4x64x2048xf32>
    %120 = stablehlo.multiply %118, %119 : tensor<4x64x2048xf32>
    %121 = stablehlo.multiply %120, %67 : tensor<4x64x2048xf32>
    %122 = stablehlo.add %120, %121 : tensor<4x64x2048xf32>
    %123 = stablehlo.multiply %122, %65 : tensor<4x64x2048xf32>
    %124 = stablehlo.add %116, %123 : tensor<4x64x2048xf32>
    %125 = stablehlo.multiply %123, %62 : tensor<4x64x2048xf32>
    %cst_8 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x64x2048xf32>
    %127 = stablehlo.multiply %60, %126 : tensor<4x64x2048xf32>
    %128 = stablehlo.multiply %125, %127 : tensor<4x64x2048xf32>
    %129 = stablehlo.add %124, %128 : tensor<4x64x2048xf32>
    %130 = stablehlo.dot_general %129, %57, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x64x2048xf32>, tensor<4x64x512xf32>) -> tensor<2048x512xf32>
    %131 = stablehlo.transpose %130, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %132 = stablehlo.reshape %131 : (tensor<512x2048xf32>) -> tensor<1x512x2048xf32>
    %133 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1x512x2048xf32>
    %134 = stablehlo.multiply %132, %133 : tensor<1x512x2048xf32>
    %135 = stablehlo.subtract %arg1, %134 : tensor<1x512x2048xf32>
    %136 = stablehlo.dot_general %114, %72, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<4x64x512xf32>, tensor<4x64x2048xf32>) -> tensor<512x2048xf32>
    %137 = stablehlo.transpose %136, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %138 = stablehlo.reshape %137 : (tensor<2048x512xf32>) -> tensor<1x2048x512xf32>
    %139 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1x2048x512xf32>
    %140 = stablehlo.multiply %138, %139 : tensor<1x2048x512xf32>
    %141 = stablehlo.subtract %arg2, %140 : tensor<1x2048x512xf32>
    %142 = stablehlo.multiply %78, %78 : tensor<256x512xf32>
    %143 = stablehlo.reduce(%142 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<256x512xf32>, tensor<f32>) -> tensor<f32>
    %cst_9 = stablehlo.constant dense<1.310720e+05> : tensor<f32>
    %144 = stablehlo.divide %143, %cst_9 : tensor<f32>
    %145 = "stablehlo.all_reduce"(%144) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %147 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %147 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %cst_10 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %146 = stablehlo.divide %145, %cst_10 : tensor<f32>
    return %110, %135, %141, %146 : tensor<512x4xf32>, tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>
  }
  func.func @main(%arg0: tensor<512x4xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<1x512x2048xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, %arg2: tensor<1x2048x512xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, %arg3: tensor<256x512xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg4: tensor<256x512xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<512x4xf32>, tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>) {
    %0:4 = call @xla.sdy.inlinable_manual_computation_body.13_spmd(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<512x4xf32>, tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<256x512xf32>, tensor<256x512xf32>) -> (tensor<512x4xf32>, tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>)
    return %0#0, %0#1, %0#2, %0#3 : tensor<512x4xf32>, tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>
  }
}
