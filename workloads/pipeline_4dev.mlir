module @jit_step attributes {mhlo.cross_program_prefetches = [], mhlo.input_output_alias = [], mhlo.is_dynamic = false, mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32, mhlo.use_auto_spmd_partitioning = false} {
  func.func private @region_0.1(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @region_1.2(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @xla.sdy.inlinable_manual_computation_body.3_spmd(%arg0: tensor<1x512x2048xf32>, %arg1: tensor<1x2048x512xf32>, %arg2: tensor<8x32x512xf32>, %arg3: tensor<8x32x512xf32>) -> (tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>) {
    %0 = stablehlo.partition_id : tensor<ui32>
    %c = stablehlo.constant dense<1> : tensor<ui32>
    %1 = stablehlo.divide %0, %c : tensor<ui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %2 = stablehlo.remainder %1, %c_0 : tensor<ui32>
    %3 = stablehlo.convert %2 : (tensor<ui32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %4 = stablehlo.compare EQ, %3, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.select %4, %cst, %cst_2 : tensor<i1>, tensor<f32>
    %cst_3 = stablehlo.constant dense<1.310720e+05> : tensor<f32>
    %6 = stablehlo.divide %5, %cst_3 : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare EQ, %3, %c_4 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<i1>) -> tensor<32x512xi1>
    %10 = stablehlo.slice %arg2 [3:4, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %11 = stablehlo.reshape %10 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %12 = stablehlo.slice %arg2 [2:3, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %13 = stablehlo.reshape %12 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %14 = stablehlo.slice %arg2 [1:2, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %15 = stablehlo.reshape %14 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %16 = stablehlo.slice %arg2 [0:1, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %17 = stablehlo.reshape %16 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32x512xf32>
    %19 = stablehlo.select %9, %17, %18 : tensor<32x512xi1>, tensor<32x512xf32>
    %20 = stablehlo.reshape %arg0 : (tensor<1x512x2048xf32>) -> tensor<512x2048xf32>
    %21 = stablehlo.dot %19, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %22 = stablehlo.multiply %21, %21 : tensor<32x2048xf32>
    %23 = stablehlo.multiply %22, %21 : tensor<32x2048xf32>
    %cst_5 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<32x2048xf32>
    %25 = stablehlo.multiply %23, %24 : tensor<32x2048xf32>
    %26 = stablehlo.add %21, %25 : tensor<32x2048xf32>
    %cst_6 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32x2048xf32>
    %28 = stablehlo.multiply %26, %27 : tensor<32x2048xf32>
    %29 = stablehlo.tanh %28 : tensor<32x2048xf32>
    %30 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x2048xf32>
    %31 = stablehlo.add %29, %30 : tensor<32x2048xf32>
    %cst_7 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<32x2048xf32>
    %33 = stablehlo.multiply %31, %32 : tensor<32x2048xf32>
    %34 = stablehlo.multiply %21, %33 : tensor<32x2048xf32>
    %35 = stablehlo.reshape %arg1 : (tensor<1x2048x512xf32>) -> tensor<2048x512xf32>
    %36 = stablehlo.dot %34, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %37 = "stablehlo.collective_permute"(%36) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %38 = stablehlo.select %9, %15, %37 : tensor<32x512xi1>, tensor<32x512xf32>
    %39 = stablehlo.dot %38, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %40 = stablehlo.multiply %39, %39 : tensor<32x2048xf32>
    %41 = stablehlo.multiply %40, %39 : tensor<32x2048xf32>
    %42 = stablehlo.multiply %41, %24 : tensor<32x2048xf32>
    %43 = stablehlo.add %39, %42 : tensor<32x2048xf32>
    %44 = stablehlo.multiply %43, %27 : tensor<32x2048xf32>
    %45 = stablehlo.tanh %44 : tensor<32x2048xf32>
    %46 = stablehlo.add %45, %30 : tensor<32x2048xf32>
    %47 = stablehlo.multiply %46, %32 : tensor<32x2048xf32>
    %48 = stablehlo.multiply %39, %47 : tensor<32x2048xf32>
    %49 = stablehlo.dot %48, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %50 = "stablehlo.collective_permute"(%49) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %51 = stablehlo.select %9, %13, %50 : tensor<32x512xi1>, tensor<32x512xf32>
    %52 = stablehlo.dot %51, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %53 = stablehlo.multiply %52, %52 : tensor<32x2048xf32>
    %54 = stablehlo.multiply %53, %52 : tensor<32x2048xf32>
    %55 = stablehlo.multiply %54, %24 : tensor<32x2048xf32>
    %56 = stablehlo.add %52, %55 : tensor<32x2048xf32>
    %57 = stablehlo.multiply %56, %27 : tensor<32x2048xf32>
    %58 = stablehlo.tanh %57 : tensor<32x2048xf32>
    %59 = stablehlo.add %58, %30 : tensor<32x2048xf32>
    %60 = stablehlo.multiply %59, %32 : tensor<32x2048xf32>
    %61 = stablehlo.multiply %52, %60 : tensor<32x2048xf32>
    %62 = stablehlo.dot %61, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %63 = "stablehlo.collective_permute"(%62) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %64 = stablehlo.select %9, %11, %63 : tensor<32x512xi1>, tensor<32x512xf32>
    %65 = stablehlo.dot %64, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %66 = stablehlo.multiply %65, %65 : tensor<32x2048xf32>
    %67 = stablehlo.multiply %66, %65 : tensor<32x2048xf32>
    %68 = stablehlo.multiply %67, %24 : tensor<32x2048xf32>
    %69 = stablehlo.add %65, %68 : tensor<32x2048xf32>
    %70 = stablehlo.multiply %69, %27 : tensor<32x2048xf32>
    %71 = stablehlo.tanh %70 : tensor<32x2048xf32>
    %72 = stablehlo.add %71, %30 : tensor<32x2048xf32>
    %73 = stablehlo.multiply %72, %32 : tensor<32x2048xf32>
    %74 = stablehlo.multiply %65, %73 : tensor<32x2048xf32>
    %75 = stablehlo.dot %74, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %76 = stablehlo.reshape %75 : (tensor<32x512xf32>) -> tensor<1x32x512xf32>
    %77 = stablehlo.slice %arg2 [4:5, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %78 = stablehlo.reshape %77 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %79 = "stablehlo.collective_permute"(%75) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %80 = stablehlo.select %9, %78, %79 : tensor<32x512xi1>, tensor<32x512xf32>
    %81 = stablehlo.dot %80, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %82 = stablehlo.multiply %81, %81 : tensor<32x2048xf32>
    %83 = stablehlo.multiply %82, %81 : tensor<32x2048xf32>
    %84 = stablehlo.multiply %83, %24 : tensor<32x2048xf32>
    %85 = stablehlo.add %81, %84 : tensor<32x2048xf32>
    %86 = stablehlo.multiply %85, %27 : tensor<32x2048xf32>
    %87 = stablehlo.tanh %86 : tensor<32x2048xf32>
    %88 = stablehlo.add %87, %30 : tensor<32x2048xf32>
    %89 = stablehlo.multiply %88, %32 : tensor<32x2048xf32>
    %90 = stablehlo.multiply %81, %89 : tensor<32x2048xf32>
    %91 = stablehlo.dot %90, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %92 = stablehlo.reshape %91 : (tensor<32x512xf32>) -> tensor<1x32x512xf32>
    %93 = stablehlo.slice %arg2 [5:6, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %94 = stablehlo.reshape %93 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %95 = "stablehlo.collective_permute"(%91) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %96 = stablehlo.select %9, %94, %95 : tensor<32x512xi1>, tensor<32x512xf32>
    %97 = stablehlo.dot %96, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %98 = stablehlo.multiply %97, %97 : tensor<32x2048xf32>
    %99 = stablehlo.multiply %98, %97 : tensor<32x2048xf32>
    %100 = stablehlo.multiply %99, %24 : tensor<32x2048xf32>
    %101 = stablehlo.add %97, %100 : tensor<32x2048xf32>
    %102 = stablehlo.multiply %101, %27 : tensor<32x2048xf32>
    %103 = stablehlo.tanh %102 : tensor<32x2048xf32>
    %104 = stablehlo.add %103, %30 : tensor<32x2048xf32>
    %105 = stablehlo.multiply %104, %32 : tensor<32x2048xf32>
    %106 = stablehlo.multiply %97, %105 : tensor<32x2048xf32>
    %107 = stablehlo.dot %106, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %108 = stablehlo.reshape %107 : (tensor<32x512xf32>) -> tensor<1x32x512xf32>
    %109 = stablehlo.slice %arg2 [6:7, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %110 = stablehlo.reshape %109 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %111 = "stablehlo.collective_permute"(%107) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %112 = stablehlo.select %9, %110, %111 : tensor<32x512xi1>, tensor<32x512xf32>
    %113 = stablehlo.dot %112, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %114 = stablehlo.multiply %113, %113 : tensor<32x2048xf32>
    %115 = stablehlo.multiply %114, %113 : tensor<32x2048xf32>
    %116 = stablehlo.multiply %115, %24 : tensor<32x2048xf32>
    %117 = stablehlo.add %113, %116 : tensor<32x2048xf32>
    %118 = stablehlo.multiply %117, %27 : tensor<32x2048xf32>
    %119 = stablehlo.tanh %118 : tensor<32x2048xf32>
    %120 = stablehlo.add %119, %30 : tensor<32x2048xf32>
    %121 = stablehlo.multiply %120, %32 : tensor<32x2048xf32>
    %122 = stablehlo.multiply %113, %121 : tensor<32x2048xf32>
    %123 = stablehlo.dot %122, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %124 = stablehlo.reshape %123 : (tensor<32x512xf32>) -> tensor<1x32x512xf32>
    %125 = stablehlo.slice %arg2 [7:8, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %126 = stablehlo.reshape %125 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %127 = "stablehlo.collective_permute"(%123) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %128 = stablehlo.select %9, %126, %127 : tensor<32x512xi1>, tensor<32x512xf32>
    %129 = stablehlo.dot %128, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %130 = stablehlo.multiply %129, %129 : tensor<32x2048xf32>
    %131 = stablehlo.multiply %130, %129 : tensor<32x2048xf32>
    %132 = stablehlo.multiply %131, %24 : tensor<32x2048xf32>
    %133 = stablehlo.add %129, %132 : tensor<32x2048xf32>
    %134 = stablehlo.multiply %133, %27 : tensor<32x2048xf32>
    %135 = stablehlo.tanh %134 : tensor<32x2048xf32>
    %136 = stablehlo.add %135, %30 : tensor<32x2048xf32>
    %137 = stablehlo.multiply %136, %32 : tensor<32x2048xf32>
    %138 = stablehlo.multiply %129, %137 : tensor<32x2048xf32>
    %139 = stablehlo.dot %138, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %140 = stablehlo.reshape %139 : (tensor<32x512xf32>) -> tensor<1x32x512xf32>
    %141 = "stablehlo.collective_permute"(%139) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %142 = stablehlo.select %9, %126, %141 : tensor<32x512xi1>, tensor<32x512xf32>
    %143 = stablehlo.dot %142, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %144 = stablehlo.multiply %143, %143 : tensor<32x2048xf32>
    %145 = stablehlo.multiply %144, %143 : tensor<32x2048xf32>
    %146 = stablehlo.multiply %145, %24 : tensor<32x2048xf32>
    %147 = stablehlo.add %143, %146 : tensor<32x2048xf32>
    %148 = stablehlo.multiply %147, %27 : tensor<32x2048xf32>
    %149 = stablehlo.tanh %148 : tensor<32x2048xf32>
    %150 = stablehlo.add %149, %30 : tensor<32x2048xf32>
    %151 = stablehlo.multiply %150, %32 : tensor<32x2048xf32>
    %152 = stablehlo.multiply %143, %151 : tensor<32x2048xf32>
    %153 = stablehlo.dot %152, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %154 = stablehlo.reshape %153 : (tensor<32x512xf32>) -> tensor<1x32x512xf32>
    %155 = "stablehlo.collective_permute"(%153) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %156 = stablehlo.select %9, %126, %155 : tensor<32x512xi1>, tensor<32x512xf32>
    %157 = stablehlo.dot %156, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %158 = stablehlo.multiply %157, %157 : tensor<32x2048xf32>
    %159 = stablehlo.multiply %158, %157 : tensor<32x2048xf32>
    %160 = stablehlo.multiply %159, %24 : tensor<32x2048xf32>
    %161 = stablehlo.add %157, %160 : tensor<32x2048xf32>
    %162 = stablehlo.multiply %161, %27 : tensor<32x2048xf32>
    %163 = stablehlo.tanh %162 : tensor<32x2048xf32>
    %164 = stablehlo.add %163, %30 : tensor<32x2048xf32>
    %165 = stablehlo.multiply %164, %32 : tensor<32x2048xf32>
    %166 = stablehlo.multiply %157, %165 : tensor<32x2048xf32>
    %167 = stablehlo.dot %166, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %168 = stablehlo.reshape %167 : (tensor<32x512xf32>) -> tensor<1x32x512xf32>
    %169 = "stablehlo.collective_permute"(%167) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %170 = stablehlo.select %9, %126, %169 : tensor<32x512xi1>, tensor<32x512xf32>
    %171 = stablehlo.dot %170, %20, precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<512x2048xf32>) -> tensor<32x2048xf32>
    %172 = stablehlo.multiply %171, %171 : tensor<32x2048xf32>
    %173 = stablehlo.multiply %172, %171 : tensor<32x2048xf32>
    %174 = stablehlo.multiply %173, %24 : tensor<32x2048xf32>
    %175 = stablehlo.add %171, %174 : tensor<32x2048xf32>
    %176 = stablehlo.multiply %175, %27 : tensor<32x2048xf32>
    %177 = stablehlo.tanh %176 : tensor<32x2048xf32>
    %178 = stablehlo.add %177, %30 : tensor<32x2048xf32>
    %179 = stablehlo.multiply %178, %32 : tensor<32x2048xf32>
    %180 = stablehlo.multiply %171, %179 : tensor<32x2048xf32>
    %181 = stablehlo.dot %180, %35, precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<2048x512xf32>) -> tensor<32x512xf32>
    %182 = stablehlo.reshape %181 : (tensor<32x512xf32>) -> tensor<1x32x512xf32>
    %183 = stablehlo.concatenate %76, %92, %108, %124, %140, %154, %168, %182, dim = 0 : (tensor<1x32x512xf32>, tensor<1x32x512xf32>, tensor<1x32x512xf32>, tensor<1x32x512xf32>, tensor<1x32x512xf32>, tensor<1x32x512xf32>, tensor<1x32x512xf32>, tensor<1x32x512xf32>) -> tensor<8x32x512xf32>
    %184 = stablehlo.subtract %183, %arg3 : tensor<8x32x512xf32>
    %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %185 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x32x512xf32>
    %186 = stablehlo.multiply %184, %185 : tensor<8x32x512xf32>
    %187 = stablehlo.multiply %7, %186 : tensor<8x32x512xf32>
    %188 = stablehlo.slice %187 [7:8, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %189 = stablehlo.reshape %188 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %190 = stablehlo.dot_general %189, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %191 = stablehlo.multiply %190, %179 : tensor<32x2048xf32>
    %192 = stablehlo.multiply %171, %190 : tensor<32x2048xf32>
    %193 = stablehlo.multiply %192, %32 : tensor<32x2048xf32>
    %194 = stablehlo.subtract %30, %177 : tensor<32x2048xf32>
    %195 = stablehlo.multiply %193, %194 : tensor<32x2048xf32>
    %196 = stablehlo.multiply %195, %177 : tensor<32x2048xf32>
    %197 = stablehlo.add %195, %196 : tensor<32x2048xf32>
    %198 = stablehlo.multiply %197, %27 : tensor<32x2048xf32>
    %199 = stablehlo.add %191, %198 : tensor<32x2048xf32>
    %200 = stablehlo.multiply %198, %24 : tensor<32x2048xf32>
    %cst_9 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %201 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32x2048xf32>
    %202 = stablehlo.multiply %172, %201 : tensor<32x2048xf32>
    %203 = stablehlo.multiply %200, %202 : tensor<32x2048xf32>
    %204 = stablehlo.add %199, %203 : tensor<32x2048xf32>
    %205 = stablehlo.dot_general %204, %170, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %206 = stablehlo.transpose %205, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %207 = stablehlo.slice %187 [6:7, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %208 = stablehlo.reshape %207 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %209 = stablehlo.dot_general %204, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %210 = stablehlo.select %9, %18, %209 : tensor<32x512xi1>, tensor<32x512xf32>
    %211 = "stablehlo.collective_permute"(%210) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %212 = stablehlo.add %208, %211 : tensor<32x512xf32>
    %213 = stablehlo.dot_general %212, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %214 = stablehlo.multiply %213, %165 : tensor<32x2048xf32>
    %215 = stablehlo.multiply %157, %213 : tensor<32x2048xf32>
    %216 = stablehlo.multiply %215, %32 : tensor<32x2048xf32>
    %217 = stablehlo.subtract %30, %163 : tensor<32x2048xf32>
    %218 = stablehlo.multiply %216, %217 : tensor<32x2048xf32>
    %219 = stablehlo.multiply %218, %163 : tensor<32x2048xf32>
    %220 = stablehlo.add %218, %219 : tensor<32x2048xf32>
    %221 = stablehlo.multiply %220, %27 : tensor<32x2048xf32>
    %222 = stablehlo.add %214, %221 : tensor<32x2048xf32>
    %223 = stablehlo.multiply %221, %24 : tensor<32x2048xf32>
    %224 = stablehlo.multiply %158, %201 : tensor<32x2048xf32>
    %225 = stablehlo.multiply %223, %224 : tensor<32x2048xf32>
    %226 = stablehlo.add %222, %225 : tensor<32x2048xf32>
    %227 = stablehlo.dot_general %226, %156, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %228 = stablehlo.transpose %227, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %229 = stablehlo.add %206, %228 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %230 = stablehlo.slice %187 [5:6, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %231 = stablehlo.reshape %230 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %232 = stablehlo.dot_general %226, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %233 = stablehlo.select %9, %18, %232 : tensor<32x512xi1>, tensor<32x512xf32>
    %234 = "stablehlo.collective_permute"(%233) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %235 = stablehlo.add %231, %234 : tensor<32x512xf32>
    %236 = stablehlo.dot_general %235, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %237 = stablehlo.multiply %236, %151 : tensor<32x2048xf32>
    %238 = stablehlo.multiply %143, %236 : tensor<32x2048xf32>
    %239 = stablehlo.multiply %238, %32 : tensor<32x2048xf32>
    %240 = stablehlo.subtract %30, %149 : tensor<32x2048xf32>
    %241 = stablehlo.multiply %239, %240 : tensor<32x2048xf32>
    %242 = stablehlo.multiply %241, %149 : tensor<32x2048xf32>
    %243 = stablehlo.add %241, %242 : tensor<32x2048xf32>
    %244 = stablehlo.multiply %243, %27 : tensor<32x2048xf32>
    %245 = stablehlo.add %237, %244 : tensor<32x2048xf32>
    %246 = stablehlo.multiply %244, %24 : tensor<32x2048xf32>
    %247 = stablehlo.multiply %144, %201 : tensor<32x2048xf32>
    %248 = stablehlo.multiply %246, %247 : tensor<32x2048xf32>
    %249 = stablehlo.add %245, %248 : tensor<32x2048xf32>
    %250 = stablehlo.dot_general %249, %142, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %251 = stablehlo.transpose %250, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %252 = stablehlo.add %229, %251 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %253 = stablehlo.slice %187 [4:5, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %254 = stablehlo.reshape %253 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %255 = stablehlo.dot_general %249, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %256 = stablehlo.select %9, %18, %255 : tensor<32x512xi1>, tensor<32x512xf32>
    %257 = "stablehlo.collective_permute"(%256) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %258 = stablehlo.add %254, %257 : tensor<32x512xf32>
    %259 = stablehlo.dot_general %258, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %260 = stablehlo.multiply %259, %137 : tensor<32x2048xf32>
    %261 = stablehlo.multiply %129, %259 : tensor<32x2048xf32>
    %262 = stablehlo.multiply %261, %32 : tensor<32x2048xf32>
    %263 = stablehlo.subtract %30, %135 : tensor<32x2048xf32>
    %264 = stablehlo.multiply %262, %263 : tensor<32x2048xf32>
    %265 = stablehlo.multiply %264, %135 : tensor<32x2048xf32>
    %266 = stablehlo.add %264, %265 : tensor<32x2048xf32>
    %267 = stablehlo.multiply %266, %27 : tensor<32x2048xf32>
    %268 = stablehlo.add %260, %267 : tensor<32x2048xf32>
    %269 = stablehlo.multiply %267, %24 : tensor<32x2048xf32>
    %270 = stablehlo.multiply %130, %201 : tensor<32x2048xf32>
    %271 = stablehlo.multiply %269, %270 : tensor<32x2048xf32>
    %272 = stablehlo.add %268, %271 : tensor<32x2048xf32>
    %273 = stablehlo.dot_general %272, %128, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %274 = stablehlo.transpose %273, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %275 = stablehlo.add %252, %274 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %276 = stablehlo.slice %187 [3:4, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %277 = stablehlo.reshape %276 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %278 = stablehlo.dot_general %272, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %279 = stablehlo.select %9, %18, %278 : tensor<32x512xi1>, tensor<32x512xf32>
    %280 = "stablehlo.collective_permute"(%279) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %281 = stablehlo.add %277, %280 : tensor<32x512xf32>
    %282 = stablehlo.dot_general %281, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %283 = stablehlo.multiply %282, %121 : tensor<32x2048xf32>
    %284 = stablehlo.multiply %113, %282 : tensor<32x2048xf32>
    %285 = stablehlo.multiply %284, %32 : tensor<32x2048xf32>
    %286 = stablehlo.subtract %30, %119 : tensor<32x2048xf32>
    %287 = stablehlo.multiply %285, %286 : tensor<32x2048xf32>
    %288 = stablehlo.multiply %287, %119 : tensor<32x2048xf32>
    %289 = stablehlo.add %287, %288 : tensor<32x2048xf32>
    %290 = stablehlo.multiply %289, %27 : tensor<32x2048xf32>
    %291 = stablehlo.add %283, %290 : tensor<32x2048xf32>
    %292 = stablehlo.multiply %290, %24 : tensor<32x2048xf32>
    %293 = stablehlo.multiply %114, %201 : tensor<32x2048xf32>
    %294 = stablehlo.multiply %292, %293 : tensor<32x2048xf32>
    %295 = stablehlo.add %291, %294 : tensor<32x2048xf32>
    %296 = stablehlo.dot_general %295, %112, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %297 = stablehlo.transpose %296, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %298 = stablehlo.add %275, %297 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %299 = stablehlo.slice %187 [2:3, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %300 = stablehlo.reshape %299 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %301 = stablehlo.dot_general %295, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %302 = stablehlo.select %9, %18, %301 : tensor<32x512xi1>, tensor<32x512xf32>
    %303 = "stablehlo.collective_permute"(%302) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %304 = stablehlo.add %300, %303 : tensor<32x512xf32>
    %305 = stablehlo.dot_general %304, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %306 = stablehlo.multiply %305, %105 : tensor<32x2048xf32>
    %307 = stablehlo.multiply %97, %305 : tensor<32x2048xf32>
    %308 = stablehlo.multiply %307, %32 : tensor<32x2048xf32>
    %309 = stablehlo.subtract %30, %103 : tensor<32x2048xf32>
    %310 = stablehlo.multiply %308, %309 : tensor<32x2048xf32>
    %311 = stablehlo.multiply %310, %103 : tensor<32x2048xf32>
    %312 = stablehlo.add %310, %311 : tensor<32x2048xf32>
    %313 = stablehlo.multiply %312, %27 : tensor<32x2048xf32>
    %314 = stablehlo.add %306, %313 : tensor<32x2048xf32>
    %315 = stablehlo.multiply %313, %24 : tensor<32x2048xf32>
    %316 = stablehlo.multiply %98, %201 : tensor<32x2048xf32>
    %317 = stablehlo.multiply %315, %316 : tensor<32x2048xf32>
    %318 = stablehlo.add %314, %317 : tensor<32x2048xf32>
    %319 = stablehlo.dot_general %318, %96, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %320 = stablehlo.transpose %319, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %321 = stablehlo.add %298, %320 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %322 = stablehlo.slice %187 [1:2, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %323 = stablehlo.reshape %322 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %324 = stablehlo.dot_general %318, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %325 = stablehlo.select %9, %18, %324 : tensor<32x512xi1>, tensor<32x512xf32>
    %326 = "stablehlo.collective_permute"(%325) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %327 = stablehlo.add %323, %326 : tensor<32x512xf32>
    %328 = stablehlo.dot_general %327, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %329 = stablehlo.multiply %328, %89 : tensor<32x2048xf32>
    %330 = stablehlo.multiply %81, %328 : tensor<32x2048xf32>
    %331 = stablehlo.multiply %330, %32 : tensor<32x2048xf32>
    %332 = stablehlo.subtract %30, %87 : tensor<32x2048xf32>
    %333 = stablehlo.multiply %331, %332 : tensor<32x2048xf32>
    %334 = stablehlo.multiply %333, %87 : tensor<32x2048xf32>
    %335 = stablehlo.add %333, %334 : tensor<32x2048xf32>
    %336 = stablehlo.multiply %335, %27 : tensor<32x2048xf32>
    %337 = stablehlo.add %329, %336 : tensor<32x2048xf32>
    %338 = stablehlo.multiply %336, %24 : tensor<32x2048xf32>
    %339 = stablehlo.multiply %82, %201 : tensor<32x2048xf32>
    %340 = stablehlo.multiply %338, %339 : tensor<32x2048xf32>
    %341 = stablehlo.add %337, %340 : tensor<32x2048xf32>
    %342 = stablehlo.dot_general %341, %80, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %343 = stablehlo.transpose %342, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %344 = stablehlo.add %321, %343 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %345 = stablehlo.slice %187 [0:1, 0:32, 0:512] : (tensor<8x32x512xf32>) -> tensor<1x32x512xf32>
    %346 = stablehlo.reshape %345 : (tensor<1x32x512xf32>) -> tensor<32x512xf32>
    %347 = stablehlo.dot_general %341, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %348 = stablehlo.select %9, %18, %347 : tensor<32x512xi1>, tensor<32x512xf32>
    %349 = "stablehlo.collective_permute"(%348) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %350 = stablehlo.add %346, %349 : tensor<32x512xf32>
    %351 = stablehlo.dot_general %350, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %352 = stablehlo.multiply %351, %73 : tensor<32x2048xf32>
    %353 = stablehlo.multiply %65, %351 : tensor<32x2048xf32>
    %354 = stablehlo.multiply %353, %32 : tensor<32x2048xf32>
    %355 = stablehlo.subtract %30, %71 : tensor<32x2048xf32>
    %356 = stablehlo.multiply %354, %355 : tensor<32x2048xf32>
    %357 = stablehlo.multiply %356, %71 : tensor<32x2048xf32>
    %358 = stablehlo.add %356, %357 : tensor<32x2048xf32>
    %359 = stablehlo.multiply %358, %27 : tensor<32x2048xf32>
    %360 = stablehlo.add %352, %359 : tensor<32x2048xf32>
    %361 = stablehlo.multiply %359, %24 : tensor<32x2048xf32>
    %362 = stablehlo.multiply %66, %201 : tensor<32x2048xf32>
    %363 = stablehlo.multiply %361, %362 : tensor<32x2048xf32>
    %364 = stablehlo.add %360, %363 : tensor<32x2048xf32>
    %365 = stablehlo.dot_general %364, %64, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %366 = stablehlo.transpose %365, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %367 = stablehlo.add %344, %366 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %368 = stablehlo.dot_general %364, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %369 = stablehlo.select %9, %18, %368 : tensor<32x512xi1>, tensor<32x512xf32>
    %370 = "stablehlo.collective_permute"(%369) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %371 = stablehlo.dot_general %370, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %372 = stablehlo.multiply %371, %60 : tensor<32x2048xf32>
    %373 = stablehlo.multiply %52, %371 : tensor<32x2048xf32>
    %374 = stablehlo.multiply %373, %32 : tensor<32x2048xf32>
    %375 = stablehlo.subtract %30, %58 : tensor<32x2048xf32>
    %376 = stablehlo.multiply %374, %375 : tensor<32x2048xf32>
    %377 = stablehlo.multiply %376, %58 : tensor<32x2048xf32>
    %378 = stablehlo.add %376, %377 : tensor<32x2048xf32>
    %379 = stablehlo.multiply %378, %27 : tensor<32x2048xf32>
    %380 = stablehlo.add %372, %379 : tensor<32x2048xf32>
    %381 = stablehlo.multiply %379, %24 : tensor<32x2048xf32>
    %382 = stablehlo.multiply %53, %201 : tensor<32x2048xf32>
    %383 = stablehlo.multiply %381, %382 : tensor<32x2048xf32>
    %384 = stablehlo.add %380, %383 : tensor<32x2048xf32>
    %385 = stablehlo.dot_general %384, %51, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %386 = stablehlo.transpose %385, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %387 = stablehlo.add %367, %386 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %388 = stablehlo.dot_general %384, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %389 = stablehlo.select %9, %18, %388 : tensor<32x512xi1>, tensor<32x512xf32>
    %390 = "stablehlo.collective_permute"(%389) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %391 = stablehlo.dot_general %390, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %392 = stablehlo.multiply %391, %47 : tensor<32x2048xf32>
    %393 = stablehlo.multiply %39, %391 : tensor<32x2048xf32>
    %394 = stablehlo.multiply %393, %32 : tensor<32x2048xf32>
    %395 = stablehlo.subtract %30, %45 : tensor<32x2048xf32>
    %396 = stablehlo.multiply %394, %395 : tensor<32x2048xf32>
    %397 = stablehlo.multiply %396, %45 : tensor<32x2048xf32>
    %398 = stablehlo.add %396, %397 : tensor<32x2048xf32>
    %399 = stablehlo.multiply %398, %27 : tensor<32x2048xf32>
    %400 = stablehlo.add %392, %399 : tensor<32x2048xf32>
    %401 = stablehlo.multiply %399, %24 : tensor<32x2048xf32>
    %402 = stablehlo.multiply %40, %201 : tensor<32x2048xf32>
    %403 = stablehlo.multiply %401, %402 : tensor<32x2048xf32>
    %404 = stablehlo.add %400, %403 : tensor<32x2048xf32>
    %405 = stablehlo.dot_general %404, %38, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %406 = stablehlo.transpose %405, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %407 = stablehlo.add %387, %406 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %408 = stablehlo.dot_general %404, %20, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<512x2048xf32>) -> tensor<32x512xf32>
    %409 = stablehlo.select %9, %18, %408 : tensor<32x512xi1>, tensor<32x512xf32>
    %410 = "stablehlo.collective_permute"(%409) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, source_target_pairs = dense<[[1, 0], [2, 1], [3, 2], [0, 3]]> : tensor<4x2xi64>}> : (tensor<32x512xf32>) -> tensor<32x512xf32>
    %411 = stablehlo.dot_general %410, %35, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<2048x512xf32>) -> tensor<32x2048xf32>
    %412 = stablehlo.multiply %411, %33 : tensor<32x2048xf32>
    %413 = stablehlo.multiply %21, %411 : tensor<32x2048xf32>
    %414 = stablehlo.multiply %413, %32 : tensor<32x2048xf32>
    %415 = stablehlo.subtract %30, %29 : tensor<32x2048xf32>
    %416 = stablehlo.multiply %414, %415 : tensor<32x2048xf32>
    %417 = stablehlo.multiply %416, %29 : tensor<32x2048xf32>
    %418 = stablehlo.add %416, %417 : tensor<32x2048xf32>
    %419 = stablehlo.multiply %418, %27 : tensor<32x2048xf32>
    %420 = stablehlo.add %412, %419 : tensor<32x2048xf32>
    %421 = stablehlo.multiply %419, %24 : tensor<32x2048xf32>
    %422 = stablehlo.multiply %22, %201 : tensor<32x2048xf32>
    %423 = stablehlo.multiply %421, %422 : tensor<32x2048xf32>
    %424 = stablehlo.add %420, %423 : tensor<32x2048xf32>
    %425 = stablehlo.dot_general %424, %19, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x2048xf32>, tensor<32x512xf32>) -> tensor<2048x512xf32>
    %426 = stablehlo.transpose %425, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : (tensor<2048x512xf32>) -> tensor<512x2048xf32>
    %427 = stablehlo.add %407, %426 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[512,2048]{0,1}"} : tensor<512x2048xf32>
    %428 = stablehlo.reshape %427 : (tensor<512x2048xf32>) -> tensor<1x512x2048xf32>
    %cst_10 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %429 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x512x2048xf32>
    %430 = stablehlo.multiply %428, %429 : tensor<1x512x2048xf32>
    %431 = stablehlo.subtract %arg0, %430 : tensor<1x512x2048xf32>
    %432 = stablehlo.dot_general %189, %180, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %433 = stablehlo.transpose %432, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %434 = stablehlo.dot_general %212, %166, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %435 = stablehlo.transpose %434, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %436 = stablehlo.add %433, %435 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %437 = stablehlo.dot_general %235, %152, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %438 = stablehlo.transpose %437, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %439 = stablehlo.add %436, %438 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %440 = stablehlo.dot_general %258, %138, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %441 = stablehlo.transpose %440, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %442 = stablehlo.add %439, %441 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %443 = stablehlo.dot_general %281, %122, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %444 = stablehlo.transpose %443, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %445 = stablehlo.add %442, %444 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %446 = stablehlo.dot_general %304, %106, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %447 = stablehlo.transpose %446, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %448 = stablehlo.add %445, %447 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %449 = stablehlo.dot_general %327, %90, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %450 = stablehlo.transpose %449, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %451 = stablehlo.add %448, %450 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %452 = stablehlo.dot_general %350, %74, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %453 = stablehlo.transpose %452, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %454 = stablehlo.add %451, %453 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %455 = stablehlo.dot_general %370, %61, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %456 = stablehlo.transpose %455, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %457 = stablehlo.add %454, %456 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %458 = stablehlo.dot_general %390, %48, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %459 = stablehlo.transpose %458, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %460 = stablehlo.add %457, %459 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %461 = stablehlo.dot_general %410, %34, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x512xf32>, tensor<32x2048xf32>) -> tensor<512x2048xf32>
    %462 = stablehlo.transpose %461, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : (tensor<512x2048xf32>) -> tensor<2048x512xf32>
    %463 = stablehlo.add %460, %462 {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[2048,512]{0,1}"} : tensor<2048x512xf32>
    %464 = stablehlo.reshape %463 : (tensor<2048x512xf32>) -> tensor<1x2048x512xf32>
    %465 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<1x2048x512xf32>
    %466 = stablehlo.multiply %464, %465 : tensor<1x2048x512xf32>
    %467 = stablehlo.subtract %arg1, %466 : tensor<1x2048x512xf32>
    %468 = stablehlo.multiply %184, %184 : tensor<8x32x512xf32>
    %469 = stablehlo.reduce(%468 init: %cst_2) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x32x512xf32>, tensor<f32>) -> tensor<f32>
    %470 = stablehlo.divide %469, %cst_3 : tensor<f32>
    %471 = stablehlo.select %4, %470, %cst_2 : tensor<i1>, tensor<f32>
    %472 = "stablehlo.all_reduce"(%471) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %473 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %473 : tensor<f32>
    }) : (tensor<f32>) -> tensor<f32>
    return %431, %467, %472 : tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>
  }
  func.func @main(%arg0: tensor<1x512x2048xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, %arg1: tensor<1x2048x512xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}, %arg2: tensor<8x32x512xf32> {mhlo.sharding = "{replicated}"}, %arg3: tensor<8x32x512xf32> {mhlo.sharding = "{replicated}"}) -> (tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>) {
    %0:3 = call @xla.sdy.inlinable_manual_computation_body.3_spmd(%arg0, %arg1, %arg2, %arg3) : (tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<8x32x512xf32>, tensor<8x32x512xf32>) -> (tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>)
    return %0#0, %0#1, %0#2 : tensor<1x512x2048xf32>, tensor<1x2048x512xf32>, tensor<f32>
  }
}
