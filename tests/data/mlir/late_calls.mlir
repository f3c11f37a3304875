// Functions defined after their first caller, called from the entry body, a loop body and a fusion.
module @late_calls {
  func.func public @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %a, %a : tensor<4xf32>
    %1 = stablehlo.multiply %0, %a : tensor<4xf32>
    %2 = stablehlo.negate %1 : tensor<4xf32>
    %3 = call @late(%2) : (tensor<4xf32>) -> tensor<4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4:2 = stablehlo.while(%i = %c, %x = %3) : tensor<i32>, tensor<4xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %y = func.call @later(%x) : (tensor<4xf32>) -> tensor<4xf32>
      stablehlo.return %next, %y : tensor<i32>, tensor<4xf32>
    }
    %5 = stablehlo.add %4#1, %0 : tensor<4xf32>
    %6 = call @late(%5) : (tensor<4xf32>) -> tensor<4xf32>
    %7 = stablehlo.subtract %6, %2 : tensor<4xf32>
    %8 = "mhlo.fusion"(%7) ({
    ^bb0(%f: tensor<4xf32>):
      %g = func.call @latest(%f) : (tensor<4xf32>) -> tensor<4xf32>
      mhlo.return %g : tensor<4xf32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    %9 = stablehlo.add %8, %8 : tensor<4xf32>
    %10 = stablehlo.add %9, %7 : tensor<4xf32>
    return %10 : tensor<4xf32>
  }
  func.func private @latest(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.sine %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @late(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.exponential %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @later(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = call @late(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = stablehlo.add %0, %x : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
