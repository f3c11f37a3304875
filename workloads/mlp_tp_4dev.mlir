module @jit_step attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
  sdy.mesh @mesh = <["axis_0"=1, "axis_1"=4]>
  func.func private @add.clone(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
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
  func.func @main(%arg0: tensor<256xf32> {mhlo.sharding = "{devices=[4]<=[4]}"}, %arg1: tensor<256xf32> {mhlo.sharding = "{replicated}"}, %arg2: tensor<256x256xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg3: tensor<256x256xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg4: tensor<64x256xf32> {mhlo.sharding = "{replicated}"}, %arg5: tensor<64x256xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<f32>) {
    %0 = stablehlo.dot %arg4, %arg2, precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<256xf32>) -> tensor<1x256xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x256xf32>) -> tensor<256xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<256xf32>) -> tensor<64x256xf32>
    %5 = stablehlo.add %0, %4 : tensor<64x256xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<64x256xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<64x256xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %9 = stablehlo.multiply %7, %8 : tensor<64x256xf32>
    %10 = stablehlo.add %5, %9 : tensor<64x256xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<64x256xf32>
    %13 = stablehlo.tanh %12 : tensor<64x256xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %15 = stablehlo.add %13, %14 : tensor<64x256xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %17 = stablehlo.multiply %15, %16 : tensor<64x256xf32>
    %18 = stablehlo.multiply %5, %17 : tensor<64x256xf32>
    %19 = stablehlo.dot %18, %arg3, precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
    %20 = "stablehlo.all_reduce"(%19) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %71 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %71 : tensor<f32>
    }) : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %21 = stablehlo.reshape %arg1 : (tensor<256xf32>) -> tensor<1x256xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<1x256xf32>
    %23 = stablehlo.reshape %22 : (tensor<1x256xf32>) -> tensor<256xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [1] : (tensor<256xf32>) -> tensor<64x256xf32>
    %25 = stablehlo.add %20, %24 : tensor<64x256xf32>
    %26 = stablehlo.subtract %25, %arg5 : tensor<64x256xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %28 = stablehlo.multiply %26, %27 : tensor<64x256xf32>
    %cst_4 = stablehlo.constant dense<6.10351563E-5> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %30 = stablehlo.multiply %28, %29 : tensor<64x256xf32>
    %31 = stablehlo.dot_general %30, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
    %32 = stablehlo.multiply %31, %17 : tensor<64x256xf32>
    %33 = stablehlo.multiply %5, %31 : tensor<64x256xf32>
    %34 = stablehlo.multiply %33, %16 : tensor<64x256xf32>
    %35 = stablehlo.subtract %14, %13 : tensor<64x256xf32>
    %36 = stablehlo.multiply %34, %35 : tensor<64x256xf32>
    %37 = stablehlo.multiply %36, %13 : tensor<64x256xf32>
    %38 = stablehlo.add %36, %37 : tensor<64x256xf32>
    %39 = stablehlo.multiply %38, %11 : tensor<64x256xf32>
    %40 = stablehlo.add %32, %39 : tensor<64x256xf32>
    %41 = stablehlo.multiply %39, %8 : tensor<64x256xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<64x256xf32>
    %43 = stablehlo.multiply %6, %42 : tensor<64x256xf32>
    %44 = stablehlo.multiply %41, %43 : tensor<64x256xf32>
    %45 = stablehlo.add %40, %44 : tensor<64x256xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = stablehlo.reduce(%45 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<64x256xf32>, tensor<f32>) -> tensor<256xf32>
    %47 = stablehlo.reshape %46 : (tensor<256xf32>) -> tensor<1x256xf32>
    %48 = stablehlo.reduce(%47 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x256xf32>, tensor<f32>) -> tensor<256xf32>
    %cst_7 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256xf32>
    %50 = stablehlo.multiply %48, %49 : tensor<256xf32>
    %51 = stablehlo.subtract %arg0, %50 : tensor<256xf32>
    %52 = stablehlo.reduce(%30 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<64x256xf32>, tensor<f32>) -> tensor<256xf32>
    %53 = stablehlo.reshape %52 : (tensor<256xf32>) -> tensor<1x256xf32>
    %54 = stablehlo.reduce(%53 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x256xf32>, tensor<f32>) -> tensor<256xf32>
    %55 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256xf32>
    %56 = stablehlo.multiply %54, %55 : tensor<256xf32>
    %57 = stablehlo.subtract %arg1, %56 : tensor<256xf32>
    %58 = stablehlo.dot_general %45, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
    %59 = stablehlo.transpose %58, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,256]{0,1}"} : (tensor<256x256xf32>) -> tensor<256x256xf32>
    %60 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256x256xf32>
    %61 = stablehlo.multiply %59, %60 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,256]{0,1}"} : tensor<256x256xf32>
    %62 = stablehlo.subtract %arg2, %61 : tensor<256x256xf32>
    %63 = stablehlo.dot_general %30, %18, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>
    %64 = stablehlo.transpose %63, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,256]{0,1}"} : (tensor<256x256xf32>) -> tensor<256x256xf32>
    %65 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<256x256xf32>
    %66 = stablehlo.multiply %64, %65 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[256,256]{0,1}"} : tensor<256x256xf32>
    %67 = stablehlo.subtract %arg3, %66 : tensor<256x256xf32>
    %68 = stablehlo.multiply %26, %26 : tensor<64x256xf32>
    %69 = stablehlo.reduce(%68 init: %cst_6) applies stablehlo.add across dimensions = [0, 1] : (tensor<64x256xf32>, tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<1.638400e+04> : tensor<f32>
    %70 = stablehlo.divide %69, %cst_8 : tensor<f32>
    return %51, %57, %62, %67, %70 : tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<f32>
  }
}
