module @jit_step attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
  sdy.mesh @mesh_2 = <["axis_0"=1, "axis_1"=4]>
  sdy.mesh @mesh_1 = <["axis_0"=4]>
  sdy.mesh @mesh = <["axis_0"=4, "axis_1"=1]>
  func.func private @region_0.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_1.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_2.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_2.0.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_3.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @add.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_4.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_4.0.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func @main(%arg0: tensor<256xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}, %arg1: tensor<64xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}, %arg2: tensor<64x1024xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg3: tensor<256x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg4: tensor<16x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg5: tensor<16x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<256xf32>, tensor<64xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<f32>) {
    %0 = "stablehlo.all_gather"(%arg2) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %1 = stablehlo.dot %arg4, %0, precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x1024xf32>) -> tensor<16x1024xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<256xf32>) -> tensor<1x256xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x256xf32>) -> tensor<256xf32>
    %5 = "stablehlo.all_gather"(%4) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<256xf32>) -> tensor<1024xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [1] : (tensor<1024xf32>) -> tensor<16x1024xf32>
    %7 = stablehlo.add %1, %6 : tensor<16x1024xf32>
    %8 = stablehlo.multiply %7, %7 : tensor<16x1024xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<16x1024xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %11 = stablehlo.multiply %9, %10 : tensor<16x1024xf32>
    %12 = stablehlo.add %7, %11 : tensor<16x1024xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %14 = stablehlo.multiply %12, %13 : tensor<16x1024xf32>
    %15 = stablehlo.tanh %14 : tensor<16x1024xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %17 = stablehlo.add %15, %16 : tensor<16x1024xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %19 = stablehlo.multiply %17, %18 : tensor<16x1024xf32>
    %20 = stablehlo.multiply %7, %19 : tensor<16x1024xf32>
    %21 = "stablehlo.all_gather"(%arg3) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<256x256xf32>) -> tensor<1024x256xf32>
    %22 = stablehlo.dot %20, %21, precision = [DEFAULT, DEFAULT] : (tensor<16x1024xf32>, tensor<1024x256xf32>) -> tensor<16x256xf32>
    %23 = stablehlo.reshape %arg1 : (tensor<64xf32>) -> tensor<1x64xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %25 = stablehlo.reshape %24 : (tensor<1x64xf32>) -> tensor<64xf32>
    %26 = "stablehlo.all_gather"(%25) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 4, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<64xf32>) -> tensor<256xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [1] : (tensor<256xf32>) -> tensor<16x256xf32>
    %28 = stablehlo.add %22, %27 : tensor<16x256xf32>
    %29 = stablehlo.subtract %28, %arg5 : tensor<16x256xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %31 = stablehlo.multiply %29, %30 : tensor<16x256xf32>
    %cst_4 = stablehlo.constant dense<6.10351563E-5> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %33 = stablehlo.multiply %31, %32 : tensor<16x256xf32>
    %34 = "stablehlo.all_gather"(%33) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 5, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<16x256xf32>) -> tensor<64x256xf32>
    %35 = stablehlo.dot_general %34, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
    %36 = stablehlo.reshape %19 : (tensor<16x1024xf32>) -> tensor<16x4x256xf32>
    %37 = "stablehlo.all_to_all"(%36) <{channel_handle = #stablehlo.channel_handle<handle = 6, type = 0>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<16x4x256xf32>) -> tensor<16x4x256xf32>
    %38 = stablehlo.transpose %37, dims = [1, 0, 2] {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,16,256]{2,0,1}"} : (tensor<16x4x256xf32>) -> tensor<4x16x256xf32>
    %39 = stablehlo.reshape %38 : (tensor<4x16x256xf32>) -> tensor<64x256xf32>
    %40 = stablehlo.multiply %35, %39 : tensor<64x256xf32>
    %41 = stablehlo.reshape %35 : (tensor<64x256xf32>) -> tensor<4x16x256xf32>
    %42 = "stablehlo.all_to_all"(%41) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 0>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
    %43 = stablehlo.transpose %42, dims = [1, 0, 2] {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[16,4,256]{2,0,1}"} : (tensor<4x16x256xf32>) -> tensor<16x4x256xf32>
    %44 = stablehlo.reshape %43 : (tensor<16x4x256xf32>) -> tensor<16x1024xf32>
    %45 = stablehlo.multiply %7, %44 : tensor<16x1024xf32>
    %46 = stablehlo.multiply %45, %18 : tensor<16x1024xf32>
    %47 = stablehlo.subtract %16, %15 : tensor<16x1024xf32>
    %48 = stablehlo.multiply %46, %47 : tensor<16x1024xf32>
    %49 = stablehlo.multiply %48, %15 : tensor<16x1024xf32>
    %50 = stablehlo.add %48, %49 : tensor<16x1024xf32>
    %51 = stablehlo.multiply %50, %13 : tensor<16x1024xf32>
    %52 = stablehlo.reshape %51 : (tensor<16x1024xf32>) -> tensor<16x4x256xf32>
    %53 = "stablehlo.all_to_all"(%52) <{channel_handle = #stablehlo.channel_handle<handle = 8, type = 0>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<16x4x256xf32>) -> tensor<16x4x256xf32>
    %54 = stablehlo.transpose %53, dims = [1, 0, 2] {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,16,256]{2,0,1}"} : (tensor<16x4x256xf32>) -> tensor<4x16x256xf32>
    %55 = stablehlo.reshape %54 : (tensor<4x16x256xf32>) -> tensor<64x256xf32>
    %56 = stablehlo.add %40, %55 : tensor<64x256xf32>
    %57 = stablehlo.multiply %51, %10 : tensor<16x1024xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %59 = stablehlo.multiply %8, %58 : tensor<16x1024xf32>
    %60 = stablehlo.multiply %57, %59 : tensor<16x1024xf32>
    %61 = stablehlo.reshape %60 : (tensor<16x1024xf32>) -> tensor<16x4x256xf32>
    %62 = "stablehlo.all_to_all"(%61) <{channel_handle = #stablehlo.channel_handle<handle = 9, type = 0>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<16x4x256xf32>) -> tensor<16x4x256xf32>
    %63 = stablehlo.transpose %62, dims = [1, 0, 2] {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,16,256]{2,0,1}"} : (tensor<16x4x256xf32>) -> tensor<4x16x256xf32>
    %64 = stablehlo.reshape %63 : (tensor<4x16x256xf32>) -> tensor<64x256xf32>
    %65 = stablehlo.add %56, %64 : tensor<64x256xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %66 = stablehlo.reduce(%65 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<64x256xf32>, tensor<f32>) -> tensor<256xf32>
    %67 = stablehlo.reshape %66 : (tensor<256xf32>) -> tensor<1x256xf32>
    %68 = stablehlo.reduce(%67 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x256xf32>, tensor<f32>) -> tensor<256xf32>
    %cst_7 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256xf32>
    %70 = stablehlo.multiply %68, %69 : tensor<256xf32>
    %71 = stablehlo.subtract %arg0, %70 : tensor<256xf32>
    %72 = stablehlo.reduce(%33 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<16x256xf32>, tensor<f32>) -> tensor<256xf32>
    %73 = "stablehlo.all_reduce"(%72) <{channel_handle = #stablehlo.channel_handle<handle = 10, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %106 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %106 : tensor<f32>
    }) : (tensor<256xf32>) -> tensor<256xf32>
    %c = stablehlo.constant dense<[0, 64, 128, 192]> : tensor<4xi32>
    %74 = stablehlo.partition_id : tensor<ui32>
    %75 = stablehlo.dynamic_slice %c, %74, sizes = [1] : (tensor<4xi32>, tensor<ui32>) -> tensor<1xi32>
    %76 = stablehlo.reshape %75 : (tensor<1xi32>) -> tensor<i32>
    %77 = stablehlo.dynamic_slice %73, %76, sizes = [64] : (tensor<256xf32>, tensor<i32>) -> tensor<64xf32>
    %78 = stablehlo.reshape %77 : (tensor<64xf32>) -> tensor<1x64xf32>
    %79 = stablehlo.reduce(%78 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %80 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %81 = stablehlo.multiply %79, %80 : tensor<64xf32>
    %82 = stablehlo.subtract %arg1, %81 : tensor<64xf32>
    %83 = "stablehlo.all_gather"(%65) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 11, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<64x256xf32>) -> tensor<64x1024xf32>
    %84 = stablehlo.reshape %arg4 : (tensor<16x256xf32>) -> tensor<16x4x64xf32>
    %85 = "stablehlo.all_to_all"(%84) <{channel_handle = #stablehlo.channel_handle<handle = 12, type = 0>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<16x4x64xf32>) -> tensor<16x4x64xf32>
    %86 = stablehlo.transpose %85, dims = [1, 0, 2] {result_layout = dense<[2, 0, 1]> : tensor<3xindex>, xla_shape = "f32[4,16,64]{2,0,1}"} : (tensor<16x4x64xf32>) -> tensor<4x16x64xf32>
    %87 = stablehlo.reshape %86 : (tensor<4x16x64xf32>) -> tensor<64x64xf32>
    %88 = stablehlo.dot_general %83, %87, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x1024xf32>, tensor<64x64xf32>) -> tensor<1024x64xf32>
    %89 = stablehlo.transpose %88, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,1024]{0,1}"} : (tensor<1024x64xf32>) -> tensor<64x1024xf32>
    %90 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %91 = stablehlo.multiply %89, %90 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,1024]{0,1}"} : tensor<64x1024xf32>
    %92 = stablehlo.subtract %arg2, %91 : tensor<64x1024xf32>
    %93 = stablehlo.dot_general %33, %20, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<16x1024xf32>) -> tensor<256x1024xf32>
    %94 = "stablehlo.all_reduce"(%93) <{channel_handle = #stablehlo.channel_handle<handle = 13, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %106 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %106 : tensor<f32>
    }) : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %c_9 = stablehlo.constant dense<[0, 256, 512, 768]> : tensor<4xi32>
    %95 = stablehlo.dynamic_slice %c_9, %74, sizes = [1] : (tensor<4xi32>, tensor<ui32>) -> tensor<1xi32>
    %96 = stablehlo.reshape %95 : (tensor<1xi32>) -> tensor<i32>
    %97 = stablehlo.dynamic_slice %94, %c_8, %96, sizes = [256, 256] : (tensor<256x1024xf32>, tensor<i32>, tensor<i32>) -> tensor<256x256xf32>
    %98 = stablehlo.transpose %97, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,256]{0,1}"} : (tensor<256x256xf32>) -> tensor<256x256xf32>
    %99 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256x256xf32>
    %100 = stablehlo.multiply %98, %99 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,256]{0,1}"} : tensor<256x256xf32>
    %101 = stablehlo.subtract %arg3, %100 : tensor<256x256xf32>
    %102 = stablehlo.multiply %29, %29 : tensor<16x256xf32>
    %103 = stablehlo.reduce(%102 init: %cst_6) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x256xf32>, tensor<f32>) -> tensor<f32>
    %104 = "stablehlo.all_reduce"(%103) <{channel_handle = #stablehlo.channel_handle<handle = 14, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %106 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %106 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %cst_10 = stablehlo.constant dense<1.638400e+04> : tensor<f32>
    %105 = stablehlo.divide %104, %cst_10 : tensor<f32>
    return %71, %82, %92, %101, %105 : tensor<256xf32>, tensor<64xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<f32>
  }
}
