module @jit_step attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
  sdy.mesh @mesh_1 = <["axis_0"=1, "axis_1"=8]>
  sdy.mesh @mesh = <["axis_0"=8, "axis_1"=1]>
  func.func private @region_0.1_spmd(%arg0: tensor<i32>, %arg1: tensor<8x256xf32>, %arg2: tensor<4x8x256xf32>, %arg3: tensor<4x8x256xf32>, %arg4: tensor<4x8x256xf32>, %arg5: tensor<4x8x256xf32>, %arg6: tensor<4x8x256xf32>, %arg7: tensor<4x8x256xf32>, %arg8: tensor<4x32x256xf32>) -> (tensor<i32>, tensor<8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x32x256xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_slice %arg8, %arg0, %c_0, %c_0, sizes = [1, 32, 256] : (tensor<4x32x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x256xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x32x256xf32>) -> tensor<32x256xf32>
    %3 = "stablehlo.all_gather"(%2) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<32x256xf32>) -> tensor<256x256xf32>
    %4 = stablehlo.dot %arg1, %3, precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %5 = stablehlo.multiply %4, %4 : tensor<8x256xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<8x256xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<8x256xf32>
    %9 = stablehlo.add %4, %8 : tensor<8x256xf32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %11 = stablehlo.multiply %9, %10 : tensor<8x256xf32>
    %12 = stablehlo.tanh %11 : tensor<8x256xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %14 = stablehlo.add %12, %13 : tensor<8x256xf32>
    %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %16 = stablehlo.multiply %14, %15 : tensor<8x256xf32>
    %17 = stablehlo.multiply %4, %16 : tensor<8x256xf32>
    %18 = stablehlo.reshape %arg1 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
    %19 = stablehlo.dynamic_update_slice %arg2, %18, %arg0, %c_0, %c_0 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
    %cst_4 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %21 = stablehlo.multiply %5, %20 : tensor<8x256xf32>
    %22 = stablehlo.reshape %21 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
    %23 = stablehlo.dynamic_update_slice %arg3, %22, %arg0, %c_0, %c_0 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
    %24 = stablehlo.reshape %12 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
    %25 = stablehlo.dynamic_update_slice %arg4, %24, %arg0, %c_0, %c_0 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
    %26 = stablehlo.subtract %13, %12 : tensor<8x256xf32>
    %27 = stablehlo.reshape %26 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
    %28 = stablehlo.dynamic_update_slice %arg5, %27, %arg0, %c_0, %c_0 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
    %29 = stablehlo.reshape %16 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
    %30 = stablehlo.dynamic_update_slice %arg6, %29, %arg0, %c_0, %c_0 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
    %31 = stablehlo.reshape %4 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
    %32 = stablehlo.dynamic_update_slice %arg7, %31, %arg0, %c_0, %c_0 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
    return %0, %17, %19, %23, %25, %28, %30, %32, %arg8 : tensor<i32>, tensor<8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x32x256xf32>
  }
  func.func private @region_1.2_spmd(%arg0: tensor<i32>, %arg1: tensor<8x256xf32>, %arg2: tensor<4x8x256xf32>, %arg3: tensor<4x8x256xf32>, %arg4: tensor<4x8x256xf32>, %arg5: tensor<4x8x256xf32>, %arg6: tensor<4x8x256xf32>, %arg7: tensor<4x8x256xf32>, %arg8: tensor<4x32x256xf32>) -> tensor<i1> {
    %c = stablehlo.constant dense<4> : tensor<i32>
    %0 = stablehlo.compare LT, %arg0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %0 : tensor<i1>
  }
  func.func private @add.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_2.3_spmd(%arg0: tensor<i32>, %arg1: tensor<8x256xf32>, %arg2: tensor<4x32x256xf32>, %arg3: tensor<4x8x256xf32>, %arg4: tensor<4x8x256xf32>, %arg5: tensor<4x8x256xf32>, %arg6: tensor<4x8x256xf32>, %arg7: tensor<4x8x256xf32>, %arg8: tensor<4x32x256xf32>, %arg9: tensor<4x8x256xf32>) -> (tensor<i32>, tensor<8x256xf32>, tensor<4x32x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x32x256xf32>, tensor<4x8x256xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %1 = stablehlo.subtract %c_0, %arg0 : tensor<i32>
    %2 = stablehlo.subtract %1, %c : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.dynamic_slice %arg3, %2, %c_1, %c_1, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
    %5 = stablehlo.multiply %arg1, %4 : tensor<8x256xf32>
    %6 = stablehlo.dynamic_slice %arg4, %2, %c_1, %c_1, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
    %8 = stablehlo.multiply %7, %arg1 : tensor<8x256xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %10 = stablehlo.multiply %8, %9 : tensor<8x256xf32>
    %11 = stablehlo.dynamic_slice %arg5, %2, %c_1, %c_1, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
    %12 = stablehlo.reshape %11 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
    %13 = stablehlo.multiply %10, %12 : tensor<8x256xf32>
    %14 = stablehlo.dynamic_slice %arg6, %2, %c_1, %c_1, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
    %15 = stablehlo.reshape %14 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
    %16 = stablehlo.multiply %13, %15 : tensor<8x256xf32>
    %17 = stablehlo.add %13, %16 : tensor<8x256xf32>
    %cst_2 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %19 = stablehlo.multiply %17, %18 : tensor<8x256xf32>
    %20 = stablehlo.add %5, %19 : tensor<8x256xf32>
    %cst_3 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %22 = stablehlo.multiply %19, %21 : tensor<8x256xf32>
    %23 = stablehlo.dynamic_slice %arg7, %2, %c_1, %c_1, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
    %24 = stablehlo.reshape %23 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
    %25 = stablehlo.multiply %22, %24 : tensor<8x256xf32>
    %26 = stablehlo.add %20, %25 : tensor<8x256xf32>
    %27 = stablehlo.dynamic_slice %arg8, %2, %c_1, %c_1, sizes = [1, 32, 256] : (tensor<4x32x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x256xf32>
    %28 = stablehlo.reshape %27 : (tensor<1x32x256xf32>) -> tensor<32x256xf32>
    %29 = "stablehlo.all_gather"(%28) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<32x256xf32>) -> tensor<256x256xf32>
    %30 = stablehlo.dot_general %26, %29, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
    %31 = stablehlo.dynamic_slice %arg9, %2, %c_1, %c_1, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
    %32 = stablehlo.reshape %31 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
    %33 = stablehlo.dot_general %26, %32, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<8x256xf32>) -> tensor<256x256xf32>
    %34 = "stablehlo.all_reduce"(%33) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %42 = stablehlo.add %arg10, %arg11 : tensor<f32>
      stablehlo.return %42 : tensor<f32>
    }) : (tensor<256x256xf32>) -> tensor<256x256xf32>
    %c_4 = stablehlo.constant dense<[0, 32, 64, 96, 128, 160, 192, 224]> : tensor<8xi32>
    %35 = stablehlo.partition_id : tensor<ui32>
    %36 = stablehlo.dynamic_slice %c_4, %35, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
    %37 = stablehlo.reshape %36 : (tensor<1xi32>) -> tensor<i32>
    %38 = stablehlo.dynamic_slice %34, %c_1, %37, sizes = [256, 32] : (tensor<256x256xf32>, tensor<i32>, tensor<i32>) -> tensor<256x32xf32>
    %39 = stablehlo.transpose %38, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,256]{0,1}"} : (tensor<256x32xf32>) -> tensor<32x256xf32>
    %40 = stablehlo.reshape %39 : (tensor<32x256xf32>) -> tensor<1x32x256xf32>
    %41 = stablehlo.dynamic_update_slice %arg2, %40, %2, %c_1, %c_1 : (tensor<4x32x256xf32>, tensor<1x32x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x32x256xf32>
    return %0, %30, %41, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9 : tensor<i32>, tensor<8x256xf32>, tensor<4x32x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x32x256xf32>, tensor<4x8x256xf32>
  }
  func.func private @region_3.4_spmd(%arg0: tensor<i32>, %arg1: tensor<8x256xf32>, %arg2: tensor<4x32x256xf32>, %arg3: tensor<4x8x256xf32>, %arg4: tensor<4x8x256xf32>, %arg5: tensor<4x8x256xf32>, %arg6: tensor<4x8x256xf32>, %arg7: tensor<4x8x256xf32>, %arg8: tensor<4x32x256xf32>, %arg9: tensor<4x8x256xf32>) -> tensor<i1> {
    %c = stablehlo.constant dense<4> : tensor<i32>
    %0 = stablehlo.compare LT, %arg0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %0 : tensor<i1>
  }
  func.func private @region_4.5(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_4.5.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func @main(%arg0: tensor<4x32x256xf32> {mhlo.sharding = "{devices=[1,8,1]<=[8]}"}, %arg1: tensor<8x256xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}) -> (tensor<4x32x256xf32>, tensor<f32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8x256xf32>
    %1:9 = stablehlo.while(%iterArg = %c, %iterArg_4 = %arg1, %iterArg_5 = %0, %iterArg_6 = %0, %iterArg_7 = %0, %iterArg_8 = %0, %iterArg_9 = %0, %iterArg_10 = %0, %iterArg_11 = %arg0) : tensor<i32>, tensor<8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x32x256xf32>
    cond {
      %c_12 = stablehlo.constant dense<4> : tensor<i32>
      %15 = stablehlo.compare LT, %iterArg, %c_12 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    } do {
      %c_12 = stablehlo.constant dense<1> : tensor<i32>
      %15 = stablehlo.add %iterArg, %c_12 : tensor<i32>
      %c_13 = stablehlo.constant dense<0> : tensor<i32>
      %16 = stablehlo.dynamic_slice %iterArg_11, %iterArg, %c_13, %c_13, sizes = [1, 32, 256] : (tensor<4x32x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x256xf32>
      %17 = stablehlo.reshape %16 : (tensor<1x32x256xf32>) -> tensor<32x256xf32>
      %18 = "stablehlo.all_gather"(%17) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<32x256xf32>) -> tensor<256x256xf32>
      %19 = stablehlo.dot %iterArg_4, %18, precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
      %20 = stablehlo.multiply %19, %19 : tensor<8x256xf32>
      %21 = stablehlo.multiply %20, %19 : tensor<8x256xf32>
      %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
      %22 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
      %23 = stablehlo.multiply %21, %22 : tensor<8x256xf32>
      %24 = stablehlo.add %19, %23 : tensor<8x256xf32>
      %cst_15 = stablehlo.constant dense<0.797884583> : tensor<f32>
      %25 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
      %26 = stablehlo.multiply %24, %25 : tensor<8x256xf32>
      %27 = stablehlo.tanh %26 : tensor<8x256xf32>
      %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %28 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
      %29 = stablehlo.add %27, %28 : tensor<8x256xf32>
      %cst_17 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %30 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
      %31 = stablehlo.multiply %29, %30 : tensor<8x256xf32>
      %32 = stablehlo.multiply %19, %31 : tensor<8x256xf32>
      %33 = stablehlo.reshape %iterArg_4 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
      %34 = stablehlo.dynamic_update_slice %iterArg_5, %33, %iterArg, %c_13, %c_13 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
      %cst_18 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
      %35 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
      %36 = stablehlo.multiply %20, %35 : tensor<8x256xf32>
      %37 = stablehlo.reshape %36 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
      %38 = stablehlo.dynamic_update_slice %iterArg_6, %37, %iterArg, %c_13, %c_13 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
      %39 = stablehlo.reshape %27 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
      %40 = stablehlo.dynamic_update_slice %iterArg_7, %39, %iterArg, %c_13, %c_13 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
      %41 = stablehlo.subtract %28, %27 : tensor<8x256xf32>
      %42 = stablehlo.reshape %41 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
      %43 = stablehlo.dynamic_update_slice %iterArg_8, %42, %iterArg, %c_13, %c_13 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
      %44 = stablehlo.reshape %31 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
      %45 = stablehlo.dynamic_update_slice %iterArg_9, %44, %iterArg, %c_13, %c_13 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
      %46 = stablehlo.reshape %19 : (tensor<8x256xf32>) -> tensor<1x8x256xf32>
      %47 = stablehlo.dynamic_update_slice %iterArg_10, %46, %iterArg, %c_13, %c_13 : (tensor<4x8x256xf32>, tensor<1x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x256xf32>
      stablehlo.return %15, %32, %34, %38, %40, %43, %45, %47, %iterArg_11 : tensor<i32>, tensor<8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x32x256xf32>
    }
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %3 = stablehlo.multiply %1#1, %2 : tensor<8x256xf32>
    %cst_1 = stablehlo.constant dense<6.10351563E-5> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
    %5 = stablehlo.multiply %3, %4 : tensor<8x256xf32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x32x256xf32>
    %7:10 = stablehlo.while(%iterArg = %c, %iterArg_4 = %5, %iterArg_5 = %6, %iterArg_6 = %1#6, %iterArg_7 = %1#7, %iterArg_8 = %1#5, %iterArg_9 = %1#4, %iterArg_10 = %1#3, %iterArg_11 = %arg0, %iterArg_12 = %1#2) : tensor<i32>, tensor<8x256xf32>, tensor<4x32x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x32x256xf32>, tensor<4x8x256xf32>
    cond {
      %c_13 = stablehlo.constant dense<4> : tensor<i32>
      %15 = stablehlo.compare LT, %iterArg, %c_13 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %15 : tensor<i1>
    } do {
      %c_13 = stablehlo.constant dense<1> : tensor<i32>
      %15 = stablehlo.add %iterArg, %c_13 : tensor<i32>
      %c_14 = stablehlo.constant dense<4> : tensor<i32>
      %16 = stablehlo.subtract %c_14, %iterArg : tensor<i32>
      %17 = stablehlo.subtract %16, %c_13 : tensor<i32>
      %c_15 = stablehlo.constant dense<0> : tensor<i32>
      %18 = stablehlo.dynamic_slice %iterArg_6, %17, %c_15, %c_15, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
      %19 = stablehlo.reshape %18 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
      %20 = stablehlo.multiply %iterArg_4, %19 : tensor<8x256xf32>
      %21 = stablehlo.dynamic_slice %iterArg_7, %17, %c_15, %c_15, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
      %22 = stablehlo.reshape %21 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
      %23 = stablehlo.multiply %22, %iterArg_4 : tensor<8x256xf32>
      %cst_16 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %24 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
      %25 = stablehlo.multiply %23, %24 : tensor<8x256xf32>
      %26 = stablehlo.dynamic_slice %iterArg_8, %17, %c_15, %c_15, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
      %27 = stablehlo.reshape %26 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
      %28 = stablehlo.multiply %25, %27 : tensor<8x256xf32>
      %29 = stablehlo.dynamic_slice %iterArg_9, %17, %c_15, %c_15, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
      %30 = stablehlo.reshape %29 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
      %31 = stablehlo.multiply %28, %30 : tensor<8x256xf32>
      %32 = stablehlo.add %28, %31 : tensor<8x256xf32>
      %cst_17 = stablehlo.constant dense<0.797884583> : tensor<f32>
      %33 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
      %34 = stablehlo.multiply %32, %33 : tensor<8x256xf32>
      %35 = stablehlo.add %20, %34 : tensor<8x256xf32>
      %cst_18 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<8x256xf32>
      %37 = stablehlo.multiply %34, %36 : tensor<8x256xf32>
      %38 = stablehlo.dynamic_slice %iterArg_10, %17, %c_15, %c_15, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
      %39 = stablehlo.reshape %38 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
      %40 = stablehlo.multiply %37, %39 : tensor<8x256xf32>
      %41 = stablehlo.add %35, %40 : tensor<8x256xf32>
      %42 = stablehlo.dynamic_slice %iterArg_11, %17, %c_15, %c_15, sizes = [1, 32, 256] : (tensor<4x32x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x256xf32>
      %43 = stablehlo.reshape %42 : (tensor<1x32x256xf32>) -> tensor<32x256xf32>
      %44 = "stablehlo.all_gather"(%43) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<32x256xf32>) -> tensor<256x256xf32>
      %45 = stablehlo.dot_general %41, %44, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<256x256xf32>) -> tensor<8x256xf32>
      %46 = stablehlo.dynamic_slice %iterArg_12, %17, %c_15, %c_15, sizes = [1, 8, 256] : (tensor<4x8x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x256xf32>
      %47 = stablehlo.reshape %46 : (tensor<1x8x256xf32>) -> tensor<8x256xf32>
      %48 = stablehlo.dot_general %41, %47, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x256xf32>, tensor<8x256xf32>) -> tensor<256x256xf32>
      %49 = "stablehlo.all_reduce"(%48) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %57 = stablehlo.add %arg2, %arg3 : tensor<f32>
        stablehlo.return %57 : tensor<f32>
      }) : (tensor<256x256xf32>) -> tensor<256x256xf32>
      %c_19 = stablehlo.constant dense<[0, 32, 64, 96, 128, 160, 192, 224]> : tensor<8xi32>
      %50 = stablehlo.partition_id : tensor<ui32>
      %51 = stablehlo.dynamic_slice %c_19, %50, sizes = [1] : (tensor<8xi32>, tensor<ui32>) -> tensor<1xi32>
      %52 = stablehlo.reshape %51 : (tensor<1xi32>) -> tensor<i32>
      %53 = stablehlo.dynamic_slice %49, %c_15, %52, sizes = [256, 32] : (tensor<256x256xf32>, tensor<i32>, tensor<i32>) -> tensor<256x32xf32>
      %54 = stablehlo.transpose %53, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[32,256]{0,1}"} : (tensor<256x32xf32>) -> tensor<32x256xf32>
      %55 = stablehlo.reshape %54 : (tensor<32x256xf32>) -> tensor<1x32x256xf32>
      %56 = stablehlo.dynamic_update_slice %iterArg_5, %55, %17, %c_15, %c_15 : (tensor<4x32x256xf32>, tensor<1x32x256xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x32x256xf32>
      stablehlo.return %15, %45, %56, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12 : tensor<i32>, tensor<8x256xf32>, tensor<4x32x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x8x256xf32>, tensor<4x32x256xf32>, tensor<4x8x256xf32>
    }
    %cst_2 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x32x256xf32>
    %9 = stablehlo.multiply %7#2, %8 : tensor<4x32x256xf32>
    %10 = stablehlo.subtract %arg0, %9 : tensor<4x32x256xf32>
    %11 = stablehlo.multiply %1#1, %1#1 : tensor<8x256xf32>
    %12 = stablehlo.reduce(%11 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x256xf32>, tensor<f32>) -> tensor<f32>
    %13 = "stablehlo.all_reduce"(%12) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 0>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %15 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %15 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %cst_3 = stablehlo.constant dense<1.638400e+04> : tensor<f32>
    %14 = stablehlo.divide %13, %cst_3 : tensor<f32>
    return %10, %14 : tensor<4x32x256xf32>, tensor<f32>
  }
}
