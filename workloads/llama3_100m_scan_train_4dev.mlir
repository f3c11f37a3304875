module @jit_step attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
  func.func private @region_11.12(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_12.13(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_0.1(%arg0: tensor<i1>, %arg1: tensor<i1>) -> tensor<i1> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<i1>
    return %0 : tensor<i1>
  }
  func.func private @region_3.3(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_4.4(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_5.5(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_6.6(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_2.7_spmd(%arg0: tensor<i32>, %arg1: tensor<1x4096x576xbf16>, %arg2: tensor<7x1x4096x1152xbf16>, %arg3: tensor<7x1x4096x1152xbf16>, %arg4: tensor<7x1x4096x1152xbf16>, %arg5: tensor<7x1x4096x9x128xbf16>, %arg6: tensor<7x1x4096x576xbf16>, %arg7: tensor<7x1x4096x2016xbf16>, %arg8: tensor<7x1x4096x2016xbf16>, %arg9: tensor<7x1x4096x576xbf16>, %arg10: tensor<7x144xbf16>, %arg11: tensor<7x144x1152xbf16>, %arg12: tensor<7x144x1152xbf16>, %arg13: tensor<1x4096x1x64xf32>, %arg14: tensor<1x4096x1x64xf32>, %arg15: tensor<1x4096x1x64xf32>, %arg16: tensor<1x4096x1x64xf32>, %arg17: tensor<7x144x1152xbf16>, %arg18: tensor<1x4096x1x64xf32>, %arg19: tensor<1x4096x1x64xf32>, %arg20: tensor<1x4096x1x64xf32>, %arg21: tensor<1x4096x1x64xf32>, %arg22: tensor<1x9x4096x4096xi1>, %arg23: tensor<1x9x4096x4096xf32>, %arg24: tensor<7x288x576xbf16>, %arg25: tensor<7x144xbf16>, %arg26: tensor<7x144x2016xbf16>, %arg27: tensor<7x144x2016xbf16>, %arg28: tensor<7x504x576xbf16>) -> (tensor<i32>, tensor<1x4096x576xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x9x128xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<7x144x1152xbf16>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>, tensor<7x288x576xbf16>, tensor<7x144xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x504x576xbf16>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %1 = stablehlo.convert %arg1 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<1x4096x576xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %cst_0 = stablehlo.constant dense<5.760000e+02> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %6 = stablehlo.divide %4, %5 : tensor<1x4096x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %8 = stablehlo.add %6, %7 : tensor<1x4096x1xf32>
    %9 = stablehlo.rsqrt %8 : tensor<1x4096x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
    %11 = stablehlo.reshape %10 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
    %13 = stablehlo.multiply %1, %12 : tensor<1x4096x576xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.dynamic_slice %arg10, %arg0, %c_2, sizes = [1, 144] : (tensor<7x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x144xbf16>
    %15 = stablehlo.reshape %14 : (tensor<1x144xbf16>) -> tensor<144xbf16>
    %16 = "stablehlo.all_gather"(%15) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144xbf16>) -> tensor<576xbf16>
    %17 = stablehlo.convert %16 : (tensor<576xbf16>) -> tensor<576xf32>
    %18 = stablehlo.reshape %17 : (tensor<576xf32>) -> tensor<1x1x576xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x576xf32>) -> tensor<1x1x576xf32>
    %20 = stablehlo.reshape %19 : (tensor<1x1x576xf32>) -> tensor<1x576xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 2] : (tensor<1x576xf32>) -> tensor<1x4096x576xf32>
    %22 = stablehlo.multiply %13, %21 : tensor<1x4096x576xf32>
    %23 = stablehlo.convert %22 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
    %24 = stablehlo.dynamic_slice %arg11, %arg0, %c_2, %c_2, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
    %25 = stablehlo.reshape %24 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
    %26 = "stablehlo.all_gather"(%25) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
    %27 = stablehlo.dot_general %23, %26, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x1152xbf16>
    %28 = stablehlo.reduce_precision %27, format = e8m7 : tensor<1x4096x1152xbf16>
    %29 = stablehlo.reshape %28 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
    %30 = stablehlo.dynamic_slice %arg12, %arg0, %c_2, %c_2, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
    %31 = stablehlo.reshape %30 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
    %32 = "stablehlo.all_gather"(%31) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
    %33 = stablehlo.dot_general %23, %32, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x1152xbf16>
    %34 = stablehlo.reduce_precision %33, format = e8m7 : tensor<1x4096x1152xbf16>
    %35 = stablehlo.reshape %34 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
    %36 = stablehlo.convert %35 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
    %37 = stablehlo.slice %36 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %38 = stablehlo.broadcast_in_dim %arg13, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %39 = stablehlo.reshape %38 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %41 = stablehlo.multiply %37, %40 : tensor<1x4096x9x64xf32>
    %42 = stablehlo.slice %36 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %43 = stablehlo.broadcast_in_dim %arg14, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %44 = stablehlo.reshape %43 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %46 = stablehlo.multiply %42, %45 : tensor<1x4096x9x64xf32>
    %47 = stablehlo.subtract %41, %46 : tensor<1x4096x9x64xf32>
    %48 = stablehlo.broadcast_in_dim %arg15, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %49 = stablehlo.reshape %48 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %51 = stablehlo.multiply %42, %50 : tensor<1x4096x9x64xf32>
    %52 = stablehlo.broadcast_in_dim %arg16, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %53 = stablehlo.reshape %52 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %55 = stablehlo.multiply %37, %54 : tensor<1x4096x9x64xf32>
    %56 = stablehlo.add %51, %55 : tensor<1x4096x9x64xf32>
    %57 = stablehlo.concatenate %47, %56, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
    %58 = stablehlo.convert %57 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
    %59 = stablehlo.dynamic_slice %arg17, %arg0, %c_2, %c_2, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
    %60 = stablehlo.reshape %59 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
    %61 = "stablehlo.all_gather"(%60) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
    %62 = stablehlo.dot_general %23, %61, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x1152xbf16>
    %63 = stablehlo.reduce_precision %62, format = e8m7 : tensor<1x4096x1152xbf16>
    %64 = stablehlo.reshape %63 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
    %65 = stablehlo.convert %64 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
    %66 = stablehlo.slice %65 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %67 = stablehlo.broadcast_in_dim %arg18, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %68 = stablehlo.reshape %67 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %70 = stablehlo.multiply %66, %69 : tensor<1x4096x9x64xf32>
    %71 = stablehlo.slice %65 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %72 = stablehlo.broadcast_in_dim %arg19, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %73 = stablehlo.reshape %72 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %75 = stablehlo.multiply %71, %74 : tensor<1x4096x9x64xf32>
    %76 = stablehlo.subtract %70, %75 : tensor<1x4096x9x64xf32>
    %77 = stablehlo.broadcast_in_dim %arg20, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %78 = stablehlo.reshape %77 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %80 = stablehlo.multiply %71, %79 : tensor<1x4096x9x64xf32>
    %81 = stablehlo.broadcast_in_dim %arg21, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %82 = stablehlo.reshape %81 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %84 = stablehlo.multiply %66, %83 : tensor<1x4096x9x64xf32>
    %85 = stablehlo.add %80, %84 : tensor<1x4096x9x64xf32>
    %86 = stablehlo.concatenate %76, %85, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
    %87 = stablehlo.convert %86 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
    %88 = stablehlo.dot_general %58, %87, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x9x128xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x4096xbf16>
    %cst_3 = stablehlo.constant dense<1.131250e+01> : tensor<bf16>
    %89 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<bf16>) -> tensor<1x9x4096x4096xbf16>
    %90 = stablehlo.divide %88, %89 : tensor<1x9x4096x4096xbf16>
    %91 = stablehlo.convert %90 : (tensor<1x9x4096x4096xbf16>) -> tensor<1x9x4096x4096xf32>
    %92 = stablehlo.select %arg22, %91, %arg23 : tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x9x4096xf32>
    %94 = stablehlo.reduce(%92 init: %cst_4) applies stablehlo.maximum across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
    %95 = stablehlo.maximum %93, %94 : tensor<1x9x4096xf32>
    %96 = stablehlo.reshape %95 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
    %98 = stablehlo.reshape %97 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
    %99 = stablehlo.broadcast_in_dim %98, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
    %100 = stablehlo.subtract %92, %99 : tensor<1x9x4096x4096xf32>
    %101 = stablehlo.exponential %100 : tensor<1x9x4096x4096xf32>
    %102 = stablehlo.reduce(%101 init: %cst) applies stablehlo.add across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
    %103 = stablehlo.reshape %102 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
    %105 = stablehlo.reshape %104 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
    %107 = stablehlo.divide %101, %106 : tensor<1x9x4096x4096xf32>
    %108 = stablehlo.convert %107 : (tensor<1x9x4096x4096xf32>) -> tensor<1x9x4096x4096xbf16>
    %109 = stablehlo.dot_general %29, %108, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x9x128xbf16>, tensor<1x9x4096x4096xbf16>) -> tensor<1x9x128x4096xbf16>
    %110 = stablehlo.transpose %109, dims = [0, 3, 1, 2] {result_layout = dense<[1, 3, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{1,3,2,0}"} : (tensor<1x9x128x4096xbf16>) -> tensor<1x4096x9x128xbf16>
    %111 = stablehlo.reduce_precision %110, format = e8m7 {result_layout = dense<[1, 3, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{1,3,2,0}"} : tensor<1x4096x9x128xbf16>
    %112 = stablehlo.reshape %111 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
    %113 = stablehlo.dynamic_slice %arg24, %arg0, %c_2, %c_2, sizes = [1, 288, 576] : (tensor<7x288x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x288x576xbf16>
    %114 = stablehlo.reshape %113 : (tensor<1x288x576xbf16>) -> tensor<288x576xbf16>
    %115 = "stablehlo.all_gather"(%114) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<288x576xbf16>) -> tensor<1152x576xbf16>
    %116 = stablehlo.dot_general %112, %115, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<1152x576xbf16>) -> tensor<1x4096x576xbf16>
    %117 = stablehlo.reduce_precision %116, format = e8m7 : tensor<1x4096x576xbf16>
    %118 = stablehlo.add %arg1, %117 : tensor<1x4096x576xbf16>
    %119 = stablehlo.convert %118 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
    %120 = stablehlo.multiply %119, %119 : tensor<1x4096x576xf32>
    %121 = stablehlo.reduce(%120 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %122 = stablehlo.reshape %121 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %123 = stablehlo.divide %122, %5 : tensor<1x4096x1xf32>
    %124 = stablehlo.add %123, %7 : tensor<1x4096x1xf32>
    %125 = stablehlo.rsqrt %124 : tensor<1x4096x1xf32>
    %126 = stablehlo.broadcast_in_dim %125, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
    %127 = stablehlo.reshape %126 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
    %128 = stablehlo.broadcast_in_dim %127, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
    %129 = stablehlo.multiply %119, %128 : tensor<1x4096x576xf32>
    %130 = stablehlo.dynamic_slice %arg25, %arg0, %c_2, sizes = [1, 144] : (tensor<7x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x144xbf16>
    %131 = stablehlo.reshape %130 : (tensor<1x144xbf16>) -> tensor<144xbf16>
    %132 = "stablehlo.all_gather"(%131) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144xbf16>) -> tensor<576xbf16>
    %133 = stablehlo.convert %132 : (tensor<576xbf16>) -> tensor<576xf32>
    %134 = stablehlo.reshape %133 : (tensor<576xf32>) -> tensor<1x1x576xf32>
    %135 = stablehlo.broadcast_in_dim %134, dims = [0, 1, 2] : (tensor<1x1x576xf32>) -> tensor<1x1x576xf32>
    %136 = stablehlo.reshape %135 : (tensor<1x1x576xf32>) -> tensor<1x576xf32>
    %137 = stablehlo.broadcast_in_dim %136, dims = [0, 2] : (tensor<1x576xf32>) -> tensor<1x4096x576xf32>
    %138 = stablehlo.multiply %129, %137 : tensor<1x4096x576xf32>
    %139 = stablehlo.convert %138 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
    %140 = stablehlo.dynamic_slice %arg26, %arg0, %c_2, %c_2, sizes = [1, 144, 2016] : (tensor<7x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x2016xbf16>
    %141 = stablehlo.reshape %140 : (tensor<1x144x2016xbf16>) -> tensor<144x2016xbf16>
    %142 = "stablehlo.all_gather"(%141) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x2016xbf16>) -> tensor<576x2016xbf16>
    %143 = stablehlo.dot_general %139, %142, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x2016xbf16>) -> tensor<1x4096x2016xbf16>
    %144 = stablehlo.reduce_precision %143, format = e8m7 : tensor<1x4096x2016xbf16>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %145 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<1x4096x2016xbf16>
    %146 = stablehlo.negate %144 : tensor<1x4096x2016xbf16>
    %147 = stablehlo.exponential %146 : tensor<1x4096x2016xbf16>
    %148 = stablehlo.add %147, %145 : tensor<1x4096x2016xbf16>
    %149 = stablehlo.divide %145, %148 : tensor<1x4096x2016xbf16>
    %150 = stablehlo.multiply %144, %149 : tensor<1x4096x2016xbf16>
    %151 = stablehlo.dynamic_slice %arg27, %arg0, %c_2, %c_2, sizes = [1, 144, 2016] : (tensor<7x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x2016xbf16>
    %152 = stablehlo.reshape %151 : (tensor<1x144x2016xbf16>) -> tensor<144x2016xbf16>
    %153 = "stablehlo.all_gather"(%152) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x2016xbf16>) -> tensor<576x2016xbf16>
    %154 = stablehlo.dot_general %139, %153, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x2016xbf16>) -> tensor<1x4096x2016xbf16>
    %155 = stablehlo.reduce_precision %154, format = e8m7 : tensor<1x4096x2016xbf16>
    %156 = stablehlo.multiply %150, %155 : tensor<1x4096x2016xbf16>
    %157 = stablehlo.dynamic_slice %arg28, %arg0, %c_2, %c_2, sizes = [1, 504, 576] : (tensor<7x504x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x504x576xbf16>
    %158 = stablehlo.reshape %157 : (tensor<1x504x576xbf16>) -> tensor<504x576xbf16>
    %159 = "stablehlo.all_gather"(%158) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<504x576xbf16>) -> tensor<2016x576xbf16>
    %160 = stablehlo.dot_general %156, %159, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<2016x576xbf16>) -> tensor<1x4096x576xbf16>
    %161 = stablehlo.add %118, %160 : tensor<1x4096x576xbf16>
    %162 = stablehlo.reshape %34 : (tensor<1x4096x1152xbf16>) -> tensor<1x1x4096x1152xbf16>
    %163 = stablehlo.dynamic_update_slice %arg2, %162, %arg0, %c_2, %c_2, %c_2 : (tensor<7x1x4096x1152xbf16>, tensor<1x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x1152xbf16>
    %164 = stablehlo.reshape %63 : (tensor<1x4096x1152xbf16>) -> tensor<1x1x4096x1152xbf16>
    %165 = stablehlo.dynamic_update_slice %arg3, %164, %arg0, %c_2, %c_2, %c_2 : (tensor<7x1x4096x1152xbf16>, tensor<1x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x1152xbf16>
    %166 = stablehlo.reshape %28 : (tensor<1x4096x1152xbf16>) -> tensor<1x1x4096x1152xbf16>
    %167 = stablehlo.dynamic_update_slice %arg4, %166, %arg0, %c_2, %c_2, %c_2 : (tensor<7x1x4096x1152xbf16>, tensor<1x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x1152xbf16>
    %168 = stablehlo.reshape %111 : (tensor<1x4096x9x128xbf16>) -> tensor<1x1x4096x9x128xbf16>
    %169 = stablehlo.dynamic_update_slice %arg5, %168, %arg0, %c_2, %c_2, %c_2, %c_2 : (tensor<7x1x4096x9x128xbf16>, tensor<1x1x4096x9x128xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x9x128xbf16>
    %170 = stablehlo.reshape %117 : (tensor<1x4096x576xbf16>) -> tensor<1x1x4096x576xbf16>
    %171 = stablehlo.dynamic_update_slice %arg6, %170, %arg0, %c_2, %c_2, %c_2 : (tensor<7x1x4096x576xbf16>, tensor<1x1x4096x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x576xbf16>
    %172 = stablehlo.reshape %144 : (tensor<1x4096x2016xbf16>) -> tensor<1x1x4096x2016xbf16>
    %173 = stablehlo.dynamic_update_slice %arg7, %172, %arg0, %c_2, %c_2, %c_2 : (tensor<7x1x4096x2016xbf16>, tensor<1x1x4096x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x2016xbf16>
    %174 = stablehlo.reshape %155 : (tensor<1x4096x2016xbf16>) -> tensor<1x1x4096x2016xbf16>
    %175 = stablehlo.dynamic_update_slice %arg8, %174, %arg0, %c_2, %c_2, %c_2 : (tensor<7x1x4096x2016xbf16>, tensor<1x1x4096x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x2016xbf16>
    %176 = stablehlo.reshape %arg1 : (tensor<1x4096x576xbf16>) -> tensor<1x1x4096x576xbf16>
    %177 = stablehlo.dynamic_update_slice %arg9, %176, %arg0, %c_2, %c_2, %c_2 : (tensor<7x1x4096x576xbf16>, tensor<1x1x4096x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x576xbf16>
    return %0, %161, %163, %165, %167, %169, %171, %173, %175, %177, %arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16, %arg17, %arg18, %arg19, %arg20, %arg21, %arg22, %arg23, %arg24, %arg25, %arg26, %arg27, %arg28 : tensor<i32>, tensor<1x4096x576xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x9x128xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<7x144x1152xbf16>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>, tensor<7x288x576xbf16>, tensor<7x144xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x504x576xbf16>
  }
  func.func private @region_7.8_spmd(%arg0: tensor<i32>, %arg1: tensor<1x4096x576xbf16>, %arg2: tensor<7x1x4096x1152xbf16>, %arg3: tensor<7x1x4096x1152xbf16>, %arg4: tensor<7x1x4096x1152xbf16>, %arg5: tensor<7x1x4096x9x128xbf16>, %arg6: tensor<7x1x4096x576xbf16>, %arg7: tensor<7x1x4096x2016xbf16>, %arg8: tensor<7x1x4096x2016xbf16>, %arg9: tensor<7x1x4096x576xbf16>, %arg10: tensor<7x144xbf16>, %arg11: tensor<7x144x1152xbf16>, %arg12: tensor<7x144x1152xbf16>, %arg13: tensor<1x4096x1x64xf32>, %arg14: tensor<1x4096x1x64xf32>, %arg15: tensor<1x4096x1x64xf32>, %arg16: tensor<1x4096x1x64xf32>, %arg17: tensor<7x144x1152xbf16>, %arg18: tensor<1x4096x1x64xf32>, %arg19: tensor<1x4096x1x64xf32>, %arg20: tensor<1x4096x1x64xf32>, %arg21: tensor<1x4096x1x64xf32>, %arg22: tensor<1x9x4096x4096xi1>, %arg23: tensor<1x9x4096x4096xf32>, %arg24: tensor<7x288x576xbf16>, %arg25: tensor<7x144xbf16>, %arg26: tensor<7x144x2016xbf16>, %arg27: tensor<7x144x2016xbf16>, %arg28: tensor<7x504x576xbf16>) -> tensor<i1> {
    %c = stablehlo.constant dense<7> : tensor<i32>
    %0 = stablehlo.compare LT, %arg0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %0 : tensor<i1>
  }
  func.func private @region_8.9(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_9.10(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_10.11(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_13.14(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_14.15(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_15.16(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_17.17(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_18.18(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_19.19(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_20.20(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_21.21(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_22.22(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_23.23(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_24.24(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_25.25(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_26.26(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_27.27(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_28.28(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_29.29(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_30.30(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_31.31(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_32.32(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_33.33(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_34.34(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_35.35(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_36.36(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_37.37(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_38.38(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_39.39(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_40.40(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_41.41(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_16.42_spmd(%arg0: tensor<i32>, %arg1: tensor<1x4096x576xbf16>, %arg2: tensor<7x144xbf16>, %arg3: tensor<7x144xbf16>, %arg4: tensor<7x504x576xbf16>, %arg5: tensor<7x144x2016xbf16>, %arg6: tensor<7x144x2016xbf16>, %arg7: tensor<7x144x1152xbf16>, %arg8: tensor<7x288x576xbf16>, %arg9: tensor<7x144x1152xbf16>, %arg10: tensor<7x144x1152xbf16>, %arg11: tensor<7x1x4096x1152xbf16>, %arg12: tensor<7x1x4096x1152xbf16>, %arg13: tensor<7x1x4096x1152xbf16>, %arg14: tensor<7x1x4096x9x128xbf16>, %arg15: tensor<7x1x4096x576xbf16>, %arg16: tensor<7x1x4096x2016xbf16>, %arg17: tensor<7x1x4096x2016xbf16>, %arg18: tensor<7x1x4096x576xbf16>, %arg19: tensor<7x144xbf16>, %arg20: tensor<7x144xbf16>, %arg21: tensor<7x504x576xbf16>, %arg22: tensor<7x144x2016xbf16>, %arg23: tensor<7x144x2016xbf16>, %arg24: tensor<7x144x1152xbf16>, %arg25: tensor<7x288x576xbf16>, %arg26: tensor<7x144x1152xbf16>, %arg27: tensor<7x144x1152xbf16>) -> (tensor<i32>, tensor<1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x9x128xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<7> : tensor<i32>
    %1 = stablehlo.subtract %c_0, %arg0 : tensor<i32>
    %2 = stablehlo.subtract %1, %c : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.dynamic_slice %arg11, %2, %c_1, %c_1, %c_1, sizes = [1, 1, 4096, 1152] : (tensor<7x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x1152xbf16>
    %4 = stablehlo.reshape %3 : (tensor<1x1x4096x1152xbf16>) -> tensor<1x4096x1152xbf16>
    %5 = stablehlo.dynamic_slice %arg12, %2, %c_1, %c_1, %c_1, sizes = [1, 1, 4096, 1152] : (tensor<7x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x1152xbf16>
    %6 = stablehlo.reshape %5 : (tensor<1x1x4096x1152xbf16>) -> tensor<1x4096x1152xbf16>
    %7 = stablehlo.dynamic_slice %arg13, %2, %c_1, %c_1, %c_1, sizes = [1, 1, 4096, 1152] : (tensor<7x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x1152xbf16>
    %8 = stablehlo.reshape %7 : (tensor<1x1x4096x1152xbf16>) -> tensor<1x4096x1152xbf16>
    %9 = stablehlo.dynamic_slice %arg14, %2, %c_1, %c_1, %c_1, %c_1, sizes = [1, 1, 4096, 9, 128] : (tensor<7x1x4096x9x128xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x9x128xbf16>
    %10 = stablehlo.reshape %9 : (tensor<1x1x4096x9x128xbf16>) -> tensor<1x4096x9x128xbf16>
    %11 = stablehlo.dynamic_slice %arg15, %2, %c_1, %c_1, %c_1, sizes = [1, 1, 4096, 576] : (tensor<7x1x4096x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x576xbf16>
    %12 = stablehlo.reshape %11 : (tensor<1x1x4096x576xbf16>) -> tensor<1x4096x576xbf16>
    %13 = stablehlo.dynamic_slice %arg16, %2, %c_1, %c_1, %c_1, sizes = [1, 1, 4096, 2016] : (tensor<7x1x4096x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x2016xbf16>
    %14 = stablehlo.reshape %13 : (tensor<1x1x4096x2016xbf16>) -> tensor<1x4096x2016xbf16>
    %15 = stablehlo.dynamic_slice %arg17, %2, %c_1, %c_1, %c_1, sizes = [1, 1, 4096, 2016] : (tensor<7x1x4096x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x2016xbf16>
    %16 = stablehlo.reshape %15 : (tensor<1x1x4096x2016xbf16>) -> tensor<1x4096x2016xbf16>
    %17 = stablehlo.dynamic_slice %arg18, %2, %c_1, %c_1, %c_1, sizes = [1, 1, 4096, 576] : (tensor<7x1x4096x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x576xbf16>
    %18 = stablehlo.reshape %17 : (tensor<1x1x4096x576xbf16>) -> tensor<1x4096x576xbf16>
    %19 = stablehlo.dynamic_slice %arg19, %2, %c_1, sizes = [1, 144] : (tensor<7x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x144xbf16>
    %20 = stablehlo.reshape %19 : (tensor<1x144xbf16>) -> tensor<144xbf16>
    %21 = stablehlo.dynamic_slice %arg20, %2, %c_1, sizes = [1, 144] : (tensor<7x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x144xbf16>
    %22 = stablehlo.reshape %21 : (tensor<1x144xbf16>) -> tensor<144xbf16>
    %23 = stablehlo.dynamic_slice %arg21, %2, %c_1, %c_1, sizes = [1, 504, 576] : (tensor<7x504x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x504x576xbf16>
    %24 = stablehlo.reshape %23 : (tensor<1x504x576xbf16>) -> tensor<504x576xbf16>
    %25 = stablehlo.dynamic_slice %arg22, %2, %c_1, %c_1, sizes = [1, 144, 2016] : (tensor<7x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x2016xbf16>
    %26 = stablehlo.reshape %25 : (tensor<1x144x2016xbf16>) -> tensor<144x2016xbf16>
    %27 = stablehlo.dynamic_slice %arg23, %2, %c_1, %c_1, sizes = [1, 144, 2016] : (tensor<7x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x2016xbf16>
    %28 = stablehlo.reshape %27 : (tensor<1x144x2016xbf16>) -> tensor<144x2016xbf16>
    %29 = stablehlo.dynamic_slice %arg24, %2, %c_1, %c_1, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
    %30 = stablehlo.reshape %29 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
    %31 = stablehlo.dynamic_slice %arg25, %2, %c_1, %c_1, sizes = [1, 288, 576] : (tensor<7x288x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x288x576xbf16>
    %32 = stablehlo.reshape %31 : (tensor<1x288x576xbf16>) -> tensor<288x576xbf16>
    %33 = stablehlo.dynamic_slice %arg26, %2, %c_1, %c_1, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
    %34 = stablehlo.reshape %33 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
    %35 = stablehlo.dynamic_slice %arg27, %2, %c_1, %c_1, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
    %36 = stablehlo.reshape %35 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
    %37:18 = stablehlo.optimization_barrier %4, %6, %8, %10, %12, %14, %16, %18, %20, %22, %24, %26, %28, %30, %32, %34, %36, %arg1 : tensor<1x4096x1152xbf16>, tensor<1x4096x1152xbf16>, tensor<1x4096x1152xbf16>, tensor<1x4096x9x128xbf16>, tensor<1x4096x576xbf16>, tensor<1x4096x2016xbf16>, tensor<1x4096x2016xbf16>, tensor<1x4096x576xbf16>, tensor<144xbf16>, tensor<144xbf16>, tensor<504x576xbf16>, tensor<144x2016xbf16>, tensor<144x2016xbf16>, tensor<144x1152xbf16>, tensor<288x576xbf16>, tensor<144x1152xbf16>, tensor<144x1152xbf16>, tensor<1x4096x576xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %38 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<1x4096x2016xbf16>
    %39 = stablehlo.negate %37#5 : tensor<1x4096x2016xbf16>
    %40 = stablehlo.exponential %39 : tensor<1x4096x2016xbf16>
    %41 = stablehlo.add %40, %38 : tensor<1x4096x2016xbf16>
    %42 = stablehlo.divide %38, %41 : tensor<1x4096x2016xbf16>
    %43 = stablehlo.multiply %37#5, %42 : tensor<1x4096x2016xbf16>
    %44 = "stablehlo.all_gather"(%37#10) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<504x576xbf16>) -> tensor<2016x576xbf16>
    %45 = stablehlo.dot_general %37#17, %44, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<2016x576xbf16>) -> tensor<1x4096x2016xbf16>
    %46 = stablehlo.multiply %43, %45 : tensor<1x4096x2016xbf16>
    %47 = "stablehlo.all_gather"(%37#12) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x2016xbf16>) -> tensor<576x2016xbf16>
    %48 = stablehlo.dot_general %46, %47, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<576x2016xbf16>) -> tensor<1x4096x576xbf16>
    %49 = stablehlo.multiply %45, %37#6 : tensor<1x4096x2016xbf16>
    %50 = stablehlo.multiply %49, %42 : tensor<1x4096x2016xbf16>
    %51 = stablehlo.multiply %37#5, %49 : tensor<1x4096x2016xbf16>
    %52 = stablehlo.subtract %38, %42 : tensor<1x4096x2016xbf16>
    %53 = stablehlo.multiply %42, %52 : tensor<1x4096x2016xbf16>
    %54 = stablehlo.multiply %51, %53 : tensor<1x4096x2016xbf16>
    %55 = stablehlo.add %50, %54 : tensor<1x4096x2016xbf16>
    %56 = "stablehlo.all_gather"(%37#11) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x2016xbf16>) -> tensor<576x2016xbf16>
    %57 = stablehlo.dot_general %55, %56, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<576x2016xbf16>) -> tensor<1x4096x576xbf16>
    %58 = stablehlo.add %48, %57 : tensor<1x4096x576xbf16>
    %59 = stablehlo.convert %58 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
    %60 = "stablehlo.all_gather"(%37#9) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144xbf16>) -> tensor<576xbf16>
    %61 = stablehlo.convert %60 : (tensor<576xbf16>) -> tensor<576xf32>
    %62 = stablehlo.reshape %61 : (tensor<576xf32>) -> tensor<1x1x576xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2] : (tensor<1x1x576xf32>) -> tensor<1x1x576xf32>
    %64 = stablehlo.reshape %63 : (tensor<1x1x576xf32>) -> tensor<1x576xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 2] : (tensor<1x576xf32>) -> tensor<1x4096x576xf32>
    %66 = stablehlo.multiply %59, %65 : tensor<1x4096x576xf32>
    %67 = stablehlo.add %37#7, %37#4 : tensor<1x4096x576xbf16>
    %68 = stablehlo.convert %67 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
    %69 = stablehlo.multiply %68, %68 : tensor<1x4096x576xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %70 = stablehlo.reduce(%69 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %71 = stablehlo.reshape %70 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %cst_3 = stablehlo.constant dense<5.760000e+02> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %73 = stablehlo.divide %71, %72 : tensor<1x4096x1xf32>
    %cst_4 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %75 = stablehlo.add %73, %74 : tensor<1x4096x1xf32>
    %76 = stablehlo.rsqrt %75 : tensor<1x4096x1xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
    %78 = stablehlo.reshape %77 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
    %80 = stablehlo.multiply %66, %79 : tensor<1x4096x576xf32>
    %81 = stablehlo.multiply %68, %66 : tensor<1x4096x576xf32>
    %82 = stablehlo.reduce(%81 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %83 = stablehlo.reshape %82 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %84 = stablehlo.divide %76, %75 : tensor<1x4096x1xf32>
    %cst_5 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %86 = stablehlo.multiply %84, %85 : tensor<1x4096x1xf32>
    %87 = stablehlo.multiply %83, %86 : tensor<1x4096x1xf32>
    %88 = stablehlo.divide %87, %72 : tensor<1x4096x1xf32>
    %89 = stablehlo.reduce(%88 init: %cst_2) applies stablehlo.add across dimensions = [0, 2] : (tensor<1x4096x1xf32>, tensor<f32>) -> tensor<4096xf32>
    %90 = stablehlo.reshape %89 : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
    %92 = stablehlo.multiply %68, %91 : tensor<1x4096x576xf32>
    %93 = stablehlo.add %80, %92 : tensor<1x4096x576xf32>
    %94 = stablehlo.add %93, %92 : tensor<1x4096x576xf32>
    %95 = stablehlo.convert %94 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
    %96 = stablehlo.add %37#17, %95 : tensor<1x4096x576xbf16>
    %97 = "stablehlo.all_gather"(%37#14) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<288x576xbf16>) -> tensor<1152x576xbf16>
    %98 = stablehlo.dot_general %96, %97, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<1152x576xbf16>) -> tensor<1x4096x1152xbf16>
    %99 = stablehlo.reshape %98 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
    %100 = stablehlo.transpose %99, dims = [0, 2, 3, 1] {result_layout = dense<[2, 1, 3, 0]> : tensor<4xindex>, xla_shape = "bf16[1,9,128,4096]{2,1,3,0}"} : (tensor<1x4096x9x128xbf16>) -> tensor<1x9x128x4096xbf16>
    %101 = stablehlo.iota dim = 0 : tensor<4096xi32>
    %102 = stablehlo.broadcast_in_dim %101, dims = [0] : (tensor<4096xi32>) -> tensor<4096x4096xi32>
    %103 = stablehlo.iota dim = 0 : tensor<4096xi32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [1] : (tensor<4096xi32>) -> tensor<4096x4096xi32>
    %105 = stablehlo.compare GE, %102, %104 : (tensor<4096x4096xi32>, tensor<4096x4096xi32>) -> tensor<4096x4096xi1>
    %c_6 = stablehlo.constant dense<true> : tensor<i1>
    %106 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i1>) -> tensor<4096x4096xi1>
    %c_7 = stablehlo.constant dense<false> : tensor<i1>
    %107 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i1>) -> tensor<4096x4096xi1>
    %108 = stablehlo.select %105, %106, %107 : tensor<4096x4096xi1>, tensor<4096x4096xi1>
    %109 = stablehlo.broadcast_in_dim %108, dims = [2, 3] : (tensor<4096x4096xi1>) -> tensor<1x9x4096x4096xi1>
    %110 = stablehlo.reshape %37#0 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
    %111 = stablehlo.convert %110 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
    %112 = stablehlo.slice %111 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %113 = stablehlo.iota dim = 0 : tensor<4096xf32>
    %114 = stablehlo.reshape %113 : (tensor<4096xf32>) -> tensor<4096x1xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1] : (tensor<4096x1xf32>) -> tensor<4096x1xf32>
    %116 = stablehlo.reshape %115 : (tensor<4096x1xf32>) -> tensor<4096xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0] : (tensor<4096xf32>) -> tensor<4096x64xf32>
    %cst_8 = stablehlo.constant dense<5.000000e+05> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %119 = stablehlo.iota dim = 0 : tensor<64xf32>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %120 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %121 = stablehlo.multiply %119, %120 : tensor<64xf32>
    %cst_10 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %123 = stablehlo.divide %121, %122 : tensor<64xf32>
    %124 = stablehlo.power %118, %123 : tensor<64xf32>
    %125 = stablehlo.reshape %124 : (tensor<64xf32>) -> tensor<1x64xf32>
    %126 = stablehlo.broadcast_in_dim %125, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %127 = stablehlo.reshape %126 : (tensor<1x64xf32>) -> tensor<64xf32>
    %128 = stablehlo.broadcast_in_dim %127, dims = [1] : (tensor<64xf32>) -> tensor<4096x64xf32>
    %129 = stablehlo.divide %117, %128 : tensor<4096x64xf32>
    %130 = stablehlo.cosine %129 : tensor<4096x64xf32>
    %131 = stablehlo.reshape %130 : (tensor<4096x64xf32>) -> tensor<1x4096x1x64xf32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %133 = stablehlo.reshape %132 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %134 = stablehlo.broadcast_in_dim %133, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %135 = stablehlo.multiply %112, %134 : tensor<1x4096x9x64xf32>
    %136 = stablehlo.slice %111 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %137 = stablehlo.sine %129 : tensor<4096x64xf32>
    %138 = stablehlo.reshape %137 : (tensor<4096x64xf32>) -> tensor<1x4096x1x64xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
    %140 = stablehlo.reshape %139 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
    %141 = stablehlo.broadcast_in_dim %140, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
    %142 = stablehlo.multiply %136, %141 : tensor<1x4096x9x64xf32>
    %143 = stablehlo.subtract %135, %142 : tensor<1x4096x9x64xf32>
    %144 = stablehlo.multiply %136, %134 : tensor<1x4096x9x64xf32>
    %145 = stablehlo.multiply %112, %141 : tensor<1x4096x9x64xf32>
    %146 = stablehlo.add %144, %145 : tensor<1x4096x9x64xf32>
    %147 = stablehlo.concatenate %143, %146, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
    %148 = stablehlo.convert %147 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
    %149 = stablehlo.reshape %37#1 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
    %150 = stablehlo.convert %149 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
    %151 = stablehlo.slice %150 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %152 = stablehlo.multiply %151, %134 : tensor<1x4096x9x64xf32>
    %153 = stablehlo.slice %150 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %154 = stablehlo.multiply %153, %141 : tensor<1x4096x9x64xf32>
    %155 = stablehlo.subtract %152, %154 : tensor<1x4096x9x64xf32>
    %156 = stablehlo.multiply %153, %134 : tensor<1x4096x9x64xf32>
    %157 = stablehlo.multiply %151, %141 : tensor<1x4096x9x64xf32>
    %158 = stablehlo.add %156, %157 : tensor<1x4096x9x64xf32>
    %159 = stablehlo.concatenate %155, %158, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
    %160 = stablehlo.convert %159 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
    %161 = stablehlo.dot_general %148, %160, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x9x128xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x4096xbf16>
    %cst_11 = stablehlo.constant dense<1.131250e+01> : tensor<bf16>
    %162 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<bf16>) -> tensor<1x9x4096x4096xbf16>
    %163 = stablehlo.divide %161, %162 : tensor<1x9x4096x4096xbf16>
    %164 = stablehlo.convert %163 : (tensor<1x9x4096x4096xbf16>) -> tensor<1x9x4096x4096xf32>
    %cst_12 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %165 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<1x9x4096x4096xf32>
    %166 = stablehlo.select %109, %164, %165 : tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>
    %cst_13 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %167 = stablehlo.reduce(%166 init: %cst_13) applies stablehlo.maximum across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
    %168 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<1x9x4096xf32>
    %169 = stablehlo.maximum %167, %168 : tensor<1x9x4096xf32>
    %170 = stablehlo.reshape %169 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
    %171 = stablehlo.broadcast_in_dim %170, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
    %172 = stablehlo.reshape %171 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
    %174 = stablehlo.subtract %166, %173 : tensor<1x9x4096x4096xf32>
    %175 = stablehlo.exponential %174 : tensor<1x9x4096x4096xf32>
    %176 = stablehlo.reduce(%175 init: %cst_2) applies stablehlo.add across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
    %177 = stablehlo.reshape %176 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
    %179 = stablehlo.reshape %178 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
    %180 = stablehlo.broadcast_in_dim %179, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
    %181 = stablehlo.divide %175, %180 : tensor<1x9x4096x4096xf32>
    %182 = stablehlo.convert %181 : (tensor<1x9x4096x4096xf32>) -> tensor<1x9x4096x4096xbf16>
    %183 = stablehlo.dot_general %100, %182, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<1x9x128x4096xbf16>, tensor<1x9x4096x4096xbf16>) -> tensor<1x9x128x4096xbf16>
    %184 = stablehlo.transpose %183, dims = [0, 3, 1, 2] {result_layout = dense<[1, 3, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{1,3,2,0}"} : (tensor<1x9x128x4096xbf16>) -> tensor<1x4096x9x128xbf16>
    %185 = stablehlo.reshape %184 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x1x128xbf16>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %186 = stablehlo.reduce(%185 init: %cst_14) applies stablehlo.add across dimensions = [0, 3] : (tensor<1x4096x9x1x128xbf16>, tensor<bf16>) -> tensor<4096x9x128xbf16>
    %187 = stablehlo.reshape %186 : (tensor<4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
    %188 = "stablehlo.all_gather"(%37#16) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
    %189 = stablehlo.dot_general %187, %188, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x576xbf16>
    %190 = stablehlo.reshape %37#2 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
    %191 = stablehlo.dot_general %100, %190, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<1x9x128x4096xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x4096xbf16>
    %192 = stablehlo.convert %191 : (tensor<1x9x4096x4096xbf16>) -> tensor<1x9x4096x4096xf32>
    %193 = stablehlo.divide %192, %180 : tensor<1x9x4096x4096xf32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %194 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<1x9x4096x1xf32>
    %195 = stablehlo.multiply %177, %177 : tensor<1x9x4096x1xf32>
    %196 = stablehlo.divide %194, %195 : tensor<1x9x4096x1xf32>
    %197 = stablehlo.broadcast_in_dim %196, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
    %198 = stablehlo.reshape %197 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
    %199 = stablehlo.broadcast_in_dim %198, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
    %200 = stablehlo.multiply %192, %199 : tensor<1x9x4096x4096xf32>
    %201 = stablehlo.multiply %200, %175 : tensor<1x9x4096x4096xf32>
    %202 = stablehlo.reduce(%201 init: %cst_2) applies stablehlo.add across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
    %203 = stablehlo.reshape %202 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
    %204 = stablehlo.negate %203 : tensor<1x9x4096x1xf32>
    %205 = stablehlo.reduce(%204 init: %cst_2) applies stablehlo.add across dimensions = [0, 3] : (tensor<1x9x4096x1xf32>, tensor<f32>) -> tensor<9x4096xf32>
    %206 = stablehlo.reshape %205 : (tensor<9x4096xf32>) -> tensor<1x9x4096xf32>
    %207 = stablehlo.broadcast_in_dim %206, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
    %208 = stablehlo.add %193, %207 : tensor<1x9x4096x4096xf32>
    %209 = stablehlo.multiply %208, %175 : tensor<1x9x4096x4096xf32>
    %210 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x9x4096x4096xf32>
    %211 = stablehlo.select %109, %209, %210 : tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>
    %212 = stablehlo.convert %211 : (tensor<1x9x4096x4096xf32>) -> tensor<1x9x4096x4096xbf16>
    %213 = stablehlo.divide %212, %162 : tensor<1x9x4096x4096xbf16>
    %214 = stablehlo.dot_general %213, %148, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x9x4096x4096xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x128xbf16>
    %215 = stablehlo.transpose %214, dims = [0, 2, 1, 3] {result_layout = dense<[3, 1, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{3,1,2,0}"} : (tensor<1x9x4096x128xbf16>) -> tensor<1x4096x9x128xbf16>
    %216 = stablehlo.reshape %215 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x1x128xbf16>
    %217 = stablehlo.reduce(%216 init: %cst_14) applies stablehlo.add across dimensions = [0, 3] : (tensor<1x4096x9x1x128xbf16>, tensor<bf16>) -> tensor<4096x9x128xbf16>
    %218 = stablehlo.reshape %217 : (tensor<4096x9x128xbf16>) -> tensor<1x4096x9x128xbf16>
    %219 = stablehlo.convert %218 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
    %220 = stablehlo.slice %219 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %221 = stablehlo.multiply %220, %141 : tensor<1x4096x9x64xf32>
    %222 = stablehlo.slice %219 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %223 = stablehlo.multiply %222, %134 : tensor<1x4096x9x64xf32>
    %224 = stablehlo.add %221, %223 : tensor<1x4096x9x64xf32>
    %225 = stablehlo.multiply %220, %134 : tensor<1x4096x9x64xf32>
    %226 = stablehlo.negate %222 : tensor<1x4096x9x64xf32>
    %227 = stablehlo.multiply %226, %141 : tensor<1x4096x9x64xf32>
    %228 = stablehlo.add %225, %227 : tensor<1x4096x9x64xf32>
    %229 = stablehlo.concatenate %224, %228, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
    %230 = stablehlo.convert %229 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
    %231 = stablehlo.reshape %230 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
    %232 = "stablehlo.all_gather"(%37#13) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
    %233 = stablehlo.dot_general %231, %232, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x576xbf16>
    %234 = stablehlo.add %189, %233 : tensor<1x4096x576xbf16>
    %235 = stablehlo.dot_general %213, %160, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x9x4096x4096xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x128xbf16>
    %236 = stablehlo.transpose %235, dims = [0, 2, 1, 3] {result_layout = dense<[3, 1, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{3,1,2,0}"} : (tensor<1x9x4096x128xbf16>) -> tensor<1x4096x9x128xbf16>
    %237 = stablehlo.convert %236 {result_layout = dense<[3, 1, 2, 0]> : tensor<4xindex>, xla_shape = "f32[1,4096,9,128]{3,1,2,0}"} : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
    %238 = stablehlo.slice %237 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %239 = stablehlo.multiply %238, %141 : tensor<1x4096x9x64xf32>
    %240 = stablehlo.slice %237 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
    %241 = stablehlo.multiply %240, %134 : tensor<1x4096x9x64xf32>
    %242 = stablehlo.add %239, %241 : tensor<1x4096x9x64xf32>
    %243 = stablehlo.multiply %238, %134 : tensor<1x4096x9x64xf32>
    %244 = stablehlo.negate %240 : tensor<1x4096x9x64xf32>
    %245 = stablehlo.multiply %244, %141 : tensor<1x4096x9x64xf32>
    %246 = stablehlo.add %243, %245 : tensor<1x4096x9x64xf32>
    %247 = stablehlo.concatenate %242, %246, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
    %248 = stablehlo.convert %247 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
    %249 = stablehlo.reshape %248 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
    %250 = "stablehlo.all_gather"(%37#15) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
    %251 = stablehlo.dot_general %249, %250, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x576xbf16>
    %252 = stablehlo.add %234, %251 : tensor<1x4096x576xbf16>
    %253 = stablehlo.convert %252 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
    %254 = "stablehlo.all_gather"(%37#8) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144xbf16>) -> tensor<576xbf16>
    %255 = stablehlo.convert %254 : (tensor<576xbf16>) -> tensor<576xf32>
    %256 = stablehlo.reshape %255 : (tensor<576xf32>) -> tensor<1x1x576xf32>
    %257 = stablehlo.broadcast_in_dim %256, dims = [0, 1, 2] : (tensor<1x1x576xf32>) -> tensor<1x1x576xf32>
    %258 = stablehlo.reshape %257 : (tensor<1x1x576xf32>) -> tensor<1x576xf32>
    %259 = stablehlo.broadcast_in_dim %258, dims = [0, 2] : (tensor<1x576xf32>) -> tensor<1x4096x576xf32>
    %260 = stablehlo.multiply %253, %259 : tensor<1x4096x576xf32>
    %261 = stablehlo.convert %37#7 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
    %262 = stablehlo.multiply %261, %261 : tensor<1x4096x576xf32>
    %263 = stablehlo.reduce(%262 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %264 = stablehlo.reshape %263 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %265 = stablehlo.divide %264, %72 : tensor<1x4096x1xf32>
    %266 = stablehlo.add %265, %74 : tensor<1x4096x1xf32>
    %267 = stablehlo.rsqrt %266 : tensor<1x4096x1xf32>
    %268 = stablehlo.broadcast_in_dim %267, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
    %269 = stablehlo.reshape %268 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
    %270 = stablehlo.broadcast_in_dim %269, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
    %271 = stablehlo.multiply %260, %270 : tensor<1x4096x576xf32>
    %272 = stablehlo.multiply %261, %260 : tensor<1x4096x576xf32>
    %273 = stablehlo.reduce(%272 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %274 = stablehlo.reshape %273 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %275 = stablehlo.divide %267, %266 : tensor<1x4096x1xf32>
    %276 = stablehlo.multiply %275, %85 : tensor<1x4096x1xf32>
    %277 = stablehlo.multiply %274, %276 : tensor<1x4096x1xf32>
    %278 = stablehlo.divide %277, %72 : tensor<1x4096x1xf32>
    %279 = stablehlo.reduce(%278 init: %cst_2) applies stablehlo.add across dimensions = [0, 2] : (tensor<1x4096x1xf32>, tensor<f32>) -> tensor<4096xf32>
    %280 = stablehlo.reshape %279 : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %281 = stablehlo.broadcast_in_dim %280, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
    %282 = stablehlo.multiply %261, %281 : tensor<1x4096x576xf32>
    %283 = stablehlo.add %271, %282 : tensor<1x4096x576xf32>
    %284 = stablehlo.add %283, %282 : tensor<1x4096x576xf32>
    %285 = stablehlo.convert %284 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
    %286 = stablehlo.add %96, %285 : tensor<1x4096x576xbf16>
    %287 = stablehlo.multiply %261, %270 : tensor<1x4096x576xf32>
    %288 = stablehlo.multiply %287, %253 : tensor<1x4096x576xf32>
    %289 = stablehlo.reduce(%288 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x576xf32>
    %290 = stablehlo.reshape %289 : (tensor<1x576xf32>) -> tensor<1x1x576xf32>
    %291 = stablehlo.reduce(%290 init: %cst_2) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x576xf32>, tensor<f32>) -> tensor<576xf32>
    %292 = stablehlo.convert %291 : (tensor<576xf32>) -> tensor<576xbf16>
    %293 = "stablehlo.reduce_scatter"(%292) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg28: tensor<bf16>, %arg29: tensor<bf16>):
      %346 = stablehlo.add %arg28, %arg29 : tensor<bf16>
      stablehlo.return %346 : tensor<bf16>
    }) : (tensor<576xbf16>) -> tensor<144xbf16>
    %294 = stablehlo.reshape %293 : (tensor<144xbf16>) -> tensor<1x144xbf16>
    %295 = stablehlo.dynamic_update_slice %arg2, %294, %2, %c_1 : (tensor<7x144xbf16>, tensor<1x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<7x144xbf16>
    %296 = stablehlo.multiply %68, %79 : tensor<1x4096x576xf32>
    %297 = stablehlo.multiply %296, %59 : tensor<1x4096x576xf32>
    %298 = stablehlo.reduce(%297 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x576xf32>
    %299 = stablehlo.reshape %298 : (tensor<1x576xf32>) -> tensor<1x1x576xf32>
    %300 = stablehlo.reduce(%299 init: %cst_2) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x576xf32>, tensor<f32>) -> tensor<576xf32>
    %301 = stablehlo.convert %300 : (tensor<576xf32>) -> tensor<576xbf16>
    %302 = "stablehlo.reduce_scatter"(%301) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg28: tensor<bf16>, %arg29: tensor<bf16>):
      %346 = stablehlo.add %arg28, %arg29 : tensor<bf16>
      stablehlo.return %346 : tensor<bf16>
    }) : (tensor<576xbf16>) -> tensor<144xbf16>
    %303 = stablehlo.reshape %302 : (tensor<144xbf16>) -> tensor<1x144xbf16>
    %304 = stablehlo.dynamic_update_slice %arg3, %303, %2, %c_1 : (tensor<7x144xbf16>, tensor<1x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<7x144xbf16>
    %305 = stablehlo.multiply %43, %37#6 : tensor<1x4096x2016xbf16>
    %306 = stablehlo.dot_general %37#17, %305, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<1x4096x2016xbf16>) -> tensor<576x2016xbf16>
    %307 = stablehlo.transpose %306, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[2016,576]{0,1}"} : (tensor<576x2016xbf16>) -> tensor<2016x576xbf16>
    %308 = "stablehlo.reduce_scatter"(%307) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg28: tensor<bf16>, %arg29: tensor<bf16>):
      %346 = stablehlo.add %arg28, %arg29 : tensor<bf16>
      stablehlo.return %346 : tensor<bf16>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[504,576]{0,1}"} : (tensor<2016x576xbf16>) -> tensor<504x576xbf16>
    %309 = stablehlo.reshape %308 : (tensor<504x576xbf16>) -> tensor<1x504x576xbf16>
    %310 = stablehlo.dynamic_update_slice %arg4, %309, %2, %c_1, %c_1 : (tensor<7x504x576xbf16>, tensor<1x504x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x504x576xbf16>
    %311 = stablehlo.multiply %296, %65 : tensor<1x4096x576xf32>
    %312 = stablehlo.convert %311 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
    %313 = stablehlo.dot_general %55, %312, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<1x4096x576xbf16>) -> tensor<2016x576xbf16>
    %314 = stablehlo.transpose %313, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,2016]{0,1}"} : (tensor<2016x576xbf16>) -> tensor<576x2016xbf16>
    %315 = "stablehlo.reduce_scatter"(%314) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg28: tensor<bf16>, %arg29: tensor<bf16>):
      %346 = stablehlo.add %arg28, %arg29 : tensor<bf16>
      stablehlo.return %346 : tensor<bf16>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,2016]{0,1}"} : (tensor<576x2016xbf16>) -> tensor<144x2016xbf16>
    %316 = stablehlo.reshape %315 : (tensor<144x2016xbf16>) -> tensor<1x144x2016xbf16>
    %317 = stablehlo.dynamic_update_slice %arg5, %316, %2, %c_1, %c_1 : (tensor<7x144x2016xbf16>, tensor<1x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x2016xbf16>
    %318 = stablehlo.dot_general %46, %312, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<1x4096x576xbf16>) -> tensor<2016x576xbf16>
    %319 = stablehlo.transpose %318, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,2016]{0,1}"} : (tensor<2016x576xbf16>) -> tensor<576x2016xbf16>
    %320 = "stablehlo.reduce_scatter"(%319) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg28: tensor<bf16>, %arg29: tensor<bf16>):
      %346 = stablehlo.add %arg28, %arg29 : tensor<bf16>
      stablehlo.return %346 : tensor<bf16>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,2016]{0,1}"} : (tensor<576x2016xbf16>) -> tensor<144x2016xbf16>
    %321 = stablehlo.reshape %320 : (tensor<144x2016xbf16>) -> tensor<1x144x2016xbf16>
    %322 = stablehlo.dynamic_update_slice %arg6, %321, %2, %c_1, %c_1 : (tensor<7x144x2016xbf16>, tensor<1x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x2016xbf16>
    %323 = stablehlo.multiply %287, %259 : tensor<1x4096x576xf32>
    %324 = stablehlo.convert %323 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
    %325 = stablehlo.dot_general %231, %324, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<1x4096x576xbf16>) -> tensor<1152x576xbf16>
    %326 = stablehlo.transpose %325, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,1152]{0,1}"} : (tensor<1152x576xbf16>) -> tensor<576x1152xbf16>
    %327 = "stablehlo.reduce_scatter"(%326) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg28: tensor<bf16>, %arg29: tensor<bf16>):
      %346 = stablehlo.add %arg28, %arg29 : tensor<bf16>
      stablehlo.return %346 : tensor<bf16>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,1152]{0,1}"} : (tensor<576x1152xbf16>) -> tensor<144x1152xbf16>
    %328 = stablehlo.reshape %327 : (tensor<144x1152xbf16>) -> tensor<1x144x1152xbf16>
    %329 = stablehlo.dynamic_update_slice %arg7, %328, %2, %c_1, %c_1 : (tensor<7x144x1152xbf16>, tensor<1x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x1152xbf16>
    %330 = stablehlo.reshape %37#3 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
    %331 = stablehlo.dot_general %96, %330, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<1x4096x1152xbf16>) -> tensor<576x1152xbf16>
    %332 = stablehlo.transpose %331, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[1152,576]{0,1}"} : (tensor<576x1152xbf16>) -> tensor<1152x576xbf16>
    %333 = "stablehlo.reduce_scatter"(%332) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg28: tensor<bf16>, %arg29: tensor<bf16>):
      %346 = stablehlo.add %arg28, %arg29 : tensor<bf16>
      stablehlo.return %346 : tensor<bf16>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[288,576]{0,1}"} : (tensor<1152x576xbf16>) -> tensor<288x576xbf16>
    %334 = stablehlo.reshape %333 : (tensor<288x576xbf16>) -> tensor<1x288x576xbf16>
    %335 = stablehlo.dynamic_update_slice %arg8, %334, %2, %c_1, %c_1 : (tensor<7x288x576xbf16>, tensor<1x288x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x288x576xbf16>
    %336 = stablehlo.dot_general %249, %324, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<1x4096x576xbf16>) -> tensor<1152x576xbf16>
    %337 = stablehlo.transpose %336, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,1152]{0,1}"} : (tensor<1152x576xbf16>) -> tensor<576x1152xbf16>
    %338 = "stablehlo.reduce_scatter"(%337) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg28: tensor<bf16>, %arg29: tensor<bf16>):
      %346 = stablehlo.add %arg28, %arg29 : tensor<bf16>
      stablehlo.return %346 : tensor<bf16>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,1152]{0,1}"} : (tensor<576x1152xbf16>) -> tensor<144x1152xbf16>
    %339 = stablehlo.reshape %338 : (tensor<144x1152xbf16>) -> tensor<1x144x1152xbf16>
    %340 = stablehlo.dynamic_update_slice %arg9, %339, %2, %c_1, %c_1 : (tensor<7x144x1152xbf16>, tensor<1x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x1152xbf16>
    %341 = stablehlo.dot_general %187, %324, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<1x4096x576xbf16>) -> tensor<1152x576xbf16>
    %342 = stablehlo.transpose %341, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,1152]{0,1}"} : (tensor<1152x576xbf16>) -> tensor<576x1152xbf16>
    %343 = "stablehlo.reduce_scatter"(%342) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg28: tensor<bf16>, %arg29: tensor<bf16>):
      %346 = stablehlo.add %arg28, %arg29 : tensor<bf16>
      stablehlo.return %346 : tensor<bf16>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,1152]{0,1}"} : (tensor<576x1152xbf16>) -> tensor<144x1152xbf16>
    %344 = stablehlo.reshape %343 : (tensor<144x1152xbf16>) -> tensor<1x144x1152xbf16>
    %345 = stablehlo.dynamic_update_slice %arg10, %344, %2, %c_1, %c_1 : (tensor<7x144x1152xbf16>, tensor<1x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x1152xbf16>
    return %0, %286, %295, %304, %310, %317, %322, %329, %335, %340, %345, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16, %arg17, %arg18, %arg19, %arg20, %arg21, %arg22, %arg23, %arg24, %arg25, %arg26, %arg27 : tensor<i32>, tensor<1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x9x128xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>
  }
  func.func private @region_42.43_spmd(%arg0: tensor<i32>, %arg1: tensor<1x4096x576xbf16>, %arg2: tensor<7x144xbf16>, %arg3: tensor<7x144xbf16>, %arg4: tensor<7x504x576xbf16>, %arg5: tensor<7x144x2016xbf16>, %arg6: tensor<7x144x2016xbf16>, %arg7: tensor<7x144x1152xbf16>, %arg8: tensor<7x288x576xbf16>, %arg9: tensor<7x144x1152xbf16>, %arg10: tensor<7x144x1152xbf16>, %arg11: tensor<7x1x4096x1152xbf16>, %arg12: tensor<7x1x4096x1152xbf16>, %arg13: tensor<7x1x4096x1152xbf16>, %arg14: tensor<7x1x4096x9x128xbf16>, %arg15: tensor<7x1x4096x576xbf16>, %arg16: tensor<7x1x4096x2016xbf16>, %arg17: tensor<7x1x4096x2016xbf16>, %arg18: tensor<7x1x4096x576xbf16>, %arg19: tensor<7x144xbf16>, %arg20: tensor<7x144xbf16>, %arg21: tensor<7x504x576xbf16>, %arg22: tensor<7x144x2016xbf16>, %arg23: tensor<7x144x2016xbf16>, %arg24: tensor<7x144x1152xbf16>, %arg25: tensor<7x288x576xbf16>, %arg26: tensor<7x144x1152xbf16>, %arg27: tensor<7x144x1152xbf16>) -> tensor<i1> {
    %c = stablehlo.constant dense<7> : tensor<i32>
    %0 = stablehlo.compare LT, %arg0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %0 : tensor<i1>
  }
  func.func private @region_43.44(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_44.45(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_45.46(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_46.47(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_47.48(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_48.49(%arg0: tensor<bf16>, %arg1: tensor<bf16>) -> tensor<bf16> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<bf16>
    return %0 : tensor<bf16>
  }
  func.func private @region_1.2(%arg0: tensor<i1>, %arg1: tensor<i1>) -> tensor<i1> {
    %0 = stablehlo.and %arg0, %arg1 : tensor<i1>
    return %0 : tensor<i1>
  }
  func.func private @region_49.50(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_50.51(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @xla.sdy.inlinable_manual_computation_body.52_spmd(%arg0: tensor<32064x576xbf16>, %arg1: tensor<144xbf16>, %arg2: tensor<7x144xbf16>, %arg3: tensor<7x144xbf16>, %arg4: tensor<7x504x576xbf16>, %arg5: tensor<7x144x2016xbf16>, %arg6: tensor<7x144x2016xbf16>, %arg7: tensor<7x144x1152xbf16>, %arg8: tensor<7x288x576xbf16>, %arg9: tensor<7x144x1152xbf16>, %arg10: tensor<7x144x1152xbf16>, %arg11: tensor<144x128256xbf16>, %arg12: tensor<32064x576xbf16>, %arg13: tensor<144xbf16>, %arg14: tensor<7x144xbf16>, %arg15: tensor<7x144xbf16>, %arg16: tensor<7x504x576xbf16>, %arg17: tensor<7x144x2016xbf16>, %arg18: tensor<7x144x2016xbf16>, %arg19: tensor<7x144x1152xbf16>, %arg20: tensor<7x288x576xbf16>, %arg21: tensor<7x144x1152xbf16>, %arg22: tensor<7x144x1152xbf16>, %arg23: tensor<144x128256xbf16>, %arg24: tensor<32064x576xbf16>, %arg25: tensor<144xbf16>, %arg26: tensor<7x144xbf16>, %arg27: tensor<7x144xbf16>, %arg28: tensor<7x504x576xbf16>, %arg29: tensor<7x144x2016xbf16>, %arg30: tensor<7x144x2016xbf16>, %arg31: tensor<7x144x1152xbf16>, %arg32: tensor<7x288x576xbf16>, %arg33: tensor<7x144x1152xbf16>, %arg34: tensor<7x144x1152xbf16>, %arg35: tensor<144x128256xbf16>, %arg36: tensor<i32>, %arg37: tensor<1x4096xi32>, %arg38: tensor<1x4096xi32>) -> (tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<i32>, tensor<f32>) {
    %0 = stablehlo.convert %arg0 : (tensor<32064x576xbf16>) -> tensor<32064x576xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.949999988> : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.add %arg36, %c : tensor<i32>
    %2 = stablehlo.convert %1 : (tensor<i32>) -> tensor<f32>
    %3 = stablehlo.power %cst_0, %2 : tensor<f32>
    %4 = stablehlo.subtract %cst, %3 : tensor<f32>
    %cst_1 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %5 = stablehlo.power %4, %cst_1 : tensor<f32>
    %cst_2 = stablehlo.constant dense<3.000000e-04> : tensor<f32>
    %6 = stablehlo.multiply %5, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %7 = stablehlo.power %cst_3, %2 : tensor<f32>
    %8 = stablehlo.subtract %cst, %7 : tensor<f32>
    %9 = stablehlo.divide %6, %8 : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<32064x576xf32>
    %cst_4 = stablehlo.constant dense<8.984370e-01> : tensor<bf16>
    %11 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<32064x576xbf16>
    %12 = stablehlo.multiply %arg12, %11 : tensor<32064x576xbf16>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %13 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<128256x576xbf16>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<1x4096xi32>
    %15 = stablehlo.compare LT, %arg37, %14 : (tensor<1x4096xi32>, tensor<1x4096xi32>) -> tensor<1x4096xi1>
    %c_7 = stablehlo.constant dense<128256> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<1x4096xi32>
    %17 = stablehlo.add %arg37, %16 : tensor<1x4096xi32>
    %18 = stablehlo.select %15, %17, %arg37 : tensor<1x4096xi1>, tensor<1x4096xi32>
    %19 = stablehlo.reshape %18 : (tensor<1x4096xi32>) -> tensor<1x4096x1xi32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<1x4096x128256xf32>
    %21 = stablehlo.reshape %arg38 : (tensor<1x4096xi32>) -> tensor<1x4096x1xi32>
    %22 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<1x4096x1xi32>
    %23 = stablehlo.compare LT, %21, %22 : (tensor<1x4096x1xi32>, tensor<1x4096x1xi32>) -> tensor<1x4096x1xi1>
    %24 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<1x4096x1xi32>
    %25 = stablehlo.add %21, %24 : tensor<1x4096x1xi32>
    %26 = stablehlo.select %23, %25, %21 : tensor<1x4096x1xi1>, tensor<1x4096x1xi32>
    %27 = stablehlo.reshape %26 : (tensor<1x4096x1xi32>) -> tensor<4096x1x1xi32>
    %cst_9 = stablehlo.constant dense<-6.10351563E-5> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %29 = "stablehlo.scatter"(%20, %27, %28) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [2], input_batching_dims = [1], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [2], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %465 = stablehlo.add %arg39, %arg40 : tensor<f32>
      stablehlo.return %465 : tensor<f32>
    }) : (tensor<1x4096x128256xf32>, tensor<4096x1x1xi32>, tensor<1x4096x1xf32>) -> tensor<1x4096x128256xf32>
    %30 = stablehlo.negate %29 : tensor<1x4096x128256xf32>
    %31 = stablehlo.reduce(%30 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x128256xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %32 = stablehlo.reshape %31 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %33 = stablehlo.compare GE, %19, %22 : (tensor<1x4096x1xi32>, tensor<1x4096x1xi32>) -> tensor<1x4096x1xi1>
    %c_10 = stablehlo.constant dense<128255> : tensor<i32>
    %34 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<1x4096x1xi32>
    %35 = stablehlo.compare LE, %19, %34 : (tensor<1x4096x1xi32>, tensor<1x4096x1xi32>) -> tensor<1x4096x1xi1>
    %36 = stablehlo.and %33, %35 : tensor<1x4096x1xi1>
    %c_11 = stablehlo.constant dense<true> : tensor<i1>
    %37 = stablehlo.reduce(%36 init: %c_11) applies stablehlo.and across dimensions = [2] : (tensor<1x4096x1xi1>, tensor<i1>) -> tensor<1x4096xi1>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1] : (tensor<1x4096xi1>) -> tensor<1x4096x576xi1>
    %39 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<32064x576xbf16>) -> tensor<128256x576xbf16>
    %40 = "stablehlo.gather"(%39, %19) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 576>}> : (tensor<128256x576xbf16>, tensor<1x4096x1xi32>) -> tensor<1x4096x576xbf16>
    %cst_12 = stablehlo.constant dense<0x7FC0> : tensor<bf16>
    %41 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<bf16>) -> tensor<1x4096x576xbf16>
    %42 = stablehlo.select %38, %40, %41 : tensor<1x4096x576xi1>, tensor<1x4096x576xbf16>
    %43 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<7x1x4096x1152xbf16>
    %44 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<7x1x4096x9x128xbf16>
    %45 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<7x1x4096x576xbf16>
    %46 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<7x1x4096x2016xbf16>
    %47 = stablehlo.iota dim = 0 : tensor<4096xf32>
    %48 = stablehlo.reshape %47 : (tensor<4096xf32>) -> tensor<4096x1xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1] : (tensor<4096x1xf32>) -> tensor<4096x1xf32>
    %50 = stablehlo.reshape %49 : (tensor<4096x1xf32>) -> tensor<4096xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0] : (tensor<4096xf32>) -> tensor<4096x64xf32>
    %cst_13 = stablehlo.constant dense<5.000000e+05> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %53 = stablehlo.iota dim = 0 : tensor<64xf32>
    %cst_14 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %55 = stablehlo.multiply %53, %54 : tensor<64xf32>
    %cst_15 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %57 = stablehlo.divide %55, %56 : tensor<64xf32>
    %58 = stablehlo.power %52, %57 : tensor<64xf32>
    %59 = stablehlo.reshape %58 : (tensor<64xf32>) -> tensor<1x64xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<1x64xf32>
    %61 = stablehlo.reshape %60 : (tensor<1x64xf32>) -> tensor<64xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [1] : (tensor<64xf32>) -> tensor<4096x64xf32>
    %63 = stablehlo.divide %51, %62 : tensor<4096x64xf32>
    %64 = stablehlo.cosine %63 : tensor<4096x64xf32>
    %65 = stablehlo.reshape %64 : (tensor<4096x64xf32>) -> tensor<1x4096x1x64xf32>
    %66 = stablehlo.sine %63 : tensor<4096x64xf32>
    %67 = stablehlo.reshape %66 : (tensor<4096x64xf32>) -> tensor<1x4096x1x64xf32>
    %68 = stablehlo.iota dim = 0 : tensor<4096xi32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0] : (tensor<4096xi32>) -> tensor<4096x4096xi32>
    %70 = stablehlo.iota dim = 0 : tensor<4096xi32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [1] : (tensor<4096xi32>) -> tensor<4096x4096xi32>
    %72 = stablehlo.compare GE, %69, %71 : (tensor<4096x4096xi32>, tensor<4096x4096xi32>) -> tensor<4096x4096xi1>
    %73 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i1>) -> tensor<4096x4096xi1>
    %c_16 = stablehlo.constant dense<false> : tensor<i1>
    %74 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i1>) -> tensor<4096x4096xi1>
    %75 = stablehlo.select %72, %73, %74 : tensor<4096x4096xi1>, tensor<4096x4096xi1>
    %76 = stablehlo.broadcast_in_dim %75, dims = [2, 3] : (tensor<4096x4096xi1>) -> tensor<1x9x4096x4096xi1>
    %cst_17 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<1x9x4096x4096xf32>
    %78:29 = stablehlo.while(%iterArg = %c_6, %iterArg_31 = %42, %iterArg_32 = %43, %iterArg_33 = %43, %iterArg_34 = %43, %iterArg_35 = %44, %iterArg_36 = %45, %iterArg_37 = %46, %iterArg_38 = %46, %iterArg_39 = %45, %iterArg_40 = %arg2, %iterArg_41 = %arg10, %iterArg_42 = %arg9, %iterArg_43 = %65, %iterArg_44 = %67, %iterArg_45 = %65, %iterArg_46 = %67, %iterArg_47 = %arg7, %iterArg_48 = %65, %iterArg_49 = %67, %iterArg_50 = %65, %iterArg_51 = %67, %iterArg_52 = %76, %iterArg_53 = %77, %iterArg_54 = %arg8, %iterArg_55 = %arg3, %iterArg_56 = %arg5, %iterArg_57 = %arg6, %iterArg_58 = %arg4) : tensor<i32>, tensor<1x4096x576xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x9x128xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<7x144x1152xbf16>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>, tensor<7x288x576xbf16>, tensor<7x144xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x504x576xbf16>
    cond {
      %c_59 = stablehlo.constant dense<7> : tensor<i32>
      %465 = stablehlo.compare LT, %iterArg, %c_59 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %465 : tensor<i1>
    } do {
      %c_59 = stablehlo.constant dense<1> : tensor<i32>
      %465 = stablehlo.add %iterArg, %c_59 : tensor<i32>
      %466 = stablehlo.convert %iterArg_31 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
      %467 = stablehlo.multiply %466, %466 : tensor<1x4096x576xf32>
      %cst_60 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %468 = stablehlo.reduce(%467 init: %cst_60) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
      %469 = stablehlo.reshape %468 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
      %cst_61 = stablehlo.constant dense<5.760000e+02> : tensor<f32>
      %470 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
      %471 = stablehlo.divide %469, %470 : tensor<1x4096x1xf32>
      %cst_62 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %472 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
      %473 = stablehlo.add %471, %472 : tensor<1x4096x1xf32>
      %474 = stablehlo.rsqrt %473 : tensor<1x4096x1xf32>
      %475 = stablehlo.broadcast_in_dim %474, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
      %476 = stablehlo.reshape %475 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
      %477 = stablehlo.broadcast_in_dim %476, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
      %478 = stablehlo.multiply %466, %477 : tensor<1x4096x576xf32>
      %c_63 = stablehlo.constant dense<0> : tensor<i32>
      %479 = stablehlo.dynamic_slice %iterArg_40, %iterArg, %c_63, sizes = [1, 144] : (tensor<7x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x144xbf16>
      %480 = stablehlo.reshape %479 : (tensor<1x144xbf16>) -> tensor<144xbf16>
      %481 = "stablehlo.all_gather"(%480) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144xbf16>) -> tensor<576xbf16>
      %482 = stablehlo.convert %481 : (tensor<576xbf16>) -> tensor<576xf32>
      %483 = stablehlo.reshape %482 : (tensor<576xf32>) -> tensor<1x1x576xf32>
      %484 = stablehlo.broadcast_in_dim %483, dims = [0, 1, 2] : (tensor<1x1x576xf32>) -> tensor<1x1x576xf32>
      %485 = stablehlo.reshape %484 : (tensor<1x1x576xf32>) -> tensor<1x576xf32>
      %486 = stablehlo.broadcast_in_dim %485, dims = [0, 2] : (tensor<1x576xf32>) -> tensor<1x4096x576xf32>
      %487 = stablehlo.multiply %478, %486 : tensor<1x4096x576xf32>
      %488 = stablehlo.convert %487 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
      %489 = stablehlo.dynamic_slice %iterArg_41, %iterArg, %c_63, %c_63, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
      %490 = stablehlo.reshape %489 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
      %491 = "stablehlo.all_gather"(%490) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
      %492 = stablehlo.dot_general %488, %491, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x1152xbf16>
      %493 = stablehlo.reduce_precision %492, format = e8m7 : tensor<1x4096x1152xbf16>
      %494 = stablehlo.reshape %493 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
      %495 = stablehlo.dynamic_slice %iterArg_42, %iterArg, %c_63, %c_63, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
      %496 = stablehlo.reshape %495 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
      %497 = "stablehlo.all_gather"(%496) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
      %498 = stablehlo.dot_general %488, %497, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x1152xbf16>
      %499 = stablehlo.reduce_precision %498, format = e8m7 : tensor<1x4096x1152xbf16>
      %500 = stablehlo.reshape %499 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
      %501 = stablehlo.convert %500 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
      %502 = stablehlo.slice %501 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %503 = stablehlo.broadcast_in_dim %iterArg_43, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %504 = stablehlo.reshape %503 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %505 = stablehlo.broadcast_in_dim %504, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %506 = stablehlo.multiply %502, %505 : tensor<1x4096x9x64xf32>
      %507 = stablehlo.slice %501 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %508 = stablehlo.broadcast_in_dim %iterArg_44, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %509 = stablehlo.reshape %508 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %510 = stablehlo.broadcast_in_dim %509, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %511 = stablehlo.multiply %507, %510 : tensor<1x4096x9x64xf32>
      %512 = stablehlo.subtract %506, %511 : tensor<1x4096x9x64xf32>
      %513 = stablehlo.broadcast_in_dim %iterArg_45, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %514 = stablehlo.reshape %513 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %515 = stablehlo.broadcast_in_dim %514, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %516 = stablehlo.multiply %507, %515 : tensor<1x4096x9x64xf32>
      %517 = stablehlo.broadcast_in_dim %iterArg_46, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %518 = stablehlo.reshape %517 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %519 = stablehlo.broadcast_in_dim %518, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %520 = stablehlo.multiply %502, %519 : tensor<1x4096x9x64xf32>
      %521 = stablehlo.add %516, %520 : tensor<1x4096x9x64xf32>
      %522 = stablehlo.concatenate %512, %521, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
      %523 = stablehlo.convert %522 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
      %524 = stablehlo.dynamic_slice %iterArg_47, %iterArg, %c_63, %c_63, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
      %525 = stablehlo.reshape %524 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
      %526 = "stablehlo.all_gather"(%525) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
      %527 = stablehlo.dot_general %488, %526, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x1152xbf16>
      %528 = stablehlo.reduce_precision %527, format = e8m7 : tensor<1x4096x1152xbf16>
      %529 = stablehlo.reshape %528 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
      %530 = stablehlo.convert %529 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
      %531 = stablehlo.slice %530 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %532 = stablehlo.broadcast_in_dim %iterArg_48, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %533 = stablehlo.reshape %532 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %534 = stablehlo.broadcast_in_dim %533, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %535 = stablehlo.multiply %531, %534 : tensor<1x4096x9x64xf32>
      %536 = stablehlo.slice %530 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %537 = stablehlo.broadcast_in_dim %iterArg_49, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %538 = stablehlo.reshape %537 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %539 = stablehlo.broadcast_in_dim %538, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %540 = stablehlo.multiply %536, %539 : tensor<1x4096x9x64xf32>
      %541 = stablehlo.subtract %535, %540 : tensor<1x4096x9x64xf32>
      %542 = stablehlo.broadcast_in_dim %iterArg_50, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %543 = stablehlo.reshape %542 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %544 = stablehlo.broadcast_in_dim %543, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %545 = stablehlo.multiply %536, %544 : tensor<1x4096x9x64xf32>
      %546 = stablehlo.broadcast_in_dim %iterArg_51, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %547 = stablehlo.reshape %546 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %548 = stablehlo.broadcast_in_dim %547, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %549 = stablehlo.multiply %531, %548 : tensor<1x4096x9x64xf32>
      %550 = stablehlo.add %545, %549 : tensor<1x4096x9x64xf32>
      %551 = stablehlo.concatenate %541, %550, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
      %552 = stablehlo.convert %551 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
      %553 = stablehlo.dot_general %523, %552, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x9x128xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x4096xbf16>
      %cst_64 = stablehlo.constant dense<1.131250e+01> : tensor<bf16>
      %554 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<bf16>) -> tensor<1x9x4096x4096xbf16>
      %555 = stablehlo.divide %553, %554 : tensor<1x9x4096x4096xbf16>
      %556 = stablehlo.convert %555 : (tensor<1x9x4096x4096xbf16>) -> tensor<1x9x4096x4096xf32>
      %557 = stablehlo.select %iterArg_52, %556, %iterArg_53 : tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>
      %cst_65 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %558 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<1x9x4096xf32>
      %559 = stablehlo.reduce(%557 init: %cst_65) applies stablehlo.maximum across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
      %560 = stablehlo.maximum %558, %559 : tensor<1x9x4096xf32>
      %561 = stablehlo.reshape %560 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
      %562 = stablehlo.broadcast_in_dim %561, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
      %563 = stablehlo.reshape %562 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
      %564 = stablehlo.broadcast_in_dim %563, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
      %565 = stablehlo.subtract %557, %564 : tensor<1x9x4096x4096xf32>
      %566 = stablehlo.exponential %565 : tensor<1x9x4096x4096xf32>
      %567 = stablehlo.reduce(%566 init: %cst_60) applies stablehlo.add across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
      %568 = stablehlo.reshape %567 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
      %569 = stablehlo.broadcast_in_dim %568, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
      %570 = stablehlo.reshape %569 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
      %571 = stablehlo.broadcast_in_dim %570, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
      %572 = stablehlo.divide %566, %571 : tensor<1x9x4096x4096xf32>
      %573 = stablehlo.convert %572 : (tensor<1x9x4096x4096xf32>) -> tensor<1x9x4096x4096xbf16>
      %574 = stablehlo.dot_general %494, %573, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x9x128xbf16>, tensor<1x9x4096x4096xbf16>) -> tensor<1x9x128x4096xbf16>
      %575 = stablehlo.transpose %574, dims = [0, 3, 1, 2] {result_layout = dense<[1, 3, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{1,3,2,0}"} : (tensor<1x9x128x4096xbf16>) -> tensor<1x4096x9x128xbf16>
      %576 = stablehlo.reduce_precision %575, format = e8m7 {result_layout = dense<[1, 3, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{1,3,2,0}"} : tensor<1x4096x9x128xbf16>
      %577 = stablehlo.reshape %576 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
      %578 = stablehlo.dynamic_slice %iterArg_54, %iterArg, %c_63, %c_63, sizes = [1, 288, 576] : (tensor<7x288x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x288x576xbf16>
      %579 = stablehlo.reshape %578 : (tensor<1x288x576xbf16>) -> tensor<288x576xbf16>
      %580 = "stablehlo.all_gather"(%579) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<288x576xbf16>) -> tensor<1152x576xbf16>
      %581 = stablehlo.dot_general %577, %580, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<1152x576xbf16>) -> tensor<1x4096x576xbf16>
      %582 = stablehlo.reduce_precision %581, format = e8m7 : tensor<1x4096x576xbf16>
      %583 = stablehlo.add %iterArg_31, %582 : tensor<1x4096x576xbf16>
      %584 = stablehlo.convert %583 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
      %585 = stablehlo.multiply %584, %584 : tensor<1x4096x576xf32>
      %586 = stablehlo.reduce(%585 init: %cst_60) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
      %587 = stablehlo.reshape %586 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
      %588 = stablehlo.divide %587, %470 : tensor<1x4096x1xf32>
      %589 = stablehlo.add %588, %472 : tensor<1x4096x1xf32>
      %590 = stablehlo.rsqrt %589 : tensor<1x4096x1xf32>
      %591 = stablehlo.broadcast_in_dim %590, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
      %592 = stablehlo.reshape %591 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
      %593 = stablehlo.broadcast_in_dim %592, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
      %594 = stablehlo.multiply %584, %593 : tensor<1x4096x576xf32>
      %595 = stablehlo.dynamic_slice %iterArg_55, %iterArg, %c_63, sizes = [1, 144] : (tensor<7x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x144xbf16>
      %596 = stablehlo.reshape %595 : (tensor<1x144xbf16>) -> tensor<144xbf16>
      %597 = "stablehlo.all_gather"(%596) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144xbf16>) -> tensor<576xbf16>
      %598 = stablehlo.convert %597 : (tensor<576xbf16>) -> tensor<576xf32>
      %599 = stablehlo.reshape %598 : (tensor<576xf32>) -> tensor<1x1x576xf32>
      %600 = stablehlo.broadcast_in_dim %599, dims = [0, 1, 2] : (tensor<1x1x576xf32>) -> tensor<1x1x576xf32>
      %601 = stablehlo.reshape %600 : (tensor<1x1x576xf32>) -> tensor<1x576xf32>
      %602 = stablehlo.broadcast_in_dim %601, dims = [0, 2] : (tensor<1x576xf32>) -> tensor<1x4096x576xf32>
      %603 = stablehlo.multiply %594, %602 : tensor<1x4096x576xf32>
      %604 = stablehlo.convert %603 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
      %605 = stablehlo.dynamic_slice %iterArg_56, %iterArg, %c_63, %c_63, sizes = [1, 144, 2016] : (tensor<7x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x2016xbf16>
      %606 = stablehlo.reshape %605 : (tensor<1x144x2016xbf16>) -> tensor<144x2016xbf16>
      %607 = "stablehlo.all_gather"(%606) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x2016xbf16>) -> tensor<576x2016xbf16>
      %608 = stablehlo.dot_general %604, %607, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x2016xbf16>) -> tensor<1x4096x2016xbf16>
      %609 = stablehlo.reduce_precision %608, format = e8m7 : tensor<1x4096x2016xbf16>
      %cst_66 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
      %610 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<bf16>) -> tensor<1x4096x2016xbf16>
      %611 = stablehlo.negate %609 : tensor<1x4096x2016xbf16>
      %612 = stablehlo.exponential %611 : tensor<1x4096x2016xbf16>
      %613 = stablehlo.add %612, %610 : tensor<1x4096x2016xbf16>
      %614 = stablehlo.divide %610, %613 : tensor<1x4096x2016xbf16>
      %615 = stablehlo.multiply %609, %614 : tensor<1x4096x2016xbf16>
      %616 = stablehlo.dynamic_slice %iterArg_57, %iterArg, %c_63, %c_63, sizes = [1, 144, 2016] : (tensor<7x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x2016xbf16>
      %617 = stablehlo.reshape %616 : (tensor<1x144x2016xbf16>) -> tensor<144x2016xbf16>
      %618 = "stablehlo.all_gather"(%617) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x2016xbf16>) -> tensor<576x2016xbf16>
      %619 = stablehlo.dot_general %604, %618, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x2016xbf16>) -> tensor<1x4096x2016xbf16>
      %620 = stablehlo.reduce_precision %619, format = e8m7 : tensor<1x4096x2016xbf16>
      %621 = stablehlo.multiply %615, %620 : tensor<1x4096x2016xbf16>
      %622 = stablehlo.dynamic_slice %iterArg_58, %iterArg, %c_63, %c_63, sizes = [1, 504, 576] : (tensor<7x504x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x504x576xbf16>
      %623 = stablehlo.reshape %622 : (tensor<1x504x576xbf16>) -> tensor<504x576xbf16>
      %624 = "stablehlo.all_gather"(%623) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<504x576xbf16>) -> tensor<2016x576xbf16>
      %625 = stablehlo.dot_general %621, %624, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<2016x576xbf16>) -> tensor<1x4096x576xbf16>
      %626 = stablehlo.add %583, %625 : tensor<1x4096x576xbf16>
      %627 = stablehlo.reshape %499 : (tensor<1x4096x1152xbf16>) -> tensor<1x1x4096x1152xbf16>
      %628 = stablehlo.dynamic_update_slice %iterArg_32, %627, %iterArg, %c_63, %c_63, %c_63 : (tensor<7x1x4096x1152xbf16>, tensor<1x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x1152xbf16>
      %629 = stablehlo.reshape %528 : (tensor<1x4096x1152xbf16>) -> tensor<1x1x4096x1152xbf16>
      %630 = stablehlo.dynamic_update_slice %iterArg_33, %629, %iterArg, %c_63, %c_63, %c_63 : (tensor<7x1x4096x1152xbf16>, tensor<1x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x1152xbf16>
      %631 = stablehlo.reshape %493 : (tensor<1x4096x1152xbf16>) -> tensor<1x1x4096x1152xbf16>
      %632 = stablehlo.dynamic_update_slice %iterArg_34, %631, %iterArg, %c_63, %c_63, %c_63 : (tensor<7x1x4096x1152xbf16>, tensor<1x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x1152xbf16>
      %633 = stablehlo.reshape %576 : (tensor<1x4096x9x128xbf16>) -> tensor<1x1x4096x9x128xbf16>
      %634 = stablehlo.dynamic_update_slice %iterArg_35, %633, %iterArg, %c_63, %c_63, %c_63, %c_63 : (tensor<7x1x4096x9x128xbf16>, tensor<1x1x4096x9x128xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x9x128xbf16>
      %635 = stablehlo.reshape %582 : (tensor<1x4096x576xbf16>) -> tensor<1x1x4096x576xbf16>
      %636 = stablehlo.dynamic_update_slice %iterArg_36, %635, %iterArg, %c_63, %c_63, %c_63 : (tensor<7x1x4096x576xbf16>, tensor<1x1x4096x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x576xbf16>
      %637 = stablehlo.reshape %609 : (tensor<1x4096x2016xbf16>) -> tensor<1x1x4096x2016xbf16>
      %638 = stablehlo.dynamic_update_slice %iterArg_37, %637, %iterArg, %c_63, %c_63, %c_63 : (tensor<7x1x4096x2016xbf16>, tensor<1x1x4096x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x2016xbf16>
      %639 = stablehlo.reshape %620 : (tensor<1x4096x2016xbf16>) -> tensor<1x1x4096x2016xbf16>
      %640 = stablehlo.dynamic_update_slice %iterArg_38, %639, %iterArg, %c_63, %c_63, %c_63 : (tensor<7x1x4096x2016xbf16>, tensor<1x1x4096x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x2016xbf16>
      %641 = stablehlo.reshape %iterArg_31 : (tensor<1x4096x576xbf16>) -> tensor<1x1x4096x576xbf16>
      %642 = stablehlo.dynamic_update_slice %iterArg_39, %641, %iterArg, %c_63, %c_63, %c_63 : (tensor<7x1x4096x576xbf16>, tensor<1x1x4096x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x1x4096x576xbf16>
      stablehlo.return %465, %626, %628, %630, %632, %634, %636, %638, %640, %642, %iterArg_40, %iterArg_41, %iterArg_42, %iterArg_43, %iterArg_44, %iterArg_45, %iterArg_46, %iterArg_47, %iterArg_48, %iterArg_49, %iterArg_50, %iterArg_51, %iterArg_52, %iterArg_53, %iterArg_54, %iterArg_55, %iterArg_56, %iterArg_57, %iterArg_58 : tensor<i32>, tensor<1x4096x576xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x9x128xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<7x144x1152xbf16>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x4096x1x64xf32>, tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>, tensor<7x288x576xbf16>, tensor<7x144xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x504x576xbf16>
    }
    %79 = stablehlo.convert %78#1 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
    %80 = stablehlo.multiply %79, %79 : tensor<1x4096x576xf32>
    %81 = stablehlo.reduce(%80 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %82 = stablehlo.reshape %81 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %cst_18 = stablehlo.constant dense<5.760000e+02> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %84 = stablehlo.divide %82, %83 : tensor<1x4096x1xf32>
    %cst_19 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %86 = stablehlo.add %84, %85 : tensor<1x4096x1xf32>
    %87 = stablehlo.rsqrt %86 : tensor<1x4096x1xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
    %89 = stablehlo.reshape %88 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
    %91 = stablehlo.multiply %79, %90 : tensor<1x4096x576xf32>
    %92 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144xbf16>) -> tensor<576xbf16>
    %93 = stablehlo.convert %92 : (tensor<576xbf16>) -> tensor<576xf32>
    %94 = stablehlo.reshape %93 : (tensor<576xf32>) -> tensor<1x1x576xf32>
    %95 = stablehlo.broadcast_in_dim %94, dims = [0, 1, 2] : (tensor<1x1x576xf32>) -> tensor<1x1x576xf32>
    %96 = stablehlo.reshape %95 : (tensor<1x1x576xf32>) -> tensor<1x576xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 2] : (tensor<1x576xf32>) -> tensor<1x4096x576xf32>
    %98 = stablehlo.multiply %91, %97 : tensor<1x4096x576xf32>
    %99 = stablehlo.convert %98 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
    %100 = "stablehlo.all_gather"(%arg11) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x128256xbf16>) -> tensor<576x128256xbf16>
    %101 = stablehlo.dot_general %99, %100, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<576x128256xbf16>) -> tensor<1x4096x128256xbf16>
    %102 = stablehlo.convert %101 : (tensor<1x4096x128256xbf16>) -> tensor<1x4096x128256xf32>
    %cst_20 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %103 = stablehlo.reduce(%102 init: %cst_20) applies stablehlo.maximum across dimensions = [2] : (tensor<1x4096x128256xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %104 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<1x4096xf32>
    %105 = stablehlo.maximum %103, %104 : tensor<1x4096xf32>
    %106 = stablehlo.reshape %105 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
    %108 = stablehlo.reshape %107 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
    %109 = stablehlo.broadcast_in_dim %108, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x128256xf32>
    %110 = stablehlo.subtract %102, %109 : tensor<1x4096x128256xf32>
    %111 = stablehlo.exponential %110 : tensor<1x4096x128256xf32>
    %112 = stablehlo.reduce(%111 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x128256xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %113 = stablehlo.reshape %112 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %114 = stablehlo.divide %32, %113 : tensor<1x4096x1xf32>
    %115 = stablehlo.reduce(%114 init: %cst_8) applies stablehlo.add across dimensions = [0, 2] : (tensor<1x4096x1xf32>, tensor<f32>) -> tensor<4096xf32>
    %116 = stablehlo.reshape %115 : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x128256xf32>
    %118 = stablehlo.multiply %117, %111 : tensor<1x4096x128256xf32>
    %119 = stablehlo.add %29, %118 : tensor<1x4096x128256xf32>
    %120 = stablehlo.convert %119 : (tensor<1x4096x128256xf32>) -> tensor<1x4096x128256xbf16>
    %121 = stablehlo.dot_general %120, %100, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x128256xbf16>, tensor<576x128256xbf16>) -> tensor<1x4096x576xbf16>
    %122 = stablehlo.convert %121 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
    %123 = stablehlo.multiply %122, %97 : tensor<1x4096x576xf32>
    %124 = stablehlo.multiply %123, %90 : tensor<1x4096x576xf32>
    %125 = stablehlo.multiply %79, %123 : tensor<1x4096x576xf32>
    %126 = stablehlo.reduce(%125 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
    %127 = stablehlo.reshape %126 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
    %128 = stablehlo.divide %87, %86 : tensor<1x4096x1xf32>
    %cst_21 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %129 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %130 = stablehlo.multiply %128, %129 : tensor<1x4096x1xf32>
    %131 = stablehlo.multiply %127, %130 : tensor<1x4096x1xf32>
    %132 = stablehlo.divide %131, %83 : tensor<1x4096x1xf32>
    %133 = stablehlo.reduce(%132 init: %cst_8) applies stablehlo.add across dimensions = [0, 2] : (tensor<1x4096x1xf32>, tensor<f32>) -> tensor<4096xf32>
    %134 = stablehlo.reshape %133 : (tensor<4096xf32>) -> tensor<1x4096xf32>
    %135 = stablehlo.broadcast_in_dim %134, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
    %136 = stablehlo.multiply %79, %135 : tensor<1x4096x576xf32>
    %137 = stablehlo.add %124, %136 : tensor<1x4096x576xf32>
    %138 = stablehlo.add %137, %136 : tensor<1x4096x576xf32>
    %139 = stablehlo.convert %138 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
    %140 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<7x144xbf16>
    %141 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<7x504x576xbf16>
    %142 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<7x144x2016xbf16>
    %143 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<7x144x1152xbf16>
    %144 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<7x288x576xbf16>
    %145:28 = stablehlo.while(%iterArg = %c_6, %iterArg_31 = %139, %iterArg_32 = %140, %iterArg_33 = %140, %iterArg_34 = %141, %iterArg_35 = %142, %iterArg_36 = %142, %iterArg_37 = %143, %iterArg_38 = %144, %iterArg_39 = %143, %iterArg_40 = %143, %iterArg_41 = %78#2, %iterArg_42 = %78#3, %iterArg_43 = %78#4, %iterArg_44 = %78#5, %iterArg_45 = %78#6, %iterArg_46 = %78#7, %iterArg_47 = %78#8, %iterArg_48 = %78#9, %iterArg_49 = %arg2, %iterArg_50 = %arg3, %iterArg_51 = %arg4, %iterArg_52 = %arg5, %iterArg_53 = %arg6, %iterArg_54 = %arg7, %iterArg_55 = %arg8, %iterArg_56 = %arg9, %iterArg_57 = %arg10) : tensor<i32>, tensor<1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x9x128xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>
    cond {
      %c_58 = stablehlo.constant dense<7> : tensor<i32>
      %465 = stablehlo.compare LT, %iterArg, %c_58 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %465 : tensor<i1>
    } do {
      %c_58 = stablehlo.constant dense<1> : tensor<i32>
      %465 = stablehlo.add %iterArg, %c_58 : tensor<i32>
      %c_59 = stablehlo.constant dense<7> : tensor<i32>
      %466 = stablehlo.subtract %c_59, %iterArg : tensor<i32>
      %467 = stablehlo.subtract %466, %c_58 : tensor<i32>
      %c_60 = stablehlo.constant dense<0> : tensor<i32>
      %468 = stablehlo.dynamic_slice %iterArg_41, %467, %c_60, %c_60, %c_60, sizes = [1, 1, 4096, 1152] : (tensor<7x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x1152xbf16>
      %469 = stablehlo.reshape %468 : (tensor<1x1x4096x1152xbf16>) -> tensor<1x4096x1152xbf16>
      %470 = stablehlo.dynamic_slice %iterArg_42, %467, %c_60, %c_60, %c_60, sizes = [1, 1, 4096, 1152] : (tensor<7x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x1152xbf16>
      %471 = stablehlo.reshape %470 : (tensor<1x1x4096x1152xbf16>) -> tensor<1x4096x1152xbf16>
      %472 = stablehlo.dynamic_slice %iterArg_43, %467, %c_60, %c_60, %c_60, sizes = [1, 1, 4096, 1152] : (tensor<7x1x4096x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x1152xbf16>
      %473 = stablehlo.reshape %472 : (tensor<1x1x4096x1152xbf16>) -> tensor<1x4096x1152xbf16>
      %474 = stablehlo.dynamic_slice %iterArg_44, %467, %c_60, %c_60, %c_60, %c_60, sizes = [1, 1, 4096, 9, 128] : (tensor<7x1x4096x9x128xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x9x128xbf16>
      %475 = stablehlo.reshape %474 : (tensor<1x1x4096x9x128xbf16>) -> tensor<1x4096x9x128xbf16>
      %476 = stablehlo.dynamic_slice %iterArg_45, %467, %c_60, %c_60, %c_60, sizes = [1, 1, 4096, 576] : (tensor<7x1x4096x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x576xbf16>
      %477 = stablehlo.reshape %476 : (tensor<1x1x4096x576xbf16>) -> tensor<1x4096x576xbf16>
      %478 = stablehlo.dynamic_slice %iterArg_46, %467, %c_60, %c_60, %c_60, sizes = [1, 1, 4096, 2016] : (tensor<7x1x4096x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x2016xbf16>
      %479 = stablehlo.reshape %478 : (tensor<1x1x4096x2016xbf16>) -> tensor<1x4096x2016xbf16>
      %480 = stablehlo.dynamic_slice %iterArg_47, %467, %c_60, %c_60, %c_60, sizes = [1, 1, 4096, 2016] : (tensor<7x1x4096x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x2016xbf16>
      %481 = stablehlo.reshape %480 : (tensor<1x1x4096x2016xbf16>) -> tensor<1x4096x2016xbf16>
      %482 = stablehlo.dynamic_slice %iterArg_48, %467, %c_60, %c_60, %c_60, sizes = [1, 1, 4096, 576] : (tensor<7x1x4096x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x4096x576xbf16>
      %483 = stablehlo.reshape %482 : (tensor<1x1x4096x576xbf16>) -> tensor<1x4096x576xbf16>
      %484 = stablehlo.dynamic_slice %iterArg_49, %467, %c_60, sizes = [1, 144] : (tensor<7x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x144xbf16>
      %485 = stablehlo.reshape %484 : (tensor<1x144xbf16>) -> tensor<144xbf16>
      %486 = stablehlo.dynamic_slice %iterArg_50, %467, %c_60, sizes = [1, 144] : (tensor<7x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<1x144xbf16>
      %487 = stablehlo.reshape %486 : (tensor<1x144xbf16>) -> tensor<144xbf16>
      %488 = stablehlo.dynamic_slice %iterArg_51, %467, %c_60, %c_60, sizes = [1, 504, 576] : (tensor<7x504x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x504x576xbf16>
      %489 = stablehlo.reshape %488 : (tensor<1x504x576xbf16>) -> tensor<504x576xbf16>
      %490 = stablehlo.dynamic_slice %iterArg_52, %467, %c_60, %c_60, sizes = [1, 144, 2016] : (tensor<7x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x2016xbf16>
      %491 = stablehlo.reshape %490 : (tensor<1x144x2016xbf16>) -> tensor<144x2016xbf16>
      %492 = stablehlo.dynamic_slice %iterArg_53, %467, %c_60, %c_60, sizes = [1, 144, 2016] : (tensor<7x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x2016xbf16>
      %493 = stablehlo.reshape %492 : (tensor<1x144x2016xbf16>) -> tensor<144x2016xbf16>
      %494 = stablehlo.dynamic_slice %iterArg_54, %467, %c_60, %c_60, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
      %495 = stablehlo.reshape %494 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
      %496 = stablehlo.dynamic_slice %iterArg_55, %467, %c_60, %c_60, sizes = [1, 288, 576] : (tensor<7x288x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x288x576xbf16>
      %497 = stablehlo.reshape %496 : (tensor<1x288x576xbf16>) -> tensor<288x576xbf16>
      %498 = stablehlo.dynamic_slice %iterArg_56, %467, %c_60, %c_60, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
      %499 = stablehlo.reshape %498 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
      %500 = stablehlo.dynamic_slice %iterArg_57, %467, %c_60, %c_60, sizes = [1, 144, 1152] : (tensor<7x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x144x1152xbf16>
      %501 = stablehlo.reshape %500 : (tensor<1x144x1152xbf16>) -> tensor<144x1152xbf16>
      %502:18 = stablehlo.optimization_barrier %469, %471, %473, %475, %477, %479, %481, %483, %485, %487, %489, %491, %493, %495, %497, %499, %501, %iterArg_31 : tensor<1x4096x1152xbf16>, tensor<1x4096x1152xbf16>, tensor<1x4096x1152xbf16>, tensor<1x4096x9x128xbf16>, tensor<1x4096x576xbf16>, tensor<1x4096x2016xbf16>, tensor<1x4096x2016xbf16>, tensor<1x4096x576xbf16>, tensor<144xbf16>, tensor<144xbf16>, tensor<504x576xbf16>, tensor<144x2016xbf16>, tensor<144x2016xbf16>, tensor<144x1152xbf16>, tensor<288x576xbf16>, tensor<144x1152xbf16>, tensor<144x1152xbf16>, tensor<1x4096x576xbf16>
      %cst_61 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
      %503 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<bf16>) -> tensor<1x4096x2016xbf16>
      %504 = stablehlo.negate %502#5 : tensor<1x4096x2016xbf16>
      %505 = stablehlo.exponential %504 : tensor<1x4096x2016xbf16>
      %506 = stablehlo.add %505, %503 : tensor<1x4096x2016xbf16>
      %507 = stablehlo.divide %503, %506 : tensor<1x4096x2016xbf16>
      %508 = stablehlo.multiply %502#5, %507 : tensor<1x4096x2016xbf16>
      %509 = "stablehlo.all_gather"(%502#10) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<504x576xbf16>) -> tensor<2016x576xbf16>
      %510 = stablehlo.dot_general %502#17, %509, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<2016x576xbf16>) -> tensor<1x4096x2016xbf16>
      %511 = stablehlo.multiply %508, %510 : tensor<1x4096x2016xbf16>
      %512 = "stablehlo.all_gather"(%502#12) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x2016xbf16>) -> tensor<576x2016xbf16>
      %513 = stablehlo.dot_general %511, %512, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<576x2016xbf16>) -> tensor<1x4096x576xbf16>
      %514 = stablehlo.multiply %510, %502#6 : tensor<1x4096x2016xbf16>
      %515 = stablehlo.multiply %514, %507 : tensor<1x4096x2016xbf16>
      %516 = stablehlo.multiply %502#5, %514 : tensor<1x4096x2016xbf16>
      %517 = stablehlo.subtract %503, %507 : tensor<1x4096x2016xbf16>
      %518 = stablehlo.multiply %507, %517 : tensor<1x4096x2016xbf16>
      %519 = stablehlo.multiply %516, %518 : tensor<1x4096x2016xbf16>
      %520 = stablehlo.add %515, %519 : tensor<1x4096x2016xbf16>
      %521 = "stablehlo.all_gather"(%502#11) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x2016xbf16>) -> tensor<576x2016xbf16>
      %522 = stablehlo.dot_general %520, %521, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<576x2016xbf16>) -> tensor<1x4096x576xbf16>
      %523 = stablehlo.add %513, %522 : tensor<1x4096x576xbf16>
      %524 = stablehlo.convert %523 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
      %525 = "stablehlo.all_gather"(%502#9) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144xbf16>) -> tensor<576xbf16>
      %526 = stablehlo.convert %525 : (tensor<576xbf16>) -> tensor<576xf32>
      %527 = stablehlo.reshape %526 : (tensor<576xf32>) -> tensor<1x1x576xf32>
      %528 = stablehlo.broadcast_in_dim %527, dims = [0, 1, 2] : (tensor<1x1x576xf32>) -> tensor<1x1x576xf32>
      %529 = stablehlo.reshape %528 : (tensor<1x1x576xf32>) -> tensor<1x576xf32>
      %530 = stablehlo.broadcast_in_dim %529, dims = [0, 2] : (tensor<1x576xf32>) -> tensor<1x4096x576xf32>
      %531 = stablehlo.multiply %524, %530 : tensor<1x4096x576xf32>
      %532 = stablehlo.add %502#7, %502#4 : tensor<1x4096x576xbf16>
      %533 = stablehlo.convert %532 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
      %534 = stablehlo.multiply %533, %533 : tensor<1x4096x576xf32>
      %cst_62 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %535 = stablehlo.reduce(%534 init: %cst_62) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
      %536 = stablehlo.reshape %535 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
      %cst_63 = stablehlo.constant dense<5.760000e+02> : tensor<f32>
      %537 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
      %538 = stablehlo.divide %536, %537 : tensor<1x4096x1xf32>
      %cst_64 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
      %539 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
      %540 = stablehlo.add %538, %539 : tensor<1x4096x1xf32>
      %541 = stablehlo.rsqrt %540 : tensor<1x4096x1xf32>
      %542 = stablehlo.broadcast_in_dim %541, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
      %543 = stablehlo.reshape %542 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
      %544 = stablehlo.broadcast_in_dim %543, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
      %545 = stablehlo.multiply %531, %544 : tensor<1x4096x576xf32>
      %546 = stablehlo.multiply %533, %531 : tensor<1x4096x576xf32>
      %547 = stablehlo.reduce(%546 init: %cst_62) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
      %548 = stablehlo.reshape %547 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
      %549 = stablehlo.divide %541, %540 : tensor<1x4096x1xf32>
      %cst_65 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
      %550 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
      %551 = stablehlo.multiply %549, %550 : tensor<1x4096x1xf32>
      %552 = stablehlo.multiply %548, %551 : tensor<1x4096x1xf32>
      %553 = stablehlo.divide %552, %537 : tensor<1x4096x1xf32>
      %554 = stablehlo.reduce(%553 init: %cst_62) applies stablehlo.add across dimensions = [0, 2] : (tensor<1x4096x1xf32>, tensor<f32>) -> tensor<4096xf32>
      %555 = stablehlo.reshape %554 : (tensor<4096xf32>) -> tensor<1x4096xf32>
      %556 = stablehlo.broadcast_in_dim %555, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
      %557 = stablehlo.multiply %533, %556 : tensor<1x4096x576xf32>
      %558 = stablehlo.add %545, %557 : tensor<1x4096x576xf32>
      %559 = stablehlo.add %558, %557 : tensor<1x4096x576xf32>
      %560 = stablehlo.convert %559 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
      %561 = stablehlo.add %502#17, %560 : tensor<1x4096x576xbf16>
      %562 = "stablehlo.all_gather"(%502#14) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<288x576xbf16>) -> tensor<1152x576xbf16>
      %563 = stablehlo.dot_general %561, %562, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<1152x576xbf16>) -> tensor<1x4096x1152xbf16>
      %564 = stablehlo.reshape %563 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
      %565 = stablehlo.transpose %564, dims = [0, 2, 3, 1] {result_layout = dense<[2, 1, 3, 0]> : tensor<4xindex>, xla_shape = "bf16[1,9,128,4096]{2,1,3,0}"} : (tensor<1x4096x9x128xbf16>) -> tensor<1x9x128x4096xbf16>
      %566 = stablehlo.iota dim = 0 : tensor<4096xi32>
      %567 = stablehlo.broadcast_in_dim %566, dims = [0] : (tensor<4096xi32>) -> tensor<4096x4096xi32>
      %568 = stablehlo.iota dim = 0 : tensor<4096xi32>
      %569 = stablehlo.broadcast_in_dim %568, dims = [1] : (tensor<4096xi32>) -> tensor<4096x4096xi32>
      %570 = stablehlo.compare GE, %567, %569 : (tensor<4096x4096xi32>, tensor<4096x4096xi32>) -> tensor<4096x4096xi1>
      %c_66 = stablehlo.constant dense<true> : tensor<i1>
      %571 = stablehlo.broadcast_in_dim %c_66, dims = [] : (tensor<i1>) -> tensor<4096x4096xi1>
      %c_67 = stablehlo.constant dense<false> : tensor<i1>
      %572 = stablehlo.broadcast_in_dim %c_67, dims = [] : (tensor<i1>) -> tensor<4096x4096xi1>
      %573 = stablehlo.select %570, %571, %572 : tensor<4096x4096xi1>, tensor<4096x4096xi1>
      %574 = stablehlo.broadcast_in_dim %573, dims = [2, 3] : (tensor<4096x4096xi1>) -> tensor<1x9x4096x4096xi1>
      %575 = stablehlo.reshape %502#0 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
      %576 = stablehlo.convert %575 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
      %577 = stablehlo.slice %576 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %578 = stablehlo.iota dim = 0 : tensor<4096xf32>
      %579 = stablehlo.reshape %578 : (tensor<4096xf32>) -> tensor<4096x1xf32>
      %580 = stablehlo.broadcast_in_dim %579, dims = [0, 1] : (tensor<4096x1xf32>) -> tensor<4096x1xf32>
      %581 = stablehlo.reshape %580 : (tensor<4096x1xf32>) -> tensor<4096xf32>
      %582 = stablehlo.broadcast_in_dim %581, dims = [0] : (tensor<4096xf32>) -> tensor<4096x64xf32>
      %cst_68 = stablehlo.constant dense<5.000000e+05> : tensor<f32>
      %583 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<64xf32>
      %584 = stablehlo.iota dim = 0 : tensor<64xf32>
      %cst_69 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %585 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<64xf32>
      %586 = stablehlo.multiply %584, %585 : tensor<64xf32>
      %cst_70 = stablehlo.constant dense<1.280000e+02> : tensor<f32>
      %587 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<64xf32>
      %588 = stablehlo.divide %586, %587 : tensor<64xf32>
      %589 = stablehlo.power %583, %588 : tensor<64xf32>
      %590 = stablehlo.reshape %589 : (tensor<64xf32>) -> tensor<1x64xf32>
      %591 = stablehlo.broadcast_in_dim %590, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<1x64xf32>
      %592 = stablehlo.reshape %591 : (tensor<1x64xf32>) -> tensor<64xf32>
      %593 = stablehlo.broadcast_in_dim %592, dims = [1] : (tensor<64xf32>) -> tensor<4096x64xf32>
      %594 = stablehlo.divide %582, %593 : tensor<4096x64xf32>
      %595 = stablehlo.cosine %594 : tensor<4096x64xf32>
      %596 = stablehlo.reshape %595 : (tensor<4096x64xf32>) -> tensor<1x4096x1x64xf32>
      %597 = stablehlo.broadcast_in_dim %596, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %598 = stablehlo.reshape %597 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %599 = stablehlo.broadcast_in_dim %598, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %600 = stablehlo.multiply %577, %599 : tensor<1x4096x9x64xf32>
      %601 = stablehlo.slice %576 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %602 = stablehlo.sine %594 : tensor<4096x64xf32>
      %603 = stablehlo.reshape %602 : (tensor<4096x64xf32>) -> tensor<1x4096x1x64xf32>
      %604 = stablehlo.broadcast_in_dim %603, dims = [0, 1, 2, 3] : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x1x64xf32>
      %605 = stablehlo.reshape %604 : (tensor<1x4096x1x64xf32>) -> tensor<1x4096x64xf32>
      %606 = stablehlo.broadcast_in_dim %605, dims = [0, 1, 3] : (tensor<1x4096x64xf32>) -> tensor<1x4096x9x64xf32>
      %607 = stablehlo.multiply %601, %606 : tensor<1x4096x9x64xf32>
      %608 = stablehlo.subtract %600, %607 : tensor<1x4096x9x64xf32>
      %609 = stablehlo.multiply %601, %599 : tensor<1x4096x9x64xf32>
      %610 = stablehlo.multiply %577, %606 : tensor<1x4096x9x64xf32>
      %611 = stablehlo.add %609, %610 : tensor<1x4096x9x64xf32>
      %612 = stablehlo.concatenate %608, %611, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
      %613 = stablehlo.convert %612 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
      %614 = stablehlo.reshape %502#1 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
      %615 = stablehlo.convert %614 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
      %616 = stablehlo.slice %615 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %617 = stablehlo.multiply %616, %599 : tensor<1x4096x9x64xf32>
      %618 = stablehlo.slice %615 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %619 = stablehlo.multiply %618, %606 : tensor<1x4096x9x64xf32>
      %620 = stablehlo.subtract %617, %619 : tensor<1x4096x9x64xf32>
      %621 = stablehlo.multiply %618, %599 : tensor<1x4096x9x64xf32>
      %622 = stablehlo.multiply %616, %606 : tensor<1x4096x9x64xf32>
      %623 = stablehlo.add %621, %622 : tensor<1x4096x9x64xf32>
      %624 = stablehlo.concatenate %620, %623, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
      %625 = stablehlo.convert %624 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
      %626 = stablehlo.dot_general %613, %625, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x9x128xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x4096xbf16>
      %cst_71 = stablehlo.constant dense<1.131250e+01> : tensor<bf16>
      %627 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<bf16>) -> tensor<1x9x4096x4096xbf16>
      %628 = stablehlo.divide %626, %627 : tensor<1x9x4096x4096xbf16>
      %629 = stablehlo.convert %628 : (tensor<1x9x4096x4096xbf16>) -> tensor<1x9x4096x4096xf32>
      %cst_72 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
      %630 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<1x9x4096x4096xf32>
      %631 = stablehlo.select %574, %629, %630 : tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>
      %cst_73 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %632 = stablehlo.reduce(%631 init: %cst_73) applies stablehlo.maximum across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
      %633 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<1x9x4096xf32>
      %634 = stablehlo.maximum %632, %633 : tensor<1x9x4096xf32>
      %635 = stablehlo.reshape %634 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
      %636 = stablehlo.broadcast_in_dim %635, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
      %637 = stablehlo.reshape %636 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
      %638 = stablehlo.broadcast_in_dim %637, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
      %639 = stablehlo.subtract %631, %638 : tensor<1x9x4096x4096xf32>
      %640 = stablehlo.exponential %639 : tensor<1x9x4096x4096xf32>
      %641 = stablehlo.reduce(%640 init: %cst_62) applies stablehlo.add across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
      %642 = stablehlo.reshape %641 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
      %643 = stablehlo.broadcast_in_dim %642, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
      %644 = stablehlo.reshape %643 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
      %645 = stablehlo.broadcast_in_dim %644, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
      %646 = stablehlo.divide %640, %645 : tensor<1x9x4096x4096xf32>
      %647 = stablehlo.convert %646 : (tensor<1x9x4096x4096xf32>) -> tensor<1x9x4096x4096xbf16>
      %648 = stablehlo.dot_general %565, %647, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<1x9x128x4096xbf16>, tensor<1x9x4096x4096xbf16>) -> tensor<1x9x128x4096xbf16>
      %649 = stablehlo.transpose %648, dims = [0, 3, 1, 2] {result_layout = dense<[1, 3, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{1,3,2,0}"} : (tensor<1x9x128x4096xbf16>) -> tensor<1x4096x9x128xbf16>
      %650 = stablehlo.reshape %649 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x1x128xbf16>
      %cst_74 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
      %651 = stablehlo.reduce(%650 init: %cst_74) applies stablehlo.add across dimensions = [0, 3] : (tensor<1x4096x9x1x128xbf16>, tensor<bf16>) -> tensor<4096x9x128xbf16>
      %652 = stablehlo.reshape %651 : (tensor<4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
      %653 = "stablehlo.all_gather"(%502#16) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
      %654 = stablehlo.dot_general %652, %653, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x576xbf16>
      %655 = stablehlo.reshape %502#2 : (tensor<1x4096x1152xbf16>) -> tensor<1x4096x9x128xbf16>
      %656 = stablehlo.dot_general %565, %655, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<1x9x128x4096xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x4096xbf16>
      %657 = stablehlo.convert %656 : (tensor<1x9x4096x4096xbf16>) -> tensor<1x9x4096x4096xf32>
      %658 = stablehlo.divide %657, %645 : tensor<1x9x4096x4096xf32>
      %cst_75 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %659 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<1x9x4096x1xf32>
      %660 = stablehlo.multiply %642, %642 : tensor<1x9x4096x1xf32>
      %661 = stablehlo.divide %659, %660 : tensor<1x9x4096x1xf32>
      %662 = stablehlo.broadcast_in_dim %661, dims = [0, 1, 2, 3] : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096x1xf32>
      %663 = stablehlo.reshape %662 : (tensor<1x9x4096x1xf32>) -> tensor<1x9x4096xf32>
      %664 = stablehlo.broadcast_in_dim %663, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
      %665 = stablehlo.multiply %657, %664 : tensor<1x9x4096x4096xf32>
      %666 = stablehlo.multiply %665, %640 : tensor<1x9x4096x4096xf32>
      %667 = stablehlo.reduce(%666 init: %cst_62) applies stablehlo.add across dimensions = [3] : (tensor<1x9x4096x4096xf32>, tensor<f32>) -> tensor<1x9x4096xf32>
      %668 = stablehlo.reshape %667 : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x1xf32>
      %669 = stablehlo.negate %668 : tensor<1x9x4096x1xf32>
      %670 = stablehlo.reduce(%669 init: %cst_62) applies stablehlo.add across dimensions = [0, 3] : (tensor<1x9x4096x1xf32>, tensor<f32>) -> tensor<9x4096xf32>
      %671 = stablehlo.reshape %670 : (tensor<9x4096xf32>) -> tensor<1x9x4096xf32>
      %672 = stablehlo.broadcast_in_dim %671, dims = [0, 1, 2] : (tensor<1x9x4096xf32>) -> tensor<1x9x4096x4096xf32>
      %673 = stablehlo.add %658, %672 : tensor<1x9x4096x4096xf32>
      %674 = stablehlo.multiply %673, %640 : tensor<1x9x4096x4096xf32>
      %675 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<1x9x4096x4096xf32>
      %676 = stablehlo.select %574, %674, %675 : tensor<1x9x4096x4096xi1>, tensor<1x9x4096x4096xf32>
      %677 = stablehlo.convert %676 : (tensor<1x9x4096x4096xf32>) -> tensor<1x9x4096x4096xbf16>
      %678 = stablehlo.divide %677, %627 : tensor<1x9x4096x4096xbf16>
      %679 = stablehlo.dot_general %678, %613, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x9x4096x4096xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x128xbf16>
      %680 = stablehlo.transpose %679, dims = [0, 2, 1, 3] {result_layout = dense<[3, 1, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{3,1,2,0}"} : (tensor<1x9x4096x128xbf16>) -> tensor<1x4096x9x128xbf16>
      %681 = stablehlo.reshape %680 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x1x128xbf16>
      %682 = stablehlo.reduce(%681 init: %cst_74) applies stablehlo.add across dimensions = [0, 3] : (tensor<1x4096x9x1x128xbf16>, tensor<bf16>) -> tensor<4096x9x128xbf16>
      %683 = stablehlo.reshape %682 : (tensor<4096x9x128xbf16>) -> tensor<1x4096x9x128xbf16>
      %684 = stablehlo.convert %683 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
      %685 = stablehlo.slice %684 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %686 = stablehlo.multiply %685, %606 : tensor<1x4096x9x64xf32>
      %687 = stablehlo.slice %684 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %688 = stablehlo.multiply %687, %599 : tensor<1x4096x9x64xf32>
      %689 = stablehlo.add %686, %688 : tensor<1x4096x9x64xf32>
      %690 = stablehlo.multiply %685, %599 : tensor<1x4096x9x64xf32>
      %691 = stablehlo.negate %687 : tensor<1x4096x9x64xf32>
      %692 = stablehlo.multiply %691, %606 : tensor<1x4096x9x64xf32>
      %693 = stablehlo.add %690, %692 : tensor<1x4096x9x64xf32>
      %694 = stablehlo.concatenate %689, %693, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
      %695 = stablehlo.convert %694 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
      %696 = stablehlo.reshape %695 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
      %697 = "stablehlo.all_gather"(%502#13) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
      %698 = stablehlo.dot_general %696, %697, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x576xbf16>
      %699 = stablehlo.add %654, %698 : tensor<1x4096x576xbf16>
      %700 = stablehlo.dot_general %678, %625, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x9x4096x4096xbf16>, tensor<1x4096x9x128xbf16>) -> tensor<1x9x4096x128xbf16>
      %701 = stablehlo.transpose %700, dims = [0, 2, 1, 3] {result_layout = dense<[3, 1, 2, 0]> : tensor<4xindex>, xla_shape = "bf16[1,4096,9,128]{3,1,2,0}"} : (tensor<1x9x4096x128xbf16>) -> tensor<1x4096x9x128xbf16>
      %702 = stablehlo.convert %701 {result_layout = dense<[3, 1, 2, 0]> : tensor<4xindex>, xla_shape = "f32[1,4096,9,128]{3,1,2,0}"} : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x9x128xf32>
      %703 = stablehlo.slice %702 [0:1, 0:4096, 0:9, 64:128] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %704 = stablehlo.multiply %703, %606 : tensor<1x4096x9x64xf32>
      %705 = stablehlo.slice %702 [0:1, 0:4096, 0:9, 0:64] : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x64xf32>
      %706 = stablehlo.multiply %705, %599 : tensor<1x4096x9x64xf32>
      %707 = stablehlo.add %704, %706 : tensor<1x4096x9x64xf32>
      %708 = stablehlo.multiply %703, %599 : tensor<1x4096x9x64xf32>
      %709 = stablehlo.negate %705 : tensor<1x4096x9x64xf32>
      %710 = stablehlo.multiply %709, %606 : tensor<1x4096x9x64xf32>
      %711 = stablehlo.add %708, %710 : tensor<1x4096x9x64xf32>
      %712 = stablehlo.concatenate %707, %711, dim = 3 : (tensor<1x4096x9x64xf32>, tensor<1x4096x9x64xf32>) -> tensor<1x4096x9x128xf32>
      %713 = stablehlo.convert %712 : (tensor<1x4096x9x128xf32>) -> tensor<1x4096x9x128xbf16>
      %714 = stablehlo.reshape %713 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
      %715 = "stablehlo.all_gather"(%502#15) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144x1152xbf16>) -> tensor<576x1152xbf16>
      %716 = stablehlo.dot_general %714, %715, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<576x1152xbf16>) -> tensor<1x4096x576xbf16>
      %717 = stablehlo.add %699, %716 : tensor<1x4096x576xbf16>
      %718 = stablehlo.convert %717 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
      %719 = "stablehlo.all_gather"(%502#8) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<144xbf16>) -> tensor<576xbf16>
      %720 = stablehlo.convert %719 : (tensor<576xbf16>) -> tensor<576xf32>
      %721 = stablehlo.reshape %720 : (tensor<576xf32>) -> tensor<1x1x576xf32>
      %722 = stablehlo.broadcast_in_dim %721, dims = [0, 1, 2] : (tensor<1x1x576xf32>) -> tensor<1x1x576xf32>
      %723 = stablehlo.reshape %722 : (tensor<1x1x576xf32>) -> tensor<1x576xf32>
      %724 = stablehlo.broadcast_in_dim %723, dims = [0, 2] : (tensor<1x576xf32>) -> tensor<1x4096x576xf32>
      %725 = stablehlo.multiply %718, %724 : tensor<1x4096x576xf32>
      %726 = stablehlo.convert %502#7 : (tensor<1x4096x576xbf16>) -> tensor<1x4096x576xf32>
      %727 = stablehlo.multiply %726, %726 : tensor<1x4096x576xf32>
      %728 = stablehlo.reduce(%727 init: %cst_62) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
      %729 = stablehlo.reshape %728 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
      %730 = stablehlo.divide %729, %537 : tensor<1x4096x1xf32>
      %731 = stablehlo.add %730, %539 : tensor<1x4096x1xf32>
      %732 = stablehlo.rsqrt %731 : tensor<1x4096x1xf32>
      %733 = stablehlo.broadcast_in_dim %732, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
      %734 = stablehlo.reshape %733 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
      %735 = stablehlo.broadcast_in_dim %734, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
      %736 = stablehlo.multiply %725, %735 : tensor<1x4096x576xf32>
      %737 = stablehlo.multiply %726, %725 : tensor<1x4096x576xf32>
      %738 = stablehlo.reduce(%737 init: %cst_62) applies stablehlo.add across dimensions = [2] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x4096xf32>
      %739 = stablehlo.reshape %738 : (tensor<1x4096xf32>) -> tensor<1x4096x1xf32>
      %740 = stablehlo.divide %732, %731 : tensor<1x4096x1xf32>
      %741 = stablehlo.multiply %740, %550 : tensor<1x4096x1xf32>
      %742 = stablehlo.multiply %739, %741 : tensor<1x4096x1xf32>
      %743 = stablehlo.divide %742, %537 : tensor<1x4096x1xf32>
      %744 = stablehlo.reduce(%743 init: %cst_62) applies stablehlo.add across dimensions = [0, 2] : (tensor<1x4096x1xf32>, tensor<f32>) -> tensor<4096xf32>
      %745 = stablehlo.reshape %744 : (tensor<4096xf32>) -> tensor<1x4096xf32>
      %746 = stablehlo.broadcast_in_dim %745, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x576xf32>
      %747 = stablehlo.multiply %726, %746 : tensor<1x4096x576xf32>
      %748 = stablehlo.add %736, %747 : tensor<1x4096x576xf32>
      %749 = stablehlo.add %748, %747 : tensor<1x4096x576xf32>
      %750 = stablehlo.convert %749 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
      %751 = stablehlo.add %561, %750 : tensor<1x4096x576xbf16>
      %752 = stablehlo.multiply %726, %735 : tensor<1x4096x576xf32>
      %753 = stablehlo.multiply %752, %718 : tensor<1x4096x576xf32>
      %754 = stablehlo.reduce(%753 init: %cst_62) applies stablehlo.add across dimensions = [1] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x576xf32>
      %755 = stablehlo.reshape %754 : (tensor<1x576xf32>) -> tensor<1x1x576xf32>
      %756 = stablehlo.reduce(%755 init: %cst_62) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x576xf32>, tensor<f32>) -> tensor<576xf32>
      %757 = stablehlo.convert %756 : (tensor<576xf32>) -> tensor<576xbf16>
      %758 = "stablehlo.reduce_scatter"(%757) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
        %811 = stablehlo.add %arg39, %arg40 : tensor<bf16>
        stablehlo.return %811 : tensor<bf16>
      }) : (tensor<576xbf16>) -> tensor<144xbf16>
      %759 = stablehlo.reshape %758 : (tensor<144xbf16>) -> tensor<1x144xbf16>
      %760 = stablehlo.dynamic_update_slice %iterArg_32, %759, %467, %c_60 : (tensor<7x144xbf16>, tensor<1x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<7x144xbf16>
      %761 = stablehlo.multiply %533, %544 : tensor<1x4096x576xf32>
      %762 = stablehlo.multiply %761, %524 : tensor<1x4096x576xf32>
      %763 = stablehlo.reduce(%762 init: %cst_62) applies stablehlo.add across dimensions = [1] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x576xf32>
      %764 = stablehlo.reshape %763 : (tensor<1x576xf32>) -> tensor<1x1x576xf32>
      %765 = stablehlo.reduce(%764 init: %cst_62) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x576xf32>, tensor<f32>) -> tensor<576xf32>
      %766 = stablehlo.convert %765 : (tensor<576xf32>) -> tensor<576xbf16>
      %767 = "stablehlo.reduce_scatter"(%766) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
        %811 = stablehlo.add %arg39, %arg40 : tensor<bf16>
        stablehlo.return %811 : tensor<bf16>
      }) : (tensor<576xbf16>) -> tensor<144xbf16>
      %768 = stablehlo.reshape %767 : (tensor<144xbf16>) -> tensor<1x144xbf16>
      %769 = stablehlo.dynamic_update_slice %iterArg_33, %768, %467, %c_60 : (tensor<7x144xbf16>, tensor<1x144xbf16>, tensor<i32>, tensor<i32>) -> tensor<7x144xbf16>
      %770 = stablehlo.multiply %508, %502#6 : tensor<1x4096x2016xbf16>
      %771 = stablehlo.dot_general %502#17, %770, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<1x4096x2016xbf16>) -> tensor<576x2016xbf16>
      %772 = stablehlo.transpose %771, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[2016,576]{0,1}"} : (tensor<576x2016xbf16>) -> tensor<2016x576xbf16>
      %773 = "stablehlo.reduce_scatter"(%772) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
        %811 = stablehlo.add %arg39, %arg40 : tensor<bf16>
        stablehlo.return %811 : tensor<bf16>
      }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[504,576]{0,1}"} : (tensor<2016x576xbf16>) -> tensor<504x576xbf16>
      %774 = stablehlo.reshape %773 : (tensor<504x576xbf16>) -> tensor<1x504x576xbf16>
      %775 = stablehlo.dynamic_update_slice %iterArg_34, %774, %467, %c_60, %c_60 : (tensor<7x504x576xbf16>, tensor<1x504x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x504x576xbf16>
      %776 = stablehlo.multiply %761, %530 : tensor<1x4096x576xf32>
      %777 = stablehlo.convert %776 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
      %778 = stablehlo.dot_general %520, %777, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<1x4096x576xbf16>) -> tensor<2016x576xbf16>
      %779 = stablehlo.transpose %778, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,2016]{0,1}"} : (tensor<2016x576xbf16>) -> tensor<576x2016xbf16>
      %780 = "stablehlo.reduce_scatter"(%779) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
        %811 = stablehlo.add %arg39, %arg40 : tensor<bf16>
        stablehlo.return %811 : tensor<bf16>
      }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,2016]{0,1}"} : (tensor<576x2016xbf16>) -> tensor<144x2016xbf16>
      %781 = stablehlo.reshape %780 : (tensor<144x2016xbf16>) -> tensor<1x144x2016xbf16>
      %782 = stablehlo.dynamic_update_slice %iterArg_35, %781, %467, %c_60, %c_60 : (tensor<7x144x2016xbf16>, tensor<1x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x2016xbf16>
      %783 = stablehlo.dot_general %511, %777, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x2016xbf16>, tensor<1x4096x576xbf16>) -> tensor<2016x576xbf16>
      %784 = stablehlo.transpose %783, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,2016]{0,1}"} : (tensor<2016x576xbf16>) -> tensor<576x2016xbf16>
      %785 = "stablehlo.reduce_scatter"(%784) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
        %811 = stablehlo.add %arg39, %arg40 : tensor<bf16>
        stablehlo.return %811 : tensor<bf16>
      }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,2016]{0,1}"} : (tensor<576x2016xbf16>) -> tensor<144x2016xbf16>
      %786 = stablehlo.reshape %785 : (tensor<144x2016xbf16>) -> tensor<1x144x2016xbf16>
      %787 = stablehlo.dynamic_update_slice %iterArg_36, %786, %467, %c_60, %c_60 : (tensor<7x144x2016xbf16>, tensor<1x144x2016xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x2016xbf16>
      %788 = stablehlo.multiply %752, %724 : tensor<1x4096x576xf32>
      %789 = stablehlo.convert %788 : (tensor<1x4096x576xf32>) -> tensor<1x4096x576xbf16>
      %790 = stablehlo.dot_general %696, %789, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<1x4096x576xbf16>) -> tensor<1152x576xbf16>
      %791 = stablehlo.transpose %790, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,1152]{0,1}"} : (tensor<1152x576xbf16>) -> tensor<576x1152xbf16>
      %792 = "stablehlo.reduce_scatter"(%791) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
        %811 = stablehlo.add %arg39, %arg40 : tensor<bf16>
        stablehlo.return %811 : tensor<bf16>
      }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,1152]{0,1}"} : (tensor<576x1152xbf16>) -> tensor<144x1152xbf16>
      %793 = stablehlo.reshape %792 : (tensor<144x1152xbf16>) -> tensor<1x144x1152xbf16>
      %794 = stablehlo.dynamic_update_slice %iterArg_37, %793, %467, %c_60, %c_60 : (tensor<7x144x1152xbf16>, tensor<1x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x1152xbf16>
      %795 = stablehlo.reshape %502#3 : (tensor<1x4096x9x128xbf16>) -> tensor<1x4096x1152xbf16>
      %796 = stablehlo.dot_general %561, %795, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x576xbf16>, tensor<1x4096x1152xbf16>) -> tensor<576x1152xbf16>
      %797 = stablehlo.transpose %796, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[1152,576]{0,1}"} : (tensor<576x1152xbf16>) -> tensor<1152x576xbf16>
      %798 = "stablehlo.reduce_scatter"(%797) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
        %811 = stablehlo.add %arg39, %arg40 : tensor<bf16>
        stablehlo.return %811 : tensor<bf16>
      }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[288,576]{0,1}"} : (tensor<1152x576xbf16>) -> tensor<288x576xbf16>
      %799 = stablehlo.reshape %798 : (tensor<288x576xbf16>) -> tensor<1x288x576xbf16>
      %800 = stablehlo.dynamic_update_slice %iterArg_38, %799, %467, %c_60, %c_60 : (tensor<7x288x576xbf16>, tensor<1x288x576xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x288x576xbf16>
      %801 = stablehlo.dot_general %714, %789, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<1x4096x576xbf16>) -> tensor<1152x576xbf16>
      %802 = stablehlo.transpose %801, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,1152]{0,1}"} : (tensor<1152x576xbf16>) -> tensor<576x1152xbf16>
      %803 = "stablehlo.reduce_scatter"(%802) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
        %811 = stablehlo.add %arg39, %arg40 : tensor<bf16>
        stablehlo.return %811 : tensor<bf16>
      }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,1152]{0,1}"} : (tensor<576x1152xbf16>) -> tensor<144x1152xbf16>
      %804 = stablehlo.reshape %803 : (tensor<144x1152xbf16>) -> tensor<1x144x1152xbf16>
      %805 = stablehlo.dynamic_update_slice %iterArg_39, %804, %467, %c_60, %c_60 : (tensor<7x144x1152xbf16>, tensor<1x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x1152xbf16>
      %806 = stablehlo.dot_general %652, %789, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x1152xbf16>, tensor<1x4096x576xbf16>) -> tensor<1152x576xbf16>
      %807 = stablehlo.transpose %806, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,1152]{0,1}"} : (tensor<1152x576xbf16>) -> tensor<576x1152xbf16>
      %808 = "stablehlo.reduce_scatter"(%807) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
        %811 = stablehlo.add %arg39, %arg40 : tensor<bf16>
        stablehlo.return %811 : tensor<bf16>
      }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,1152]{0,1}"} : (tensor<576x1152xbf16>) -> tensor<144x1152xbf16>
      %809 = stablehlo.reshape %808 : (tensor<144x1152xbf16>) -> tensor<1x144x1152xbf16>
      %810 = stablehlo.dynamic_update_slice %iterArg_40, %809, %467, %c_60, %c_60 : (tensor<7x144x1152xbf16>, tensor<1x144x1152xbf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<7x144x1152xbf16>
      stablehlo.return %465, %751, %760, %769, %775, %782, %787, %794, %800, %805, %810, %iterArg_41, %iterArg_42, %iterArg_43, %iterArg_44, %iterArg_45, %iterArg_46, %iterArg_47, %iterArg_48, %iterArg_49, %iterArg_50, %iterArg_51, %iterArg_52, %iterArg_53, %iterArg_54, %iterArg_55, %iterArg_56, %iterArg_57 : tensor<i32>, tensor<1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x1152xbf16>, tensor<7x1x4096x9x128xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x2016xbf16>, tensor<7x1x4096x576xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>
    }
    %146 = "stablehlo.scatter"(%13, %19, %145#1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
      %465 = stablehlo.add %arg39, %arg40 : tensor<bf16>
      stablehlo.return %465 : tensor<bf16>
    }) : (tensor<128256x576xbf16>, tensor<1x4096x1xi32>, tensor<1x4096x576xbf16>) -> tensor<128256x576xbf16>
    %147 = "stablehlo.reduce_scatter"(%146) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
      %465 = stablehlo.add %arg39, %arg40 : tensor<bf16>
      stablehlo.return %465 : tensor<bf16>
    }) : (tensor<128256x576xbf16>) -> tensor<32064x576xbf16>
    %cst_22 = stablehlo.constant dense<1.000980e-01> : tensor<bf16>
    %148 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<32064x576xbf16>
    %149 = stablehlo.multiply %147, %148 : tensor<32064x576xbf16>
    %150 = stablehlo.add %12, %149 : tensor<32064x576xbf16>
    %151 = stablehlo.convert %150 : (tensor<32064x576xbf16>) -> tensor<32064x576xf32>
    %152 = stablehlo.multiply %10, %151 : tensor<32064x576xf32>
    %cst_23 = stablehlo.constant dense<9.492180e-01> : tensor<bf16>
    %153 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<32064x576xbf16>
    %154 = stablehlo.multiply %arg24, %153 : tensor<32064x576xbf16>
    %cst_24 = stablehlo.constant dense<5.004880e-02> : tensor<bf16>
    %155 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<bf16>) -> tensor<32064x576xbf16>
    %156 = stablehlo.multiply %147, %155 : tensor<32064x576xbf16>
    %157 = stablehlo.multiply %156, %147 : tensor<32064x576xbf16>
    %158 = stablehlo.add %154, %157 : tensor<32064x576xbf16>
    %cst_25 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %159 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<bf16>) -> tensor<32064x576xbf16>
    %160 = stablehlo.power %158, %159 : tensor<32064x576xbf16>
    %cst_26 = stablehlo.constant dense<1.001170e-08> : tensor<bf16>
    %161 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<bf16>) -> tensor<32064x576xbf16>
    %162 = stablehlo.add %160, %161 : tensor<32064x576xbf16>
    %163 = stablehlo.convert %162 : (tensor<32064x576xbf16>) -> tensor<32064x576xf32>
    %164 = stablehlo.divide %152, %163 : tensor<32064x576xf32>
    %165 = stablehlo.subtract %0, %164 : tensor<32064x576xf32>
    %cst_27 = stablehlo.constant dense<3.004070e-05> : tensor<bf16>
    %166 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<bf16>) -> tensor<32064x576xbf16>
    %167 = stablehlo.multiply %arg0, %166 : tensor<32064x576xbf16>
    %168 = stablehlo.convert %167 : (tensor<32064x576xbf16>) -> tensor<32064x576xf32>
    %169 = stablehlo.subtract %165, %168 : tensor<32064x576xf32>
    %170 = stablehlo.convert %169 : (tensor<32064x576xf32>) -> tensor<32064x576xbf16>
    %171 = stablehlo.convert %arg1 : (tensor<144xbf16>) -> tensor<144xf32>
    %172 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<144xf32>
    %173 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<144xbf16>
    %174 = stablehlo.multiply %arg13, %173 : tensor<144xbf16>
    %175 = stablehlo.multiply %91, %122 : tensor<1x4096x576xf32>
    %176 = stablehlo.reduce(%175 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<1x4096x576xf32>, tensor<f32>) -> tensor<1x576xf32>
    %177 = stablehlo.reshape %176 : (tensor<1x576xf32>) -> tensor<1x1x576xf32>
    %178 = stablehlo.reduce(%177 init: %cst_8) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x576xf32>, tensor<f32>) -> tensor<576xf32>
    %179 = stablehlo.convert %178 : (tensor<576xf32>) -> tensor<576xbf16>
    %180 = "stablehlo.reduce_scatter"(%179) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
      %465 = stablehlo.add %arg39, %arg40 : tensor<bf16>
      stablehlo.return %465 : tensor<bf16>
    }) : (tensor<576xbf16>) -> tensor<144xbf16>
    %181 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<144xbf16>
    %182 = stablehlo.multiply %180, %181 : tensor<144xbf16>
    %183 = stablehlo.add %174, %182 : tensor<144xbf16>
    %184 = stablehlo.convert %183 : (tensor<144xbf16>) -> tensor<144xf32>
    %185 = stablehlo.multiply %172, %184 : tensor<144xf32>
    %186 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<144xbf16>
    %187 = stablehlo.multiply %arg25, %186 : tensor<144xbf16>
    %188 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<bf16>) -> tensor<144xbf16>
    %189 = stablehlo.multiply %180, %188 : tensor<144xbf16>
    %190 = stablehlo.multiply %189, %180 : tensor<144xbf16>
    %191 = stablehlo.add %187, %190 : tensor<144xbf16>
    %192 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<bf16>) -> tensor<144xbf16>
    %193 = stablehlo.power %191, %192 : tensor<144xbf16>
    %194 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<bf16>) -> tensor<144xbf16>
    %195 = stablehlo.add %193, %194 : tensor<144xbf16>
    %196 = stablehlo.convert %195 : (tensor<144xbf16>) -> tensor<144xf32>
    %197 = stablehlo.divide %185, %196 : tensor<144xf32>
    %198 = stablehlo.subtract %171, %197 : tensor<144xf32>
    %199 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<bf16>) -> tensor<144xbf16>
    %200 = stablehlo.multiply %arg1, %199 : tensor<144xbf16>
    %201 = stablehlo.convert %200 : (tensor<144xbf16>) -> tensor<144xf32>
    %202 = stablehlo.subtract %198, %201 : tensor<144xf32>
    %203 = stablehlo.convert %202 : (tensor<144xf32>) -> tensor<144xbf16>
    %204 = stablehlo.convert %arg2 : (tensor<7x144xbf16>) -> tensor<7x144xf32>
    %205 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<7x144xf32>
    %206 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<7x144xbf16>
    %207 = stablehlo.multiply %arg14, %206 : tensor<7x144xbf16>
    %208 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<7x144xbf16>
    %209 = stablehlo.multiply %145#2, %208 : tensor<7x144xbf16>
    %210 = stablehlo.add %207, %209 : tensor<7x144xbf16>
    %211 = stablehlo.convert %210 : (tensor<7x144xbf16>) -> tensor<7x144xf32>
    %212 = stablehlo.multiply %205, %211 : tensor<7x144xf32>
    %213 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<7x144xbf16>
    %214 = stablehlo.multiply %arg26, %213 : tensor<7x144xbf16>
    %215 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<bf16>) -> tensor<7x144xbf16>
    %216 = stablehlo.multiply %145#2, %215 : tensor<7x144xbf16>
    %217 = stablehlo.multiply %216, %145#2 : tensor<7x144xbf16>
    %218 = stablehlo.add %214, %217 : tensor<7x144xbf16>
    %219 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<bf16>) -> tensor<7x144xbf16>
    %220 = stablehlo.power %218, %219 : tensor<7x144xbf16>
    %221 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<bf16>) -> tensor<7x144xbf16>
    %222 = stablehlo.add %220, %221 : tensor<7x144xbf16>
    %223 = stablehlo.convert %222 : (tensor<7x144xbf16>) -> tensor<7x144xf32>
    %224 = stablehlo.divide %212, %223 : tensor<7x144xf32>
    %225 = stablehlo.subtract %204, %224 : tensor<7x144xf32>
    %226 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<bf16>) -> tensor<7x144xbf16>
    %227 = stablehlo.multiply %arg2, %226 : tensor<7x144xbf16>
    %228 = stablehlo.convert %227 : (tensor<7x144xbf16>) -> tensor<7x144xf32>
    %229 = stablehlo.subtract %225, %228 : tensor<7x144xf32>
    %230 = stablehlo.convert %229 : (tensor<7x144xf32>) -> tensor<7x144xbf16>
    %231 = stablehlo.convert %arg3 : (tensor<7x144xbf16>) -> tensor<7x144xf32>
    %232 = stablehlo.multiply %arg15, %206 : tensor<7x144xbf16>
    %233 = stablehlo.multiply %145#3, %208 : tensor<7x144xbf16>
    %234 = stablehlo.add %232, %233 : tensor<7x144xbf16>
    %235 = stablehlo.convert %234 : (tensor<7x144xbf16>) -> tensor<7x144xf32>
    %236 = stablehlo.multiply %205, %235 : tensor<7x144xf32>
    %237 = stablehlo.multiply %arg27, %213 : tensor<7x144xbf16>
    %238 = stablehlo.multiply %145#3, %215 : tensor<7x144xbf16>
    %239 = stablehlo.multiply %238, %145#3 : tensor<7x144xbf16>
    %240 = stablehlo.add %237, %239 : tensor<7x144xbf16>
    %241 = stablehlo.power %240, %219 : tensor<7x144xbf16>
    %242 = stablehlo.add %241, %221 : tensor<7x144xbf16>
    %243 = stablehlo.convert %242 : (tensor<7x144xbf16>) -> tensor<7x144xf32>
    %244 = stablehlo.divide %236, %243 : tensor<7x144xf32>
    %245 = stablehlo.subtract %231, %244 : tensor<7x144xf32>
    %246 = stablehlo.multiply %arg3, %226 : tensor<7x144xbf16>
    %247 = stablehlo.convert %246 : (tensor<7x144xbf16>) -> tensor<7x144xf32>
    %248 = stablehlo.subtract %245, %247 : tensor<7x144xf32>
    %249 = stablehlo.convert %248 : (tensor<7x144xf32>) -> tensor<7x144xbf16>
    %250 = stablehlo.convert %arg4 : (tensor<7x504x576xbf16>) -> tensor<7x504x576xf32>
    %251 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<7x504x576xf32>
    %252 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<7x504x576xbf16>
    %253 = stablehlo.multiply %arg16, %252 : tensor<7x504x576xbf16>
    %254 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<7x504x576xbf16>
    %255 = stablehlo.multiply %145#4, %254 : tensor<7x504x576xbf16>
    %256 = stablehlo.add %253, %255 : tensor<7x504x576xbf16>
    %257 = stablehlo.convert %256 : (tensor<7x504x576xbf16>) -> tensor<7x504x576xf32>
    %258 = stablehlo.multiply %251, %257 : tensor<7x504x576xf32>
    %259 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<7x504x576xbf16>
    %260 = stablehlo.multiply %arg28, %259 : tensor<7x504x576xbf16>
    %261 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<bf16>) -> tensor<7x504x576xbf16>
    %262 = stablehlo.multiply %145#4, %261 : tensor<7x504x576xbf16>
    %263 = stablehlo.multiply %262, %145#4 : tensor<7x504x576xbf16>
    %264 = stablehlo.add %260, %263 : tensor<7x504x576xbf16>
    %265 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<bf16>) -> tensor<7x504x576xbf16>
    %266 = stablehlo.power %264, %265 : tensor<7x504x576xbf16>
    %267 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<bf16>) -> tensor<7x504x576xbf16>
    %268 = stablehlo.add %266, %267 : tensor<7x504x576xbf16>
    %269 = stablehlo.convert %268 : (tensor<7x504x576xbf16>) -> tensor<7x504x576xf32>
    %270 = stablehlo.divide %258, %269 : tensor<7x504x576xf32>
    %271 = stablehlo.subtract %250, %270 : tensor<7x504x576xf32>
    %272 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<bf16>) -> tensor<7x504x576xbf16>
    %273 = stablehlo.multiply %arg4, %272 : tensor<7x504x576xbf16>
    %274 = stablehlo.convert %273 : (tensor<7x504x576xbf16>) -> tensor<7x504x576xf32>
    %275 = stablehlo.subtract %271, %274 : tensor<7x504x576xf32>
    %276 = stablehlo.convert %275 : (tensor<7x504x576xf32>) -> tensor<7x504x576xbf16>
    %277 = stablehlo.convert %arg5 : (tensor<7x144x2016xbf16>) -> tensor<7x144x2016xf32>
    %278 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<7x144x2016xf32>
    %279 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<7x144x2016xbf16>
    %280 = stablehlo.multiply %arg17, %279 : tensor<7x144x2016xbf16>
    %281 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<7x144x2016xbf16>
    %282 = stablehlo.multiply %145#5, %281 : tensor<7x144x2016xbf16>
    %283 = stablehlo.add %280, %282 : tensor<7x144x2016xbf16>
    %284 = stablehlo.convert %283 : (tensor<7x144x2016xbf16>) -> tensor<7x144x2016xf32>
    %285 = stablehlo.multiply %278, %284 : tensor<7x144x2016xf32>
    %286 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<7x144x2016xbf16>
    %287 = stablehlo.multiply %arg29, %286 : tensor<7x144x2016xbf16>
    %288 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<bf16>) -> tensor<7x144x2016xbf16>
    %289 = stablehlo.multiply %145#5, %288 : tensor<7x144x2016xbf16>
    %290 = stablehlo.multiply %289, %145#5 : tensor<7x144x2016xbf16>
    %291 = stablehlo.add %287, %290 : tensor<7x144x2016xbf16>
    %292 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<bf16>) -> tensor<7x144x2016xbf16>
    %293 = stablehlo.power %291, %292 : tensor<7x144x2016xbf16>
    %294 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<bf16>) -> tensor<7x144x2016xbf16>
    %295 = stablehlo.add %293, %294 : tensor<7x144x2016xbf16>
    %296 = stablehlo.convert %295 : (tensor<7x144x2016xbf16>) -> tensor<7x144x2016xf32>
    %297 = stablehlo.divide %285, %296 : tensor<7x144x2016xf32>
    %298 = stablehlo.subtract %277, %297 : tensor<7x144x2016xf32>
    %299 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<bf16>) -> tensor<7x144x2016xbf16>
    %300 = stablehlo.multiply %arg5, %299 : tensor<7x144x2016xbf16>
    %301 = stablehlo.convert %300 : (tensor<7x144x2016xbf16>) -> tensor<7x144x2016xf32>
    %302 = stablehlo.subtract %298, %301 : tensor<7x144x2016xf32>
    %303 = stablehlo.convert %302 : (tensor<7x144x2016xf32>) -> tensor<7x144x2016xbf16>
    %304 = stablehlo.convert %arg6 : (tensor<7x144x2016xbf16>) -> tensor<7x144x2016xf32>
    %305 = stablehlo.multiply %arg18, %279 : tensor<7x144x2016xbf16>
    %306 = stablehlo.multiply %145#6, %281 : tensor<7x144x2016xbf16>
    %307 = stablehlo.add %305, %306 : tensor<7x144x2016xbf16>
    %308 = stablehlo.convert %307 : (tensor<7x144x2016xbf16>) -> tensor<7x144x2016xf32>
    %309 = stablehlo.multiply %278, %308 : tensor<7x144x2016xf32>
    %310 = stablehlo.multiply %arg30, %286 : tensor<7x144x2016xbf16>
    %311 = stablehlo.multiply %145#6, %288 : tensor<7x144x2016xbf16>
    %312 = stablehlo.multiply %311, %145#6 : tensor<7x144x2016xbf16>
    %313 = stablehlo.add %310, %312 : tensor<7x144x2016xbf16>
    %314 = stablehlo.power %313, %292 : tensor<7x144x2016xbf16>
    %315 = stablehlo.add %314, %294 : tensor<7x144x2016xbf16>
    %316 = stablehlo.convert %315 : (tensor<7x144x2016xbf16>) -> tensor<7x144x2016xf32>
    %317 = stablehlo.divide %309, %316 : tensor<7x144x2016xf32>
    %318 = stablehlo.subtract %304, %317 : tensor<7x144x2016xf32>
    %319 = stablehlo.multiply %arg6, %299 : tensor<7x144x2016xbf16>
    %320 = stablehlo.convert %319 : (tensor<7x144x2016xbf16>) -> tensor<7x144x2016xf32>
    %321 = stablehlo.subtract %318, %320 : tensor<7x144x2016xf32>
    %322 = stablehlo.convert %321 : (tensor<7x144x2016xf32>) -> tensor<7x144x2016xbf16>
    %323 = stablehlo.convert %arg7 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %324 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<7x144x1152xf32>
    %325 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<7x144x1152xbf16>
    %326 = stablehlo.multiply %arg19, %325 : tensor<7x144x1152xbf16>
    %327 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<7x144x1152xbf16>
    %328 = stablehlo.multiply %145#7, %327 : tensor<7x144x1152xbf16>
    %329 = stablehlo.add %326, %328 : tensor<7x144x1152xbf16>
    %330 = stablehlo.convert %329 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %331 = stablehlo.multiply %324, %330 : tensor<7x144x1152xf32>
    %332 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<7x144x1152xbf16>
    %333 = stablehlo.multiply %arg31, %332 : tensor<7x144x1152xbf16>
    %334 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<bf16>) -> tensor<7x144x1152xbf16>
    %335 = stablehlo.multiply %145#7, %334 : tensor<7x144x1152xbf16>
    %336 = stablehlo.multiply %335, %145#7 : tensor<7x144x1152xbf16>
    %337 = stablehlo.add %333, %336 : tensor<7x144x1152xbf16>
    %338 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<bf16>) -> tensor<7x144x1152xbf16>
    %339 = stablehlo.power %337, %338 : tensor<7x144x1152xbf16>
    %340 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<bf16>) -> tensor<7x144x1152xbf16>
    %341 = stablehlo.add %339, %340 : tensor<7x144x1152xbf16>
    %342 = stablehlo.convert %341 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %343 = stablehlo.divide %331, %342 : tensor<7x144x1152xf32>
    %344 = stablehlo.subtract %323, %343 : tensor<7x144x1152xf32>
    %345 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<bf16>) -> tensor<7x144x1152xbf16>
    %346 = stablehlo.multiply %arg7, %345 : tensor<7x144x1152xbf16>
    %347 = stablehlo.convert %346 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %348 = stablehlo.subtract %344, %347 : tensor<7x144x1152xf32>
    %349 = stablehlo.convert %348 : (tensor<7x144x1152xf32>) -> tensor<7x144x1152xbf16>
    %350 = stablehlo.convert %arg8 : (tensor<7x288x576xbf16>) -> tensor<7x288x576xf32>
    %351 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<7x288x576xf32>
    %352 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<7x288x576xbf16>
    %353 = stablehlo.multiply %arg20, %352 : tensor<7x288x576xbf16>
    %354 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<7x288x576xbf16>
    %355 = stablehlo.multiply %145#8, %354 : tensor<7x288x576xbf16>
    %356 = stablehlo.add %353, %355 : tensor<7x288x576xbf16>
    %357 = stablehlo.convert %356 : (tensor<7x288x576xbf16>) -> tensor<7x288x576xf32>
    %358 = stablehlo.multiply %351, %357 : tensor<7x288x576xf32>
    %359 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<7x288x576xbf16>
    %360 = stablehlo.multiply %arg32, %359 : tensor<7x288x576xbf16>
    %361 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<bf16>) -> tensor<7x288x576xbf16>
    %362 = stablehlo.multiply %145#8, %361 : tensor<7x288x576xbf16>
    %363 = stablehlo.multiply %362, %145#8 : tensor<7x288x576xbf16>
    %364 = stablehlo.add %360, %363 : tensor<7x288x576xbf16>
    %365 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<bf16>) -> tensor<7x288x576xbf16>
    %366 = stablehlo.power %364, %365 : tensor<7x288x576xbf16>
    %367 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<bf16>) -> tensor<7x288x576xbf16>
    %368 = stablehlo.add %366, %367 : tensor<7x288x576xbf16>
    %369 = stablehlo.convert %368 : (tensor<7x288x576xbf16>) -> tensor<7x288x576xf32>
    %370 = stablehlo.divide %358, %369 : tensor<7x288x576xf32>
    %371 = stablehlo.subtract %350, %370 : tensor<7x288x576xf32>
    %372 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<bf16>) -> tensor<7x288x576xbf16>
    %373 = stablehlo.multiply %arg8, %372 : tensor<7x288x576xbf16>
    %374 = stablehlo.convert %373 : (tensor<7x288x576xbf16>) -> tensor<7x288x576xf32>
    %375 = stablehlo.subtract %371, %374 : tensor<7x288x576xf32>
    %376 = stablehlo.convert %375 : (tensor<7x288x576xf32>) -> tensor<7x288x576xbf16>
    %377 = stablehlo.convert %arg9 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %378 = stablehlo.multiply %arg21, %325 : tensor<7x144x1152xbf16>
    %379 = stablehlo.multiply %145#9, %327 : tensor<7x144x1152xbf16>
    %380 = stablehlo.add %378, %379 : tensor<7x144x1152xbf16>
    %381 = stablehlo.convert %380 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %382 = stablehlo.multiply %324, %381 : tensor<7x144x1152xf32>
    %383 = stablehlo.multiply %arg33, %332 : tensor<7x144x1152xbf16>
    %384 = stablehlo.multiply %145#9, %334 : tensor<7x144x1152xbf16>
    %385 = stablehlo.multiply %384, %145#9 : tensor<7x144x1152xbf16>
    %386 = stablehlo.add %383, %385 : tensor<7x144x1152xbf16>
    %387 = stablehlo.power %386, %338 : tensor<7x144x1152xbf16>
    %388 = stablehlo.add %387, %340 : tensor<7x144x1152xbf16>
    %389 = stablehlo.convert %388 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %390 = stablehlo.divide %382, %389 : tensor<7x144x1152xf32>
    %391 = stablehlo.subtract %377, %390 : tensor<7x144x1152xf32>
    %392 = stablehlo.multiply %arg9, %345 : tensor<7x144x1152xbf16>
    %393 = stablehlo.convert %392 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %394 = stablehlo.subtract %391, %393 : tensor<7x144x1152xf32>
    %395 = stablehlo.convert %394 : (tensor<7x144x1152xf32>) -> tensor<7x144x1152xbf16>
    %396 = stablehlo.convert %arg10 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %397 = stablehlo.multiply %arg22, %325 : tensor<7x144x1152xbf16>
    %398 = stablehlo.multiply %145#10, %327 : tensor<7x144x1152xbf16>
    %399 = stablehlo.add %397, %398 : tensor<7x144x1152xbf16>
    %400 = stablehlo.convert %399 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %401 = stablehlo.multiply %324, %400 : tensor<7x144x1152xf32>
    %402 = stablehlo.multiply %arg34, %332 : tensor<7x144x1152xbf16>
    %403 = stablehlo.multiply %145#10, %334 : tensor<7x144x1152xbf16>
    %404 = stablehlo.multiply %403, %145#10 : tensor<7x144x1152xbf16>
    %405 = stablehlo.add %402, %404 : tensor<7x144x1152xbf16>
    %406 = stablehlo.power %405, %338 : tensor<7x144x1152xbf16>
    %407 = stablehlo.add %406, %340 : tensor<7x144x1152xbf16>
    %408 = stablehlo.convert %407 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %409 = stablehlo.divide %401, %408 : tensor<7x144x1152xf32>
    %410 = stablehlo.subtract %396, %409 : tensor<7x144x1152xf32>
    %411 = stablehlo.multiply %arg10, %345 : tensor<7x144x1152xbf16>
    %412 = stablehlo.convert %411 : (tensor<7x144x1152xbf16>) -> tensor<7x144x1152xf32>
    %413 = stablehlo.subtract %410, %412 : tensor<7x144x1152xf32>
    %414 = stablehlo.convert %413 : (tensor<7x144x1152xf32>) -> tensor<7x144x1152xbf16>
    %415 = stablehlo.convert %arg11 : (tensor<144x128256xbf16>) -> tensor<144x128256xf32>
    %416 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<144x128256xf32>
    %417 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<144x128256xbf16>
    %418 = stablehlo.multiply %arg23, %417 : tensor<144x128256xbf16>
    %419 = stablehlo.dot_general %120, %99, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<1x4096x128256xbf16>, tensor<1x4096x576xbf16>) -> tensor<128256x576xbf16>
    %420 = stablehlo.transpose %419, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[576,128256]{0,1}"} : (tensor<128256x576xbf16>) -> tensor<576x128256xbf16>
    %421 = "stablehlo.reduce_scatter"(%420) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%arg39: tensor<bf16>, %arg40: tensor<bf16>):
      %465 = stablehlo.add %arg39, %arg40 : tensor<bf16>
      stablehlo.return %465 : tensor<bf16>
    }) {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,128256]{0,1}"} : (tensor<576x128256xbf16>) -> tensor<144x128256xbf16>
    %422 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<bf16>) -> tensor<144x128256xbf16>
    %423 = stablehlo.multiply %421, %422 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,128256]{0,1}"} : tensor<144x128256xbf16>
    %424 = stablehlo.add %418, %423 : tensor<144x128256xbf16>
    %425 = stablehlo.convert %424 : (tensor<144x128256xbf16>) -> tensor<144x128256xf32>
    %426 = stablehlo.multiply %416, %425 : tensor<144x128256xf32>
    %427 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<bf16>) -> tensor<144x128256xbf16>
    %428 = stablehlo.multiply %arg35, %427 : tensor<144x128256xbf16>
    %429 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<bf16>) -> tensor<144x128256xbf16>
    %430 = stablehlo.multiply %421, %429 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,128256]{0,1}"} : tensor<144x128256xbf16>
    %431 = stablehlo.multiply %430, %421 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "bf16[144,128256]{0,1}"} : tensor<144x128256xbf16>
    %432 = stablehlo.add %428, %431 : tensor<144x128256xbf16>
    %433 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<bf16>) -> tensor<144x128256xbf16>
    %434 = stablehlo.power %432, %433 : tensor<144x128256xbf16>
    %435 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<bf16>) -> tensor<144x128256xbf16>
    %436 = stablehlo.add %434, %435 : tensor<144x128256xbf16>
    %437 = stablehlo.convert %436 : (tensor<144x128256xbf16>) -> tensor<144x128256xf32>
    %438 = stablehlo.divide %426, %437 : tensor<144x128256xf32>
    %439 = stablehlo.subtract %415, %438 : tensor<144x128256xf32>
    %440 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<bf16>) -> tensor<144x128256xbf16>
    %441 = stablehlo.multiply %arg11, %440 : tensor<144x128256xbf16>
    %442 = stablehlo.convert %441 : (tensor<144x128256xbf16>) -> tensor<144x128256xf32>
    %443 = stablehlo.subtract %439, %442 : tensor<144x128256xf32>
    %444 = stablehlo.convert %443 : (tensor<144x128256xf32>) -> tensor<144x128256xbf16>
    %445 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<4096x1x1xi32>
    %446 = stablehlo.compare GE, %27, %445 : (tensor<4096x1x1xi32>, tensor<4096x1x1xi32>) -> tensor<4096x1x1xi1>
    %447 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<4096x1x1xi32>
    %448 = stablehlo.compare LE, %27, %447 : (tensor<4096x1x1xi32>, tensor<4096x1x1xi32>) -> tensor<4096x1x1xi1>
    %449 = stablehlo.and %446, %448 : tensor<4096x1x1xi1>
    %450 = stablehlo.reduce(%449 init: %c_11) applies stablehlo.and across dimensions = [2] : (tensor<4096x1x1xi1>, tensor<i1>) -> tensor<4096x1xi1>
    %451 = stablehlo.reshape %450 : (tensor<4096x1xi1>) -> tensor<1x4096x1xi1>
    %452 = stablehlo.log %113 : tensor<1x4096x1xf32>
    %453 = stablehlo.broadcast_in_dim %452, dims = [0, 1, 2] : (tensor<1x4096x1xf32>) -> tensor<1x4096x1xf32>
    %454 = stablehlo.reshape %453 : (tensor<1x4096x1xf32>) -> tensor<1x4096xf32>
    %455 = stablehlo.broadcast_in_dim %454, dims = [0, 1] : (tensor<1x4096xf32>) -> tensor<1x4096x128256xf32>
    %456 = stablehlo.subtract %110, %455 : tensor<1x4096x128256xf32>
    %457 = "stablehlo.gather"(%456, %27) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [2], operand_batching_dims = [1], start_indices_batching_dims = [0], start_index_map = [2], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<1x4096x128256xf32>, tensor<4096x1x1xi32>) -> tensor<1x4096x1xf32>
    %cst_28 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %458 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<1x4096x1xf32>
    %459 = stablehlo.select %451, %457, %458 : tensor<1x4096x1xi1>, tensor<1x4096x1xf32>
    %460 = stablehlo.reduce(%459 init: %cst_8) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x4096x1xf32>, tensor<f32>) -> tensor<f32>
    %cst_29 = stablehlo.constant dense<4.096000e+03> : tensor<f32>
    %461 = stablehlo.divide %460, %cst_29 : tensor<f32>
    %462 = stablehlo.negate %461 : tensor<f32>
    %463 = "stablehlo.all_reduce"(%462) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg39: tensor<f32>, %arg40: tensor<f32>):
      %465 = stablehlo.add %arg39, %arg40 : tensor<f32>
      stablehlo.return %465 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    %cst_30 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %464 = stablehlo.divide %463, %cst_30 : tensor<f32>
    return %170, %203, %230, %249, %276, %303, %322, %349, %376, %395, %414, %444, %150, %183, %210, %234, %256, %283, %307, %329, %356, %380, %399, %424, %158, %191, %218, %240, %264, %291, %313, %337, %364, %386, %405, %432, %1, %464 : tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<i32>, tensor<f32>
  }
  func.func @main(%arg0: tensor<32064x576xbf16> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg1: tensor<144xbf16> {mhlo.sharding = "{devices=[4]<=[4]}"}, %arg2: tensor<7x144xbf16> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg3: tensor<7x144xbf16> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg4: tensor<7x504x576xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg5: tensor<7x144x2016xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg6: tensor<7x144x2016xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg7: tensor<7x144x1152xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg8: tensor<7x288x576xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg9: tensor<7x144x1152xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg10: tensor<7x144x1152xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg11: tensor<144x128256xbf16> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg12: tensor<32064x576xbf16> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg13: tensor<144xbf16> {mhlo.sharding = "{devices=[4]<=[4]}"}, %arg14: tensor<7x144xbf16> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg15: tensor<7x144xbf16> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg16: tensor<7x504x576xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg17: tensor<7x144x2016xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg18: tensor<7x144x2016xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg19: tensor<7x144x1152xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg20: tensor<7x288x576xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg21: tensor<7x144x1152xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg22: tensor<7x144x1152xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg23: tensor<144x128256xbf16> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg24: tensor<32064x576xbf16> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg25: tensor<144xbf16> {mhlo.sharding = "{devices=[4]<=[4]}"}, %arg26: tensor<7x144xbf16> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg27: tensor<7x144xbf16> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %arg28: tensor<7x504x576xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg29: tensor<7x144x2016xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg30: tensor<7x144x2016xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg31: tensor<7x144x1152xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg32: tensor<7x288x576xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg33: tensor<7x144x1152xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg34: tensor<7x144x1152xbf16> {mhlo.sharding = "{devices=[1,4,1]<=[4]}"}, %arg35: tensor<144x128256xbf16> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg36: tensor<i32> {mhlo.sharding = "{replicated}"}, %arg37: tensor<1x4096xi32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg38: tensor<1x4096xi32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> (tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<i32>, tensor<f32>) {
    %0:38 = call @xla.sdy.inlinable_manual_computation_body.52_spmd(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16, %arg17, %arg18, %arg19, %arg20, %arg21, %arg22, %arg23, %arg24, %arg25, %arg26, %arg27, %arg28, %arg29, %arg30, %arg31, %arg32, %arg33, %arg34, %arg35, %arg36, %arg37, %arg38) : (tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<i32>, tensor<1x4096xi32>, tensor<1x4096xi32>) -> (tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<i32>, tensor<f32>)
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8, %0#9, %0#10, %0#11, %0#12, %0#13, %0#14, %0#15, %0#16, %0#17, %0#18, %0#19, %0#20, %0#21, %0#22, %0#23, %0#24, %0#25, %0#26, %0#27, %0#28, %0#29, %0#30, %0#31, %0#32, %0#33, %0#34, %0#35, %0#36, %0#37 : tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<32064x576xbf16>, tensor<144xbf16>, tensor<7x144xbf16>, tensor<7x144xbf16>, tensor<7x504x576xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x2016xbf16>, tensor<7x144x1152xbf16>, tensor<7x288x576xbf16>, tensor<7x144x1152xbf16>, tensor<7x144x1152xbf16>, tensor<144x128256xbf16>, tensor<i32>, tensor<f32>
  }
}
