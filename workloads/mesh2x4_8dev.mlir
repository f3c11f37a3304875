module @jit_step attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
  sdy.mesh @mesh = <["axis_0"=2, "axis_1"=1, "axis_2"=4]>
  func.func private @add.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @add.1.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @add.2.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_0.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_0.0.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func @main(%arg0: tensor<512x512xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg1: tensor<512x512xf32> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, %arg2: tensor<32x512xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, %arg3: tensor<32x512xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}) -> (tensor<512x512xf32>, tensor<512x512xf32>, tensor<f32>) {
    %0 = stablehlo.dot %arg2, %arg0, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x512xf32>) -> tensor<32x512xf32>
    %1 = stablehlo.multiply %0, %0 : tensor<32x512xf32>
    %2 = stablehlo.multiply %1, %0 : tensor<32x512xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x512xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<32x512xf32>
    %5 = stablehlo.add %0, %4 : tensor<32x512xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32x512xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<32x512xf32>
    %8 = stablehlo.tanh %7 : tensor<32x512xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<32x512xf32>
    %10 = stablehlo.add %8, %9 : tensor<32x512xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32x512xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<32x512xf32>
    %13 = stablehlo.multiply %0, %12 : tensor<32x512xf32>
    %14 = stablehlo.dot %13, %arg1, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x512xf32>) -> tensor<32x512xf32>
    %15 = "stablehlo.all_reduce"(%14) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %52 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %52 : tensor<f32>
    }) : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %16 = stablehlo.subtract %15, %arg3 : tensor<32x512xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<32x512xf32>
    %18 = stablehlo.multiply %16, %17 : tensor<32x512xf32>
    %cst_4 = stablehlo.constant dense<3.05175781E-5> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<32x512xf32>
    %20 = stablehlo.multiply %18, %19 : tensor<32x512xf32>
    %21 = stablehlo.dot_general %20, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x512xf32>) -> tensor<32x512xf32>
    %22 = stablehlo.multiply %21, %12 : tensor<32x512xf32>
    %23 = stablehlo.multiply %0, %21 : tensor<32x512xf32>
    %24 = stablehlo.multiply %23, %11 : tensor<32x512xf32>
    %25 = stablehlo.subtract %9, %8 : tensor<32x512xf32>
    %26 = stablehlo.multiply %24, %25 : tensor<32x512xf32>
    %27 = stablehlo.multiply %26, %8 : tensor<32x512xf32>
    %28 = stablehlo.add %26, %27 : tensor<32x512xf32>
    %29 = stablehlo.multiply %28, %6 : tensor<32x512xf32>
    %30 = stablehlo.add %22, %29 : tensor<32x512xf32>
    %31 = stablehlo.multiply %29, %3 : tensor<32x512xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<32x512xf32>
    %33 = stablehlo.multiply %1, %32 : tensor<32x512xf32>
    %34 = stablehlo.multiply %31, %33 : tensor<32x512xf32>
    %35 = stablehlo.add %30, %34 : tensor<32x512xf32>
    %36 = stablehlo.dot_general %35, %arg2, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x512xf32>) -> tensor<512x512xf32>
    %37 = "stablehlo.all_reduce"(%36) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %52 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %52 : tensor<f32>
    }) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %38 = stablehlo.transpose %37, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,512]{0,1}"} : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %cst_6 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<512x512xf32>
    %40 = stablehlo.multiply %38, %39 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,512]{0,1}"} : tensor<512x512xf32>
    %41 = stablehlo.subtract %arg0, %40 : tensor<512x512xf32>
    %42 = stablehlo.dot_general %20, %13, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x512xf32>) -> tensor<512x512xf32>
    %43 = "stablehlo.all_reduce"(%42) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %52 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %52 : tensor<f32>
    }) : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %44 = stablehlo.transpose %43, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,512]{0,1}"} : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %45 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<512x512xf32>
    %46 = stablehlo.multiply %44, %45 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,512]{0,1}"} : tensor<512x512xf32>
    %47 = stablehlo.subtract %arg1, %46 : tensor<512x512xf32>
    %48 = stablehlo.multiply %16, %16 : tensor<32x512xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_7) applies stablehlo.add across dimensions = [0, 1] : (tensor<32x512xf32>, tensor<f32>) -> tensor<f32>
    %50 = "stablehlo.all_reduce"(%49) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 0>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %52 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %52 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<3.276800e+04> : tensor<f32>
    %51 = stablehlo.divide %50, %cst_8 : tensor<f32>
    return %41, %47, %51 : tensor<512x512xf32>, tensor<512x512xf32>, tensor<f32>
  }
}
