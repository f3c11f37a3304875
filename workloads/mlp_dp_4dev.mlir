module @jit_step attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
  sdy.mesh @mesh = <["axis_0"=4, "axis_1"=1]>
  func.func private @region_0.0(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_0.0.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
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
  func.func private @add.1.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
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
  func.func @main(%arg0: tensor<1024xf32> {mhlo.sharding = "{replicated}"}, %arg1: tensor<256xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<256x1024xf32> {mhlo.sharding = "{replicated}"}, %arg3: tensor<1024x256xf32> {mhlo.sharding = "{replicated}"}, %arg4: tensor<16x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg5: tensor<16x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<1024xf32>, tensor<256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>, tensor<f32>) {
    %0 = stablehlo.dot %arg4, %arg2, precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x1024xf32>) -> tensor<16x1024xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<1024xf32>) -> tensor<1x1024xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x1024xf32>) -> tensor<1024xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<1024xf32>) -> tensor<16x1024xf32>
    %5 = stablehlo.add %0, %4 : tensor<16x1024xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<16x1024xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<16x1024xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %9 = stablehlo.multiply %7, %8 : tensor<16x1024xf32>
    %10 = stablehlo.add %5, %9 : tensor<16x1024xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<16x1024xf32>
    %13 = stablehlo.tanh %12 : tensor<16x1024xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %15 = stablehlo.add %13, %14 : tensor<16x1024xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %17 = stablehlo.multiply %15, %16 : tensor<16x1024xf32>
    %18 = stablehlo.multiply %5, %17 : tensor<16x1024xf32>
    %19 = stablehlo.dot %18, %arg3, precision = [DEFAULT, DEFAULT] : (tensor<16x1024xf32>, tensor<1024x256xf32>) -> tensor<16x256xf32>
    %20 = stablehlo.reshape %arg1 : (tensor<256xf32>) -> tensor<1x256xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %22 = stablehlo.reshape %21 : (tensor<1x256xf32>) -> tensor<256xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [1] : (tensor<256xf32>) -> tensor<16x256xf32>
    %24 = stablehlo.add %19, %23 : tensor<16x256xf32>
    %25 = stablehlo.subtract %24, %arg5 : tensor<16x256xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %27 = stablehlo.multiply %25, %26 : tensor<16x256xf32>
    %cst_4 = stablehlo.constant dense<6.10351563E-5> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %29 = stablehlo.multiply %27, %28 : tensor<16x256xf32>
    %30 = stablehlo.dot_general %29, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<1024x256xf32>) -> tensor<16x1024xf32>
    %31 = stablehlo.multiply %30, %17 : tensor<16x1024xf32>
    %32 = stablehlo.multiply %5, %30 : tensor<16x1024xf32>
    %33 = stablehlo.multiply %32, %16 : tensor<16x1024xf32>
    %34 = stablehlo.subtract %14, %13 : tensor<16x1024xf32>
    %35 = stablehlo.multiply %33, %34 : tensor<16x1024xf32>
    %36 = stablehlo.multiply %35, %13 : tensor<16x1024xf32>
    %37 = stablehlo.add %35, %36 : tensor<16x1024xf32>
    %38 = stablehlo.multiply %37, %11 : tensor<16x1024xf32>
    %39 = stablehlo.add %31, %38 : tensor<16x1024xf32>
    %40 = stablehlo.multiply %38, %8 : tensor<16x1024xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x1024xf32>
    %42 = stablehlo.multiply %6, %41 : tensor<16x1024xf32>
    %43 = stablehlo.multiply %40, %42 : tensor<16x1024xf32>
    %44 = stablehlo.add %39, %43 : tensor<16x1024xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %45 = stablehlo.reduce(%44 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<16x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %46 = "stablehlo.all_reduce"(%45) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %75 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %75 : tensor<f32>
    }) : (tensor<1024xf32>) -> tensor<1024xf32>
    %47 = stablehlo.reshape %46 : (tensor<1024xf32>) -> tensor<1x1024xf32>
    %48 = stablehlo.reduce(%47 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    %cst_7 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1024xf32>
    %50 = stablehlo.multiply %48, %49 : tensor<1024xf32>
    %51 = stablehlo.subtract %arg0, %50 : tensor<1024xf32>
    %52 = stablehlo.reduce(%29 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<16x256xf32>, tensor<f32>) -> tensor<256xf32>
    %53 = "stablehlo.all_reduce"(%52) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %75 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %75 : tensor<f32>
    }) : (tensor<256xf32>) -> tensor<256xf32>
    %54 = stablehlo.reshape %53 : (tensor<256xf32>) -> tensor<1x256xf32>
    %55 = stablehlo.reduce(%54 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x256xf32>, tensor<f32>) -> tensor<256xf32>
    %56 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256xf32>
    %57 = stablehlo.multiply %55, %56 : tensor<256xf32>
    %58 = stablehlo.subtract %arg1, %57 : tensor<256xf32>
    %59 = stablehlo.dot_general %44, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x1024xf32>, tensor<16x256xf32>) -> tensor<1024x256xf32>
    %60 = "stablehlo.all_reduce"(%59) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %75 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %75 : tensor<f32>
    }) : (tensor<1024x256xf32>) -> tensor<1024x256xf32>
    %61 = stablehlo.transpose %60, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,1024]{0,1}"} : (tensor<1024x256xf32>) -> tensor<256x1024xf32>
    %62 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256x1024xf32>
    %63 = stablehlo.multiply %61, %62 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,1024]{0,1}"} : tensor<256x1024xf32>
    %64 = stablehlo.subtract %arg2, %63 : tensor<256x1024xf32>
    %65 = stablehlo.dot_general %29, %18, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<16x1024xf32>) -> tensor<256x1024xf32>
    %66 = "stablehlo.all_reduce"(%65) <{channel_handle = #stablehlo.channel_handle<handle = 4, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %75 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %75 : tensor<f32>
    }) : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %67 = stablehlo.transpose %66, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[1024,256]{0,1}"} : (tensor<256x1024xf32>) -> tensor<1024x256xf32>
    %68 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<1024x256xf32>
    %69 = stablehlo.multiply %67, %68 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[1024,256]{0,1}"} : tensor<1024x256xf32>
    %70 = stablehlo.subtract %arg3, %69 : tensor<1024x256xf32>
    %71 = stablehlo.multiply %25, %25 : tensor<16x256xf32>
    %72 = stablehlo.reduce(%71 init: %cst_6) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x256xf32>, tensor<f32>) -> tensor<f32>
    %73 = "stablehlo.all_reduce"(%72) <{channel_handle = #stablehlo.channel_handle<handle = 5, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %75 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %75 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<1.638400e+04> : tensor<f32>
    %74 = stablehlo.divide %73, %cst_8 : tensor<f32>
    return %51, %58, %64, %70, %74 : tensor<1024xf32>, tensor<256xf32>, tensor<256x1024xf32>, tensor<1024x256xf32>, tensor<f32>
  }
}
