// Loops with and without a static trip count, case/if branches and captured outer values.
module @control_flow {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<i32>, %arg2: tensor<i1>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<i32>, tensor<4xf32>
    cond {
      %c_3 = stablehlo.constant dense<7> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      %2 = stablehlo.multiply %iterArg_2, %arg0 : tensor<4xf32>
      stablehlo.return %1, %iterArg_1, %2 : tensor<i32>, tensor<i32>, tensor<4xf32>
    }
    %c_10 = stablehlo.constant dense<10> : tensor<i32>
    %c_2 = stablehlo.constant dense<2> : tensor<i32>
    %3:3 = stablehlo.while(%i = %c_2, %n = %c_10, %x = %0#2) : tensor<i32>, tensor<i32>, tensor<4xf32>
    cond {
      %p = stablehlo.compare GT, %n, %i, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %step = stablehlo.constant dense<3> : tensor<i32>
      %next = stablehlo.add %step, %i : tensor<i32>
      %y = stablehlo.add %x, %x : tensor<4xf32>
      stablehlo.return %next, %n, %y : tensor<i32>, tensor<i32>, tensor<4xf32>
    }
    %4:2 = stablehlo.while(%i = %c, %x = %3#2) : tensor<i32>, tensor<4xf32>
    cond {
      %p = stablehlo.compare LT, %i, %arg1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %x : tensor<i32>, tensor<4xf32>
    }
    %5 = "stablehlo.case"(%arg1) ({
      %6 = stablehlo.multiply %4#1, %arg0 : tensor<4xf32>
      stablehlo.return %6 : tensor<4xf32>
    }, {
      %6 = stablehlo.add %4#1, %4#1 : tensor<4xf32>
      stablehlo.return %6 : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    %7 = "stablehlo.if"(%arg2) ({
      %8 = stablehlo.negate %5 : tensor<4xf32>
      stablehlo.return %8 : tensor<4xf32>
    }, {
      stablehlo.return %arg0 : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    return %7 : tensor<4xf32>
  }
}
