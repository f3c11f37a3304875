module @jit_step attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
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
  func.func private @region_3.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_4.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_5.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_6.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_7.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_8.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_9.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @xla.sdy.inlinable_manual_computation_body.11_spmd(%arg0: tensor<256xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x1024xf32>, %arg3: tensor<256x256xf32>, %arg4: tensor<16x256xf32>, %arg5: tensor<16x256xf32>) -> (tensor<256xf32>, tensor<64xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<f32>) {
    %0 = "stablehlo.all_gather"(%arg2) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<64x1024xf32>) -> tensor<256x1024xf32>
    %1 = stablehlo.dot %arg4, %0, precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x1024xf32>) -> tensor<16x1024xf32>
    %2 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<256xf32>) -> tensor<1024xf32>
    %3 = stablehlo.reshape %2 : (tensor<1024xf32>) -> tensor<1x1024xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x1024xf32>) -> tensor<1024xf32>
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
    %21 = "stablehlo.all_gather"(%arg3) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<256x256xf32>) -> tensor<1024x256xf32>
    %22 = stablehlo.dot %20, %21, precision = [DEFAULT, DEFAULT] : (tensor<16x1024xf32>, tensor<1024x256xf32>) -> tensor<16x256xf32>
    %23 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<64xf32>) -> tensor<256xf32>
    %24 = stablehlo.reshape %23 : (tensor<256xf32>) -> tensor<1x256xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %26 = stablehlo.reshape %25 : (tensor<1x256xf32>) -> tensor<256xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [1] : (tensor<256xf32>) -> tensor<16x256xf32>
    %28 = stablehlo.add %22, %27 : tensor<16x256xf32>
    %29 = stablehlo.subtract %28, %arg5 : tensor<16x256xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %31 = stablehlo.multiply %29, %30 : tensor<16x256xf32>
    %cst_4 = stablehlo.constant dense<6.10351563E-5> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %33 = stablehlo.multiply %31, %32 : tensor<16x256xf32>
    %34 = stablehlo.dot_general %33, %21, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<1024x256xf32>) -> tensor<16x1024xf32>
    %35 = stablehlo.multiply %34, %19 : tensor<16x1024xf32>
    %36 = stablehlo.multiply %7, %34 : tensor<16x1024xf32>
    %37 = stablehlo.multiply %36, %18 : tensor<16x1024xf32>
    %38 = stablehlo.subtract %16, %15 : tensor<16x1024xf32>
    %39 = stablehlo.multiply %37, %38 : tensor<16x1024xf32>
    %40 = stablehlo.multiply %39, %15 : tensor<16x1024xf32>
    %41 = stablehlo.add %39, %40 : tensor<16x1024xf32>
    %42 = stablehlo.multiply %41, %13 : tensor<16x1024xf32>
    %43 = stablehlo.add %35, %42 : tensor<16x1024xf32>
    %44 = stablehlo.multiply %42, %10 : tensor<16x1024xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %46 = stablehlo.multiply %8, %45 : tensor<16x1024xf32>
    %47 = stablehlo.multiply %44, %46 : tensor<16x1024xf32>
    %48 = stablehlo.add %43, %47 : tensor<16x1024xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<16x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %50 = stablehlo.reshape %49 : (tensor<1024xf32>) -> tensor<1x1024xf32>
    %51 = stablehlo.reduce(%50 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %52 = "stablehlo.reduce_scatter"(%51) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %80 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %80 : tensor<f32>
    }) : (tensor<1024xf32>) -> tensor<256xf32>
    %cst_7 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256xf32>
    %54 = stablehlo.multiply %52, %53 : tensor<256xf32>
    %55 = stablehlo.subtract %arg0, %54 : tensor<256xf32>
    %56 = stablehlo.reduce(%33 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<16x256xf32>, tensor<f32>) -> tensor<256xf32>
    %57 = stablehlo.reshape %56 : (tensor<256xf32>) -> tensor<1x256xf32>
    %58 = stablehlo.reduce(%57 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x256xf32>, tensor<f32>) -> tensor<256xf32>
    %59 = "stablehlo.reduce_scatter"(%58) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %80 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %80 : tensor<f32>
    }) : (tensor<256xf32>) -> tensor<64xf32>
    %60 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %61 = stablehlo.multiply %59, %60 : tensor<64xf32>
    %62 = stablehlo.subtract %arg1, %61 : tensor<64xf32>
    %63 = stablehlo.dot_general %48, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x1024xf32>, tensor<16x256xf32>) -> tensor<1024x256xf32>
    %64 = stablehlo.transpose %63, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,1024]{0,1}"} : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    %65 = "stablehlo.reduce_scatter"(%64) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %80 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %80 : tensor<f32>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,1024]{0,1}"} : (tensor<256x1024xf32>) -> tensor<64x1024xf32>
    %66 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<64x1024xf32>
    %67 = stablehlo.multiply %65, %66 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[64,1024]{0,1}"} : tensor<64x1024xf32>
    %68 = stablehlo.subtract %arg2, %67 : tensor<64x1024xf32>
    %69 = stablehlo.dot_general %33, %20, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<16x1024xf32>) -> tensor<256x1024xf32>
    %70 = stablehlo.transpose %69, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[1024,256]{0,1}"} : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %71 = "stablehlo.reduce_scatter"(%70) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %80 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %80 : tensor<f32>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,256]{0,1}"} : (tensor<1024x256xf32>) -> tensor<256x256xf32>
    %72 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256x256xf32>
    %73 = stablehlo.multiply %71, %72 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,256]{0,1}"} : tensor<256x256xf32>
    %74 = stablehlo.subtract %arg3, %73 : tensor<256x256xf32>
    %75 = stablehlo.multiply %29, %29 : tensor<16x256xf32>
    %76 = stablehlo.reduce(%75 init: %cst_6) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x256xf32>, tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %77 = stablehlo.divide %76, %cst_8 : tensor<f32>
    %78 = "stablehlo.all_reduce"(%77) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %80 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %80 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %cst_9 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %79 = stablehlo.divide %78, %cst_9 : tensor<f32>
    return %55, %62, %68, %74, %79 : tensor<256xf32>, tensor<64xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<f32>
  }
  func.func @main(%arg0: tensor<256xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}, %arg1: tensor<64xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}, %arg2: tensor<64x1024xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg3: tensor<256x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg4: tensor<16x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg5: tensor<16x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<256xf32>, tensor<64xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<f32>) {
    %0:5 = call @xla.sdy.inlinable_manual_computation_body.11_spmd(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (tensor<256xf32>, tensor<64xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<16x256xf32>, tensor<16x256xf32>) -> (tensor<256xf32>, tensor<64xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<f32>)
    return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<256xf32>, tensor<64xf32>, tensor<64x1024xf32>, tensor<256x256xf32>, tensor<f32>
  }
}
